"""The reader the compact lines of several rulesets share (Combat Commander's pieces and
units, Lock 'n Load's units): a line's tokens, and one part of a line read as a name, numbers,
keywords with a number, flags and a hex.

``[2x] [NAME] NUMBERS [keyword N]... [flag]... [@HEX]``: words before the first number make the
name (quoted, ``"Squad 5"`` or «Отделение 5», when it holds a number or a keyword); the words
after the numbers say what the piece is. Each ruleset brings its vocabulary (``Vocabulary``:
its keywords in both languages, those that take a number, where its refusals' messages are),
so the reading and the refusals are the same everywhere. The tokens, a count (``2x``) and a
quoted name are ``rulesets.lines``'s, as every compact line reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.errors import AnswerError
from referee.core.text import Msg
from referee.rulesets import lines

COUNT = lines.COUNT
INT = re.compile(r"^[+-]?\d+$")
SLASHED = re.compile(r"^(\d+)/(\d+)$")


@dataclass(frozen=True)
class Vocabulary:
    """A ruleset's words for its compact lines: ``keyword`` names the keyword a word is
    (``None``: none); ``number_keys`` take the number after them (``leader 1``); ``glued``:
    keywords also written glued to their number (``h2``), as a pattern and its keyword;
    ``messages``: the namespace of the refusals (``cc.entry``: ``cc.entry.error.word``...)."""

    keyword: Callable[[str], str | None]
    number_keys: frozenset[str]
    messages: str
    glued: tuple[re.Pattern[str], str] | None = None

    def error(self, key: str, **params: Any) -> AnswerError:
        return AnswerError(Msg.of(f"{self.messages}.error.{key}", **params))


@dataclass
class Segment:
    """One part of a line as read: its name, numbers, keywords with numbers, flags."""

    name: str | None = None
    numbers: list[str] = field(default_factory=list)
    valued: dict[str, int] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    hex: str | None = None


def tokens(text: str, vocabulary: Vocabulary) -> list[str]:
    """A line's words, a quoted name as one (``lines.tokens``); an unclosed quote is
    refused with the ruleset's message."""
    try:
        return lines.tokens(text)
    except lines.Unclosed as unclosed:
        raise vocabulary.error("quote", given=unclosed.token) from None


quoted = lines.quoted


def read(line: Sequence[str], vocabulary: Vocabulary, flags: set[str], valued: set[str],
         what: str) -> Segment:
    """The parts of ``line``'s tokens: words before the first number make the name;
    ``flags`` are the keywords allowed after the numbers, ``valued`` those that take a
    number (``hex``: an ``@HEX`` is allowed); ``what`` the kind of line, for the list of its
    words in a refusal."""
    seg = Segment()
    words: list[str] = []
    glued, glued_key = vocabulary.glued or (None, "")
    i = 0
    while i < len(line):
        t = line[i]
        k = vocabulary.keyword(t)
        name = quoted(t)
        glued_number = glued.match(t) if glued is not None else None
        if name is not None:
            if seg.numbers or words or seg.name is not None:
                raise vocabulary.error("name_place", given=t)
            seg.name = name
        elif t.startswith("@"):
            if "hex" not in valued:
                raise vocabulary.error("no_hex_here", given=t)
            if len(t) == 1:
                raise vocabulary.error("hex_empty")
            seg.hex = t[1:].upper()
        elif glued_number is not None and glued_key in valued:
            seg.valued[glued_key] = int(glued_number.group(1))
        elif INT.match(t) or SLASHED.match(t):
            seg.numbers.append(t)
        elif k in vocabulary.number_keys and k in valued:
            nxt = line[i + 1] if i + 1 < len(line) else ""
            if not INT.match(nxt):
                raise vocabulary.error("needs_number", word=t, example=f"{t} 1")
            seg.valued[k] = int(nxt)
            i += 1
        elif seg.numbers and k in flags:
            seg.flags.add(k)
        elif not seg.numbers and seg.name is None:
            words.append(t)
        else:
            raise vocabulary.error("word", given=t,
                                   known=Msg.of(f"{vocabulary.messages}.words.{what}"))
        i += 1
    if words:
        seg.name = " ".join(words)
    return seg


def counted(line: Sequence[str], vocabulary: Vocabulary, most: int,
            bounded: Callable[[int, str, int, int], int]) -> tuple[int, list[str]]:
    """How many identical pieces a line says (``2x`` first) and its other tokens."""
    match = COUNT.match(line[0]) if line else None
    if match is None:
        return 1, list(line)
    return bounded(int(match.group(1)), "count", 1, most), list(line[1:])
