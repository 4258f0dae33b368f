"""World at War findings of the rules review (issue 18): HQs in a chemical strike (W-5 with
W-8, option chemical-hq) and a smoke mission on a hex that still holds smoke (W-6, option
smoke-on-smoke)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import UnusedAnswerError
from tests.test_waw_markers import mission, on_map, phase

UNITS = [{"name": "Grey Rifle Platoon", "kind": "infantry"},
         {"name": "Red Command", "kind": "hq", "position": "adjacent"}]


def _asked(answers: dict[str, Any], options: tuple[str, ...] = ()) -> tuple[list[str], Any]:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("waw", seed=1, options=options,
                           declaration={"mission": "chemical", "hex": "0807", "units": UNITS})
    port = ScriptingPort(AnswerPort(answers, plan.dice))
    result = api.play(plan, port)
    return list(port.answers), result


# 11. an HQ is never an artillery target: no morale check in a chemical strike
@pytest.mark.clause("W-5")
def test_W5_an_hq_in_a_chemical_strike_takes_no_morale_check() -> None:
    ids, r = _asked({"morale.grey-rifle-platoon": False})
    assert ids == ["morale.grey-rifle-platoon"]  # the HQ is not asked
    assert r.outcome_data["status"]["red-command"] == "good"
    assert "red-command" not in r.outcome_data["passed"]
    step = next(s for s in r.steps if s.text.id == "waw.step.chem_hq")
    assert step.clause == "W-5" and "Red Command" in render(step.text)
    with pytest.raises(UnusedAnswerError):  # a script answering its check is told so
        api.attack("waw", {"morale.grey-rifle-platoon": False, "morale.red-command": False},
                   declaration={"mission": "chemical", "hex": "0807", "units": UNITS})


@pytest.mark.clause("W-8")
def test_W8_hqs_check_like_every_unit_under_the_other_reading() -> None:
    ids, r = _asked({"morale.grey-rifle-platoon": True, "morale.red-command": False,
                     "chemical-outcome.red-command": "disorganize"},
                    ("chemical-hq=checks",))
    assert "morale.red-command" in ids
    assert r.outcome_data["status"]["red-command"] == "disorganized"
    assert r.non_default_options == ("chemical-hq",)


# 12. smoke on smoke: the fresh Smoke 2 replaces the older marker
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
