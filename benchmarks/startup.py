"""Cold-start benchmark: ``referee lookup epic to-hit 8`` against a bare Typer + rich app.

What it measures
----------------
For each of two commands, run as a fresh process many times:

* wall time, from just before the child is spawned until it has been reaped (interpreter
  start-up, imports, argument parsing, the lookup, printing the table, interpreter exit);
* peak memory: the child's own maximum resident set size (``ru_maxrss``).

The commands are

* **baseline**: ``benchmarks/baseline_app.py``, one Typer command taking the same shape of
  command line (three positional strings and a ``--json`` flag) that prints one rich table
  with a title, 4 columns and 1 row: the floor any Typer + rich CLI pays;
* **referee**: ``referee lookup epic to-hit 8``, which prints a table of the same size.

The target is ``referee / baseline <= 1.10`` for the median wall time and for the median
peak RSS.

How it is made fair
-------------------
* Both children run with the same interpreter (``sys.executable``), the same environment,
  working directory, stdin (``/dev/null``) and stdout/stderr (a regular file, so neither
  sees a terminal and both print the plain ASCII table).
* Both are started the same way, through ``-c``: import the module and call ``main()``,
  which is exactly what the installed ``referee`` console script does.  ``python -m
  referee`` would also import ``runpy`` and ``python benchmarks/baseline_app.py`` would
  not, so those two forms are not compared with each other.
* Both read their bytecode from one private, warmed cache: the children run with
  ``PYTHONPYCACHEPREFIX`` set to a temporary directory and without
  ``PYTHONDONTWRITEBYTECODE``.  Otherwise, in a shell that sets ``PYTHONDONTWRITEBYTECODE``
  (many containers and CI images do), an editable referee is compiled from source on
  every run while Typer, rich and pydantic load ``.pyc`` files written by pip: that
  measures the development set-up, not the program.  An installed referee has its
  ``.pyc`` files, so a warmed cache is the honest comparison.  The cache lives outside
  the source tree, which stays untouched.  ``--inherit-bytecode-settings`` turns this off.
* Warm-up runs of each command come first and are discarded: they write the ``.pyc``
  files and fill the OS page cache, so "cold start" here means a new interpreter process,
  not a cold disk.  Every warm-up run must exit 0 and print something, or the benchmark
  stops: a failing command would otherwise look very fast.
* The measured rounds are interleaved, and the order inside a round alternates
  (baseline first, then referee first, ...), so drift in machine load and ordering
  effects fall on both commands alike.
* Each child is reaped with ``os.wait4``, which returns that child's own resource usage.
  ``resource.getrusage(RUSAGE_CHILDREN)`` is not used: its ``ru_maxrss`` is the maximum
  over every child reaped so far, so it could never show a child smaller than the
  largest before it.

Medians are reported, with the interquartile range and the minimum as the spread.

How to run it
-------------
From the repository root, with the interpreter that has referee installed::

    python benchmarks/startup.py                 # 30 rounds, prints a table, exits 0
    python benchmarks/startup.py --rounds 60     # more rounds, tighter medians
    python benchmarks/startup.py --json          # machine-readable results
    python benchmarks/startup.py --check         # exit 1 if a metric misses its target
    python benchmarks/startup.py --inherit-bytecode-settings    # see "How it is made fair"

Exit status: 0; with ``--check``, 1 when a metric misses its target; 2 when a command
cannot be run at all.  POSIX only (``os.wait4``); standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent

TARGET_RATIO = 1.10
DEFAULT_ROUNDS = 30
DEFAULT_WARMUP = 3

#: ``ru_maxrss`` is in kibibytes on Linux and the BSDs, in bytes on macOS.
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024


@dataclass(frozen=True)
class Command:
    """One benchmarked command: a label and the full argv of its process."""

    name: str
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Sample:
    """One run of one command."""

    wall_s: float
    cpu_s: float
    maxrss_bytes: int


@dataclass(frozen=True)
class Summary:
    """The statistics of one command over all measured rounds."""

    runs: int
    wall_median_s: float
    wall_iqr_s: float
    wall_min_s: float
    cpu_median_s: float
    maxrss_median_bytes: float
    maxrss_min_bytes: int
    maxrss_max_bytes: int


@dataclass(frozen=True)
class Verdict:
    """One metric compared against the target."""

    metric: str
    baseline: float
    referee: float
    ratio: float
    target: float
    passed: bool


class BenchmarkError(RuntimeError):
    """A benchmarked command failed, so its timings would mean nothing."""


def _entry_point_argv(setup: str, module: str, args: Sequence[str]) -> tuple[str, ...]:
    """``python -c`` that imports ``module`` and calls its ``main()``, like a console script."""
    code = f"import sys; {setup}from {module} import main; sys.exit(main())"
    return (sys.executable, "-c", code, *args)


def commands() -> tuple[Command, Command]:
    """The baseline and the referee command, started the same way."""
    lookup_args = ("epic", "to-hit", "8")
    baseline = Command("baseline", _entry_point_argv(
        f"sys.path.insert(0, {str(BENCH_DIR)!r}); ", "baseline_app", lookup_args))
    referee = Command("referee", _entry_point_argv("", "referee.entry", ("lookup", *lookup_args)))
    return baseline, referee


def child_env(pycache_dir: str | None) -> dict[str, str]:
    """The environment of every child: the caller's, with ``-X importtime`` switched off
    and, given ``pycache_dir``, bytecode read from and written to that private cache."""
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    if pycache_dir is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache_dir
    return env


def run_once(command: Command, env: dict[str, str], *, check_output: bool = False) -> Sample:
    """Run ``command`` once as a fresh process; its wall time, CPU time and peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command.argv, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, cwd=REPO_ROOT, env=env)
        # wait4 reaps this very child and returns its own rusage (not the running
        # maximum over all children that RUSAGE_CHILDREN would give).
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
        if proc.returncode != 0 or (check_output and out.tell() == 0):
            err.seek(0)
            detail = err.read().decode(errors="replace").strip()
            raise BenchmarkError(f"{command.name} exited {proc.returncode} "
                                 f"({'no output' if not detail else detail})\n"
                                 f"  argv: {list(command.argv)}")
    return Sample(wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime,
                  maxrss_bytes=usage.ru_maxrss * _MAXRSS_UNIT)


