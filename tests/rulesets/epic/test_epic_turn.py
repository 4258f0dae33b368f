"""An Epic Armageddon turn over a game file (issue 29; brief docs/rules/epic-armageddon-turn.md,
E-T1 to E-T8): the strategy roll, activations and their action tests, retaining the
initiative, regrouping, the end phase's rally tests and void shields, each step a run of
``referee epic-turn`` on the same game file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import api
from referee.core.questions import Question
from referee.core.result import Result
from tests.rulesets.epic.test_epic_assault import Asked
from tests.support import ROOT

ROSTER = str(ROOT / "transcripts" / "rosters" / "epic-assault.toml")
GREY, RED, WALKER = "Grey Company (invented)", "Red Company (invented)", "Iron Walker (invented)"


def step(game: Path, answers: dict[str, Any], **extra: Any) -> tuple[Result, list[Question]]:
    plan = api.plan_attack("epic", seed=1, declaration={"turn": {"roster": ROSTER, **extra}},
                           game=game)
    port = Asked(answers, plan.dice)
    return api.play(plan, port, game=game), port.questions


def state(game: Path) -> dict[str, Any]:
    from referee.game import read_game
    from referee.rulesets.epic.saved import SavedState

    with read_game(game) as tx:
        return dict(tx.state("epic-armageddon", SavedState))


def started(game: Path) -> None:
    """Turn 1: Blue (rating 3) rolls 4, Red (rating 2) rolls 2; Blue acts first."""
    step(game, {"strategy.Blue": 3, "strategy.Red": 2, "strategy-roll.Blue": [4],
                "strategy-roll.Red": [2], "goes-first": "first"})


def ids(questions: list[Question]) -> list[str]:
    return [q.id for q in questions]


@pytest.mark.clause("E-T1")
def test_E_T1_the_strategy_roll_decides_who_acts_first(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    _r, _ = step(game, {"strategy.Blue": 3, "strategy.Red": 2, "strategy-roll.Blue": [1],
                       "strategy-roll.Red": [4], "goes-first": "second"})
    turn = state(game)["turn"]
    assert turn["phase"] == "action" and turn["first"] == "Blue"  # Red won, chose second
    assert turn["strategy"] == {"Blue": 3, "Red": 2}  # kept: not asked again


@pytest.mark.clause("E-T2")
@pytest.mark.clause("E-T3")
def test_E_T3_an_action_test_needs_the_initiative_and_a_failure_holds_with_a_marker(
        tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    _r, asked = step(game, {"formation": "grey-company-invented", "action": "advance",
                           "action-test.grey-company-invented": [1],
                           "action-test.grey-company-invented.supreme": False})
    test = next(q for q in asked if q.id == "action-test.grey-company-invented")
    assert test.spec.target == 2  # initiative 2+, no marker
    s = state(game)
    assert s["formations"][GREY]["blast_markers"] == 1 and s["turn"]["acted"] == [GREY]
    assert s["turn"]["last_action"] == "hold"


@pytest.mark.clause("E-T3")
@pytest.mark.clause("E-T4")
def test_E_T4_retaining_the_initiative_and_markers_each_take_one_off(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    step(game, {"formation": "grey-company-invented", "action": "advance",
                "action-test.grey-company-invented": [5]})
    # Grey passed: Blue may retain; the walker has a Blast marker too
    from referee.game import open_game

    with open_game(game) as tx:
        formations = dict(tx.state("epic-armageddon", None).get("formations", {}))
        formations[WALKER] = {"blast_markers": 1, "broken": False, "destroyed": []}
        tx.update_state("epic-armageddon", {"formations": formations})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    _, asked = step(game, {"retain": True, "action": "march",
                           "action-test.iron-walker-invented": [3]})
    test = next(q for q in asked if q.id == "action-test.iron-walker-invented")
    assert test.spec.target == 1 + 1 + 1  # initiative 1+, a marker, retaining
    # having retained, Blue hands over: Red acts next, asked no retain
    _r, asked = step(game, {"action": "advance", "action-test.red-company-invented": [3]})
    assert "retain" not in ids(asked)


@pytest.mark.clause("E-T5")
def test_E_T5_a_regroup_removes_the_higher_die_and_one_a_leader(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    from referee.game import open_game

    with open_game(game) as tx:
        tx.update_state("epic-armageddon", {"formations": {
            GREY: {"blast_markers": 4, "broken": False, "destroyed": []}}})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    _r, _ = step(game, {"regroup.grey-company-invented": [2, 1]}, regroup=GREY)
    assert state(game)["formations"][GREY]["blast_markers"] == 4 - 2 - 1  # the captain leads


@pytest.mark.clause("E-T6")
@pytest.mark.clause("E-T7")
def test_E_T7_rally_tests_halve_markers_and_rally_broken_formations(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    from referee.game import open_game

    with open_game(game) as tx:
        tx.update_state("epic-armageddon", {"formations": {
            GREY: {"blast_markers": 3, "broken": False, "destroyed": []},
            RED: {"blast_markers": 0, "broken": True, "destroyed": []},
            WALKER: {"blast_markers": 0, "broken": False, "destroyed": [],
                     "shields_down": {"iron-walker": 2}}}})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    _r, asked = step(game, {"enemy-near.grey-company-invented": False,
                           "rally.grey-company-invented": [2],
                           "enemy-near.red-company-invented": True,
                           "rally.red-company-invented": [6]}, end_phase=True)
    assert [q.id for q in asked if q.id.startswith("rally.")] == [
        "rally.grey-company-invented", "rally.red-company-invented"]  # Blue first (rating 3)
    red = next(q for q in asked if q.id == "rally.red-company-invented")
    assert red.spec.target == 3 + 2 + 1  # broken, an enemy near
    s = state(game)
    assert s["formations"][GREY]["blast_markers"] == 3 - 2 - 1  # half rounded up, a leader
    assert s["formations"][RED]["broken"] is False
    assert s["formations"][RED]["blast_markers"] == 5 - 3  # five units: half of 5 goes
    assert s["formations"][WALKER]["shields_down"] == {"iron-walker": 1}  # E-W9: one back
    assert s["turn"]["number"] == 2 and s["turn"]["phase"] == "strategy"


@pytest.mark.clause("E-T3")
def test_E_T3_a_test_needing_more_than_6_fails_unrolled(tmp_path: Path) -> None:
    """A formation the roster does not know: its side, initiative and units are asked (and
    the first two kept); initiative 5+, broken, an enemy near: 8 needed, no roll."""
    game = tmp_path / "game.db"
    started(game)
    from referee.game import open_game

    with open_game(game) as tx:
        tx.update_state("epic-armageddon", {"formations": {
            "Old Guard (invented)": {"blast_markers": 0, "broken": True, "destroyed": []}}})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    r, asked = step(game, {"side.old-guard-invented": "second",
                           "initiative.old-guard-invented": 5, "units.old-guard-invented": 4,
                           "enemy-near.old-guard-invented": True}, end_phase=True)
    assert "rally.old-guard-invented" not in ids(asked)
    assert "epic.turn.step.impossible" in [s.text.id for s in r.steps]
    assert state(game)["turn"]["initiative"]["Old Guard (invented)"] == 5


@pytest.mark.clause("E-T8")
def test_E_T8_a_supreme_commander_re_rolls_one_failed_test_a_turn(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    _, asked = step(game, {"formation": "grey-company-invented", "action": "advance",
                           "action-test.grey-company-invented": [1],
                           "action-test.grey-company-invented.supreme": True,
                           "action-test.grey-company-invented.reroll": [4]})
    assert state(game)["turn"]["last_passed"] is True
    assert state(game)["turn"]["rerolls"] == ["Blue"]
    step(game, {"action": "advance", "action-test.red-company-invented": [1]})  # Red: none
    _r, asked = step(game, {"action": "march", "action-test.iron-walker-invented": [1]},
                    )
    assert "action-test.iron-walker-invented.supreme" not in ids(asked)  # used this turn


@pytest.mark.clause("E-14")
def test_an_assault_in_the_games_turn_asks_no_markers_and_no_broken_state(
        tmp_path: Path) -> None:
    """A formation the turn has kept since its strategy roll is known to the game file even
    before anything happened to it: no Blast markers (none yet), not broken; a formation
    the turn does not know is still asked."""
    game = tmp_path / "game.db"
    started(game)
    step(game, {"formation": "grey-company-invented", "action": "engage",
                "action-test.grey-company-invented": [4]})
    assert RED not in state(game).get("formations", {})  # nothing happened to it yet

    plan = api.plan_attack("epic", seed=1, game=game, declaration={"assault": {
        "roster": ROSTER, "attackers": [{"name": GREY}], "defenders": [{"name": RED}]}})
    port = Asked({"situation.grey-company-invented": "4 contact, 10",
                  "situation.red-company-invented": "4 contact, 12"}, plan.dice)
    api.play(plan, port, game=game)
    assert not [q for q in ids(port.questions) if q.startswith(("markers.", "broken."))]
    roster_only = tmp_path / "other.db"
    plan = api.plan_attack("epic", seed=1, game=roster_only, declaration={"assault": {
        "roster": ROSTER, "attackers": [{"name": GREY}], "defenders": [{"name": RED}]}})
    port = Asked({"situation.grey-company-invented": "4 contact, 10",
                  "situation.red-company-invented": "4 contact, 12"}, plan.dice)
    api.play(plan, port, game=roster_only)
    assert {"markers.red-company-invented", "broken.red-company-invented"} <= set(
        ids(port.questions))


@pytest.mark.clause("E-W9")
@pytest.mark.clause("E-T5")
def test_E_W9_a_regroup_may_put_void_shields_back_up_instead_of_taking_markers_off(
        tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    started(game)
    from referee.game import open_game

    with open_game(game) as tx:
        tx.update_state("epic-armageddon", {"formations": {
            WALKER: {"blast_markers": 4, "broken": False, "destroyed": [],
                     "shields_down": {"iron-walker": 2}}}})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    _r, asked = step(game, {"regroup.iron-walker-invented": [5, 1],
                            "regroup.iron-walker-invented.shields": 2}, regroup=WALKER)
    spend = next(q for q in asked if q.id == "regroup.iron-walker-invented.shields")
    assert spend.maximum == 2  # no more than the shields down
    s = state(game)["formations"][WALKER]
    assert s.get("shields_down", {}) == {} and s["blast_markers"] == 4 - (5 - 2)


@pytest.mark.clause("E-T1")
def test_E_T1_a_formation_the_game_keeps_is_not_asked_its_side(tmp_path: Path) -> None:
    """Issue 27: the roster brought into the game (``game roster --import``) keeps each
    formation's side and initiative (and its units' assault values: the file stays
    readable); a turn with no ``--roster`` reads them there instead of asking."""
    from referee.game.armies import import_roster
    from tests.support.game import invoke

    game = tmp_path / "game.db"
    assert invoke(["game", "new", str(game), "--side", "Blue", "--side", "Red"])[0] == 0
    import_roster(game, Path(ROSTER), "epic-armageddon")
    plan = api.plan_attack("epic", declaration={"turn": {}}, game=game)
    port = Asked({"strategy.Blue": 3, "strategy.Red": 2, "strategy-roll.Blue": [4],
                  "strategy-roll.Red": [2], "goes-first": "first"}, plan.dice)
    api.play(plan, port, game=game)
    assert not [q.id for q in port.questions if q.id.startswith(("side.", "initiative."))]
    assert state(game)["turn"]["sides"][GREY] == "Blue"
    assert state(game)["turn"]["first"] == "Blue"


@pytest.mark.clause("E-T1")
def test_E_T1_the_turn_takes_the_sides_an_attack_told_the_game(tmp_path: Path) -> None:
    """Issue 27, one store for the sides: formations typed in an attack had their side asked
    once; ``referee epic-turn`` on the same game asks none of them again, and the strategy
    roll is each side's by the game's names."""
    from tests.game.test_kept_armies import EPIC_TYPED
    from tests.support.game import invoke, new_game

    game = tmp_path / "game.db"
    new_game(game)
    assert invoke(["attack", "epic", "--game", str(game), "--no-odds"],
                  answers=EPIC_TYPED)[0] == 0
    code, out, err = invoke(["epic-turn", "--game", str(game), "--no-odds"],
                            answers=["3", "2", "4", "5", "first"])
    assert code == 0, err
    assert "Which side" not in out and "first player" not in out
    turn = state(game)["turn"]
    assert turn["sides"] == {"Grey Company": "Grey", "Red Company": "Red"}
    assert turn["first"] == "Red"  # 5 + 4 against 2 + 3


@pytest.mark.clause("E-T1")
def test_E_T1_a_side_asked_by_the_turn_is_one_of_the_games_and_kept_for_it(
        tmp_path: Path) -> None:
    """A formation the game knows nothing of: its side is asked by the game's names and the
    game keeps it, so that a later attack does not ask it again."""
    from referee.game import read_game
    from tests.support.game import new_game

    game = tmp_path / "game.db"
    new_game(game)
    from referee.game import open_game

    with open_game(game) as tx:
        tx.update_state("epic-armageddon", {"formations": {
            "Old Guard (invented)": {"blast_markers": 0, "broken": False, "destroyed": []}}})
        tx.append_log("epic-armageddon", "run", {})  # the entry that left it
    plan = api.plan_attack("epic", declaration={"turn": {
        "sides": {}, "side_names": ["Grey", "Red"]}}, game=game)
    port = Asked({"side.old-guard-invented": "Red", "strategy.Red": 2,
                  "strategy-roll.Red": [3], "goes-first": "first"}, plan.dice)
    api.play(plan, port, game=game)
    side = next(q for q in port.questions if q.id == "side.old-guard-invented")
    assert [c.value for c in side.choices] == ["Grey", "Red"]  # type: ignore[attr-defined]
    with read_game(game) as tx:
        assert tx.sides()["Old Guard (invented)"] == "Red"
