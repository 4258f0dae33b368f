"""A game's program rolls, once shown, are fixed (a port next to the prompts, and a policy the
rewind port asks before going back).

In a game made by ``game new`` the dice of each entry come from the game's seed and the
opponent's word (``referee.game.contribution``); once the program has shown a roll, going back
may bring it back (the same dice) but never change it: typed dice over it are refused ("the
program rolled this: 4 6"), and so is going back past it to change an answer before it (what
the roll depended on). Both are allowed only when the players record an override, asked of
both at the table; the overrides are kept with the entry, shown by the log, the report and
``game verify``, and the luck summary leaves the entry's rolls out.

``FixedRolls`` sits right above the prompts (under the odds, so that a refused answer is
never counted) and reads the answers the rewind port above it keeps (``answered``: those
taken back, the program rolls given so far).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.port import GoBack, Port
from referee.core.questions import ConfirmQuestion, DiceQuestion, Question
from referee.core.text import Msg
from referee.frontends.rewind import Answered

OVERRIDE = ConfirmQuestion(id="game.override", text=Msg.of("game.q.override"),
                           default_value=False)


def _faces(roll: DiceRoll) -> list[int] | None:
    return list(roll.faces) if roll.faces is not None else None


def faces_text(roll: DiceRoll) -> str:
    """A roll's dice as typed (``4 6``; ``=3`` for a count of successes)."""
    return " ".join(map(str, roll.faces)) if roll.faces is not None else f"={roll.successes}"


class FixedRolls:
    """The port (``ask``) and the policy of ``RewindPort.fixed`` (``may_go_back``). ``say``
    shows one line; ``answered``: the answers of the attack so far (the rewind port's).
    ``overrides`` keeps what the players agreed, in order (each a dict kept with the
    entry)."""

    def __init__(self, inner: Port, say: Callable[[Msg], None], answered: Answered) -> None:
        self.inner = inner
        self.say = say
        self.answered = answered
        self.overrides: list[dict[str, Any]] = []

    def program_rolls(self) -> int:
        """How many program rolls this pass of the attack has given so far."""
        memory = self.answered
        return sum(1 for g in memory.given[:memory.position]
                   if isinstance(g.value, DiceRoll) and g.value.source.by_program)

    def _agreed(self) -> bool:
        try:
            return bool(self.inner.ask(OVERRIDE))
        except GoBack:
            return False

    def ask(self, question: Question) -> Any:
        while True:
            value = self.inner.ask(question)
            if self.may_answer(question, value):
                return value

    def may_answer(self, question: Question, value: Any) -> bool:
        """Typed dice over a program roll shown before going back are refused unless the
        players override it."""
        before = self.answered.previous.get(question.id)
        if not (isinstance(question, DiceQuestion) and isinstance(value, DiceRoll)
                and isinstance(before, DiceRoll) and before.source.by_program
                and not value.source.by_program):
            return True
        self.say(Msg.of("game.fixed.typed", dice=faces_text(before)))
        if not self._agreed():
            return False
        self.overrides.append({"kind": "typed", "question": question.id,
                               "roll": self.program_rolls(), "program": _faces(before),
                               "typed": _faces(value), "successes": value.successes})
        return True

    def may_go_back(self, question: Question, passed: DiceRoll | None, roll: int,
                    passed_question: str) -> bool:
        """Going back from ``question`` would pass the program roll ``passed`` (``None``:
        none), roll ``roll`` of the entry, asked by ``passed_question``: refused unless the
        players override it."""
        if passed is None:
            return True
        self.say(Msg.of("game.fixed.back", dice=faces_text(passed)))
        if not self._agreed():
            return False
        self.overrides.append({"kind": "back", "question": passed_question, "roll": roll,
                               "program": _faces(passed), "typed": None,
                               "successes": passed.successes})
        return True
