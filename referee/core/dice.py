"""Dice as values: what a question asks to be rolled, and what was rolled.

A ``DiceSpec`` says what is rolled ("8 d6, success on 4+, a natural 1 always fails"), so any
front end can roll it, take typed faces, or show its odds. ``parse_dice_text`` is the one parser
for what a player types at a dice prompt and for dice answers written in scripts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.core.errors import AnswerError, UsageError
from referee.core.text import Msg
from referee.core.words import whole_number


class DiceSource(StrEnum):
    """Where the faces of a roll came from (shown in the step log)."""

    TYPED = "typed"  # the player typed the faces (or the number of successes) of real dice
    ROLLED = "rolled"  # the program rolled them from the session's seed
    # rolled by the program again after the player went back and changed an earlier answer
    # that changed this roll (more dice, another target): drawn from the same key, so its
    # first dice are the dice rolled before
    RETAKEN = "retaken"

    @property
    def by_program(self) -> bool:
        return self is not DiceSource.TYPED


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
        return script_dice(value, self.source)


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


def script_dice(value: object, source: DiceSource) -> object:
    """A roll's script value: typed dice as they are; the program's in a ``rolled`` table
    (see ``program_source``, its inverse)."""
    if source is DiceSource.RETAKEN:
        return {"rolled": value, "retaken": True}
    if source is DiceSource.ROLLED:
        return {"rolled": value}
    return value


def program_source(table: Mapping[str, Any]) -> DiceSource:
    """The source of a script's dice table: ``{rolled = [...]}``, with ``retaken = true`` when
    the roll was taken again after a change (see ``DiceSource.RETAKEN``)."""
    if "rolled" not in table or not set(table) <= {"rolled", "retaken"} or not isinstance(
            table.get("retaken", False), bool):
        raise AnswerError(Msg.of("dice.error.script_table"))
    return DiceSource.RETAKEN if table.get("retaken") else DiceSource.ROLLED


def parse_dice_value(spec: DiceSpec, value: object) -> DiceRoll | str:
    """Parse a dice answer from a script: a list of faces, a string as typed at the prompt,
    or a table ``{rolled = [faces]}`` marking faces the program rolled."""
    source = DiceSource.TYPED
    if isinstance(value, dict):
        source = program_source(value)
        value = value["rolled"]
    if isinstance(value, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise AnswerError(Msg.of("dice.error.syntax", text=str(value)))
        faces = tuple(value)
        check_faces(spec, faces)
        return DiceRoll(faces, spec.successes(faces), source)
    if isinstance(value, str):
        return parse_dice_text(spec, value, source)
    raise AnswerError(Msg.of("dice.error.script_value"))


SCHEME = b"referee-dice/1"
"""Names the scheme in every message the dice are drawn from, so that a change of scheme can
never be mistaken for the old one."""
SCHEME_2 = b"referee-dice/2"
"""The scheme of a game's entries since format 3 of the game file (``EntryDice``)."""


class KeyedDice:
    """The program's dice (scheme 1). Every roll is bound to the question that asks for it:
    its faces come from HMAC-SHA256 keyed by the seed over (the scheme, the attack number, the
    question id, the roll number of that question), so the same question in the same attack
    always rolls the same dice, whatever was asked before it or how often the player went
    back. Never a generator's state shared across questions (see ``DieStream`` and the
    README). A game's entries roll ``EntryDice`` instead (scheme 2)."""

    scheme = 1

    def __init__(self, seed: int | str, attack: int = 1) -> None:
        self.seed_value = seed
        self.key = str(seed).encode("utf-8")
        self.attack = attack
        self.rolled = 0  # dice rolled so far (a run that rolled none need not repeat its seed)
        self._rolls: dict[str, int] = {}
        self._rolled_for: dict[object, object] = {}  # what each roll first rolled for

    def stream(self, question_id: str) -> DieStream:
        """The dice of the next roll of ``question_id`` in this attack (roll 0, then 1...)."""
        number = self._rolls.get(question_id, 0)
        self._rolls[question_id] = number + 1
        return DieStream(self, question_id, number)

    def rolled_for(self, question_id: str, key: object) -> bool:
        """Note that ``question_id`` rolls for ``key`` (its dice, target, deck: what the roll
        depends on besides its dice); ``True`` when it first rolled for another: the player
        went back and changed an answer that changed the roll, which is then taken again."""
        return self._rolled_for.setdefault(question_id, key) != key

    def replayed(self, question_id: str, key: object) -> None:
        """A program roll given before is given again without rolling (the player went back
        and the answers before the question to change are replayed): it counts as rolled, so
        that the rolls after it are the ones they were."""
        self._rolls[question_id] = self._rolls.get(question_id, 0) + 1
        self.rolled_for(question_id, key)

    def confirm(self, question: Any, given: DiceRoll) -> DiceRoll:
        """A program roll read from a record (``--resume``): scheme 1 takes it as written
        (the record names the seed it came from)."""
        return given

    def restart(self) -> None:
        """The attack is resolved again from its first question (the player went back, or a
        recorded attack is resumed): every question's rolls count from 0 again."""
        self._rolls.clear()


