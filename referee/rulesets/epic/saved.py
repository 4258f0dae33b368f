"""What an Epic Armageddon game file keeps, as a model: each formation's Blast markers, broken
state, destroyed units and overwatch (E-14, E-20). A damaged or edited file is refused before
any rule reads it (``referee.game``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class SavedArmyUnit(BaseModel):
    """A unit of a kept formation (issue 27): its name and what an attack gave of it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200)
    number: int | None = Field(default=None, ge=1)
    type: Literal["INF", "LV", "AV"] | None = None
    armour: int | None = Field(default=None, ge=2, le=6)
    weapons: list[str] = Field(default_factory=list, max_length=40)
    reinforced: bool | None = None
    invulnerable: bool | None = None


class SavedArmy(BaseModel):
    """A kept formation's side, weapons (as a declaration gives them) and units."""

    model_config = ConfigDict(extra="forbid", strict=True)

    side: str | None = None
    weapons: list[dict[str, Any]] = Field(default_factory=list, max_length=40)
    units: list[SavedArmyUnit] = Field(default_factory=list, max_length=100)


class SavedFormation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    blast_markers: int = Field(default=0, ge=0, le=999)
    broken: bool = False
    destroyed: list[str] = Field(default_factory=list)
    overwatch: bool | None = None
    army: SavedArmy | None = None  # issue 27: what the game keeps of its units


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    formations: dict[str, SavedFormation] = Field(default_factory=dict)
