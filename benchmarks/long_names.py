"""Long names: how long ``referee run`` takes to print an attack whose firing formation has a
name of 1 KB, 100 KB and 1 MB (one word, folded across the lines of the tables that show it),
against the same attack with a short name, measured in the same run.

Before issue 28 the stacked table folded a long word by measuring what was left of it again
after each line (quadratic): a 1 MB name took 41 s to print, 1 KB names were instant. The
wrapping and measuring are now linear in the text: the time a name adds grows with its
length, not with its square.

How to run it, from the repository root::

    python benchmarks/long_names.py              # 5 rounds, prints a table
    python benchmarks/long_names.py --rounds 9 --json

Each command runs as a fresh process (``sys.executable -m referee run FILE --no-odds``,
standard output to a file); medians of the wall time and of the child's processor time are
reported, and their ratio to the short name's. Exit status 0; 1 with ``--check`` when the
1 MB name takes more than a second of processor time beyond the short name's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"short": 20, "1 KB": 1_000, "100 KB": 100_000, "1 MB": 1_000_000}
SCRIPT = """ruleset = "epic"
roll_missing_dice = true
seed = 1

[declaration]
firing = "{name}"
target = "Red Hill Battery (invented)"

[[declaration.weapons]]
name = "Cannon"
shots = 3
ap = 5
at = 4

[answers]
action = "double"
cover = true
"fire-type.cannon" = "at"
"""


def run(path: Path, out: Path) -> tuple[float, float]:
    """Wall time and the child's processor time (user and system) of one run."""
    with out.open("w") as sink:
        began = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "referee", "run", str(path),
                                 "--no-odds"], stdout=sink, stderr=subprocess.DEVNULL,
                                cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{path.name}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="referee-long-names-") as work:
        folder = Path(work)
        scripts = {}
        for label, size in SIZES.items():
            scripts[label] = folder / f"{size}.toml"
            scripts[label].write_text(SCRIPT.format(name="x" * size), encoding="utf-8")
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in SIZES}
        run(scripts["short"], folder / "warm.txt")  # bytecode and page cache warmed
        for i in range(args.rounds):  # interleaved, so that the machine's load falls alike
            labels = list(SIZES)
            for label in labels[i % len(labels):] + labels[:i % len(labels)]:
                runs[label].append(run(scripts[label], folder / "out.txt"))
    base_wall = statistics.median(w for w, _ in runs["short"])
    base_cpu = statistics.median(c for _, c in runs["short"])
    rows = []
    for label, size in SIZES.items():
        wall = statistics.median(w for w, _ in runs[label])
        cpu = statistics.median(c for _, c in runs[label])
        rows.append({"name": label, "bytes": size, "wall_s": round(wall, 3),
                     "cpu_s": round(cpu, 3), "wall_ratio": round(wall / base_wall, 2),
                     "cpu_ratio": round(cpu / base_cpu, 2),
                     "cpu_added_s": round(cpu - base_cpu, 3)})
    if args.json:
        print(json.dumps({"rounds": args.rounds, "results": rows}, indent=2))
    else:
        print(f"referee run with a long firing name: medians of {args.rounds} rounds\n")
        print(f"{'name':8} {'wall':>8} {'ratio':>6} {'cpu':>8} {'ratio':>6} {'cpu added':>10}")
        for r in rows:
            print(f"{r['name']:8} {r['wall_s']:>7.3f}s {r['wall_ratio']:>5.2f}x "
                  f"{r['cpu_s']:>7.3f}s {r['cpu_ratio']:>5.2f}x {r['cpu_added_s']:>9.3f}s")
    if args.check and rows[-1]["cpu_added_s"] > 1.0:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
