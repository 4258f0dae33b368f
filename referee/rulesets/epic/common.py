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


def shown(name: str, number: int | None, kind: str) -> Msg | str:
    """What a player reads for a unit or weapon: its name, or for one numbered at the table
    ``Unit 3`` in the player's language (the name, ``unit-3``, keys the question ids)."""
    return name if number is None else Msg.of(f"epic.default.{kind}", n=number)
