"""Cold-start benchmark: referee's commands against a bare Typer + rich app, in one run.

What it measures
----------------
For each command, run as a fresh process many times:

* wall time, from just before the child is spawned until it has been reaped (interpreter
  start-up, imports, argument parsing, the work, printing, interpreter exit);
* peak memory: the child's own maximum resident set size (``ru_maxrss``).

The commands are

* **baseline**: ``benchmarks/baseline_app.py``, one Typer command taking the same shape of
  command line as ``referee lookup epic to-hit 8`` (three positional strings and a
  ``--json`` flag) that prints one rich table with a title, 4 columns and 1 row: the floor
  any Typer + rich CLI pays;
* **lookup**: ``referee lookup epic to-hit 8``, which prints a table of the same size
  (target: ``<= 1.10x`` the baseline);
* **help**: ``referee --help`` (target ``<= 1.10x``);
* **run**: ``referee run transcripts/scripts/epic-to-hit.toml``, the bundled example the
  README's install command runs: a whole scripted attack with its odds (target
  ``<= 1.25x``);
* **run-json**: the same run with ``--json``, its result and every roll's odds as a
  document for other programs (target ``<= 1.25x``);
* **odds**: ``referee odds epic --script transcripts/scripts/epic-to-hit.toml``, the odds of
  the same attack without rolling (target ``<= 1.25x``).

Each target applies to the median wall time and to the median peak RSS, as a ratio to the
baseline's median in the same run.

How it is made fair
-------------------
* Every child runs with the same interpreter (``sys.executable``), the same environment,
  working directory, stdin (``/dev/null``) and stdout/stderr (a regular file, so none sees
  a terminal and all print plain ASCII tables).
* All are started the same way, through ``-P -c``: import the module and call ``main()``,
  which is exactly what the installed ``referee`` console script does.  ``python -m
  referee`` would also import ``runpy`` and ``python benchmarks/baseline_app.py`` would
  not, so those two forms are not compared with each other.  ``-P`` keeps the working
  directory (the checkout) off the path: the children import the installed ``referee``,
  not the sources beside it.
* All read their bytecode from one private, warmed cache: the children run with
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
* The measured rounds are interleaved, and the order inside a round rotates (round ``i``
  starts with command ``i mod n``), so drift in machine load and ordering effects fall on
  every command alike.
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
    python benchmarks/startup.py --only run      # the baseline and `referee run` alone
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
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent

DEFAULT_ROUNDS = 30
DEFAULT_WARMUP = 3
EXAMPLE = "transcripts/scripts/epic-to-hit.toml"  # the README's install command runs it

#: ``ru_maxrss`` is in kibibytes on Linux and the BSDs, in bytes on macOS.
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024


@dataclass(frozen=True)
class Command:
    """One benchmarked command: a label, the full argv of its process and its target (the
    largest ratio to the baseline it may have; ``None`` for the baseline itself)."""

    name: str
    argv: tuple[str, ...]
    target: float | None = None


@dataclass(frozen=True)
class Sample:
    """One run of one command (``output_bytes``: what it printed on standard output)."""

    wall_s: float
    cpu_s: float
    maxrss_bytes: int
    output_bytes: int = 0


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
    """One metric of one command compared against its target."""

    command: str
    metric: str
    baseline: float
    referee: float
    ratio: float
    target: float
    passed: bool


class BenchmarkError(RuntimeError):
    """A benchmarked command failed, so its timings would mean nothing."""


def _entry_point_argv(setup: str, module: str, args: Sequence[str]) -> tuple[str, ...]:
    """``python -P -c`` that imports ``module`` and calls its ``main()``, like a console
    script (``-P``: the installed package, not the checkout in the working directory)."""
    code = f"import sys; {setup}from {module} import main; sys.exit(main())"
    return (sys.executable, "-P", "-c", code, *args)


def _referee(name: str, target: float, *args: str) -> Command:
    return Command(name, _entry_point_argv("", "referee.start", args), target)


def commands() -> list[Command]:
    """The baseline first, then referee's commands, all started the same way."""
    lookup_args = ("epic", "to-hit", "8")
    baseline = Command("baseline", _entry_point_argv(
        f"sys.path.insert(0, {str(BENCH_DIR)!r}); ", "baseline_app", lookup_args))
    return [baseline,
            _referee("lookup", 1.10, "lookup", *lookup_args),
            _referee("help", 1.10, "--help"),
            _referee("run", 1.25, "run", EXAMPLE),
            _referee("run-json", 1.25, "run", EXAMPLE, "--json"),
            _referee("odds", 1.25, "odds", "epic", "--script", EXAMPLE)]


