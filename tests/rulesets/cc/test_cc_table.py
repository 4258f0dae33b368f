"""Combat Commander at the table: the compact lines (a piece, a target unit, the situation),
the pieces refused as they are entered (the resolver's own group check, C-2, C-6, C-7, C-9,
C-14), the typed flow reaching leaders, carried weapons, ordnance and groups over several hexes,
rosters, the state of a game file shown first, names in the player's language, what-if marks,
and the small things at the prompt (a card typed without its trigger, nations by their words)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import AnswerError, MissingAnswerError, ScriptError
from referee.core.questions import ChoiceQuestion, ConfirmQuestion, Question
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.rulesets.cc.deck import FateCardQuestion, edition
from referee.rulesets.cc.declaration import FiringPiece, piece_key
from referee.rulesets.cc.line import (
    DONE,
    PieceQuestion,
    SituationQuestion,
    format_piece,
    format_situation,
    format_unit,
    parse_piece,
    parse_situation,
    parse_unit,
)
from referee.rulesets.cc.view import deck_tables
from tests.support import ROOT

ROSTER = ROOT / "transcripts" / "rosters" / "cc-orchard.toml"
SIDES = {"attacker": "germany", "defender": "america"}


class Watch(AnswerPort):
    """Answers by id, Enter (the default) for the rest, cards drawn from the seed; keeps
    every question asked."""

    def __init__(self, answers: dict[str, Any], plan: Any) -> None:
        super().__init__(answers, plan.dice, use_defaults=True, roll_missing_dice=True)
        self.asked: list[Question] = []

    def ask(self, question: Question) -> Any:
        self.asked.append(question)
        return super().ask(question)


def table(answers: dict[str, Any], declaration: dict[str, Any] | None = None,
          options: tuple[str, ...] = (), seed: int = 1) -> tuple[Any, Watch]:
    plan = api.plan_attack("cc", seed=seed, options=options, declaration=declaration)
    port = Watch(answers, plan)
    return api.play(plan, port), port


def typed(pieces: list[str], units: list[str], situation: str = "cover 0",
          **answers: Any) -> tuple[Any, Watch]:
    lines = {f"piece.{i}": line for i, line in enumerate([*pieces, "-"], 1)}
    lines |= {f"unit.{i}": line for i, line in enumerate([*units, "-"], 1)}
    return table({**SIDES, **lines, "situation": situation, **answers})


def steps(result: Any, clause: str) -> list[str]:
    return [render(s.text) for s in result.steps if s.clause == clause]


def refusal(question: Any, line: str, lang: str | None = None) -> str:
    with pytest.raises(AnswerError) as err:
        question.accept(line)
    return render(err.value.msg, lang)


def group(*lines: str) -> tuple[FiringPiece, ...]:
    from referee.rulesets.cc.line import PieceLine, line_pieces

    out: list[FiringPiece] = []
    for line in lines:
        value = parse_piece(line)
        assert isinstance(value, PieceLine)
        out += [FiringPiece.model_validate(p) for p in
                line_pieces(value, len(out) + 1, value.hex or "*")]
    return tuple(out)


def piece_question(*before: str, options: tuple[str, ...] = ()) -> PieceQuestion:
    plan = api.plan_attack("cc", options=options)
    pieces = group(*before)
    return PieceQuestion(id="piece.9", text=Msg.of("cc.q.piece", n=len(pieces) + 1),
                         number=len(pieces) + 1, hex="*", group=pieces,
                         rules=plan.options, default_value=DONE if pieces else None)


# --- 1. the compact lines -----------------------------------------------------------------


def test_a_piece_line_says_name_fp_range_hexes_hindrance_hex_and_carried_weapons() -> None:
    line = parse_piece("2x Rifle squad 5 6 3 h1 @b4 with LMG 2 8")
    assert not isinstance(line, str)
    assert (line.count, line.name, line.fp, line.range, line.distance, line.hindrance,
            line.hex) == (2, "Rifle squad", 5, 6, 3, 1, "B4")
    assert [(w.name, w.fp, w.range) for w in line.weapons] == [("LMG", 2, 8)]
    assert line.size == 4
    leader = parse_piece("Lt. Amsel leader 2")
    assert not isinstance(leader, str) and (leader.kind, leader.command, leader.fires) == \
        ("leader", 2, False)
    firing_leader = parse_piece("Sgt leader 1 1 1 3")
    assert not isinstance(firing_leader, str) and firing_leader.fires
    mortar = parse_piece("Mortar 6 12 5 white")
    assert not isinstance(mortar, str) and (mortar.kind, mortar.white_band) == ("weapon", True)
    assert parse_piece("-") == DONE and parse_piece("готово") == DONE


def test_the_same_line_in_russian_reads_alike_and_is_written_back_in_russian() -> None:
    from referee.catalog import set_language

    english = parse_piece("squad 5 6 3 h2 broken with mg 2 8")
    russian = parse_piece("squad 5 6 3 п2 сломлено с mg 2 8")
    assert english == russian
    set_language("ru")
    try:
        assert format_piece(english) == "squad 5 6 3 п2 сломлено с mg 2 8"
        assert format_unit(parse_unit("отделение 7/8 подавлено")) == "отделение 7/8 подавлено"
    finally:
        set_language("en")
    assert format_piece(english) == "squad 5 6 3 h2 broken with mg 2 8"


def test_a_unit_line_says_morale_broken_side_state_leader_and_vp() -> None:
    unit = parse_unit("2x squad 6/8 suppressed moving vp 2")
    assert not isinstance(unit, str)
    assert (unit.count, unit.name, unit.morale, unit.broken_morale, unit.suppressed,
            unit.moving, unit.vp) == (2, "squad", 6, 8, True, True, 2)
    broken = parse_unit("squad 8 broken")
    assert not isinstance(broken, str) and (broken.morale, broken.broken_morale) == (8, 8)
    sergeant = parse_unit("Sgt 8 leader 1")
    assert not isinstance(sergeant, str) and (sergeant.kind, sergeant.command) == ("leader", 1)


def test_the_situation_line_says_target_hex_cover_and_fp_bonuses() -> None:
    value = parse_situation("@d5 cover -1 hill 1 sustained 2 +1")
    assert (value.target_hex, value.cover, value.bonuses) == (
        "D5", -1, (("down-hill", 1), ("sustained-fire", 2), ("other", 1)))
    assert parse_situation(format_situation(value)) == value
    assert parse_situation("укрытие 1 перекрёстный 2").bonuses == (("crossfire", 2),)


@pytest.mark.parametrize(("line", "english", "russian"), [
    ("5 6", "a piece needs its FP, Range and hexes to the target",
     "фишке нужны ОМ, Дальность и число гексов до цели"),
    ("5 6 99", "hexes to the target: 99 is out of bounds, 1 to 40",
     "Гексов до цели: 99 вне допустимого, от 1 до 40"),
    ("5 6 3 boom", "'boom' is not a word of this line", "'boom' — не слово этой строки"),
    ("squad leader", "'leader' needs a number after it", "после 'leader' нужно число"),
    ("5 6 3 @", "'@' needs a hex after it", "после '@' нужен гекс"),
    ("5 6 3 with lmg 2", "a carried weapon needs its FP and Range",
     "носимому Вооружению нужны ОМ и Дальность"),
    ('"Squad 5 6 3', "a name in quotes needs its closing quote",
     "имени в кавычках нужна закрывающая кавычка"),
])
def test_a_wrong_piece_line_is_refused_naming_the_wrong_part(line: str, english: str,
                                                             russian: str) -> None:
    question = piece_question()
    assert english in refusal(question, line)
    assert russian in refusal(question, line, "ru")


def test_a_wrong_unit_or_situation_line_is_refused_naming_the_part() -> None:
    with pytest.raises(AnswerError) as err:
        parse_unit("squad 7 8")
    assert "a unit needs its Morale" in render(err.value.msg)
    with pytest.raises(AnswerError) as err:
        parse_unit("squad 16")
    assert render(err.value.msg, "ru").startswith("Мораль: 16 вне допустимого")
    with pytest.raises(AnswerError) as err:
        parse_situation("cover 1 rain 2")
    assert "'rain' is not a word of this line" in render(err.value.msg)


_names = st.sampled_from([None, "squad", "Rifle squad L8", "Squad 5", "leader of men",
                          "Отделение «Гром»", 'the "best" team'])


@st.composite
def piece_lines(draw: Any) -> str:
    name = draw(_names)
    head = ([f"{draw(st.integers(2, 3))}x"] if draw(st.booleans()) else [])
    quoted = [] if name is None else [f"«{name}»" if '"' in name else f'"{name}"']
    if draw(st.booleans()):
        return " ".join([*quoted, "leader", str(draw(st.integers(0, 5)))])
    body = [str(draw(st.integers(0, 30))), str(draw(st.integers(0, 40))),
            str(draw(st.integers(1, 40)))]
    if draw(st.booleans()):
        body.append(f"h{draw(st.integers(1, 20))}")
    if draw(st.booleans()):
        body.append("@" + draw(st.sampled_from(["B4", "c5", "K8"])))
    body += draw(st.lists(st.sampled_from(["broken", "weapon", "white"]), unique=True,
                          max_size=1))
    if draw(st.booleans()):
        body += ["with", "lmg", "2", "8"]
    return " ".join([*head, *quoted, *body])


@given(piece_lines(), st.sampled_from(["en", "ru"]))
@settings(max_examples=150, deadline=None)
def test_property_a_piece_line_reads_back_as_written_in_either_language(line: str,
                                                                       lang: str) -> None:
    from referee.catalog import set_language

    value = parse_piece(line)
    set_language(lang)
    try:
        written = format_piece(value)
    finally:
        set_language("en")
    assert parse_piece(written) == value


@given(st.integers(0, 15), st.one_of(st.none(), st.integers(0, 15)), st.booleans(),
       st.booleans(), st.booleans(), st.integers(1, 3), _names)
@settings(max_examples=100, deadline=None)
def test_property_a_unit_line_reads_back_as_written(morale: int, broken_side: int | None,
                                                    broken: bool, suppressed: bool,
                                                    moving: bool, count: int,
                                                    name: str | None) -> None:
    words = [f"{count}x"] if count > 1 else []
    if name:
        words.append(f"«{name}»" if '"' in name else f'"{name}"')
    words.append(str(morale) if broken_side is None else f"{morale}/{broken_side}")
    words += [w for w, on in (("broken", broken), ("suppressed", suppressed),
                              ("moving", moving)) if on]
    value = parse_unit(" ".join(words))
    assert parse_unit(format_unit(value)) == value


@st.composite
def groups(draw: Any) -> list[tuple[int, int, int, int]]:
    """Kinds of firing piece (FP, Range, hexes, hindrance), each in range, with a count."""
    kinds = draw(st.lists(st.tuples(st.integers(3, 8), st.integers(3, 8), st.integers(1, 3),
                                    st.integers(0, 2)), min_size=1, max_size=3))
    return [(*k, draw(st.integers(1, 3))) for k in kinds]  # type: ignore[misc]


@given(groups(), st.lists(st.tuples(st.integers(4, 9), st.integers(1, 3)), min_size=1,
                          max_size=2), st.integers(0, 9))
@settings(max_examples=25, deadline=None)
@pytest.mark.clause("C-8")
def test_property_a_compact_line_and_its_pieces_one_by_one_give_the_same_attack(
        kinds: list[tuple[int, int, int, int, int]], units: list[tuple[int, int]],
        seed: int) -> None:
    """``3x 5 6 3`` is three lines ``5 6 3``; ``2x 7`` two lines ``7``: the same pieces and
    units (their numbers, so their question ids), the same cards, the same end."""
    compact = [f"{n}x {fp} {rng} {d} h{h}" for fp, rng, d, h, n in kinds]
    one_by_one = [f"{fp} {rng} {d} h{h}" for fp, rng, d, h, n in kinds for _ in range(n)]
    compact_units = [f"{n}x {m}" for m, n in units]
    units_by_one = [str(m) for m, n in units for _ in range(n)]
    first, _ = table({**SIDES, **_lines("piece", compact), **_lines("unit", compact_units)},
                     seed=seed)
    second, _ = table({**SIDES, **_lines("piece", one_by_one),
                       **_lines("unit", units_by_one)}, seed=seed)
    assert first.outcome_data == second.outcome_data
    assert [render(s.text) for s in first.steps] == [render(s.text) for s in second.steps]


def _lines(kind: str, lines: list[str]) -> dict[str, str]:
    return {f"{kind}.{i}": line for i, line in enumerate([*lines, "-"], 1)}


# --- 2. refused as entered ------------------------------------------------------------------


@pytest.mark.clause("C-6")
@pytest.mark.clause("C-14")
def test_C6_C14_a_piece_out_of_range_is_refused_when_entered_unless_its_leader_came_first(
        ) -> None:
    assert "piece 2 cannot reach the target hex: 3 hexes, Range with Command 2 (C-6)" in \
        refusal(piece_question("5 5 3"), "4 2 3")
    assert "фишка 2: гекс цели вне досягаемости" in \
        refusal(piece_question("5 5 3"), "4 2 3", "ru")
    # example B: a leader's Command in its hex adds to its Range (C-14)
    assert piece_question("leader 1", "5 5 3").accept("4 2 3") is not None


@pytest.mark.clause("C-7")
def test_C7_a_white_band_weapon_is_refused_in_a_group_either_way_round() -> None:
    assert "Mortar is a white-band weapon: it always fires alone, never in a group (C-7)" in \
        refusal(piece_question("Mortar 6 12 5 white"), "squad 5 6 3")
    assert "(C-7)" in refusal(piece_question("squad 5 6 3"), "Mortar 6 12 5 white")
    assert "Вооружение с белой полосой" in \
        refusal(piece_question("squad 5 6 3"), "Mortar 6 12 5 white", "ru")
    # a leader who gives only his Command does not fire: he does not break the rule
    assert piece_question("Mortar 6 12 5 white").accept("leader 1") is not None


@pytest.mark.clause("C-14")
def test_C14_the_weapon_of_a_broken_unit_is_refused_when_entered() -> None:
    assert "LMG cannot fire: the unit carrying it is broken (C-14)" in \
        refusal(piece_question(), "squad 2 1 1 broken with LMG 2 8")
    assert piece_question().accept("squad 2 1 1 broken") is not None


def test_a_refused_piece_is_dropped_and_the_others_go_on() -> None:
    """A script's refused line names its question and the reason; at the table the line is
    asked again, and the player types another piece or ends the group."""
    with pytest.raises(ScriptError) as err:
        typed(["5 5 3", "4 2 3"], ["7"])
    assert "piece.2" in render(err.value.msg) and "(C-6)" in render(err.value.msg)
    result, _ = typed(["5 5 3"], ["7"])
    assert result.outcome_data["fp"] == 5


def test_the_first_line_needs_a_piece_that_fires() -> None:
    assert "type the first piece" in refusal(piece_question(), "")
    assert "no piece of the group fires yet" in refusal(piece_question("leader 1"), "-")


@pytest.mark.clause("C-6")
def test_C6_a_hex_next_to_none_of_the_firing_hexes_before_it_drops_its_pieces_in_the_working(
        ) -> None:
    result, port = typed(["squad 5 6 3 @B4", "team 3 8 3 @D4"], ["7"], **{"next-to.2": "-"})
    link = next(q for q in port.asked if q.id == "next-to.2")
    assert isinstance(link, ChoiceQuestion) and link.values == ("B4", "-")
    assert steps(result, "C-6") == ["D4 touches none of the firing hexes entered before it: "
                                    "its pieces do not join the group"]
    assert result.outcome_data["fp"] == 5  # the squad alone


@pytest.mark.clause("C-9")
def test_C9_an_attack_at_fp_zero_is_refused_at_the_situation_line_unless_an_action_lifts_it(
        ) -> None:
    plan = api.plan_attack("cc")
    question = SituationQuestion(id="situation", text=Msg.of("cc.q.situation"),
                                 group=group("team 2 4 3 h3"), rules=plan.options)
    assert "the final FP would be -1: an attack needs FP above 0 (C-9)" in \
        refusal(question, "cover 0")
    assert question.accept("crossfire 2").bonuses == (("crossfire", 2),)
    result, _ = typed(["team 2 4 3 h3"], ["7"], situation="crossfire 2")
    assert result.outcome_data["fp"] == 1


@pytest.mark.clause("C-2")
def test_C2_the_target_hex_cannot_be_a_firing_hex() -> None:
    question = SituationQuestion(id="situation", text=Msg.of("cc.q.situation"),
                                 group=group("squad 5 6 3 @B4"))
    assert "B4 is a firing hex: a piece never fires into its own hex (C-2)" in \
        refusal(question, "@b4")


# --- 3. leaders, weapons, ordnance, several hexes typed in ---------------------------------


EXAMPLE_C = ["Lt. Adler leader 1 @L8", "Rifle squad L8 5 5 3", "Sgt. Grau leader 1 @K8",
             "Squad K8 4 2 3", "Squad J7 5 5 4 @J7", "Squad J6 5 5 4 @J6 with LMG J6 1 6"]


@pytest.mark.clause("C-6")
@pytest.mark.clause("C-8")
@pytest.mark.clause("C-14")
def test_C6_C8_C14_example_C_typed_at_the_table_is_the_attack_of_its_declaration_file() -> None:
    result, port = typed(EXAMPLE_C, ["US squad (invented) 6/8 vp 2"],
                         situation="@M6 cover -1 hill 1",
                         **{"next-to.3": "L8", "next-to.5": "K8", "next-to.6": "J7",
                            "base": "piece-2", "fire": [4, 1], "defence.unit-1": [6, 4]})
    raw = tomllib.loads((ROOT / "transcripts/scripts/cc-example-c-d.toml")
                        .read_text(encoding="utf-8"))
    declared = api.attack("cc", raw["answers"], declaration=raw["declaration"])
    assert result.outcome_data["attack_total"] == declared.outcome_data["attack_total"] == 16
    assert list(result.outcome_data["results"].values()) == ["broken"]
    assert [q.id for q in port.asked if q.id.startswith("next-to")] == \
        ["next-to.3", "next-to.5", "next-to.6"]


@pytest.mark.clause("C-1")
def test_C1_ordnance_typed_in_makes_its_targeting_roll() -> None:
    result, port = typed(["Mortar 6 12 3 h2 white"], ["7"],
                         **{"targeting": [1, 5]})
    assert result.outcome_data == {"allowed": True, "hit": False, "fp": 6,
                                   "edition": "cc_20th"}
    assert [q.id for q in port.asked][-1] == "targeting"


@pytest.mark.clause("C-11")
def test_C11_a_carried_weapon_typed_in_breaks_on_jammed() -> None:
    result, _ = typed(["squad 5 6 3 with LMG 2 8"], ["7"],
                      **{"fire": [1, 1, "jammed"], "defence.unit-1": [6, 5]})
    assert steps(result, "C-11") == ["Jammed!: every firing weapon breaks (LMG); the attack "
                                     "goes on at full strength"]


@pytest.mark.clause("C-12")
def test_C12_a_leader_typed_in_the_target_hex_lends_his_command() -> None:
    result, _ = typed(["squad 5 6 3"], ["squad 6", "Sgt 8 leader 1"],
                      **{"fire": [2, 3], "defence.unit-1": [1, 3], "defence.unit-2": [1, 3]})
    rolls = steps(result, "C-5")
    assert rolls[0].startswith("squad: Morale 7 (6 +1 Command)")


def test_an_old_typed_script_is_refused_naming_the_new_question() -> None:
    old = {**SIDES, "pieces": 1, "piece.1.fp": 5, "piece.1.range": 6, "piece.1.distance": 3,
           "piece.1.hindrance": 0, "command": 0, "bonus": 0, "cover": 0, "units": 1}
    with pytest.raises(MissingAnswerError) as err:
        api.attack("cc", old)
    assert err.value.question_id == "piece.1"


def test_a_script_with_use_defaults_takes_an_entry_question_default_line() -> None:
    result, port = typed(["5 6 3"], ["7"])
    situation = next(q for q in port.asked if q.id == "situation")
    assert situation.default == "cover 0" and result.outcome_data["allowed"]


# --- 4. rosters -------------------------------------------------------------------------------


def roster_attack(answers: dict[str, Any], roster: Path = ROSTER) -> tuple[Any, Watch]:
    return table(answers, {"roster": str(roster)})


@pytest.mark.clause("C-6")
def test_C6_a_roster_attack_asks_hexes_target_ranges_joins_and_the_situation_only() -> None:
    result, port = roster_attack({"fire-from": ["E6", "E7"], "target": "H5",
                                  "range.e6": "3 h1", "range.e7": "4",
                                  "join.lmg-e6": False, "fire": [4, 5],
                                  "defence.us-squad-h5-invented": [2, 2],
                                  "defence.sgt-kane-invented": [6, 5]})
    ids = [q.id for q in port.asked]
    assert ids == ["fire-from", "target", "range.e6", "range.e7", "join.rifle-squad-e6",
                   "join.lmg-e6", "join.rifle-squad-e7", "situation", "moving", "base",
                   "fire", "defence-order.1", "defence.us-squad-h5-invented",
                   "defence.sgt-kane-invented"]
    situation = next(q for q in port.asked if q.id == "situation")
    assert situation.default == "cover 1"  # from the roster's map
    # the base Rifle squad E6, FP 5 +1 Lt. Amsel's Command, +1 the other squad, -1 hindrance
    assert result.outcome_data["fp"] == 6
    # broken US squad: its broken side's Morale 8, +1 cover, +1 Sgt. Kane's Command
    assert steps(result, "C-5")[0].startswith("US squad H5 (invented): Morale 10 (8 +1 cover "
                                              "+1 Command)")
    assert result.outcome_data["results"]["US squad H5 (invented)"] == "eliminated"


def test_every_join_and_the_base_are_what_if_choices() -> None:
    _, port = roster_attack({"fire-from": ["E6"], "target": "H5", "range.e6": "3"})
    joins = [q for q in port.asked if q.id.startswith("join.")]
    assert joins and all(isinstance(q, ConfirmQuestion) and q.whatif for q in joins)
    base = next(q for q in port.asked if q.id == "base")
    assert isinstance(base, ChoiceQuestion) and base.whatif
    assert not any(getattr(q, "whatif", False) for q in port.asked
                   if not q.id.startswith(("join.", "base")))


@pytest.mark.clause("C-6")
@pytest.mark.clause("C-7")
def test_C6_C7_roster_pieces_that_cannot_join_are_left_out_with_the_clause_never_asked() -> None:
    result, port = roster_attack({"fire-from": ["F6"], "target": "H5", "range.f6": "5"})
    assert not any(q.id.startswith("join.") for q in port.asked)  # the mortar alone can
    assert steps(result, "C-6") == ["not in the group: Mortar team F6 cannot reach H5: 5 "
                                    "hexes, Range with Command 2"]
    result, port = roster_attack({"fire-from": ["F6"], "target": "H5", "range.f6": "2",
                                  "join.light-mortar-f6": True})
    assert [q.id for q in port.asked if q.id.startswith("join.")] == ["join.light-mortar-f6"]
    assert steps(result, "C-7") == ["Mortar team F6 does not join: Light mortar F6 is a "
                                    "white-band weapon and fires alone"]


@pytest.mark.clause("C-6")
def test_C6_roster_hexes_must_be_one_sides_chain_and_in_reach() -> None:
    with pytest.raises(ScriptError) as err:
        roster_attack({"fire-from": ["E7", "F6"]})
    assert "the firing hexes (E7, F6) do not form a chain of adjacent hexes (C-6)" in \
        render(err.value.msg)
    with pytest.raises(ScriptError) as err:
        roster_attack({"fire-from": ["E6", "H5"]})
    assert "a fire group is one side's pieces" in render(err.value.msg)
    with pytest.raises(ScriptError) as err:
        roster_attack({"fire-from": ["E7"], "target": "H5", "range.e7": "7"})
    assert "no piece in E7 reaches H5: 7 hexes, the longest Range with Command is 4" in \
        render(err.value.msg)


def test_a_roster_without_the_map_asks_the_link_and_the_cover(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8").replace('adjacent = { E6 = ["E7", "F6"] }\n', "")
    text = text.replace("cover = { H5 = 1 }\n", "")
    roster = tmp_path / "no-map.toml"
    roster.write_text(text, encoding="utf-8")
    _, port = roster_attack({"fire-from": ["E6", "E7"], "target": "H5",
                             "next-to.e7": "E6", "range.e6": "3", "range.e7": "3"}, roster)
    assert "next-to.e7" in [q.id for q in port.asked]
    assert next(q for q in port.asked if q.id == "situation").default == "cover 0"


@pytest.mark.parametrize(("change", "expected"), [
    (("broken_range = 1\n", ""), "a broken unit needs its broken side"),
    (('name = "Rifle squad E7"', 'name = "Rifle squad E6"'),
     "two pieces of the roster named alike (rifle-squad-e6)"),
    (("fp = 5\nrange = 4", "command = 1\nfp = 5\nrange = 4"), "only a leader"),
    (('side = "america"', 'side = "atlantis"'), "units[5].side"),
])
def test_a_bad_roster_is_refused_before_any_question_naming_file_and_field(
        tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    roster = tmp_path / "bad.toml"
    roster.write_text(ROSTER.read_text(encoding="utf-8").replace(*change, 1), encoding="utf-8")
    with pytest.raises(ScriptError) as err:
        api.plan_attack("cc", declaration={"roster": str(roster)})
    assert "bad.toml" in render(err.value.msg) and expected in render(err.value.msg)


def test_a_roster_names_its_sides_by_the_games_words() -> None:
    from referee.rulesets.cc.roster import load_roster

    sides = {u.side for u in load_roster(str(ROSTER)).units}
    assert sides == {"germany", "america"}  # one of them written "americans"


# --- 5. names ---------------------------------------------------------------------------------


def test_pieces_typed_without_a_name_get_a_label_in_the_players_language() -> None:
    """Issue 27: its side's name for its kind, numbered without gaps (a carried weapon is
    the side's first weapon, not "weapon 2" between "piece 1" and "piece 3"), so that the
    two sides' units are never confused; the questions count lines."""
    result, _ = typed(["5 6 3", "leader 1"], ["7"])
    assert render(result.steps[0].text) == \
        "German fire: German unit 1 at the target hex (American unit 1)"
    result, port = typed(["5 6 3 with 2 8", "3 8 3"], ["7"])
    assert render(result.steps[0].text) == ("German fire: German unit 1, German weapon 1, "
                                            "German unit 2 at the target hex (American unit 1)")
    assert [render(q.text) for q in port.asked if q.id.startswith("piece.")] == [
        "Fire group: piece 1?", "Fire group: piece 2?", "Fire group: piece 3?"]
    assert render(Msg.of("cc.kept.default.unit", nation=Msg.of("cc.nation.germany"), n=1),
                  "ru") == "Подразделение 1 (Германия)"
    assert set(result.outcome_data["results"]) == {"American unit 1"}  # by its name


