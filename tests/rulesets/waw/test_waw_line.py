"""World at War at the table in few questions (issue 14): the target hex with its terrain's
infantry defence bonus, the hex's units and the mission's ratings, each in one line read by
its question (typed and scripted alike), refused with a one-line reason naming the wrong part
in both languages; and scripts written before (a count, a bare number) replaying unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import AnswerError
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.frontends.wrappers import ScriptingPort
from referee.rulesets.waw.declaration import Unit
from referee.rulesets.waw.line import (
    HexLine,
    HexQuestion,
    RatingLine,
    RatingQuestion,
    UnitsLine,
    UnitsQuestion,
    vocabulary,
)

UNITS = UnitsQuestion(id="units", text=Msg.of("waw.q.units_he"))
CHEM_UNITS = UnitsQuestion(id="units", text=Msg.of("waw.q.units_chemical"), positions=True)
HEX = HexQuestion(id="hex", text=Msg.of("waw.q.hex_he"), defence_most=10,
               terrains=("woods", "town"))
RATING = RatingQuestion(id="firepower", text=Msg.of("waw.q.rating"))


def kinds(line: Any) -> list[tuple[str, str, bool, bool, str]]:
    return [(u.key, u.kind, u.disorganized, u.weakened, u.position) for u in line.units]


def refusal(question: Any, text: str, lang: str = "en") -> str:
    with pytest.raises(AnswerError) as err:
        question.accept(text)
    return render(err.value.msg, lang)


def asked(answers: dict[str, Any], options: tuple[str, ...] = (),
          declaration: dict[str, Any] | None = None, seed: int = 1) -> tuple[list[str], Any]:
    """The question ids a mission asked, and its result."""
    plan = api.plan_attack("waw", seed=seed, options=options, declaration=declaration)
    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    result = api.play(plan, port)
    return list(port.answers), result


# --- the units line ---------------------------------------------------------------------------

def test_a_line_gives_identical_units_once_and_each_unit_its_own_id() -> None:
    line = UNITS.accept("2 inf, cv dis")
    assert kinds(line) == [("unit-1", "infantry", False, False, "centre"),
                           ("unit-2", "infantry", False, False, "centre"),
                           ("unit-3", "combat-vehicle", True, False, "centre")]
    assert UNITS.format(line) == "2 inf, cv dis"


def test_russian_words_read_the_same_and_the_line_is_shown_in_russian() -> None:
    line = UNITS.accept("2 пех, бм дез")
    assert kinds(line) == kinds(UNITS.accept("2 inf, cv dis"))
    assert UNITS.format(line) == "2 пех, бм дез"
    assert kinds(UNITS.accept("небронированная техника осл")) == [
        ("unit-1", "unarmoured-vehicle", False, True, "centre")]


def test_full_words_hyphens_and_joined_states_are_read() -> None:
    assert kinds(UNITS.accept("combat vehicle weakened and disorganized")) == \
        kinds(UNITS.accept("combat-vehicle dis weak")) == \
        [("unit-1", "combat-vehicle", True, True, "centre")]
    assert kinds(UNITS.accept("2x inf")) == kinds(UNITS.accept("2 inf"))


def test_a_quoted_name_names_the_unit_and_numbers_a_group() -> None:
    line = UNITS.accept('"Alpha" 2 inf weak, «Танк» бм')
    assert [u.name for u in line.units] == ["Alpha 1", "Alpha 2", "Танк"]
    assert [u.key for u in line.units] == ["alpha-1", "alpha-2", "танк"]
    assert UNITS.accept(UNITS.format(line)) == line  # the line a script keeps replays


def test_unnamed_units_are_unit_n_in_the_players_language_with_one_id() -> None:
    unit = Unit(id="unit-2", kind="infantry")
    assert render(unit.label, "en") == "unit 2"
    assert render(unit.label, "ru") == "подразделение 2"
    assert unit.key == "unit-2"


def test_a_count_alone_is_the_count_of_before() -> None:
    assert UNITS.accept("3") == 3
    assert UNITS.accept(3) == 3  # a script's `units = 3`
    assert UNITS.format(3) == "3"


@pytest.mark.parametrize(("line", "en", "ru"), [
    ("2 inf tnak", "'tnak' in '2 inf tnak': not a count, kind or state",
     "«tnak» в «2 inf tnak»: это не число, не вид и не состояние"),
    ("inf cv", "'inf cv': one kind a part", "«inf cv»: один вид на часть"),
    ("dis", "'dis': which kind of unit?", "«dis»: какого вида подразделение?"),
    ("inf 2", "'2' in 'inf 2': the count comes before the kind",
     "«2» в «inf 2»: число ставится перед видом"),
    ("13 inf", "'13': from 1 to 12 units", "«13»: от 1 до 12 подразделений"),
    ("good dis inf", "'good dis inf': good order and another state at once",
     "«good dis inf»: «в порядке» и другое состояние сразу"),
    ("inf adj", "'adj': only a chemical strike asks where a unit stands",
     "«adj»: где стоит подразделение, спрашивается только при химической атаке"),
    ('"Alpha inf', "a quote opened and never closed", "кавычка открыта и не закрыта"),
    ('"A" inf, "a" cv', "two units named a", "два подразделения с именем a"),
])
def test_a_wrong_line_is_refused_naming_the_wrong_part(line: str, en: str, ru: str) -> None:
    assert en in refusal(UNITS, line, "en")
    assert ru in refusal(UNITS, line, "ru")
    assert "\n" not in refusal(UNITS, line)


def test_the_refusals_list_the_words_the_vocabulary_reads() -> None:
    """The kinds and states a refusal lists are the first words of the vocabulary file."""
    vocab = vocabulary()
    for lang in ("en", "ru"):
        shown = render(Msg.of("waw.entry.kinds"), lang) + render(Msg.of("waw.entry.states"),
                                                                  lang)
        for part in ("kind", "state"):
            for word in vocab.first_words(part, lang):
                if word not in ("good", "норм"):
                    assert word in shown, (lang, word)


@pytest.mark.clause("W-8")
def test_W8_a_chemical_line_places_units_in_the_six_hexes_around() -> None:
    line = CHEM_UNITS.accept("inf, 2 inf adj, cv dis рядом")
    assert [u.position for u in line.units] == ["centre", "adjacent", "adjacent", "adjacent"]
    assert CHEM_UNITS.format(line) == "inf, 2 inf adj, cv dis adj"


@pytest.mark.clause("W-8")
def test_W8_a_chemical_line_says_which_infantry_walks_and_which_rides_in_which_vehicle(
        ) -> None:
    """Issue 27: ``foot`` or ``in #2`` / ``in "Carrier"`` after an infantry part settles its
    ride (not asked); a part that says neither is asked, as before."""
    line = CHEM_UNITS.accept("inf foot, cv, 2 inf in #2, inf")
    assert line.settled == {"unit-1": None, "unit-3": "unit-2", "unit-4": "unit-2"}
    assert [u.mounted_in for u in line.units] == [None, None, "unit-2", "unit-2", None]
    assert CHEM_UNITS.format(line) == "inf foot, cv, 2 inf in #2, inf"
    ru = CHEM_UNITS.accept("пех пеш, бм, 2 пех в #2, пех")
    assert ru.units == line.units and ru.settled == line.settled
    assert CHEM_UNITS.format(ru) == "пех пеш, бм, 2 пех в #2, пех"
    named = CHEM_UNITS.accept('"Alpha" inf in "Carrier", "Carrier" cv')
    assert named.settled == {"alpha": "carrier"}
    assert CHEM_UNITS.format(named) == '"Alpha" inf in "Carrier", "Carrier" cv'
    assert CHEM_UNITS.accept("inf, cv").settled == {}  # the lines of before: asked


@pytest.mark.clause("W-8")
@pytest.mark.parametrize(("question", "line", "en", "ru"), [
    (UNITS, "inf foot", "'foot': only a chemical strike asks how infantry rides",
     "«foot»: как едет пехота, спрашивает только химическая атака"),
    (CHEM_UNITS, "cv foot, inf", "'cv foot': only infantry rides in a vehicle or goes on foot",
     "«cv foot»: едет в машине или идёт пешком только пехота"),
    (CHEM_UNITS, "inf in #5, cv", "'inf in #5': it rides in a combat vehicle of this line",
     "«inf in #5»: оно едет в боевой машине из этой строки"),
    (CHEM_UNITS, "inf in, cv", "'in' in 'inf in': name the combat vehicle it rides in",
     "«in» в «inf in»: после него назовите боевую машину"),
    (CHEM_UNITS, "inf foot in #2, cv", "'inf foot in #2': on foot or in one vehicle",
     "«inf foot in #2»: пешком или в одной машине"),
])
def test_W8_a_wrong_ride_is_refused_naming_the_part(question: Any, line: str, en: str,
                                                    ru: str) -> None:
    assert en in refusal(question, line, "en")
    assert ru in refusal(question, line, "ru")


# --- the hex and the ratings ------------------------------------------------------------------

def test_the_hex_keeps_its_map_number_and_may_carry_its_defence_bonus() -> None:
    assert HEX.accept("712") == HexLine("0712")
    assert HEX.accept(712) == HexLine("0712")  # a script's `hex = 712`
    assert HEX.accept("0712 1") == HexLine("0712", defence=1)
    assert HEX.accept("0712 Woods") == HexLine("0712", terrain="woods")
    assert HEX.format(HexLine("0712", defence=1)) == "0712 1"
    assert "'x': neither a defence bonus (0 to 10) nor a terrain of your data file" in \
        refusal(HEX, "0712 x")
    assert "«11»: это не защитный бонус" in refusal(HEX, "0712 11", "ru")
    smoke = HexQuestion(id="hex", text=Msg.of("waw.q.hex"))
    assert "'1': only the hex here" in refusal(smoke, "0712 1")


def test_the_ratings_come_in_one_line_or_the_firepower_alone() -> None:
    assert RATING.accept("5 4+") == RatingLine(5, 4) == RATING.accept("5/4")
    assert RATING.accept(5) == RatingLine(5)  # a script's `firepower = 5`
    assert RATING.format(RatingLine(5, 4)) == "5 4+"
    assert "'7+': the hit number is from 1+ to 6+" in refusal(RATING, "5 7+")
    assert "«0»: огневая мощь — целое число от 1 до 40" in refusal(RATING, "0 4", "ru")


# --- the whole mission ------------------------------------------------------------------------

REFERENCE = {"mission": "he", "hex": "0712 1", "units": "2 inf, cv", "firepower": "5 4+",
             "attack": [5, 5, 5, 5, 5], "defence": [6], "pick.round-2.1": [3],
             "effect.unit-1.first": "none", "effect.unit-2.first": "none"}


@pytest.mark.clause("W-2")
def test_W2_the_defence_bonus_typed_with_the_hex_is_not_asked_again() -> None:
    ids, result = asked(REFERENCE)
    assert "terrain-defence" not in ids
    assert ids[:4] == ["mission", "hex", "units", "firepower"]
    assert result.outcome_data["net_hits"] == 4
    # round 2's one hit falls on the third unit (the d3 shows 3): the tank, past harm
    assert result.outcome_data["hits"] == {"unit-1": 1, "unit-2": 1, "unit-3": 2}
    assert result.outcome_data["status"] == {"unit-1": "good", "unit-2": "good",
                                             "unit-3": "disorganized"}


def test_the_old_script_of_the_same_mission_replays_with_the_same_result() -> None:
    """A script written before issue 14 (hex 712, a count, then each unit; firepower, then hit
    number; the defence after the hits) gives the same mission."""
    old = {"mission": "he", "hex": 712, "units": 3,
           "unit.1.kind": "infantry", "unit.1.status": "good",
           "unit.2.kind": "infantry", "unit.2.status": "good",
           "unit.3.kind": "combat-vehicle", "unit.3.status": "good",
           "firepower": 5, "hit-number": 4, "attack": [5, 5, 5, 5, 5],
           "terrain-defence": 1, "defence": [6], "pick.round-2.1": [3],
           "effect.unit-1.first": "none", "effect.unit-2.first": "none"}
    _, before = asked(old)
    _, now = asked(REFERENCE)
    assert before.outcome_data == now.outcome_data


KIND_WORDS = {"infantry": "inf", "combat-vehicle": "cv", "unarmoured-vehicle": "uv", "hq": "hq"}
STATES = ("good", "disorganized", "weakened", "weakened-disorganized")
unit_strategy = st.tuples(st.sampled_from(sorted(KIND_WORDS)), st.sampled_from(STATES))


@settings(max_examples=40, deadline=None)
@given(units=st.lists(unit_strategy, min_size=1, max_size=5),
       faces=st.lists(st.integers(1, 6), min_size=6, max_size=6),
       defence=st.integers(0, 3), seed=st.integers(1, 10_000))
def test_a_line_and_the_same_units_one_by_one_give_the_same_mission(
        units: list[tuple[str, str]], faces: list[int], defence: int, seed: int) -> None:
    assume(any(kind != "hq" for kind, _ in units))  # else no ratings are asked
    words = {"good": [], "disorganized": ["dis"], "weakened": ["weak"],
             "weakened-disorganized": ["weak", "dis"]}
    line = ", ".join(" ".join([KIND_WORDS[k], *words[s]]) for k, s in units)
    compact = {"mission": "he", "hex": f"0101 {defence}", "units": line,
               "firepower": "6 4+", "attack": faces}
    one_by_one: dict[str, Any] = {"mission": "he", "hex": "0101", "units": len(units),
                                  "firepower": 6, "hit-number": 4, "attack": faces}
    for i, (kind, status) in enumerate(units, 1):
        one_by_one |= {f"unit.{i}.kind": kind, f"unit.{i}.status": status}
    plan_a = api.plan_attack("waw", seed=seed)
    port_a = ScriptingPort(AnswerPort(compact, plan_a.dice, roll_missing_dice=True,
                                      use_defaults=True))
    a = api.play(plan_a, port_a)
    if any(f >= 4 for f in faces):  # the defence is asked once there are hits
        one_by_one["terrain-defence"] = defence
    plan_b = api.plan_attack("waw", seed=seed)
    b = api.play(plan_b, AnswerPort(one_by_one, plan_b.dice, roll_missing_dice=True,
                                    use_defaults=True))
    assert a.outcome_data == b.outcome_data
    assert [s.data for s in a.steps if s.kind.value == "roll"] == \
        [s.data for s in b.steps if s.kind.value == "roll"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(KIND_WORDS)), st.booleans(), st.booleans(),
                          st.sampled_from(["centre", "adjacent"]),
                          st.one_of(st.none(), st.sampled_from(["Alpha", "Bravo", "Кедр"]))),
                min_size=1, max_size=8))
def test_any_line_written_back_reads_as_the_same_units(specs: list[Any]) -> None:
    units: list[Unit] = []
    names: set[str] = set()
    for i, (kind, dis, weak, where, name) in enumerate(specs, 1):
        if name in names:
            name = None
        if name is not None:
            names.add(name)
        units.append(Unit(id=None if name else f"unit-{i}", name=name, kind=kind,
                          disorganized=dis, weakened=weak, position=where))
    for lang in ("en", "ru"):
        line = UnitsLine(tuple(units), lang)
        assert CHEM_UNITS.accept(CHEM_UNITS.format(line)).units == line.units


def test_a_recorded_mission_of_compact_lines_replays_the_same() -> None:
    """What a record keeps of a line (``to_script``: the line written back) replays."""
    plan = api.plan_attack("waw", seed=3)
    recorder = ScriptingPort(AnswerPort({**REFERENCE, "units": "2 пех, бм"}, plan.dice,
                                        roll_missing_dice=True))
    first = api.play(plan, recorder)
    assert recorder.answers["units"] == "2 пех, бм" and recorder.answers["hex"] == "0712 1"
    again = api.play(api.plan_attack("waw", seed=3),
                     AnswerPort(dict(recorder.answers), plan.dice))
    assert again.outcome_data == first.outcome_data
