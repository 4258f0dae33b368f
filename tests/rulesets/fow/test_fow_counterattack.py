"""Counterattack or break off in a whole Flames of War assault (docs/rules/
flames-of-war-assault.md, F-A17 to F-A26, F-X13, F-X14): who is left, the Motivation test on
one die, re-rolls, the choice, the counterattack round and breaking off, round after round, and
the platoons an unarmoured tank team keeps from counterattacking."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core.result import Result
from referee.rulesets.fow.fight import Rated
from referee.rulesets.fow.morale import captured, passes
from tests.support.fow import A, D, P, questions_asked, step_params, whole


def play(decl: dict[str, Any], answers: dict[str, Any],
         options: tuple[str, ...] | list[str] = ()) -> tuple[Result, list[str]]:
    result, asked = questions_asked(decl, answers, options)
    return result, [q.id for q in asked]


def _two_a_side(**extra: Any) -> dict[str, Any]:
    return whole([A("g1"), A("g2")], [D("r1"), D("r2"), D("r3")], **extra)


# --- F-A17: nobody left ----------------------------------------------------------------------

@pytest.mark.clause("F-A17")
def test_FA17_a_side_with_no_team_able_to_fight_loses_without_a_test() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1"), D("t1", "tank", top=1, status="bailed-out"),
                                      D("tr", "transport")])
    result, asked = play(decl, {"round.1.to-hit": [6, 1]})
    assert "round.1.motivation" not in asked
    assert result.outcome_data["winner"] == "attacker"
    assert step_params(result, "fow.round.nobody_left")


# --- F-A18 to F-A20: the test ----------------------------------------------------------------

@pytest.mark.clause("F-A18")
@pytest.mark.parametrize(("motivation", "passing"), [("reluctant", 5), ("confident", 4),
                                                     ("fearless", 3)])
def test_FA18_a_platoon_passes_on_its_motivation_rating(motivation: str, passing: int) -> None:
    platoon = Rated("Red", "defender", "trained", motivation)
    assert passes(passing, platoon)
    assert not passes(passing - 1, platoon)


@pytest.mark.clause("F-A18")
def test_FA18_one_die_for_every_platoon_each_on_its_own_rating() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1", platoon="Red"), D("f1", platoon="Fearless"),
                                      D("f2", platoon="Fearless")],
                 [P("Grey", "attacker"), P("Red", "defender", motivation="reluctant"),
                  P("Fearless", "defender", motivation="fearless")])
    result, asked = play(decl, {"round.1.to-hit": [6, 1], "round.1.allocation": "by-hit",
                                "round.1.hit.1": "f1", "round.1.motivation": [3],
                                "round.1.choice.fearless": "break-off"})
    assert asked.count("round.1.motivation") == 1
    assert "round.1.choice.red" not in asked  # 3 fails Reluctant 5+: it must break off
    assert "round.1.choice.fearless" in asked  # 3 passes Fearless 3+: its choice
    assert sorted(result.outcome_data["pinned"]) == ["Fearless", "Red"]


@pytest.mark.clause("F-A19")
def test_FA19_no_hits_no_test() -> None:
    result, asked = play(_two_a_side(), {"round.1.to-hit": [1, 1],
                                         "round.1.choice.red-platoon": "break-off"})
    assert "round.1.motivation" not in asked
    assert step_params(result, "fow.morale.no_hits")
    assert "round.1.choice.red-platoon" in asked


@pytest.mark.clause("F-A20")
def test_FA20_a_re_roll_is_one_more_die_for_the_failed_platoons_only() -> None:
    decl = whole([A("g1")], [D("r1", platoon="Red"), D("r2", platoon="Red"),
                             D("b1", platoon="Blue"), D("b2", platoon="Blue")],
                 [P("Grey", "attacker"), P("Red", "defender", reroll=True),
                  P("Blue", "defender", motivation="fearless")])
    _, asked = play(decl, {"round.1.to-hit": [6], "round.1.motivation": [3],
                           "round.1.reroll": [4], "round.1.choice.red": "break-off",
                           "round.1.choice.blue": "break-off"})
    reroll = [q for q in questions_asked(decl, {"round.1.to-hit": [6],
                                                "round.1.motivation": [3],
                                                "round.1.reroll": [4]})[1]
              if q.id == "round.1.reroll"]
    assert reroll and "Red" in str(reroll[0].text.kwargs["platoons"])
    assert "Blue" not in str(reroll[0].text.kwargs["platoons"])
    assert "round.1.choice.red" in asked  # passed on the re-roll
    _, without = play(_two_a_side(), {"round.1.to-hit": [6, 1], "round.1.motivation": [3]})
    assert "round.1.reroll" not in without


# --- F-A21 to F-A23: the choice and the counterattack ----------------------------------------

@pytest.mark.clause("F-A21")
def test_FA21_a_failed_platoon_breaks_off_a_passed_one_chooses() -> None:
    failed, asked = play(_two_a_side(), {"round.1.to-hit": [6, 1], "round.1.motivation": [3]})
    assert not [q for q in asked if ".choice." in q]
    assert failed.outcome_data["winner"] == "attacker"
    assert failed.outcome_data["pinned"] == ["Red platoon"]
    chose, asked = play(_two_a_side(), {"round.1.to-hit": [6, 1], "round.1.motivation": [4],
                                        "round.1.choice.red-platoon": "break-off"})
    assert "round.1.choice.red-platoon" in asked
    assert chose.outcome_data["winner"] == "attacker"
    assert step_params(chose, "fow.morale.chose.break-off")


@pytest.mark.clause("F-A22")
@pytest.mark.clause("F-A23")
def test_FA22_the_counterattack_hits_the_charging_teams_and_they_test_in_turn() -> None:
    result, asked = play(_two_a_side(), {
        "round.1.to-hit": [6, 1], "round.1.motivation": [4],
        "round.2.to-hit": [6, 6], "round.2.motivation": [3]})
    assert "defensive-fire" not in asked  # no defensive fire against a counterattack
    log = result.outcome_data["round_log"]
    assert [e["side"] for e in log] == ["attacker", "defender"]
    assert set(log[1]["hits"]) == {"r2", "r3"}  # r1 was destroyed in round 1
    assert set(log[1]["allocation"].values()) == {"g1", "g2"}
    assert result.outcome_data["winner"] == "defender"


@pytest.mark.clause("F-A23")
def test_FA23_rounds_alternate_until_a_side_breaks_off() -> None:
    result, asked = play(_two_a_side(), {
        "round.1.to-hit": [1, 1], "round.2.to-hit": [1, 1, 1],
        "round.3.to-hit": [1, 1], "round.3.choice.red-platoon": "break-off"})
    assert [e["side"] for e in result.outcome_data["round_log"]] == [
        "attacker", "defender", "attacker"]
    assert "round.2.choice.grey-platoon" in asked
    assert result.outcome_data["winner"] == "attacker"


@pytest.mark.clause("F-A23")
def test_FA23_an_endless_assault_stops_at_the_referee_s_limit() -> None:
    from referee.rulesets.fow.assault import MAX_ROUNDS

    answers = {f"round.{n}.to-hit": [1, 1] if n % 2 else [1, 1, 1]
               for n in range(1, MAX_ROUNDS + 1)}
    result, _ = play(_two_a_side(), answers)
    assert result.outcome_data["winner"] is None
    assert result.outcome_data["rounds"] == MAX_ROUNDS
    assert step_params(result, "fow.round.limit")


@pytest.mark.clause("F-X13")
def test_FX13_a_counterattack_reaches_the_charging_teams_that_reached_it() -> None:
    decl = whole([A("g1", reaches=["r1"]), A("g2", reaches=["r2"])], [D("r1"), D("r2")])
    result, asked = play(decl, {"round.1.to-hit": [1, 1], "round.2.to-hit": [6, 1],
                                "round.2.motivation": [1]})
    assert result.outcome_data["round_log"][1]["allocation"] == {"1": "g1"}
    assert not [q for q in asked if ".reach." in q]


@pytest.mark.clause("F-X13")
def test_FX13_a_declared_counterattack_reach_wins_and_ask_asks() -> None:
    decl = whole([A("g1", reaches=["r1"]), A("g2", reaches=["r1"])],
                 [D("r1", reaches=["g2"])])
    result, _ = play(decl, {"round.1.to-hit": [1, 1], "round.2.to-hit": [6],
                            "round.2.motivation": [1]})
    assert result.outcome_data["round_log"][1]["allocation"] == {"1": "g2"}
    asked_reach, asked = play(whole([A("g1"), A("g2")], [D("r1")]), {
        "round.1.to-hit": [1, 1], "round.2.reach.r1": ["g2"], "round.2.to-hit": [6],
        "round.2.motivation": [1]}, options=["counterattack-reach=ask"])
    assert "round.2.reach.r1" in asked
    assert asked_reach.outcome_data["round_log"][1]["allocation"] == {"1": "g2"}


@pytest.mark.clause("F-A22")
def test_FA22_a_counterattack_from_a_building_fights_through_its_opening() -> None:
    decl = whole([A("g1", situation="outside-at-opening", building="mill"), A("g2")],
                 [D("r1", building="mill"), D("r2")])
    result, _ = play(decl, {"round.1.to-hit": [1, 1], "round.2.to-hit": [6, 6],
                            "round.2.motivation": [1]})
    # r1, in the mill, reaches only g1 at its door; r2 in the open reaches both
    allocation = result.outcome_data["round_log"][1]["allocation"]
    assert sorted(allocation.values()) == ["g1", "g2"]
    assert step_params(result, "fow.step.situation.inside-through-opening")


# --- F-A24, F-X14, F-A25: breaking off and winning -------------------------------------------

@pytest.mark.clause("F-A24")
@pytest.mark.clause("F-X14")
def test_FA24_a_platoon_breaking_off_is_pinned_and_loses_its_stopped_vehicles() -> None:
    decl = whole([A("g1")], [D("r1"), D("t1", "tank", top=2, status="bogged-down")])
    result, _ = play(decl, {"round.1.to-hit": [6], "round.1.motivation": [1]})
    assert result.outcome_data["pinned"] == ["Red platoon"]
    assert result.outcome_data["status"]["t1"] == "destroyed"
    assert step_params(result, "fow.morale.captured")
    kept, _ = play(decl, {"round.1.to-hit": [6], "round.1.motivation": [1]},
                   options=["captured-on-break-off=none"])
    assert kept.outcome_data["status"]["t1"] == "bogged-down"


@pytest.mark.clause("F-X14")
def test_FX14_only_stopped_vehicles_are_captured() -> None:
    from referee.rulesets.fow.fight import Fighter

    teams = [Fighter("r1", "R1", "defender", "Red", "infantry", "infantry"),
             Fighter("t1", "T1", "defender", "Red", "tank", "tank", top=1),
             Fighter("t2", "T2", "defender", "Red", "tank", "tank", top=1)]
    status = {"r1": "active", "t1": "bailed-out", "t2": "active"}
    assert captured(teams, status, "stopped-vehicles") == ["t1"]
    assert captured(teams, status, "none") == []


@pytest.mark.clause("F-A25")
def test_FA25_the_winner_may_consolidate() -> None:
    result, _ = play(_two_a_side(), {"round.1.to-hit": [6, 1], "round.1.motivation": [3]})
    assert step_params(result, "fow.assault.consolidate")
    assert result.outcome.id == "fow.assault.outcome.attacker_wins"


# --- F-A26: an unarmoured tank team keeps its platoon from counterattacking ------------------

@pytest.mark.clause("F-A26")
def test_FA26_a_platoon_with_an_unarmoured_tank_left_breaks_off_without_a_test() -> None:
    decl = whole([A("g1", reaches=["r1"])], [D("r1"), D("r2"), D("u1", "tank")])
    result, asked = play(decl, {"round.1.to-hit": [6], "round.1.motivation": [6],
                                "round.1.choice.red-platoon": "counterattack"})
    # r2 could still fight and a 6 passes Confident: only the unarmoured tank stops it
    assert "round.1.motivation" not in asked
    assert not [q for q in asked if ".choice." in q]
    assert step_params(result, "fow.morale.unarmoured") == [
        {"platoon": "Red platoon", "teams": "U1"}]
    assert result.outcome_data["pinned"] == ["Red platoon"]
    assert result.outcome_data["winner"] == "attacker"
    assert len(result.outcome_data["round_log"]) == 1


@pytest.mark.clause("F-A26")
def test_FA26_even_without_hits_the_platoon_breaks_off() -> None:
    decl = whole([A("g1")], [D("r1"), D("u1", "tank")])
    result, asked = play(decl, {"round.1.to-hit": [1],
                                "round.1.choice.red-platoon": "counterattack"})
    assert not [q for q in asked if ".choice." in q]  # F-A19 passes it, F-A26 still holds
    assert not step_params(result, "fow.morale.no_hits")
    assert result.outcome_data["winner"] == "attacker"


@pytest.mark.clause("F-A26")
def test_FA26_once_its_unarmoured_tanks_are_destroyed_the_platoon_tests_as_any_other() -> None:
    decl = whole([A("g1", reaches=["u1"])], [D("r1"), D("u1", "tank")])
    result, asked = play(decl, {"round.1.to-hit": [6], "round.1.motivation": [4],
                                "round.1.choice.red-platoon": "break-off"})
    assert result.outcome_data["status"]["u1"] == "destroyed"  # F-A14
    assert "round.1.motivation" in asked and "round.1.choice.red-platoon" in asked
    assert not step_params(result, "fow.morale.unarmoured")


@pytest.mark.clause("F-A26")
def test_FA26_only_the_platoon_with_the_tank_breaks_off_and_the_charging_side_too() -> None:
    decl = whole([A("g1", reaches=["r1"])],
                 [D("r1", platoon="Red"), D("u1", "tank", platoon="Red"),
                  D("b1", platoon="Blue")],
                 [P("Grey", "attacker"), P("Red", "defender"), P("Blue", "defender")])
    result, asked = play(decl, {"round.1.to-hit": [1], "round.1.choice.blue": "break-off"})
    assert "round.1.choice.blue" in asked and "round.1.choice.red" not in asked
    assert sorted(result.outcome_data["pinned"]) == ["Blue", "Red"]
    # the charging platoon's own unarmoured tank: it may not counterattack in its turn
    charging = whole([A("g1"), A("u9", "tank")], [D("r1"), D("r2")])
    result, asked = play(charging, {"round.1.to-hit": [1, 1], "round.2.to-hit": [1, 1],
                                    "round.2.choice.grey-platoon": "counterattack"})
    assert "round.2.choice.grey-platoon" not in asked
    assert result.outcome_data["winner"] == "defender"
    assert step_params(result, "fow.morale.unarmoured") == [
        {"platoon": "Grey platoon", "teams": "U9"}]
