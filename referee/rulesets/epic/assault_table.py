"""An assault at the table (E-A1 to E-A8): the formations typed in one line each, or taken from
a roster with a line for where their units stand; the other formations within 15 cm of the
fight (they may support, and take a Blast marker if their side loses); where units stand
again before another round. Builds the declaration the resolver takes (``assault``), the
same value a script's ``[declaration.assault]`` gives."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from referee.core.errors import ScriptError
from referee.core.port import Port
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.assault_line import AssaultQuestion, to_units
from referee.rulesets.epic.assault_model import (
    AssaultDeclaration,
    AssaultFormation,
    AssaultUnit,
)
from referee.rulesets.epic.common import weapon_key
from referee.rulesets.epic.formations import formation_label, join
from referee.rulesets.epic.line import (
    Needs,
)

ATTACKER, DEFENDER = "assaulting-formation", "defending-formation"


def ask_assault(ctx: AttackContext) -> AssaultDeclaration:
    """The two formations typed at the table: a line each (E-A3), the engaging side first."""
    port = ctx.port
    formations = {}
    for side, default in (("attacker", ATTACKER), ("defender", DEFENDER)):
        line = port.ask(AssaultQuestion(
            id=f"assault.{side}", clause="E-A3", charging=side == "attacker",
            text=Msg.of(f"epic.assault.q.{side}_line"),
            hint_msg=Msg.of(f"epic.assault.hint.{side}_line",
                            label=formation_label(default))))
        name = line.name or default
        formations[side] = AssaultFormation(
            name=name, blast_markers=line.markers if line.markers is not None else 0,
            units=[AssaultUnit.model_validate(u) for u in to_units(line)])
    if formations["attacker"].name.casefold() == formations["defender"].name.casefold():
        formations["defender"] = formations["defender"].model_copy(
            update={"name": formations["defender"].name + " (2)"})
    return AssaultDeclaration(attackers=[formations["attacker"]],
                              defenders=[formations["defender"]])


def _fill(decl: AssaultDeclaration,
          fill: Callable[[bool, AssaultFormation], AssaultFormation]) -> AssaultDeclaration:
    """Each formation named without units filled in by ``fill(charging, formation)``."""
    return decl.model_copy(update={
        side: [f if f.units else fill(side == "attackers", f) for f in getattr(decl, side)]
        for side in ("attackers", "defenders")})


def with_roster(ctx: AttackContext, decl: AssaultDeclaration) -> AssaultDeclaration:
    """Formations named without units: the roster's units (E-A3), and a line for where
    they stand after the charges (in contact, within 15 cm, or out: decision 4); without
    a roster, a line each typed at the table (``referee epic-assault A D``)."""
    if decl.roster is None:
        return _fill(decl, functools.partial(_typed, ctx)) if decl.by_hand else decl
    from referee.rulesets.epic.roster import load_roster

    path = decl.roster
    roster = load_roster(path)
    by_name = {f.name.casefold(): f for f in roster.formation}

    def from_roster(charging: bool, f: AssaultFormation) -> AssaultFormation:
        found = by_name.get(f.name.casefold())
        if found is None:
            raise ScriptError(path, "formation", Msg.of(
                "epic.roster.unknown", name=f.name,
                known=", ".join(x.name for x in roster.formation)))
        saved = ctx.state.get("formations", {}).get(f.name, {})
        lost = {weapon_key(n) for n in saved.get("destroyed", [])}
        units = [AssaultUnit.model_validate({
            k: v for k, v in u.model_dump(exclude_unset=True).items()
            if k not in ("weapons", "supreme_commander")})
            for u in found.units]
        standing = [u for u in units if u.key not in lost]
        places = _places(ctx.port, standing, f.name, charging)
        return f.model_copy(update={"units": [u.model_copy(update=places[u.key])
                                              for u in standing]})

    return _fill(decl, from_roster)


def _typed(ctx: AttackContext, charging: bool, f: AssaultFormation) -> AssaultFormation:
    """A formation named without units and no roster: its line, as at the table, without
    the name."""
    side = "attacker" if charging else "defender"
    line = ctx.port.ask(AssaultQuestion(
        id=f"assault.{side}", clause="E-A3", charging=charging, named=False,
        text=Msg.of("epic.assault.q.units", formation=f.name),
        hint_msg=Msg.of(f"epic.assault.hint.{side}_units")))
    markers = f.blast_markers if f.blast_markers is not None else line.markers
    return f.model_copy(update={
        "blast_markers": markers if markers is not None else 0,
        "units": [AssaultUnit.model_validate(u) for u in to_units(line)]})


def _places(port: Port, units: Sequence[AssaultUnit], formation: str,
            charging: bool) -> dict[str, dict[str, Any]]:
    """One line for where a formation's units stand: ``contact``, cm to the nearest enemy
    within 15, ``out``; ``reach`` for units of the charging side that may reach contact."""
    from referee.rulesets.epic.formations import ask_places

    asked = [u for u in units if u.contact is None and u.engaged is None]
    if not asked:
        return {u.key: {} for u in units}
    labels = [u.name for u in asked]
    places = ask_places(port, f"situation.{weapon_key(formation)}",
                        Msg.of("epic.assault.q.where", formation=formation_label(formation),
                               units=join(labels), count=len(asked)),
                        Msg.of("epic.assault.hint.where"), labels,
                        Needs(distance=True, contact=True))
    out: dict[str, dict[str, Any]] = {u.key: {} for u in units}
    for u, (run, place) in zip(asked, places, strict=True):
        out[u.key] = {"contact": place.contact, "engaged": place.contact or place.in_range,
                      "distance": 0.0 if place.contact else place.distance,
                      "terrain": None if charging else place.terrain,
                      "group": u.group or f"{weapon_key(formation)}.{run}"}
    return out
