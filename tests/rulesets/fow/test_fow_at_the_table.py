"""Flames of War at the table (issue 14): the compact entry of teams, the names, the
proposal shown before the defender is asked, a roster of both sides' platoons, the what-if
mark, and no question whose answer the rules or the lines already fix."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import current_language, render, set_language
from referee.core.errors import AnswerError, MissingAnswerError, ScriptError
from referee.core.questions import ChoiceQuestion, ConfirmQuestion, LineQuestion, Question
from referee.core.result import Result
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.rulesets.fow.line import DefenderLine, DefenderQuestion, HitterLine, HitterQuestion
from tests.support import ROOT
from tests.support.fow import D, H, decl
from tests.support.fow import run as run_declared

ROSTER = ROOT / "transcripts" / "rosters" / "fow-orchard.toml"
# the reference attack of benchmarks/questions.py (fow-typed), typed as a player would
REFERENCE = {"defending.1": "3 inf", "defending.2": "gun", "defending.3": "tank bailed top 1",
             "hitting.1": "3 hits", "hitting.2": "2 hits"}


class Asking:
    """Answers by id (the question's default for the rest) and keeps every question."""

    def __init__(self, answers: Mapping[str, Any], dice: Any) -> None:
        self.inner = AnswerPort(dict(answers), dice, use_defaults=True,
                                roll_missing_dice=True)
        self.questions: list[Question] = []

    def ask(self, question: Question) -> Any:
        self.questions.append(question)
        return self.inner.ask(question)

    def finish(self) -> None:
        self.inner.finish()

    def get(self, qid: str) -> Question:
        return next(q for q in self.questions if q.id == qid)

    @property
    def ids(self) -> list[str]:
        return [q.id for q in self.questions]


def play(answers: Mapping[str, Any], declaration: Mapping[str, Any] | None = None,
         options: tuple[str, ...] = ()) -> tuple[Result, Asking]:
    if declaration is None or "roster" in declaration:  # the allocation of known hits
        answers = {"step": "allocation", **answers}
    plan = api.plan_attack("fow", seed=1, options=options, declaration=declaration)
    port = Asking(answers, plan.dice)
    result = api.play(plan, port)
    return result, port


def working(result: Result) -> list[tuple[str | None, str]]:
    return [(s.clause, render(s.text)) for s in result.steps]


@contextmanager
def language(lang: str) -> Iterator[None]:
    before = current_language()
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def refusal(question: LineQuestion, line: str) -> str:
    with pytest.raises(AnswerError) as err:
        question.accept(line)
    return render(err.value.msg)


def defenders(**extra: Any) -> DefenderQuestion:
    return DefenderQuestion(id="defending.1", text=Msg.of("fow.q.defenders", first="D1"),
                         **extra)


def hitters(ids: tuple[str, ...] = ("d1", "d2", "d3"), **extra: Any) -> HitterQuestion:
    return HitterQuestion(id="hitting.1", text=Msg.of("fow.q.hitters", first="H1"),
                       team_ids=ids, **extra)


# --- 1. compact entry ----------------------------------------------------------------------

@pytest.mark.parametrize("line, value", [
    ("3 inf", DefenderLine(3, "infantry")),
    ("3x infantry", DefenderLine(3, "infantry")),
    ("gun building", DefenderLine(1, "gun", building=True)),
    ("inf in the building", DefenderLine(1, "infantry", building=True)),
    ("tank bailed top 1", DefenderLine(1, "tank", "bailed-out", 1)),
    ("Tank Bailed-Out top1", DefenderLine(1, "tank", "bailed-out", 1)),
    ("2 tank bogged down 3", DefenderLine(2, "tank", "bogged-down", 3)),
    ("transport", DefenderLine(1, "transport")),
    ("3 пехота", DefenderLine(3, "infantry")),
    ("танк покинут верх 1", DefenderLine(1, "tank", "bailed-out", 1)),
    ("орудие в здании", DefenderLine(1, "gun", building=True)),
])
def test_a_defending_line_says_type_status_top_armour_and_building(line: str,
                                                                    value: DefenderLine) -> None:
    question = defenders()
    assert question.accept(line) == value
    for lang in ("en", "ru"):  # shown in either language, read back in either
        with language(lang):
            shown = question.format(value)
        assert question.accept(shown) == value


@pytest.mark.parametrize("line, part, en, ru", [
    ("3 infx", "infx", "not a team type", "это не тип отделения"),
    ("inf top 1", "top 1", "only tanks and transports have Top armour (F-6)",
     "Верхняя броня есть только у техники"),
    ("inf bailed", "bailed", "Bogged Down or Bailed Out (F-4)", "Застрявшей или Покинутой"),
    ("tank building", "building", "never in a building (F-10)", "не бывает в Здании"),
    ("tank top 30", "top 30", "from 0 to 20", "от 0 до 20"),
    ("3 4 inf", "4", "a second count", "второе число отделений"),
    ("0 inf", "0", "at least one team", "хотя бы одно отделение"),
    ("tank top", "top", "needs its number", "нужно число"),
])
def test_a_wrong_defending_line_is_refused_naming_the_part_in_both_languages(
        line: str, part: str, en: str, ru: str) -> None:
    question = defenders()
    for lang, words in (("en", en), ("ru", ru)):
        with language(lang):
            shown = refusal(question, line)
        assert part in shown and words in shown and "\n" not in shown


def test_the_top_armour_is_typed_not_picked_from_a_list() -> None:
    _, port = play({**REFERENCE, "defending.3": "tank bailed top 14"})
    assert not any(isinstance(q, ChoiceQuestion) and "top" in q.id for q in port.questions)
    assert isinstance(port.get("defending.3"), LineQuestion)


def test_no_type_and_no_hits_are_refused() -> None:
    assert "no team type" in refusal(defenders(), "3")
    assert "how many hits" in refusal(hitters(), "inf")


@pytest.mark.parametrize("line, value", [
    ("3 hits", HitterLine(1, 3)),
    ("3", HitterLine(1, 3)),
    ("2x3 tank fa d1 d2", HitterLine(2, 3, "tank", True, reach=("d1", "d2"))),
    ("1 hit priority gun d1-d2", HitterLine(1, 1, priority="gun", reach=("d1", "d2"))),
    ("2 hits all", HitterLine(1, 2)),
    ("2 hits d1 d2 d3", HitterLine(1, 2)),  # every team named is every team
    ("3 поп. все", HitterLine(1, 3)),
    ("2 попадания танк пб d1 d3", HitterLine(1, 2, "tank", True, reach=("d1", "d3"))),
    ("1 escort fa d2", HitterLine(1, 1, "tank-escort", True, reach=("d2",))),
])
def test_a_hitting_line_says_hits_type_priority_and_reach(line: str, value: HitterLine) -> None:
    question = hitters()
    assert question.accept(line) == value
    for lang in ("en", "ru"):
        with language(lang):
            shown = question.format(value)
        assert question.accept(shown) == value


@pytest.mark.parametrize("line, part, en, ru", [
    ("3 d9", "d9", "a defending team (d1, d2, d3)", "обороняющееся отделение (d1, d2, d3)"),
    ("3 inf fa", "fa", "Fully-Armoured (F-11)", "полностью бронированными"),
    ("3 priority", "priority", "needs a type after it", "нужен тип"),
    ("3 priority transport", "priority transport", "(F-X1)", "(F-X1)"),
    ("3 all d1", "all", "either all or the teams", "либо «все»"),
    ("3 d1 d1", "d1", "named twice", "названо дважды"),
    ("3 tank door", "door", "a tank fights from the open", "танк бьётся с открытого места"),
    ("3 door", "door", "no defending team is in a building (F-10)",
     "ни одно обороняющееся отделение не в Здании (F-10)"),
    ("3 transport", "transport", "transports do not assault", "транспорт не ведёт ближний бой"),
])
def test_a_wrong_hitting_line_is_refused_naming_the_part_in_both_languages(
        line: str, part: str, en: str, ru: str) -> None:
    question = hitters()
    for lang, words in (("en", en), ("ru", ru)):
        with language(lang):
            shown = refusal(question, line)
        assert part in shown and words in shown and "\n" not in shown


def test_a_refused_line_in_a_script_names_the_question_and_the_part() -> None:
    with pytest.raises(ScriptError) as err:
        play({**REFERENCE, "defending.2": "gun top 2"})
    assert err.value.where == "answers.defending.2"
    assert render(err.value.expected) == ("'top 2': only tanks and transports have Top armour "
                                          "(F-6)")


def test_the_reference_attack_gives_what_the_same_declaration_gives() -> None:
    typed, port = play(REFERENCE)
    declared = run_declared(decl(
        [D("d1"), D("d2"), D("d3"), D("d4", "gun"),
         D("d5", "tank", status="bailed-out", top=1)],
        [H("h1", 3, ["d1", "d2", "d3", "d4", "d5"]), H("h2", 2, ["d1", "d2", "d3", "d4", "d5"])]))
    assert typed.outcome_data == declared.outcome_data
    assert len(port.questions) == 12  # with the first: the whole assault or the allocation


team_kinds = st.sampled_from(["inf", "gun", "tank", "tank bailed", "tank bogged top 2",
                              "transport", "inf building", "tank top 1"])


@settings(max_examples=25, deadline=None)
@given(groups=st.lists(st.tuples(st.integers(1, 3), team_kinds), min_size=1, max_size=3),
       hits=st.lists(st.tuples(st.integers(1, 2), st.integers(0, 3),
                               st.sampled_from(["", " tank", " priority inf"])),
                     min_size=1, max_size=2))
def test_a_group_in_one_line_gives_what_its_teams_one_by_one_give(
        groups: list[tuple[int, str]], hits: list[tuple[int, int, str]]) -> None:
    grouped: dict[str, Any] = {}
    single: dict[str, Any] = {}
    k = 0
    for i, (count, kind) in enumerate(groups, 1):
        grouped[f"defending.{i}"] = f"{count} {kind}"
        for _ in range(count):
            k += 1
            single[f"defending.{k}"] = kind
    k = 0
    for i, (count, n, extra) in enumerate(hits, 1):
        grouped[f"hitting.{i}"] = f"{count}x{n}{extra}"
        for _ in range(count):
            k += 1
            single[f"hitting.{k}"] = f"{n}{extra}"
    one, _ = play(grouped)
    other, _ = play(single)
    assert one.outcome_data == other.outcome_data
    assert one.tables == other.tables


def test_an_old_script_of_counts_and_types_is_refused_naming_the_new_question() -> None:
    old = {"defending": 5, "defending.1.type": "infantry", "hitting": 2,
           "hitting.1.hits": 3, "allocation": "proposed"}
    plan = api.plan_attack("fow", seed=1, declaration=None)
    with pytest.raises(MissingAnswerError) as err:
        api.play(plan, AnswerPort(old, plan.dice))
    assert err.value.question_id == "step"


# --- 2. the proposal shown before the defender is asked -----------------------------------

@pytest.mark.clause("F-1")
def test_F1_the_proposal_is_shown_before_the_defender_is_asked_and_is_the_result_table() -> None:
    result, port = play(REFERENCE)
    question = port.get("allocation")
    assert isinstance(question, ChoiceQuestion) and question.default == "proposed"
    (shown,) = question.shows
    final = next(t for t in result.tables if t.title == Msg.of("fow.table.allocation"))
    assert shown.rows == final.rows and shown.columns == final.columns
    assert render(shown.columns[-1]) == "Why there"
    assert "Defender" in render(question.text)


def test_the_table_front_end_prints_the_proposal_before_the_question(root: Path) -> None:
    from tests.support.transcripts import Command, replay

    typed = ["allocation", "3 inf", "gun", "tank bailed top 1", "", "", "3 hits", "2 hits", "",
             "", "", ""]
    out = replay(Command("referee attack fow --seed 1 --working",
                         "\n".join(f"? q  {a}" for a in typed), 0, 0))
    before, after = out.split("? Defender: accept", 1)
    assert "The referee's proposal [F-3]" in before.split("? Names of the hitting")[-1]
    assert "Why there" in before and "Allocation [F-3]" in after


def test_an_accepted_proposal_is_one_enter() -> None:
    result, port = play(REFERENCE)  # allocation not answered: Enter, its default
    assert "allocation" in port.ids and result.outcome_data["held"] == {
        "d1": 1, "d2": 1, "d3": 1, "d4": 1, "d5": 1}


# --- 3. a roster of both sides' platoons ---------------------------------------------------

ROSTER_ANSWERS = {"hitting-teams": "p1 p2", "defending-teams": "r1-r3 ag rt",
                  "defending.exceptions": "rt bailed", "hitting.p1": "3 hits",
                  "hitting.p2": "2 hits"}


def test_a_roster_asks_who_hits_their_hits_and_reach_and_what_it_cannot_know() -> None:
    result, port = play(ROSTER_ANSWERS, {"roster": str(ROSTER)})
    assert port.ids == ["step", "hitting-teams", "defending-teams", "defending.exceptions",
                        "hitting.p1", "hitting.p2", "allocation", "results"]
    typed, _ = play(REFERENCE)
    held = result.outcome_data["held"]
    assert sorted(held.values()) == sorted(typed.outcome_data["held"].values())
    teams = next(t for t in result.tables if t.title == Msg.of("fow.table.teams"))
    assert ("Red light tank", "1") in [(r[0], str(r[3])) for r in teams.rows]
    assert render(result.steps[0].text).startswith("Grey scored 5 hits")


@pytest.mark.clause("F-11")
def test_F11_a_roster_gives_the_type_and_fully_armoured_so_the_line_may_not() -> None:
    line = HitterQuestion(id="hitting.gt1", text=Msg.of("fow.q.hitters", first="H1"),
                       team_ids=("r1",), known_type="tank", known_fa=True)
    assert line.accept("2 hits") == HitterLine(1, 2, "tank", True)
    assert "the roster gives" in refusal(line, "2 hits tank")
    assert "one team of the roster" in refusal(line, "2x2")


def test_a_roster_refuses_hitting_teams_of_two_sides() -> None:
    with pytest.raises(ScriptError) as err:
        play({**ROSTER_ANSWERS, "hitting-teams": "p1 r1"}, {"roster": str(ROSTER)})
    assert "two sides (Grey, Red)" in render(err.value.expected)


def test_a_roster_offers_no_transport_as_a_hitting_team() -> None:
    with pytest.raises(ScriptError) as err:
        play({**ROSTER_ANSWERS, "hitting-teams": "ht"}, {"roster": str(ROSTER)})
    assert "'ht'" in render(err.value.expected)


@pytest.mark.parametrize("edit, words", [
    ('side = "Red"', "every platoon is on the side 'Grey'"),
    ('id = "r2"', "two teams have the id 'r2'"),
    ('type = "gun"\ntop = 1', "has a Top armour but is not a vehicle"),
])
def test_a_wrong_roster_is_refused_with_its_line(tmp_path: Path, edit: str, words: str) -> None:
    text = ROSTER.read_text(encoding="utf-8")
    if edit.startswith("side"):
        text = text.replace('side = "Red"', 'side = "Grey"')
    elif edit.startswith("id"):
        text = text.replace('id = "r3"', 'id = "r2"')
    else:
        text = text.replace('type = "gun"', edit)
    bad = tmp_path / "roster.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ScriptError) as err:
        play(ROSTER_ANSWERS, {"roster": str(bad)})
    assert words in render(err.value.expected)
    assert err.value.file == str(bad)


def test_a_roster_and_teams_in_one_declaration_are_refused() -> None:
    with pytest.raises(ScriptError):
        api.plan_attack("fow", seed=1, declaration={
            "roster": str(ROSTER), "defending": [D("a")], "hitting": [H("x", 1, ["a"])]})


def test_the_roster_of_a_script_is_found_from_the_script_s_folder(tmp_path: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    (tmp_path / "orchard.toml").write_text(ROSTER.read_text(encoding="utf-8"),
                                           encoding="utf-8")
    lines = ['ruleset = "fow"', "use_defaults = true", "[declaration]",
             'roster = "../orchard.toml"', "[answers]", 'step = "allocation"']
    lines += [f'"{k}" = "{v}"' for k, v in ROSTER_ANSWERS.items()]
    script = folder / "assault.toml"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan, port = api.plan_script(script, seed=1, options=[], auto_dice=False)
    result = api.play(plan, port)
    assert result.outcome_data["ignored"] == 0 and len(result.outcome_data["held"]) == 5


def test_a_roster_s_exceptions_are_refused_naming_the_team() -> None:
    from referee.rulesets.fow.line import ExceptionsQuestion

    line = ExceptionsQuestion(id="defending.exceptions", text=Msg.of("fow.q.roster_exceptions"),
                           team_ids=("r1", "rt"), vehicles=("rt",))
    assert line.accept("rt bailed, r1 building") == (("r1", "active", True),
                                                     ("rt", "bailed-out", False))
    assert line.accept("none") == ()
    assert "r1 bailed" in refusal(line, "r1 bailed")
    with language("ru"):
        assert "сначала назовите отделение" in refusal(line, "покинут rt")


# --- 4. names --------------------------------------------------------------------------------

def test_enter_keeps_the_default_labels_in_the_session_s_language() -> None:
    result, _ = play(REFERENCE)
    teams = next(t for t in result.tables if t.title == Msg.of("fow.table.teams"))
    assert [r[0] for r in teams.rows] == ["Infantry D1", "Infantry D2", "Infantry D3",
                                          "Gun D4", "Tank D5"]
    with language("ru"):
        russian, port = play(REFERENCE)
    teams = next(t for t in russian.tables if t.title == Msg.of("fow.table.teams"))
    assert [r[0] for r in teams.rows] == ["Пехота D1", "Пехота D2", "Пехота D3",
                                          "Орудие D4", "Танк D5"]
    assert [q.id for q in port.questions].count("defending.names") == 1


def test_names_are_asked_once_per_side_and_shown_in_the_tables() -> None:
    result, port = play({**REFERENCE, "defending.names": "Rifle A, Rifle B, -, AT gun, Panzer",
                         "hitting.names": "Pioneer 1, Pioneer 2"})
    assert port.ids.count("defending.names") == port.ids.count("hitting.names") == 1
    rows = next(t for t in result.tables if t.title == Msg.of("fow.table.allocation")).rows
    assert {r[1] for r in rows} == {"Pioneer 1", "Pioneer 2"}
    assert {r[2] for r in rows} == {"Rifle A", "Rifle B", "Infantry D3", "AT gun", "Panzer"}


def test_a_wrong_names_line_is_refused() -> None:
    with pytest.raises(ScriptError) as err:
        play({**REFERENCE, "hitting.names": "Pioneer 1"})
    assert "2 names expected" in render(err.value.expected)


# --- 5. the what-if mark ---------------------------------------------------------------------

def test_only_accepting_the_proposal_is_marked_as_changing_how_the_attack_ends() -> None:
    _, port = play({**REFERENCE, "results": "unverified"})
    marked = [q.id for q in port.questions
              if isinstance(q, (ChoiceQuestion, ConfirmQuestion)) and q.whatif]
    assert marked == ["allocation"]


# --- 6. nothing asked that the rules or the lines already fix ------------------------------

@pytest.mark.clause("F-13")
def test_F13_a_team_reaching_every_defender_is_asked_no_impassable_terrain() -> None:
    result, port = play(REFERENCE)
    assert not [i for i in port.ids if i.endswith(".impassable")]
    assert ("F-13", "Infantry H1, Infantry H2: every defending team within reach, none of "
            "them across impassable terrain (not asked)") in working(result)


@pytest.mark.clause("F-13")
def test_F13_a_team_reaching_some_is_asked_which_others_are_cut_off() -> None:
    result, port = play({**REFERENCE, "hitting.1": "3 hits d1 d2",
                         "hitting.1.impassable": ["d3"]})
    question = port.get("hitting.1.impassable")
    assert [c.value for c in question.choices] == ["d3", "d4", "d5"]  # type: ignore[attr-defined]
    assert ("F-13", "Infantry H1 cannot hit Infantry D3: impassable terrain lies between "
            "them") in working(result)
    assert result.outcome_data["allocation"]["1"] in ("d1", "d2")


@pytest.mark.clause("F-10")
def test_F10_no_building_no_question_where_a_team_fights_from() -> None:
    result, port = play(REFERENCE)
    assert not [i for i in port.ids if i.endswith(".situation")]
    assert ("F-10", "no defending team is in a building: every hitting team fights from the "
            "open (not asked)") in working(result)


@pytest.mark.clause("F-10")
def test_F10_a_building_asks_where_a_team_fights_from_unless_its_line_says() -> None:
    answers = {**REFERENCE, "defending.2": "inf building", "hitting.1": "3 hits door",
               "hitting.2.situation": "open"}
    result, port = play(answers)
    assert "hitting.1.situation" not in port.ids and "hitting.2.situation" in port.ids
    assert result.outcome_data["allocation"]["1"] == "d4"  # the team inside (F-10)


@pytest.mark.clause("F-11")
def test_F11_a_tank_is_not_asked_where_it_fights_from() -> None:
    answers = {**REFERENCE, "defending.2": "inf building", "hitting.1": "3 hits tank"}
    result, port = play({**answers, "hitting.2.situation": "open"})
    assert "hitting.1.situation" not in port.ids
    assert any(c == "F-11" and "Tank H1: a tank fights from outside a building" in t
               for c, t in working(result))
