"""W-6 smoke: which lines of sight a smoke marker blocks and what fire into it needs.

Geometry stays at the table: the players say whether the firer is adjacent to the smoke hex,
whether it is rated Advanced on the Fire-on-the-Move table, and whether the target is in the
smoke hex itself or in one of its six neighbours (the line of sight is assumed to enter them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SmokeVerdict:
    blocked: bool
    penalty: int
    why: str  # a message key under waw.smoke.why


def smoke_fire(*, adjacent: bool, advanced: bool, into_neighbour: bool,
               neighbours: str = "block-only", penalty_reading: str = "adjacent-fire",
               penalty: int = 1) -> SmokeVerdict:
    """``neighbours``: option smoke-neighbours; ``penalty_reading``: option smoke-penalty."""
    if not adjacent and not advanced:
        return SmokeVerdict(True, 0, "blocked")
    smoke_target = not into_neighbour or neighbours == "smoke-hexes"
    if not smoke_target:
        return SmokeVerdict(False, 0, "neighbour_clear")
    if adjacent:
        return SmokeVerdict(False, penalty, "adjacent")
    if penalty_reading == "all-fire":
        return SmokeVerdict(False, penalty, "advanced_penalty")
    return SmokeVerdict(False, 0, "advanced")