def load_average() -> str:
    """The 1, 5 and 15-minute load averages (the machine may be shared: say how busy)."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def child_env(pycache_dir: str | None) -> dict[str, str]:
    """The environment of every child: the caller's, with ``-X importtime`` switched off
    and, given ``pycache_dir``, bytecode read from and written to that private cache."""
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    if pycache_dir is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache_dir
    return env


def run_once(command: Command, env: dict[str, str], *, check_output: bool = False,
             timeout: float | None = None, cwd: Path = REPO_ROOT,
             terminal: tuple[int, int] | None = None) -> Sample | None:
    """Run ``command`` once as a fresh process; its wall time, CPU time and peak RSS
    (``None``: stopped after ``timeout`` seconds). The child is reaped by a blocking
    ``wait4``, so the wall time is the child's to the microsecond (``Popen.wait`` with a
    timeout polls, and would round it up by as much as 50 ms). ``terminal`` (columns,
    rows): its output goes to a pseudo-terminal of that size, read as fast as it comes, as
    a player's terminal shows it (colour, rounded boxes); else to a file."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        master = slave = -1
        drained: list[int] = [0]
        reader = None
        if terminal is not None:
            master, slave = _pty(*terminal)
        start = time.perf_counter()
        proc = subprocess.Popen(command.argv, stdin=subprocess.DEVNULL,
                                stdout=out if slave < 0 else slave, stderr=err, cwd=cwd,
                                env=env)
        if slave >= 0:
            os.close(slave)
            reader = threading.Thread(target=_drain, args=(master, drained), daemon=True)
            reader.start()
        stopped = threading.Event()

        def stop() -> None:
            stopped.set()
            proc.kill()  # (a no-op once the child is reaped: Popen knows its returncode)

        timer = None if timeout is None else threading.Timer(timeout, stop)
        if timer is not None:
            timer.start()
        # wait4 reaps this very child and returns its own rusage (not the running
        # maximum over all children that RUSAGE_CHILDREN would give).
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
        if timer is not None:
            timer.cancel()
        if reader is not None:
            reader.join()
            os.close(master)
        if stopped.is_set():
            return None
        printed = out.tell() if terminal is None else drained[0]
        if proc.returncode != 0 or (check_output and printed == 0):
            err.seek(0)
            detail = err.read().decode(errors="replace").strip()
            raise BenchmarkError(f"{command.name} exited {proc.returncode} "
                                 f"({'no output' if not detail else detail})\n"
                                 f"  argv: {list(command.argv)}")
    return Sample(wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime,
                  maxrss_bytes=usage.ru_maxrss * _MAXRSS_UNIT, output_bytes=printed)


