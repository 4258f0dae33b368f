"""Suppression (E-4, E-X8), pure: which able units may not fire for the Blast markers.

One unit per Blast marker on the firing formation, from the unit farthest from the target
formation forward. When the last places fall among units equally far, the shooting player
chooses which of them are suppressed (a question the resolver asks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Suppression:
    certain: tuple[str, ...]  # suppressed whatever the choice (farther than the tie)
    tied: tuple[str, ...]  # equally far at the boundary: the shooting player picks ...
    from_tied: int  # ... this many of them


def suppression(units: Sequence[tuple[str, float]], markers: int) -> Suppression:
    """``units`` are (key, distance) of the units able to fire, in listed order."""
    count = min(markers, len(units))
    if count == 0:
        return Suppression((), (), 0)
    by_distance = sorted(units, key=lambda u: -u[1])  # stable: listed order within a distance
    boundary = by_distance[count - 1][1]
    certain = tuple(k for k, d in by_distance if d > boundary)
    tied = tuple(k for k, d in units if d == boundary)
    return Suppression(certain, tied, count - len(certain))