def test_a_name_typed_keeps_the_question_id_of_its_place() -> None:
    _, port = typed(["Отделение 5 6 3", "Звено 3 8 3"], ["Стрелки 7", "7"])
    base = next(q for q in port.asked if q.id == "base")
    assert isinstance(base, ChoiceQuestion) and base.values == ("piece-1", "piece-2")
    assert {q.id for q in port.asked if q.id.startswith("defence.")} == \
        {"defence.unit-1", "defence.unit-2"}


def test_names_in_any_alphabet_keep_distinct_ids_and_latin_ids_stay_as_they_were() -> None:
    assert piece_key("Стрелки") == "стрелки" != piece_key("Пулемёт")
    assert piece_key("Rifle squad L8") == "rifle-squad-l8"
    assert piece_key("A_B") == "a-b"


# --- 7. the game's state first ------------------------------------------------------------


@pytest.mark.clause("C-X8")
def test_CX8_the_state_view_shows_each_decks_cards_left_and_their_triggers() -> None:
    german = list(edition("cc_20th").decks["germany"])
    german.remove("1-1:jammed")
    german.remove("2-5:event")
    (view,) = deck_tables({"decks": {"cc_20th/germany": german}})
    assert render(view.title) == "Fate decks of this game: the cards left"
    assert [render(c) for c in view.columns] == ["Deck", "Edition", "Cards left", "Jammed!",
                                                 "Event!", "Sniper!", "Time!"]
    ((nation, edition_id, left, *triggers),) = view.rows
    assert (render(nation), edition_id, render(left)) == ("German", "cc_20th", "70 of 72")
    assert triggers == [1, 9, 7, 2]
    assert deck_tables({"decks": {}}) == ()
    assert render(deck_tables({"decks": {"cce_2006/italy": ["1-1"]}})[0].rows[0][2]) == "1"


