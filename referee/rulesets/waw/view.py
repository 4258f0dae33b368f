"""What a World at War game file holds, as a player reads it before the first question of a
mission (``state_view`` of the ruleset, shown by ``referee attack waw --game FILE``): the
markers on the map (W-6, W-7, W-8) and the units each hex held after its last mission, with
the states the missions left them in (W-4, W-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.rulesets.waw import kept as kp
from referee.rulesets.waw import markers as mk


def _status(saved: Mapping[str, Any]) -> str:
    if saved.get("eliminated"):
        return "eliminated"
    dis, weak = bool(saved.get("disorganized")), bool(saved.get("weakened"))
    return ("weakened-disorganized" if dis and weak else "weakened" if weak
            else "disorganized" if dis else "good")


def state_view(state: Mapping[str, Any]) -> Sequence[Table]:
    tables = []
    now = mk.markers(state)
    if now:
        tables.append(Table(
            Msg.of("waw.markers.title", phases=int(state.get("phases", 0))),
            tuple(Msg.of(f"waw.col.{c}") for c in ("id", "marker", "hex", "placed",
                                                   "removal")),
            tuple((m.id, Msg.of(f"waw.marker.{m.kind}", level=m.level), m.hex,
                   Msg.of("waw.markers.placed", turn=m.placed_after_phase + 1),
                   Msg.of(f"waw.removal.{m.kind}")) for m in now), "W-6"))
    rows = [(hex_id, kp.as_unit(u).label, Msg.of(f"waw.kind.{u['kind']}"),
             Msg.of(f"waw.status.{_status(u)}"))
            for hex_id, units in sorted(state.get(kp.STATE_KEY, {}).items()) for u in units]
    if rows:
        tables.append(Table(Msg.of("waw.table.kept"),
                            tuple(Msg.of(f"waw.col.{c}") for c in ("hex", "unit", "kind",
                                                                   "state")),
                            tuple(rows), "W-4"))
    return tuple(tables)
