"""What an Epic game file holds, as a player reads it before the first question (issue 14):
each formation's Blast markers, whether it is broken, its units lost and whether it is on
overwatch (E-4, E-14, E-20)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.rulesets.epic.common import NAMED_BY_TYPE, shown
from referee.rulesets.epic.formations import formation_label, listing


def state_view(state: Mapping[str, Any]) -> Sequence[Table]:
    formations: Mapping[str, Any] = state.get("formations", {})
    if not formations:
        return ()
    rows = []
    for name, saved in formations.items():
        overwatch = saved.get("overwatch")
        rows.append((formation_label(name), int(saved.get("blast_markers", 0)),
                     Msg.of("word.yes" if saved.get("broken") else "word.no"),
                     listing([_unit(n) for n in saved.get("destroyed", [])]),
                     "-" if overwatch is None else Msg.of("word.yes" if overwatch
                                                          else "word.no")))
    return (Table(Msg.of("epic.view.title"),
                  tuple(Msg.of(f"epic.view.col.{c}") for c in ("formation", "markers",
                                                               "broken", "lost", "overwatch")),
                  tuple(rows), clause="E-14"),)


def _unit(name: str) -> Msg | str:
    """A unit lost, as a player reads it: one numbered at the table (``unit-3``, the name
    the typed lines gave before issue 27; ``infantry-3`` since) as ``Unit 3``, ``Infantry 3``
    in the player's language."""
    m = re.fullmatch(r"([a-z-]+)-(\d+)", name)
    if m is None or m.group(1) not in ("unit", *NAMED_BY_TYPE.values()):
        return name
    return shown(name, int(m.group(2)), "unit")
