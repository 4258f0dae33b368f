"""The seeded fallback: where exact evaluation would take longer than about a second, the
odds are estimated by simulating the rest of the attack, labelled approximate, with a 95 %
interval. The seed comes from a key (the question id), so the same attack shows the same
estimate every time."""

from __future__ import annotations

import math
import random
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind

RUNS = 20_000
"""Runs of a simulation: a chance's 95 % interval is then at most about ±0.7 %."""

EXACT_BUDGET = 200_000
"""Cases (joint outcomes) an exact evaluation may enumerate; beyond it, simulate. Measured on
this project's benchmark machine: about 0.3 s of Fraction arithmetic at this size."""


def rng_for(key: str) -> random.Random:
    return random.Random(zlib.crc32(key.encode("utf-8")))


def simulate(trial: Callable[[random.Random], int], key: str, runs: int = RUNS) -> Dist:
    """The distribution of ``trial``'s outcome over ``runs`` seeded runs."""
    rng = rng_for(key)
    counts = Counter(trial(rng) for _ in range(runs))
    return Dist.from_counts(counts, runs=runs)


def simulate_many(trial: Callable[[random.Random], Sequence[float]], key: str,
                  labels: Sequence[tuple[Msg, Kind]], runs: int = RUNS) -> tuple[EndState, ...]:
    """Several end states from one simulation: ``trial`` returns one number per label (1 or 0
    for a chance, a count for an expected value)."""
    rng = rng_for(key)
    sums = [0.0] * len(labels)
    squares = [0.0] * len(labels)
    for _ in range(runs):
        for i, x in enumerate(trial(rng)):
            sums[i] += x
            squares[i] += x * x
    out = []
    for (label, kind), s, sq in zip(labels, sums, squares, strict=True):
        mean = s / runs
        spread = math.sqrt(max(0.0, sq / runs - mean * mean))
        out.append(EndState(label, Fraction(mean).limit_denominator(runs), kind, runs, spread))
    return tuple(out)
