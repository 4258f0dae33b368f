"""A finite distribution over whole numbers with exact (``Fraction``) probabilities.

Built from a dyce histogram, from counts, or from closed forms; probabilities always sum to
exactly 1. A distribution estimated by simulation carries its number of runs (``runs``) and
gives an interval for each probability it reports.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

Z_95 = 1.959963984540054  # two-sided 95 % normal quantile (Wilson intervals)


class Dist:
    """Outcome → probability. ``runs`` is ``None`` for an exact distribution."""

    __slots__ = ("_p", "runs")

    def __init__(self, probs: Mapping[int, Fraction], runs: int | None = None) -> None:
        kept = {int(k): Fraction(v) for k, v in sorted(probs.items()) if v}
        if not kept:
            raise ValueError("a distribution needs at least one outcome")
        if sum(kept.values()) != 1:
            raise ValueError(f"probabilities sum to {sum(kept.values())}, not 1")
        if any(v < 0 for v in kept.values()):
            raise ValueError("a probability is negative")
        self._p = kept
        self.runs = runs

    # -- building --------------------------------------------------------------------------
    @classmethod
    def from_counts(cls, counts: Mapping[int, int], runs: int | None = None) -> Dist:
        total = sum(counts.values())
        return cls({k: Fraction(c, total) for k, c in counts.items()}, runs)

    @classmethod
    def from_h(cls, h: Any) -> Dist:
        """From a dyce ``H`` (outcomes that are numbers or booleans; counts are exact)."""
        return cls.from_counts({int(k): int(c) for k, c in h.items()})

    @classmethod
    def point(cls, value: int) -> Dist:
        return cls({value: Fraction(1)})

    @classmethod
    def binomial(cls, n: int, p: Fraction) -> Dist:
        """Successes among ``n`` independent dice that each succeed with chance ``p``."""
        if n == 0 or p == 0:
            return cls.point(0)
        if p == 1:
            return cls.point(n)
        q = 1 - p
        return cls({k: math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)})

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
        """The distribution of an outcome drawn from ``parts`` with the given weights."""
        out: dict[int, Fraction] = {}
        for weight, dist in parts:
            for k, v in dist.items():
                out[k] = out.get(k, Fraction(0)) + weight * v
        return cls(out)

    # -- reading ---------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return self.runs is None

    def items(self) -> Iterator[tuple[int, Fraction]]:
        return iter(self._p.items())

    def outcomes(self) -> tuple[int, ...]:
        return tuple(self._p)

    def __getitem__(self, value: int) -> Fraction:
        return self._p.get(value, Fraction(0))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._p == other._p and self.runs == other.runs

    def __hash__(self) -> int:
        return hash((tuple(self._p.items()), self.runs))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}: {v}" for k, v in self._p.items())
        return f"Dist({{{inner}}}{', runs=' + str(self.runs) if self.runs else ''})"

    @property
    def low(self) -> int:
        return next(iter(self._p))

    @property
    def high(self) -> int:
        return next(reversed(self._p))

    def mean(self) -> Fraction:
        return sum((k * v for k, v in self._p.items()), Fraction(0))

    def at_least(self, value: int) -> Fraction:
        return sum((v for k, v in self._p.items() if k >= value), Fraction(0))

    def at_most(self, value: int) -> Fraction:
        return sum((v for k, v in self._p.items() if k <= value), Fraction(0))

    def percentile(self, value: int) -> Fraction:
        """Mid-rank percentile of ``value`` (0..100): the share of results below it plus half
        the share equal to it, so the middle result of a symmetric roll reads 50."""
        below = self.at_most(value) - self[value]
        return 100 * (below + self[value] / 2)

    def interval(self, p: Fraction) -> tuple[float, float] | None:
        """95 % Wilson interval of a probability read from a simulated distribution."""
        if self.runs is None:
            return None
        return wilson(float(p), self.runs)

    # -- combining -------------------------------------------------------------------------
    def map(self, f: Callable[[int], int]) -> Dist:
        out: dict[int, Fraction] = {}
        for k, v in self._p.items():
            key = f(k)
            out[key] = out.get(key, Fraction(0)) + v
        return Dist(out, self.runs)

    def then(self, f: Callable[[int], Dist]) -> Dist:
        """Each outcome ``k`` followed by the distribution ``f(k)`` (a two-stage roll)."""
        return Dist.mixture((v, f(k)) for k, v in self._p.items())

    def __add__(self, other: Dist) -> Dist:
        """The sum of two independent outcomes."""
        out: dict[int, Fraction] = {}
        for a, pa in self._p.items():
            for b, pb in other._p.items():
                out[a + b] = out.get(a + b, Fraction(0)) + pa * pb
        return Dist(out)


def wilson(p: float, n: int, z: float = Z_95) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