class EntryDice(KeyedDice):
    """The program's dice of one entry of a game (scheme 2): the faces of program roll ``j``
    of entry ``i`` (rolls counted 0, 1, 2... in the order the entry makes them, whatever
    question asks for them) come from HMAC-SHA256 keyed by the game's seed over
    ``referee-dice/2|i|j|CONTRIBUTION|block``, CONTRIBUTION being what the opponent gave for
    that roll (the same word for every roll of the entry, or bytes for each roll from the
    opponent's phone; empty in a game whose holder rolls alone). Nothing else enters: no
    question id, no name, no answer. ``contribute`` is called once, just before the entry's
    first program roll is drawn (the game writes the entry as pending and asks the opponent
    then), and gives each roll's contribution."""

    scheme = 2

    def __init__(self, seed: str, entry: int,
                 contribute: Callable[[], Callable[[int], str]] | None = None) -> None:
        super().__init__(seed, attack=entry)
        self.contribute = contribute
        self.contribution: Callable[[int], str] | None = None
        self.count = 0  # program rolls so far in this pass of the entry
        self._last = 0  # the program roll drawn last

    def _contribution(self, roll: int) -> str:
        if self.contribution is None:
            if self.contribute is None:
                raise RuntimeError("the entry's dice have no contribution to draw from")
            self.contribution = self.contribute()
        return self.contribution(roll)

    def stream_at(self, roll: int) -> DieStream:
        """The dice of program roll ``roll`` of the entry."""
        prefix = b"|".join((SCHEME_2, str(self.attack).encode(), str(roll).encode(),
                            self._contribution(roll).encode("utf-8")))
        return DieStream(self, "", roll, prefix=prefix)

    def stream(self, question_id: str) -> DieStream:
        roll = self.count
        self.count += 1
        self._last = roll
        return self.stream_at(roll)

    def rolled_for(self, question_id: str, key: object) -> bool:
        return self._rolled_for.setdefault(self._last, key) != key

    def replayed(self, question_id: str, key: object) -> None:
        self._last = self.count
        self.count += 1
        self.rolled_for(question_id, key)

    def confirm(self, question: Any, given: DiceRoll) -> DiceRoll:
        """A program roll read from a record (``--resume``): recomputed from the game, never
        taken from the record; a record that says otherwise is refused (``AnswerError``)."""
        from referee.core.errors import RecordedRollError

        rolled = question.roll(self.stream_at(self.count))
        if (rolled.faces, rolled.successes) != (given.faces, given.successes):
            raise RecordedRollError(question.id, Msg.of(
                "game.error.record_dice", rolled=_faces_text(rolled), record=_faces_text(given)))
        return given

    def restart(self) -> None:
        super().restart()
        self.count = 0

    def begin(self, entry: int) -> None:
        """The next entry of the same command (the next impulse of a phase): its own number
        and contribution, rolls counted from 0."""
        self.attack = entry
        self.contribution = None
        self._rolled_for.clear()
        self.restart()


def _faces_text(roll: DiceRoll) -> str:
    return " ".join(map(str, roll.faces)) if roll.faces is not None else f"={roll.successes}"


class DieStream:
    """The faces of one roll, in order: the bytes of HMAC-SHA256(seed, message) for the
    blocks 0, 1, 2 ... where the message is ``referee-dice/1|attack|question id|roll|block``
    (scheme 2: ``prefix|block``, see ``EntryDice``); a byte ``b`` gives ``b mod n`` (a face
    ``1 + b mod sides``) unless it is one of the ``256 mod n`` highest bytes, which are
    skipped so that every value is equally likely (rejection sampling). Values above 256
    take as many bytes as they need, big-endian."""

    def __init__(self, dice: KeyedDice, question_id: str, roll_number: int, *,
                 prefix: bytes | None = None) -> None:
        self._dice = dice
        self._prefix = prefix if prefix is not None else b"|".join(
            (SCHEME, str(dice.attack).encode(), question_id.encode("utf-8"),
             str(roll_number).encode()))
        self._block = 0
        self._bytes = b""
        self._at = 0

    def _take(self, count: int) -> int:
        import hashlib
        import hmac

        out = 0
        for _ in range(count):
            if self._at == len(self._bytes):
                message = self._prefix + b"|" + str(self._block).encode()
                self._bytes = hmac.new(self._dice.key, message, hashlib.sha256).digest()
                self._block += 1
                self._at = 0
            out = out * 256 + self._bytes[self._at]
            self._at += 1
        return out

    def below(self, n: int) -> int:
        """A value in ``0 .. n-1``, every one equally likely."""
        if n < 1:
            raise ValueError("nothing to draw from")
        width = 1
        while 256 ** width < n:
            width += 1
        span = 256 ** width
        limit = span - span % n
        while True:
            value = self._take(width)
            if value < limit:
                return value % n

    def roll_die(self, sides: int) -> int:
        self._dice.rolled += 1
        return 1 + self.below(sides)


def roll(spec: DiceSpec, dice: DieStream) -> DiceRoll:
    faces = tuple(dice.roll_die(spec.sides) for _ in range(spec.count))
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
