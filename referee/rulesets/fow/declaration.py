"""The declaration of an assault, as a validated value: either the allocation of known hits
(``hitting``: the teams that scored hits, the seed's F-1 to F-13) or the whole assault
(``assaulting``: the teams that charge, with ``platoons`` and their ratings, and the defending
teams' defensive fire; docs/rules/flames-of-war-assault.md), or a roster alone (asked at the
table).

Geometry stays at the table (decision 4 of docs/rules/README.md): for each hitting team the
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
Skill = Literal["conscript", "trained", "veteran"]
Motivation = Literal["reluctant", "confident", "fearless"]
Side = Literal["attacker", "defender"]
# the fields of a defending team that only a whole assault reads
WHOLE_ASSAULT_FIELDS = ("fires", "hits_on", "anti_tank", "firepower", "reaches", "priority")

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _check_id(value: str) -> None:
    if not _ID.match(value):
        raise PydanticCustomError("fow.decl.bad_id", "bad id {team}", {"team": value})


def _check_fighting(team: HittingTeam | AssaultingTeam) -> None:
    """What a team that hits must be: a usable id, Fully-Armoured only as a tank or Tank
    Escort, a tank in the open (F-11), a building named where it fights at or in one and
    teams near an opening only when it fights through one (F-10)."""
    _check_id(team.id)
    if team.fully_armoured and team.type not in ("tank", "tank-escort"):
        raise PydanticCustomError("fow.decl.fa_not_tank", "fa {team}", {"team": team.id})
    if team.type == "tank" and team.situation != "open":
        raise PydanticCustomError("fow.decl.tank_situation", "tank {team}", {"team": team.id})
    if team.situation in ("outside-at-opening", "inside") and team.building is None:
        raise PydanticCustomError("fow.decl.needs_building", "building {team}",
                                  {"team": team.id})
    if team.near_opening and team.situation != "inside-through-opening":
        raise PydanticCustomError("fow.decl.near_opening", "opening {team}", {"team": team.id})


class DefendingTeam(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name = Field(description="short id used in answers, e.g. 'a'")
    name: Name | None = None
    type: DefenderType
    status: Status = "active"
    top: int | None = Field(default=None, ge=0, le=20, description="Top armour")
    building: Name | None = None
    platoon: Name | None = None
    # a whole assault only: its defensive fire dice (F-A3), its card's assault score (F-A9),
    # anti-tank and firepower in assault (F-A12, F-A13), the charging teams it reaches when it
    # counterattacks (None: the assault's reach read both ways, F-A22) and its priority (F-8)
    fires: int = Field(default=0, ge=0, le=20, description="defensive fire dice")
    hits_on: int | None = Field(default=None, ge=2, le=6)
    anti_tank: int | None = Field(default=None, ge=0, le=20)
    firepower: int | None = Field(default=None, ge=1, le=6)
    reaches: list[str] | None = None
    priority: Priority | None = None

    @model_validator(mode="after")
    def _consistent(self) -> DefendingTeam:
        _check_id(self.id)
        vehicle = self.type in ("tank", "transport")
        if self.fires and (self.status == "bailed-out" or self.type == "transport"):
            raise PydanticCustomError("fow.decl.cannot_fire", "fires {team}", {"team": self.id})
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
        _check_fighting(self)
        return self

    @property
    def label(self) -> str:
        return self.name or self.id


class AssaultingTeam(BaseModel):
    """A team that charges in a whole assault (F-A1, F-A2): what the allocation needs of it as
    a hitting team, and as a team hit in a counterattack (its type and Top armour)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name
    name: Name | None = None
    type: HitterType
    fully_armoured: bool = False
    top: int | None = Field(default=None, ge=0, le=20, description="Top armour")
    platoon: Name | None = None
    hits_on: int | None = Field(default=None, ge=2, le=6)
    anti_tank: int | None = Field(default=None, ge=0, le=20)
    firepower: int | None = Field(default=None, ge=1, le=6)
    priority: Priority | None = None
    reaches: list[str] | None = None  # None: every defending team (F-2)
    impassable: list[str] = Field(default_factory=list)
    situation: Situation = "open"
    building: Name | None = None
    near_opening: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> AssaultingTeam:
        _check_fighting(self)
        if self.top is not None and self.type != "tank":
            raise PydanticCustomError("fow.decl.top_not_vehicle", "top on {team}",
                                      {"team": self.id})
        return self

    @property
    def label(self) -> str:
        return self.name or self.id


