"""Roster files: the teams of both sides' platoons described once (type, Top armour,
Fully-Armoured), so that an assault at the table asks only which teams hit, their hits and
reach, and what a roster cannot know (Bogged Down, Bailed Out, in a building).

``referee attack fow --roster FILE`` gives the declaration ``{"roster": FILE}``; a script may
give ``roster = "FILE"`` in its ``[declaration]`` (found from the script's folder).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from referee.core.errors import ScriptError
from referee.core.port import Port
from referee.core.questions import EITHER
from referee.core.text import Msg
from referee.files import read_toml, validate, where
from referee.rulesets.fields import Name
from referee.rulesets.fow.ask import Asked, Hitters
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.line import ExceptionsQuestion, TeamsQuestion, all_line, none_line

_ID = re.compile(r"^[a-z][a-z0-9-]*$")  # a letter first: a number in a line is a count of hits


class RosterTeam(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name = Field(description="short id typed in answers, e.g. 'r1'")
    name: Name | None = None
    type: Literal["tank", "infantry", "gun", "transport"]
    top: int | None = Field(default=None, ge=0, le=20, description="Top armour")
    fully_armoured: bool = Field(default=False, description="a Fully-Armoured tank, or an "
                                 "escort of one (F-11)")
    tank_escort: bool = Field(default=False, description="infantry that hit as Tank Escorts")
    # the card's values a whole assault reads (docs/rules/flames-of-war-assault.md)
    rof: int = Field(default=0, ge=0, le=20, description="defensive fire dice (F-A3)")
    anti_tank: int | None = Field(default=None, ge=0, le=20, description="in assault (F-A12)")
    firepower: int | None = Field(default=None, ge=1, le=6, description="in assault (F-A13)")
    hits_on: int | None = Field(default=None, ge=2, le=6, description="own assault score")
    status: Literal["active", "bogged-down", "bailed-out", "destroyed"] = Field(
        default="active", description="its state (a roster a game file wrote: game roster)")

    @model_validator(mode="after")
    def _consistent(self) -> RosterTeam:
        if not _ID.match(self.id):
            raise PydanticCustomError("fow.roster.bad_id", "bad id {team}", {"team": self.id})
        vehicle = self.type in ("tank", "transport")
        if self.top is not None and not vehicle:
            raise PydanticCustomError("fow.decl.top_not_vehicle", "top on {team}",
                                      {"team": self.id})
        if self.tank_escort and self.type != "infantry":
            raise PydanticCustomError("fow.roster.escort_not_infantry", "escort {team}",
                                      {"team": self.id})
        if self.rof and self.type == "transport":
            raise PydanticCustomError("fow.decl.cannot_fire", "fires {team}", {"team": self.id})
        if self.fully_armoured and not (self.type == "tank" or self.tank_escort):
            raise PydanticCustomError("fow.decl.fa_not_tank", "fa {team}", {"team": self.id})
        return self

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def hitter_type(self) -> str:
        return "tank-escort" if self.tank_escort else self.type


class RosterPlatoon(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name
    side: Name = Field(description="the player or army the platoon belongs to")
    teams: list[RosterTeam] = Field(min_length=1, max_length=60)
    # its ratings, for a whole assault (asked at the table where the roster gives none)
    skill: Literal["conscript", "trained", "veteran"] | None = None
    motivation: Literal["reluctant", "confident", "fearless"] | None = None
    reroll: bool = False
    pinned: bool = Field(default=False, description="Pinned Down (a roster a game file "
                                                    "wrote: game roster)")


class Roster(BaseModel):
    """A roster file: both sides' platoons and their teams."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    platoon: list[RosterPlatoon] = Field(min_length=1, max_length=60)