def measure(baseline: Command, referee: Command, env: dict[str, str], *, rounds: int,
            warmup: int) -> dict[str, list[Sample]]:
    """Warm up, then ``rounds`` interleaved rounds with alternating order."""
    for _ in range(warmup):
        for command in (baseline, referee):
            run_once(command, env, check_output=True)
    samples: dict[str, list[Sample]] = {baseline.name: [], referee.name: []}
    for i in range(rounds):
        order = (baseline, referee) if i % 2 == 0 else (referee, baseline)
        for command in order:
            samples[command.name].append(run_once(command, env))
    return samples


def _iqr(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q3 - q1


def summarize(samples: Sequence[Sample]) -> Summary:
    walls = [s.wall_s for s in samples]
    rss = [s.maxrss_bytes for s in samples]
    return Summary(runs=len(samples),
                   wall_median_s=statistics.median(walls),
                   wall_iqr_s=_iqr(walls),
                   wall_min_s=min(walls),
                   cpu_median_s=statistics.median(s.cpu_s for s in samples),
                   maxrss_median_bytes=statistics.median(rss),
                   maxrss_min_bytes=min(rss),
                   maxrss_max_bytes=max(rss))


def judge(baseline: Summary, referee: Summary, target: float) -> list[Verdict]:
    pairs = (("wall time (median, s)", baseline.wall_median_s, referee.wall_median_s),
             ("peak RSS (median, bytes)", baseline.maxrss_median_bytes,
              referee.maxrss_median_bytes))
    verdicts = []
    for metric, base, ref in pairs:
        ratio = ref / base
        verdicts.append(Verdict(metric, base, ref, ratio, target, ratio <= target))
    return verdicts


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _mib(size: float) -> str:
    return f"{size / 2**20:.1f} MiB"


def format_report(summaries: dict[str, Summary], verdicts: Sequence[Verdict], *,
                  rounds: int, warmup: int, bytecode: str) -> str:
    base, ref = summaries["baseline"], summaries["referee"]
    time_v, rss_v = verdicts
    rows = [("metric", "baseline", "referee", "ratio", "target", "result"),
            ("wall time, median", _ms(base.wall_median_s), _ms(ref.wall_median_s),
             f"{time_v.ratio:.2f}x", f"<= {time_v.target:.2f}x",
             "PASS" if time_v.passed else "FAIL"),
            ("  IQR", _ms(base.wall_iqr_s), _ms(ref.wall_iqr_s), "", "", ""),
            ("  min", _ms(base.wall_min_s), _ms(ref.wall_min_s),
             f"{ref.wall_min_s / base.wall_min_s:.2f}x", "", ""),
            ("cpu time, median", _ms(base.cpu_median_s), _ms(ref.cpu_median_s),
             f"{ref.cpu_median_s / base.cpu_median_s:.2f}x", "", ""),
            ("peak RSS, median", _mib(base.maxrss_median_bytes),
             _mib(ref.maxrss_median_bytes), f"{rss_v.ratio:.2f}x",
             f"<= {rss_v.target:.2f}x", "PASS" if rss_v.passed else "FAIL"),
            ("  min .. max", f"{_mib(base.maxrss_min_bytes)} .. {_mib(base.maxrss_max_bytes)}",
             f"{_mib(ref.maxrss_min_bytes)} .. {_mib(ref.maxrss_max_bytes)}", "", "", "")]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f"Start-up: `referee lookup epic to-hit 8` vs a bare Typer + rich app "
             f"({rounds} interleaved rounds after {warmup} warm-up runs each; "
             f"Python {platform.python_version()}; bytecode: {bytecode})", ""]
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                        strict=True)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    overall = "PASS" if all(v.passed for v in verdicts) else "FAIL"
    lines += ["", f"overall: {overall}"]
    return "\n".join(lines)


