"""The probe: walks an attack without rolling, for ``referee odds``.

Questions are answered from the given answers (a script's, ``--answer``), else by their
defaults (kept as *assumed*, so the output says what was assumed). At each dice question the
odds are computed; a dice question with a given answer takes it and the attack goes on; the
first one without an answer ends the walk there (its odds and their end states cover the rest
of the attack, where the ruleset knows it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.errors import MissingAnswerError, ScriptError, UsageError
from referee.core.questions import DiceQuestion, Question
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.frontends.odds import OddsPort


class ProbeStop(Exception):
    """The walk reached a dice question without an answer."""


class ProbePort:
    def __init__(self, answers: Mapping[str, Any], rng: Any, *, file: str = "<odds>",
                 text: str = "", flags: Mapping[str, str] | None = None) -> None:
        self.answers = AnswerPort(answers, rng, file=file, text=text, use_defaults=True)
        # answers given on the command line (``--answer``/``--vs``), by question id, with
        # the option that gave them: a bad value there names the option, not the script
        self.flags = dict(flags or {})
        self.odds = OddsPort(self.answers, show=None)
        self.assumed: list[tuple[Question, Any]] = []

    @property
    def rolls(self) -> list[Any]:
        return self.odds.rolls

    def ask(self, question: Question) -> Any:
        given = question.id in self.answers.answers
        if isinstance(question, DiceQuestion) and not given:
            from referee.odds.generic import report_for
            from referee.odds.report import RollOdds

            self.odds.rolls.append(RollOdds(question.id, question.clause,
                                                report_for(question)))
            raise ProbeStop(question.id)
        try:
            value = self.odds.ask(question)
        except ScriptError as err:
            if question.id not in self.flags:
                raise
            raise UsageError(Msg.of("odds.error.bad_answer", flag=self.flags[question.id],
                                    question=question.id,
                                    value=str(self.answers.answers[question.id]),
                                    expected=err.expected)) from None
        except MissingAnswerError as err:
            raise UsageError(Msg.of("odds.error.needs_answer", question=err.question_id,
                                    text=question.text)) from None
        if not given:
            self.assumed.append((question, value))
        return value
