"""The armies a game file keeps, as a player reads them (issue 27, ``game roster``): each
formation, hex or platoon with its side and its units by name, their profile and state. Pure
values, which each ruleset's ``army`` module builds from its state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.core.text import Msg

RosterPart = Msg | tuple[str, dict[str, Any]]
"""A part of a roster file to write, in order: a comment (a message), or a table (its header,
``[[units]]``; ``""`` for the keys at the top) with its keys' values (``None``: left out)."""


@dataclass(frozen=True)
class Unit:
    """A kept unit: its name, what it is (its profile, as a player reads it), its state."""

    name: Msg | str
    profile: Msg | str
    state: Msg | str | None = None  # None: as it was typed, unharmed


@dataclass(frozen=True)
class Group:
    """A formation, a hex or a platoon the game keeps, with its side (``None``: not known)
    and its units; ``state``: what the group itself carries (Blast markers, broken)."""

    ruleset: str
    name: Msg | str
    side: Msg | str | None  # a nation (a message) stands for the game's side it is on
    units: tuple[Unit, ...]
    state: tuple[Msg, ...] = field(default=())
