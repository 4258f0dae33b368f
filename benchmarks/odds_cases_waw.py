"""Odds cases of World at War: the HE mission's attack, terrain defence and random-pick rolls
(W-1 to W-5).

``ours`` is the report the attack shows before the roll (the roll's exact distribution, the
net hits after the terrain dice, each unit's chance to be hit and its end state, the HQ's
chance to roll); ``bare`` is the dyce expression for the same query (for the attack and the
defence: the net hits, attack successes less defence successes, never below zero).
"""

from __future__ import annotations

from dyce import H
from odds_bench import Case

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.rulesets.waw import odds_he


def _question(count: int, sides: int = 6, target: int | None = 5) -> DiceQuestion:
    return DiceQuestion(id="bench", text=Msg.of("odds.value", value=count),
                        spec=DiceSpec(count=count, sides=sides, target=target,
                                      count_only=target is not None))


def _unit(i: int, soft: bool) -> dict[str, object]:
    row = ("disorganize", "weaken", "eliminate") if soft else ("disorganize", "none", "none")
    return {"key": f"u{i}", "name": f"Unit {i}", "soft": soft, "disorganized": False,
            "weakened": False, "first": row[0], "further": row[1], "weakened_again": row[2]}


THREE = [_unit(0, True), _unit(1, False), _unit(2, True)]
FOUR = [*THREE, _unit(3, False)]
THIRTY = [_unit(i, i % 3 != 0) for i in range(30)]  # the most units a declaration allows


def _net(fp: int, hit: int, defence: int) -> object:
    """The net hits in dyce: attack successes less defence successes, floored at zero."""
    return (fp @ H(6).ge(hit) - defence @ H(6).ge(5)).apply(lambda x: max(x, 0))


def _attack(fp: int, hit: int, defence: int, units: list[dict[str, object]],
            spill: bool = False) -> object:
    return odds_he.attack(_question(fp, target=hit), firepower=fp, hit_number=hit,
                          defence=defence, cancel_on=5, units=units, hqs=["HQ"], spill=spill,
                          owner=False)


CASES = [
    Case("waw: attack, 6 dice 5+, 2 defence dice, 3 units + HQ", True,
         lambda: _attack(6, 5, 2, THREE), lambda: _net(6, 5, 2)),
    Case("waw: attack, 30 dice 4+, 3 defence dice, 3 units + HQ", True,
         lambda: _attack(30, 4, 3, THREE), lambda: _net(30, 4, 3)),
    Case("waw: defence, 3 dice against 5 hits, 3 units + HQ", True,
         lambda: odds_he.defence(_question(3), attack_hits=5, dice=3, cancel_on=5,
                                 units=THREE, hqs=["HQ"], spill=False, owner=False),
         lambda: (5 - 3 @ H(6).ge(5)).apply(lambda x: max(x, 0))),
    Case("waw: random pick, d3, round 2 of 5 net hits", True,
         lambda: odds_he.pick(_question(1, 3, None), net=5, round_no=2,
                              left=("u0", "u1", "u2"), chosen=(), to_pick=2, units=THREE,
                              hqs=["HQ"], spill=False),
         lambda: H(3)),
    Case("waw: attack, 40 dice 2+, 10 defence dice, 4 units spill-over (largest)", False,
         lambda: _attack(40, 2, 10, FOUR, spill=True), lambda: _net(40, 2, 10)),
    Case("waw: attack, 40 dice 2+, 10 defence dice, 30 units (largest declaration)", False,
         lambda: _attack(40, 2, 10, THIRTY), lambda: _net(40, 2, 10)),
    Case("waw: random pick, d30, round 2 of 39 net hits, 30 units", False,
         lambda: odds_he.pick(_question(1, 30, None), net=39, round_no=2,
                              left=tuple(f"u{i}" for i in range(30)), chosen=(), to_pick=9,
                              units=THIRTY, hqs=["HQ"], spill=False),
         lambda: H(30)),
]
