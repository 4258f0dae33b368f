"""Questions that build a mission declaration at the table (no script, or a partial one).

Units typed at the table without a name are ``unit 1``, ``unit 2`` ... in the player's
language (ids ``unit-1``, ``unit-2``: the same in every language); a script names them itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
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


def ask_mission(port: Port, kept: Sequence[tuple[str, Sequence[Unit]]] = ()) -> str:
    """The mission; ``kept``: the hexes whose units a game file keeps (issue 27), each
    offered first as an HE mission on it (``kept:HEX``), so that neither the hex nor its
    units are asked again, and after the missions as a chemical strike on it
    (``kept-chemical:HEX``: the hex is not asked; the units line offers the kept ones, to
    which the units of the six hexes around are added, W-8)."""
    def offer(prefix: str, key: str) -> tuple[Choice, ...]:
        return tuple(Choice(f"{prefix}:{h}", Msg.of(key, hex=h, units=joined(
            [_with_status(u) for u in units]))) for h, units in kept)

    return str(port.ask(ChoiceQuestion(
        id="mission", text=Msg.of("waw.q.mission"),
        choices=(*offer("kept", "waw.choice.kept_hex"),
                 *(Choice(m, Msg.of(f"waw.mission.{m}")) for m in MISSIONS),
                 *offer(KEPT_CHEMICAL, "waw.choice.kept.chemical")),
        default_value="he", clause="W-1", rule=Msg.of("waw.rule.missions"))))


KEPT_CHEMICAL = "kept-chemical"  # a chemical strike on a hex the game keeps (issue 27)


def _with_status(u: Unit) -> Msg | str:
    """A kept unit's label, with its state unless it is in good order."""
    from referee.rulesets.waw.he_mission import status_of

    status = status_of(u).name
    return u.label if status == "good" else Msg.of("waw.choice.kept_unit", unit=u.label,
                                                     status=Msg.of(f"waw.status.{status}"))


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


def ask_units(port: Port, mission: str, kept: Sequence[Unit] = ()) -> list[Unit]:
    """The units the mission affects: the target hex (HE), or the marker hex and its six
    neighbours (chemical): in one line (``2 inf, cv dis``), or a count and then each unit
    on its own (as before; scripts written then replay). ``kept``: the units a game file
    keeps for the hex, with their states: Enter keeps them."""
    clause = "W-3" if mission == "he" else "W-8"
    entry = UnitsQuestion(id="units", text=Msg.of(f"waw.q.units_{mission}"), max_units=MAX_UNITS,
                       positions=mission == "chemical", clause=clause,
                       hint_msg=Msg.of(f"waw.entry.hint.units_{mission}"))
    default = entry.format(UnitsLine(tuple(kept))) if kept else "1"
    answer = port.ask(dataclasses.replace(entry, default_value=default))
    if isinstance(answer, UnitsLine):
        units = list(answer.units)
    else:
        units = [_one_unit(port, mission, i) for i in range(1, answer + 1)]
    if mission != "chemical":
        return units
    vehicles = [u for u in units if u.kind == "combat-vehicle"]
    if not vehicles:
        return units
    out = []
    for i, u in enumerate(units, 1):
        if u.kind == "infantry":
            ride = port.ask(ChoiceQuestion(
                id=f"unit.{i}.mounted", text=Msg.of("waw.q.unit_mounted", unit=u.label),
                choices=(Choice("no", Msg.of("waw.choice.dismounted")),
                         *(Choice(v.key, v.label) for v in vehicles)),
                default_value="no", clause="W-8"))
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