def test_the_state_is_shown_before_the_first_question(tmp_path: Path) -> None:
    from referee.core.table import Table

    game = tmp_path / "game.sqlite"
    plan = api.plan_attack("cc", seed=3)
    answers = {**SIDES, **_lines("piece", ["5 6 3"]), **_lines("unit", ["7"]),
               "situation": "cover 0"}
    api.play(plan, AnswerPort(answers, plan.dice, roll_missing_dice=True), game=game)
    shown: list[tuple[int, Table]] = []
    plan = api.plan_attack("cc", seed=4)
    port = Watch(answers, plan)
    api.play(plan, port, game=game,
             show_state=lambda tables: shown.extend((len(port.asked), t) for t in tables))
    assert [(n, render(t.title)) for n, t in shown] == \
        [(0, "Fate decks of this game: the cards left")]


# --- 8. small things at the prompt --------------------------------------------------------


def test_a_card_typed_without_its_trigger_is_answered_with_how_to_type_it() -> None:
    deck = edition("cc_20th").decks["germany"]
    question = FateCardQuestion(id="fire", text=Msg.of("cc.q.fire", nation="", fp=5),
                                nation="germany", edition_id="cc_20th", composition=deck,
                                remaining=deck)
    message = refusal(question, "3 4")
    assert message == "every 3-4 card of the German deck shows a trigger: type it, '3 4 event'"
    assert "'3 4 event'" in refusal(question, "3 4", "ru")
    assert question.accept("3 4 event").key == "3-4:event"
    assert question.accept("2 2").key == "2-2"  # a 2-2 without a trigger is in the deck
    assert "no card 3-4:sniper" in refusal(question, "3 4 sniper")


