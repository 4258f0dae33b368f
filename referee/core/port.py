"""The port: the one way a resolver gets answers.

Resolvers call ``port.ask(question)`` and get a validated value back. For dice questions the
value is always a ``DiceRoll``: a port that is told to roll (an empty answer, ``roll`` in a
script, or auto-dice) rolls with the session's seeded generator.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, overload

from referee.core.dice import ROLL, DiceRoll
from referee.core.questions import DiceQuestion, Question


class Port(Protocol):
    @overload
    def ask(self, question: DiceQuestion) -> DiceRoll: ...
    @overload
    def ask(self, question: Question) -> Any: ...
    def ask(self, question: Question) -> Any: ...


def settle_dice(question: DiceQuestion, value: DiceRoll | str, rng: random.Random) -> DiceRoll:
    """Turn a dice answer into a roll, rolling with ``rng`` when the answer says so."""
    if value == ROLL:
        return question.roll(rng)
    assert isinstance(value, DiceRoll)
    return value
