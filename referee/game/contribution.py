"""What the opponent adds to a game's program dice: one interface for every way it comes.

The dice of program roll ``j`` of entry ``i`` of a game are drawn from the game's seed, ``i``,
``j`` and the contribution of that roll (``referee.core.dice.EntryDice``). The holder of the
game file can read the seed; the contribution is what the holder cannot know before the
opponent gives it, after the entry's declaration is written to the file as pending
(``referee.game.pending``). A ``Contribution`` gives each roll's value: a word typed by the
opponent is the same for every roll of the entry (``Word``); the opponent's phone will send
bytes for each roll as it is rolled (``PerRoll``: each roll's value is kept in the file
before its die is drawn); a game made with ``--holder-dice`` takes none (``HolderDice``: the
holder could foresee those dice). A ``Source`` asks for an entry's contribution: the word
typed at the terminal (``AskedWord``), given on the command line (``GivenWord``), or refused
for want of both (``NoWord``).

In the file each contribution is an event of kind ``contribution`` of its entry's number, its
body ``{"kind": "word" | "phone", "roll": null | j, "value": TEXT}`` (``roll`` null: for
every roll), covered by the chain like every event. A number's contribution is its for good:
an entry redone after an undo, or resumed after an interruption, keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.core.errors import AnswerError, NoTerminalError, RefereeError
from referee.core.questions import Question, TextQuestion
from referee.core.text import Msg

WORD_MOST = 40  # characters of a word


class Contribution(Protocol):
    """The opponent's part of one entry's dice: ``value(j)`` is that of program roll ``j``."""

    @property
    def kind(self) -> str:
        """``word``, ``phone`` or ``holder``."""
        ...

    def value(self, roll: int) -> str: ...

    def stored(self) -> list[dict[str, Any]]:
        """The events' bodies that keep it in the game file (given so far)."""
        ...


@dataclass(frozen=True)
class Word:
    """A word typed by the opponent: the same for every roll of the entry."""

    text: str
    kind: str = "word"

    def value(self, roll: int) -> str:
        return self.text

    def stored(self) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "roll": None, "value": self.text}]


@dataclass(frozen=True)
class HolderDice:
    """No contribution (a game made with ``--holder-dice``): the holder could foresee the
    dice."""

    kind: str = "holder"

    def value(self, roll: int) -> str:
        return ""

    def stored(self) -> list[dict[str, Any]]:
        return []


@dataclass
class PerRoll:
    """A contribution for each roll (the opponent's phone): ``values`` those given so far;
    ``fetch(j)`` asks for roll ``j``'s and ``keep(j, value)`` writes it to the game file, both
    before its die is drawn."""

    values: dict[int, str] = field(default_factory=dict)
    fetch: Callable[[int], str] | None = None
    keep: Callable[[int, str], None] | None = None
    kind: str = "phone"

    def value(self, roll: int) -> str:
        if roll not in self.values:
            if self.fetch is None:
                raise RefereeError(Msg.of("game.error.no_contribution", roll=roll))
            given = self.fetch(roll)
            if self.keep is not None:
                self.keep(roll, given)
            self.values[roll] = given
        return self.values[roll]

    def stored(self) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "roll": j, "value": v} for j, v in sorted(self.values.items())]


def from_file(bodies: Sequence[Mapping[str, Any]]) -> Contribution | None:
    """The contribution the game file keeps for an entry (its events' bodies, in order);
    ``None``: none was given."""
    if not bodies:
        return None
    first = bodies[0]
    if first.get("roll") is None:
        return Word(str(first.get("value", "")))
    return PerRoll({int(b["roll"]): str(b.get("value", "")) for b in bodies
                    if isinstance(b.get("roll"), int)})


def stored_ok(body: Any) -> bool:
    """Whether an event's body is a contribution as this module writes it."""
    return (isinstance(body, dict) and body.get("kind") in ("word", "phone")
            and isinstance(body.get("value"), str)
            and (body.get("roll") is None or (isinstance(body.get("roll"), int)
                                               and not isinstance(body.get("roll"), bool)
                                               and body["roll"] >= 0)))


# --- where a word comes from ---------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class WordQuestion(TextQuestion):
    """The opponent's word: 1 to ``WORD_MOST`` visible characters (spaces between words are
    kept as one; nothing invisible, which nobody could check by hand)."""

    max_length: int = WORD_MOST

    def accept(self, raw: Any) -> str:
        text = super().accept(raw)
        if not all(c.isprintable() for c in text):
            raise AnswerError(Msg.of("game.error.word_visible"))
        return text


def word_question(side: str | None) -> WordQuestion:
    """The question put to the opponent (``side``: the opponent's side, when known)."""
    text = (Msg.of("game.q.word", side=side) if side else Msg.of("game.q.word_anyone"))
    return WordQuestion(id="game.word", text=text)


def check_word(text: str) -> str:
    """A word given on the command line, read as one typed (``AnswerError`` if refused)."""
    return word_question(None).accept(text)


class Source(Protocol):
    """Asks for the contribution of entry ``number`` (``side``: the opponent's side)."""

    def contribution(self, number: int, side: str | None) -> Contribution: ...


class AskedWord:
    """The opponent types a word at the terminal (``ask``: the table's question port)."""

    def __init__(self, ask: Callable[[Question], Any]) -> None:
        self.ask = ask

    def contribution(self, number: int, side: str | None) -> Contribution:
        return Word(str(self.ask(word_question(side))))


class GivenWord:
    """A word given on the command line (``referee run --word TEXT``): known before the
    entry is written pending (``given``), so both are written in one transaction."""

    def __init__(self, text: str) -> None:
        self.text = check_word(text)

    @property
    def given(self) -> Contribution:
        return Word(self.text)

    def contribution(self, number: int, side: str | None) -> Contribution:
        return self.given


class NoWord:
    """No word and no terminal to ask one at: the flag to give instead."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def contribution(self, number: int, side: str | None) -> Contribution:
        raise NoTerminalError(Msg.of("game.error.no_word", flag=self.flag))
