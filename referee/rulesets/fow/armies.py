"""A whole assault of known armies: a roster's, or those a game file keeps (``kept``). The
teams and their cards are known, so the table answers one line (``fight_line.AssaultQuestion``:
who charges, whom, who fires defensively, and what changed since), and the ratings of a platoon
the roster does not rate.

``Army`` is the armies as plain values; ``from_roster`` and ``from_state`` build it;
``ask_assault`` asks the line and builds the whole assault's declaration (F-A1, F-A2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.core.port import Port
from referee.core.text import Msg
from referee.rulesets.fow.ask import Asked
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.fight import slug
from referee.rulesets.fow.fight_line import AssaultLine, AssaultQuestion
from referee.rulesets.fow.side_line import RatingsQuestion


@dataclass(frozen=True)
class ArmyTeam:
    id: str
    name: str
    side: str
    platoon: str
    type: str  # tank, infantry, gun, transport
    top: int | None = None
    fully_armoured: bool = False
    tank_escort: bool = False
    rof: int = 0
    anti_tank: int | None = None
    firepower: int | None = None
    hits_on: int | None = None
    status: str = "active"  # or bogged-down, bailed-out, destroyed

    @property
    def is_vehicle(self) -> bool:
        return self.type in ("tank", "transport")


@dataclass(frozen=True)
class ArmyPlatoon:
    name: str
    side: str
    skill: str | None = None
    motivation: str | None = None
    reroll: bool = False
    pinned: bool = False


@dataclass(frozen=True)
class Army:
    """Both sides' platoons and teams (``source``: ``roster`` or ``game``)."""

    teams: tuple[ArmyTeam, ...]
    platoons: tuple[ArmyPlatoon, ...]
    source: str = "roster"

    def team(self, team_id: str) -> ArmyTeam:
        return next(t for t in self.teams if t.id == team_id)

    def platoon(self, name: str) -> ArmyPlatoon:
        return next(p for p in self.platoons if p.name == name)


def from_roster(path: str) -> Army:
    from referee.rulesets.fow.roster import load_roster

    roster = load_roster(path)
    teams = tuple(ArmyTeam(t.id, t.label, p.side, p.name, t.type, t.top, t.fully_armoured,
                           t.tank_escort, t.rof, t.anti_tank, t.firepower, t.hits_on,
                           t.status)
                  for p in roster.platoon for t in p.teams)
    platoons = tuple(ArmyPlatoon(p.name, p.side, p.skill, p.motivation, p.reroll, p.pinned)
                     for p in roster.platoon)
    return Army(teams, platoons, "roster")


def _ratings(port: Port, platoon: ArmyPlatoon) -> ArmyPlatoon:
    """F-A18: a platoon's ratings, asked where the roster gives none."""
    if platoon.skill is not None and platoon.motivation is not None:
        return platoon
    skill, motivation, reroll = port.ask(RatingsQuestion(
        id=f"assault.ratings.{slug(platoon.name)}",
        text=Msg.of("fow.q.ratings", platoon=platoon.name),
        hint_msg=Msg.of("fow.hint.ratings"), clause="F-A18"))
    return replace(platoon, skill=skill, motivation=motivation, reroll=reroll)


