"""Epic Armageddon to-hit arithmetic (clauses E-8 and E-9), as pure functions.

The modified roll must reach the weapon's to-hit value; a modifier of -1 therefore raises the
number needed by one. An unmodified 1 always misses. Needs above 6 use the two-stage 7+ chart.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from referee.rulesets.epic.tables import EpicTables, tables


class HitPlan(NamedTuple):
    """How a shot needing ``need`` is rolled.

    ``direct``: one die, hit on ``target``+ (never on the natural fail face).
    ``two_stage``: roll ``target`` (a 6) first, then ``then``+ on a second die.
    ``impossible``: no dice are rolled.
    """

    need: int
    mode: str
    target: int | None = None
    then: int | None = None

    @property
    def chance(self) -> Fraction:
        if self.mode == "impossible":
            return Fraction(0)
        assert self.target is not None
        first = Fraction(7 - self.target, 6)
        if self.mode == "direct":
            return first
        assert self.then is not None
        return first * Fraction(7 - self.then, 6)


def required_roll(to_hit: int, modifier: int) -> int:
    """The face needed after modifiers: a -1 modifier to the roll needs one more (E-8)."""
    return to_hit - modifier


def hit_plan(need: int, t: EpicTables | None = None) -> HitPlan:
    """How to roll for a shot needing ``need`` (E-8 natural 1, E-9 chart)."""
    t = t or tables()
    if need >= t.impossible_from:
        return HitPlan(need, "impossible")
    row = t.seven_plus_row(need)
    if row is not None:
        return HitPlan(need, "two_stage", row.first, row.then)
    # a need of 1 or less still misses on a natural 1 (E-8)
    return HitPlan(need, "direct", max(need, t.natural_fail + 1))


def is_hit(need: int, first_face: int, second_face: int | None = None) -> bool:
    """Does a shot needing ``need`` hit with these faces (``second_face`` for 7+ rolls)?"""
    plan = hit_plan(need)
    if plan.mode == "impossible" or first_face == tables().natural_fail:
        return False
    assert plan.target is not None
    if first_face < plan.target:
        return False
    if plan.mode == "direct":
        return True
    assert plan.then is not None
    return second_face is not None and second_face >= plan.then
