"""Work counted by the code itself, for regression guards that do not depend on the machine.

A timed test passes or fails with the machine's load; a count does not. Code whose work could
grow out of proportion (a scan of the roster, the states of a dynamic programme, the cases of
an exact walk, the searches of a flow) says how much it did with ``add(kind, amount)``;
outside ``counting()`` that costs one test of a global. A guard runs the largest declaration a
ruleset accepts inside ``counting()`` and checks each kind against a bound polynomial in the
declaration's size, so an accidental exponential (or an extra factor of the size) fails on any
machine. The one counter of every ruleset (the core is below everything that counts); the
kinds, each named after its ruleset:

* ``epic.exact`` cases of hits, ``epic.sets`` survivor sets times the units they allocate to,
  ``epic.simulated`` simulated runs times the units and pools a run steps through (the odds'
  end states: tests/odds/test_odds_work.py);
* ``cc.walk`` points times classes of the Combat Commander walk, ``cc.simulated`` simulated
  runs times the cards a run draws (tests/odds/test_odds_work.py,
  tests/rulesets/cc/test_cc_odds.py);
* ``lnlt.unit-visits``, ``lnlt.adjacency-visits``, ``lnlt.dc-checks``, ``lnlt.dc-states``
  (tests/rulesets/lnlt/test_lnlt_work.py); ``waw.hits-placed``, ``waw.unit-outcomes``
  (tests/rulesets/waw/test_waw_work.py);
* ``fow.searches`` shortest-path searches (Dijkstra, Bellman-Ford rounds), ``fow.arcs`` the
  arcs they scan, ``fow.augmentations`` flow pushes, ``fow.completions`` full completion
  searches of the allocation (tests/rulesets/fow/test_fow_scale.py);
* ``questions`` the questions a script's answers meet (``frontends.answers.AnswerPort``),
  ``lnlt.impulses`` the impulses of an operations phase.

The same counts are a budget (``Budget``): a loop whose length the input decides, and which no
bound of the declaration's size limits, spends from it, and ends with ``OverBudget`` (which
its caller turns into a clear error naming the input) rather than run for ever. Every loop of
a resolver either asks a question each time round (so a script, whose answers are few, is
held by its budget of questions: a script that answers by defaults could otherwise walk a
phase that never ends) or is bounded by the declaration's limits (the work guards).
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


class OverBudget(Exception):
    """A ``Budget``'s ``kind`` went past its limit: the input asked for more work than any
    input of its kind needs (a loop that would not end)."""

    def __init__(self, kind: str, limit: int) -> None:
        super().__init__(f"{kind} > {limit}")
        self.kind = kind
        self.limit = limit


class Budget:
    """The work one run of an input may do, by kind: ``spend`` counts as ``add`` does (the
    same count the guards read) and raises ``OverBudget`` past a kind's limit."""

    def __init__(self, limits: dict[str, int]) -> None:
        self.limits = dict(limits)
        self.spent: Counter[str] = Counter()

    def spend(self, kind: str, amount: int = 1) -> None:
        add(kind, amount)
        self.spent[kind] += amount
        limit = self.limits.get(kind)
        if limit is not None and self.spent[kind] > limit:
            raise OverBudget(kind, limit)
