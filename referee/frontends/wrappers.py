"""Ports that wrap another port: automatic dice, showing a proposal, the dice typed in an undone
entry, keeping the answers in script form, echoing.

They compose: ``ScriptingPort(AutoDicePort(InteractivePort(...)))`` rolls every die from the
seed, asks the rest at the terminal, and keeps every answer. Each knows only the port it wraps
(``inner``); the stack of one attack is put together, layer by named layer, in
``referee.play.stack``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.core.dice import KeyedDice
from referee.core.port import GoBack, Port, roll_question
from referee.core.questions import DiceQuestion, Question
from referee.core.table import Table
from referee.core.text import Msg


class AutoDicePort:
    """Rolls every dice question from its own dice (the seed's); passes other questions on."""

    def __init__(self, inner: Port, dice: KeyedDice,
                 on_roll: Callable[[DiceQuestion, Any], None] | None = None) -> None:
        self.inner = inner
        self.dice = dice
        self.on_roll = on_roll

    def answers_itself(self, question: Question) -> bool:
        """Dice are never asked of the player (going back steps over them)."""
        return isinstance(question, DiceQuestion)

    def ask(self, question: Question) -> Any:
        if isinstance(question, DiceQuestion):
            value = roll_question(question, self.dice)
            if self.on_roll:
                self.on_roll(question, value)
            return value
        return self.inner.ask(question)


class ShowPort:
    """Shows what a question asks about (``Question.shows``: the proposal to accept or not)
    before the question is put to the player."""

    def __init__(self, inner: Port, show: Callable[[Sequence[Table]], None]) -> None:
        self.inner = inner
        self.show = show

    def ask(self, question: Question) -> Any:
        if question.shows:
            self.show(question.shows)
        return self.inner.ask(question)


class TypedThenPort:
    """Before a dice question that was answered with typed dice in the undone game entry this
    one redoes, says what was typed then (``typed then: 5 6 2``)."""

    def __init__(self, inner: Port, typed_then: Mapping[str, str],
                 say: Callable[[Msg], None] | None) -> None:
        self.inner = inner
        self.typed_then = typed_then  # cleared by a phase after its first impulse
        self.say = say

    def ask(self, question: Question) -> Any:
        if (isinstance(question, DiceQuestion) and question.id in self.typed_then
                and self.say is not None):
            self.say(Msg.of("game.typed_then", dice=self.typed_then[question.id]))
        return self.inner.ask(question)


class ScriptingPort:
    """Keeps every question asked and the answer given, in script form, in order."""

    def __init__(self, inner: Port) -> None:
        self.inner = inner
        self.answers: dict[str, Any] = {}

    def ask(self, question: Question) -> Any:
        value = self.inner.ask(question)
        self.answers[question.id] = question.to_script(value)
        return value


class EchoPort:
    """Shows each question and its answer as a player saw them (used for transcripts);
    going back shows as the answer ``<``. A question asked while another is being answered
    (the opponent's word, asked when the player lets the program roll the first die of a game's
    entry) comes after it, as at the terminal: the other is shown first with the answer that
    asked the program to roll, and its dice under it once rolled (``under``)."""

    def __init__(self, inner: Port, show: Callable[[Question, Any], None],
                 under: Callable[[Question, Any], None] | None = None) -> None:
        self.inner = inner
        self.show = show
        self.under = under
        self._answering: list[Question] = []  # asked, not shown yet (the innermost last)
        self._shown_early: set[int] = set()

    def ask(self, question: Question) -> Any:
        if self._answering and id(self._answering[-1]) not in self._shown_early:
            from referee.render.display import ROLLING

            self.show(self._answering[-1], ROLLING)
            self._shown_early.add(id(self._answering[-1]))
        self._answering.append(question)
        try:
            value = self.inner.ask(question)
        except GoBack:
            from referee.render.display import BACK

            self.show(question, BACK)
            raise
        except KeyboardInterrupt:
            from referee.render.display import INTERRUPT

            self.show(question, INTERRUPT)
            raise
        finally:
            self._answering.pop()
        if id(question) in self._shown_early:
            self._shown_early.discard(id(question))
            (self.under or self.show)(question, value)
        else:
            self.show(question, value)
        return value
