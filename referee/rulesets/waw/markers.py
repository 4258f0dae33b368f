"""Markers over turns (W-6, W-7, W-8): the state a game file keeps, and the marker-removal
phase. Pure functions over plain JSON-able values.

State keys (ruleset ``world-at-war``): ``markers`` (a list of ``{"id", "kind", "hex", "level",
"placed_after_phase"}``), ``next_marker`` and ``phases`` (marker-removal phases run so far).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MARKER_KINDS = ("smoke", "mines", "chemical")


@dataclass(frozen=True)
class Marker:
    id: int
    kind: str
    hex: str
    level: int = 0  # smoke only: 2 or 1
    placed_after_phase: int = 0

    def to_state(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "hex": self.hex, "level": self.level,
                "placed_after_phase": self.placed_after_phase}

    @classmethod
    def from_state(cls, raw: Mapping[str, Any]) -> Marker:
        return cls(int(raw["id"]), str(raw["kind"]), str(raw["hex"]), int(raw.get("level", 0)),
                   int(raw.get("placed_after_phase", 0)))


def markers(state: Mapping[str, Any]) -> list[Marker]:
    return [Marker.from_state(m) for m in state.get("markers", [])]


def place(state: Mapping[str, Any], kind: str, hex_label: str,
          level: int = 0, replaces: bool = False) -> tuple[Marker, dict[str, Any]]:
    """A new marker, and the state updates that keep it. With ``replaces`` it takes the
    place of the markers of its kind already in the hex (``in_hex``; W-6, option
    smoke-on-smoke: the fresh smoke supersedes the older)."""
    new = Marker(int(state.get("next_marker", 1)), kind, hex_label, level,
                 int(state.get("phases", 0)))
    old = in_hex(state, kind, hex_label) if replaces else []
    current = [m.to_state() for m in markers(state) if m not in old]
    return new, {"markers": [*current, new.to_state()], "next_marker": new.id + 1}


def in_hex(state: Mapping[str, Any], kind: str, hex_label: str) -> list[Marker]:
    """The markers of ``kind`` in the hex."""
    return [m for m in markers(state) if m.kind == kind and m.hex == hex_label]


@dataclass(frozen=True)
class Change:
    marker: Marker
    after: str  # "smoke-1", "removed", "stays"
    clause: str


def removal_phase(state: Mapping[str, Any]) -> tuple[list[Change], dict[str, Any]]:
    """The marker-removal phase: Smoke 2 turns to Smoke 1, Smoke 1 and Chemical Strike
    markers are removed (W-6, W-8); Mines! markers stay (W-7: the excerpt removes none)."""
    changes: list[Change] = []
    kept: list[Marker] = []
    for m in markers(state):
        if m.kind == "smoke" and m.level > 1:
            aged = Marker(m.id, m.kind, m.hex, m.level - 1, m.placed_after_phase)
            kept.append(aged)
            changes.append(Change(m, f"smoke-{aged.level}", "W-6"))
        elif m.kind == "smoke":
            changes.append(Change(m, "removed", "W-6"))
        elif m.kind == "chemical":
            changes.append(Change(m, "removed", "W-8"))
        else:
            kept.append(m)
            changes.append(Change(m, "stays", "W-7"))
    updates = {"markers": [m.to_state() for m in kept],
               "phases": int(state.get("phases", 0)) + 1,
               "next_marker": int(state.get("next_marker", 1))}
    return changes, updates


def clear(state: Mapping[str, Any]) -> dict[str, Any]:
    """Start afresh: no markers, no phases."""
    return {"markers": [], "phases": 0, "next_marker": 1}
