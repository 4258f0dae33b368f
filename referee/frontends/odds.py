"""The odds port: before each dice question it shows the odds of the roll (and of how the
attack may end), after it how lucky the roll was. It wraps any port, so typed, auto-rolled,
scripted and transcript dice all get the same odds. The odds code is imported at the first
dice question, never when odds are off. A fault in the odds code never stops an attack: the
roll is asked without odds and a line says so (the tests set ``REFEREE_STRICT_ODDS`` to see
the fault itself)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from referee.core.port import Port
from referee.core.questions import DiceQuestion, Question


class OddsPort:
    """``show`` receives lines to print at once (``None``: odds are only recorded, for a
    scripted run that shows them after the result, or for JSON)."""

    def __init__(self, inner: Port, show: Callable[[list[str]], None] | None,
                 *, full: bool = True) -> None:
        self.inner = inner
        self.show = show
        self.full = full  # the whole chart and every end state (else: brief, at the table)
        self.rolls: list[Any] = []  # the odds of each roll (RollOdds), in order

    def ask(self, question: Question) -> Any:
        if not isinstance(question, DiceQuestion):
            return self.inner.ask(question)
        from referee.odds.generic import report_for
        from referee.odds.report import RollOdds
        from referee.render.odds import after_line, brief_lines, report_lines

        try:
            report = report_for(question)
            shown = report_lines if self.full else brief_lines
            lines = shown(report, question.clause) if self.show is not None else []
        except Exception as err:  # the odds must never stop an attack
            self._failed(err)
            return self.inner.ask(question)
        if self.show is not None:
            self.show(lines)
        value = self.inner.ask(question)
        try:  # reading the roll and saying how lucky it was may fail too: the roll stands
            roll = RollOdds(question.id, question.clause, report, report.measure(value))
            after = [after_line(roll)] if self.show is not None else []
        except Exception as err:
            self._failed(err)
            return value
        self.rolls.append(roll)
        if self.show is not None:
            self.show(after)
        return value

    def _failed(self, err: Exception) -> None:
        if os.environ.get("REFEREE_STRICT_ODDS"):
            raise err
        if self.show is not None:
            from referee.catalog import render
            from referee.core.text import Msg

            self.show([render(Msg.of("odds.unavailable", reason=type(err).__name__))])

    def checkpoint(self) -> int:
        """The rolls recorded so far (the rewind port puts them back when going back)."""
        return len(self.rolls)

    def restore(self, mark: int) -> None:
        del self.rolls[mark:]
