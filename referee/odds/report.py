"""What the odds of one dice question say: the roll's distribution, the end states of the
attack that follow from it (where the rest of the attack is known), and how lucky a roll was.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.text import Msg, jsonable
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

    def to_json(self, text: Callable[[Msg], Any] = jsonable) -> dict[str, Any]:
        return {"label": text(self.label), "kind": self.kind.value,
                "value": str(self.value), "value_float": round(float(self.value), 6),
                "exact": self.exact, "runs": self.runs, "interval": self.interval()}


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
    odds of how the attack ends; ``notes`` say what the odds assume.
    """

    title: Msg
    unit: Msg
    dist: Dist
    measure: Callable[[DiceRoll], int] = successes
    end_states: tuple[EndState, ...] = ()
    labels: Mapping[int, Msg] = field(default_factory=dict)
    notes: tuple[Msg, ...] = ()

    @property
    def exact(self) -> bool:
        return self.dist.exact and all(e.exact for e in self.end_states)

    def to_json(self, text: Callable[[Msg], Any] = jsonable) -> dict[str, Any]:
        return {"title": text(self.title), "unit": text(self.unit),
                "exact": self.exact, "distribution_exact": self.dist.exact,
                "runs": self.dist.runs,
                "mean": str(self.dist.mean()), "mean_float": round(float(self.dist.mean()), 6),
                "distribution": [{"value": k,
                                  "label": text(self.labels[k]) if k in self.labels else None,
                                  "p": str(v), "p_float": round(float(v), 6),
                                  "at_least": round(float(self.dist.at_least(k)), 6)}
                                 for k, v in self.dist.items()],
                "end_states": [e.to_json(text) for e in self.end_states],
                "notes": [text(n) for n in self.notes]}


@dataclass(frozen=True)
class OddsRecord:
    """A dice question's odds with the roll that followed (``actual`` is ``None`` when the
    odds were computed without rolling)."""

    question: str
    clause: str | None
    report: OddsReport
    actual: int | None = None

    @property
    def percentile(self) -> Fraction | None:
        return None if self.actual is None else self.report.dist.percentile(self.actual)

    def to_json(self, text: Callable[[Msg], Any] = jsonable) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question, "clause": self.clause,
                               **self.report.to_json(text)}
        if self.actual is not None:
            pct = self.percentile
            assert pct is not None
            out["actual"] = {"value": self.actual, "percentile": round(float(pct), 2),
                             "at_least": round(float(self.report.dist.at_least(self.actual)), 6),
                             "at_most": round(float(self.report.dist.at_most(self.actual)), 6)}
        return out
