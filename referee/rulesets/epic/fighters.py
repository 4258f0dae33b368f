"""The units of an assault as the resolver works with them (E-A3 to E-A18, E-W11): where each
stands after the charges, the dice it rolls, what it is worth in the result, and the
``Defender`` that allocation and saves see. Pure values and arithmetic: no questions."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from referee.core.text import Msg
from referee.rulesets.epic.allocation import Target
from referee.rulesets.epic.assault_model import AssaultUnit
from referee.rulesets.epic.common import shown, weapon_key
from referee.rulesets.epic.formations import Defender, FormationState
from referee.rulesets.epic.tables import tables

SIDES = ("attacker", "defender")
FAR = 500.0  # a unit not engaged stands behind every engaged one (E-A11: front to back)


def other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


@dataclass
class Fighter:
    """A unit in an assault, and what has happened to it so far."""

    unit: AssaultUnit
    side: str
    formation: str  # its formation's name
    key: str  # unique on its side (question ids)
    order: int
    contact: bool
    engaged: bool
    distance: float
    charging: bool  # of the side that engages: no cover save for its infantry (E-A5)
    dead: bool = False
    damage: int = 0  # a war engine's damage, before and in the assault (E-W1)
    shields_down: int = 0

    @property
    def shown(self) -> Msg | str:
        return shown(self.unit.name, self.unit.number, "unit")

    @property
    def war_engine(self) -> bool:
        return self.unit.type == "WE"

    @property
    def dc(self) -> int:
        return self.unit.dc or 1

    @property
    def worth(self) -> int:
        """Units it counts as, alive: a war engine its starting DC (E-W1, E-W11)."""
        return 0 if self.dead else (self.dc if self.war_engine else 1)

    @property
    def shields_up(self) -> int:
        return max(0, self.unit.void_shields - self.shields_down)

    def defender(self) -> Defender:
        """As allocation and saves see it: in base contact at the front (distance 0), the
        units not engaged out of reach of the assault's hits (E-A5)."""
        t = tables()
        cover = None
        if not self.charging and self.unit.type == "INF":
            cover = t.terrain_of(self.unit.terrain or "open").save
        target = Target(self.key, self.unit.name, self.unit.type,
                        0.0 if self.contact else self.distance, self.order, self.engaged,
                        self.engaged, False, self.shown,
                        share=self.dc if self.war_engine else 1, contact=self.contact)
        return Defender(target, self.unit.armour, cover, self.unit.reinforced,
                        self.unit.invulnerable, group=self.unit.group)

    def extra_hit_target(self) -> Defender:
        """As the loser's extra hits see it (E-A11): any unit of the formation, in contact
        first, then the nearest; fearless units cannot take them (E-A17)."""
        d = self.defender()
        return Defender(Target(d.target.key, d.target.name, d.target.type,
                               d.target.distance, d.target.order, not self.unit.fearless,
                               not self.unit.fearless, False, d.target.label,
                               share=d.target.share, contact=self.contact),
                        None, None, False, False, group=self.unit.group)


@dataclass(frozen=True)
class Die:
    """One attack die: whose, its value, the kind of hit it scores (``assault``; a war
    engine's ``we-cc``/``we-ff``), macro-weapon, first strike, close combat or firefight."""

    unit: str
    value: int
    fire: str
    macro: bool
    first_strike: bool
    attack: str  # cc, ff


@dataclass
class SideState:
    """One side of the assault: its formations, its units, and the fight so far."""

    side: str
    formations: list[FormationState]
    fighters: list[Fighter]
    broken_at_start: dict[str, bool] = field(default_factory=dict)
    kills: int = 0  # kills this side inflicted (units, and points of war-engine damage)
    lost: dict[str, int] = field(default_factory=dict)  # losses by formation (for markers)
    destroyed: dict[str, list[str]] = field(default_factory=dict)  # names, by formation

    def alive(self) -> list[Fighter]:
        return [f for f in self.fighters if not f.dead]

    def engaged(self) -> list[Fighter]:
        return [f for f in self.fighters if not f.dead and f.engaged]

    def worth(self) -> int:
        """Units left, war engines at their starting DC (E-A9, E-W11)."""
        return sum(f.worth for f in self.fighters)

    def markers(self) -> int:
        """Blast markers for the result roll (E-A9, E-A14): added up over the side's
        formations, a broken one counting as many as its units (war engines, their DC)."""
        total = 0
        for fs in self.formations:
            if fs.broken:
                total += sum(f.worth for f in self.fighters if f.formation == fs.name)
            else:
                total += fs.blast_markers
        return total

    def inspiring(self) -> int:
        """Inspiring units of this side that took part and survived (E-A9)."""
        return sum(1 for f in self.fighters if not f.dead and f.engaged and f.unit.inspiring)

    def formation(self, name: str) -> FormationState:
        return next(fs for fs in self.formations if fs.name == name)


def dice_of(f: Fighter, first_strike: bool, cc_dice: int | None = None) -> list[Die]:
    """The attack dice ``f`` rolls in one phase of a round (E-A3, E-A4; first strike E-A16;
    extra attacks E-A15 with their rolled number given apart; a war engine E-W11 with
    ``cc_dice`` of its DC dice to close combat). Not engaged: none."""
    u = f.unit
    if f.dead or not f.engaged:
        return []
    out: list[Die] = []
    if f.war_engine:
        if u.first_strike == first_strike:
            cc = (cc_dice if cc_dice is not None else (u.dc or 1)) if f.contact else 0
            if u.cc is not None:
                out += [Die(f.key, u.cc, "we-cc", False, first_strike, "cc")] * cc
            if u.ff is not None:
                out += [Die(f.key, u.ff, "we-ff", False, first_strike, "ff")] * ((u.dc or 1)
                                                                                - cc)
        return out
    if u.first_strike == first_strike:
        if f.contact and u.cc is not None:
            out.append(Die(f.key, u.cc, "assault", False, first_strike, "cc"))
        elif not f.contact and u.ff is not None:
            out.append(Die(f.key, u.ff, "assault", False, first_strike, "ff"))
    return out


def extras_of(f: Fighter, first_strike: bool) -> list[tuple[int, Any]]:
    """The extra attacks ``f`` may make in a phase: (index, ExtraAttacks), as the rules
    allow them: close combat ones in base contact, firefight ones not (E-A15)."""
    if f.dead or not f.engaged:
        return []
    out = []
    for i, e in enumerate(f.unit.extra):
        if e.first_strike != first_strike:
            continue
        value = f.unit.cc if e.kind == "cc" else f.unit.ff
        if value is None:
            continue
        if (e.kind == "cc") != f.contact and not f.war_engine:
            continue
        out.append((i, e))
    return out


def extra_dice(f: Fighter, extra: Any, count: int) -> list[Die]:
    value = f.unit.cc if extra.kind == "cc" else f.unit.ff
    assert value is not None
    fire = "assault" if not f.war_engine else ("we-cc" if extra.kind == "cc" else "we-ff")
    return [Die(f.key, value, "mw" if extra.macro else fire, extra.macro, extra.first_strike,
                extra.kind)] * count


def d3(face: int) -> int:
    return math.ceil(face / 2)


def fighter_key(unit: AssaultUnit, formation: str, clash: bool) -> str:
    return f"{weapon_key(formation)}.{unit.key}" if clash else unit.key
