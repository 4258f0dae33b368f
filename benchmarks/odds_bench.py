"""Shared by the odds benchmark and its per-ruleset case files (``odds_cases_<ruleset>.py``).

A ``Case`` is one step's odds as an attack computes them (``ours``: the full report, end
states included) beside the bare dice-library call for the same query (``bare``). ``typical``
marks the everyday step (up to 30 dice, hit then save), held to 25 ms; every case is held to
250 ms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

TYPICAL_MS = 25.0
ANY_MS = 250.0


@dataclass(frozen=True)
class Case:
    name: str
    typical: bool
    ours: Callable[[], object]
    bare: Callable[[], object]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ours", forcing(self.ours))

    @property
    def target_ms(self) -> float:
        return TYPICAL_MS if self.typical else ANY_MS


def forcing(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn``, then every end state of the report it returns worked out (they are lazy: the
    table shows them all, so a step's cost includes them)."""
    def run() -> object:
        report = fn()
        tuple(getattr(report, "end_states", ()))
        return report
    return run


def median_ms(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
