"""Running a generated script the way ``referee run`` does (odds on), counting its work.

The scripts come from ``benchmarks/script_builders.py``, the builders of the scale benchmark,
so that a guard and the benchmark measure the same cases (the guards:
tests/rulesets/*/test_*_work.py, tests/rulesets/fow/test_fow_scale.py and
tests/odds/test_odds_work.py).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

from referee import api
from referee.core import work
from referee.core.result import Result
from referee.frontends.odds import OddsPort
from tests.support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))  # a folder of scripts, not a package

import script_builders as builders


def run_counted(script: dict[str, Any], folder: Path) -> tuple[Result, Counter[str], int]:
    """The result of ``script`` run with its odds, the work counted meanwhile by kind, and
    the number of rolls whose odds were worked out."""
    path = builders.write_script(script, folder / "case.toml")
    plan, port = api.plan_script(path)
    odds = OddsPort(port, show=None)  # as `referee run` does: the odds follow the result
    with work.counting() as count:
        result = api.play(plan, odds, command="run")
    return result, count, len(odds.rolls)
