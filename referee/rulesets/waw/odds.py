"""Exact odds of an HE mission (W-1, W-2): the distribution of net hits, as fractions."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes) for k = 0..n."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def success_chance(target: int, sides: int = 6) -> Fraction:
    """One die of ``target`` or more."""
    return Fraction(max(0, min(sides, sides + 1 - target)), sides)


def net_hit_distribution(firepower: int, hit_number: int, defence: int,
                         cancel_on: int) -> list[Fraction]:
    """P(net hits = k) for k = 0..firepower: attack hits less cancels, never below zero."""
    attack = binomial(firepower, success_chance(hit_number))
    cancels = binomial(defence, success_chance(cancel_on))
    out = [Fraction(0)] * (firepower + 1)
    for a, pa in enumerate(attack):
        for c, pc in enumerate(cancels):
            out[max(a - c, 0)] += pa * pc
    return out
