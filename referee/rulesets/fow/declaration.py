"""The declaration of an assault's hit allocation, as a validated value.

Geometry stays at the table (decision 4 of the rules README): for each hitting team the
players say which defending teams are within 2"/5cm and in its line of sight, which of those
it cannot reach across impassable terrain, and its building situation. The referee applies
the rules to these facts.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from referee.rulesets.fields import FilePath, Name

DefenderType = Literal["tank", "infantry", "gun", "transport"]
HitterType = Literal["tank", "tank-escort", "infantry", "gun"]
Status = Literal["active", "bogged-down", "bailed-out"]
Priority = Literal["tank", "infantry", "gun", "transport"]
Situation = Literal["open", "outside-at-opening", "inside-through-opening", "inside"]

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _check_id(value: str) -> None:
    if not _ID.match(value):
        raise PydanticCustomError("fow.decl.bad_id", "bad id {team}", {"team": value})


class DefendingTeam(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name = Field(description="short id used in answers, e.g. 'a'")
    name: Name | None = None
    type: DefenderType
    status: Status = "active"
    top: int | None = Field(default=None, ge=0, le=20, description="Top armour")
    building: Name | None = None
    platoon: Name | None = None

    @model_validator(mode="after")
    def _consistent(self) -> DefendingTeam:
        _check_id(self.id)
        vehicle = self.type in ("tank", "transport")
        if self.top is not None and not vehicle:
            raise PydanticCustomError("fow.decl.top_not_vehicle", "top on {team}",
                                      {"team": self.id})
        if self.status != "active" and not vehicle:
            raise PydanticCustomError("fow.decl.status_not_vehicle", "status on {team}",
                                      {"team": self.id})
        if vehicle and self.building is not None:
            raise PydanticCustomError("fow.decl.vehicle_in_building", "vehicle {team}",
                                      {"team": self.id})
        return self

    @property
    def label(self) -> str:
        return self.name or self.id


class HittingTeam(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name
    name: Name | None = None
    type: HitterType
    fully_armoured: bool = False
    hits: int = Field(ge=0, le=60)
    priority: Priority | None = None
    reaches: list[str] = Field(default_factory=list)
    impassable: list[str] = Field(default_factory=list)
    situation: Situation = "open"
    building: Name | None = None
    near_opening: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> HittingTeam:
        _check_id(self.id)
        tankish = self.type in ("tank", "tank-escort")
        if self.fully_armoured and not tankish:
            raise PydanticCustomError("fow.decl.fa_not_tank", "fa {team}", {"team": self.id})
        if self.type == "tank" and self.situation != "open":
            raise PydanticCustomError("fow.decl.tank_situation", "tank {team}",
                                      {"team": self.id})
        needs_building = self.situation in ("outside-at-opening", "inside")
        if needs_building and self.building is None:
            raise PydanticCustomError("fow.decl.needs_building", "building {team}",
                                      {"team": self.id})
        if self.near_opening and self.situation != "inside-through-opening":
            raise PydanticCustomError("fow.decl.near_opening", "opening {team}", {"team": self.id})
        return self

    @property
    def label(self) -> str:
        return self.name or self.id


class AssaultDeclaration(BaseModel):
    """The teams of one assault; or a roster alone (``roster``), whose teams are then asked
    at the table: which of them hit, and what the roster cannot know."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attacker: Name | None = None
    defender: Name | None = None
    roster: FilePath | None = Field(default=None, description="a roster file of teams")
    defending: list[DefendingTeam] = Field(default_factory=list, max_length=60)
    hitting: list[HittingTeam] = Field(default_factory=list, max_length=60)

    @model_validator(mode="after")
    def _references(self) -> AssaultDeclaration:
        if self.roster is not None:
            if self.defending or self.hitting:
                raise PydanticCustomError("fow.decl.roster_and_teams", "roster and teams")
            return self
        for field in ("defending", "hitting"):
            if not getattr(self, field):
                # as pydantic says it of an empty list, so that the message stays the same
                raise _located((field,), "too_short", {"min_length": 1}, "")
        ids = [d.id for d in self.defending]
        for i, d in enumerate(ids):
            if d in ids[:i]:
                raise _located(("defending", i, "id"), "fow.decl.same_id", {"team": d}, d)
        hitter_ids = [h.id for h in self.hitting]
        for i, h in enumerate(hitter_ids):
            if h in hitter_ids[:i]:
                raise _located(("hitting", i, "id"), "fow.decl.same_id", {"team": h}, h)
        for i, hitter in enumerate(self.hitting):
            for field in ("reaches", "impassable", "near_opening"):
                for team in getattr(hitter, field):
                    if team not in ids:
                        raise _located(("hitting", i, field), "fow.decl.unknown_team",
                                       {"team": team, "hitter": hitter.id,
                                        "known": ", ".join(ids)}, team)
        return self


def _located(loc: tuple[str | int, ...], kind: str, ctx: dict[str, str | int],
             value: str) -> ValidationError:
    """A validation error at a field path (so that a script's line can be named)."""
    return ValidationError.from_exception_data(
        "AssaultDeclaration",
        [InitErrorDetails(type=PydanticCustomError(kind, kind, ctx), loc=loc, input=value)])
