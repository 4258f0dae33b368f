"""The largest phases Lock 'n Load accepts complete within a work budget counted by the code.

A timed test passes or fails with the machine; these count what the phase does through
``referee.core.work`` (issue 16) and fail the same way everywhere when an accidental
exponential, or an extra factor of the roster's size, creeps in. The cases are those of the
scale benchmark (``benchmarks/script_builders.py``), at the roster's limit of 200 units, run
as ``referee run`` runs them (odds on):

* the series' largest phase: 200 units in 50 hexes, every hex activated once and firing
  at the hex opposite, the odds of every die (50 impulses);
* one fire at a crowded hex of 199 units (leaders of every LM, vehicles): the damage checks
  and their odds follow every unit in order, with the leaders' help between them.

The bounds and how they were chosen:

* ``lnlt.unit-visits`` (units looked at by the engine's scans of the roster) at most
  ``40 x units x impulses``: the engine scans the roster a few times per question, about 19
  times per impulse today. Scanning it once per hex, as declaring the hexes did before,
  costs 100 x units x impulses here and fails.
* ``lnlt.adjacency-visits`` (entries of the adjacency read) at most
  ``4 x (entries + 1) x impulses``: about 1.5 x entries per impulse today.
* ``lnlt.dc-checks`` (units followed by the damage-check odds) at most ``rolls x units in
  the target hex``: each roll's odds follow each target unit once.
* ``lnlt.dc-states`` (states of that chain) at most ``70 x dc-checks``: a state is a
  winning margin (at most 10: two dice, 1 to 6 each) and the helping leader's LM (0 to 5, or
  asked: 7), so more than 70 per unit means the chain has grown states it cannot have.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.work import builders, run_counted

UNITS = 200  # Roster.units: max_length


def test_the_roster_limit_is_the_series_limit() -> None:
    assert builders.SERIES["lnlt"].limit == UNITS


@pytest.mark.parametrize(("case", "script", "target_units"), [
    ("every hex fires once", builders.SERIES["lnlt"].script(UNITS), 4),
    ("one fire at a crowded hex", builders.lnlt_crowded(UNITS), UNITS - 1),
])
def test_the_largest_phase_completes_within_its_work_budget(
        tmp_path: Path, case: str, script: dict[str, object], target_units: int) -> None:
    result, count, rolls = run_counted(script, tmp_path)
    assert result.outcome_data["ended"], case  # the phase ran to its end (L-2)
    impulses = result.outcome_data["impulses"]
    roster = script["declaration"]
    assert isinstance(roster, dict)
    entries = len(roster["adjacent"])
    assert 0 < count["lnlt.unit-visits"] <= 40 * UNITS * impulses, case
    assert count["lnlt.adjacency-visits"] <= 4 * (entries + 1) * impulses, case
    assert 0 < count["lnlt.dc-checks"] <= rolls * target_units, case
    assert count["lnlt.dc-states"] <= 70 * count["lnlt.dc-checks"], case
