"""Answers given in advance: scripts, transcripts and tests.

``AnswerPort`` answers each question by its id from a mapping. It is strict: a question it has
no answer for is an error naming the question id (unless the script asks for defaults, or the
question is a dice question and dice may be rolled from the seed), and ``finish`` refuses
answers that no question used. It is bounded: a script meets at most its answers and
``MOST_UNANSWERED`` more questions (``core.work.Budget``), so that one whose defaults would
never end the attack (an operations phase of empty activations) ends with an error naming
it. ``SequencePort`` answers in order (a transcript's prompts), one answer a question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.dice import ROLL, KeyedDice
from referee.core.errors import AnswerError, MissingAnswerError, ScriptError, UnusedAnswerError
from referee.core.port import BACK_KEY, INTERRUPT_KEY, GoBack, settle_dice
from referee.core.questions import DiceQuestion, LineQuestion, Question
from referee.core.text import Msg
from referee.core.work import Budget, OverBudget

MOST_UNANSWERED = 20_000
"""Questions a script may meet beyond its answers (defaults taken, dice rolled, an answer
met again): the largest declarations of every ruleset meet fewer than 1,000 in all
(benchmarks/script_builders.py), and 20,000 take about two seconds."""


class AnswerPort:
    def __init__(self, answers: Mapping[str, Any], dice: KeyedDice, *,
                 file: str = "<answers>", text: str = "", use_defaults: bool = False,
                 roll_missing_dice: bool = False) -> None:
        self.answers = dict(answers)
        self.dice = dice
        self.file = file
        self.text = text
        self.use_defaults = use_defaults
        self.roll_missing_dice = roll_missing_dice
        self.used: set[str] = set()
        self.budget = Budget({"questions": len(self.answers) + MOST_UNANSWERED})
        from referee.core.charts import listen

        self.by_chart = listen()  # answered from the game's charts: not asked (issue 27)

    def ask(self, question: Question) -> Any:
        try:
            self.budget.spend("questions")
        except OverBudget as over:
            raise ScriptError(self.file, "", Msg.of("script.expected.ends",
                                                    most=over.limit)) from None
        if question.id in self.answers:
            self.used.add(question.id)
            from referee.render.display import value_from_label

            given = self.answers[question.id]
            try:
                if isinstance(given, str) and not given.strip():  # not a value: a slip
                    raise AnswerError(Msg.of("answer.error.blank"))
                value = question.accept(value_from_label(question, given))
            except AnswerError as err:
                from referee.files import where

                raise ScriptError(self.file, where(self.text, ["answers", question.id]),
                                  err.msg) from None
        elif isinstance(question, DiceQuestion) and self.roll_missing_dice:
            value = ROLL
        elif self.use_defaults and question.default is not None:
            value = question.default
            if isinstance(question, LineQuestion):  # its default is a line, read as typed
                value = question.accept(value)
        else:
            import difflib

            # an answer for a question nested under this one (``pick.round-2.1``) is not a
            # misspelling of it
            unused = [k for k in self.answers if k not in self.used
                      and not k.startswith(question.id) and not question.id.startswith(k)]
            close = difflib.get_close_matches(question.id, unused, n=1, cutoff=0.6)
            raise MissingAnswerError(self.file, question.id, close[0] if close else None)
        if isinstance(question, DiceQuestion):
            return settle_dice(question, value, self.dice)
        return value

    def finish(self) -> None:
        unused = [qid for qid in self.answers if qid not in self.used
                  and qid not in self.by_chart]
        if unused:
            raise UnusedAnswerError(self.file, unused)


class SequencePort:
    """Answers in the order the questions come, as typed at a prompt; with ``shown=True``,
    as a transcript shows them (labels, ``(rolled)`` dice), turned back into what was typed.
    ``<`` goes back one question, as at the prompt (``GoBack``); ``^C`` is Ctrl-C."""

    def __init__(self, typed: Sequence[str], dice: KeyedDice, *,
                 file: str = "<transcript>", shown: bool = False) -> None:
        self.typed = list(typed)
        self.dice = dice
        self.file = file
        self.shown = shown
        self.position = 0

    def ask(self, question: Question) -> Any:
        if self.position >= len(self.typed):
            raise MissingAnswerError(self.file, question.id)
        text = self.typed[self.position]
        self.position += 1
        if text.strip() == BACK_KEY:
            raise GoBack
        if text.strip() == INTERRUPT_KEY:
            raise KeyboardInterrupt  # a transcript's Ctrl-C
        from referee.render.display import typed_from_shown, value_from_label

        if self.shown:
            text = typed_from_shown(question, text)
        try:
            value = question.accept(value_from_label(question, text))
        except AnswerError as err:
            raise ScriptError(self.file, f"#{self.position} ({question.id})", err.msg) from None
        if isinstance(question, DiceQuestion):
            return settle_dice(question, value, self.dice)
        return value

    def finish(self) -> None:
        if self.position < len(self.typed):
            raise UnusedAnswerError(self.file, [f"#{i + 1}" for i in
                                                range(self.position, len(self.typed))])
