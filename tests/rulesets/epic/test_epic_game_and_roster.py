"""Epic game state across attacks (--game), roster files, and refused bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import ScriptError
from referee.frontends.answers import AnswerPort
from tests.support.epic import decl, tunit

TARGETS = [tunit("A", distance=10), tunit("B", distance=20), tunit("C", distance=30),
           tunit("D", distance=40)]
GUN = {"name": "Gun", "ap": 4}


def in_game(game: Path, declaration: dict[str, Any], answers: dict[str, Any]) -> Any:
    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    return api.play(plan, AnswerPort({"action": "advance", **answers}, plan.dice,
                                     roll_missing_dice=True), game=game)


@pytest.mark.clause("E-14")
def test_E14_game_file_carries_markers_casualties_and_broken_state(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    d = decl([GUN], TARGETS)
    r1 = in_game(game, d, {"to-hit.gun": [6], "save.normal.a": [1]})
    assert r1.outcome_data["blast_markers"] == 2 and r1.outcome_data["broken"] is False
    # second attack: A is gone, 2 markers carried; the next hit goes to B
    r2 = in_game(game, d, {"to-hit.gun": [6], "save.normal.b": [6]})
    assert r2.outcome_data["allocation"] == [("ap", "b")]
    assert r2.outcome_data["blast_markers"] == 3 and r2.outcome_data["broken"] is True
    # third attack: broken, so its markers become hits with no save
    r3 = in_game(game, d, {"to-hit.gun": [2]})
    assert r3.outcome_data["extra_hits"] == 1
    assert r3.outcome_data["casualties"] == ["B"]


def test_roster_names_formations_and_situation_is_given_by_unit(tmp_path: Path) -> None:
    roster = tmp_path / "army.toml"
    roster.write_text('''
[[formation]]
name = "Grey Company (invented)"
[[formation.weapons]]
name = "Rifle"
ap = 5
[[formation.units]]
name = "Trooper 1"
type = "INF"
armour = 6
weapons = ["Rifle"]

[[formation]]
name = "Red Hill Battery (invented)"
[[formation.units]]
name = "Gun crew"
type = "INF"
armour = 6
''', encoding="utf-8")
    d = {"roster": str(roster), "firing": "Grey Company (invented)",
         "target": "Red Hill Battery (invented)", "firing_blast_markers": 0,
         "target_blast_markers": 0, "target_broken": False, "crossfire": 0,
         "situation": {"Trooper 1": {"distance": 20, "in_range": True},
                       "Gun crew": {"distance": 20, "in_range": True, "terrain": "open"}}}
    r = api.attack("epic", {"action": "advance", "to-hit.rifle": [5],
                            "save.normal.gun-crew": [1]}, declaration=d)
    assert r.outcome_data["casualties"] == ["Gun crew"]
    assert r.outcome_data["blast_markers"] == 2
    with pytest.raises(ScriptError) as err:
        api.attack("epic", {"action": "advance"}, declaration={**d, "target": "Nobody"})
    assert "no formation named 'Nobody'" in render(err.value.msg)


def test_bad_declarations_are_refused_with_the_field(tmp_path: Path) -> None:
    script = tmp_path / "bad.toml"
    script.write_text('''ruleset = "epic"
[declaration]
firing = "F"
target = "T"
[[declaration.weapons]]
name = "Gun"
ap = 4
[[declaration.target_units]]
name = "A"
type = "TANK"
''', encoding="utf-8")
    with pytest.raises(ScriptError) as err:
        api.plan_script(script)
    assert "target_units[0].type" in render(err.value.msg)


def test_an_illegal_allocation_names_the_script_line(tmp_path: Path) -> None:
    script = tmp_path / "alloc.toml"
    script.write_text('''ruleset = "epic"
[declaration]
firing = "F"
target = "T"
firing_blast_markers = 0
target_blast_markers = 0
target_broken = false
crossfire = 0
[[declaration.weapons]]
name = "Gun"
ap = 4
[[declaration.target_units]]
name = "A"
type = "INF"
distance = 10
in_range = true
terrain = "open"
[[declaration.target_units]]
name = "B"
type = "INF"
distance = 10
in_range = true
terrain = "open"
[[declaration.target_units]]
name = "C"
type = "AV"
distance = 5
in_range = true
terrain = "open"
[answers]
action = "advance"
"to-hit.gun" = [6]
"allocate.normal.1" = "C"
''', encoding="utf-8")
    plan, port = api.plan_script(script)
    with pytest.raises(ScriptError) as err:
        api.play(plan, port)
    text = render(err.value.msg)
    assert "line 33" in text and "cannot take AP hits (E-10)" in text


@pytest.mark.clause("E-4")
def test_E4_blast_markers_left_out_are_asked_unless_the_game_file_knows(tmp_path: Path) -> None:
    from tests.support.epic import asked, funit

    d = decl([GUN], TARGETS, [funit("F1", ["Gun"])])
    del d["firing_blast_markers"], d["target_blast_markers"]
    ids = asked(d, {"markers.grey-company-invented": 0, "markers.red-hill-battery-invented": 2,
                    "to-hit.gun": [2]})
    assert ids[:2] == ["markers.grey-company-invented", "markers.red-hill-battery-invented"]
    game = tmp_path / "game.db"
    in_game(game, decl([GUN], TARGETS), {"to-hit.gun": [2]})
    plan = api.plan_attack("epic", seed=1, declaration={k: v for k, v in d.items()
                                                         if k != "firing_units"})
    r = api.play(plan, AnswerPort({"action": "advance", "to-hit.gun": [2]}, plan.dice,
                                  roll_missing_dice=True), game=game)
    assert r.outcome_data["blast_markers"] == 2  # 1 from the game file, 1 for coming under fire


# --- roster files: two units or weapons with one name, a weapon the formation does not declare

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
    return {"roster": roster, "firing": "Grey Company (invented)",
            "target": "Red Hill Battery (invented)", "firing_blast_markers": 0,
            "target_blast_markers": 0}


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
