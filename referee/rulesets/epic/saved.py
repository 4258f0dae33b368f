"""What an Epic Armageddon game file keeps, as a model: each formation's Blast markers, broken
state, destroyed units, overwatch (E-14, E-20) and its war engines' damage and void
shields down (E-W1, E-W9). A damaged or edited file is refused before
any rule reads it (``referee.game``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class SavedArmyUnit(BaseModel):
    """A unit of a kept formation (issue 27): its name and what an attack gave of it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200)
    number: int | None = Field(default=None, ge=1)
    type: Literal["INF", "LV", "AV", "WE"] | None = None
    armour: int | None = Field(default=None, ge=2, le=6)
    dc: int | None = Field(default=None, ge=1, le=20)  # a war engine's (E-W1)
    void_shields: int | None = Field(default=None, ge=0, le=12)  # a war engine's (E-W9)
    weapons: list[str] = Field(default_factory=list, max_length=40)
    reinforced: bool | None = None
    invulnerable: bool | None = None
    # what a roster brought in by `game roster --import` gives for assaults and the turn
    # (E-A3, E-A15 to E-A18, E-T8): kept so that the roster written back is the same roster
    cc: int | None = Field(default=None, ge=2, le=6)
    ff: int | None = Field(default=None, ge=2, le=6)
    fearless: bool | None = None
    inspiring: bool | None = None
    expendable: bool | None = None
    leader: bool | None = None
    supreme_commander: bool | None = None
    first_strike: bool | None = None
    extra: list[dict[str, Any]] = Field(default_factory=list, max_length=4)


class SavedArmy(BaseModel):
    """A kept formation's side, weapons (as a declaration gives them) and units."""

    model_config = ConfigDict(extra="forbid", strict=True)

    side: str | None = None
    initiative: int | None = Field(default=None, ge=1, le=6)  # a roster's (E-T3)
    weapons: list[dict[str, Any]] = Field(default_factory=list, max_length=40)
    units: list[SavedArmyUnit] = Field(default_factory=list, max_length=100)


class SavedFormation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    blast_markers: int = Field(default=0, ge=0, le=999)
    broken: bool = False
    destroyed: list[str] = Field(default_factory=list)
    overwatch: bool | None = None
    army: SavedArmy | None = None  # issue 27: what the game keeps of its units
    damage: dict[str, int] = Field(default_factory=dict)  # war engines' damage, by unit (E-W1)
    shields_down: dict[str, int] = Field(default_factory=dict)  # void shields down (E-W9)


class SavedTurn(BaseModel):
    """Where the turn stands (E-T1 to E-T7, ``referee epic-turn``): its number and phase,
    the side to act, the formations that have acted, the last activation (for retaining
    the initiative), each side's strategy rating and each formation's side and initiative,
    asked once."""

    model_config = ConfigDict(extra="forbid", strict=True)

    number: int = Field(default=1, ge=1, le=99)
    phase: Literal["strategy", "action", "end"] = "strategy"
    first: str | None = None  # the side that acted first this turn
    acting: str | None = None  # the side whose activation comes next
    acted: list[str] = Field(default_factory=list)
    last: str | None = None  # the formation that acted last ...
    last_passed: bool = False  # ... passed its action test ...
    last_retained: bool = False  # ... and had retained the initiative
    last_action: str | None = None
    strategy: dict[str, int] = Field(default_factory=dict)
    sides: dict[str, str] = Field(default_factory=dict)
    initiative: dict[str, int] = Field(default_factory=dict)
    rerolls: list[str] = Field(default_factory=list)  # sides whose supreme commander re-rolled


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    formations: dict[str, SavedFormation] = Field(default_factory=dict)
    turn: SavedTurn | None = None
