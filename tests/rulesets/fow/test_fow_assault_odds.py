"""The odds at a whole Flames of War assault's decisions (docs/rules/flames-of-war-assault.md):
the chance defensive fire stops the charge (F-A6), the chance the side that hits wins the round
(F-A17 to F-A21, F-A26), the counterattack test with its re-roll (F-A20) and an armoured vehicle's
saves (F-A12, F-A13), each checked against a brute force over the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.generic import report_for
from referee.rulesets.fow import assault_odds
from referee.rulesets.fow.outcomes import hit_result, worst
from referee.rulesets.fow.results import save_outcome
from tests.support.fow import A, D, P, questions_asked, whole


def _dice(question_id: str, decl: dict[str, Any], answers: dict[str, Any]) -> Any:
    _, asked = questions_asked(decl, answers)
    return next(q for q in asked if q.id == question_id)


def _ends(report: Any) -> dict[str, Fraction]:
    return {e.label.id + ":" + str(e.label.kwargs.get("team", e.label.kwargs.get(
        "platoon", ""))): e.value for e in report.end_states}


@pytest.mark.clause("F-A6")
@pytest.mark.parametrize(("dice", "score", "threshold"), [(6, 3, 5), (10, 4, 5), (4, 2, 3)])
def test_FA6_the_chance_the_charge_is_stopped_is_exact(dice: int, score: int,
                                                       threshold: int) -> None:
    question = DiceQuestion(id="defensive-fire", text=Msg.of("fow.q.step"),
                            spec=DiceSpec(count=dice, target=score, count_only=True))
    report = assault_odds.defensive_fire(question, threshold=threshold, counting="all")
    p = Fraction(7 - score, 6)
    expected = sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k)
                   for k in range(threshold, dice + 1))
    (stopped, goes_in) = report.end_states
    assert stopped.value == expected and goes_in.value == 1 - expected
    assert report.exact


@pytest.mark.clause("F-X11")
def test_FX11_a_tank_charge_s_stop_is_not_given_a_chance() -> None:
    question = _dice("defensive-fire", whole([A("k1", "tank", top=1)], [D("r1", fires=3)]),
                     {"defensive-fire": [1, 1, 1]})
    report = report_for(question)
    assert not report.end_states
    assert any(n.id == "fow.odds.df.note.tanks" for n in report.notes)


def _brute_round_win(decl: dict[str, Any], hitters: int) -> Fraction:
    """The chance the charging side wins round 1, by playing the assault for every face of
    its dice and every counterattack test die (infantry only: nothing else is rolled)."""
    wins = 0
    for faces in itertools.product(range(1, 7), repeat=hitters):
        for die in range(1, 7):
            result, _ = questions_asked(decl, {"round.1.to-hit": list(faces),
                                               "round.1.motivation": [die]})
            log = result.outcome_data["round_log"]
            won = result.outcome_data["winner"] == "attacker" and len(log) == 1
            wins += won
    return Fraction(wins, 6 ** hitters * 6)


@pytest.mark.clause("F-A17")
@pytest.mark.clause("F-A18")
def test_FA18_the_chance_to_win_the_round_is_the_brute_force_one() -> None:
    decl = whole([A("g1"), A("g2", hits_on=5)],
                 [D("r1", platoon="Red platoon"), D("r2", platoon="Red platoon"),
                  D("r3", platoon="Other")],
                 [P("Grey platoon", "attacker", "veteran"),
                  P("Red platoon", "defender", motivation="reluctant"),
                  P("Other", "defender", motivation="fearless")])
    question = _dice("round.1.to-hit", decl, {"round.1.to-hit": [1, 1]})
    report = report_for(question)
    assert report.exact
    win = next(e.value for e in report.end_states if e.label.id == "fow.odds.round.end.win")
    assert win == _brute_round_win(decl, 2)


@pytest.mark.clause("F-A26")
def test_FA26_the_chance_to_win_counts_the_platoons_an_unarmoured_tank_keeps_back() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1"), D("r2"), D("u1", "tank")])
    question = _dice("round.1.to-hit", decl, {"round.1.to-hit": [1, 1]})
    report = report_for(question)
    assert report.exact
    win = next(e.value for e in report.end_states if e.label.id == "fow.odds.round.end.win")
    assert win == _brute_round_win(decl, 2)
    # the tank out of every charging team's reach: the platoon breaks off whatever the dice
    kept_back = whole([A("g1", reaches=["r1"]), A("g2", reaches=["r2"])],
                      [D("r1"), D("r2"), D("u1", "tank")])
    report = report_for(_dice("round.1.to-hit", kept_back, {"round.1.to-hit": [1, 1]}))
    assert next(e.value for e in report.end_states
                if e.label.id == "fow.odds.round.end.win") == 1


@pytest.mark.clause("F-A20")
def test_FA20_the_counterattack_test_s_odds_count_the_re_roll() -> None:
    question = DiceQuestion(id="round.1.motivation", text=Msg.of("fow.q.step"),
                            spec=DiceSpec(count=1))
    report = assault_odds.motivation(question, ratings=(("A", 4), ("B", 5)), rerolls=("B",))
    ends = _ends(report)
    assert ends["fow.odds.morale.end.passes:A"] == Fraction(1, 2)
    assert ends["fow.odds.morale.end.passes:B"] == 1 - Fraction(4, 6) ** 2
    brute = sum(1 for v in range(1, 7) for w in range(1, 7)
                if v < 4 and v < 5 and w < 5)  # A fails, B fails twice
    assert ends["fow.odds.morale.end.all_fail:"] == Fraction(brute, 36)


@pytest.mark.clause("F-A13")
@pytest.mark.parametrize(("top", "hits", "glancing"), [
    (1, ((2, 1),), "bails-out"), (0, ((2, 1), (3, 4)), "bails-out"),
    (2, ((4, 3), (4, 3), (5, 2)), "as-penetrating")])
def test_FA13_a_vehicle_s_chances_are_the_brute_force_ones(top: int, hits: tuple[tuple[int,
                                                                                       int], ...],
                                                           glancing: str) -> None:
    destroyed = bailed = 0
    for saves in itertools.product(range(1, 7), repeat=len(hits)):
        for tests in itertools.product(range(1, 7), repeat=len(hits)):
            outcomes = [hit_result(save_outcome(s, top, at), f >= fp, glancing)
                        for s, f, (at, fp) in zip(saves, tests, hits, strict=True)]
            result = worst(outcomes)
            destroyed += result == "destroyed"
            bailed += result == "bailed-out"
    total = 36 ** len(hits)
    assert assault_odds.team_chances(top, hits, glancing) == (Fraction(destroyed, total),
                                                              Fraction(bailed, total))


def test_the_round_s_odds_are_lazy_and_the_same_every_time() -> None:
    decl = whole([A("g1"), A("g2"), A("k1", "tank", top=1)], [D("r1"), D("t1", "tank", top=1)])
    question = _dice("round.1.to-hit", decl, {"round.1.to-hit": [1, 1, 1]})
    first, again = report_for(question), report_for(question)
    assert not first.end_states.forced  # worked out when read
    assert tuple(first.end_states) == tuple(again.end_states)
