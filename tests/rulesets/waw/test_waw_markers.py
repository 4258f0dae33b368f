"""World at War smoke (W-6), FASCAM (W-7) and chemical strikes (W-8): the missions, their
option defaults (smoke on smoke, HQs in a chemical strike: W-5 with W-8), the brief's worked
examples 5 and 6, and markers kept over turns in a game file with the `waw-markers` command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee import api
from referee.catalog import render
from referee.cli import app
from referee.context import Environment
from referee.core.errors import ScriptError, UnusedAnswerError
from referee.core.table import Shown
from referee.rulesets.waw import markers as mk
from referee.rulesets.waw.smoke import smoke_fire
from tests.support.tables import texts, values


def invoke(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, color=False)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


def mission(kind: str, hex_label: str, game: Path, units: list[dict[str, Any]] | None = None,
            answers: dict[str, Any] | None = None) -> Any:
    from referee.frontends.answers import AnswerPort

    decl: dict[str, Any] = {"mission": kind, "hex": hex_label}
    if units:
        decl["units"] = units
    plan = api.plan_attack("waw", seed=1, declaration=decl)
    return api.play(plan, AnswerPort(answers or {}, plan.dice), game=game)


def on_map(game: Path) -> list[dict[str, Any]]:
    code, out, _ = invoke(["waw-markers", "--game", str(game), "--json"])
    assert code == 0
    markers: list[dict[str, Any]] = json.loads(out)["markers"]
    return markers


def phase(game: Path) -> dict[str, Any]:
    code, out, _ = invoke(["waw-markers", "--game", str(game), "--phase", "--json"])
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


# --- W-6: smoke ---------------------------------------------------------------------------------

@pytest.mark.clause("W-6")
def test_W6_worked_example_5_smoke_two_then_one_then_removed(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    r = mission("smoke", "0805", game)
    assert r.outcome_data["marker"]["level"] == 2
    assert [(m["kind"], m["level"], m["hex"]) for m in on_map(game)] == [("smoke", 2, "0805")]
    first = phase(game)
    assert [c["after"] for c in first["changes"]] == ["smoke-1"]
    assert [(m["kind"], m["level"]) for m in first["markers"]] == [("smoke", 1)]
    second = phase(game)
    assert [c["after"] for c in second["changes"]] == ["removed"]
    assert second["markers"] == [] and second["phases"] == 2


@pytest.mark.clause("W-6")
def test_W6_worked_example_5_adjacent_fire_into_smoke_needs_one_more() -> None:
    table = api.lookup("waw", "smoke-fire", "4", ["--adjacent"])
    assert texts(table.rows[0])[3] == "5+" and values(table.rows[0])[2:4] == (1, 5)
    v = smoke_fire(adjacent=True, advanced=False, into_neighbour=False)
    assert (v.blocked, v.penalty) == (False, 1)


@pytest.mark.clause("W-6")
def test_W6_blocks_sight_for_units_not_adjacent_unless_advanced() -> None:
    assert smoke_fire(adjacent=False, advanced=False, into_neighbour=False).blocked
    assert smoke_fire(adjacent=False, advanced=False, into_neighbour=True).blocked
    assert not smoke_fire(adjacent=False, advanced=True, into_neighbour=False).blocked
    table = api.lookup("waw", "smoke-fire", "4", [])
    assert texts(table.rows[0])[1] == "blocked"
    assert values(table.rows[0])[1:4] == ("blocked", None, None)


@pytest.mark.clause("W-6")
def test_W6_default_readings_and_their_options() -> None:
    # default: neighbours block but are not smoke hexes; +1 only for adjacent fire
    assert smoke_fire(adjacent=True, advanced=False, into_neighbour=True).penalty == 0
    assert smoke_fire(adjacent=False, advanced=True, into_neighbour=False).penalty == 0
    assert smoke_fire(adjacent=True, advanced=False, into_neighbour=True,
                      neighbours="smoke-hexes").penalty == 1
    assert smoke_fire(adjacent=False, advanced=True, into_neighbour=False,
                      penalty_reading="all-fire").penalty == 1
    table = api.lookup("waw", "smoke-fire", "4",
                       ["--advanced", "--option", "smoke-penalty=all-fire"])
    assert texts(table.rows[0])[3] == "5+" and values(table.rows[0])[3] == 5
    assert "smoke-penalty=all-fire" in render(table.title)


@pytest.mark.clause("W-6")
def test_W6_smoke_mission_shows_the_reading_in_force() -> None:
    r = api.attack("waw", {}, declaration={"mission": "smoke", "hex": "1"},
                   options=["smoke-neighbours=smoke-hexes"])
    assert r.non_default_options == ("smoke-neighbours",)
    smoke = next(t for t in r.tables if t.clause == "W-6" and len(t.columns) == 4
                 and t.title.id == "waw.table.smoke")
    assert smoke.rows[3][2] == Shown(1, "+1")  # adjacent fire into a neighbour now takes +1



# smoke on smoke (rules review, issue 18): the fresh Smoke 2 replaces the older marker
@pytest.mark.clause("W-6")
def test_W6_a_second_smoke_mission_on_a_hex_with_smoke_1_replaces_it(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    mission("smoke", "0805", game)
    phase(game)  # Smoke 2 -> Smoke 1
    r = mission("smoke", "0805", game)
    assert [(m["kind"], m["level"], m["hex"]) for m in on_map(game)] == [("smoke", 2, "0805")]
    step = next(s for s in r.steps if s.text.id == "waw.step.smoke_replaced")
    assert step.clause == "W-6" and "Smoke 1" in render(step.text)
    assert [c["after"] for c in phase(game)["changes"]] == ["smoke-1"]  # one marker ages
    mission("smoke", "0806", game)  # another hex: a marker of its own
    assert sorted((m["hex"], m["level"]) for m in on_map(game)) == [("0805", 1), ("0806", 2)]


@pytest.mark.clause("W-6")
def test_W6_smoke_markers_stack_under_the_other_reading(tmp_path: Path) -> None:
    from referee.frontends.answers import AnswerPort

    game = tmp_path / "g.sqlite"
    mission("smoke", "0805", game)
    phase(game)
    plan = api.plan_attack("waw", seed=1, options=("smoke-on-smoke=stack",),
                           declaration={"mission": "smoke", "hex": "0805"})
    r = api.play(plan, AnswerPort({}, plan.dice), game=game)
    assert sorted(m["level"] for m in on_map(game)) == [1, 2]
    assert r.non_default_options == ("smoke-on-smoke",)

# --- W-7: FASCAM ---------------------------------------------------------------------------------

@pytest.mark.clause("W-7")
def test_W7_fascam_places_mines_that_stay_through_the_marker_phase(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    r = mission("fascam", "0806", game)
    assert r.outcome_data["marker"]["kind"] == "mines"
    assert any(s.text.id == "waw.step.mines_attack" for s in r.steps)  # rule 12.2 is a note
    assert [c["after"] for c in phase(game)["changes"]] == ["stays"]
    assert [m["kind"] for m in on_map(game)] == ["mines"]


@pytest.mark.clause("W-7")
def test_W7_marker_missions_take_no_units() -> None:
    with pytest.raises(ScriptError) as err:
        api.attack("waw", {}, declaration={"mission": "fascam", "hex": "1",
                                           "units": [{"name": "A", "kind": "infantry"}]})
    assert "takes no units" in render(err.value.msg)


# --- W-8: chemical -------------------------------------------------------------------------------

CHEM_UNITS = [
    {"name": "Grey Rifle Platoon", "kind": "infantry"},
    {"name": "Carrier", "kind": "combat-vehicle", "position": "adjacent"},
    {"name": "Blue Rifle Platoon", "kind": "infantry", "mounted_in": "Carrier"},
    {"name": "Iron Tank", "kind": "combat-vehicle", "disorganized": True},
]


@pytest.mark.clause("W-8")
def test_W8_worked_example_6_outcomes_by_kind(tmp_path: Path) -> None:
    r = mission("chemical", "0807", tmp_path / "g.sqlite", CHEM_UNITS,
                {"morale.grey-rifle-platoon": False, "morale.carrier": True,
                 "morale.iron-tank": False})
    status = r.outcome_data["status"]
    assert status["grey-rifle-platoon"] == "weakened-disorganized"  # on foot, failed
    assert status["blue-rifle-platoon"] == "good"  # rides in the carrier, which passed
    assert status["iron-tank"] == "disorganized"  # already disorganized: unchanged
    assert status["carrier"] == "good"


@pytest.mark.clause("W-8")
def test_W8_mounted_infantry_takes_no_check_and_shares_a_failed_result() -> None:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("waw", seed=1, declaration={"mission": "chemical", "hex": "1",
                                                       "units": CHEM_UNITS})
    port = ScriptingPort(AnswerPort({"morale.grey-rifle-platoon": True,
                                     "morale.carrier": False, "morale.iron-tank": True},
                                    plan.dice))
    r = api.play(plan, port)
    assert "morale.blue-rifle-platoon" not in port.answers
    assert r.outcome_data["status"]["blue-rifle-platoon"] == "disorganized"
    assert r.outcome_data["status"]["carrier"] == "disorganized"


@pytest.mark.clause("W-8")
def test_W8_vehicle_failing_is_disorganized_never_weakened() -> None:
    r = api.attack("waw", {"morale.tank": False}, declaration={
        "mission": "chemical", "hex": "1", "units": [{"name": "Tank", "kind": "combat-vehicle"}]})
    assert r.outcome_data["status"]["tank"] == "disorganized"


@pytest.mark.clause("W-8")
def test_W8_kinds_the_excerpt_does_not_cover_are_asked() -> None:
    r = api.attack("waw", {"morale.truck": False, "chemical-outcome.truck": "weaken"},
                   declaration={"mission": "chemical", "hex": "1",
                                "units": [{"name": "Truck", "kind": "unarmoured-vehicle"}]})
    assert r.outcome_data["status"]["truck"] == "weakened"


@pytest.mark.clause("W-8")
def test_W8_only_infantry_rides_and_only_in_a_combat_vehicle() -> None:
    units = [{"name": "Truck", "kind": "unarmoured-vehicle"},
             {"name": "Inf", "kind": "infantry", "mounted_in": "Truck"}]
    with pytest.raises(ScriptError) as err:
        api.attack("waw", {}, declaration={"mission": "chemical", "hex": "1", "units": units})
    assert "not a combat vehicle" in render(err.value.msg)


@pytest.mark.clause("W-8")
def test_W8_worked_example_6_moving_next_to_the_strike_costs_two_more() -> None:
    table = api.lookup("waw", "move-cost", "1", ["--chemical"])
    assert table.rows[0][2] == 3
    assert api.lookup("waw", "move-cost", "1", []).rows[0][2] == 1


@pytest.mark.clause("W-8")
def test_W8_chemical_marker_is_removed_in_the_next_marker_phase(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    mission("chemical", "0807", game, [{"name": "Tank", "kind": "combat-vehicle"}],
            {"morale.tank": True})
    mission("smoke", "0805", game)
    assert [m["kind"] for m in on_map(game)] == ["chemical", "smoke"]
    changes = phase(game)["changes"]
    assert [(c["marker"]["kind"], c["after"]) for c in changes] == [
        ("chemical", "removed"), ("smoke", "smoke-1")]
    assert [m["kind"] for m in on_map(game)] == ["smoke"]



# HQs in a chemical strike (W-5 with W-8, option chemical-hq; rules review, issue 18)
CHEM_HQ_UNITS = [{"name": "Grey Rifle Platoon", "kind": "infantry"},
                 {"name": "Red Command", "kind": "hq", "position": "adjacent"}]


def _chemical_asked(answers: dict[str, Any],
                    options: tuple[str, ...] = ()) -> tuple[list[str], Any]:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("waw", seed=1, options=options,
                           declaration={"mission": "chemical", "hex": "0807",
                                        "units": CHEM_HQ_UNITS})
    port = ScriptingPort(AnswerPort(answers, plan.dice))
    result = api.play(plan, port)
    return list(port.answers), result


# an HQ is never an artillery target: no morale check in a chemical strike
@pytest.mark.clause("W-5")
def test_W5_an_hq_in_a_chemical_strike_takes_no_morale_check() -> None:
    ids, r = _chemical_asked({"morale.grey-rifle-platoon": False})
    assert ids == ["morale.grey-rifle-platoon"]  # the HQ is not asked
    assert r.outcome_data["status"]["red-command"] == "good"
    assert "red-command" not in r.outcome_data["passed"]
    step = next(s for s in r.steps if s.text.id == "waw.step.chem_hq")
    assert step.clause == "W-5" and "Red Command" in render(step.text)
    with pytest.raises(UnusedAnswerError):  # a script answering its check is told so
        api.attack("waw", {"morale.grey-rifle-platoon": False, "morale.red-command": False},
                   declaration={"mission": "chemical", "hex": "0807", "units": CHEM_HQ_UNITS})


@pytest.mark.clause("W-8")
def test_W8_hqs_check_like_every_unit_under_the_other_reading() -> None:
    ids, r = _chemical_asked({"morale.grey-rifle-platoon": True, "morale.red-command": False,
                              "chemical-outcome.red-command": "disorganize"},
                             ("chemical-hq=checks",))
    assert "morale.red-command" in ids
    assert r.outcome_data["status"]["red-command"] == "disorganized"
    assert r.non_default_options == ("chemical-hq",)

# --- markers, pure and through the command -------------------------------------------------------

@pytest.mark.clause("W-6")
def test_W6_removal_phase_is_pure_and_numbers_markers() -> None:
    m1, state = mk.place({}, "smoke", "1", 2)
    m2, more = mk.place(state, "mines", "2")
    state.update(more)
    assert (m1.id, m2.id) == (1, 2)
    changes, updates = mk.removal_phase(state)
    assert [c.after for c in changes] == ["smoke-1", "stays"]
    assert updates["phases"] == 1
    assert state["markers"][0]["level"] == 2  # the input is not changed


def test_markers_command_lists_clears_and_reports_an_empty_map(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    mission("smoke", "0805", game)
    code, out, _ = invoke(["waw-markers", "--game", str(game)])
    assert code == 0 and "Smoke 2" in out and "0805" in out
    code, out, _ = invoke(["waw-markers", "--game", str(game), "--clear"])
    assert code == 0 and "No markers on the map" in out


def test_markers_command_refuses_a_file_that_is_not_a_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database at all" * 100)
    code, _, err = invoke(["waw-markers", "--game", str(bad)])
    assert code == 5 and "Traceback" not in err and err.count("\n") == 1
