"""Roster files: a formation described once (units, types, saves, weapons) and named in later
attacks, so that at the table only the situation is given or asked."""

from __future__ import annotations

from typing import Any

from referee.core.errors import ScriptError
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, MultiChoiceQuestion
from referee.core.text import Msg
from referee.files import read_toml, validate, validation_message, where
from referee.rulesets.epic.declaration import (
    FiringUnit,
    OtherFormation,
    Roster,
    RosterFormation,
    ShootingDeclaration,
    TargetUnit,
    Weapon,
    weapon_key,
)


def load_roster(path: str) -> Roster:
    text, raw = read_toml(path)
    roster: Roster = validate(Roster, raw, path, text)
    # two formations or two units of one formation with one name: refused where they are
    fnames: set[str] = set()
    for i, f in enumerate(roster.formation):
        if f.name.casefold() in fnames:
            raise ScriptError(path, where(text, ["formation", i, "name"]),
                              Msg.of("epic.decl.same_unit", name=f.name))
        fnames.add(f.name.casefold())
        wnames: set[str] = set()
        for j, w in enumerate(f.weapons):
            if w.key in wnames:
                raise ScriptError(path, where(text, ["formation", i, "weapons", j, "name"]),
                                  Msg.of("epic.decl.same_name", name=w.name))
            wnames.add(w.key)
        unames: set[str] = set()
        for j, u in enumerate(f.units):
            if weapon_key(u.name) in unames:
                raise ScriptError(path, where(text, ["formation", i, "units", j, "name"]),
                                  Msg.of("epic.decl.same_unit", name=u.name))
            unames.add(weapon_key(u.name))
    return roster


def _check_weapons(path: str, roster: Roster, formation: RosterFormation,
                   weapons: list[Weapon]) -> None:
    """Every weapon a roster unit carries must be one of the declared weapons (E-7)."""
    known = {w.name.casefold() for w in weapons}
    for u in formation.units:
        for name in u.weapons:
            if name.casefold() not in known:
                text, _ = read_toml(path)
                i = roster.formation.index(formation)
                j = formation.units.index(u)
                raise ScriptError(path, where(text, ["formation", i, "units", j, "weapons"]),
                                  Msg.of("epic.decl.unknown_weapon", unit=u.name,
                                         weapon=name))


def _find(roster: Roster, path: str, name: str | None) -> RosterFormation | None:
    if name is None:
        return None
    return next((f for f in roster.formation if f.name.casefold() == name.casefold()), None)


def who_takes_part(port: Port, decl: ShootingDeclaration) -> ShootingDeclaration:
    """A declaration that is a roster alone (``referee attack epic --roster FILE``): which
    formation fires (one with weapons) and which it fires at (E-1), chosen from the roster;
    where the roster leaves one choice only, it is taken without asking."""
    if decl.roster is None or (decl.firing is not None and decl.target is not None):
        return decl
    roster = load_roster(decl.roster)
    firing = decl.firing
    if firing is None:
        armed = [f.name for f in roster.formation if f.weapons] or [roster.formation[0].name]
        firing = armed[0] if len(armed) == 1 else port.ask(ChoiceQuestion(
            id="firing-name", clause="E-1", default_value=armed[0],
            text=Msg.of("epic.q.firing_formation"),
            choices=tuple(Choice(name, name) for name in armed)))
    target = decl.target
    if target is None:
        others = [f.name for f in roster.formation if f.name != firing]
        if not others:
            raise ScriptError(decl.roster, "formation", Msg.of("epic.roster.no_target"))
        target = others[0] if len(others) == 1 else port.ask(ChoiceQuestion(
            id="target-name", clause="E-1", default_value=others[0],
            text=Msg.of("epic.q.target_formation", firing=firing),
            choices=tuple(Choice(name, name) for name in others)))
    return decl.model_copy(update={"firing": firing, "target": target})