def ask_assault(port: Port, army: Army, *, attacker: str | None = None,
                defender: str | None = None) -> Asked | str:
    """The whole assault of ``army`` (a roster's, with what the game keeps of it, or the
    game's own); else what the line said alone: ``"allocation"`` (only hits already
    rolled) or ``"new"`` (a new assault typed)."""
    line: AssaultLine = port.ask(AssaultQuestion(
        id="assault", text=Msg.of("fow.q.assault_line"),
        teams=tuple((t.id, t.side, t.platoon, t.type, t.status, t.rof) for t in army.teams),
        # the teams still in the fight, completed as they are typed (issue 27)
        suggestions=tuple(t.id for t in army.teams if t.status != "destroyed"),
        hint_msg=Msg.of("fow.hint.assault_line",
                        teams=", ".join(f"{t.id} {t.name}" for t in army.teams
                                        if t.status != "destroyed")),
        clause="F-A1"))
    if line.allocation or line.new:
        return "allocation" if line.allocation else "new"
    charging = army.team(line.charge[0])
    states = {team_id: status for team_id, status, _ in line.states}
    in_building = {team_id for team_id, _, building in line.states if building}
    fighting = [army.team(t) for t in line.vs]
    platoon_names = list(dict.fromkeys([charging.platoon, *(t.platoon for t in fighting)]))
    platoons = [_ratings(port, army.platoon(name)) for name in platoon_names]
    defending = []
    for t in fighting:
        status = states.get(t.id, t.status)
        entry: dict[str, Any] = {"id": t.id, "name": t.name, "type": t.type,
                                 "platoon": t.platoon, **_card(t)}
        if t.is_vehicle and status != "active":
            entry["status"] = status
        if t.top is not None:
            entry["top"] = t.top
        if t.id in in_building:
            entry["building"] = "building"
        if t.id in line.fire:
            entry["fires"] = t.rof
        defending.append(entry)
    chargers = []
    for team_id in line.charge:
        t = army.team(team_id)
        kind = "tank-escort" if t.tank_escort else t.type
        entry = {"id": t.id, "name": t.name, "type": kind, **_card(t)}
        if t.top is not None and t.type == "tank":
            entry["top"] = t.top
        if t.fully_armoured:
            entry["fully_armoured"] = True
        chargers.append(entry)
    decl = AssaultDeclaration.model_validate({
        "attacker": attacker or charging.side,
        "defender": defender or ", ".join(dict.fromkeys(t.side for t in fighting)),
        "assaulting": chargers, "defending": defending,
        "platoons": [{"name": p.name, "side": "attacker" if p.name == charging.platoon
                      else "defender", "skill": p.skill, "motivation": p.motivation,
                      "reroll": p.reroll} for p in platoons]})
    notes: list[tuple[Msg, str]] = [(Msg.of("fow.inferred.army_reach"), "F-2")]
    return Asked(decl, tuple(notes))


def _card(t: ArmyTeam) -> dict[str, Any]:
    card = {"anti_tank": t.anti_tank, "firepower": t.firepower, "hits_on": t.hits_on}
    return {k: v for k, v in card.items() if v is not None}


def on_sides(army: Army, sides: Mapping[str, str]) -> Army:
    """``army`` with its sides renamed (a typed assault's "Attacker": the game's "Grey"), so
    that the game keeps every platoon on the side it is on, whoever charged."""
    return Army(tuple(replace(t, side=sides.get(t.side, t.side)) for t in army.teams),
                tuple(replace(p, side=sides.get(p.side, p.side)) for p in army.platoons),
                army.source)


def from_declaration(decl: AssaultDeclaration) -> Army:
    """The armies a whole assault's declaration names (to keep them in a game file)."""
    own = {side: [p.name for p in decl.platoons if p.side == side]
           for side in ("attacker", "defender")}
    sides = {"attacker": decl.attacker or "attacker", "defender": decl.defender or "defender"}
    teams = [ArmyTeam(a.id, a.label, sides["attacker"], a.platoon or own["attacker"][0],
                      "infantry" if a.type == "tank-escort" else a.type, a.top,
                      a.fully_armoured, a.type == "tank-escort", 0, a.anti_tank, a.firepower,
                      a.hits_on) for a in decl.assaulting]
    teams += [ArmyTeam(d.id, d.label, sides["defender"], d.platoon or own["defender"][0],
                       d.type, d.top, False, False, d.fires, d.anti_tank, d.firepower,
                       d.hits_on, d.status) for d in decl.defending]
    platoons = tuple(ArmyPlatoon(p.name, sides[p.side], p.skill, p.motivation, p.reroll)
                     for p in decl.platoons)
    return Army(tuple(teams), platoons, "declaration")
