"""The phase a game file holds, as a player reads it before the first question of an impulse
(``state_view`` of the ruleset, shown by ``referee phase lnlt`` and ``referee attack lnlt``
with ``--game``): whose impulse it is, the passes in a row, and the units that carry markers
or are no longer in Good Order (L-1, L-2, L-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.rulesets.lnlt.roster import GOOD_ORDER, PhaseState

STATE_KEY = "phase"


def state_view(state: Mapping[str, Any]) -> Sequence[Table]:
    raw = state.get(STATE_KEY)
    if not raw:
        return ()
    phase = PhaseState.model_validate(raw)
    if phase.ended:
        now: Msg = Msg.of(f"lnlt.view.ended.{phase.end_reason}", n=phase.impulses)
    else:
        now = Msg.of("lnlt.view.next", n=phase.impulses + 1, side=phase.current)
    rows: list[tuple[object, ...]] = [
        (Msg.of("lnlt.view.row.turn"), phase.roster.turn),
        (Msg.of("lnlt.view.row.played"), phase.impulses),
        (Msg.of("lnlt.view.row.now"), now),
        (Msg.of("lnlt.view.row.passes"), phase.passes),
        (Msg.of("lnlt.view.row.initiative"), phase.initiative)]
    tables = [Table(Msg.of("lnlt.view.title"),
                    (Msg.of("lnlt.view.col.what"), Msg.of("lnlt.view.col.value")),
                    tuple(rows), "L-1")]
    marked = [u for u in phase.roster.units if u.markers or u.status != GOOD_ORDER]
    if marked:  # none: the first table says it all
        tables.append(Table(
            Msg.of("lnlt.view.units"),
            tuple(Msg.of(f"lnlt.col.{c}") for c in ("unit", "side", "hex", "markers",
                                                     "status")),
            tuple((u.label, u.side, u.hex,
                   tuple(Msg.of(f"lnlt.marker.{m}") for m in u.markers) or "-",
                   Msg.of(f"lnlt.result.{u.status}")) for u in marked), "L-8"))
    return tuple(tables)
