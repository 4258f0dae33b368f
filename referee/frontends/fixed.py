"""A game's program rolls, once shown, are fixed (the rewind port asks this policy).

In a game made by ``game new`` the dice of each entry come from the game's seed and the
opponent's word (``referee.game.contribution``); once the program has shown a roll, going back
may bring it back (the same dice) but never change it: typed dice over it are refused ("the
program rolled this: 4 6"), and so is going back past it to change an answer before it (what
the roll depended on). Both are allowed only when the players record an override, asked of
both at the table; the overrides are kept with the entry, shown by the log, the report and
``game verify``, and the luck summary leaves the entry's rolls out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.port import GoBack
from referee.core.questions import ConfirmQuestion, DiceQuestion, Question
from referee.core.text import Msg

OVERRIDE = ConfirmQuestion(id="game.override", text=Msg.of("game.q.override"),
                           default_value=False)


def _faces(roll: DiceRoll) -> list[int] | None:
    return list(roll.faces) if roll.faces is not None else None


def _text(roll: DiceRoll) -> str:
    from referee.frontends.display import dice_text

    return dice_text(roll)


class FixedRolls:
    """The policy of ``RewindPort.fixed``: ``ask`` puts a question at the table (the override,
    through the ports below the rewind port), ``say`` shows one line. ``overrides`` keeps what
    the players agreed, in order (each a dict kept with the entry)."""

    def __init__(self, ask: Callable[[Question], Any], say: Callable[[Msg], None]) -> None:
        self.ask = ask
        self.say = say
        self.overrides: list[dict[str, Any]] = []

    def _agreed(self) -> bool:
        try:
            return bool(self.ask(OVERRIDE))
        except GoBack:
            return False

    def may_answer(self, question: Question, value: Any, before: Any, roll: int) -> bool:
        """``value`` answers ``question``, whose answer before going back was ``before``:
        typed dice over a program roll are refused unless the players override it."""
        if not (isinstance(question, DiceQuestion) and isinstance(value, DiceRoll)
                and isinstance(before, DiceRoll) and before.source.by_program
                and not value.source.by_program):
            return True
        self.say(Msg.of("game.fixed.typed", dice=_text(before)))
        if not self._agreed():
            return False
        self.overrides.append({"kind": "typed", "question": question.id, "roll": roll,
                               "program": _faces(before), "typed": _faces(value),
                               "successes": value.successes})
        return True

    def may_go_back(self, question: Question, passed: DiceRoll | None, roll: int,
                    passed_question: str) -> bool:
        """Going back from ``question`` would pass the program roll ``passed`` (``None``:
        none), roll ``roll`` of the entry, asked by ``passed_question``: refused unless the
        players override it."""
        if passed is None:
            return True
        self.say(Msg.of("game.fixed.back", dice=_text(passed)))
        if not self._agreed():
            return False
        self.overrides.append({"kind": "back", "question": passed_question, "roll": roll,
                               "program": _faces(passed), "typed": None,
                               "successes": passed.successes})
        return True
