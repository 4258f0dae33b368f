"""The Lock 'n Load Tactical numbers the seed gives, read from
``rulesets/lnl-tactical/tables.toml``. Light: no pydantic, so lookups start fast."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from referee import data

RULESET_ID = "lnl-tactical"


@dataclass(frozen=True)
class LnltTables:
    consecutive_passes: int
    ops_mmc_ifp: int
    ops_sw_halved: tuple[str, ...]
    ops_oft_drm: int
    ops_vehicle_mg_halved: bool
    moved_target: int
    moved_target_markers: tuple[str, ...]
    leg_results: tuple[str, ...]
    vehicle_results: tuple[str, ...]
    keeps_good_order: tuple[str, ...]
    removes: tuple[str, ...]


@functools.cache
def tables() -> LnltTables:
    raw = data.load(RULESET_ID, "tables")
    ops, fire, res = raw["ops_complete"], raw["fire"], raw["results"]
    return LnltTables(consecutive_passes=raw["phase_end"]["consecutive_passes"],
                      ops_mmc_ifp=ops["mmc_ifp"], ops_sw_halved=tuple(ops["sw_halved"]),
                      ops_oft_drm=ops["oft_drm"],
                      ops_vehicle_mg_halved=ops["vehicle_mg_halved"],
                      moved_target=fire["moved_target"],
                      moved_target_markers=tuple(fire["moved_target_markers"]),
                      leg_results=tuple(res["leg"]), vehicle_results=tuple(res["vehicle"]),
                      keeps_good_order=tuple(res["keeps_good_order"]),
                      removes=tuple(res["removes"]))


def half_up(value: int) -> int:
    """Half, rounded up (also for negative values: -1 gives 0)."""
    return -((-value) // 2)
