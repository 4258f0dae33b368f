"""The largest HE missions World at War accepts complete within a work budget counted by the
code (issue 16).

A timed test passes or fails with the machine; these count what a mission does through
``referee.core.work`` and fail the same way everywhere when an accidental exponential creeps
into the spread of the hits or its odds. The missions are at the declaration's limits (30
units, firepower 40), run as ``referee run`` runs them (odds on):

* the scale benchmark's largest case (``benchmarks/script_builders.py``): 40 dice hitting
  on 4+, rolled from the seed, one terrain die;
* 29 hits on 30 units: a round one hit short, so 29 dice pick the units one by one (W-3),
  each with the odds of the rest;
* 40 hits on 30 units of which 10 are combat vehicles, the spill-over reading (W-4): the
  second round falls on the soft units only.

The bounds are the most this work can be when each spread and each unit's outcome is worked
out once (F the firepower, U the target units, P the pick dice rolled):

* ``waw.hits-placed`` (hits placed by the spread, W-3, in the mission and in its odds) at
  most ``F x (2F + 3 + P)``: the mission's own spread, one spread per number of net hits
  for the attack's odds and for the defence's (0 to F), one per pick die;
* ``waw.unit-outcomes`` (a unit's hits for one number of net hits) at most
  ``4U(F + 1) + 2UP``: the attack's and the defence's odds follow every unit for every
  number of net hits (their split and their mixture), each pick die every unit twice.

An odds code that tried every way of spreading the hits instead would count C(U, hits).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.work import builders, run_counted

UNITS = 30  # MissionDeclaration.units: max_length
FIREPOWER = 40  # MissionDeclaration.firepower: le


def _mission(hits: int, vehicles: int, options: dict[str, str] | None = None
             ) -> dict[str, Any]:
    """``hits`` of 40 dice on 30 units (``vehicles`` of them combat vehicles), no terrain
    dice: the net hits are the hits."""
    units = [{"name": f"Platoon {i + 1} (invented)",
              "kind": "combat-vehicle" if i < vehicles else "infantry"} for i in range(UNITS)]
    script = builders.waw(UNITS)
    script["declaration"] = {"mission": "he", "hex": "0914", "firepower": FIREPOWER,
                             "hit_number": 4, "terrain_defence": 0, "units": units}
    script["answers"] = {"attack": [6] * hits + [1] * (FIREPOWER - hits)}
    script["options"] = options or {}
    return script


def test_the_declaration_limits_are_the_series_limits() -> None:
    assert builders.SERIES["waw"].limit == UNITS
    assert builders.SERIES["waw"].script(UNITS)["declaration"]["firepower"] == FIREPOWER


@pytest.mark.parametrize(("case", "script", "picks"), [
    ("the scale benchmark's largest", builders.SERIES["waw"].script(UNITS), None),
    ("29 hits picked one by one", _mission(29, 0), 29),
    ("40 hits, spill-over onto the soft units",
     _mission(40, 10, {"soft-with-armour": "spill-over"}), 10),  # 10 of the 20 soft units
])
def test_the_largest_mission_completes_within_its_work_budget(
        tmp_path: Path, case: str, script: dict[str, Any], picks: int | None) -> None:
    result, count, rolls = run_counted(script, tmp_path)
    rolled = sum(1 for s in result.steps if s.clause == "W-3" and s.kind.value == "roll")
    assert picks is None or rolled == picks, case
    f, u, p = FIREPOWER, UNITS, rolled
    assert 0 < count["waw.hits-placed"] <= f * (2 * f + 3 + p), case
    assert 0 < count["waw.unit-outcomes"] <= 4 * u * (f + 1) + 2 * u * p, case
    assert rolls >= 1 + p, case  # the attack's odds and each pick's were worked out
