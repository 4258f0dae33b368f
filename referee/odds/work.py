"""Work counters of the odds (issue 16): the steps of the exact walks and the simulations,
counted by the code that takes them, so that a test can bound the work a declaration costs
(an accidental exponential then fails deterministically, on any machine: nothing is timed).

Each count is in its own step: ``epic.exact`` cases of hits, ``epic.sets`` survivor sets
times the units they allocate to, ``epic.simulated`` simulated runs times the units and
pools a run steps through, ``cc.walk`` points times classes of the Combat Commander walk,
``cc.simulated`` simulated runs times the cards a run draws."""

from __future__ import annotations

from collections import Counter

COUNTS: Counter[str] = Counter()


def add(what: str, steps: int) -> None:
    COUNTS[what] += steps


def reset() -> None:
    COUNTS.clear()
