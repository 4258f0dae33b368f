"""The fuzzer of issue 17 at scale: many seeded mutations of every ruleset's input files.

The cases are those of the test suite's fuzzer (``tests/support/fuzz.py``: the bundled
scripts, rosters, deck and data files mutated; each run through the real command line,
in-process), only many more: every run must end with an exit code of docs/promises.md
(0, 2, 3, 4 or 5) and no traceback, within its budget of time and memory: each case runs in
a forked child under resource limits (``tests.support.fuzz.run_bounded``: 20 s of processor
time, 60 s on the clock, 768 MB of memory more than the fuzzer's), so a case that would hang
or eat memory is a finding, not the end of the fuzzer. It reports, per ruleset, the runs,
the exit codes seen, the findings (a run that ended otherwise: an escaped exception, exit
code 1, a traceback or a raw control character in the output, a hang, too much memory), the
time the whole run took and, beside it, each case's: the median and the slowest case (its
number, to replay it), so that one input that is slow to refuse shows.

How to run it, from the repository root::

    python benchmarks/fuzz.py                    # 2,000 cases per ruleset, seed 17
    python benchmarks/fuzz.py --cases 10000      # more
    python benchmarks/fuzz.py --seed 5 --ruleset cc
    python benchmarks/fuzz.py --json
    python benchmarks/fuzz.py --seconds 5 --megabytes 256    # a tighter budget
    python benchmarks/fuzz.py --in-process       # no children, no budget (faster)

Exit status: 0 when no run found anything, 1 otherwise (the first findings are listed with
the mutated file kept for replay).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# as in the test suite: a message id missing from the catalogue and a bug in the odds raise,
# and an escaped exception is seen as itself, not as the one-line report users get
os.environ.setdefault("REFEREE_STRICT_MESSAGES", "1")
os.environ.setdefault("REFEREE_STRICT_ODDS", "1")
os.environ.setdefault("REFEREE_DEBUG", "1")
os.environ.setdefault("LC_ALL", "C.UTF-8")

from tests.support.fuzz import (  # noqa: E402
    MEGABYTES,
    RULESETS,
    SECONDS,
    Tally,
    cases,
    run_bounded,
    run_case,
    warm_up,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases per ruleset")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--ruleset", choices=RULESETS, action="append")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help="a case's budget of processor time")
    parser.add_argument("--megabytes", type=int, default=MEGABYTES,
                        help="a case's budget of memory")
    parser.add_argument("--in-process", action="store_true",
                        help="run the cases in this process, without a budget")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    results = []
    kept = Path(tempfile.mkdtemp(prefix="referee-fuzz-findings-"))
    with tempfile.TemporaryDirectory(prefix="referee-fuzz-") as work:
        for ruleset in args.ruleset or RULESETS:
            tally = Tally()
            if not args.in_process:
                warm_up(ruleset, Path(work))  # the children share what it imported
            start = time.perf_counter()
            each: list[tuple[float, int]] = []  # (seconds, case number): the per-case figure
            for case in cases(ruleset, args.cases, args.seed):
                began = time.perf_counter()
                outcome = (run_case(case, Path(work)) if args.in_process else
                           run_bounded(case, Path(work), seconds=args.seconds,
                                       megabytes=args.megabytes))
                each.append((time.perf_counter() - began, case.number))
                tally.add(case, outcome)
            seconds = time.perf_counter() - start
            slowest = max(each, default=(0.0, 0))
            for case, _ in tally.findings[:20]:
                (kept / f"{ruleset}-{case.number}.toml").write_bytes(case.content)
            results.append({
                "ruleset": ruleset, "runs": tally.runs, "seconds": round(seconds, 2),
                "case_median_ms": round(statistics.median(t for t, _ in each) * 1000, 2)
                if each else None,
                "slowest_case": {"case": slowest[1], "ms": round(slowest[0] * 1000, 1)},
                "codes": {str(k): v for k, v in sorted(tally.codes.items(),
                                                       key=lambda kv: (kv[0] is None,
                                                                       kv[0] or 0))},
                "findings": [{"case": c.number, "args": list(c.args), "code": o.code,
                              "error": o.error} for c, o in tally.findings]})
    found = sum(len(r["findings"]) for r in results)
    if not found:
        kept.rmdir()
    if args.json:
        print(json.dumps({"seed": args.seed, "cases_per_ruleset": args.cases,
                          "budget": None if args.in_process else
                          {"seconds": args.seconds, "megabytes": args.megabytes},
                          "results": results}, indent=2))
        return 1 if found else 0
    budget = ("no budget (in process)" if args.in_process else
              f"budget {args.seconds:g} s, {args.megabytes} MB a case")
    print(f"Fuzzing the input files: {args.cases} cases per ruleset, seed {args.seed}, "
          f"{budget}\n")
    print(f"{'ruleset':8} {'runs':>6} {'findings':>8} {'time':>8} {'runs/s':>7} "
          f"{'case ms':>8} {'slowest':>16}  exit codes seen")
    for r in results:
        codes = ", ".join(f"{k}: {v}" for k, v in r["codes"].items())
        rate = r["runs"] / r["seconds"] if r["seconds"] else 0
        slow = f"{r['slowest_case']['ms']:.0f} ms (#{r['slowest_case']['case']})"
        print(f"{r['ruleset']:8} {r['runs']:>6} {len(r['findings']):>8} "
              f"{r['seconds']:>7.1f}s {rate:>7.0f} {r['case_median_ms'] or 0:>8.1f} "
              f"{slow:>16}  {codes}")
    total = sum(r["runs"] for r in results)
    seconds = sum(r["seconds"] for r in results)
    print(f"{'all':8} {total:>6} {found:>8} {seconds:>7.1f}s")
    for r in results:
        for f in r["findings"][:5]:
            file = kept / f"{r['ruleset']}-{f['case']}.toml"
            print(f"\n{r['ruleset']} case {f['case']}: exit {f['code']}: {f['error']}\n"
                  f"  referee {' '.join(f['args'])}  (FILE: {file})")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
