"""Roster files: a formation described once (units, types, saves, weapons) and named in later
attacks, so that at the table only the situation is given or asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.core.errors import ScriptError
from referee.core.text import Msg
from referee.rulesets.epic.declaration import (
    FiringUnit,
    Roster,
    RosterFormation,
    ShootingDeclaration,
    TargetUnit,
)


def load_roster(path: str) -> Roster:
    from pydantic import ValidationError

    from referee.script import read_toml, where
    from referee.session import validation_message

    text, raw = read_toml(Path(path))
    try:
        return Roster.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        raise ScriptError(path, where(text, [str(p) if not isinstance(p, int) else p
                                             for p in first["loc"]]),
                          validation_message(first)) from None


def _find(roster: Roster, path: str, name: str | None) -> RosterFormation | None:
    if name is None:
        return None
    return next((f for f in roster.formation if f.name.casefold() == name.casefold()), None)


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
        update["firing_units"] = [
            FiringUnit(name=u.name, weapons=u.weapons,
                       **_fields(sit.get(u.name), ("distance", "nearest_enemy", "in_range",
                                                   "bearing")))
            for u in firing.units if u.weapons]
    elif firing is None and not decl.weapons:
        raise ScriptError(decl.roster, "formation",
                          Msg.of("epic.roster.unknown", name=decl.firing or "-",
                                 known=", ".join(f.name for f in roster.formation)))
    if target is not None and not decl.target_units:
        update["target_units"] = [
            TargetUnit(name=u.name, type=u.type, armour=u.armour, reinforced=u.reinforced,
                       invulnerable=u.invulnerable,
                       **_fields(sit.get(u.name), ("distance", "in_range", "in_mw_range",
                                                   "terrain", "under_template")))
            for u in target.units]
    return decl.model_copy(update=update)


def _fields(situation: Any, names: tuple[str, ...]) -> dict[str, Any]:
    if situation is None:
        return {}
    return {n: getattr(situation, n) for n in names if getattr(situation, n) is not None}
