"""A compact line of a Lock 'n Load Tactical fire (issue 14): the Direct Fire Table modifiers
and the target hex's terrain modifier in one answer, ``+1 2``, read by the question itself
(typed and scripted alike, its words split by ``referee.rulesets.lines``) and refused with a
one-line reason naming the wrong part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets import lines

DRM_RANGE = (-10, 10)
TM_RANGE = (-5, 10)


@dataclass(frozen=True)
class Mods:
    drm: int
    tm: int


def _signed(word: str) -> int | None:
    body = word[1:] if word[:1] in "+-−" else word
    if not body.isdigit():
        return None
    return -int(body) if word[:1] in "-−" else int(body)


@dataclass(frozen=True, kw_only=True)
class ModsQuestion(LineQuestion):
    """The DRM then the TM: ``0 0``, ``+1 2``, ``-1 -1``."""

    def accept(self, raw: Any) -> Any:
        if isinstance(raw, (list, tuple)) and len(raw) == 2:  # a script's [1, 2]
            raw = " ".join(map(str, raw))
        return super().accept(raw)

    def parse(self, text: str) -> Mods:
        words = lines.tokens(text, blanks=",/", names=False)
        values = []
        for word, (low, high), what in zip(words, (DRM_RANGE, TM_RANGE), ("drm", "tm"),
                                           strict=False):
            value = _signed(word)
            if value is None or not low <= value <= high:
                raise AnswerError(Msg.of(f"lnlt.entry.error.{what}", word=word, low=low,
                                         high=f"{high:+d}"))
            values.append(value)
        if len(words) == 1:
            raise AnswerError(Msg.of("lnlt.entry.error.mods_one", word=words[0]))
        if len(words) > 2:
            raise AnswerError(Msg.of("lnlt.entry.error.mods_extra", word=words[2]))
        return Mods(values[0], values[1])

    def format(self, value: Mods) -> str:
        return " ".join(f"{v:+d}" if v else "0" for v in (value.drm, value.tm))
