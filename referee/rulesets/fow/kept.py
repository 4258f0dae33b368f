"""The armies a game file keeps for Flames of War (docs/rules/flames-of-war-assault.md,
section 4): every team of the armies that fought, by id and name, with its side, platoon,
type, card values and state, and every platoon with its ratings and whether it is Pinned Down.

State keys (ruleset ``flames-of-war``): ``teams`` (a list of team records, ``saved.SavedTeam``)
and ``platoons`` (``saved.SavedPlatoon``). Pure functions over plain values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TEAMS = "teams"
PLATOONS = "platoons"


def has_armies(state: Mapping[str, Any]) -> bool:
    """Whether the game keeps armies to assault with (a roster's, from an earlier assault)."""
    return bool(state.get(TEAMS)) and bool(state.get(PLATOONS))