@pytest.mark.parametrize("word", ["Germany", "german", "Germans", "немцы", "Немецкий"])
def test_nations_by_their_adjectives_and_the_games_words(word: str) -> None:
    from referee.rulesets.cc.declaration import Declaration
    from referee.rulesets.cc.line import NationQuestion

    question = NationQuestion(id="attacker", text=Msg.of("cc.q.attacker"),
                              choices=(_choice("germany"), _choice("america")))
    assert question.accept(word) == "germany"
    decl = Declaration.model_validate({"attacker": word, "defender": "americans",
                                       "target_hex": "X1",
                                       "firing": [{"name": "a", "hex": "A1", "fp": 1,
                                                   "range": 1}],
                                       "target": [{"name": "b", "morale": 7}]}, strict=True)
    assert (decl.attacker, decl.defender) == ("germany", "america")
    table = api.lookup("cc", "triggers", word)
    assert render(table.title).startswith("German deck")


def _choice(nation: str) -> Any:
    from referee.core.questions import Choice

    return Choice(nation, Msg.of(f"cc.nation.{nation}"))


@pytest.mark.clause("C-2")
def test_C2_the_only_enemy_hex_of_the_roster_is_the_target_without_asking(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8")
    roster = tmp_path / "one-target.toml"
    roster.write_text(text[:text.index('[[units]]\nname = "US team J4')], encoding="utf-8")
    result, port = roster_attack({"fire-from": ["E7"], "range.e7": "3"}, roster)
    assert "target" not in [q.id for q in port.asked]
    assert "the target hex is H5: the only hex with enemy units in the roster" in \
        steps(result, "C-2")


@pytest.mark.clause("C-2")
def test_C2_when_every_other_piece_stays_out_the_last_one_fires_without_asking() -> None:
    result, port = roster_attack({"fire-from": ["E6"], "target": "H5", "range.e6": "3",
                                  "join.rifle-squad-e6": False})
    assert [q.id for q in port.asked if q.id.startswith("join.")] == ["join.rifle-squad-e6"]
    assert "LMG E6 fires: the only piece left (an attack needs a piece that fires)" in \
        steps(result, "C-2")
    assert result.outcome_data["fp"] == 3  # LMG 2 +1 Lt. Amsel's Command


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3)), min_size=1, max_size=4),
       st.integers(0, 2), st.integers(-2, 3), st.booleans())
