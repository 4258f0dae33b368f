"""Combat Commander fire arithmetic as pure functions (C-1, C-3, C-5, C-8, C-9).

No questions and no messages here: numbers in, numbers and outcomes out, so that the odds
tables, the resolver and the property tests share one reading of each rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction

PAIRS = tuple(itertools.product(range(1, 7), repeat=2))


def targeting_hits(product: int, hindrance: int, distance: int) -> bool:
    """C-1: the product of the two dice, less the hindrance, must exceed the range."""
    return product - hindrance > distance


def targeting_chance(distance: int, hindrance: int = 0) -> tuple[int, int | None]:
    """C-1 odds: how many of the 36 ordered pairs hit, and the smallest product that hits
    (``None``: none does)."""
    hitting = [a * b for a, b in PAIRS if targeting_hits(a * b, hindrance, distance)]
    return len(hitting), (min(hitting) if hitting else None)


def group_fp(base_fp: int, members: int) -> int:
    """C-8: the base piece's FP plus one for each other piece of the group."""
    return base_fp + (members - 1)


def largest_hindrance(hindrances: Sequence[int]) -> int:
    """C-9: the single largest hindrance over the members' lines of sight, applied once."""
    return max(hindrances, default=0)


def highest_command(commands: Sequence[int], how: str = "highest") -> int:
    """The Command a hex gives ([UNVERIFIED] option ``command-from``)."""
    if not commands:
        return 0
    return sum(commands) if how == "sum" else max(commands)


def printed_morale(morale: int, broken_morale: int | None, broken: bool) -> int:
    """C-4: the Morale on the unit's current side (the broken side's when it has one)."""
    return broken_morale if broken and broken_morale is not None else morale


def command_in_hex(leaders: Sequence[tuple[str, int, bool]], unit_key: str, *,
                   self_counts: bool, how: str = "highest") -> int:
    """C-12, C-14: the Command the target hex gives ``unit_key`` now, from its leaders as
    (key, printed Command, broken); a broken leader gives none."""
    return highest_command([command for key, command, broken in leaders
                            if not broken and (key != unit_key or self_counts)], how)


def defence_morale(printed: int, cover: int, command: int, suppressed: bool) -> int:
    """C-4, C-14: Morale for a defence roll: cover and Command added, Suppressed -1."""
    return printed + cover + command - (1 if suppressed else 0)


class Result(StrEnum):
    NO_EFFECT = "no-effect"
    SUPPRESSED = "suppressed"
    BROKEN = "broken"
    ELIMINATED = "eliminated"


def defence_result(attack_total: int, defence_total: int, *, moving: bool, broken: bool,
                   suppressed: bool, suppressed_tie: str = "stays-suppressed") -> Result:
    """C-5: one unit's result from its totals and its state only.

    Below the attack: broken (a broken unit broken again is eliminated). A tie breaks a unit
    activated for Move and suppresses any other (C-X4: a suppressed unit's tie, per option).
    Above the attack: no effect.
    """
    if defence_total > attack_total:
        return Result.NO_EFFECT
    breaks = defence_total < attack_total or moving
    if not breaks and suppressed and suppressed_tie == "breaks":
        breaks = True
    if not breaks:
        return Result.SUPPRESSED
    return Result.ELIMINATED if broken else Result.BROKEN


def fire_odds(difference: int) -> tuple[Fraction, Fraction]:
    """P(attack beats defence) and P(tie) for attack FP minus defence Morale ``difference``,
    with independent 2d6 for both rolls (a full deck holds every pair equally often)."""
    beats = ties = 0
    for a, b in PAIRS:
        for c, d in PAIRS:
            margin = difference + a + b - (c + d)
            beats += margin > 0
            ties += margin == 0
    return Fraction(beats, 1296), Fraction(ties, 1296)
