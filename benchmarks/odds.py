"""Benchmark: the odds shown at a roll, per ruleset, against the bare dice library (dyce)
asked the same query; every roll of whole attacks; and those attacks' whole runs as a player
waits for them, as text and as JSON.

What it measures
----------------
Steps: every case of every ``benchmarks/odds_cases_<name>.py`` (a ``CASES`` list of
``Case``): the odds of one step as the attack computes them (``ours``: the roll's exact
distribution, the attack's end states worked out, everything the report shows) and, in the
same run, the bare dyce computation of the same query (``bare``: the same dice; a Fate card
from the cards left in its deck, without replacement). Where a case can check it, the two
answers must agree. Each is timed ``--rounds`` times after one warm-up call (so the one-off
import of dyce is not counted), ours and bare interleaved (alternating, in alternating
order); medians are printed with their ratio.

Every roll of a run: every ``RUNS`` entry (a ``Run``): the attack played once with seeded
dice, then each of its rolls' odds timed in order, from cold (what one roll keeps for the
next, kept, as in a run), every roll's end states worked out (as the table and ``--odds
full`` show them), interleaved with the bare dyce query of each of those rolls; the medians
of the whole run, of its first roll and of its slowest roll.

Whole runs: every ``RUNS`` entry as the script a player runs (``Run.script``: the same
declaration, options and seed), ``referee run FILE`` and ``referee run FILE --json`` each a
fresh process beside the minimal Typer + rich app measured in the same rounds
(``whole_run.py``): their wall and CPU time as multiples of the app's, the JSON run's CPU
time as a multiple of the text run's (goal: 2x, issue 25) and the size of each output. A
slow step hides in a fast run's total and a fast step hides a slow run: the whole run is
what a player waits for.

Targets (issues 8, 16, 25): a typical step (up to 30 dice, hit then save) in 25 ms or less,
any supported step and every roll of a run in 250 ms or less, a JSON run within twice its
text run. Exit status 1 if a case misses its target or its answer disagrees with the bare
one. This is a script, not a timed test: run it from the repository root with

    python benchmarks/odds.py [--rounds 20] [--only NAME] [--no-runs] [--no-whole]
    python benchmarks/odds.py --whole-only --rounds 20    # the whole runs alone
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from odds_bench import ANY_MS, Case, Run, interleaved, median, modules, run_times  # noqa: E402


def steps(groups: list[tuple[str, Any]], rounds: int) -> int:
    rows = []
    missed = 0
    for group, module in groups:
        case: Case
        for case in module.CASES:
            ours_answer, bare_answer = case.ours(), case.bare()  # warm-up, and the answers
            agrees = case.check is None or case.check(ours_answer, bare_answer)
            ours_t, bare_t = interleaved(case.ours, case.bare, rounds)
            ours, bare = median(ours_t), median(bare_t)
            ok = ours <= case.target_ms and agrees
            missed += not ok
            rows.append((group, case.name, "typical" if case.typical else "any", ours, bare,
                         ours / bare if bare else float("inf"), case.target_ms,
                         "yes" if ok else "NO" if agrees else "NO (answers differ)",
                         "" if case.check is None else "=" if agrees else "≠"))
    width = max(len(r[1]) for r in rows)
    print(f"{'group':6} {'case':{width}} {'kind':7} {'ours ms':>8} {'bare ms':>8} "
          f"{'ratio':>7} {'target':>7} same  ok")
    for group, name, kind, ours, bare, ratio, target, ok, same in rows:
        print(f"{group:6} {name:{width}} {kind:7} {ours:8.3f} {bare:8.3f} {ratio:6.1f}x "
              f"{target:6.0f}  {same:4} {ok}")
    print(f"{len(rows)} cases, {missed} missed ({rounds} rounds each, interleaved, medians; "
          f"same: = the bare answer checked equal)")
    return missed


def runs(groups: list[tuple[str, Any]], rounds: int) -> int:
    rows = []
    missed = 0
    for group, module in groups:
        run: Run
        for run in getattr(module, "RUNS", []):
            result = run_times(run, rounds)
            ok = result["slowest_ms"] <= ANY_MS
            missed += not ok
            rows.append((group, run.name, result, ok))
    if not rows:
        return 0
    width = max(len(r[1]) for r in rows)
    print()
    print(f"{'group':6} {'whole run':{width}} {'rolls':>5} {'ours ms':>8} {'bare ms':>8} "
          f"{'ratio':>7} {'first':>7} {'slowest':>8}  slowest roll  ok")
    for group, name, r, ok in rows:
        print(f"{group:6} {name:{width}} {r['rolls']:5} {r['ours']:8.1f} {r['bare']:8.1f} "
              f"{r['ours'] / r['bare']:6.1f}x {r['first_ms']:7.1f} {r['slowest_ms']:8.1f}  "
              f"{r['slowest']:12}  {'yes' if ok else 'NO'}")
    print(f"{len(rows)} runs, {missed} with a roll over {ANY_MS:.0f} ms ({rounds} rounds, "
          "interleaved, medians; every roll's end states worked out, as the table and "
          "--odds full show them)")
    return missed


def whole(groups: list[tuple[str, Any]], rounds: int, timeout: float) -> int:
    """Every run as ``referee run`` processes, text and JSON, beside the minimal app."""
    from script_builders import write_script
    from startup import child_env
    from whole_run import WholeRun, measure, report

    with tempfile.TemporaryDirectory(prefix="referee-odds-") as scratch:
        folder = Path(scratch)
        listed = [WholeRun(f"{group:6} {run.name}",
                           write_script(run.script(), folder / f"{group}-{i}.toml"))
                  for group, module in groups
                  for i, run in enumerate(getattr(module, "RUNS", []))]
        if not listed:
            return 0
        env = child_env(str(folder / "pycache"))
        baseline = measure(listed, env, rounds=rounds, timeout=timeout,
                           say=lambda line: print(line, file=sys.stderr, flush=True))
    lines, missed = report(listed, baseline, timeout)
    print("\nwhole runs as processes, text and --json (" + str(rounds) + " rounds, "
          "interleaved, medians)")
    print("\n".join(lines))
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--only", help="one case file: core, epic, cc, fow, waw, lnlt")
    parser.add_argument("--no-runs", action="store_true", help="the steps alone")
    parser.add_argument("--no-whole", action="store_true",
                        help="not the whole runs as processes (text and JSON)")
    parser.add_argument("--whole-only", action="store_true",
                        help="the whole runs as processes alone (text and JSON)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds before a whole run is stopped (default 300)")
    args = parser.parse_args()
    from startup import load_average

    print(f"load average {load_average()} at the start ({os.cpu_count()} CPUs)")
    groups = modules(args.only)
    missed = 0
    if not args.whole_only:
        missed += steps(groups, args.rounds)
    if not args.no_runs and not args.whole_only:
        missed += runs(groups, max(3, args.rounds // 4))
    if args.whole_only or (not args.no_runs and not args.no_whole):
        missed += whole(groups, max(3, args.rounds // 4), args.timeout)
    print(f"load average {load_average()} at the end")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
