"""What every Epic declaration model shares: the strict model settings, the ground a unit
stands in, the key a name gives question ids, and how a numbered unit is shown. Imported by
the shooting and the assault declarations alike (neither imports the other's models)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import ConfigDict

from referee.core.text import Msg

MODEL_CONFIG = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)
"""Every model is checked strictly (no infinite or NaN distance), and built on first use,
not on import: a scripted attack builds the declaration's models only (not the roster
file's), and each once."""

TerrainId = Literal["open", "buildings", "fortifications", "jungle", "marsh", "river", "ruins",
                    "scrub", "woods", "touching-vehicle", "hidden"]


def weapon_key(name: str) -> str:
    """A stable id for question ids: ``"Heavy cannon"`` becomes ``heavy-cannon``."""
    return re.sub(r"[\W_]+", "-", name.casefold()).strip("-") or "weapon"  # any alphabet


NAMED_BY_TYPE = {"INF": "infantry", "LV": "light-vehicle", "AV": "armoured-vehicle",
                 "WE": "war-engine"}
"""A unit typed at the table without a name is numbered by its type (issue 27): the key of
its name (``infantry-2``) and of its label (``epic.named.infantry``: ``Infantry 2``)."""


def shown(name: str, number: int | None, kind: str) -> Msg | str:
    """What a player reads for a unit or weapon: its name, or for one numbered at the table
    ``Infantry 3`` (``Unit 3`` in older game files) in the player's language (the name,
    ``infantry-3``, keys the question ids)."""
    if number is None:
        return name
    m = re.fullmatch(r"([a-z-]+)-\d+", name)
    if m is not None and m.group(1) in NAMED_BY_TYPE.values():
        return Msg.of(f"epic.named.{m.group(1)}", n=number)
    return Msg.of(f"epic.default.{kind}", n=number)
