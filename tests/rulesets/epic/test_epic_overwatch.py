"""Epic Armageddon overwatch (E-20), its NetEA open-ground option (E-X9) and worked example 9."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.rulesets.epic.declaration import Overwatch
from referee.rulesets.epic.overwatch import trigger_problem
from tests.support.epic import decl, played_in, shoot, tunit

GUN = {"name": "Autocannon", "ap": 5}


def overwatch(**trigger: object) -> dict:
    return decl([GUN], [tunit("A")], overwatch=trigger)


@pytest.mark.clause("E-20")
def test_E20_worked_example_9_sustained_fire_does_not_trigger_a_double_does() -> None:
    assert trigger_problem(Overwatch(trigger="move", enemy_action="sustained-fire")) is not None
    assert trigger_problem(Overwatch(trigger="move", enemy_action="double", after_move=1)) is None
    assert trigger_problem(Overwatch(trigger="move", enemy_action="double", after_move=2)) is None
    assert trigger_problem(Overwatch(trigger="move", enemy_action="advance",
                                     after_move=2)) is not None


@pytest.mark.clause("E-20")
def test_E20_what_does_not_trigger_and_coherency() -> None:
    for trigger in ("shoot", "regroup", "teleport", "counter-charge"):
        assert trigger_problem(Overwatch(trigger=trigger)) is not None  # type: ignore[arg-type]
    assert trigger_problem(Overwatch(trigger="disembark")) is None
    assert trigger_problem(Overwatch(trigger="move", coherent=False)) is not None


@pytest.mark.clause("E-20")
def test_E20_fires_at_the_trigger_without_an_action_question_then_ends() -> None:
    r = shoot(overwatch(trigger="move", enemy_action="double", after_move=2),
              {"to-hit.autocannon": [5], "save.normal.a": [6]})
    assert r.outcome_data["shot"] is True
    firing = r.state_updates["formations"]["Grey Company (invented)"]
    assert firing["overwatch"] is False
    assert any(s.text.id == "epic.overwatch.ended" for s in r.steps)


@pytest.mark.clause("E-20")
def test_E20_no_trigger_no_fire_and_no_marker() -> None:
    r = shoot(overwatch(trigger="move", enemy_action="sustained-fire"), {})
    assert r.outcome_data["shot"] is False


@pytest.mark.clause("E-X9")
def test_EX9_netea_infantry_on_overwatch_in_the_open_count_as_in_cover() -> None:
    d = decl([GUN], [tunit("A", armour=None)], target_on_overwatch=True)
    r = shoot(d, {"to-hit.autocannon": [5]})
    assert r.outcome_data["hits"] == {"ap": 1}  # default: open ground, 5+ hits
    r = shoot(d, {"to-hit.autocannon": [5]}, ("overwatch-open-ground-cover=true",))
    assert r.outcome_data["hits"] == {}  # in cover: needs 6
    r = shoot(d, {"to-hit.autocannon": [6], "save.normal.a": [5]},
              ("overwatch-open-ground-cover=true",))
    assert r.outcome_data["casualties"] == []  # the 5+ cover save


# overwatch state read from the game file
@pytest.mark.clause("E-20")
def test_E20_overwatch_ended_in_the_game_file_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    base = decl([{"name": "Gun", "ap": 4}], [tunit("A")])
    ow = {**base, "overwatch": {"trigger": "move", "enemy_action": "advance"}}
    r0 = played_in(game, {**base, "takes_overwatch": True}, {})
    assert r0.outcome_data == {"shot": False, "overwatch": True}
    assert r0.state_updates["formations"]["Grey Company (invented)"]["overwatch"] is True
    r1 = played_in(game, ow, {"to-hit.gun": [2]})
    assert r1.outcome_data["shot"] is True
    r2 = played_in(game, ow, {})
    assert r2.outcome_data["shot"] is False
    assert any(s.text.id == "epic.overwatch.not_on" for s in r2.steps)
    # the Overwatch action as the action answer puts it on overwatch again
    r3 = played_in(game, base, {"action": "overwatch"})
    assert r3.outcome_data["overwatch"] is True
    assert played_in(game, ow, {"to-hit.gun": [2]}).outcome_data["shot"] is True
