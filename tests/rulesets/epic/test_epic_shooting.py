"""Epic Armageddon, the whole shooting attack: clauses E-1 to E-6 and E-10 to E-14, the
ambiguity defaults E-X1, E-X2, E-X6, E-X7, E-X8, and the brief's worked examples 5 to 8.
Each test fails if its rule is applied wrongly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.catalog import render
from referee.core.errors import ScriptError
from referee.rulesets.epic.tables import tables
from tests.support.epic import asked, decl, funit, played_in, shoot, tunit, units_hit

BOLTER = {"name": "Heavy bolter", "shots": 1, "ap": 5}
CANNON = {"name": "Battle cannon", "shots": 1, "ap": 5, "at": 4}
LASER = {"name": "Lascannon", "shots": 1, "at": 5}
MACRO = {"name": "Volcano gun", "shots": 1, "at": 4, "macro": True}

EXAMPLE_7 = [tunit("A", "INF", 10), tunit("B", "AV", 15, 4), tunit("C", "INF", 20),
             tunit("D", "INF", 25)]


# --- E-1, E-2, E-3: who fires -----------------------------------------------------------

@pytest.mark.clause("E-1")
def test_E1_units_that_cannot_engage_the_one_target_simply_do_not_fire() -> None:
    d = decl([BOLTER], [tunit("A")], [funit("F1", ["Heavy bolter"]),
                                      funit("F2", ["Heavy bolter"], in_range=False)])
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [6]})
    assert r.outcome_data["fired"] == ["F1"]
    shots = next(t for t in r.tables if t.title.id == "epic.table.shots")
    assert shots.rows[0][2] == 1  # one shot: F2 is out of range and does not fire elsewhere


@pytest.mark.clause("E-2")
def test_E2_a_unit_needs_range_and_line_of_fire_to_shoot() -> None:
    d = decl([BOLTER], [tunit("A")], [funit("F1", ["Heavy bolter"], in_range=False)])
    r = shoot(d, {})
    assert r.outcome_data["shot"] is False


@pytest.mark.clause("E-3")
def test_E3_fire_arcs_by_bearing() -> None:
    t = tables()
    assert t.arc("forward").allows(89) and not t.arc("forward").allows(91)
    assert t.arc("rear").allows(170) and not t.arc("rear").allows(80)
    assert t.arc("left").allows(300) and not t.arc("left").allows(60)
    assert t.arc("right").allows(60) and not t.arc("right").allows(300)
    assert t.arc("fixed-forward").allows(315) and t.arc("fixed-forward").allows(45)
    assert not t.arc("fixed-forward").allows(46)
    assert t.arc("all").allows(180)


@pytest.mark.clause("E-3")
def test_E3_a_weapon_outside_its_arc_does_not_fire() -> None:
    gun = {**BOLTER, "arc": "fixed-forward"}
    d = decl([gun, {"name": "Pintle", "ap": 6}], [tunit("A")],
             [funit("F1", ["Heavy bolter", "Pintle"], bearing=90)])
    r = shoot(d, {"to-hit.pintle": [6], "save.normal.a": [6]})
    shots = next(t for t in r.tables if t.title.id == "epic.table.shots")
    assert [row[0] for row in shots.rows] == ["Pintle"]


# --- E-4: suppression (worked example 6) ---------------------------------------------------

def _example_6(markers: int) -> dict:
    units = [funit(f"U{i}", ["Heavy bolter"], d) for i, d in enumerate((10, 20, 30, 30, 40), 1)]
    return decl([BOLTER], [tunit("A", "AV", 10, 4)], units, firing_blast_markers=markers)


@pytest.mark.clause("E-4")
def test_E4_worked_example_6_farthest_suppressed_and_the_tie_is_the_shooters_choice() -> None:
    r = shoot(_example_6(2), {"suppress": ["U3"], "to-hit.heavy-bolter": "=0"})
    assert r.outcome_data["fired"] == ["U1", "U2", "U4"]
    r = shoot(_example_6(2), {"suppress": ["U4"], "to-hit.heavy-bolter": "=0"})
    assert r.outcome_data["fired"] == ["U1", "U2", "U3"]


@pytest.mark.clause("E-4")
def test_E4_no_question_without_a_tie_and_the_count_is_checked() -> None:
    assert "suppress" not in asked(_example_6(1), {"to-hit.heavy-bolter": "=0"})
    with pytest.raises(ScriptError):
        shoot(_example_6(2), {"suppress": ["U3", "U4"], "to-hit.heavy-bolter": "=0"})
    with pytest.raises(ScriptError):
        shoot(_example_6(2), {"suppress": ["U1"], "to-hit.heavy-bolter": "=0"})


@pytest.mark.clause("E-X8")
def test_EX8_suppression_front_from_the_target_or_from_the_nearest_enemy() -> None:
    units = [funit("Near", ["Heavy bolter"], 10, nearest_enemy=50),
             funit("Far", ["Heavy bolter"], 40, nearest_enemy=5)]
    d = decl([BOLTER], [tunit("A", "AV", 10, 4)], units, firing_blast_markers=1)
    assert shoot(d, {"to-hit.heavy-bolter": "=0"}).outcome_data["fired"] == ["Near"]
    r = shoot(d, {"to-hit.heavy-bolter": "=0"}, ("suppression-front=nearest-enemy",))
    assert r.outcome_data["fired"] == ["Far"]
    assert r.non_default_options == ("suppression-front",)


# --- E-5, E-6: the under-fire marker (worked example 5) ---------------------------------------

TANKS = [tunit(f"Tank {i}", "AV", 10 * i, 4) for i in range(1, 5)]


@pytest.mark.clause("E-6")
def test_E6_worked_example_5_heavy_bolters_at_tanks_still_place_one_marker() -> None:
    r = shoot(decl([BOLTER], TANKS), {"to-hit.heavy-bolter": [6]})
    assert r.outcome_data["hits"] == {"ap": 1}
    assert r.outcome_data["allocation"] == []  # no AP hit can go to a tank
    assert r.outcome_data["blast_markers"] == 1
    assert r.outcome_data["broken"] is False


@pytest.mark.clause("E-14")
def test_E14_worked_example_5_with_three_markers_already_breaks_after_the_attack() -> None:
    r = shoot(decl([BOLTER], TANKS, target_blast_markers=3), {"to-hit.heavy-bolter": [2]})
    assert r.outcome_data["blast_markers"] == 4
    assert r.outcome_data["broken"] is True


@pytest.mark.clause("E-X1")
def test_EX1_default_marker_for_coming_under_fire_house_rule_only_on_a_hit() -> None:
    d = decl([BOLTER], [tunit("A")])
    assert shoot(d, {"to-hit.heavy-bolter": [2]}).outcome_data["blast_markers"] == 1
    r = shoot(d, {"to-hit.heavy-bolter": [2]}, ("under-fire-marker=first-hit",))
    assert r.outcome_data["blast_markers"] == 0
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [6]},
              ("under-fire-marker=first-hit",))
    assert r.outcome_data["blast_markers"] == 1


@pytest.mark.clause("E-5")
def test_E5_order_marker_then_hits_then_saves_then_casualty_markers_then_break() -> None:
    r = shoot(decl([BOLTER], [tunit("A")]), {"to-hit.heavy-bolter": [6], "save.normal.a": [1]})
    clauses = [s.clause for s in r.steps]
    assert clauses.index("E-8") < clauses.index("E-11") < clauses.index("E-14")
    markers = next(t for t in r.tables if t.title.id == "epic.table.markers")
    reasons = [row[0].id for row in markers.rows]
    assert reasons == ["epic.bm.before", "epic.bm.under_fire", "epic.bm.casualty",
                       "epic.bm.after"]


@pytest.mark.clause("E-6")
def test_E6_formation_with_no_units_left_is_not_shot_at(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    d = decl([{"name": "Gun", "ap": 2}], [tunit("A")])
    played_in(game, d, {"action": "advance", "to-hit.gun": [6], "save.normal.a": [1]})
    r = played_in(game, d, {"action": "advance"})  # no dice answered: none may be asked
    assert r.outcome_data["shot"] is False
    assert r.state_updates == {}
    assert any(s.text.id == "epic.step.no_units_left" for s in r.steps)


# --- E-10: allocation (worked example 7) -----------------------------------------------------

@pytest.mark.clause("E-10")
def test_E10_worked_example_7_five_ap_hits_spread_front_to_back() -> None:
    r = shoot(decl([{**BOLTER, "shots": 5}], EXAMPLE_7),
              {"to-hit.heavy-bolter": [6] * 5, "save.normal.a": [6, 6],
               "save.normal.c": [6, 6], "save.normal.d": [6]})
    assert units_hit(r) == ["a", "c", "d", "a", "c"]


@pytest.mark.clause("E-10")
def test_E10_worked_example_7_at_hits_only_to_the_armour() -> None:
    r = shoot(decl([{**LASER, "shots": 2}], EXAMPLE_7),
              {"to-hit.lascannon": [6, 6], "save.normal.b": [6, 6]})
    assert units_hit(r) == ["b", "b"]


@pytest.mark.clause("E-10")
def test_E10_worked_example_7_units_out_of_range_are_not_potential_targets() -> None:
    targets = [*EXAMPLE_7[:3], tunit("D", "INF", 25, in_range=False)]
    r = shoot(decl([{**BOLTER, "shots": 2}], targets),
              {"to-hit.heavy-bolter": [6, 6], "save.normal.a": [6], "save.normal.c": [6]})
    assert units_hit(r) == ["a", "c"]


@pytest.mark.clause("E-10")
def test_E10_a_scripted_allocation_that_breaks_the_rule_is_refused_with_the_clause() -> None:
    targets = [tunit("A", distance=10), tunit("B", distance=10), tunit("C", distance=10),
               tunit("D", distance=20)]
    d = decl([{**BOLTER, "shots": 2}], targets)
    with pytest.raises(ScriptError) as err:
        shoot(d, {"to-hit.heavy-bolter": [6, 6], "allocate.normal.1": "D"})
    assert "front to back" in render(err.value.msg)
    with pytest.raises(ScriptError) as err:
        shoot(d, {"to-hit.heavy-bolter": [6, 6], "allocate.normal.1": "A",
                  "allocate.normal.2": "A"})
    assert "even spread" in render(err.value.msg)


@pytest.mark.clause("E-X6")
def test_EX6_equally_near_units_are_the_defenders_choice_or_listed_order() -> None:
    targets = [tunit("A", distance=10), tunit("B", distance=10)]
    d = decl([BOLTER], targets)
    r = shoot(d, {"to-hit.heavy-bolter": [6], "allocate.normal.1": "B", "save.normal.b": [6]})
    assert units_hit(r) == ["b"]
    assert "allocate.normal.1" not in asked(d, {"save.normal.a": [6]},
                                            ("allocation-tie=listed-order",))


@pytest.mark.clause("E-X2")
def test_EX2_defender_allocates_by_default_house_rule_names_the_attacker() -> None:
    d = decl([BOLTER], [tunit("A", distance=10), tunit("B", distance=10)])
    answers = {"to-hit.heavy-bolter": [6], "allocate.normal.1": "A", "save.normal.a": [6]}
    alloc = next(t for t in shoot(d, answers).tables if t.title.id == "epic.table.allocation")
    assert "the defender" in render(alloc.rows[0][4])
    r = shoot(d, answers, ("allocation-by=attacker",))
    alloc = next(t for t in r.tables if t.title.id == "epic.table.allocation")
    assert "the attacker" in render(alloc.rows[0][4])


@pytest.mark.clause("E-X7")
def test_EX7_light_vehicles_take_at_before_infantry_take_ap() -> None:
    targets = [tunit("Inf", "INF", 10), tunit("Car", "LV", 20, 5)]
    d = decl([BOLTER, LASER], targets)
    r = shoot(d, {"to-hit.heavy-bolter": [6], "to-hit.lascannon": [6],
                  "save.normal.inf": [6], "save.normal.car": [6]})
    # AT first to the light vehicle, so the AP hit goes to the infantry: nothing wasted
    assert r.outcome_data["allocation"] == [("at", "car"), ("ap", "inf")]


@pytest.mark.clause("E-X7")
def test_EX7_all_three_types_the_defender_is_asked_the_order() -> None:
    targets = [tunit("Inf", "INF", 10), tunit("Car", "LV", 20, 5), tunit("Tank", "AV", 30, 4)]
    d = decl([BOLTER, LASER], targets)
    base = {"to-hit.heavy-bolter": [6], "to-hit.lascannon": [6]}
    assert "allocate.normal.order" in asked(d, {**base, "allocate.normal.order": "ap",
                                                "save.normal.inf": [6],
                                                "save.normal.car": [6]})
    assert "allocate.normal.order" not in asked(
        d, {**base, "save.normal.car": [6], "save.normal.inf": [6]},
        ("mixed-allocation=at-to-light-vehicles-first",))


@pytest.mark.clause("E-8")
def test_E8_declined_cover_keeps_hits_off_units_in_cover() -> None:
    targets = [tunit("Woods", distance=10, terrain="woods"), tunit("Open", distance=20)]
    d = decl([{**BOLTER, "shots": 2}], targets)
    r = shoot(d, {"cover.ap": False, "to-hit.heavy-bolter": [5, 5], "save.normal.open": [6, 6]})
    assert units_hit(r) == ["open", "open"]
    need = next(s.data["need"] for s in r.steps if "need" in s.data)
    assert need == 5  # no -1 taken
    r = shoot(d, {"cover.ap": True, "to-hit.heavy-bolter": [6, 6],
                  "save.normal.woods": [6], "save.normal.open": [6]})
    assert units_hit(r) == ["woods", "open"]


# the E-X7 house rule only where the order is open
@pytest.mark.clause("E-X7")
def test_EX7_at_first_house_rule_needs_all_three_types() -> None:
    d = decl([{"name": "Bolter", "ap": 2}, {"name": "Lascannon", "at": 2}],
             [tunit("LV1", "LV", distance=10), tunit("AV1", "AV", distance=20)])
    answers = {"to-hit.bolter": [6], "to-hit.lascannon": [6], "save.normal.lv1": [6],
               "save.normal.av1": [6]}
    r = shoot(d, answers, ("mixed-allocation=at-to-light-vehicles-first",))
    assert sorted(units_hit(r)) == ["av1", "lv1"]  # no hit wasted: AP to the LV first
    assert "allocate.normal.order" not in asked(d, answers)


# --- E-11: saves ----------------------------------------------------------------------------

@pytest.mark.clause("E-11")
def test_E11_each_hit_saved_separately_at_or_above_the_armour() -> None:
    d = decl([{**BOLTER, "shots": 2}], [tunit("A", armour=4)])
    r = shoot(d, {"to-hit.heavy-bolter": [6, 6], "save.normal.a": [4, 5]})
    assert r.outcome_data["casualties"] == []
    r = shoot(d, {"to-hit.heavy-bolter": [6, 6], "save.normal.a": [4, 3]})
    assert r.outcome_data["casualties"] == ["A"]


@pytest.mark.clause("E-11")
def test_E11_infantry_use_the_better_of_cover_save_and_armour_never_both() -> None:
    d = decl([BOLTER], [tunit("A", armour=6, terrain="buildings")])
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [4]})
    assert r.outcome_data["casualties"] == []  # 4+ cover save used instead of 6+ armour
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [3]})
    assert r.outcome_data["casualties"] == ["A"]
    tank = decl([LASER], [tunit("T", "AV", armour=5, terrain="buildings")])
    r = shoot(tank, {"to-hit.lascannon": [6], "save.normal.t": [4]})
    assert r.outcome_data["casualties"] == ["T"]  # vehicles get no cover save


@pytest.mark.clause("E-11")
def test_E11_crossfire_worsens_the_save_and_a_7_plus_save_is_lost() -> None:
    d = decl([BOLTER], [tunit("A", armour=4)], crossfire=1)
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [4]})
    assert r.outcome_data["casualties"] == ["A"]  # needs 5+ under crossfire
    d = decl([BOLTER], [tunit("A", armour=6)], crossfire=1)
    assert "save.normal.a" not in asked(d, {"to-hit.heavy-bolter": [6]})


@pytest.mark.clause("E-11")
def test_E11_reinforced_armour_rerolls_and_invulnerable_saves_after() -> None:
    d = decl([LASER], [tunit("T", "AV", armour=4, reinforced=True)])
    r = shoot(d, {"to-hit.lascannon": [6], "save.normal.t": [2], "save.normal.t.reroll": [5]})
    assert r.outcome_data["casualties"] == []
    d = decl([LASER], [tunit("T", "AV", armour=4, invulnerable=True)])
    r = shoot(d, {"to-hit.lascannon": [6], "save.normal.t": [2],
                  "save.normal.t.invulnerable": [6]})
    assert r.outcome_data["casualties"] == []


@pytest.mark.clause("E-11")
def test_E11_ignore_cover_negates_cover_to_hit_and_cover_saves() -> None:
    flamer = {"name": "Flamer", "ap": 4, "ignore_cover": True}
    d = decl([flamer], [tunit("A", armour=6, terrain="buildings")])
    r = shoot(d, {"to-hit.flamer": [4], "save.normal.a": [4]})
    assert next(s.data["need"] for s in r.steps if "need" in s.data) == 4
    assert r.outcome_data["casualties"] == ["A"]  # armour 6+ only


# fortified units ignore crossfire's -1 to their saves (but still give its extra marker: E-13)
RIFLE = {"name": "Rifle", "ap": 4}


def _save_texts(result: Any) -> list[str]:
    return [render(s.text) for s in result.steps if s.kind == "roll"
            and s.data.get("question", "").startswith("save.")]


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


@pytest.mark.clause("E-11")
def test_E11_fortified_armour_save_ignores_crossfire_too() -> None:
    # a tank in an emplacement: units in fortifications (any type) may ignore the -1
    d = decl([{"name": "Lascannon", "at": 4}], [tunit("T", "AV", armour=4,
                                                     terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.lascannon": [6], "save.normal.t": [4]})
    assert r.outcome_data["casualties"] == []


# --- E-12: macro-weapons (worked example 8) ---------------------------------------------------

@pytest.mark.clause("E-12")
def test_E12_worked_example_8_mw_hit_after_normal_hits_to_the_nearest_survivor() -> None:
    d = decl([{**BOLTER, "shots": 2}, MACRO], [tunit("A", distance=10), tunit("C", distance=20)])
    r = shoot(d, {"to-hit.heavy-bolter": [6, 6], "to-hit.volcano-gun": [6],
                  "save.normal.a": [1], "save.normal.c": [6]})
    assert r.outcome_data["allocation"] == [("ap", "a"), ("ap", "c"), ("mw", "c")]
    assert r.outcome_data["casualties"] == ["A", "C"]  # C: no save against the MW hit


@pytest.mark.clause("E-12")
def test_E12_mw_hits_only_to_units_the_macro_weapons_can_reach() -> None:
    d = decl([MACRO], [tunit("A", distance=10, in_mw_range=False), tunit("C", distance=20)])
    r = shoot(d, {"to-hit.volcano-gun": [6]})
    assert units_hit(r) == ["c"]


@pytest.mark.clause("E-12")
def test_E12_reinforced_armour_keeps_its_save_against_mw_without_reroll() -> None:
    d = decl([MACRO], [tunit("T", "AV", armour=4, reinforced=True)])
    ids = asked(d, {"to-hit.volcano-gun": [6], "save.mw.t": [2]})
    assert "save.mw.t" in ids and "save.mw.t.reroll" not in ids


# the macro-weapon even spread: restart (worked example 8) or continue
def _mw_decl() -> dict[str, Any]:
    return decl([{"name": "Rifle", "ap": 2, "shots": 2}, {"name": "Cannon", "ap": 2,
                                                          "macro": True}],
                [tunit("A", distance=10), tunit("C", distance=20), tunit("D", distance=30)])


MW_ANSWERS = {"to-hit.rifle": [6, 6], "to-hit.cannon": [6], "save.normal.a": [6],
              "save.normal.c": [6]}


@pytest.mark.clause("E-12")
def test_E12_mw_spread_restarts_by_default() -> None:
    r = shoot(_mw_decl(), MW_ANSWERS)
    assert units_hit(r) == ["a", "c", "a"]
    assert "mw-spread" not in r.non_default_options


@pytest.mark.clause("E-12")
def test_E12_mw_spread_continue_counts_on() -> None:
    r = shoot(_mw_decl(), MW_ANSWERS, ("mw-spread=continue",))
    assert units_hit(r) == ["a", "c", "d"]
    assert "mw-spread" in r.non_default_options
    assert any(s.text.id == "epic.step.mw_spread_continue" for s in r.steps)


# --- E-13: Blast markers after casualties ----------------------------------------------------

@pytest.mark.clause("E-13")
def test_E13_a_marker_per_casualty_crossfire_first_kill_two() -> None:
    targets = [tunit("A", distance=10), tunit("B", distance=20), tunit("C", distance=30)]
    d = decl([{**BOLTER, "shots": 2}], targets)
    answers = {"to-hit.heavy-bolter": [6, 6], "save.normal.a": [1], "save.normal.b": [1]}
    assert shoot(d, answers).outcome_data["markers_added"] == 3
    d = decl([{**BOLTER, "shots": 2}], targets, crossfire=1)
    assert shoot(d, answers).outcome_data["markers_added"] == 4


@pytest.mark.clause("E-13")
def test_E13_disrupt_a_marker_per_hit_and_none_for_its_kills() -> None:
    gun = {"name": "Stun gun", "shots": 2, "ap": 4, "disrupt": True}
    d = decl([gun], [tunit("A", distance=10), tunit("B", distance=20)])
    r = shoot(d, {"to-hit.stun-gun": [6, 6], "save.normal.a": [1], "save.normal.b": [6]})
    assert r.outcome_data["markers_added"] == 1 + 2  # under fire, two hits; the kill adds none


@pytest.mark.clause("E-13")
def test_E13_broken_formation_markers_become_hits_without_saves() -> None:
    targets = [tunit("A", distance=10), tunit("B", distance=20), tunit("C", distance=30)]
    d = decl([BOLTER], targets, target_broken=True, target_blast_markers=3)
    r = shoot(d, {"to-hit.heavy-bolter": [6], "save.normal.a": [1]})
    # under fire and A's death would be 2 markers: they become 2 hits, on B and C
    assert r.outcome_data["extra_hits"] == 2
    assert r.outcome_data["casualties"] == ["A", "B", "C"]
    assert r.outcome_data["blast_markers"] == 3


@pytest.mark.clause("E-13")
def test_E13_each_crossfiring_formation_adds_a_marker_on_the_first_kill() -> None:
    d = decl([{"name": "Rifle", "ap": 5}], [tunit("A", armour=4)], crossfire=3)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [1]})
    assert r.outcome_data["markers_added"] == 1 + 1 + 3


@pytest.mark.clause("E-13")
def test_E13_fortified_unit_destroyed_under_crossfire_still_gives_the_extra_marker() -> None:
    d = decl([RIFLE], [tunit("A", armour=6, terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [2]})
    assert r.outcome_data["casualties"] == ["A"]
    assert r.outcome_data["markers_added"] == 1 + 1 + 1  # under fire, the kill, crossfire


# disrupt hits that no unit can take place no marker (option disrupt-unplaced-hits)
AP_DISRUPT = {"name": "Bolter", "ap": 4, "shots": 3, "disrupt": True}
TWO_TANKS = [tunit("T1", "AV", armour=4), tunit("T2", "AV", armour=4, distance=12)]


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_that_no_unit_can_take_place_no_marker() -> None:
    d = decl([AP_DISRUPT], TWO_TANKS)
    r = shoot(d, {"to-hit.bolter": [6, 6, 6]})
    assert r.outcome_data["markers_added"] == 1  # the under-fire marker only
    assert r.outcome_data["broken"] is False  # 1 marker, 2 tanks
    note = next(s for s in r.steps if s.text.id == "epic.step.disrupt_unplaced")
    assert note.clause == "E-13" and "3" in render(note.text)
    assert r.non_default_options == ()


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_with_no_unit_place_markers_under_the_other_reading() -> None:
    d = decl([AP_DISRUPT], TWO_TANKS)
    r = shoot(d, {"to-hit.bolter": [6, 6, 6]}, ("disrupt-unplaced-hits=marker",))
    assert r.outcome_data["markers_added"] == 1 + 3
    assert r.outcome_data["broken"] is True  # 4 markers, 2 tanks
    assert r.non_default_options == ("disrupt-unplaced-hits",)
    note = next(s for s in r.steps if s.text.id == "epic.step.disrupt_unplaced_marked")
    assert note.clause == "E-13"


@pytest.mark.clause("E-13")
def test_E13_disrupt_hits_that_are_allocated_still_place_a_marker_each() -> None:
    d = decl([AP_DISRUPT], [tunit("A", armour=4), *TWO_TANKS])
    r = shoot(d, {"to-hit.bolter": [6, 6, 6], "save.normal.a": [5, 5, 5]})
    # all three AP hits go to the one infantry unit: three markers, no save failed
    assert r.outcome_data["markers_added"] == 1 + 3


@pytest.mark.clause("E-13")
def test_E13_a_macro_disrupt_hit_whose_only_target_fell_first_places_no_marker() -> None:
    from tests.rulesets.epic.test_epic_odds import check_tree

    # B, the only unit the macro-weapon reaches, is nearest: the rifle's hit goes to it first
    d = decl([{"name": "Rifle", "ap": 3}, {"name": "Stun cannon", "ap": 3, "macro": True,
                                           "disrupt": True}],
             [tunit("B", armour=5, distance=5), tunit("A", armour=5, in_mw_range=False)])
    r = shoot(d, {"to-hit.rifle": [6], "to-hit.stun-cannon": [6], "save.normal.b": [1]})
    assert r.outcome_data["casualties"] == ["B"]
    assert r.outcome_data["markers_added"] == 1 + 1  # under fire, B: the macro hit is lost
    assert check_tree(d, {}) >= 3


# --- E-14: the break check --------------------------------------------------------------------

@pytest.mark.clause("E-14")
def test_E14_never_broken_part_way_through_the_attack() -> None:
    targets = [tunit("A", distance=10), tunit("B", distance=20), tunit("C", distance=30)]
    d = decl([{**BOLTER, "shots": 2}], targets, target_blast_markers=1)
    r = shoot(d, {"to-hit.heavy-bolter": [6, 6], "save.normal.a": [1], "save.normal.b": [1]})
    # after A died: 3 markers against 2 units; a part-way break would have turned B's
    # marker into a hit. Checked at the end: 4 markers, 1 unit, broken, no extra hits.
    assert r.outcome_data["extra_hits"] == 0
    assert r.outcome_data["blast_markers"] == 4
    assert r.outcome_data["broken"] is True


@pytest.mark.clause("E-14")
def test_E14_not_broken_while_markers_are_fewer_than_units() -> None:
    targets = [tunit(f"U{i}", distance=10 * i) for i in range(1, 4)]
    r = shoot(decl([BOLTER], targets, target_blast_markers=1), {"to-hit.heavy-bolter": [2]})
    assert r.outcome_data["blast_markers"] == 2 and r.outcome_data["broken"] is False


# --- situation asked at the table -----------------------------------------------------------

def test_situation_left_out_is_asked_a_line_a_formation() -> None:
    d = decl([BOLTER], [{"name": "A", "type": "INF", "armour": 5}],
             [{"name": "F1", "weapons": ["Heavy bolter"]}])
    ids = asked(d, {"situation.grey-company-invented": "all",
                    "situation.red-hill-battery-invented": "woods 20",
                    "to-hit.heavy-bolter": [2]})
    assert ids[:3] == ["action", "situation.grey-company-invented",
                       "situation.red-hill-battery-invented"]


def test_same_unit_names_on_both_sides_are_asked_apart() -> None:
    d = decl([BOLTER], [{"name": "Tank 1", "type": "INF", "armour": 5}],
             [{"name": "Tank 1", "weapons": ["Heavy bolter"]}])
    ids = asked(d, {"situation.grey-company-invented": "all",
                    "situation.red-hill-battery-invented": "20",
                    "to-hit.heavy-bolter": [2]})
    assert {"situation.grey-company-invented", "situation.red-hill-battery-invented"} <= set(ids)