class Platoon(BaseModel):
    """A platoon of a whole assault, with its ratings (F-A4, F-A9, F-A18) and whether a
    commander or special rule lets it re-roll a failed Motivation test (F-A20)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name
    side: Side
    skill: Skill
    motivation: Motivation
    reroll: bool = False
    key: str | None = Field(default=None, description="the platoon in question ids "
                            "(round.1.choice.KEY); default: from its name")

    @model_validator(mode="after")
    def _key(self) -> Platoon:
        if self.key is not None:
            _check_id(self.key)
        return self


class AssaultDeclaration(BaseModel):
    """The teams of one assault; or a roster alone (``roster``), whose teams are then asked
    at the table: which of them hit, and what the roster cannot know."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attacker: Name | None = None
    defender: Name | None = None
    roster: FilePath | None = Field(default=None, description="a roster file of teams")
    defending: list[DefendingTeam] = Field(default_factory=list, max_length=60)
    hitting: list[HittingTeam] = Field(default_factory=list, max_length=60)
    # a whole assault (docs/rules/flames-of-war-assault.md)
    assaulting: list[AssaultingTeam] = Field(default_factory=list, max_length=60)
    platoons: list[Platoon] = Field(default_factory=list, max_length=60)
    concealed: bool = Field(default=False, description="the charging teams are concealed from "
                            "defensive fire (F-A4)")

    @property
    def whole(self) -> bool:
        """A whole assault (charging teams), not the allocation of known hits."""
        return bool(self.assaulting)

    @model_validator(mode="after")
    def _references(self) -> AssaultDeclaration:
        if self.roster is not None:
            if self.defending or self.hitting or self.assaulting or self.platoons:
                raise PydanticCustomError("fow.decl.roster_and_teams", "roster and teams")
            return self
        if self.assaulting or self.platoons or self.concealed:
            if self.hitting:
                raise _located(("hitting",), "fow.decl.hitting_and_assaulting", {}, "")
            _check_whole(self)
            return self
        for i, team in enumerate(self.defending):
            for field in WHOLE_ASSAULT_FIELDS:
                if field in team.model_fields_set:
                    raise _located(("defending", i, field), "fow.decl.whole_only",
                                   {"field": field}, "")
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


def _check_whole(decl: AssaultDeclaration) -> None:
    """A whole assault's references: teams on both sides, one id per team across the sides,
    every team named where it is reached, each team's platoon rated, and one charging
    platoon (F-A1)."""
    for field in ("defending", "assaulting"):
        if not getattr(decl, field):
            raise _located((field,), "too_short", {"min_length": 1}, "")
    seen: list[str] = []
    for field in ("defending", "assaulting"):
        for i, team in enumerate(getattr(decl, field)):
            if team.id in seen:
                raise _located((field, i, "id"), "fow.decl.same_id", {"team": team.id}, team.id)
            seen.append(team.id)
    defenders = [d.id for d in decl.defending]
    chargers = [a.id for a in decl.assaulting]
    for i, a in enumerate(decl.assaulting):
        for field in ("reaches", "impassable", "near_opening"):
            named: list[str] = getattr(a, field) or []
            for other in named:
                if other not in defenders:
                    raise _located(("assaulting", i, field), "fow.decl.unknown_team",
                                   {"team": other, "hitter": a.id,
                                    "known": ", ".join(defenders)}, other)
    for i, d in enumerate(decl.defending):
        for other in d.reaches or []:
            if other not in chargers:
                raise _located(("defending", i, "reaches"), "fow.decl.unknown_charger",
                               {"team": other, "hitter": d.id, "known": ", ".join(chargers)},
                               other)
    names = [p.name for p in decl.platoons]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise _located(("platoons", i, "name"), "fow.decl.same_platoon",
                           {"platoon": name}, name)
    for field, side in (("assaulting", "attacker"), ("defending", "defender")):
        own = [p.name for p in decl.platoons if p.side == side]
        for i, team in enumerate(getattr(decl, field)):
            if team.platoon is None and len(own) != 1:
                raise _located((field, i, "platoon"), "fow.decl.which_platoon",
                               {"team": team.id, "side": side,
                                "known": ", ".join(own) or "-"}, "")
            if team.platoon is not None and team.platoon not in own:
                raise _located((field, i, "platoon"), "fow.decl.unrated_platoon",
                               {"team": team.id, "platoon": team.platoon, "side": side,
                                "known": ", ".join(own) or "-"}, team.platoon)
    charging = {a.platoon or "" for a in decl.assaulting}
    if len(charging) > 1:
        raise _located(("assaulting",), "fow.decl.one_platoon",
                       {"platoons": ", ".join(sorted(charging))}, "")


def _located(loc: tuple[str | int, ...], kind: str, ctx: dict[str, str | int],
             value: str) -> ValidationError:
    """A validation error at a field path (so that a script's line can be named)."""
    return ValidationError.from_exception_data(
        "AssaultDeclaration",
        [InitErrorDetails(type=PydanticCustomError(kind, kind, ctx), loc=loc, input=value)])
