"""The teams and platoons of a whole assault as plain values (docs/rules/
flames-of-war-assault.md): each team's card as the fight needs it, its side and platoon, and
each platoon's ratings. A team's state changes from round to round; it is held apart, in a
``Status`` map (team id to ``active``, ``bogged-down``, ``bailed-out`` or ``destroyed``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from referee.core.questions import ATTACKER, DEFENDER, Answerer
from referee.core.text import Msg
from referee.rulesets.fow.declaration import AssaultDeclaration

ACTIVE, BOGGED, BAILED, DESTROYED = "active", "bogged-down", "bailed-out", "destroyed"
SIDES = ("attacker", "defender")

Status = dict[str, str]


def slug(name: str) -> str:
    """A name as a part of a question id (``Red Rifle Platoon`` -> ``red-rifle-platoon``)."""
    return re.sub(r"[^\w]+", "-", name.casefold()).strip("-") or "platoon"


def answerer(side: str) -> Answerer:
    """Who answers the questions of ``side``'s teams at the table (``Question.answered_by``):
    the attacker's (the charging side) or the defender's."""
    return ATTACKER if side == "attacker" else DEFENDER


def other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


@dataclass(frozen=True)
class Fighter:
    """A team of the assault. ``kind`` is what it is when hit (Tank, Infantry, Gun,
    Transport: a Tank Escort is hit as infantry); ``hitter`` how it hits (``None``: a
    Transport, which never fights)."""

    id: str
    name: str
    side: str
    platoon: str
    kind: str
    hitter: str | None
    top: int | None = None
    fully_armoured: bool = False
    building: str | None = None
    fires: int = 0  # defensive fire dice (F-A3)
    hits_on: int | None = None  # the card's own assault score (F-A9)
    anti_tank: int | None = None  # the card's anti-tank in assault (F-A12)
    firepower: int | None = None  # the card's firepower in assault (F-A13)
    priority: str | None = None  # F-8
    reaches: tuple[str, ...] | None = None  # None: every team of the other side (mirror, F-A22)
    impassable: tuple[str, ...] = ()
    situation: str = "open"
    near_opening: tuple[str, ...] = ()

    @property
    def is_vehicle(self) -> bool:
        return self.kind in ("tank", "transport")

    @property
    def armoured(self) -> bool:
        return self.is_vehicle and self.top is not None


@dataclass(frozen=True)
class Rated:
    """A platoon and its ratings."""

    name: str
    side: str
    skill: str
    motivation: str
    reroll: bool = False
    key: str = ""  # the platoon in question ids (``slug`` of its name where not given)

    @property
    def ident(self) -> str:
        return self.key or slug(self.name)


@dataclass(frozen=True)
class Fight:
    attacker: Msg | str
    defender: Msg | str
    teams: tuple[Fighter, ...]
    platoons: tuple[Rated, ...]
    concealed: bool = False
    start: Mapping[str, str] = field(default_factory=dict)  # each team's status at the start

    def team(self, team_id: str) -> Fighter:
        return next(t for t in self.teams if t.id == team_id)

    def platoon(self, name: str) -> Rated:
        return next(p for p in self.platoons if p.name == name)

    def of_side(self, side: str) -> tuple[Fighter, ...]:
        return tuple(t for t in self.teams if t.side == side)

    def side_name(self, side: str) -> Msg | str:
        return self.attacker if side == "attacker" else self.defender

    @property
    def charging(self) -> Rated:
        """The assaulting platoon (F-A1)."""
        return self.platoon(self.of_side("attacker")[0].platoon)

    def status(self) -> Status:
        return {t.id: self.start.get(t.id, ACTIVE) for t in self.teams}


def named(fight: Fight, attacker: str | None, defender: str | None) -> Fight:
    """The fight with its sides' real names where the game knows them (issue 27: "Grey
    wins the assault", not "Attacker wins")."""
    if attacker is None and defender is None:
        return fight
    return replace(fight, attacker=attacker or fight.attacker,
                   defender=defender or fight.defender)


def can_fight(team: Fighter, status: Mapping[str, str]) -> bool:
    """A team that hits and counts as able to fight on (F-A16, F-A17): neither destroyed nor
    bailed out, and not a Transport."""
    return team.hitter is not None and status[team.id] not in (BAILED, DESTROYED)


def in_assault(team: Fighter, status: Mapping[str, str]) -> bool:
    """A team that can still be hit: every team not destroyed."""
    return status[team.id] != DESTROYED


_HIT_AS = {"tank": "tank", "tank-escort": "infantry", "infantry": "infantry", "gun": "gun"}


def from_declaration(decl: AssaultDeclaration) -> Fight:
    """The fight a whole assault's declaration describes."""
    assert decl.whole
    own = {side: [p.name for p in decl.platoons if p.side == side] for side in SIDES}
    teams: list[Fighter] = []
    start: dict[str, str] = {}
    for a in decl.assaulting:
        teams.append(Fighter(
            a.id, a.label, "attacker", a.platoon or own["attacker"][0], _HIT_AS[a.type],
            a.type, a.top, a.fully_armoured, a.building,
            0, a.hits_on, a.anti_tank, a.firepower, a.priority,
            None if a.reaches is None else tuple(a.reaches), tuple(a.impassable), a.situation,
            tuple(a.near_opening)))
    for d in decl.defending:
        hitter = None if d.type == "transport" else d.type
        teams.append(Fighter(
            d.id, d.label, "defender", d.platoon or own["defender"][0], d.type, hitter, d.top,
            False, d.building, d.fires, d.hits_on, d.anti_tank, d.firepower, d.priority,
            None if d.reaches is None else tuple(d.reaches)))
        start[d.id] = d.status
    platoons = tuple(Rated(p.name, p.side, p.skill, p.motivation, p.reroll, p.key or "")
                     for p in decl.platoons)
    return Fight(decl.attacker or Msg.of("fow.default.attacker"),
                 decl.defender or Msg.of("fow.default.defender"), tuple(teams), platoons,
                 decl.concealed, start)
