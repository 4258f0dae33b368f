"""The odds port: before each dice question it shows the odds of the roll (and of how the
attack may end), after it how lucky the roll was. It wraps any port, so typed, auto-rolled,
scripted and transcript dice all get the same odds. The odds code is imported at the first
dice question, never when odds are off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core.port import Port
from referee.core.questions import DiceQuestion, Question


class OddsPort:
    """``show`` receives lines to print at once (``None``: odds are only recorded, for a
    scripted run that shows them after the result, or for JSON)."""

    def __init__(self, inner: Port, show: Callable[[list[str]], None] | None) -> None:
        self.inner = inner
        self.show = show
        self.records: list[Any] = []  # OddsRecord, in the order of the rolls

    def ask(self, question: Question) -> Any:
        if not isinstance(question, DiceQuestion):
            return self.inner.ask(question)
        from referee.odds.generic import report_for
        from referee.odds.report import OddsRecord

        report = report_for(question)
        if self.show is not None:
            from referee.render.odds import report_lines

            self.show(report_lines(report, question.clause))
        value = self.inner.ask(question)
        record = OddsRecord(question.id, question.clause, report, report.measure(value))
        self.records.append(record)
        if self.show is not None:
            from referee.render.odds import after_line

            self.show([after_line(record)])
        return value

    def finish(self) -> None:
        finish = getattr(self.inner, "finish", None)
        if finish is not None:
            finish()
