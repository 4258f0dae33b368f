"""What a Combat Commander game file keeps, as a model: the cards left in each virtual Fate
deck (C-10, C-X8), by ``edition/nation``, as card keys (``"1-1:jammed"``, ``"3-4"``). A
damaged or edited file is refused before any rule reads it (``referee.game``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from referee.rulesets.kept import Charts

CardKey = Annotated[str, StringConstraints(pattern=r"^[1-6]-[1-6](:(jammed|event|sniper|time))?$")]
Slot = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+/[a-z]+$")]


class SavedPiece(BaseModel):
    """A named piece or unit typed or declared in an attack of the game (issue 27): its
    side (its nation), its hex, its printed values as far as they were given, its state."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200)
    side: Literal["germany", "america", "russia", "britain", "france", "italy"]
    hex: str | None = None
    kind: Literal["unit", "weapon", "leader"] = "unit"
    fp: int | None = Field(default=None, ge=0, le=30)
    range: int | None = Field(default=None, ge=0, le=40)
    morale: int | None = Field(default=None, ge=0, le=15)
    broken_morale: int | None = Field(default=None, ge=0, le=15)
    command: int = Field(default=0, ge=0, le=5)
    vp: int | None = Field(default=None, ge=0, le=20)
    # where it last fired from (hexes to its target, hindrance) and the cover of the hex it
    # was last fired at in: what a later attack offers as its default (issue 27)
    distance: int | None = Field(default=None, ge=1, le=40)
    hindrance: int | None = Field(default=None, ge=0, le=20)
    cover: int | None = Field(default=None, ge=-5, le=10)
    white_band: bool = False
    broken: bool = False
    suppressed: bool = False
    eliminated: bool = False


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    decks: dict[Slot, list[CardKey]] = Field(default_factory=dict)
    units: list[SavedPiece] = Field(default_factory=list)
    charts: Charts = Field(default_factory=list)
