"""What a mission starts from: the declaration (a script's, a roster's, or none), completed
at the table with only what is not known yet, and what the game file kept of the units.

Asked in this order, as before: the mission, the hex, the units. With a roster the target hex
is picked among the roster's hexes and its units come from the roster; its only artillery
fires without a question, its hexes' infantry defence bonus is read from it. With a game file
the units of the hex take the states the earlier missions left them in (``kept``). What was
inferred is said in the working, with its clause (``notes``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.core.questions import EITHER, Choice, ChoiceQuestion, MultiChoiceQuestion
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.waw import kept as kp
from referee.rulesets.waw.ask import (
    KEPT_CHEMICAL,
    KEPT_CHEMICAL_AS_KEPT,
    ask_hex,
    ask_mission,
    ask_rides,
    ask_units,
    with_hex,
)
from referee.rulesets.waw.declaration import MissionDeclaration, Unit
from referee.rulesets.waw.roster import Roster, load_roster
from referee.rulesets.waw.userdata import UserData

Note = tuple[Msg, str]


@dataclass
class Situation:
    decl: MissionDeclaration
    data: UserData
    roster: Roster | None = None
    notes: list[Note] = field(default_factory=list)
    unit_hex: dict[str, str] = field(default_factory=dict)  # unit key -> its hex, if known
    # a chemical strike on a kept hex as the game keeps it (issue 27): its morale checks are
    # asked in one line (a path no earlier record took: their answers replay as they were)
    as_kept: bool = False


def situation(ctx: AttackContext, data: UserData) -> Situation:
    if isinstance(ctx.declaration, MissionDeclaration):
        decl = ctx.declaration
    elif ctx.declaration is not None:
        decl = MissionDeclaration.model_validate(ctx.declaration)
    else:
        decl = MissionDeclaration()
    roster = load_roster(decl.roster) if decl.roster is not None else None
    if roster is not None and roster.artillery:  # the roster's assets, then the data file's
        mine = {a.id for a in roster.artillery}
        data = data.model_copy(update={"artillery": [
            *roster.artillery, *(a for a in data.artillery if a.id not in mine)]})
    out = Situation(decl, data, roster)
    port, state = ctx.port, ctx.state
    kept_hex = None
    mission: str
    if decl.mission is not None:
        mission = decl.mission
    else:  # a hex the game keeps units of is offered as an HE mission on it (issue 27)
        typed = roster is None and decl.hex is None and not decl.units
        hexes = _kept_hexes(state) if typed else []
        mission = ask_mission(port, hexes, {h: kp.rides(state, h) for h, _ in hexes})
        if mission.startswith("kept:"):
            kept_hex, mission = mission.removeprefix("kept:"), "he"
        elif mission.startswith(f"{KEPT_CHEMICAL_AS_KEPT}:"):
            kept_hex, mission = mission.removeprefix(f"{KEPT_CHEMICAL_AS_KEPT}:"), "chemical"
            out.as_kept = True
        elif mission.startswith(f"{KEPT_CHEMICAL}:"):
            kept_hex, mission = mission.removeprefix(f"{KEPT_CHEMICAL}:"), "chemical"
    decl = decl.model_copy(update={"mission": mission})
    if kept_hex is not None:
        decl = decl.model_copy(update={"hex": kept_hex})
        defence = state.get(kp.DEFENCE_KEY, {}).get(kept_hex) if mission == "he" else None
        if defence is not None and decl.terrain is None and decl.terrain_defence is None:
            decl = decl.model_copy(update={"terrain_defence": defence})
            out.notes.append((Msg.of("waw.step.kept_defence", hex=kept_hex, dice=defence),
                              "W-2"))
    if decl.hex is None:
        if roster is not None and mission in ("he", "chemical") and roster.units:
            decl = decl.model_copy(update={"hex": _roster_hex(ctx, roster, mission)})
        else:
            decl = with_hex(decl, ask_hex(port, mission, decl, data,
                                          [h for h, _ in _kept_hexes(state)]))
    hex_id = decl.hex or "?"
    if mission in ("he", "chemical"):
        if decl.units:
            given = [_kept_state(u, state, hex_id, out, declared=True) for u in decl.units]
            decl = decl.model_copy(update={"units": [u for u in given if u is not None]})
            out.unit_hex = {u.key: hex_id for u in decl.units if u.position == "centre"}
        elif roster is not None:
            decl = decl.model_copy(update={"units": _roster_units(ctx, roster, hex_id,
                                                                  mission, out)})
        else:
            standing, rides = kp.standing(state, hex_id), kp.rides(state, hex_id)
            # an HE mission on a kept hex hits its kept units, a chemical strike as the game
            # keeps them too (the rides it knows not asked again); else the units line offers
            # them (Enter), the units of the six hexes around added to it (W-8)
            if kept_hex is not None and mission == "he":
                units = standing
            elif out.as_kept:
                units = ask_rides(port, standing, rides, kept=True)
                out.notes += _ride_notes(units, rides, hex_id)
            else:
                units = ask_units(port, mission, standing, rides)
            if standing and [_facts(u) for u in units] == [_facts(u) for u in standing]:
                out.notes.append((Msg.of("waw.step.kept_units", hex=hex_id), "W-4"))
            decl = decl.model_copy(update={"units": units})
            out.unit_hex = {u.key: hex_id for u in units if u.position == "centre"}
    if roster is not None:
        decl = _roster_ratings(decl, roster, out)
    out.decl = MissionDeclaration.model_validate(decl.model_dump())
    out.data = data
    return out


def _kept_hexes(state: Any) -> list[tuple[str, list[Unit]]]:
    """The hexes the game keeps units of that still stand, with those units."""
    out = [(h, kp.standing(state, h)) for h in state.get(kp.STATE_KEY, {})]
    return [(h, units) for h, units in out if units]


def _ride_notes(units: list[Unit], rides: dict[str, str | None], hex_id: str) -> list[Note]:
    """W-8: the working says which rides came from the game file (not asked)."""
    labels = {u.key: u.label for u in units}
    vehicles = any(u.kind == "combat-vehicle" for u in units)
    out: list[Note] = []
    for u in units:
        if not vehicles or u.key not in rides:
            continue
        vehicle = rides[u.key]
        out.append((Msg.of("waw.step.kept_ride_foot", unit=u.label, hex=hex_id)
                    if vehicle is None else
                    Msg.of("waw.step.kept_ride_in", unit=u.label, hex=hex_id,
                           vehicle=labels.get(vehicle, vehicle)), "W-8"))
    return out


def _facts(u: Unit) -> tuple[Any, ...]:
    return (u.key, u.kind, u.disorganized, u.weakened)


def _kept_state(u: Unit, state: Any, hex_id: str, out: Situation,
                declared: bool = False) -> Unit | None:
    """The unit with the state the game file keeps for it in ``hex_id`` (W-4), or ``None``
    when it was eliminated there; a declared unit whose state the script gives keeps it."""
    found = next((k for k in kp.kept(state, hex_id) if k["id"] == u.key), None)
    if found is None:
        return u
    if found.get("eliminated"):
        out.notes.append((Msg.of("waw.step.kept_eliminated", unit=u.label, hex=hex_id), "W-4"))
        return None
    if declared and {"disorganized", "weakened"} & u.model_fields_set:
        return u
    now = u.model_copy(update={"disorganized": bool(found["disorganized"]),
                               "weakened": bool(found["weakened"])})
    if _facts(now) != _facts(u) or declared:
        status = _status(now)
        out.notes.append((Msg.of("waw.step.kept_state", unit=u.label, hex=hex_id,
                                 status=Msg.of(f"waw.status.{status}")), "W-4"))
    return now


def _status(u: Unit) -> str:
    if u.disorganized and u.weakened:
        return "weakened-disorganized"
    return "weakened" if u.weakened else "disorganized" if u.disorganized else "good"


def _standing(roster: Roster, state: Any, hex_id: str) -> list[str]:
    gone = {k["id"] for k in kp.kept(state, hex_id) if k.get("eliminated")}
    return [u.id for u in roster.in_hex(hex_id) if u.id not in gone]


def _roster_hex(ctx: AttackContext, roster: Roster, mission: str) -> str:
    """W-1, W-8: the target hex, among the roster's hexes (with the units still standing
    there, as the game file knows them)."""
    hexes = roster.hexes()
    if mission == "chemical":  # the strike may fall beside the units: adjacent hexes too
        hexes = list(dict.fromkeys([*hexes, *roster.adjacent,
                                    *(h for v in roster.adjacent.values() for h in v)]))
    choices = []
    for h in hexes:
        names = [u.name or u.id for u in roster.in_hex(h) if u.id in _standing(roster,
                                                                                 ctx.state, h)]
        choices.append(Choice(h, Msg.of("waw.choice.roster_hex", hex=h,
                                        units=" / ".join(names) or "-")))
    picked: str = ctx.port.ask(ChoiceQuestion(
        id="hex", text=Msg.of("waw.q.roster_hex"), choices=tuple(choices),
        default_value=choices[0].value, clause="W-8" if mission == "chemical" else "W-1",
        rule=Msg.of("waw.rule.placement"), answered_by=EITHER))
    return picked


def _roster_units(ctx: AttackContext, roster: Roster, hex_id: str, mission: str,
                  out: Situation) -> list[Unit]:
    """The roster's units in the hex (HE), and for a chemical strike those of the six hexes
    around it: the roster's adjacency, or the players say which of its hexes they are."""
    state = ctx.state
    places = [(hex_id, "centre")]
    if mission == "chemical":
        near = roster.neighbours(hex_id)
        if near is None:
            others = [h for h in roster.hexes() if h != hex_id]
            near = set(ctx.port.ask(MultiChoiceQuestion(
                id="neighbours", text=Msg.of("waw.q.neighbours", hex=hex_id),
                choices=tuple(Choice(h, Msg.of("waw.choice.roster_hex", hex=h, units=" / ".join(
                    u.name or u.id for u in roster.in_hex(h)))) for h in others),
                min_count=0, clause="W-8", answered_by=EITHER))) if others else set()
        else:
            out.notes.append((Msg.of("waw.step.roster_neighbours", hex=hex_id,
                                     hexes=", ".join(sorted(near)) or "-"), "W-8"))
        places += [(h, "adjacent") for h in sorted(near)]
    units: list[Unit] = []
    for h, where in places:
        for ru in roster.in_hex(h):
            u = _kept_state(ru.unit(where), state, h, out)
            if u is not None:
                units.append(u)
                out.unit_hex[u.key] = h
    keys = {u.key for u in units if u.kind == "combat-vehicle"}
    units = [u if u.mounted_in is None or u.mounted_in in keys
             else u.model_copy(update={"mounted_in": None}) for u in units]
    out.notes.insert(0, (Msg.of("waw.step.roster_units", hex=hex_id, count=len(units)),
                         "W-8" if mission == "chemical" else "W-3"))
    return units


def _roster_ratings(decl: MissionDeclaration, roster: Roster, out: Situation
                    ) -> MissionDeclaration:
    """W-1: the roster's only artillery asset fires; W-2: the hex's infantry defence bonus
    from the roster, where it gives one."""
    update: dict[str, Any] = {}
    if decl.mission == "he":
        if (decl.artillery is None and decl.firepower is None and decl.hit_number is None
                and len(roster.artillery) == 1):
            asset = roster.artillery[0]
            update["artillery"] = asset.id
            out.notes.append((Msg.of("waw.step.roster_artillery", name=asset.name), "W-1"))
        if (decl.terrain is None and decl.terrain_defence is None
                and decl.hex in roster.terrain_defence):
            update["terrain_defence"] = roster.terrain_defence[decl.hex]
            out.notes.append((Msg.of("waw.step.roster_defence", hex=decl.hex,
                                     dice=roster.terrain_defence[decl.hex]), "W-2"))
    return decl.model_copy(update=update) if update else decl
