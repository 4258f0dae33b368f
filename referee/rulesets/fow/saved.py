"""What a Flames of War game file keeps, as a model (docs/rules/flames-of-war-assault.md,
section 4; ``kept``): the teams of the armies that fought, by id and name, with their side,
platoon, card values and state, and the platoons with their ratings and whether they are
Pinned Down. A damaged or edited file is refused before any rule reads it (``referee.game``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class SavedTeam(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    side: str = Field(min_length=1)
    platoon: str = Field(min_length=1)
    type: Literal["tank", "infantry", "gun", "transport"]
    top: int | None = Field(default=None, ge=0, le=20)
    fully_armoured: bool = False
    tank_escort: bool = False
    rof: int = Field(default=0, ge=0, le=20)
    anti_tank: int | None = Field(default=None, ge=0, le=20)
    firepower: int | None = Field(default=None, ge=1, le=6)
    hits_on: int | None = Field(default=None, ge=2, le=6)
    status: Literal["active", "bogged-down", "bailed-out", "destroyed"] = "active"


class SavedPlatoon(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1)
    side: str = Field(min_length=1)
    skill: Literal["conscript", "trained", "veteran"] | None = None
    motivation: Literal["reluctant", "confident", "fearless"] | None = None
    reroll: bool = False
    pinned: bool = False


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    teams: list[SavedTeam] = Field(default_factory=list)
    platoons: list[SavedPlatoon] = Field(default_factory=list)
    assaults: int = Field(default=0, ge=0)
