"""Lock 'n Load Tactical typed at the table (issue 27, part 3): with no roster file the phase
asks each side's units in one compact line (read by the reader Combat Commander's lines use),
keeps them in the game file's phase, and replays from the answers. Units invented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import AnswerError
from referee.core.text import Msg
from referee.rulesets.lnlt.typed import (
    AdjacentQuestion,
    SidesQuestion,
    SideUnits,
    UnitLine,
    UnitsQuestion,
    _Ids,
    units_of,
)
from tests.support.game import invoke, new_game

UNITS = UnitsQuestion(id="typed.units.1", text=Msg.of("lnlt.q.typed_units", side="Grey"),
                   side="Grey")


def _units(line: str) -> list[dict[str, object]]:
    return units_of("Grey", UNITS.accept(line), _Ids())


def _refusal(line: str, question: object = UNITS) -> str:
    with pytest.raises(AnswerError) as err:
        question.accept(line)  # type: ignore[attr-defined]
    return render(err.value.msg)


def test_a_side_line_says_each_unit_with_its_hex() -> None:
    units = _units('Able 2 6 @C4, "Lt. Baker" 0 8 leader 1, Panzer 4 vehicle armor 3 mg 2 @E5')
    assert [(u["name"], u["hex"], u["kind"], u["ifp"], u["morale"]) for u in units] == [
        ("Able", "C4", "mmc", 2, 6), ("Lt. Baker", "C4", "smc", 0, 8),
        ("Panzer", "E5", "vehicle", 4, None)]
    assert units[1]["leader"] is True and units[1]["lm"] == 1
    assert units[2]["armor"] == 3
    assert units[2]["sws"] == [{"id": "panzer-mg", "kind": "mg", "fp": 2}]


def test_units_without_a_name_are_numbered_after_their_side_without_gaps() -> None:
    units = _units("2x 1 5 @D4, Baker 2 6, 1 5 shaken")
    assert [u["name"] for u in units] == ["Grey 1", "Grey 2", "Baker", "Grey 3"]
    assert units[3]["status"] == "shaken"
    assert len({u["id"] for u in units}) == 4


def test_a_line_in_russian_reads_the_same() -> None:
    ru = _units("Рота 2 6 пулемёт 2 потрясён @C4, «Лт. Карр» 0 8 лидер 1")
    assert [(u["name"], u["status"], u["kind"]) for u in ru] == [
        ("Рота", "shaken", "mmc"), ("Лт. Карр", "good-order", "smc")]
    assert ru[0]["sws"][0]["kind"] == "mg"  # type: ignore[index]


@pytest.mark.parametrize(("line", "reason"), [
    ("Able 2 6", "Able 2 6: where does it stand? add its hex (@C4)"),
    ("Able @C4", "a unit is its IFP and then its morale (Able 2 6 @C4), not '-'"),
    ("Able 2 6 9 @C4", "not '2 6 9'"),
    ("Able 2 6 shaken damaged @C4", "'shaken' and 'damaged': a unit has one status"),
    ("Able 2 6 damaged @C4", "'damaged' is not a status of this kind of unit"),
    ("Able 2 6 mg @C4", "'mg' needs a number after it, e.g. 'mg 1'"),
    ("Able 2 13 @C4", "Morale: 13 is out of bounds, 0 to 12"),
    ("Able 2 6 tank leader 1 @C4", "a vehicle is no leader"),
    ('"Able 2 6 @C4', 'a name in quotes needs its closing quote'),
    ("Able 2 6 purple @C4", "'purple' is not a word of this line"),
    ("-", "Grey has no unit: type at least one"),
])
def test_a_wrong_unit_is_refused_naming_what_is_wrong(line: str, reason: str) -> None:
    assert reason in _refusal(line)


def test_the_sides_and_the_adjacent_hexes() -> None:
    sides = SidesQuestion(id="typed.sides", text=Msg.of("lnlt.q.typed_sides"))
    assert sides.accept("Grey Red") == ("Grey", "Red")
    assert sides.accept("Grey Company, Red Army") == ("Grey Company", "Red Army")
    assert "type the two sides' names" in _refusal("Grey", sides)
    adjacent = AdjacentQuestion(id="typed.adjacent", text=Msg.of("lnlt.q.typed_adjacent",
                                                              hexes="C4, D4"),
                             hexes=("C4", "D4"))
    assert adjacent.accept("c4-d4") == (("C4", "D4"),)
    assert adjacent.accept("") == ()  # Enter: none
    assert "E9 holds no unit: the hexes are C4, D4" in _refusal("C4-E9", adjacent)
    assert "a pair of adjacent hexes is two hexes and a dash" in _refusal("C4", adjacent)


_names = st.sampled_from([None, "Able", "Lt. Baker", "Squad 5", "Рота"])


@given(st.lists(st.builds(
    UnitLine, count=st.integers(1, 3), name=_names, fp=st.integers(0, 20),
    morale=st.none() | st.integers(0, 12), hex=st.sampled_from(["C4", "D4", "0712"]),
    status=st.sampled_from(["good-order", "shaken"]),
    sws=st.sampled_from([(), (("mg", 2),), (("mg", 1), ("oft", 0))])), min_size=1,
    max_size=4))
def test_a_line_written_back_reads_as_the_same_units(lines: list[UnitLine]) -> None:
    value = SideUnits(tuple(lines))
    again = UNITS.accept(UNITS.format(value))
    assert again == value


def test_attack_lnlt_without_a_roster_asks_the_units() -> None:
    answers = {"typed.sides": "Grey, Red", "typed.units.1": "Able 2 6 @C4",
               "typed.units.2": "Pawn 1 5 @D4", "initiative": "Grey", "i1.do": "fire:C4",
               "i1.fire.C4.mods": "0 0", "i1.fire.C4.opposed": [5, 1],
               "i1.fire.C4.dc.pawn": [5], "i1.fire.C4.result.pawn": "shaken",
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    result = api.attack("lnlt", answers)
    assert "Damage check of Pawn: 11 → Shaken" in [render(s.text) for s in result.steps]


def test_a_phase_typed_at_the_table_is_kept_in_the_game(tmp_path: Path,
                                                        game_seed: str) -> None:
    game = tmp_path / "g.sqlite"
    new_game(game)  # its sides (Grey, Red) are not asked again
    code, out, err = invoke(
        ["phase", "lnlt", "--game", str(game), "--impulses", "1", "--no-odds"],
        answers=["Able 2 6 @C4, Lt. Baker 0 8 leader 1 @B4", "Pawn 1 5 @D4", "B4-C4, C4-D4",
                 "Grey",
                 "fire:C4", "0 0", "5 1", "5", "shaken"])
    assert code == 0, err
    asked = [line.split("?")[1] for line in out.splitlines() if line.startswith("? ")]
    assert asked[:4] == [" Grey's units, and where they stand", " Red's units, and where "
                         "they stand", " Which of these hexes are adjacent (B4, C4, D4)",
                         " Which side has the initiative"]
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--show", "--json"])
    units = json.loads(out)["summary"]["tables"][-1]["rows"]
    assert [u["unit"] for u in units] == ["Able", "Lt. Baker", "Pawn"]
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--impulses", "1",
                             "--no-odds"], answers=["pass"])
    assert code == 0 and "Grey's units" not in out, err
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "The log holds together (2 entries)" in out, err


def test_no_leader_no_question_about_adjacent_hexes(tmp_path: Path) -> None:
    code, out, err = invoke(
        ["phase", "lnlt", "--game", str(tmp_path / "g.sqlite"), "--impulses", "1",
         "--no-odds", "--seed", "1"],
        answers=["Grey, Red", "Able 2 6 @C4", "Pawn 1 5 @D4", "Grey", "pass"])
    assert code == 0, err
    assert "adjacent" not in out and "? The two sides?  Grey, Red" in out
