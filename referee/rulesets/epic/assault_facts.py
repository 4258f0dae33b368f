"""What the odds of an assault know, as plain frozen values (E-A4 to E-A10, E-W11): each side's
units still in the fight (the chance a hit kills each, or takes a point off a war engine,
after every save it may take), the dice each side has still to roll, the declared support,
the Blast markers and kills so far. Built by the resolver at each roll; read by
``assault_odds`` (loaded only when odds are shown)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from referee.rulesets.epic.fighters import Die, Fighter, SideState
from referee.rulesets.epic.saves import save_for


@dataclass(frozen=True)
class UnitFact:
    key: str
    engaged: bool
    contact: bool
    distance: float
    order: int
    share: int  # a war engine's DC (its share of the even spread, E-W2), else 1
    left: int  # points it can still take: a war engine's DC less its damage, else 1
    worth: int  # units it counts as in the result (E-A9, E-W11)
    fail: Fraction  # a normal hit: the chance it kills (a war engine: takes a point)
    fail_mw: Fraction
    shields: int
    dice: tuple[tuple[Fraction, str, bool], ...]  # its dice still to roll: chance, fire, first
    inspiring: bool
    fearless: bool
    type: str
    group: str | None


@dataclass(frozen=True)
class SideFact:
    units: tuple[UnitFact, ...]  # alive
    dice: tuple[tuple[int, Fraction, str], ...]  # still to roll: count, chance, fire
    support: tuple[tuple[int, Fraction], ...]  # declared support dice at the enemy
    markers: int  # for the result roll (E-A9, E-A14)
    kills: int  # inflicted so far
    first_strike: bool  # first strike dice still to roll (their order matters)


@dataclass(frozen=True)
class AssaultFacts:
    attacker: SideFact
    defender: SideFact
    rolled: tuple[tuple[str, int, int], ...] = ()  # (side, normal hits, mw hits) rolled

    def side(self, name: str) -> SideFact:
        return self.attacker if name == "attacker" else self.defender


def kill_chance(f: Fighter, macro: bool) -> Fraction:
    """The chance one hit of an assault (E-A5) kills ``f`` (a war engine: takes a point),
    after its armour or cover save, a reinforced armour re-roll and an invulnerable save."""
    d = f.defender()
    save = save_for(unit_type=f.unit.type, armour=f.unit.armour, cover_save=d.cover_save,
                    macro=macro, ignore_cover=False, crossfire=False,
                    reinforced=f.unit.reinforced, invulnerable=f.unit.invulnerable)
    fail = Fraction(1)
    if save.need is not None:
        fail = Fraction(min(6, save.need - 1), 6)
        if save.reroll:
            fail *= fail
    if save.invulnerable:
        fail *= Fraction(5, 6)
    return fail


def snapshot(sides: Mapping[str, SideState], pools: Mapping[str, Sequence[Die]],
             supports: Mapping[str, Sequence[tuple[int, int]]], kills: Mapping[str, int],
             rolled: tuple[tuple[str, int, int], ...] = (), first_strike: bool = False,
             ) -> AssaultFacts:
    def side_fact(name: str) -> SideFact:
        s = sides[name]
        own: dict[str, list[tuple[Fraction, str, bool]]] = {}
        for d in pools.get(name, ()):
            own.setdefault(d.unit, []).append((Fraction(7 - d.value, 6),
                                               "mw" if d.macro else d.fire, d.first_strike))
        units = tuple(
            UnitFact(f.key, f.engaged, f.contact, f.distance, f.order,
                     f.dc if f.war_engine else 1, f.dc - f.damage if f.war_engine else 1,
                     f.dc if f.war_engine else 1, kill_chance(f, False), kill_chance(f, True),
                     f.shields_up, tuple(own.get(f.key, ())), f.unit.inspiring,
                     f.unit.fearless, f.unit.type, f.unit.group)
            for f in s.fighters if not f.dead)
        groups: dict[tuple[int, str], int] = {}
        for d in pools.get(name, ()):
            fire = "mw" if d.macro else d.fire
            groups[(d.value, fire)] = groups.get((d.value, fire), 0) + 1
        dice = tuple((n, Fraction(7 - v, 6), fire) for (v, fire), n in sorted(groups.items()))
        support = tuple((n, Fraction(7 - v, 6)) for n, v in supports.get(name, ()))
        return SideFact(units, dice, support, s.markers(), kills[name], first_strike)

    return AssaultFacts(side_fact("attacker"), side_fact("defender"), rolled)