def with_roster(decl: ShootingDeclaration) -> ShootingDeclaration:
    """The declaration with the roster's formations filled in (declared units win)."""
    if decl.roster is None:
        return decl
    roster = load_roster(decl.roster)
    firing = _find(roster, decl.roster, decl.firing)
    target = _find(roster, decl.roster, decl.target)
    if target is None and not decl.target_units:
        raise ScriptError(decl.roster, "formation",
                          Msg.of("epic.roster.unknown", name=decl.target or "-",
                                 known=", ".join(f.name for f in roster.formation)))
    update: dict[str, Any] = {}
    sit = decl.situation
    if firing is not None and not decl.firing_units:
        update["weapons"] = decl.weapons or firing.weapons
        _check_weapons(decl.roster, roster, firing, update["weapons"])
        update["firing_units"] = [
            FiringUnit(name=u.name, weapons=u.weapons,
                       **_fields(sit.get(u.name), ("distance", "nearest_enemy", "in_range",
                                                   "bearing")))
            for u in firing.units if u.weapons]
    elif firing is not None and not decl.weapons:
        update["weapons"] = firing.weapons
    elif firing is None and not decl.weapons:
        raise ScriptError(decl.roster, "formation",
                          Msg.of("epic.roster.unknown", name=decl.firing or "-",
                                 known=", ".join(f.name for f in roster.formation)))
    if target is not None and not decl.target_units:
        update["target_units"] = [
            TargetUnit(name=u.name, type=u.type, armour=u.armour,
                       reinforced=u.reinforced, invulnerable=u.invulnerable, dc=u.dc,
                       void_shields=u.void_shields,
                       **_fields(sit.get(u.name), ("distance", "in_range", "in_mw_range",
                                                   "terrain", "under_template")))
            for u in target.units]
    merged = revalidate(decl, update)
    known = {w.name.casefold() for w in merged.weapons}
    for u in merged.firing_units:
        for name in u.weapons:
            if name.casefold() not in known:
                raise ScriptError(decl.roster, "firing_units",
                                  Msg.of("epic.decl.unknown_weapon", unit=u.name, weapon=name))
    return merged


def revalidate(decl: ShootingDeclaration, update: dict[str, Any]) -> ShootingDeclaration:
    """The declaration with ``update`` merged, validated again so that every check runs
    (two units with one name, a unit carrying an undeclared weapon...)."""
    from pydantic import ValidationError

    if not update:
        return decl
    data = decl.model_dump(exclude_unset=True)
    for k, v in update.items():
        data[k] = [x.model_dump(exclude_unset=True) if hasattr(x, "model_dump") else x
                   for x in v] if isinstance(v, list) else v
    try:
        return ShootingDeclaration.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "declaration"
        raise ScriptError(decl.roster or "-", loc, validation_message(first)) from None


def _fields(situation: Any, names: tuple[str, ...]) -> dict[str, Any]:
    if situation is None:
        return {}
    return {n: getattr(situation, n) for n in names if getattr(situation, n) is not None}


def others_under_templates(port: Port, decl: ShootingDeclaration) -> ShootingDeclaration:
    """E-15, E-19 with a roster: which of its other formations (not the firing one, not the
    target) stand under the barrage's templates, each attacked with its own markers; their
    units' situation, markers, crossfire and broken state are asked by the barrage. Not
    asked when the declaration names them, or the roster has no other formation."""
    if decl.roster is None or decl.also_under_templates:
        return decl
    roster = load_roster(decl.roster)
    taken = {(decl.firing or "").casefold(), (decl.target or "").casefold()}
    others = [f for f in roster.formation if f.name.casefold() not in taken]
    if not others:
        return decl
    chosen = port.ask(MultiChoiceQuestion(
        id="others-under-templates", clause="E-15", default_values=(),
        text=Msg.of("epic.q.others_under_templates", target=decl.target or "-"),
        choices=tuple(Choice(weapon_key(f.name), f.name) for f in others)))
    picked = [f for f in others if weapon_key(f.name) in chosen]
    if not picked:
        return decl
    sit = decl.situation
    return decl.model_copy(update={"also_under_templates": [
        OtherFormation(name=f.name, units=[
            TargetUnit(name=u.name, type=u.type, armour=u.armour,
                       reinforced=u.reinforced, invulnerable=u.invulnerable, dc=u.dc,
                       void_shields=u.void_shields,
                       **_fields(sit.get(u.name), ("distance", "in_range", "terrain",
                                                   "under_template")))
            for u in f.units]) for f in picked]})

