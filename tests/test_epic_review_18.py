"""Epic Armageddon findings of the rules review (issue 18): fortified units under crossfire
(E-11), crossfire per formation under a barrage (E-13, E-19), a wiped-out formation in a
barrage's outcome (E-14) and disrupt hits that no unit can take (E-13)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalog import render
from tests.epic_helpers import asked, decl, funit, shoot, tunit

TARGET = "Red Hill Battery (invented)"
OTHER = "Blue Squad (invented)"
RIFLE = {"name": "Rifle", "ap": 4}
HOWITZER = {"name": "Howitzer", "barrage": 3}


def _save_texts(result: Any) -> list[str]:
    return [render(s.text) for s in result.steps if s.kind == "roll"
            and s.data.get("question", "").startswith("save.")]


# 1. fortified units ignore crossfire's -1 to their saves, but still give its extra marker
@pytest.mark.clause("E-11")
def test_E11_fortified_infantry_keeps_its_3_plus_cover_save_under_crossfire() -> None:
    d = decl([RIFLE], [tunit("A", armour=6, terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [3]})
    assert r.outcome_data["casualties"] == []  # 3+ still: crossfire's -1 does not apply
    assert any("3+" in t for t in _save_texts(r))
    note = next(s for s in r.steps if s.text.id == "epic.step.fortified_crossfire")
    assert note.clause == "E-11" and "A" in render(note.text)
    # the same unit in ruins (4+ cover) takes the -1: a 4 fails
    d = decl([RIFLE], [tunit("A", armour=6, terrain="ruins")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [4]})
    assert r.outcome_data["casualties"] == ["A"]


@pytest.mark.clause("E-13")
def test_E13_fortified_unit_destroyed_under_crossfire_still_gives_the_extra_marker() -> None:
    d = decl([RIFLE], [tunit("A", armour=6, terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [2]})
    assert r.outcome_data["casualties"] == ["A"]
    assert r.outcome_data["markers_added"] == 1 + 1 + 1  # under fire, the kill, crossfire


@pytest.mark.clause("E-11")
def test_E11_fortified_armour_save_ignores_crossfire_too() -> None:
    # a tank in an emplacement: units in fortifications (any type) may ignore the -1
    d = decl([{"name": "Lascannon", "at": 4}], [tunit("T", "AV", armour=4,
                                                     terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.lascannon": [6], "save.normal.t": [4]})
    assert r.outcome_data["casualties"] == []


@pytest.mark.clause("E-11")
def test_E11_odds_of_a_fortified_unit_under_crossfire_match_the_resolver_tree() -> None:
    from tests.test_epic_odds import check_tree

    d = decl([{"name": "Rifle", "ap": 4, "shots": 2}],
             [tunit("A", armour=6, terrain="fortifications"),
              tunit("B", armour=6, distance=15, terrain="ruins")], crossfire=1)
    assert check_tree(d, {}) >= 3


# 2. crossfire is per formation under a barrage's templates
def _two_formations(**other: Any) -> dict[str, Any]:
    d = decl([HOWITZER], [tunit("A", distance=10, armour=4, under_template=True)],
             [funit("G1", ["Howitzer"])], crossfire=1)
    d["also_under_templates"] = [{"name": OTHER, "broken": False, "blast_markers": 0,
                                  **other,
                                  "units": [tunit("X", distance=12, armour=4,
                                                  under_template=True)]}]
    return d


BARRAGE_HITS = {"barrage.red-hill-battery-invented.ap": [6],
                "save.red-hill-battery-invented.a": [6],
                "barrage.blue-squad-invented.ap": [6]}


@pytest.mark.clause("E-13")
@pytest.mark.clause("E-19")
def test_E13_barrage_crossfire_of_the_target_does_not_reach_another_formation() -> None:
    r = shoot(_two_formations(crossfire=0), {**BARRAGE_HITS,
                                            "save.blue-squad-invented.x": [4]})
    other = r.outcome_data["formations"][OTHER]
    assert other["casualties"] == []  # 4+ armour, no crossfire: a 4 saves
    r = shoot(_two_formations(crossfire=0), {**BARRAGE_HITS,
                                            "save.blue-squad-invented.x": [1]})
    other = r.outcome_data["formations"][OTHER]
    assert other["markers_added"] == 1 + 1  # under fire and the kill: no crossfire marker


@pytest.mark.clause("E-13")
def test_E13_barrage_crossfire_declared_for_the_other_formation_applies_to_it() -> None:
    r = shoot(_two_formations(crossfire=2), {**BARRAGE_HITS,
                                            "save.blue-squad-invented.x": [4]})
    other = r.outcome_data["formations"][OTHER]
    assert other["casualties"] == ["X"]  # 4+ becomes 5+
    assert other["markers_added"] == 1 + 1 + 2


@pytest.mark.clause("E-13")
def test_E13_crossfire_of_another_formation_left_out_is_asked_at_the_table() -> None:
    ids = asked(_two_formations(), {**BARRAGE_HITS, "crossfire.blue-squad-invented": 0})
    assert "crossfire.blue-squad-invented" in ids
    assert "crossfire.red-hill-battery-invented" not in ids  # the target's is declared
    r = shoot(_two_formations(), {**BARRAGE_HITS, "crossfire.blue-squad-invented": 1,
                                  "save.blue-squad-invented.x": [4]})
    assert r.outcome_data["formations"][OTHER]["casualties"] == ["X"]


@pytest.mark.clause("E-19")
@pytest.mark.parametrize("crossfire", [0, 1])  # the target's crossfire is 1 in both
def test_E19_odds_of_another_formation_use_its_own_crossfire(crossfire: int) -> None:
    from fractions import Fraction

    from tests.test_epic_odds import ends, walk

    nodes = [(q, dist) for q, dist in walk(_two_formations(crossfire=crossfire), {},
                                           formation=OTHER) if "blue-squad" in q.id]
    assert len(nodes) >= 2
    for question, dist in nodes:  # the other formation's own rolls show its own odds
        shown = ends(question)
        killed = sum((p * k for (k, _, _), p in dist.items()), Fraction(0))
        assert shown["epic.odds.end.destroyed"] == killed, question.id
        assert shown["epic.odds.end.breaks"] == sum(
            (p for (_, b, _), p in dist.items() if b), Fraction(0)), question.id


# 3. a formation the barrage wipes out is destroyed, not "not broken"
@pytest.mark.clause("E-14")
def test_E14_barrage_outcome_says_a_wiped_out_formation_is_destroyed() -> None:
    r = shoot(_two_formations(crossfire=0), {**BARRAGE_HITS,
                                            "save.blue-squad-invented.x": [1]})
    assert r.outcome_data["formations"][OTHER]["units_left"] == 0
    text = render(r.outcome)
    part = text[text.index(OTHER):]
    assert "destroyed" in part and "not broken" not in part
    check = next(s for s in r.steps if s.text.id == "epic.step.break_check"
                 and OTHER in render(s.text))
    assert "destroyed" in render(check.text)


# 4. disrupt hits that no unit can take place no marker (option disrupt-unplaced-hits)
AP_DISRUPT = {"name": "Bolter", "ap": 4, "shots": 3, "disrupt": True}
TANKS = [tunit("T1", "AV", armour=4), tunit("T2", "AV", armour=4, distance=12)]


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_that_no_unit_can_take_place_no_marker() -> None:
    d = decl([AP_DISRUPT], TANKS)
    r = shoot(d, {"to-hit.bolter": [6, 6, 6]})
    assert r.outcome_data["markers_added"] == 1  # the under-fire marker only
    assert r.outcome_data["broken"] is False  # 1 marker, 2 tanks
    note = next(s for s in r.steps if s.text.id == "epic.step.disrupt_unplaced")
    assert note.clause == "E-13" and "3" in render(note.text)
    assert r.non_default_options == ()


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_with_no_unit_place_markers_under_the_other_reading() -> None:
    d = decl([AP_DISRUPT], TANKS)
    r = shoot(d, {"to-hit.bolter": [6, 6, 6]}, ("disrupt-unplaced-hits=marker",))
    assert r.outcome_data["markers_added"] == 1 + 3
    assert r.outcome_data["broken"] is True  # 4 markers, 2 tanks
    assert r.non_default_options == ("disrupt-unplaced-hits",)
    note = next(s for s in r.steps if s.text.id == "epic.step.disrupt_unplaced_marked")
    assert note.clause == "E-13"


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_that_are_allocated_still_place_a_marker_each() -> None:
    d = decl([AP_DISRUPT], [tunit("A", armour=4), *TANKS])
    r = shoot(d, {"to-hit.bolter": [6, 6, 6], "save.normal.a": [5, 5, 5]})
    # all three AP hits go to the one infantry unit: three markers, no save failed
    assert r.outcome_data["markers_added"] == 1 + 3


@pytest.mark.clause("E-13")
@pytest.mark.parametrize("reading", ["no-marker", "marker"])
def test_E13_odds_of_unplaced_disrupt_hits_match_the_resolver_tree(reading: str) -> None:
    from tests.test_epic_odds import check_tree

    d = decl([{"name": "Bolter", "ap": 4, "shots": 2, "disrupt": True},
              {"name": "Lascannon", "at": 5}], TANKS)
    assert check_tree(d, {}, (f"disrupt-unplaced-hits={reading}",)) >= 3


@pytest.mark.clause("E-13")
def test_E13_a_macro_disrupt_hit_whose_only_target_fell_first_places_no_marker() -> None:
    from tests.test_epic_odds import check_tree

    # B, the only unit the macro-weapon reaches, is nearest: the rifle's hit goes to it first
    d = decl([{"name": "Rifle", "ap": 3}, {"name": "Stun cannon", "ap": 3, "macro": True,
                                           "disrupt": True}],
             [tunit("B", armour=5, distance=5), tunit("A", armour=5, in_mw_range=False)])
    r = shoot(d, {"to-hit.rifle": [6], "to-hit.stun-cannon": [6], "save.normal.b": [1]})
    assert r.outcome_data["casualties"] == ["B"]
    assert r.outcome_data["markers_added"] == 1 + 1  # under fire, B: the macro hit is lost
    assert check_tree(d, {}) >= 3
