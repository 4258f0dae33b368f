"""Benchmark: the odds shown at a roll, per ruleset, against the bare dice-library call.

What it measures
----------------
Every case of every ``benchmarks/odds_cases_<name>.py`` (a ``CASES`` list of ``Case``): the
odds of one step as the attack computes them (``ours``: the roll's exact distribution, the
attack's end states, everything the report shows) and, in the same run, the bare dyce call for
the same query (``bare``), each timed for ``--rounds`` rounds after one warm-up call (so the
one-off import of dyce is not counted); medians are printed with their ratio.

Targets (issue 8): a typical step (up to 30 dice, hit then save) in 25 ms or less, any
supported step in 250 ms or less. Exit status 1 if a case misses its target. This is a
script, not a timed test: run it from the repository root with

    python benchmarks/odds.py [--rounds 20] [--only NAME]
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from odds_bench import Case, median_ms  # noqa: E402


def cases(only: str | None) -> list[tuple[str, Case]]:
    out = []
    for file in sorted(HERE.glob("odds_cases_*.py")):
        group = file.stem.removeprefix("odds_cases_")
        if only and only != group:
            continue
        module = importlib.import_module(file.stem)
        out += [(group, case) for case in module.CASES]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--only", help="one case file: core, epic, cc, fow, waw, lnlt")
    args = parser.parse_args()
    rows = []
    missed = 0
    for group, case in cases(args.only):
        case.ours()
        case.bare()  # warm-up: imports and first-call costs are not the step's
        ours = median_ms(case.ours, args.rounds)
        bare = median_ms(case.bare, args.rounds)
        ok = ours <= case.target_ms
        missed += not ok
        rows.append((group, case.name, "typical" if case.typical else "any", ours, bare,
                     ours / bare if bare else float("inf"), case.target_ms, ok))
    width = max(len(r[1]) for r in rows)
    print(f"{'group':6} {'case':{width}} {'kind':7} {'ours ms':>8} {'bare ms':>8} "
          f"{'ratio':>7} {'target':>7}  ok")
    for group, name, kind, ours, bare, ratio, target, ok in rows:
        print(f"{group:6} {name:{width}} {kind:7} {ours:8.3f} {bare:8.3f} {ratio:6.1f}x "
              f"{target:6.0f}  {'yes' if ok else 'NO'}")
    print(f"{len(rows)} cases, {missed} over target ({args.rounds} rounds each, medians)")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
