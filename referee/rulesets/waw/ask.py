"""Questions that build a mission declaration at the table (no script, or a partial one).

Units asked at the table are named ``unit 1``, ``unit 2`` ...; a script names them itself.
"""

from __future__ import annotations

from typing import Any

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, NumberQuestion
from referee.core.text import Msg
from referee.rulesets.waw.declaration import MISSIONS, UNIT_KINDS, MissionDeclaration, Unit

MAX_UNITS = 12
MAX_HEX = 9999
STATUSES = ("good", "disorganized", "weakened", "weakened-disorganized")


def ask_mission(port: Port) -> str:
    return str(port.ask(ChoiceQuestion(
        id="mission", text=Msg.of("waw.q.mission"),
        choices=tuple(Choice(m, Msg.of(f"waw.mission.{m}")) for m in MISSIONS),
        default_value="he", clause="W-1", rule=Msg.of("waw.rule.missions"))))


def ask_hex(port: Port) -> str:
    number = port.ask(NumberQuestion(id="hex", text=Msg.of("waw.q.hex"), minimum=0,
                                     maximum=MAX_HEX, rule=Msg.of("waw.rule.placement")))
    return f"{number:04d}"  # hex numbers as printed on the map: 0712


def ask_units(port: Port, mission: str) -> list[Unit]:
    """The units the mission affects: the target hex (HE), or the marker hex and its six
    neighbours (chemical)."""
    clause = "W-3" if mission == "he" else "W-8"
    count = port.ask(NumberQuestion(id="units", text=Msg.of(f"waw.q.units_{mission}"),
                                    minimum=1, maximum=MAX_UNITS, default_value=1,
                                    clause=clause))
    units: list[Unit] = []
    for i in range(1, count + 1):
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
        units.append(Unit(name=f"unit {i}", kind=kind, position=position,
                          disorganized=status in ("disorganized", "weakened-disorganized"),
                          weakened=status in ("weakened", "weakened-disorganized")))
    if mission != "chemical":
        return units
    vehicles = [u for u in units if u.kind == "combat-vehicle"]
    if not vehicles:
        return units
    out = []
    for i, u in enumerate(units, 1):
        if u.kind == "infantry":
            ride = port.ask(ChoiceQuestion(
                id=f"unit.{i}.mounted", text=Msg.of("waw.q.unit_mounted", unit=u.name),
                choices=(Choice("no", Msg.of("waw.choice.dismounted")),
                         *(Choice(v.key, v.name) for v in vehicles)),
                default_value="no", clause="W-8"))
            if ride != "no":
                u = u.model_copy(update={"mounted_in": next(v.name for v in vehicles
                                                            if v.key == ride)})
        out.append(u)
    return out


def ask_declaration(port: Port) -> MissionDeclaration:
    mission = ask_mission(port)
    hex_label = ask_hex(port)
    units = ask_units(port, mission) if mission in ("he", "chemical") else []
    return MissionDeclaration.model_validate({"mission": mission, "hex": hex_label,
                                              "units": units})
