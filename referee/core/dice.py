"""Dice as values: what a question asks to be rolled, and what was rolled.

A ``DiceSpec`` says what is rolled ("8 d6, success on 4+, a natural 1 always fails"), so any
front end can roll it, take typed faces, or show its odds. ``parse_dice_text`` is the one parser
for what a player types at a dice prompt and for dice answers written in scripts.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum

from referee.core.errors import AnswerError, UsageError
from referee.core.text import Msg
from referee.core.words import whole_number


class DiceSource(StrEnum):
    """Where the faces of a roll came from (shown in the step log)."""

    TYPED = "typed"  # the player typed the faces (or the number of successes) of real dice
    ROLLED = "rolled"  # the program rolled them from the session's seed


@dataclass(frozen=True)
class DiceSpec:
    """What a dice question rolls.

    ``target`` is the face needed for a success (``None``: the faces themselves matter, as for
    a sum). ``auto_fail`` lists natural faces that fail whatever the target (Epic's natural 1).
    ``count_only`` says the rule needs only the number of successes, so a player may type
    just that number instead of every face.
    """

    count: int
    sides: int = 6
    target: int | None = None
    auto_fail: tuple[int, ...] = ()
    count_only: bool = False

    def is_success(self, face: int) -> bool:
        if self.target is None:
            return False
        return face not in self.auto_fail and face >= self.target

    def successes(self, faces: tuple[int, ...]) -> int:
        return sum(1 for f in faces if self.is_success(f))

    def describe(self) -> Msg:
        if self.target is None:
            return Msg.of("dice.spec.plain", count=self.count, sides=self.sides)
        if self.auto_fail:
            return Msg.of("dice.spec.target_autofail", count=self.count, sides=self.sides,
                          target=self.target, fails=", ".join(map(str, self.auto_fail)))
        return Msg.of("dice.spec.target", count=self.count, sides=self.sides, target=self.target)


@dataclass(frozen=True)
class DiceRoll:
    """The result of a dice question: faces (if known), successes, and their source."""

    faces: tuple[int, ...] | None
    successes: int
    source: DiceSource

    def label(self) -> Msg | None:
        """What is shown after the faces (a Fate card's trigger); plain dice have none."""
        return None

    def to_script(self) -> object:
        """The value a script holds to reproduce this roll exactly (see ``parse_dice_value``)."""
        if self.faces is None:
            value: object = f"={self.successes}"
        else:
            value = list(self.faces)
        if self.source is DiceSource.ROLLED:
            return {"rolled": value}
        return value


ROLL = "roll"
"""The answer that asks the program to roll (an empty line at the prompt)."""

_SPLIT = re.compile(r"[\s,;]+")
_COUNT = re.compile(r"^=\s*([0-9]{1,6})$|^([0-9]{1,6})\s*(?:hits?|successes)$", re.IGNORECASE)


def check_faces(spec: DiceSpec, faces: tuple[int, ...]) -> None:
    if len(faces) != spec.count:
        raise AnswerError(Msg.of("dice.error.count", expected=spec.count, got=len(faces)))
    for face in faces:
        if not 1 <= face <= spec.sides:
            raise AnswerError(Msg.of("dice.error.face", face=face, sides=spec.sides))


def check_successes(spec: DiceSpec, successes: int) -> None:
    if not spec.count_only or spec.target is None:
        raise AnswerError(Msg.of("dice.error.faces_needed"))
    if not 0 <= successes <= spec.count:
        raise AnswerError(Msg.of("dice.error.successes", got=successes, most=spec.count))


def parse_dice_text(spec: DiceSpec, text: str,
                    source: DiceSource = DiceSource.TYPED) -> DiceRoll | str:
    """Parse what a player typed: faces (``5 6 2 1``, ``5,6,2,1``), ``=N`` for N successes,
    or nothing (``ROLL``: let the program roll)."""
    text = text.strip()
    if text == "" or text.lower() == ROLL:
        return ROLL
    m = _COUNT.match(text)
    if m:
        successes = int(m.group(1) or m.group(2))
        check_successes(spec, successes)
        return DiceRoll(None, successes, source)
    numbers = [whole_number(p) for p in _SPLIT.split(text) if p]
    faces = tuple(n for n in numbers if n is not None)
    if len(faces) != len(numbers):
        raise AnswerError(Msg.of("dice.error.syntax", text=text))
    check_faces(spec, faces)
    return DiceRoll(faces, spec.successes(faces), source)


def parse_dice_value(spec: DiceSpec, value: object) -> DiceRoll | str:
    """Parse a dice answer from a script: a list of faces, a string as typed at the prompt,
    or a table ``{rolled = [faces]}`` marking faces the program rolled."""
    source = DiceSource.TYPED
    if isinstance(value, dict):
        if set(value) != {"rolled"}:
            raise AnswerError(Msg.of("dice.error.script_table"))
        value, source = value["rolled"], DiceSource.ROLLED
    if isinstance(value, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise AnswerError(Msg.of("dice.error.syntax", text=str(value)))
        faces = tuple(value)
        check_faces(spec, faces)
        return DiceRoll(faces, spec.successes(faces), source)
    if isinstance(value, str):
        return parse_dice_text(spec, value, source)
    raise AnswerError(Msg.of("dice.error.script_value"))


class SeededDice(random.Random):
    """The session's dice: a seeded generator that remembers its seed and how many dice it
    rolled (a run that rolled none does not need its seed repeated)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed_value = seed
        self.rolled = 0

    def roll_die(self, sides: int) -> int:
        self.rolled += 1
        return self.randint(1, sides)


def roll(spec: DiceSpec, rng: random.Random) -> DiceRoll:
    if isinstance(rng, SeededDice):
        faces = tuple(rng.roll_die(spec.sides) for _ in range(spec.count))
    else:
        faces = tuple(rng.randint(1, spec.sides) for _ in range(spec.count))
    return DiceRoll(faces, spec.successes(faces), DiceSource.ROLLED)


SEED_LIMIT = 2 ** 63  # a seed is kept in a game file's log: an SQLite integer


def usable_seed(seed: int) -> int:
    """``seed``, when a game file's log can keep it (else a ``UsageError``)."""
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        raise UsageError(Msg.of("error.seed", most=SEED_LIMIT - 1))
    return seed


def new_seed() -> int:
    """A fresh seed to print, so that the run can be repeated with ``--seed``."""
    return random.SystemRandom().randrange(1, 10**6)
