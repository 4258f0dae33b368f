"""Epic Armageddon war engines (issue 29; brief docs/rules/epic-armageddon-turn.md, E-W1 to
E-W11): damage capacity, allocation, armour, critical hits, void shields, Titan killers,
barrages and assaults; one test a clause, dice given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.core.questions import Question
from referee.core.result import Result
from tests.rulesets.epic.test_epic_assault import ATT, DEF, Asked, assault, fight, result_rows, unit
from tests.support.epic import decl, tunit

TITAN = {"name": "Titan", "type": "WE", "armour": 4, "distance": 10, "in_range": True,
         "terrain": "open", "dc": 3}
LASCANNON = {"name": "Lascannon", "at": 4, "shots": 3}


def shoot(declaration: dict[str, Any], answers: dict[str, Any], options: tuple[str, ...] = (),
          game: Path | None = None) -> tuple[Result, list[Question]]:
    plan = api.plan_attack("epic", seed=1, declaration=declaration, options=options,
                           game=game)
    port = Asked({"action": "advance", **answers}, plan.dice)
    return api.play(plan, port, game=game), port.questions


def steps(result: Result) -> list[str]:
    return [s.text.id for s in result.steps]


@pytest.mark.clause("E-W1")
@pytest.mark.clause("E-W5")
def test_E_W1_each_unsaved_hit_is_a_point_of_damage_and_a_blast_marker() -> None:
    r, _ = shoot(decl([LASCANNON], [dict(TITAN)]),
                 {"to-hit.lascannon": [6, 6, 1], "save.normal.titan": [1, 2],
                  "critical.normal.titan": [1, 1]})
    data = r.outcome_data
    assert data["casualties"] == [] and data["markers_added"] == 1 + 2  # under fire, 2 points
    assert r.state_updates["formations"]["Red Hill Battery (invented)"]["damage"] == {
        "titan": 2}


@pytest.mark.clause("E-W1")
def test_E_W1_the_damage_kept_in_the_game_file_counts_next_time(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    d = decl([LASCANNON], [dict(TITAN)])
    shoot(d, {"to-hit.lascannon": [6, 6, 1], "save.normal.titan": [1, 2],
              "critical.normal.titan": [1, 1]}, game=game)
    r, _ = shoot(d, {"to-hit.lascannon": [6, 1, 1], "save.normal.titan": [1],
                     "critical.normal.titan": [1]}, game=game)
    assert r.outcome_data["casualties"] == ["Titan"]  # 2 + 1 reaches its DC of 3


@pytest.mark.clause("E-W2")
def test_E_W2_a_war_engine_takes_its_dc_in_hits_before_the_spread_moves_on() -> None:
    """Two war engines, DC2 nearer and DC3: the nearer takes two hits (its share) before
    the other takes any; the spread then moves on."""
    d = decl([{"name": "Lascannon", "at": 4, "shots": 4}],
             [dict(TITAN, name="Big", dc=3, distance=10),
              dict(TITAN, name="Small", dc=2, distance=5)])
    r, _ = shoot(d, {"to-hit.lascannon": [6, 6, 6, 6], "save.normal.big": [6, 6],
                     "save.normal.small": [6, 6]})
    assert r.outcome_data["allocation"] == [("at", "small")] * 2 + [("at", "big")] * 2


@pytest.mark.clause("E-W2")
def test_E_W2_the_attacker_says_what_it_aims_at_in_a_mixed_formation() -> None:
    d = decl([{"name": "Lascannon", "at": 4, "shots": 4}],
             [tunit("Tank", "AV", distance=5, armour=4), dict(TITAN)])
    r, asked = shoot(d, {"aim": "others", "to-hit.lascannon": [6, 6, 1, 1],
                         "save.normal.tank": [6, 6]})
    question = next(q for q in asked if q.id == "aim")
    assert getattr(question, "whatif", False)
    assert r.outcome_data["allocation"] == [("at", "tank")] * 2


@pytest.mark.clause("E-W3")
def test_E_W3_ap_fire_cannot_hurt_a_war_engine_and_reinforced_armour_re_rolls() -> None:
    r, _ = shoot(decl([{"name": "Bolter", "ap": 4, "shots": 3}], [dict(TITAN)]),
                 {"to-hit.bolter": [6, 6, 6]})
    assert "epic.step.wasted" in steps(r)
    ra = dict(TITAN, reinforced=True)
    r, _ = shoot(decl([{"name": "Lascannon", "at": 4, "shots": 1}], [ra]),
                 {"to-hit.lascannon": [6], "save.normal.titan": [1],
                  "save.normal.titan.reroll": [5]})
    assert r.outcome_data["markers_added"] == 1  # re-rolled and saved: under fire only


@pytest.mark.clause("E-W4")
def test_E_W4_a_six_is_a_critical_whose_effect_is_asked_and_adds_up() -> None:
    r, asked = shoot(decl([LASCANNON], [dict(TITAN, dc=6)]),
                     {"to-hit.lascannon": [6, 1, 1], "save.normal.titan": [1],
                      "critical.normal.titan": [6],
                      "critical.normal.titan.effect.1.1.destroys": False,
                      "critical.normal.titan.effect.1.1.damage": 1,
                      "critical.normal.titan.2": [1]})
    assert "critical.normal.titan.effect.1.1.damage" in [q.id for q in asked]
    # one point, one more for the critical (which rolls for its own critical too)
    assert r.state_updates["formations"]["Red Hill Battery (invented)"]["damage"] == {
        "titan": 2}


@pytest.mark.clause("E-W4")
@pytest.mark.clause("E-W5")
def test_E_W5_destroyed_by_a_critical_gives_markers_for_the_dc_it_had_left(
        tmp_path: Path) -> None:
    table = tmp_path / "criticals.toml"
    table.write_text('[[critical]]\nname = "Titan"\ndestroys = true\n', encoding="utf-8")
    r, asked = shoot(decl([LASCANNON], [dict(TITAN, dc=5)]),
                     {"to-hit.lascannon": [6, 1, 1], "save.normal.titan": [1],
                      "critical.normal.titan": [6]},
                     (f"critical-hits-file={table}",))
    assert r.outcome_data["casualties"] == ["Titan"]
    assert r.outcome_data["markers_added"] == 1 + 5  # under fire, then its whole DC
    assert not [q for q in asked if ".effect." in q.id]  # read from the file


@pytest.mark.clause("E-W6")
def test_E_W6_the_break_point_counts_a_war_engine_as_its_dc() -> None:
    d = decl([LASCANNON], [dict(TITAN, dc=4), tunit("Crew", distance=15)],
             target_blast_markers=3, aim="war-engines")
    r, _ = shoot(d, {"to-hit.lascannon": [1, 1, 1]})
    assert r.outcome_data["blast_markers"] == 4 and not r.outcome_data["broken"]  # 4 < 4 + 1


@pytest.mark.clause("E-W7")
def test_E_W7_under_a_templates_centre_a_war_engine_is_attacked_half_its_dc() -> None:
    d = decl([{"name": "Howitzer", "barrage": 3}],
             [dict(TITAN, dc=5, under_template=True, under_centre=True)])
    _r, asked = shoot(d, {"barrage.red-hill-battery-invented.at": [1, 1, 1]})
    dice = next(q for q in asked if q.id == "barrage.red-hill-battery-invented.at")
    assert dice.spec.count == 3  # 5 / 2, rounded up


@pytest.mark.clause("E-W8")
def test_E_W8_a_titan_killer_rolls_its_damage_at_allocation_and_ignores_armour() -> None:
    d = decl([{"name": "Volcano", "at": 2, "shots": 1, "titan_killer": "d3"}],
             [dict(TITAN, dc=6, reinforced=True)])
    r, asked = shoot(d, {"to-hit.volcano": [6], "titan-killer.mw.1": [5],
                         "critical.mw.titan": [1, 1, 1]})
    assert not [q for q in asked if q.id.startswith("save.")]  # no save, even reinforced
    assert r.state_updates["formations"]["Red Hill Battery (invented)"]["damage"] == {
        "titan": 3}


@pytest.mark.clause("E-W9")
@pytest.mark.clause("E-X13")
def test_E_W9_void_shields_stop_hits_first_with_no_save_and_no_marker() -> None:
    d = decl([LASCANNON], [dict(TITAN, void_shields=2)])
    r, _asked = shoot(d, {"to-hit.lascannon": [6, 6, 6], "save.normal.titan": [1],
                         "critical.normal.titan": [1]})
    assert r.outcome_data["markers_added"] == 1 + 1  # under fire, the one hit past them
    assert "epic.we.step.shields" in steps(r)
    state = r.state_updates["formations"]["Red Hill Battery (invented)"]
    assert state["shields_down"] == {"titan": 2}
    # the NetEA reading: a Titan killer hit of 3 points takes down a shield a point
    tk = decl([{"name": "Volcano", "at": 2, "shots": 1, "titan_killer": "d3"}],
              [dict(TITAN, dc=6, void_shields=2)])
    answers = {"to-hit.volcano": [6], "titan-killer.mw.1": [5], "critical.mw.titan": [1]}
    r, _ = shoot(tk, answers, ("void-shield-stops=one-point",))
    assert r.state_updates["formations"]["Red Hill Battery (invented)"]["damage"] == {
        "titan": 1}
    r, _ = shoot(tk, answers)  # GW: the shield stops the whole hit
    assert "damage" not in r.state_updates["formations"]["Red Hill Battery (invented)"]


@pytest.mark.clause("E-W10")
def test_E_W10_a_broken_war_engine_takes_its_markers_as_damage() -> None:
    d = decl([{"name": "Bolter", "ap": 4, "shots": 1}], [dict(TITAN)],
             target_blast_markers=3)
    r, _ = shoot(d, {"to-hit.bolter": [1], "critical.broken.titan": [1]})
    assert r.outcome_data["extra_hits"] == 1
    assert r.state_updates["formations"]["Red Hill Battery (invented)"]["damage"] == {
        "titan": 1}


# -- in an assault -------------------------------------------------------------------------

WALKER = {"name": "Walker", "type": "WE", "armour": 4, "cc": 3, "ff": 4, "dc": 4,
          "contact": True, "engaged": True}


@pytest.mark.clause("E-W11")
def test_E_W11_a_war_engine_rolls_its_dc_in_dice_split_as_its_owner_says() -> None:
    d = assault([dict(WALKER)], [unit("D1"), unit("D2", 10)])
    _r, asked = fight(d, {"assault.1.split.walker": "3", "assault.1.attacker": [1, 1, 1, 1],
                         "assault.1.defender": [1, 1]})
    split = next(q for q in asked if q.id == "assault.1.split.walker")
    assert getattr(split, "whatif", False)
    dice = next(q for q in asked if q.id == "assault.1.attacker")
    from referee.catalog import render

    assert dice.spec.count == 4
    assert "1×FF4+" in render(dice.text) and "3×CC3+" in render(dice.text)


@pytest.mark.clause("E-W11")
@pytest.mark.clause("E-W9")
def test_E_W11_damage_on_a_war_engine_counts_as_kills_close_combat_ignores_shields() -> None:
    walker = dict(WALKER, void_shields=2)
    d = assault([unit("A1"), unit("A2"), unit("A3", 10)], [walker])
    r, _ = fight(d, {"assault.1.attacker": [6, 6, 6], "assault.1.split.walker": "4",
                     "assault.1.defender": [1, 1, 1, 1],
                     "save.assault.1.defender.normal.walker": [1, 1],
                     "critical.assault.1.critical.walker": [1, 1],
                     "assault.1.result.attacker": [1, 1], "assault.1.result.defender": [1, 1]})
    # the firefight hit (A3) is stopped by a shield; the two close combat hits are not
    rows = result_rows(r)
    assert rows["kills"][0] == 2  # two points of damage: two kills
    assert rows["more"] == (0, 1)  # the walker alive counts as its DC of 4 against 3


@pytest.mark.clause("E-W11")
@pytest.mark.clause("E-W10")
def test_E_W11_a_losing_war_engine_takes_a_point_for_each_point_it_lost_by() -> None:
    d = assault([unit(f"A{i}") for i in range(1, 6)], [dict(WALKER)])
    r, _ = fight(d, {"assault.1.attacker": [1] * 5, "assault.1.split.walker": "4",
                     "assault.1.defender": [1, 1, 1, 1],
                     "assault.1.result.attacker": [6, 6], "assault.1.result.defender": [1, 1],
                     "critical.assault.1.critical.walker": [1, 1, 1, 1]})
    margin = r.outcome_data["margin"]
    assert margin >= 4
    assert r.outcome_data["formations"][DEF]["destroyed"] == ["Walker"]


# -- E-W12: catastrophic damage, by datasheet --------------------------------------------------

DESTROYED = {"to-hit.lascannon": [6, 6, 6], "save.normal.titan": [1, 1, 1],
             "critical.normal.titan": [1, 1, 1]}  # three points on a DC 3 titan
CATASTROPHE = "critical.normal.titan.catastrophic"


@pytest.mark.clause("E-W12")
def test_E_W12_a_destroyed_war_engines_catastrophic_damage_is_asked_and_rolled() -> None:
    r, asked = shoot(decl([LASCANNON], [dict(TITAN)]),
                     {**DESTROYED, f"{CATASTROPHE}.within": 5, f"{CATASTROPHE}.hits-on": 5,
                      f"{CATASTROPHE}.units": 3, CATASTROPHE: [5, 6, 1]})
    dice = next(q for q in asked if q.id == CATASTROPHE)
    assert dice.spec.count == 3 and dice.spec.target == 5
    step = next(s for s in r.steps if s.clause == "E-W12")
    assert step.data["hits"] == 2
    # not destroyed: nothing asked
    _r, asked = shoot(decl([LASCANNON], [dict(TITAN, dc=4)]), DESTROYED)
    assert not [q for q in asked if "catastrophic" in q.id]


@pytest.mark.clause("E-W12")
def test_E_W12_the_datasheet_file_gives_it_or_says_there_is_none(tmp_path: Path) -> None:
    table = tmp_path / "datasheets.toml"
    table.write_text('[[catastrophic]]\nname = "Titan"\nwithin = 5\nhits_on = 4\n',
                     encoding="utf-8")
    r, asked = shoot(decl([LASCANNON], [dict(TITAN)]),
                     {**DESTROYED, f"{CATASTROPHE}.units": 2, CATASTROPHE: [4, 3]},
                     (f"critical-hits-file={table}",))
    assert [q.id for q in asked if "catastrophic" in q.id] == [f"{CATASTROPHE}.units",
                                                               CATASTROPHE]
    assert next(s for s in r.steps if s.clause == "E-W12").data["hits"] == 1
    table.write_text('[[critical]]\nname = "Titan"\nextra_damage = 1\n', encoding="utf-8")
    _r, asked = shoot(decl([LASCANNON], [dict(TITAN)]), DESTROYED,
                      (f"critical-hits-file={table}",))
    assert not [q for q in asked if "catastrophic" in q.id]  # its datasheet has none


@pytest.mark.clause("E-W12")
@pytest.mark.clause("E-W11")
def test_E_W12_a_war_engine_destroyed_in_an_assault_reads_its_datasheet(
        tmp_path: Path) -> None:
    table = tmp_path / "datasheets.toml"
    table.write_text('[[catastrophic]]\nname = "Walker"\nwithin = 5\nhits_on = 6\n',
                     encoding="utf-8")
    d = assault([unit(f"A{i}") for i in range(1, 6)], [dict(WALKER)])
    qid = "assault.1.critical.walker.catastrophic"
    r, asked = fight(d, {"assault.1.attacker": [1] * 5, "assault.1.split.walker": "4",
                         "assault.1.defender": [1, 1, 1, 1],
                         "assault.1.result.attacker": [6, 6],
                         "assault.1.result.defender": [1, 1],
                         "assault.1.critical.walker": [1, 1, 1, 1],
                         f"{qid}.units": 4, qid: [6, 6, 2, 1]},
                     options=(f"critical-hits-file={table}",))
    assert r.outcome_data["formations"][DEF]["destroyed"] == ["Walker"]
    assert next(s for s in r.steps if s.clause == "E-W12").data["hits"] == 2
    assert f"{qid}.within" not in [q.id for q in asked]


@pytest.mark.parametrize(("text", "where"), [
    ('[[catastrophic]]\nname = "Titan"\nwithin = "far"\n', "line 3"),
    ('[[catastrophic]]\nwithin = 5\n', "catastrophic[0]"),
    ('[[critical]]\nname = "Titan"\ndestroys = "yes"\n', "line 3"),
])
def test_a_broken_datasheet_file_names_the_file_and_the_line(tmp_path: Path, text: str,
                                                             where: str) -> None:
    from referee.core.errors import ScriptError

    table = tmp_path / "datasheets.toml"
    table.write_text(text, encoding="utf-8")
    with pytest.raises(ScriptError) as err:
        shoot(decl([LASCANNON], [dict(TITAN)]),
              {**DESTROYED, "critical.normal.titan": [6, 1, 1]}, (f"critical-hits-file={table}",))
    from referee.catalog import render

    assert err.value.file == str(table) and where in render(err.value.where)


# -- property --------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(0, 5), st.integers(0, 4), st.integers(0, 12),
       st.integers(0, 10_000))
def test_property_a_war_engines_damage_never_exceeds_its_capacity(
        dc: int, damage_before: int, shields: int, shots: int, seed: int) -> None:
    damage_before = min(damage_before, dc - 1)
    d = decl([{"name": "Lascannon", "at": 3, "shots": max(shots, 1)},
              {"name": "Volcano", "at": 2, "shots": 1, "titan_killer": "d6"}],
             [dict(TITAN, dc=dc, damage=damage_before, void_shields=shields)])
    plan = api.plan_attack("epic", seed=seed, declaration=d)
    r = api.play(plan, Asked({"action": "advance"}, plan.dice))
    state = r.state_updates["formations"]["Red Hill Battery (invented)"]
    taken = state.get("damage", {}).get("titan", damage_before)
    assert damage_before <= taken <= dc
    assert ("Titan" in r.outcome_data["casualties"]) == (taken >= dc)
    assert ATT and DEF
