"""Questions that build a mission declaration at the table (no script, or a partial one).

Units typed at the table without a name are ``unit 1``, ``unit 2`` ... in the player's
language (ids ``unit-1``, ``unit-2``: the same in every language); a script names them itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.fates import joined
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion
from referee.core.text import Msg
from referee.rulesets.waw.declaration import (
    MISSIONS,
    UNIT_KINDS,
    MissionDeclaration,
    Unit,
    default_id,
)
from referee.rulesets.waw.line import HexLine, HexQuestion, UnitsLine, UnitsQuestion
from referee.rulesets.waw.tables import tables
from referee.rulesets.waw.userdata import EMPTY, UserData

MAX_UNITS = 12
STATUSES = ("good", "disorganized", "weakened", "weakened-disorganized")


def ask_mission(port: Port, kept: Sequence[tuple[str, Sequence[Unit]]] = (),
                rides: Mapping[str, Mapping[str, str | None]] | None = None) -> str:
    """The mission; ``kept``: the hexes whose units a game file keeps (issue 27), each
    offered first as an HE mission on it (``kept:HEX``), so that neither the hex nor its
    units are asked again, and after the missions twice as a chemical strike on it: as the
    game keeps it (``kept-chemical-as-kept:HEX``: neither the hex nor its units are asked,
    nor the rides ``rides`` knows, by hex and unit key, shown in the label), and with other
    units (``kept-chemical:HEX``, as before: the units line offers the kept ones, to which
    the units of the six hexes around are added, W-8)."""
    rides = rides or {}

    def units_of(h: str, units: Sequence[Unit], ride: bool) -> Msg | str:
        by_key = {u.key: u for u in units}
        return joined([_with_status(u, rides.get(h, {}), by_key, ride) for u in units])

    def offer(prefix: str, key: str, ride: bool = False) -> tuple[Choice, ...]:
        return tuple(Choice(f"{prefix}:{h}", Msg.of(key, hex=h, units=units_of(h, units, ride)))
                     for h, units in kept)

    chemical = tuple(c for pair in zip(
        offer(KEPT_CHEMICAL_AS_KEPT, "waw.choice.kept.chemical", ride=True),
        offer(KEPT_CHEMICAL, "waw.choice.kept.chemical_other"), strict=True) for c in pair)
    return str(port.ask(ChoiceQuestion(
        id="mission", text=Msg.of("waw.q.mission"),
        choices=(*offer("kept", "waw.choice.kept_hex"),
                 *(Choice(m, Msg.of(f"waw.mission.{m}")) for m in MISSIONS), *chemical),
        default_value="he", clause="W-1", rule=Msg.of("waw.rule.missions"))))


KEPT_CHEMICAL = "kept-chemical"  # a chemical strike on a hex the game keeps (issue 27)
# the same, its units as the game keeps them: no units line, no ride it knows asked again
KEPT_CHEMICAL_AS_KEPT = "kept-chemical-as-kept"


def _with_status(u: Unit, rides: Mapping[str, str | None] | None = None,
                 units: Mapping[str, Unit] | None = None, ride: bool = False) -> Msg | str:
    """A kept unit's label, with its state unless it is in good order, and with ``ride``
    its ride where the game knows it (``rides``, by unit key: "on foot", "in unit 3")."""
    from referee.rulesets.waw.he_mission import status_of

    status = status_of(u).name
    shown: list[Msg] = [] if status == "good" else [Msg.of(f"waw.status.{status}")]
    if ride and rides is not None and u.key in rides:
        vehicle = rides[u.key]
        shown.append(Msg.of("waw.choice.ride.foot") if vehicle is None else Msg.of(
            "waw.choice.ride.in", vehicle=(units or {})[vehicle].label
            if vehicle in (units or {}) else vehicle))
    if not shown:
        return u.label
    if len(shown) == 1:
        return Msg.of("waw.choice.kept_unit", unit=u.label, status=shown[0])
    return Msg.of("waw.choice.kept.unit_ride", unit=u.label, status=shown[0], ride=shown[1])


def ask_hex(port: Port, mission: str = "he", decl: MissionDeclaration | None = None,
            data: UserData = EMPTY, kept: Sequence[str] = ()) -> HexLine:
    """The target hex (W-1, placement 8.0) and, for an HE mission whose terrain is not
    declared, the hex's infantry defence bonus or terrain when the player types it there
    (W-2: else it is asked once the attack has hits, as before)."""
    takes = mission == "he" and (decl is None or (decl.terrain is None
                                                  and decl.terrain_defence is None))
    line: HexLine = port.ask(HexQuestion(
        id="hex", text=Msg.of("waw.q.hex_he" if takes else "waw.q.hex"),
        hint_msg=Msg.of("waw.entry.hint.hex_he" if takes else "waw.entry.hint.hex"),
        defence_most=tables().max_defence if takes else None,
        terrains=tuple(x.id for x in data.terrain) if takes else (),
        rule=Msg.of("waw.rule.placement"),
        suggestions=tuple(kept)))  # the hexes the game keeps units of (issue 27)
    return line


def with_hex(decl: MissionDeclaration, line: HexLine) -> MissionDeclaration:
    """The declaration with the hex typed at the table, and its terrain if typed with it."""
    update: dict[str, Any] = {"hex": line.hex}
    if line.defence is not None:
        update["terrain_defence"] = line.defence
    if line.terrain is not None:
        update["terrain"] = line.terrain
    return decl.model_copy(update=update)


def ask_units(port: Port, mission: str, kept: Sequence[Unit] = (),
              rides: Mapping[str, str | None] | None = None) -> list[Unit]:
    """The units the mission affects: the target hex (HE), or the marker hex and its six
    neighbours (chemical): in one line (``2 inf, cv dis``), or a count and then each unit
    on its own (as before; scripts written then replay). ``kept``: the units a game file
    keeps for the hex, with their states: Enter keeps them; ``rides``: their rides as the
    game keeps them (W-8: each the default of its question)."""
    clause = "W-3" if mission == "he" else "W-8"
    entry = UnitsQuestion(id="units", text=Msg.of(f"waw.q.units_{mission}"), max_units=MAX_UNITS,
                       positions=mission == "chemical", clause=clause,
                       hint_msg=Msg.of(f"waw.entry.hint.units_{mission}"))
    rides = rides or {}
    default = entry.format(_kept_line(kept, rides, mission)) if kept else "1"
    answer = port.ask(dataclasses.replace(entry, default_value=default))
    settled: dict[str, str | None] = {}
    if isinstance(answer, UnitsLine):
        units, settled = list(answer.units), answer.settled
    else:
        units = [_one_unit(port, mission, i) for i in range(1, answer + 1)]
    if mission != "chemical":
        return units
    # W-8: a ride the line says is not asked; one the game keeps is its question's default
    return ask_rides(port, units, {**rides, **settled}, settled=frozenset(settled))


def _kept_line(kept: Sequence[Unit], rides: Mapping[str, str | None],
               mission: str) -> UnitsLine:
    """The kept units as the units line offers them; for a chemical strike with the rides
    the game keeps (``foot``, ``in #3``), so that Enter keeps those too."""
    if mission != "chemical":
        return UnitsLine(tuple(kept))
    vehicles = {v.key for v in kept if v.kind == "combat-vehicle"}
    known = {k: v for k, v in rides.items() if v is None or v in vehicles}
    units = tuple(u.model_copy(update={"mounted_in": known[u.key]})
                  if known.get(u.key) is not None else u for u in kept)
    return UnitsLine(units, foot=frozenset(k for k, v in known.items() if v is None))


def ask_rides(port: Port, units: Sequence[Unit], known: Mapping[str, str | None],
              *, kept: bool = False, settled: frozenset[str] = frozenset()) -> list[Unit]:
    """W-8: which combat vehicle each infantry unit rides in (its rider shares its morale
    check), one question a unit (``unit.N.mounted``, N its place in the line) when the
    strike's hexes hold a combat vehicle. ``known``: the rides the game keeps (by unit key,
    ``None`` on foot): with ``kept`` (the units as the game keeps them) not asked again,
    else each the default of its question; ``settled``: the units whose ride the units line
    said (not asked)."""
    vehicles = [u for u in units if u.kind == "combat-vehicle"]
    if not vehicles:
        return list(units)
    keys = {v.key for v in vehicles}
    out = []
    for i, u in enumerate(units, 1):
        if u.kind == "infantry" and u.key not in settled:
            kept_in = known.get(u.key)
            holds = u.key in known and (kept_in is None or kept_in in keys)
            was = kept_in if holds and kept_in is not None else "no"
            if kept and holds:
                ride = was
            else:
                ride = port.ask(ChoiceQuestion(
                    id=f"unit.{i}.mounted", text=Msg.of("waw.q.unit_mounted", unit=u.label),
                    choices=(Choice("no", Msg.of("waw.choice.dismounted")),
                             *(Choice(v.key, v.label) for v in vehicles)),
                    default_value=was, clause="W-8"))
            if ride != "no":
                vehicle = next(v for v in vehicles if v.key == ride)
                u = u.model_copy(update={"mounted_in": vehicle.name or vehicle.key})
        out.append(u)
    return out


def _one_unit(port: Port, mission: str, i: int) -> Unit:
    kind = port.ask(ChoiceQuestion(
        id=f"unit.{i}.kind", text=Msg.of("waw.q.unit_kind", n=i),
        choices=tuple(Choice(k, Msg.of(f"waw.kind.{k}")) for k in UNIT_KINDS),
        default_value="infantry", clause="W-4"))
    status = port.ask(ChoiceQuestion(
        id=f"unit.{i}.status", text=Msg.of("waw.q.unit_status", n=i),
        choices=tuple(Choice(s, Msg.of(f"waw.status.{s}")) for s in STATUSES),
        default_value="good", clause="W-4"))
    position: Any = "centre"
    if mission == "chemical":
        position = port.ask(ChoiceQuestion(
            id=f"unit.{i}.position", text=Msg.of("waw.q.unit_position", n=i),
            choices=(Choice("centre", Msg.of("waw.position.centre")),
                     Choice("adjacent", Msg.of("waw.position.adjacent"))),
            default_value="centre", clause="W-8"))
    return Unit(id=default_id(i), kind=kind, position=position,
                disorganized=status in ("disorganized", "weakened-disorganized"),
                weakened=status in ("weakened", "weakened-disorganized"))
