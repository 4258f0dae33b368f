"""A finite distribution over whole numbers with exact (``Fraction``) probabilities.

Built from counts or from closed forms (a die, a binomial, a sum, a mixture); probabilities
always sum to exactly 1. A distribution estimated by simulation carries its number of runs
(``runs``) and gives an interval for each probability it reports.

Kept rather than a dice library's histogram (issue 25, item 3): dyce's ``H`` holds the same
integer counts, but on the odds' real workloads it was no faster (``benchmarks/
dist_vs_dyce.py``), it cannot carry an estimate's runs or give an exact mean, and loading it
cost a first roll's odds about a quarter of a second.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction

Z_95 = 1.959963984540054  # two-sided 95 % normal quantile (Wilson intervals)


class Dist:
    """Outcome → probability. ``runs`` is ``None`` for an exact distribution.

    Held as whole-number weights over one common total (in lowest terms), so that sums over
    thousands of outcomes are integer sums, not Fraction sums."""

    __slots__ = ("_c", "_total", "runs")

    def __init__(self, probs: Mapping[int, Fraction], runs: int | None = None) -> None:
        kept = {int(k): Fraction(v) for k, v in probs.items() if v}
        if not kept:
            raise ValueError("a distribution needs at least one outcome")
        if any(v < 0 for v in kept.values()):
            raise ValueError("a probability is negative")
        total = math.lcm(*(v.denominator for v in kept.values()))
        counts = {k: v.numerator * (total // v.denominator) for k, v in kept.items()}
        if sum(counts.values()) != total:
            raise ValueError(f"probabilities sum to {Fraction(sum(counts.values()), total)}, "
                             "not 1")
        self._set(counts, total, runs)

    def _set(self, counts: Mapping[int, int], total: int, runs: int | None) -> None:
        common = math.gcd(total, *counts.values())
        self._c = {k: c // common for k, c in sorted(counts.items()) if c}
        self._total = total // common
        self.runs = runs

    # -- building --------------------------------------------------------------------------
    @classmethod
    def from_counts(cls, counts: Mapping[int, int], runs: int | None = None) -> Dist:
        """Outcomes weighted by whole-number counts (their share of the counts' total)."""
        if any(c < 0 for c in counts.values()):
            raise ValueError("a count is negative")
        total = sum(counts.values())
        if total <= 0:
            raise ValueError("a distribution needs at least one outcome")
        out = cls.__new__(cls)
        out._set({int(k): int(c) for k, c in counts.items()}, total, runs)
        return out

    @classmethod
    def point(cls, value: int) -> Dist:
        return cls.from_counts({value: 1})

    @classmethod
    def die(cls, sides: int) -> Dist:
        """One die of ``sides`` sides: each face from 1 alike."""
        return cls.from_counts(dict.fromkeys(range(1, sides + 1), 1))

    @classmethod
    def binomial(cls, n: int, p: Fraction) -> Dist:
        """Successes among ``n`` independent dice that each succeed with chance ``p``."""
        if n == 0 or p == 0:
            return cls.point(0)
        if p == 1:
            return cls.point(n)
        # integer counts over a common denominator: exact, and fast for thousands of dice
        good, bad = p.numerator, p.denominator - p.numerator
        counts, comb = {}, 1
        powers = [1] * (n + 1)  # bad ** (n - k), built from the top
        for k in range(n - 1, -1, -1):
            powers[k] = powers[k + 1] * bad
        weight = 1  # good ** k
        for k in range(n + 1):
            counts[k] = comb * weight * powers[k]
            comb = comb * (n - k) // (k + 1)
            weight *= good
        return cls.from_counts(counts)

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
        """The distribution of an outcome drawn from ``parts`` with the given weights."""
        parts = [(Fraction(w), d) for w, d in parts if w]
        if not parts:
            raise ValueError("a distribution needs at least one outcome")
        total = math.lcm(*(w.denominator * d._total for w, d in parts))
        counts: dict[int, int] = {}
        for w, d in parts:
            scale = w.numerator * (total // (w.denominator * d._total))
            for k, c in d._c.items():
                counts[k] = counts.get(k, 0) + c * scale
        if sum(counts.values()) != total:
            raise ValueError("mixture weights do not sum to 1")
        out = cls.__new__(cls)
        out._set(counts, total, _runs(*(d for _, d in parts)))
        return out

    # -- reading ---------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return self.runs is None

    def items(self) -> Iterator[tuple[int, Fraction]]:
        return ((k, Fraction(c, self._total)) for k, c in self._c.items())

    def counts(self) -> tuple[dict[int, int], int]:
        """The whole-number weights and their total (for fast exact arithmetic)."""
        return dict(self._c), self._total

    def outcomes(self) -> tuple[int, ...]:
        return tuple(self._c)

    def floats(self) -> list[float]:
        """The chances as floats, in outcome order (for display choices only)."""
        return [c / self._total for c in self._c.values()]

    def __getitem__(self, value: int) -> Fraction:
        return Fraction(self._c.get(value, 0), self._total)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Dist) and self._c == other._c
                and self._total == other._total and self.runs == other.runs)

    def __hash__(self) -> int:
        return hash((tuple(self._c.items()), self._total, self.runs))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}: {v}" for k, v in self.items())
        return f"Dist({{{inner}}}{', runs=' + str(self.runs) if self.runs else ''})"

    @property
    def low(self) -> int:
        return next(iter(self._c))

    @property
    def high(self) -> int:
        return next(reversed(self._c))

    def mean(self) -> Fraction:
        return Fraction(sum(k * c for k, c in self._c.items()), self._total)

    def at_least(self, value: int) -> Fraction:
        return Fraction(sum(c for k, c in self._c.items() if k >= value), self._total)

    def at_most(self, value: int) -> Fraction:
        return Fraction(sum(c for k, c in self._c.items() if k <= value), self._total)

    def percentile(self, value: int) -> Fraction:
        """Mid-rank percentile of ``value`` (0..100): the share of results below it plus half
        the share equal to it, so the middle result of a symmetric roll reads 50."""
        below = sum(c for k, c in self._c.items() if k < value)
        return Fraction(100 * (2 * below + self._c.get(value, 0)), 2 * self._total)

    def interval(self, p: Fraction) -> tuple[float, float] | None:
        """95 % Wilson interval of a probability read from a simulated distribution."""
        if self.runs is None:
            return None
        return wilson(float(p), self.runs)

    # -- combining -------------------------------------------------------------------------
    def map(self, f: Callable[[int], int]) -> Dist:
        counts: dict[int, int] = {}
        for k, c in self._c.items():
            key = f(k)
            counts[key] = counts.get(key, 0) + c
        out = Dist.__new__(Dist)
        out._set(counts, self._total, self.runs)
        return out

    def then(self, f: Callable[[int], Dist]) -> Dist:
        """Each outcome ``k`` followed by the distribution ``f(k)`` (a two-stage roll)."""
        return Dist.mixture((v, f(k)) for k, v in self.items())

    def sum_of(self, n: int) -> Dist:
        """The total of ``n`` independent outcomes of this distribution (0 for none):
        doubled and added by the bits of ``n``, so ``log n`` sums, not ``n``."""
        if n < 0:
            raise ValueError("a count of rolls is negative")
        total, power = Dist.point(0), self
        while n:
            if n & 1:
                total = total + power
            n >>= 1
            if n:
                power = power + power
        return total

    def __add__(self, other: Dist) -> Dist:
        """The sum of two independent outcomes."""
        counts: dict[int, int] = {}
        for a, ca in self._c.items():
            for b, cb in other._c.items():
                counts[a + b] = counts.get(a + b, 0) + ca * cb
        out = Dist.__new__(Dist)
        out._set(counts, self._total * other._total, _runs(self, other))
        return out


def _runs(*parts: Dist) -> int | None:
    """A result built from estimates is an estimate: it keeps the fewest runs among them
    (its interval is then no narrower than theirs); from exact parts only, ``None``."""
    runs = [d.runs for d in parts if d.runs is not None]
    return min(runs) if runs else None


def wilson(p: float, n: int, z: float = Z_95) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