def load_roster(path: str) -> Roster:
    text, raw = read_toml(path)
    roster: Roster = validate(Roster, raw, path, text)
    seen: set[str] = set()
    for i, platoon in enumerate(roster.platoon):
        for j, team in enumerate(platoon.teams):
            if team.id in seen:
                raise ScriptError(path, where(text, ["platoon", i, "teams", j, "id"]),
                                  Msg.of("fow.decl.same_id", team=team.id))
            seen.add(team.id)
    if len({p.side for p in roster.platoon}) < 2:
        raise ScriptError(path, where(text, ["platoon", 0, "side"]),
                          Msg.of("fow.roster.one_side", side=roster.platoon[0].side))
    return roster


def _listing(teams: list[tuple[RosterPlatoon, RosterTeam]]) -> str:
    return ", ".join(f"{t.id} {t.label}" for _, t in teams)


def _members(roster: Roster) -> list[tuple[RosterPlatoon, RosterTeam]]:
    return [(p, t) for p in roster.platoon for t in p.teams]


def ask_from_roster(port: Port, decl: AssaultDeclaration, transport_priority: bool) -> Asked:
    assert decl.roster is not None
    roster = load_roster(decl.roster)
    members = _members(roster)
    sides = {t.id: p.side for p, t in members}
    hitters_offered = [(p, t) for p, t in members if t.type != "transport"]
    picked: tuple[str, ...] = port.ask(TeamsQuestion(
        id="hitting-teams", text=Msg.of("fow.q.roster_hitters"), clause="F-2",
        team_ids=tuple(t.id for _, t in hitters_offered), sides=tuple(sides.items()),
        hint_msg=Msg.of("fow.hint.roster_teams", teams=_listing(hitters_offered))))
    attacker = sides[picked[0]]
    others = [(p, t) for p, t in members if p.side != attacker]
    chosen: tuple[str, ...] = port.ask(TeamsQuestion(
        id="defending-teams", text=Msg.of("fow.q.roster_defenders", side=attacker),
        team_ids=tuple(t.id for _, t in others), every=True, clause="F-9",
        hint_msg=Msg.of("fow.hint.roster_teams", teams=_listing(others)),
        default_value=all_line()))
    defending = [(p, t) for p, t in others if t.id in chosen]
    vehicles = tuple(t.id for _, t in defending if t.type in ("tank", "transport"))
    exceptions = port.ask(ExceptionsQuestion(
        id="defending.exceptions", text=Msg.of("fow.q.roster_exceptions"),
        team_ids=tuple(t.id for _, t in defending), vehicles=vehicles,
        hint_msg=Msg.of("fow.hint.exceptions"), clause="F-4",
        default_value=none_line(), answered_by=EITHER))
    state = {team: (status, building) for team, status, building in exceptions}
    defenders: list[dict[str, Any]] = []
    for platoon, team in defending:
        entry: dict[str, Any] = {"id": team.id, "name": team.label, "type": team.type,
                                 "platoon": platoon.name}
        if team.top is not None:
            entry["top"] = team.top
        status, building = state.get(team.id, ("active", False))
        if status != "active":
            entry["status"] = status
        if building:
            entry["building"] = "building"
        defenders.append(entry)
    hitters = Hitters(port, defenders, transport_priority)
    hitting: list[dict[str, Any]] = []
    for _, team in hitters_offered:
        if team.id not in picked:
            continue
        qid = f"hitting.{team.id}"
        line = hitters.ask_line(qid, Msg.of("fow.q.hitter_roster", team=team.label),
                                known_type=team.hitter_type, known_fa=team.fully_armoured)
        assert line is not None
        fields = hitters.teams(qid, line, [team.id], team.label)
        hitting.append({"id": team.id, "name": team.label, **fields})
    defender_sides = ", ".join(dict.fromkeys(p.side for p, _ in defending))
    built = AssaultDeclaration.model_validate({
        "attacker": decl.attacker or attacker, "defender": decl.defender or defender_sides,
        "defending": defenders, "hitting": hitting})
    names = {h.id: h.label for h in built.hitting}
    return Asked(built, tuple(hitters.notes(names)))
