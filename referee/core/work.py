"""Work counted by the code itself, for regression guards that do not depend on the machine.

A timed test passes or fails with the machine's load; a count does not. Code whose work could
grow out of proportion (a scan of the roster, the states of a dynamic programme, the hits
spread over a hex) says how much it did with ``add(kind, amount)``; outside ``counting()``
that costs one test of a global. A guard runs the largest declaration a ruleset accepts
inside ``counting()`` and checks each kind against a bound polynomial in the declaration's
size, so an accidental exponential (or an extra factor of the size) fails on any machine
(tests/test_lnlt_work.py, tests/test_waw_work.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

_tally: Counter[str] | None = None


def add(kind: str, amount: int = 1) -> None:
    """Count ``amount`` operations of ``kind`` (``"lnlt.unit-visits"``...), if counting."""
    if _tally is not None:
        _tally[kind] += amount


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """The operations counted inside the block, by kind (also added to an outer count)."""
    global _tally
    outer = _tally
    _tally = tally = Counter[str]()
    try:
        yield tally
    finally:
        _tally = outer
        if outer is not None:
            outer.update(tally)
