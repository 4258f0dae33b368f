"""World at War's markers kept in a game file (W-6, W-7, W-8): the marker-removal phase
(Smoke 2 to Smoke 1, Smoke 1 and Chemical Strike removed), clearing every marker, and the
markers on the map. The phase rolls no dice: it ages or removes markers by the calendar."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.rulesets.waw.markers import Change, Marker

RULESET = "world-at-war"


@dataclass(frozen=True)
class MarkerPhase:
    """The markers on the map after the command, what the phase changed (nothing without
    ``--phase``) and how many marker phases the game has played."""

    markers: list[Marker]
    changes: list[Change]
    phases: int


def marker_phase(game: Path, *, clear: bool = False, phase: bool = False) -> MarkerPhase:
    """Clear every marker (``clear``), then run the marker-removal phase (``phase``), each a
    log entry of the game file, written in one transaction; then the markers left."""
    from referee.game import open_game
    from referee.rulesets.waw import markers as mk
    from referee.rulesets.waw.saved import SavedState

    changes: list[Change] = []
    with open_game(game) as tx:
        state: dict[str, Any] = tx.state(RULESET, SavedState)
        if clear:
            state.update(mk.clear(state))
            tx.update_state(RULESET, state)
            tx.append_log(RULESET, "waw-markers --clear", {"cleared": True},
                          replay={"kind": "waw-markers", "action": "clear"})
        if phase:
            changes, updates = mk.removal_phase(state)
            state.update(updates)
            tx.update_state(RULESET, updates)
            tx.append_log(RULESET, "waw-markers --phase",
                          {"phase": updates["phases"],
                           "changes": [{"marker": c.marker.to_state(), "after": c.after}
                                       for c in changes]},
                          replay={"kind": "waw-markers", "action": "phase"})
    return MarkerPhase(mk.markers(state), changes, int(state.get("phases", 0)))


def replay_markers(block: Mapping[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """The state after a marker entry of the log, from the state before it (``play.replay``)."""
    from referee.rulesets.waw import markers as mk

    state = dict(before)
    if block.get("action") == "clear":
        state.update(mk.clear(state))
    else:
        state.update(mk.removal_phase(state)[1])
    return state
