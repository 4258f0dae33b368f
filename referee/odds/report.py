"""What the odds of one dice question say: the roll's distribution, the end states of the
attack that follow from it (where the rest of the attack is known), and how lucky a roll was.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.text import Msg
from referee.odds.dist import Dist, wilson


class Kind(StrEnum):
    CHANCE = "chance"  # a probability (shown as a percentage)
    EXPECTED = "expected"  # an expected count (shown as a number)


@dataclass(frozen=True)
class EndState:
    """One end state of the attack: a chance (``Kind.CHANCE``) or an expected count.
    ``runs`` is set when it was estimated by a seeded simulation; ``spread`` is then the
    standard deviation of one run (for the interval of an expected count)."""

    label: Msg
    value: Fraction
    kind: Kind = Kind.CHANCE
    runs: int | None = None
    spread: float | None = None

    @property
    def exact(self) -> bool:
        return self.runs is None

    def interval(self) -> tuple[float, float] | None:
        if self.runs is None:
            return None
        if self.kind is Kind.CHANCE:
            return wilson(float(self.value), self.runs)
        half = 1.959963984540054 * (self.spread or 0.0) / math.sqrt(self.runs)
        return float(self.value) - half, float(self.value) + half


class LazyEndStates(Sequence[EndState]):
    """End states worked out only when they are read: their labels (and so how many there
    are) are known at once, their values at the first read. A scripted run shows the end
    states only where a roll first predicts them, so the later rolls of an attack never pay
    for theirs; the table, ``--json`` and ``referee odds`` read them all.

    ``compute`` must give one state per label, in order. A fault in it never stops the run:
    the states are then none and ``failed`` names the fault (with ``REFEREE_STRICT_ODDS``
    set, the fault itself is raised, as ``OddsPort`` does)."""

    def __init__(self, labels: Sequence[Msg], compute: Callable[[], Sequence[EndState]]
                 ) -> None:
        self._labels = tuple(labels)
        self._compute: Callable[[], Sequence[EndState]] | None = compute
        self._states: tuple[EndState, ...] | None = None
        self.failed: str | None = None

    @property
    def labels(self) -> tuple[Msg, ...]:
        return self._labels

    @property
    def forced(self) -> bool:
        """Whether the values have been worked out (for tests of the laziness)."""
        return self._states is not None

    def _force(self) -> tuple[EndState, ...]:
        if self._states is None:
            assert self._compute is not None
            try:
                states = tuple(self._compute())
                assert tuple(s.label for s in states) == self._labels, "labels changed"
            except Exception as err:
                if os.environ.get("REFEREE_STRICT_ODDS"):
                    raise
                states, self.failed = (), type(err).__name__
            self._states, self._compute = states, None
        return self._states

    def __len__(self) -> int:
        return len(self._force()) if self.failed else len(self._labels)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index: Any) -> Any:
        return self._force()[index]

    def __iter__(self) -> Iterator[EndState]:
        return iter(self._force())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._labels)

    def __repr__(self) -> str:
        return f"LazyEndStates({self._states if self._states is not None else self._labels})"


def end_labels(states: Sequence[EndState]) -> tuple[Msg, ...]:
    """The labels of ``states``, without working out lazy values."""
    if isinstance(states, LazyEndStates):
        return states.labels
    return tuple(s.label for s in states)


def successes(roll: DiceRoll) -> int:
    return roll.successes


def total(roll: DiceRoll) -> int:
    return sum(roll.faces) if roll.faces is not None else roll.successes


@dataclass(frozen=True)
class OddsReport:
    """The odds shown before a dice question.

    ``dist`` is the distribution of the roll's outcome (``unit`` says what it counts);
    ``measure`` reads that outcome from an actual roll, for its percentile; ``labels`` name
    outcomes that are not counts (a direction, a card's trigger); ``end_states`` are the
    odds of how the attack ends (a ``LazyEndStates`` where they cost more than the roll's
    own odds); ``notes`` say what the odds assume.
    """

    title: Msg
    unit: Msg
    dist: Dist
    measure: Callable[[DiceRoll], int] = successes
    end_states: Sequence[EndState] = ()
    labels: Mapping[int, Msg] = field(default_factory=dict)
    notes: tuple[Msg, ...] = ()

    @property
    def exact(self) -> bool:
        return self.dist.exact and all(e.exact for e in self.end_states)

    @property
    def end_labels(self) -> tuple[Msg, ...]:
        """The end states' labels, without working out lazy values."""
        return end_labels(self.end_states)


@dataclass(frozen=True)
class RollOdds:
    """A dice question's odds with the roll that followed (``actual`` is ``None`` when the
    odds were computed without rolling)."""

    question: str
    clause: str | None
    report: OddsReport
    actual: int | None = None

    @property
    def percentile(self) -> Fraction | None:
        return None if self.actual is None else self.report.dist.percentile(self.actual)


def first_predictions(rolls: Sequence[RollOdds]) -> list[bool]:
    """For each roll, whether it first predicts the end states it has: one of them is new
    (a new attack, a new fire). At a later roll of the same attack they are the same
    prediction updated: a scripted run shows them (and a result's JSON gives them) only
    where they are first predicted, unless every roll's are asked for (``--odds full``).
    Lazy end states stay unworked here."""
    out = []
    seen: set[Msg] = set()  # end states of the attack under way
    for roll in rolls:
        labels = set(roll.report.end_labels)
        fresh = bool(labels - seen)
        out.append(fresh)
        if fresh:
            seen = labels
    return out