def to_json(commands_: Sequence[Command], summaries: dict[str, Summary],
            verdicts: Sequence[Verdict], samples: dict[str, list[Sample]], *, rounds: int,
            warmup: int, bytecode: str) -> dict[str, Any]:
    return {"python": sys.executable, "python_version": platform.python_version(),
            "rounds": rounds, "warmup": warmup, "bytecode": bytecode,
            "target_ratio": TARGET_RATIO,
            "commands": {c.name: list(c.argv) for c in commands_},
            "summary": {name: asdict(s) for name, s in summaries.items()},
            "verdicts": [asdict(v) for v in verdicts],
            "passed": all(v.passed for v in verdicts),
            "samples": {name: [asdict(s) for s in runs] for name, runs in samples.items()}}


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Compare the start-up time and peak memory of "
                    "`referee lookup epic to-hit 8` with a bare Typer + rich app.")
    parser.add_argument("--rounds", type=_positive_int, default=DEFAULT_ROUNDS,
                        help=f"measured rounds, each runs both commands "
                             f"(default {DEFAULT_ROUNDS})")
    parser.add_argument("--warmup", type=_positive_int, default=DEFAULT_WARMUP,
                        help=f"discarded runs of each command first, which also check that "
                             f"it works (default {DEFAULT_WARMUP})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 unless both ratios are <= {TARGET_RATIO:.2f}")
    parser.add_argument("--inherit-bytecode-settings", action="store_true",
                        help="run the children with the caller's PYTHONDONTWRITEBYTECODE and "
                             "PYTHONPYCACHEPREFIX instead of a private, warmed bytecode cache")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not hasattr(os, "wait4"):
        print("startup.py needs os.wait4 (a POSIX system)", file=sys.stderr)
        return 2
    baseline, referee = commands()
    with tempfile.TemporaryDirectory(prefix="referee-bench-pycache-") as pycache_dir:
        inherit = args.inherit_bytecode_settings
        env = child_env(None if inherit else pycache_dir)
        bytecode = "inherited settings" if inherit else "private warmed cache"
        try:
            samples = measure(baseline, referee, env, rounds=args.rounds, warmup=args.warmup)
        except BenchmarkError as error:
            print(f"startup.py: {error}", file=sys.stderr)
            return 2
    summaries = {name: summarize(runs) for name, runs in samples.items()}
    verdicts = judge(summaries["baseline"], summaries["referee"], TARGET_RATIO)
    if args.json:
        print(json.dumps(to_json((baseline, referee), summaries, verdicts, samples,
                                 rounds=args.rounds, warmup=args.warmup, bytecode=bytecode),
                         indent=2))
    else:
        print(format_report(summaries, verdicts, rounds=args.rounds, warmup=args.warmup,
                            bytecode=bytecode))
    if args.check and not all(v.passed for v in verdicts):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
