"""Regression guard of the odds' cost (issue 16): the largest declarations of Epic Armageddon
and Combat Commander run end to end, every roll's end states worked out (as ``--json`` and
the table show them), within the work the odds code counts itself (``referee.core.work``).
Nothing here is timed: an accidental exponential (a walk over every subset of 60 units, a
simulation per card) fails on any machine, deterministically.

The bounds are the budgets the odds code decides by, per roll, so a roll that ignored its
budget fails too; the figures measured when the bounds were set are in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee import api
from referee.core import work
from referee.frontends.answers import AnswerPort
from referee.frontends.odds import OddsPort
from tests.support.work import builders


def _run(ruleset: str, declaration: dict[str, Any], options: tuple[str, ...] = (),
         seed: int = 1) -> list[dict[str, int]]:
    """Play the attack with seeded dice and every default; each roll's work, its end
    states worked out in the order of the rolls."""
    plan = api.plan_attack(ruleset, seed=seed, declaration=declaration, options=list(options))
    port = OddsPort(AnswerPort({}, plan.dice, roll_missing_dice=True, use_defaults=True), None)
    api.play(plan, port)
    per_roll = []
    for record in port.rolls:
        with work.counting() as count:
            assert len(tuple(record.report.end_states)) == len(record.report.end_labels)
        per_roll.append(dict(count))
    return per_roll


@pytest.mark.clause("E-12")
def test_the_largest_epic_declaration_stays_within_its_work_at_every_roll() -> None:
    """30 weapons of 200 dice (the last a macro-weapon) at 60 units, crossfire, re-rolls and
    invulnerable saves: 87 rolls. Each roll works exactly within ``EXACT_PHASE_WORK`` (the
    survivor sets of the macro-weapon phase times the units they allocate to) or simulates
    within ``SIM_RUNS`` runs of one step per unit and pool (the exact shots path, 2^60 unit
    fates, is never taken here). Measured when set: 8.65 million steps in all, the largest
    roll 225,280 (an exact save with 2^11 survivor sets, at the budget)."""
    from referee.rulesets.epic import odds_rest

    units, pools = 60, 30
    per_roll_cap = max(odds_rest.EXACT_PHASE_WORK, odds_rest.SIM_RUNS * (units + pools))
    rolls = _run("epic", builders.epic_largest())
    assert len(rolls) > 60  # every to-hit roll and the saves
    for i, counts in enumerate(rolls):
        assert sum(counts.values()) <= per_roll_cap, (i, counts)
        assert counts.get("epic.exact", 0) <= odds_rest.EXACT_CASES, (i, counts)
    assert sum(sum(c.values()) for c in rolls) <= len(rolls) * per_roll_cap


@pytest.mark.clause("C-12")
@pytest.mark.parametrize(("firing", "commands", "options"), [
    (builders.CC_RIFLES, [1 + i % 3 for i in range(12)], ()),
    (builders.CC_RIFLES, [5, 3, 5, 4, 2, 5, 1, 4, 5, 3, 2, 4], ("command-from=sum",)),
    (builders.CC_MORTAR, [5, 3, 5, 4, 2, 5, 1, 4, 5, 3, 2, 4], ("defence-deck=attacker",)),
], ids=["12-leaders", "12-leaders-sum", "mortar-one-deck"])
def test_the_largest_cc_declaration_stays_within_its_work_at_every_roll(
        firing: dict[str, Any], commands: list[int], options: tuple[str, ...]) -> None:
    """Twelve leaders in the target hex (the declaration's limit), the ordnance targeting
    roll and the same deck for every card: each roll's walk stops at ``EXACT_WORK`` steps
    (one more point at most: eleven classes) and simulates the rest in at most
    ``MIN_RUNS`` runs of one card per unit and attacker's card, or ``SIMULATION_CARDS``.
    A defence roll finds its walk kept from the roll before once a walk reached every unit.
    Measured when set, per roll: 51,003 (fire: 25,003 walked, 26,000 simulated), 13,154
    (the first defence roll: every unit exact), then 0; with Command summed, 391 then 0;
    the mortar: 53,006, 51,001, 12, then 0."""
    from referee.rulesets.cc import odds, odds_walk

    odds_walk.fresh()
    cards = 2 + len(commands)  # the targeting and fire cards, a defence card a unit
    simulation = max(odds.SIMULATION_CARDS, odds.MIN_RUNS * cards)
    per_roll_cap = odds.EXACT_WORK + 11 + simulation
    rolls = _run("cc", builders.cc_leaders(firing, commands), options)
    assert len(rolls) >= len(commands) + 1  # the fire roll and every defence roll
    for i, counts in enumerate(rolls):
        assert sum(counts.values()) <= per_roll_cap, (i, counts)
