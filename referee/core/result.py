"""What a resolver returns: a step log, tables of the working, and the final outcome.

The renderer turns these values into rich tables, plain text or JSON; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.core.fates import Fate as Fate  # re-exported: what an attack did to each unit
from referee.core.table import Summary as Summary  # re-exported: tables of results
from referee.core.table import Table as Table  # re-exported: results hold tables
from referee.core.text import Msg, jsonable


class StepKind(StrEnum):
    INPUT = "input"  # a fact of the attack: declared or answered
    MODIFIER = "modifier"  # a modifier applied, and why
    ROLL = "roll"  # dice rolled (typed or by the program)
    OUTCOME = "outcome"  # what a step decided
    NOTE = "note"  # a reminder for the players (something the referee does not adjudicate)
    WARNING = "warning"  # a rule read in a non-obvious way, or a house rule in force


@dataclass(frozen=True)
class Step:
    kind: StepKind
    text: Msg
    clause: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "clause": self.clause, "text": jsonable(self.text),
                "data": jsonable(dict(self.data))}


@dataclass(frozen=True)
class Result:
    ruleset: str
    steps: tuple[Step, ...]
    tables: tuple[Table, ...]
    outcome: Msg
    outcome_data: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    non_default_options: tuple[str, ...] = ()
    state_updates: Mapping[str, Any] = field(default_factory=dict)
    # what the attack did to each unit, by name (``core.fates``): the outcome screen's lines
    fates: tuple[Fate, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset,
                "options": dict(self.options),
                "non_default_options": list(self.non_default_options),
                "steps": [s.to_json() for s in self.steps],
                "tables": [t.to_json() for t in self.tables],
                "outcome": {"text": jsonable(self.outcome),
                            "data": jsonable(dict(self.outcome_data))},
                "fates": [f.to_json() for f in self.fates]}


class StepLog:
    """Collects steps while a resolver works (a small builder; the result is immutable)."""

    def __init__(self) -> None:
        self._steps: list[Step] = []
        self._tables: list[Table] = []
        self._fates: list[Fate] = []

    def add(self, kind: StepKind, text: Msg, clause: str | None = None, **data: Any) -> None:
        self._steps.append(Step(kind, text, clause, data))

    def input(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.INPUT, text, clause, **data)

    def modifier(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.MODIFIER, text, clause, **data)

    def roll(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.ROLL, text, clause, **data)

    def outcome(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.OUTCOME, text, clause, **data)

    def note(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.NOTE, text, clause, **data)

    def warning(self, text: Msg, clause: str | None = None, **data: Any) -> None:
        self.add(StepKind.WARNING, text, clause, **data)

    def table(self, title: Msg, columns: Sequence[Msg], rows: Sequence[Sequence[Any]],
              clause: str | None = None, summary: Summary | None = None) -> None:
        """A table of the working; ``summary``: how it is shown when it is long (one row per
        hit of a very large attack)."""
        self._tables.append(Table(title, tuple(columns), tuple(tuple(r) for r in rows), clause,
                                  summary=summary))

    def fate(self, group: Msg | str, unit: Msg | str | None, *effects: Msg) -> None:
        """What the attack did to ``unit`` of ``group`` (``unit`` ``None``: to the group as a
        whole); no effects: unharmed (``core.fates``)."""
        self._fates.append(Fate(group, unit, effects))

    @property
    def fates(self) -> tuple[Fate, ...]:
        return tuple(self._fates)

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(self._tables)
