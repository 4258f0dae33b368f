"""Regression guard of the odds' cost (issue 16): the largest declarations of Epic Armageddon
and Combat Commander run end to end, every roll's end states worked out (as ``--json`` and
the table show them), within the work the odds code counts itself (``referee.odds.work``).
Nothing here is timed: an accidental exponential (a walk over every subset of 60 units, a
simulation per card) fails on any machine, deterministically.

The bounds are the budgets the odds code decides by, per roll, so a roll that ignored its
budget fails too; the figures measured when the bounds were set are in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee import api
from referee.frontends.answers import AnswerPort
from referee.frontends.odds import OddsPort
from referee.odds import work


def _run(ruleset: str, declaration: dict[str, Any], options: tuple[str, ...] = (),
         seed: int = 1) -> list[dict[str, int]]:
    """Play the attack with seeded dice and every default; each roll's work, its end
    states worked out in the order of the rolls."""
    plan = api.plan_attack(ruleset, seed=seed, declaration=declaration, options=list(options))
    port = OddsPort(AnswerPort({}, plan.dice, roll_missing_dice=True, use_defaults=True), None)
    work.reset()
    api.play(plan, port)
    per_roll = []
    for record in port.records:
        work.reset()
        assert len(tuple(record.report.end_states)) == len(record.report.end_labels)
        per_roll.append(dict(work.COUNTS))
    return per_roll


def _epic_unit(i: int) -> dict[str, Any]:
    return {"name": f"Unit {i}", "type": "INF", "armour": 4 + i % 3, "distance": 10 + i,
            "in_range": True, "terrain": "open", "reinforced": i % 5 == 0,
            "invulnerable": i % 7 == 0}


EPIC_LARGEST = {
    "firing": "Grey Company (invented)", "target": "Red Hill Battery (invented)",
    "firing_blast_markers": 0, "target_blast_markers": 1, "crossfire": 1,
    "weapons": [*({"name": f"Gun {i}", "shots": 200, "ap": 3 + i % 3} for i in range(29)),
                {"name": "Volcano gun", "shots": 200, "at": 4, "macro": True}],
    "target_units": [_epic_unit(i) for i in range(60)]}


@pytest.mark.clause("E-12")
def test_the_largest_epic_declaration_stays_within_its_work_at_every_roll() -> None:
    """30 weapons of 200 dice (the last a macro-weapon) at 60 units, crossfire, re-rolls and
    invulnerable saves: 87 rolls. Each roll works exactly within ``EXACT_PHASE_WORK`` (the
    survivor sets of the macro-weapon phase times the units they allocate to) or simulates
    within ``SIM_RUNS`` runs of one step per unit and pool (the exact shots path, 2^60 unit
    fates, is never taken here). Measured when set: 8.65 million steps in all, the largest
    roll 225,280 (an exact save with 2^11 survivor sets, at the budget)."""
    from referee.rulesets.epic import odds_rest as odds

    units, pools = 60, 30
    per_roll_cap = max(odds.EXACT_PHASE_WORK, odds.SIM_RUNS * (units + pools))
    rolls = _run("epic", EPIC_LARGEST)
    assert len(rolls) > 60  # every to-hit roll and the saves
    for i, counts in enumerate(rolls):
        assert sum(counts.values()) <= per_roll_cap, (i, counts)
        assert counts.get("epic.exact", 0) <= odds.EXACT_CASES, (i, counts)
    assert sum(sum(c.values()) for c in rolls) <= len(rolls) * per_roll_cap


def _leader(i: int, command: int) -> dict[str, Any]:
    return {"name": f"Sgt {i}", "kind": "leader", "morale": 7 + i % 3, "broken_morale": 6,
            "command": command, "suppressed": i % 4 == 3}


def _cc(firing: dict[str, Any], commands: list[int]) -> dict[str, Any]:
    return {"attacker": "germany", "defender": "america", "target_hex": "N6",
            "firing": [firing], "target": [_leader(i, c) for i, c in enumerate(commands)]}


RIFLES = {"name": "Rifle squad", "hex": "K9", "fp": 12, "range": 6, "distance": 2}
MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "K9", "fp": 6,
          "range": 12, "distance": 3}


@pytest.mark.clause("C-12")
@pytest.mark.parametrize(("firing", "commands", "options"), [
    (RIFLES, [1 + i % 3 for i in range(12)], ()),
    (RIFLES, [5, 3, 5, 4, 2, 5, 1, 4, 5, 3, 2, 4], ("command-from=sum",)),
    (MORTAR, [5, 3, 5, 4, 2, 5, 1, 4, 5, 3, 2, 4], ("defence-deck=attacker",)),
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
    rolls = _run("cc", _cc(firing, commands), options)
    assert len(rolls) >= len(commands) + 1  # the fire roll and every defence roll
    for i, counts in enumerate(rolls):
        assert sum(counts.values()) <= per_roll_cap, (i, counts)
