"""What an attack did to each unit, by name (issue 27, outcome first): the result's
``fates``, which the outcome screen, the outcome line, JSON and the game's log read.

A ``Fate`` is one unit's (``unit``), or a whole formation's (``unit`` ``None``: its Blast
markers, broken), in its group (the formation, the hex, the side it stands with): the effects
the attack left, as messages (destroyed, suppressed, 2 hits, a Suppressed marker); none: the
unit came through unharmed. Pure values; ``summary`` words them as one outcome line, alike
units together (``Unit 1, Unit 2: destroyed; Unit 3: 1 hit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.text import Msg, jsonable


@dataclass(frozen=True)
class Fate:
    group: Msg | str
    unit: Msg | str | None
    effects: tuple[Msg, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"group": jsonable(self.group), "unit": jsonable(self.unit),
                "effects": [jsonable(e) for e in self.effects]}


def joined(parts: Iterable[Msg | str], how: str = "list") -> Msg | str:
    """Parts one after another: ``list`` with commas (``A, B``), ``then`` with semicolons."""
    out: Msg | str | None = None
    for part in parts:
        out = part if out is None else Msg.of(f"kept.fate.{how}", a=out, b=part)
    return "-" if out is None else out


def grouped(fates: Sequence[Fate]) -> list[tuple[Msg | str, tuple[Msg, ...],
                                                  list[tuple[tuple[Msg, ...], list[Msg | str]]]]]:
    """The fates by group, in the order they come: each group's own effects (a formation's
    markers) and its units, those with the same effects together (in their order), the
    unharmed last."""
    groups: dict[Msg | str, tuple[tuple[Msg, ...], dict[tuple[Msg, ...], list[Msg | str]]]] = {}
    for fate in fates:
        own, units = groups.setdefault(fate.group, ((), {}))
        if fate.unit is None:
            groups[fate.group] = (own + fate.effects, units)
        else:
            units.setdefault(fate.effects, []).append(fate.unit)
    # the units something happened to first, the unharmed last
    return [(group, own, sorted(units.items(), key=lambda item: not item[0]))
            for group, (own, units) in groups.items()]


def summary(fates: Sequence[Fate], *, unharmed: bool = False) -> Msg | str:
    """The fates as one line: each group's units with the same effects together, then the
    group's own effects; units unharmed only when ``unharmed``."""
    parts: list[Msg | str] = []
    for group, own, units in grouped(fates):
        inner: list[Msg | str] = []
        for effects, names in units:
            if not effects and not unharmed:
                continue
            inner.append(Msg.of("kept.fate.units", units=joined(names),
                                effects=joined(effects) if effects
                                else Msg.of("kept.fate.unharmed")))
        inner += list(own)
        parts.append(Msg.of("kept.fate.group", group=group, what=joined(inner, "then")
                            if inner else Msg.of("kept.fate.nothing")))
    return joined(parts, "then") if parts else Msg.of("kept.fate.nothing")
