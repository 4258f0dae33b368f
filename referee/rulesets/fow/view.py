"""What a Flames of War game file holds, as a player reads it before the first question of an
assault (``state_view`` of the ruleset, shown by ``referee attack fow --game FILE``): the
platoons with their ratings and whether they are Pinned Down, and the teams with their
states (docs/rules/flames-of-war-assault.md, section 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.table import NOTHING, Shown, Table
from referee.core.text import Msg
from referee.rulesets.fow import kept


def _rating(kind: str, value: str | None) -> Any:
    return NOTHING if value is None else Shown(value, Msg.of(f"fow.{kind}.{value}"))


def state_view(state: Mapping[str, Any]) -> Sequence[Table]:
    if not kept.has_armies(state):
        return ()
    army = kept.army(state)
    platoons = Table(
        Msg.of("fow.kept.platoons", assaults=int(state.get(kept.ASSAULTS, 0))),
        tuple(Msg.of(f"fow.col.{c}") for c in ("platoon", "side", "skill", "motivation",
                                               "pinned")),
        tuple((p.name, p.side, _rating("skill", p.skill), _rating("motivation", p.motivation),
               Shown(p.pinned, Msg.of("fow.kept.pinned" if p.pinned else "fow.kept.free")))
              for p in army.platoons), "F-A24")
    teams = Table(
        Msg.of("fow.kept.teams"),
        tuple(Msg.of(f"fow.col.{c}") for c in ("id", "team", "platoon", "type", "state")),
        tuple((t.id, t.name, t.platoon, Msg.of(f"fow.kind.{t.type}"),
               Shown(t.status, Msg.of(f"fow.state.{t.status}"))) for t in army.teams),
        "F-A16")
    return (platoons, teams)
