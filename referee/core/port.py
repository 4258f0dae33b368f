"""The port: the one way a resolver gets answers.

Resolvers call ``port.ask(question)`` and get a validated value back. For dice questions the
value is always a ``DiceRoll``: a port that is told to roll (an empty answer, ``roll`` in a
script, or auto-dice) rolls the question's own dice (``KeyedDice``: bound to the question, so
asking it again rolls the same).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol, overload, runtime_checkable

from referee.core.dice import ROLL, DiceRoll, DiceSource, KeyedDice
from referee.core.questions import DiceQuestion, Question, other_player


class Port(Protocol):
    @overload
    def ask(self, question: DiceQuestion) -> DiceRoll: ...
    @overload
    def ask(self, question: Question) -> Any: ...
    def ask(self, question: Question) -> Any: ...


class Mirrored:
    """``inner`` asked each question from the other player's seat: the attacker's questions
    are the defender's and the other way round (either stays either). For a resolver that
    asks the questions of the side that was hit, tagged as the defender's, when that side is
    the attacker (an Epic assault's hits on the assaulting formation: its owner allocates
    and saves them)."""

    def __init__(self, inner: Port) -> None:
        self.inner = inner

    def ask(self, question: Question) -> Any:
        return self.inner.ask(dataclasses.replace(
            question, answered_by=other_player(question.answered_by)))


BACK_KEY = "<"
"""Typed alone at a prompt (or pressed at a list or yes/no prompt): go back one question."""
INTERRUPT_KEY = "^C"
"""How a transcript shows Ctrl-C at a prompt."""


class GoBack(Exception):
    """The player asked to go back one question (``<`` at a prompt). Raised by a front end
    from ``ask``; the rewind front end (``referee.frontends.rewind``) catches it and resolves
    the attack again with the answers before that question. Resolvers never catch it."""


@runtime_checkable
class Strict(Protocol):
    """An answerer that gave its answers in advance (a script's, a transcript's): at the end
    of the attack, ``finish`` refuses the answers no question used."""

    def finish(self) -> None: ...


def roll_question(question: DiceQuestion, dice: KeyedDice) -> DiceRoll:
    """What the program rolls for ``question``: the next roll of its own dice, marked as
    taken again when the question first rolled for another roll (``KeyedDice.rolled_for``)."""
    got = question.roll(dice.stream(question.id))
    if dice.rolled_for(question.id, question.roll_key()):
        return dataclasses.replace(got, source=DiceSource.RETAKEN)
    return got


def settle_dice(question: DiceQuestion, value: DiceRoll | str, dice: KeyedDice) -> DiceRoll:
    """Turn a dice answer into a roll, rolling the question's dice when the answer says so."""
    if value == ROLL:
        return roll_question(question, dice)
    assert isinstance(value, DiceRoll)
    return value