def _pty(columns: int, rows: int) -> tuple[int, int]:
    """A pseudo-terminal of this size: its master and slave ends."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return master, slave


def _drain(master: int, count: list[int]) -> None:
    """Read the pseudo-terminal until the child has closed it (its bytes counted)."""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: every slave end is closed
            return
        if not chunk:
            return
        count[0] += len(chunk)


def measure(cmds: Sequence[Command], env: dict[str, str], *, rounds: int,
            warmup: int) -> dict[str, list[Sample]]:
    """Warm up, then ``rounds`` interleaved rounds, the order rotating from round to round."""
    for _ in range(warmup):
        for command in cmds:
            run_once(command, env, check_output=True)
    samples: dict[str, list[Sample]] = {c.name: [] for c in cmds}
    for i in range(rounds):
        k = i % len(cmds)
        for command in [*cmds[k:], *cmds[:k]]:
            sample = run_once(command, env)
            assert sample is not None  # (no timeout)
            samples[command.name].append(sample)
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


def judge(cmds: Sequence[Command], summaries: dict[str, Summary]) -> list[Verdict]:
    """Each command's median wall time and median peak RSS against the baseline's."""
    base = summaries["baseline"]
    verdicts = []
    for command in cmds:
        if command.target is None:
            continue
        ref = summaries[command.name]
        for metric, b, r in (("wall time (median, s)", base.wall_median_s, ref.wall_median_s),
                             ("peak RSS (median, bytes)", base.maxrss_median_bytes,
                              ref.maxrss_median_bytes)):
            ratio = r / b
            verdicts.append(Verdict(command.name, metric, b, r, ratio, command.target,
                                    ratio <= command.target))
    return verdicts


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _mib(size: float) -> str:
    return f"{size / 2**20:.1f} MiB"


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                        strict=True)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def format_report(cmds: Sequence[Command], summaries: dict[str, Summary],
                  verdicts: Sequence[Verdict], *, rounds: int, warmup: int,
                  bytecode: str) -> str:
    base = summaries["baseline"]
    by = {(v.command, v.metric.split(" (")[0]): v for v in verdicts}

    def result(name: str) -> str:
        marks = [by[(name, m)] for m in ("wall time", "peak RSS") if (name, m) in by]
        return "" if not marks else ("PASS" if all(v.passed for v in marks) else "FAIL")

    rows = [("command", "wall median", "ratio", "IQR", "min", "cpu median", "ratio",
             "peak RSS", "ratio", "target", "result")]
    for command in cmds:
        s = summaries[command.name]
        rows.append((command.name, _ms(s.wall_median_s),
                     f"{s.wall_median_s / base.wall_median_s:.2f}x", _ms(s.wall_iqr_s),
                     _ms(s.wall_min_s), _ms(s.cpu_median_s),
                     f"{s.cpu_median_s / base.cpu_median_s:.2f}x",
                     _mib(s.maxrss_median_bytes),
                     f"{s.maxrss_median_bytes / base.maxrss_median_bytes:.2f}x",
                     "" if command.target is None else f"<= {command.target:.2f}x",
                     result(command.name)))
    lines = [f"Start-up: referee's commands vs a bare Typer + rich app ({rounds} interleaved "
             f"rounds after {warmup} warm-up runs each; Python {platform.python_version()}; "
             f"bytecode: {bytecode})", ""]
    lines += _table(rows)
    lines.append("")
    lines += [f"  {c.name:<9}{' '.join(c.argv[4:]) or '-'}" for c in cmds[1:]]
    lines.append("  (the targets hold for the median wall time and the median peak RSS, as "
                 "ratios to the baseline's)")
    overall = "PASS" if all(v.passed for v in verdicts) else "FAIL"
    lines += ["", f"overall: {overall}"]
    return "\n".join(lines)


def to_json(cmds: Sequence[Command], summaries: dict[str, Summary],
            verdicts: Sequence[Verdict], samples: dict[str, list[Sample]], *, rounds: int,
            warmup: int, bytecode: str) -> dict[str, Any]:
    return {"python": sys.executable, "python_version": platform.python_version(),
            "rounds": rounds, "warmup": warmup, "bytecode": bytecode,
            "commands": {c.name: {"argv": list(c.argv), "target_ratio": c.target}
                         for c in cmds},
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
    names = [c.name for c in commands()[1:]]
    parser = argparse.ArgumentParser(
        description="Compare the start-up time and peak memory of referee's commands "
                    "(lookup, --help, run, odds) with a bare Typer + rich app.")
    parser.add_argument("--rounds", type=_positive_int, default=DEFAULT_ROUNDS,
                        help=f"measured rounds, each runs every command "
                             f"(default {DEFAULT_ROUNDS})")
    parser.add_argument("--warmup", type=_positive_int, default=DEFAULT_WARMUP,
                        help=f"discarded runs of each command first, which also check that "
                             f"it works (default {DEFAULT_WARMUP})")
    parser.add_argument("--only", action="append", choices=names, metavar="COMMAND",
                        help=f"measure only this command beside the baseline (repeatable; "
                             f"one of {', '.join(names)})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless every ratio is within its target")
    parser.add_argument("--inherit-bytecode-settings", action="store_true",
                        help="run the children with the caller's PYTHONDONTWRITEBYTECODE and "
                             "PYTHONPYCACHEPREFIX instead of a private, warmed bytecode cache")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not hasattr(os, "wait4"):
        print("startup.py needs os.wait4 (a POSIX system)", file=sys.stderr)
        return 2
    cmds = [c for c in commands() if c.target is None or not args.only or c.name in args.only]
    with tempfile.TemporaryDirectory(prefix="referee-bench-pycache-") as pycache_dir:
        inherit = args.inherit_bytecode_settings
        env = child_env(None if inherit else pycache_dir)
        bytecode = "inherited settings" if inherit else "private warmed cache"
        load = load_average()
        try:
            samples = measure(cmds, env, rounds=args.rounds, warmup=args.warmup)
        except BenchmarkError as error:
            print(f"startup.py: {error}", file=sys.stderr)
            return 2
        load = f"load average {load} at the start, {load_average()} at the end"
    summaries = {name: summarize(runs) for name, runs in samples.items()}
    verdicts = judge(cmds, summaries)
    if args.json:
        print(json.dumps(to_json(cmds, summaries, verdicts, samples, rounds=args.rounds,
                                 warmup=args.warmup, bytecode=bytecode), indent=2))
    else:
        print(format_report(cmds, summaries, verdicts, rounds=args.rounds, warmup=args.warmup,
                            bytecode=bytecode))
        print(f"{load} ({os.cpu_count()} CPUs)")
    if args.check and not all(v.passed for v in verdicts):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
