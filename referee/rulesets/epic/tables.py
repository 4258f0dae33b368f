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


class Arc(NamedTuple):
    id: str
    centre: int
    half_width: int

    def allows(self, bearing: float) -> bool:
        """E-3: is a target at ``bearing`` (degrees from the facing) inside this arc?"""
        off = abs((bearing - self.centre + 180) % 360 - 180)
        return off <= self.half_width


class Terrain(NamedTuple):
    id: str
    cover: bool
    save: int | None
    ignores_crossfire_save: bool = False  # fortifications (brief section 3)


class BarrageRow(NamedTuple):
    low: int
    high: int
    templates: int
    markers: int
    ap: int
    at: int


class EpicTables(NamedTuple):
    natural_fail: int
    lowest_key: int
    highest_key: int
    seven_plus: tuple[SevenPlusRow, ...]
    impossible_from: int
    cover_modifier: int
    actions: tuple[Action, ...]
    arcs: tuple[Arc, ...] = ()
    allocation: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 - read only
    crossfire_save: int = -1
    save_impossible_from: int = 7
    invulnerable_save: int = 6
    terrain: tuple[Terrain, ...] = ()
    barrage: tuple[BarrageRow, ...] = ()
    barrage_highest: int = 18
    template_cm: float = 7.4
    moves: dict[str, int] = {}  # noqa: RUF012 - read only

    def arc(self, arc_id: str) -> Arc:
        return next(a for a in self.arcs if a.id == arc_id)

    def terrain_of(self, terrain_id: str) -> Terrain:
        return next(t for t in self.terrain if t.id == terrain_id)

    def barrage_row(self, points: int) -> BarrageRow | None:
        return next((r for r in self.barrage if r.low <= points <= r.high), None)

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
        arcs=tuple(Arc(a["id"], a["centre"], a["half_width"]) for a in raw["arcs"]),
        allocation={k: tuple(v) for k, v in raw["allocation"].items()},
        crossfire_save=raw["saves"]["crossfire"],
        save_impossible_from=raw["saves"]["impossible_from"],
        invulnerable_save=raw["saves"]["invulnerable"],
        terrain=tuple(Terrain(x["id"], x["cover"], x.get("save"),
                             bool(x.get("ignores_crossfire_save", False)))
                     for x in raw["terrain"]),
        barrage=tuple(BarrageRow(r["from"], r["to"], r["templates"], r["markers"], r["ap"],
                                 r["at"]) for r in raw["barrage"]["rows"]),
        barrage_highest=raw["barrage"]["highest"],
        template_cm=raw["barrage"]["template_cm"],
        moves=dict(raw["moves"]),
    )
