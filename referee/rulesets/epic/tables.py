"""Epic Armageddon's tables, read from ``rulesets/epic-armageddon/tables.toml``."""

from __future__ import annotations

import functools
from typing import NamedTuple

from referee import data

RULESET_ID = "epic-armageddon"


class SevenPlusRow(NamedTuple):
    need: int
    first: int
    then: int


class Action(NamedTuple):
    id: str
    modifier: int
    may_shoot: bool


class EpicTables(NamedTuple):
    natural_fail: int
    lowest_key: int
    highest_key: int
    seven_plus: tuple[SevenPlusRow, ...]
    impossible_from: int
    cover_modifier: int
    actions: tuple[Action, ...]

    def action(self, action_id: str) -> Action:
        return next(a for a in self.actions if a.id == action_id)

    def seven_plus_row(self, need: int) -> SevenPlusRow | None:
        return next((r for r in self.seven_plus if r.need == need), None)


@functools.cache
def tables() -> EpicTables:
    raw = data.load(RULESET_ID, "tables")
    to_hit = raw["to_hit"]
    cover = next(m for m in raw["modifiers"] if m["id"] == "cover")
    return EpicTables(
        natural_fail=to_hit["natural_fail"],
        lowest_key=to_hit["lowest_key"],
        highest_key=to_hit["highest_key"],
        seven_plus=tuple(SevenPlusRow(r["need"], r["first"], r["then"])
                         for r in to_hit["seven_plus"]),
        impossible_from=to_hit["impossible"]["from"],
        cover_modifier=cover["value"],
        actions=tuple(Action(a["id"], a["modifier"], a["may_shoot"]) for a in raw["actions"]),
    )
