"""Game-file benchmark (issue 24): ``game verify`` of a long game, and what one more attack
costs to write into it.

What it measures
----------------
A game made by ``game new`` is filled with ``--entries`` attacks (1,000 by default): Epic
to-hit attacks and Combat Commander fire attacks in turn, their program dice rolled (the
Combat Commander ones change the decks the file keeps), as ``referee run --game`` writes them
(through the Python API, in process). Then, each a median of ``--rounds`` runs, wall time and
CPU time (on a shared machine the CPU time is the steadier; the wall time of a write is mostly
the disk's ``fsync``):

* ``verify``: ``referee game verify FILE`` as a fresh process, before the reveal (the chain,
  the numbers, the state) and after it (every program die recomputed by replaying every
  entry), against the baseline ``referee run`` of one Epic script without a game file, a
  fresh process too (``run (baseline)``);
* ``add@N``: one more Epic attack written into a copy of the N-entry file, in process, from
  planning to the last write (for this tree: the pending entry with the word of ``--word``,
  then the entry: each transaction checking the end of the chain first);
* ``add@0``: the same attack into a copy of the file with no entry yet: ``add@N - add@0`` is
  what the log's length costs a write;
* ``no game``: the same attack with no game file, in process: the baseline of the writes.

With ``--before PATH`` (a source tree of another version, e.g. ``git archive main | tar -x
-C /tmp/referee-main``) every figure is measured for that tree too, with the same attacks and
the same seed, so the report shows before and after side by side. Each tree runs in fresh
interpreters with ``PYTHONPATH`` set to it. The goals of issue 24: ``verify`` at 1,000 entries
within 2 s; a write at most 20 ms more than before.

How to run it
-------------
From the repository root, with the interpreter that has referee's dependencies::

    python benchmarks/game_file.py                       # this tree, 1,000 entries
    git archive main | (mkdir -p /tmp/referee-main && tar -x -C /tmp/referee-main)
    python benchmarks/game_file.py --before /tmp/referee-main
    python benchmarks/game_file.py --entries 200 --rounds 3 --json

POSIX only; standard library only (besides referee's own dependencies).
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Run in a child interpreter whose ``referee`` is the tree measured.
MEASURE = r'''
import inspect, json, shutil, statistics, sys, tempfile, time
from pathlib import Path

entries, rounds, root = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
import referee.game.seed as seed
seed.draw_secret = lambda: "5eed" * 8
from referee import api
from referee.game.seed import new_game, reveal

work = Path(tempfile.mkdtemp(prefix="referee-bench-"))
EPIC = work / "epic.toml"
EPIC.write_text("""ruleset = "epic"
roll_missing_dice = true
[declaration]
firing = "Grey Company (invented)"
target = "Red Hill Battery (invented)"
[[declaration.weapons]]
name = "Heavy cannon"
shots = 3
ap = 5
at = 4
[[declaration.weapons]]
name = "Autogun"
shots = 6
ap = 5
[answers]
action = "double"
cover = true
"fire-type.heavy-cannon" = "at"
""")
CC = work / "cc.toml"
CC.write_text("roll_missing_dice = true\nuse_defaults = true\n" + "\n".join(
    line for line in (root / "transcripts/scripts/cc-moving-tie.toml").read_text().splitlines()
    if not line.startswith(("fire =", '"defence.moving', '"defence.dug'))) + "\n")
WORDS = "contribution" in inspect.signature(api.play).parameters


def attack(script, game):
    plan, port = api.plan_script(script, game=game, seed=None if game else 3)
    extra = {}
    if WORDS and game is not None:
        from referee.game.contribution import GivenWord
        extra["contribution"] = GivenWord("owls")
    api.play(plan, port, game=game, command="run", **extra)


def median_time(fn, n):
    walls, cpus = [], []
    for _ in range(n):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return [statistics.median(walls), statistics.median(cpus)]


empty = work / "empty.sqlite"
new_game(empty, name="bench", sides=["Grey", "Red"])
full = work / "full.sqlite"
shutil.copy(empty, full)
started = time.perf_counter()
for i in range(entries):
    attack(EPIC if i % 2 == 0 else CC, full)
filled = time.perf_counter() - started

copies = iter(range(10**6))


def add_to(base):
    walls, cpus = [], []
    for _ in range(rounds):
        copy = work / f"copy{next(copies)}.sqlite"
        shutil.copy(base, copy)
        start, cpu = time.perf_counter(), time.process_time()
        attack(EPIC, copy)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return [statistics.median(walls), statistics.median(cpus)]


attack(EPIC, None)  # imports and first-time caches out of the way
result = {"entries": entries, "fill_per_entry": filled / max(entries, 1),
          "no_game": median_time(lambda: attack(EPIC, None), rounds),
          "add_0": add_to(empty), "add_n": add_to(full)}
revealed = work / "revealed.sqlite"
shutil.copy(full, revealed)
reveal(revealed)
result["file_bytes"] = full.stat().st_size
result["files"] = {"full": str(full), "revealed": str(revealed), "epic": str(EPIC)}
print(json.dumps(result))
'''


def _process(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Wall and CPU time (the child's own, from ``wait4``) of one fresh process."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {child.stderr.read() if child.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime


def _median(pairs: list[tuple[float, float]]) -> list[float]:
    return [statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)]


def measure(tree: Path, entries: int, rounds: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run([sys.executable, "-c", MEASURE, str(entries), str(rounds),
                               str(tree)], cwd=cwd, env=env, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            raise SystemExit(f"{tree}: the measurement failed:\n{done.stderr}")
        result = dict(json.loads(done.stdout.strip().splitlines()[-1]))
        files = result.pop("files")
        referee = [sys.executable, "-m", "referee"]
        runs: dict[str, list[tuple[float, float]]] = {"run": [], "before": [], "after": []}
        for _ in range(rounds):  # interleaved: the same minutes for each
            runs["run"].append(_process([*referee, "run", files["epic"], "--seed", "3",
                                         "--no-odds"], env, cwd))
            runs["before"].append(_process([*referee, "game", "verify", files["full"]], env,
                                           cwd))
            runs["after"].append(_process([*referee, "game", "verify", files["revealed"]],
                                          env, cwd))
        result["run"] = _median(runs["run"])
        result["verify_before_reveal"] = _median(runs["before"])
        result["verify_after_reveal"] = _median(runs["after"])
    return result


ROWS = (("no game (in process)", "no_game", "no_game"),
        ("add@0 (in process)", "add_0", "no_game"), ("add@N (in process)", "add_n", "no_game"),
        ("run (baseline, a process)", "run", "run"),
        ("verify, before the reveal", "verify_before_reveal", "run"),
        ("verify, after the reveal", "verify_after_reveal", "run"))


def report(figures: dict[str, dict[str, Any]]) -> str:
    names = list(figures)
    lines = [f"{'':28}" + "".join(f"{n + ': wall, cpu (x baseline)':>44}" for n in names)]
    for label, key, base in ROWS:
        cells = []
        for name in names:
            f = figures[name]
            (wall, cpu), (bwall, bcpu) = f[key], f[base]
            cells.append(f"{wall * 1000:8.1f} ms {cpu * 1000:8.1f} ms "
                         f"({wall / bwall:5.1f}x {cpu / bcpu:5.1f}x)")
        lines.append(f"{label:28}" + "".join(f"{c:>44}" for c in cells))
    for name in names:
        f = figures[name]
        lines.append(f"{name}: {f['entries']} entries, {f['file_bytes'] / 1e6:.1f} MB; the "
                     "log's length costs a write (add@N - add@0): "
                     f"{(f['add_n'][0] - f['add_0'][0]) * 1000:+.1f} ms wall, "
                     f"{(f['add_n'][1] - f['add_0'][1]) * 1000:+.1f} ms CPU; verify after the "
                     f"reveal {f['verify_after_reveal'][0]:.2f} s wall, "
                     f"{f['verify_after_reveal'][1]:.2f} s CPU (goal: 2 s)")
    if len(names) == 2:
        before, after = (figures[n] for n in names)
        lines.append("one added attack at N, after - before: "
                     f"{(after['add_n'][0] - before['add_n'][0]) * 1000:+.1f} ms wall, "
                     f"{(after['add_n'][1] - before['add_n'][1]) * 1000:+.1f} ms CPU "
                     "(goal: at most +20 ms)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another source tree to measure too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, Any]] = {}
    if args.before is not None:
        figures[f"before ({args.before.name})"] = measure(args.before.resolve(), args.entries,
                                                          args.rounds)
    figures["this tree"] = measure(ROOT, args.entries, args.rounds)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