@settings(max_examples=60, deadline=None)
@pytest.mark.clause("C-8")
@pytest.mark.clause("C-9")
def test_property_the_early_fp_check_is_the_best_base_the_resolver_would_build(
        pieces: list[tuple[int, int]], command: int, bonus: int, included: bool) -> None:
    """The situation line refuses an attack at FP 0 or less with the best base piece: the
    FP it works out is the highest the resolver's own FP build reaches over every base."""
    from referee.rulesets.cc.legality import best_fp

    firing = [{"name": f"p{i}", "hex": "A1", "fp": fp, "range": 5, "distance": 2,
               "hindrance": h} for i, (fp, h) in enumerate(pieces)]
    if command:
        firing.append({"name": "ldr", "kind": "leader", "hex": "A1", "command": command,
                       "fires": False})
    declaration = {**SIDES, "target_hex": "X1", "firing": firing,
                   "bonuses": [{"source": "other", "fp": bonus}] if bonus else [],
                   "target": [{"name": "t", "morale": 7}]}
    options = (f"declared-fp-includes-command={str(included).lower()}",)
    plan = api.plan_attack("cc", declaration=declaration, options=options)
    built = []
    for i in range(len(pieces)):
        answers = {"base": f"p{i}"} if len(pieces) > 1 else {}
        result, _ = table(answers, declaration, options)
        built.append(result.outcome_data["fp"])
    group = [FiringPiece.model_validate(p) for p in firing]
    assert best_fp(group, [bonus], plan.options) == max(built)


def test_a_scripts_roster_is_found_from_the_scripts_own_folder(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "orchard.toml").write_text(ROSTER.read_text(encoding="utf-8"), encoding="utf-8")
    script = folder / "attack.toml"
    script.write_text('ruleset = "cc"\n[declaration]\nroster = "orchard.toml"\n[answers]\n'
                      'fire-from = ["E7"]\ntarget = "H5"\n"range.e7" = "3"\nmoving = []\n'
                      'situation = "cover 1"\n"defence-order.1" = "us-squad-h5-invented"\n'
                      'fire = [2, 3]\n"defence.us-squad-h5-invented" = [1, 3]\n'
                      '"defence.sgt-kane-invented" = [1, 3]\n', encoding="utf-8")
    plan, port = api.plan_script(script)
    result = api.play(plan, port)
    assert result.outcome_data["attack_total"] == 10  # FP 5 + 5
