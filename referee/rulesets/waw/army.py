"""What a World at War game file keeps of the armies, for ``game roster`` (issue 27): each
hex's units with their states after the last mission on it (``kept``), as a roster file
(``roster.Roster``), and a roster file brought in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.armies import Group, RosterPart, Unit
from referee.core.text import Msg
from referee.rulesets.waw import kept as kp

RULESET_ID = "world-at-war"


def _state(saved: Mapping[str, Any]) -> Msg | None:
    if saved.get("eliminated"):
        return Msg.of("waw.status.eliminated")
    name = ("weakened-disorganized" if saved.get("weakened") and saved.get("disorganized")
            else "weakened" if saved.get("weakened") else
            "disorganized" if saved.get("disorganized") else None)
    return Msg.of(f"waw.status.{name}") if name else None


def groups(state: Mapping[str, Any]) -> list[Group]:
    out = []
    for hex_id, units in state.get(kp.STATE_KEY, {}).items():
        sides = {u.get("side") for u in units} - {None}
        side = sides.pop() if len(sides) == 1 else None
        out.append(Group(RULESET_ID, Msg.of("kept.fate.hex", hex=hex_id), side, tuple(
            Unit(kp.as_unit(u).label, Msg.of(f"waw.kind.{u['kind']}"), _state(u))
            for u in units)))
    return out


def roster(state: Mapping[str, Any], sides: Mapping[str, str]) -> list[RosterPart] | None:
    """The kept units as a World at War roster (``--roster``): each with its hex, kind,
    side where known, and the states the missions left (an eliminated unit is left out)."""
    units = [(hex_id, u) for hex_id, kept in state.get(kp.STATE_KEY, {}).items()
             for u in kept if not u.get("eliminated")]
    if not units:
        return None
    return [("[[units]]", {"id": u["id"], "name": u.get("name"), "side": u.get("side"),
                           "hex": hex_id, "kind": u["kind"],
                           "disorganized": u.get("disorganized") or None,
                           "weakened": u.get("weakened") or None,
                           # W-8: the vehicle it rides in, as a strike settled it
                           "mounted_in": u.get("mounted_in") or None})
            for hex_id, u in units]


def imported(path: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The state keeping a roster file's units in their hexes (a hex the file names takes
    its units in place of the kept ones), an infantry unit with its ride."""
    from referee.rulesets.waw.roster import load_roster

    found = load_roster(path)
    units = {h: list(v) for h, v in state.get(kp.STATE_KEY, {}).items()}
    for hex_id in found.hexes():
        units[hex_id] = [{"id": u.id, "name": u.name, "side": u.side, "kind": u.kind,
                          "disorganized": u.disorganized, "weakened": u.weakened,
                          "eliminated": False, **_ride(u.kind, u.mounted_in)}
                         for u in found.in_hex(hex_id)]
    return {kp.STATE_KEY: units}


def _ride(kind: str, mounted_in: str | None) -> dict[str, Any]:
    """W-8: a roster's infantry rides in the vehicle it names, else it is on foot (as the
    roster's own missions read it)."""
    if kind != "infantry":
        return {}
    return {"mounted_in": mounted_in} if mounted_in else {"on_foot": True}
