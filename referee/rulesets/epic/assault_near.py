"""The formations near an assault (E-A8, E-A11) and where the units stand again before
another round (E-A10), asked at the table: the other formations of either side within 15 cm
of the fight (they may support, and take a Blast marker if their side loses), each with
the units it could support with. Questions and plain values only: the assault (``assault``)
asks through these and keeps the answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.port import Port
from referee.core.questions import EITHER, LineQuestion
from referee.core.text import Msg
from referee.rulesets.epic.assault_model import Support, SupportUnit
from referee.rulesets.epic.common import weapon_key
from referee.rulesets.epic.fighters import FAR, Fighter
from referee.rulesets.epic.formations import ask_places, join
from referee.rulesets.epic.line import (
    Needs,
    distance_of,
    named_thing,
    prefixed_value,
    split_groups,
    words,
)
from referee.rulesets.lines import fold


def ask_where(port: Port, fighters: Sequence[Fighter], qid: str, side: Msg | str) -> None:
    """E-A10: where a side's survivors stand after counter-charges, before another round."""
    labels = [f.shown for f in fighters]
    places = ask_places(port, qid, Msg.of("epic.assault.q.where", formation=side,
                                          units=join(labels), count=len(fighters)),
                        Msg.of("epic.assault.hint.where"), labels,
                        Needs(distance=True, contact=True))
    for f, (_, place) in zip(fighters, places, strict=True):
        f.contact = place.contact
        f.engaged = place.contact or place.in_range
        f.distance = 0.0 if place.contact else (place.distance or 0.0) if f.engaged else FAR


# -- the formations near the fight ----------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class NearbyQuestion(LineQuestion):
    """The other formations within 15 cm of the fight: ``Blue Squad a, Old Guard d`` (a name
    and its side: ``a`` the attacker's, ``d`` the defender's); ``-`` none."""

    default_value: str | None = "-"
    max_length: int = 600

    def parse(self, text: str) -> tuple[tuple[str, str], ...]:
        if text.strip() in ("-", "нет"):
            return ()
        out = []
        for part in text.split(","):
            bits = part.split()
            if len(bits) < 2:
                raise AnswerError(Msg.of("epic.assault.entry.nearby", part=part.strip()))
            side = next((s for s, ws in words()["side"].items() if fold(bits[-1]) in ws), None)
            if side is None:
                raise AnswerError(Msg.of("epic.assault.entry.nearby", part=part.strip()))
            out.append((" ".join(bits[:-1]), side))
        return tuple(out)

    def format(self, value: tuple[tuple[str, str], ...]) -> str:
        return ", ".join(f"{name} {side[0]}" for name, side in value) or "-"


@dataclass(frozen=True, kw_only=True)
class SupportQuestion(LineQuestion):
    """A supporting formation's units within 15 cm of an enemy in the fight, with a line of
    fire (E-A8): ``3 ff5, we dc3 ff4``; ``-`` if it cannot support (none there, broken, or it
    marched this turn)."""

    default_value: str | None = "-"
    max_length: int = 600

    def parse(self, text: str) -> tuple[tuple[int, int, int | None], ...]:
        if text.strip() in ("-", "нет"):
            return ()
        out = []
        for tokens in split_groups(text):
            count, ff, dc = 1, None, None
            rest = tokens
            if len(tokens) > 1 and tokens[0].isdigit():
                count, rest = int(tokens[0]), tokens[1:]
            for token in rest:
                value = prefixed_value(token, "assault_value")
                if value is not None and value[0] in ("ff", "dc"):
                    if value[0] == "ff":
                        ff = int(value[1])
                    else:
                        dc = int(value[1])
                    continue
                named = named_thing(token, "type")
                if named is not None or distance_of(token) is not None:
                    continue
                raise AnswerError(Msg.of("epic.assault.entry.support", part=token))
            if ff is None or not 2 <= ff <= 6 or not 1 <= count <= 60:
                raise AnswerError(Msg.of("epic.assault.entry.support", part=" ".join(tokens)))
            out.append((count, ff, dc))
        return tuple(out)

    def format(self, value: tuple[tuple[int, int, int | None], ...]) -> str:
        return ", ".join(f"{n} ff{ff}" + (f" dc{dc}" if dc else "") for n, ff, dc in value) \
            or "-"


def ask_nearby(port: Port, state: Mapping[str, Any]) -> list[Support]:
    """E-A8, E-A11: the other formations of either side within 15 cm of the fight, once,
    each with what it could support with (none: it cannot), broken as the game file says."""
    named = port.ask(NearbyQuestion(
        answered_by=EITHER,
        id="assault.nearby", clause="E-A8", text=Msg.of("epic.assault.q.nearby"),
        hint_msg=Msg.of("epic.assault.hint.nearby")))
    out = []
    for name, side in named:
        units = port.ask(SupportQuestion(
            answered_by=EITHER, id=f"assault.support.{weapon_key(name)}", clause="E-A8",
            text=Msg.of("epic.assault.q.support", name=name),
            hint_msg=Msg.of("epic.assault.hint.support")))
        saved = state.get("formations", {}).get(name, {})
        out.append(Support(name=name, side=side, broken=bool(saved.get("broken")),
                           units=[SupportUnit(count=n, ff=ff, dc=dc) for n, ff, dc in units]))
    return out


