"""Charts typed once (issue 27): the results the players read off a chart the referee does not
print (decision 3: tables that are not public are asked, never invented), kept for the game.

A chart answers the same for the same reading: a World at War soft unit's first HE hit does
what the players' chart says whichever unit takes it; a Lock 'n Load Damage Check reads the
unit's kind, its morale and the total. So a resolver asks a chart question through
``Charts.ask`` with the key of what the chart reads (``ChartKey``: the chart, its row, the
column or die it reads): the first time it is asked of the player; after that, in the same
attack (identical units, one question) and in every later entry of the game (the answers are
kept in the ruleset's state, ``charts``), it is answered from what was entered, and the
resolver says so ("from your chart, entered at #3").

Pure and deterministic: the kept answers come in with the state the attack starts from and go
out in its ``state_updates``, so that undo puts them back, the log's chain covers them, and
``game verify`` replays an entry to the same answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.port import Port
from referee.core.questions import Question
from referee.core.text import Msg

STATE_KEY = "charts"


@dataclass(frozen=True, order=True)
class ChartKey:
    """What a chart reads: the chart's id (``waw.he-effect``), its row (``soft``, a unit's
    kind and morale) and the column or die it reads (``first``, a Damage Check total)."""

    chart: str
    row: str
    column: str

    def text(self) -> str:
        return " ".join((self.chart, self.row, self.column))


@dataclass(frozen=True)
class Kept:
    """An answer read off the players' chart: its script form and the game entry it was
    entered at (``None``: outside a game, or in this very attack)."""

    answer: Any
    at: int | None


@dataclass(frozen=True)
class ChartAnswer:
    """What ``Charts.ask`` found: the value, and where it came from (``None``: the player
    answered now; else the message a resolver writes in its working)."""

    value: Any
    source: Msg | None = None


def kept_charts(state: Mapping[str, Any]) -> dict[ChartKey, Kept]:
    """The chart answers a ruleset's state keeps, by key."""
    out: dict[ChartKey, Kept] = {}
    for row in state.get(STATE_KEY, ()) or ():
        key = ChartKey(str(row["chart"]), str(row["row"]), str(row["column"]))
        at = row.get("at")
        out[key] = Kept(row["answer"], at if isinstance(at, int) else None)
    return out


def as_state(charts: Mapping[ChartKey, Kept]) -> list[dict[str, Any]]:
    """The chart answers as a state keeps them, in a stable order."""
    return [{"chart": k.chart, "row": k.row, "column": k.column, "answer": v.answer, "at": v.at}
            for k, v in sorted(charts.items())]


_ANSWERED: ContextVar[set[str] | None] = ContextVar("chart_answered", default=None)


def listen() -> set[str]:
    """From now on, in this context, the ids of the questions a kept chart answers are added
    to the set returned: a script (``frontends.answers.AnswerPort``) that answers one of them
    is not told its answer went unused (the game had it already)."""
    answered: set[str] = set()
    _ANSWERED.set(answered)
    return answered


class Charts:
    """The chart answers of one attack (or impulse): those the game kept, those entered in
    it. ``entry``: the game entry being played (``None``: no game file)."""

    def __init__(self, state: Mapping[str, Any] | None = None, entry: int | None = None) -> None:
        self.entry = entry
        self.kept = kept_charts(state or {})
        self.new: dict[ChartKey, Kept] = {}
        self.used: list[tuple[ChartKey, Kept]] = []  # answered from a chart, in order

    def known(self, key: ChartKey) -> Kept | None:
        return self.new.get(key, self.kept.get(key))

    def ask(self, port: Port, question: Question, key: ChartKey) -> ChartAnswer:
        """The answer to ``question`` (a question about the chart ``key`` reads): from the
        chart as entered before when it fits the question, else asked (and kept)."""
        here = key in self.new
        found = self.known(key)
        if found is not None:
            try:
                value = question.accept(found.answer)
            except AnswerError:
                pass  # the question no longer takes it (another edition): ask
            else:
                self.used.append((key, found))
                answered = _ANSWERED.get()
                if answered is not None:
                    answered.add(question.id)
                return ChartAnswer(value, self.source(None if here else found.at))
        value = port.ask(question)
        self.new[key] = Kept(question.to_script(value), self.entry)
        return ChartAnswer(value)

    @staticmethod
    def source(at: int | None) -> Msg:
        """Where a kept answer came from: an earlier entry of the game, or this attack."""
        if at is None:
            return Msg.of("kept.chart.source_here")
        return Msg.of("kept.chart.source", at=at)

    def updates(self) -> dict[str, Any]:
        """The state update that keeps the answers entered (nothing when none was)."""
        if not self.new:
            return {}
        return {STATE_KEY: as_state({**self.kept, **self.new})}


def chart_rows(charts: Sequence[Mapping[str, Any]]) -> list[tuple[ChartKey, Kept]]:
    """A state's chart answers as (key, kept) pairs, in their order."""
    return list(kept_charts({STATE_KEY: list(charts)}).items())
