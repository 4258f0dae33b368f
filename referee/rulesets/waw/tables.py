"""World at War's tables, read from ``rulesets/world-at-war/tables.toml``: only what the
excerpt itself gives (W-2 cancel face, W-4 effects by kind, W-6 smoke, W-8 movement)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from referee import data

RULESET_ID = "world-at-war"
EFFECTS = ("none", "disorganize", "weaken", "eliminate")
ASK = "ask"


@dataclass(frozen=True)
class EffectRow:
    """What the hits of one HE mission do to one kind of target (W-4); ``ask`` where the
    excerpt is silent."""

    first: str
    further: str
    weakened_again: str


@dataclass(frozen=True)
class WawTables:
    defence_cancel_on: int
    lowest_hit_number: int
    highest_hit_number: int
    max_firepower: int
    max_defence: int
    he_effects: Mapping[str, EffectRow]
    smoke_penalty: int
    smoke_first_level: int
    chemical_extra_mp: int


@functools.cache
def tables() -> WawTables:
    raw = data.load(RULESET_ID, "tables")
    he = raw["he"]
    return WawTables(
        defence_cancel_on=he["defence_cancel_on"],
        lowest_hit_number=he["lowest_hit_number"],
        highest_hit_number=he["highest_hit_number"],
        max_firepower=he["max_firepower"],
        max_defence=he["max_defence"],
        he_effects={kind: EffectRow(row["first"], row["further"], row["weakened_again"])
                    for kind, row in raw["he_effects"].items()},
        smoke_penalty=raw["smoke"]["fire_penalty"],
        smoke_first_level=raw["smoke"]["first_level"],
        chemical_extra_mp=raw["chemical"]["extra_mp"],
    )
