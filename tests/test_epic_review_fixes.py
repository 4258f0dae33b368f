"""Epic review findings: roster duplicates and undeclared weapons, barrage abilities (E-17),
several crossfiring formations, overwatch state in the game file (E-20), the at-the-table
questions, repeated lookup flags, formations with no units left, the E-X7 house rule and the
macro-weapon even-spread option (E-12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import ScriptError, UsageError
from referee.frontends.answers import AnswerPort
from tests.epic_helpers import asked, decl, shoot, tunit, units_hit

FIRING = "Grey Company (invented)"
TARGET = "Red Hill Battery (invented)"


def _roster(tmp_path: Path, text: str) -> str:
    path = tmp_path / "army.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


ARMY = '''
[[formation]]
name = "Grey Company (invented)"
[[formation.weapons]]
name = "Rifle"
ap = 5
[[formation.units]]
name = "Trooper 1"
type = "INF"
weapons = ["Rifle"]
[[formation]]
name = "Red Hill Battery (invented)"
[[formation.units]]
name = "Tank"
type = "AV"
armour = 4
'''


def _roster_decl(roster: str) -> dict[str, Any]:
    return {"roster": roster, "firing": FIRING, "target": TARGET, "firing_blast_markers": 0,
            "target_blast_markers": 0}


# 1. two roster units with one name
def test_roster_units_with_one_name_are_refused_with_line_and_field(tmp_path: Path) -> None:
    roster = _roster(tmp_path, ARMY + '''[[formation.units]]
name = "Tank"
type = "AV"
armour = 4
''')
    with pytest.raises(ScriptError) as err:
        api.attack("epic", {"action": "advance"}, declaration=_roster_decl(roster))
    text = render(err.value.msg)
    assert "two units are named 'Tank'" in text
    assert "line 18" in text and "formation[1].units[1].name" in text


def test_merged_declaration_is_validated_again() -> None:
    from referee.rulesets.epic.declaration import ShootingDeclaration, TargetUnit
    from referee.rulesets.epic.roster import revalidate

    d = ShootingDeclaration.model_validate({"firing": "F", "target": "T", "roster": "r.toml",
                                            "weapons": [{"name": "Gun", "ap": 4}]})
    twin = TargetUnit(name="Tank", type="AV", armour=4)
    with pytest.raises(ScriptError) as err:
        revalidate(d, {"target_units": [twin, twin]})
    assert "two units are named 'Tank'" in render(err.value.msg)


# 2. a roster unit carrying a weapon its formation does not declare
@pytest.mark.parametrize("weapons", ["", '''[[formation.weapons]]
name = "Bolter"
ap = 5
'''])
def test_roster_unit_with_an_undeclared_weapon_is_refused(tmp_path: Path,
                                                          weapons: str) -> None:
    roster = _roster(tmp_path, f'''[[formation]]
name = "A"
{weapons}[[formation.units]]
name = "T1"
type = "INF"
weapons = ["Lasgun"]
[[formation]]
name = "B"
[[formation.units]]
name = "X"
type = "INF"
''')
    from referee.rulesets.epic.declaration import ShootingDeclaration
    from referee.rulesets.epic.roster import with_roster

    d = ShootingDeclaration.model_validate({"firing": "A", "target": "B", "roster": roster})
    with pytest.raises(ScriptError) as err:
        with_roster(d)  # epic-shoot calls this before any question
    assert err.value.expected.id == "epic.decl.unknown_weapon"  # type: ignore[union-attr]
    assert "units[0].weapons" in render(err.value.msg)


# 3. barrage abilities apply only when every contributing weapon has them
def _barrage(weapons: list[dict[str, Any]]) -> dict[str, Any]:
    units = [{"name": f"Gun {i}", "weapons": [w["name"]], "distance": 60, "in_range": True}
             for i, w in enumerate(weapons, 1)]
    return decl(weapons, [tunit("Crew", armour=6, terrain="ruins", under_template=True)],
                units)


@pytest.mark.clause("E-17")
def test_E17_all_disrupt_and_ignore_cover_barrage() -> None:
    how = {"name": "Howitzer", "barrage": 3, "disrupt": True, "ignore_cover": True}
    r = shoot(_barrage([how]), {"barrage.red-hill-battery-invented.ap": [6],
                                "save.red-hill-battery-invented.crew": [3]})
    f = r.outcome_data["formations"][TARGET]
    assert f["casualties"] == ["Crew"]
    # under fire 1 + disrupt 1 per hit; no marker for the kill
    assert f["markers_added"] == 2
    need = next(s for s in r.steps if s.data.get("question")
                == "barrage.red-hill-battery-invented.ap")
    assert list(need.data["faces"]) == [6]
    # no cover -1 (the group is rolled as in the open) and no cover save (armour 6+ only)
    assert not any(s.data.get("question") == "barrage.red-hill-battery-invented.ap.cover"
                   for s in r.steps)
    save = next(s for s in r.steps if s.data.get("question")
                == "save.red-hill-battery-invented.crew")
    assert save.data["need"] == 6


@pytest.mark.clause("E-17")
def test_E17_abilities_not_shared_by_every_weapon_do_not_apply() -> None:
    how = {"name": "Howitzer", "barrage": 3, "disrupt": True, "ignore_cover": True}
    mortar = {"name": "Mortar", "barrage": 1}
    r = shoot(_barrage([how, mortar]), {"barrage.red-hill-battery-invented.ap.cover": [6],
                                        "save.red-hill-battery-invented.crew": [3]})
    f = r.outcome_data["formations"][TARGET]
    assert f["casualties"] == ["Crew"]
    assert f["markers_added"] == 2  # under fire 1 + the kill 1, nothing per hit
    save = next(s for s in r.steps if s.data.get("question")
                == "save.red-hill-battery-invented.crew")
    assert save.data["need"] == 4  # the ruins' cover save


# 4. each crossfiring formation adds its marker
@pytest.mark.clause("E-13")
def test_E13_each_crossfiring_formation_adds_a_marker_on_the_first_kill() -> None:
    d = decl([{"name": "Rifle", "ap": 5}], [tunit("A", armour=4)], crossfire=3)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [1]})
    assert r.outcome_data["markers_added"] == 1 + 1 + 3


@pytest.mark.clause("E-13")
def test_E13_barrage_crossfire_counts_every_formation() -> None:
    d = {**_barrage([{"name": "Howitzer", "barrage": 3}]), "crossfire": 2}
    d["target_units"][0].update(terrain="open", armour=4)
    r = shoot(d, {"barrage.red-hill-battery-invented.ap": [6],
                  "save.red-hill-battery-invented.crew": [1]})
    assert r.outcome_data["formations"][TARGET]["markers_added"] == 1 + 1 + 2


# 5. overwatch state read from the game file
def _in_game(game: Path, declaration: dict[str, Any], answers: dict[str, Any]) -> Any:
    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    return api.play(plan, AnswerPort(answers, plan.dice, roll_missing_dice=True), game=game)


@pytest.mark.clause("E-20")
def test_E20_overwatch_ended_in_the_game_file_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    base = decl([{"name": "Gun", "ap": 4}], [tunit("A")])
    ow = {**base, "overwatch": {"trigger": "move", "enemy_action": "advance"}}
    r0 = _in_game(game, {**base, "takes_overwatch": True}, {})
    assert r0.outcome_data == {"shot": False, "overwatch": True}
    assert r0.state_updates["formations"][FIRING]["overwatch"] is True
    r1 = _in_game(game, ow, {"to-hit.gun": [2]})
    assert r1.outcome_data["shot"] is True
    r2 = _in_game(game, ow, {})
    assert r2.outcome_data["shot"] is False
    assert any(s.text.id == "epic.overwatch.not_on" for s in r2.steps)
    # the Overwatch action as the action answer puts it on overwatch again
    r3 = _in_game(game, base, {"action": "overwatch"})
    assert r3.outcome_data["overwatch"] is True
    assert _in_game(game, ow, {"to-hit.gun": [2]}).outcome_data["shot"] is True


# 6. the whole attack at the table asks the special rules and crossfire
def test_at_the_table_asks_special_rules_saves_and_crossfire() -> None:
    answers = {"attack-kind": "whole", "firing-name": FIRING, "target-name": TARGET,
               "markers.grey-company-invented": 0, "firing.1": "ap4 mw", "firing.2": "-",
               "target.1": "inf 4+ inv 10", "target.2": "-", "crossfire": 2,
               "markers.red-hill-battery-invented": 0, "action": "advance",
               "to-hit.weapon-1": [6], "save.mw.unit-1.invulnerable": [1]}
    r = api.attack("epic", answers)
    assert r.outcome_data["hits"] == {"mw": 1}
    assert r.outcome_data["casualties"] == ["unit-1"]
    assert r.outcome_data["markers_added"] == 1 + 1 + 2  # under fire, kill, 2 crossfire
    plan = api.plan_attack("epic", seed=1)
    from referee.frontends.wrappers import ScriptingPort

    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    api.play(plan, port)
    ids = list(port.answers)
    assert ids.index("firing.1") < ids.index("target.1") < ids.index("crossfire")


# 7. repeated lookup flags
@pytest.mark.clause("E-8")
def test_E8_lookup_refuses_a_repeated_flag() -> None:
    with pytest.raises(UsageError) as err:
        api.lookup("epic", "to-hit", "5", ["--cover", "--cover"])
    assert "more than once" in render(err.value.msg)


# 8. no units left
@pytest.mark.clause("E-6")
def test_E6_formation_with_no_units_left_is_not_shot_at(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    d = decl([{"name": "Gun", "ap": 2}], [tunit("A")])
    _in_game(game, d, {"action": "advance", "to-hit.gun": [6], "save.normal.a": [1]})
    r = _in_game(game, d, {"action": "advance"})  # no dice answered: none may be asked
    assert r.outcome_data["shot"] is False
    assert r.state_updates == {}
    assert any(s.text.id == "epic.step.no_units_left" for s in r.steps)


# 9. the E-X7 house rule only where the order is open
@pytest.mark.clause("E-X7")
def test_EX7_at_first_house_rule_needs_all_three_types() -> None:
    d = decl([{"name": "Bolter", "ap": 2}, {"name": "Lascannon", "at": 2}],
             [tunit("LV1", "LV", distance=10), tunit("AV1", "AV", distance=20)])
    answers = {"to-hit.bolter": [6], "to-hit.lascannon": [6], "save.normal.lv1": [6],
               "save.normal.av1": [6]}
    r = shoot(d, answers, ("mixed-allocation=at-to-light-vehicles-first",))
    assert sorted(units_hit(r)) == ["av1", "lv1"]  # no hit wasted: AP to the LV first
    assert "allocate.normal.order" not in asked(d, answers)


# 10. the macro-weapon even spread: restart (worked example 8) or continue
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


def test_roster_weapons_with_one_name_are_refused_with_line_and_field(tmp_path: Path) -> None:
    roster = _roster(tmp_path, ARMY.replace('''[[formation.units]]
name = "Trooper 1"''', '''[[formation.weapons]]
name = "rifle"
ap = 6
[[formation.units]]
name = "Trooper 1"''', 1))
    with pytest.raises(ScriptError) as err:
        api.attack("epic", {"action": "advance"}, declaration=_roster_decl(roster))
    text = render(err.value.msg)
    assert "two weapons are named 'rifle'" in text
    assert "line 8" in text and "formation[0].weapons[1].name" in text
