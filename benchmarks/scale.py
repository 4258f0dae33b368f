"""Scale benchmark: whole ``referee run`` commands on generated scripts, from a small case up
to each ruleset's declaration limits, against a bare Typer + rich app measured in the same run.

What it measures
----------------
For each ruleset, a growth series of scripts (``benchmarks/script_builders.py``: what the size
counts, what grows with it, and how the limit is read from the ruleset's model). Each script
is run as a fresh process, ``referee run FILE`` with the odds on (as a player runs it), and
timed from spawn to reap: start-up, reading and validating the script, resolving it, the
odds, printing the working. The baseline is ``benchmarks/baseline_app.py``, the minimal Typer
app that prints one rich table (see ``benchmarks/startup.py``), run right before or after
every case, so each series has its own baseline from the same minutes.

Then the cases at the declarations' limits that no series reaches (``LIMIT_CASES``: Epic's
largest declaration with a macro-weapon and crossfire, Combat Commander's twelve leaders,
Lock 'n Load's fire at a hex of 199 units, Flames of War's 3,600 hits over 60 teams, sparse
and dense), each on its own beside the baseline (``--no-limits`` leaves them out).

Each script is also run with ``--json`` (``--text-only``: not), beside its text run in the
same rounds: its CPU time as a multiple of the baseline's and of the text run's (the goal of
issue 25: at most 2x the text run), and the size of each output.

Per series it prints each size's median wall and CPU time (the child's own, from ``wait4``:
on a shared machine the CPU time is the steadier) and their multiples of the baseline's
medians, the largest case's multiples (the goal of issue 16: at most 8x, judged by CPU
time, which others' load barely moves), the load average at the start and the end, and
the growth fitted on the CPU medians: ``t = a + b n`` (linear), ``t = a + b n + c n^2``
(quadratic) and ``t = a + b e^(c n)`` (exponential), with the R^2 and the Bayesian
information criterion (BIC) of each, and the growth they point to:
linear, unless a curve that bends up (a positive n^2 or exponent term) has a BIC lower than
the line's by more than 2 (positive evidence: a parameter more must fit better by more than
the medians' noise).

How it is made fair
-------------------
As in ``startup.py``: the same interpreter, environment and working directory for every
child, stdin from ``/dev/null``, output to a file (plain ASCII tables; with ``--terminal``
to a pseudo-terminal, read as it comes: colour and rounded boxes, as a player sees them; the
baseline's too), bytecode from a
private warmed cache, warm-up runs first (which must succeed: a failing script would look
fast), rounds interleaved (round ``i`` runs the cases in rotated order, each beside a run of
the baseline, the pair's order alternating), medians. A case slower than ``--timeout`` is
stopped, shown as such, and not run again (nor are the larger cases of its series, which
would be slower still).

How to run it
-------------
From the repository root, with the interpreter that has referee installed::

    python benchmarks/scale.py                      # every ruleset, 5 sizes, 3 rounds
    python benchmarks/scale.py --only lnlt --only waw --points 8 --rounds 5
    python benchmarks/scale.py --only epic-largest --only fow-limit-most --rounds 7
    python benchmarks/scale.py --timeout 30         # give up on a case after 30 s
    python benchmarks/scale.py --terminal 80        # as an 80-column colour terminal shows it
    python benchmarks/scale.py --keep /tmp/scripts  # keep the generated scripts
    python benchmarks/scale.py --text-only          # not also each script with --json
    python benchmarks/scale.py --json

Exit status 0; 2 when a case fails (its error is printed). POSIX only; standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from script_builders import LIMIT_CASES, SERIES, Series, write_script
from startup import (
    BENCH_DIR,
    BenchmarkError,
    Command,
    Sample,
    _entry_point_argv,
    child_env,
    load_average,
    run_once,
)

GOAL_RATIO = 8.0
JSON_GOAL = 2.0  # issue 25: a --json run within twice the text run's CPU time
DEFAULT_POINTS = 5
DEFAULT_ROUNDS = 3
DEFAULT_TIMEOUT = 120.0


class CaseError(RuntimeError):
    """A generated script failed: its timings would mean nothing."""


@dataclass
class Case:
    """One size: its text run (``walls``, ``cpus``, ``sizes``) and, unless ``--text-only``,
    the same script run with ``--json`` (``json_*``)."""

    size: int
    argv: tuple[str, ...]
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    timed_out: bool = False
    json_argv: tuple[str, ...] | None = None
    json_walls: list[float] = field(default_factory=list)
    json_cpus: list[float] = field(default_factory=list)
    json_sizes: list[int] = field(default_factory=list)
    json_timed_out: bool = False

    @property
    def median(self) -> float | None:
        return statistics.median(self.walls) if self.walls and not self.timed_out else None

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus and not self.timed_out else None

    @property
    def json_median(self) -> float | None:
        return (statistics.median(self.json_walls)
                if self.json_walls and not self.json_timed_out else None)

    @property
    def json_cpu_median(self) -> float | None:
        return (statistics.median(self.json_cpus)
                if self.json_cpus and not self.json_timed_out else None)

    def keep(self, sample: Sample, json: bool) -> None:
        if json:
            self.json_walls.append(sample.wall_s)
            self.json_cpus.append(sample.cpu_s)
            self.json_sizes.append(sample.output_bytes)
        else:
            self.walls.append(sample.wall_s)
            self.cpus.append(sample.cpu_s)
            self.sizes.append(sample.output_bytes)


@dataclass(frozen=True)
class Fit:
    model: str
    params: tuple[float, ...]
    r2: float
    bic: float

    def formula(self) -> str:
        p = self.params
        if self.model == "linear":
            return f"{p[0]:.3f} + {p[1]:.2e} n"
        if self.model == "quadratic":
            return f"{p[0]:.3f} + {p[1]:.2e} n + {p[2]:.2e} n^2"
        return f"{p[0]:.3f} + {p[1]:.2e} e^({p[2]:.3f} n)"


TERMINAL: tuple[int, int] | None = None  # (columns, rows) with --terminal


def run_timed(argv: Sequence[str], env: dict[str, str], timeout: float) -> Sample | None:
    """Wall and CPU time of one run (None: stopped after ``timeout`` seconds); the child is
    reaped by ``startup.run_once`` (a blocking ``wait4``: exact times, its own rusage)."""
    try:
        return run_once(Command("case", tuple(argv)), env, check_output=True, timeout=timeout,
                        terminal=TERMINAL)
    except BenchmarkError as error:
        raise CaseError(str(error)) from None


# -- fitting (least squares, standard library only) ----------------------------------------

def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (tiny systems)."""
    n = len(rhs)
    a = [[*row, r] for row, r in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-300:
            raise ZeroDivisionError("singular")
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def _polyfit(xs: Sequence[float], ys: Sequence[float], degree: int) -> list[float]:
    k = degree + 1
    # normal equations on x scaled to [0, 1] for conditioning
    scale = max(xs) or 1.0
    us = [x / scale for x in xs]
    ata = [[sum(u ** (i + j) for u in us) for j in range(k)] for i in range(k)]
    aty = [sum(y * u ** i for u, y in zip(us, ys, strict=True)) for i in range(k)]
    coefficients = _solve(ata, aty)
    return [c / scale ** i for i, c in enumerate(coefficients)]


def _stats(model: str, params: tuple[float, ...], xs: Sequence[float], ys: Sequence[float],
           predict: Any) -> Fit:
    sse = sum((y - predict(x)) ** 2 for x, y in zip(xs, ys, strict=True))
    mean = statistics.fmean(ys)
    sst = sum((y - mean) ** 2 for y in ys) or 1e-300
    m = len(xs)
    bic = m * math.log(max(sse, 1e-12) / m) + len(params) * math.log(m)
    return Fit(model, params, 1 - sse / sst, bic)


def fit_linear(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    a, b = _polyfit(xs, ys, 1)
    return _stats("linear", (a, b), xs, ys, lambda x: a + b * x)


def fit_quadratic(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    a, b, c = _polyfit(xs, ys, 2)
    return _stats("quadratic", (a, b, c), xs, ys, lambda x: a + b * x + c * x * x)


def fit_exponential(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    """``a + b e^(c n)``: for each floor ``a`` below the fastest time, a straight line
    through ``(n, ln(t - a))``; the floor whose curve fits the times best."""
    best: Fit | None = None
    low = min(ys)
    for i in range(200):
        a = low * i / 200
        try:
            lb, c = _polyfit(xs, [math.log(y - a) for y in ys], 1)
        except (ValueError, ZeroDivisionError):
            continue
        b = math.exp(lb)
        fit = _stats("exponential", (a, b, c), xs, ys,
                     lambda x, a=a, b=b, c=c: a + b * math.exp(min(c * x, 700)))
        if best is None or fit.bic < best.bic:
            best = fit
    assert best is not None
    return best


EVIDENCE = 2.0
"""A model with a parameter more than the line is preferred only when its BIC is lower by
more than this (positive evidence on Kass and Raftery's scale): within it, the medians'
noise explains the difference as well."""


def grows_faster(fit: Fit) -> bool:
    """Whether a curve bends up (a positive n^2 or exponent term): one that bends down
    says the growth is at most linear, however well it fits."""
    return fit.params[-1] > 0 and (fit.model != "exponential" or fit.params[1] > 0)


def fits(xs: Sequence[float], ys: Sequence[float]) -> list[Fit]:
    """The three fits, the preferred one first: the line, unless a curve that bends up has
    a BIC lower by more than ``EVIDENCE`` (then the lower of those); none with fewer than 4
    points."""
    if len(xs) < 4:
        return []
    line = fit_linear(xs, ys)
    curves = sorted([fit_quadratic(xs, ys), fit_exponential(xs, ys)], key=lambda f: f.bic)
    better = [c for c in curves if grows_faster(c) and c.bic < line.bic - EVIDENCE]
    if better:
        return [better[0], line, *(c for c in curves if c is not better[0])]
    return [line, *curves]


# -- measuring -----------------------------------------------------------------------------

def referee_argv(script: Path, *extra: str) -> tuple[str, ...]:
    return _entry_point_argv("", "referee.start", ("run", str(script), *extra))


def baseline_argv() -> tuple[str, ...]:
    return _entry_point_argv(f"sys.path.insert(0, {str(BENCH_DIR)!r}); ", "baseline_app",
                             ("epic", "to-hit", "8"))


def measure_series(series: Series, folder: Path, env: dict[str, str], *, points: int,
                   rounds: int, timeout: float, say: Any, json: bool = True
                   ) -> tuple[list[Case], list[Sample]]:
    """Each size's text run (and with ``json`` its ``--json`` run) beside the baseline, in
    rotated order round by round; a run past ``timeout`` is not run again, nor are the
    larger sizes' (slower still)."""
    cases = []
    for size in series.sizes(points):
        path = write_script(series.script(size), folder / f"{series.ruleset}-{size}.toml")
        cases.append(Case(size, referee_argv(path),
                          json_argv=referee_argv(path, "--json") if json else None))
    base = baseline_argv()
    baseline: list[Sample] = []
    for case in cases:  # warm-up: bytecode, page cache; every script must run
        if run_timed(base, env, timeout) is None or run_timed(case.argv, env, timeout) is None:
            case.timed_out = True
        elif case.json_argv is not None and run_timed(case.json_argv, env, timeout) is None:
            case.json_timed_out = True
        state = ("timed out" if case.timed_out else
                 "JSON timed out" if case.json_timed_out else "ok")
        say(f"  warm-up {series.ruleset} {case.size}: {state}")
        for later in cases[cases.index(case) + 1:]:  # the larger ones would be slower still
            later.timed_out |= case.timed_out
            later.json_timed_out |= case.json_timed_out
        if case.timed_out:
            break
    for r in range(rounds):
        live = [c for c in cases if not c.timed_out]
        k = r % len(live) if live else 0
        for i, case in enumerate(live[k:] + live[:k]):
            runs: list[tuple[tuple[str, ...], Case | None, bool]] = [
                (base, None, False), (case.argv, case, False)]
            if case.json_argv is not None and not case.json_timed_out:
                runs.append((case.json_argv, case, True))
            j = (r + i) % len(runs)
            for argv, owner, as_json in runs[j:] + runs[:j]:
                sample = run_timed(argv, env, timeout)
                if owner is None:
                    if sample is not None:
                        baseline.append(sample)
                elif sample is None:
                    if as_json:
                        owner.json_timed_out = True
                    else:
                        owner.timed_out = True
                else:
                    owner.keep(sample, as_json)
        say(f"  round {r + 1}/{rounds} of {series.ruleset} done")
    return cases, baseline


def report(series: Series, cases: Sequence[Case], baseline: Sequence[Sample],
           timeout: float) -> tuple[list[str], dict[str, Any]]:
    base = statistics.median(s.wall_s for s in baseline) if baseline else float("nan")
    base_cpu = statistics.median(s.cpu_s for s in baseline) if baseline else float("nan")
    what = ("at the declaration's limits" if len(cases) == 1 else
            f"size = {series.axis}, limit {series.limit}")
    lines = [f"{series.name} ({series.ruleset}): {what}; baseline median "
             f"{base * 1000:.1f} ms (CPU {base_cpu * 1000:.1f} ms) over {len(baseline)} runs"]
    with_json = any(c.json_argv is not None for c in cases)
    rows: list[tuple[str, ...]] = [
        (series.axis, "median", "x baseline", "CPU", "x baseline CPU", "runs",
         *(("text KB", "JSON", "JSON CPU", "x baseline CPU", "JSON/text CPU", "JSON KB")
           if with_json else ()))]
    for c in cases:
        row: list[str]
        if c.median is None or c.cpu_median is None:
            row = [str(c.size), f"> {timeout:.0f} s" if c.timed_out else "-",
                   f"> {timeout / base:.0f}x" if c.timed_out else "-", "-", "-",
                   str(len(c.walls))]
        else:
            row = [str(c.size), f"{c.median * 1000:.0f} ms", f"{c.median / base:.2f}x",
                   f"{c.cpu_median * 1000:.0f} ms", f"{c.cpu_median / base_cpu:.2f}x",
                   str(len(c.walls))]
        if with_json:
            json_wall, json_cpu = c.json_median, c.json_cpu_median
            row.append(f"{statistics.median(c.sizes) / 1024:,.0f}" if c.sizes else "-")
            if json_wall is None or json_cpu is None:
                row += [f"> {timeout:.0f} s" if c.json_timed_out else "-", "-", "-", "-", "-"]
            else:
                row += [f"{json_wall * 1000:.0f} ms", f"{json_cpu * 1000:.0f} ms",
                        f"{json_cpu / base_cpu:.2f}x",
                        f"{json_cpu / c.cpu_median:.2f}x" if c.cpu_median else "-",
                        f"{statistics.median(c.json_sizes) / 1024:,.0f}"]
        rows.append(tuple(row))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, shown in enumerate(rows):
        lines.append("  " + "  ".join(cell.rjust(w)
                                      for cell, w in zip(shown, widths, strict=True)))
        if n == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    largest = cases[-1]
    cpu_ratio = None
    if largest.median is not None and largest.cpu_median is not None:
        ratio = largest.median / base
        cpu_ratio = largest.cpu_median / base_cpu
        # judged by CPU time: the work done, which others' load on the machine barely moves
        verdict = "PASS" if cpu_ratio <= GOAL_RATIO else "FAIL"
        which = "the case" if len(cases) == 1 else \
            f"largest case ({series.axis} = {largest.size})"
        lines.append(f"  {which}: {ratio:.2f}x the baseline, CPU {cpu_ratio:.2f}x (goal <= "
                     f"{GOAL_RATIO:.0f}x): {verdict}")
    else:
        ratio = None
        lines.append(f"  largest case ({series.axis} = {largest.size}): over {timeout:.0f} s, "
                     f"more than {timeout / base:.0f}x the baseline (goal <= "
                     f"{GOAL_RATIO:.0f}x): FAIL")
    json_ratio = None
    if with_json:
        json_cpu = largest.json_cpu_median
        if json_cpu is not None and largest.cpu_median:
            json_ratio = json_cpu / largest.cpu_median
            size = (statistics.median(largest.json_sizes) / statistics.median(largest.sizes)
                    if largest.sizes and largest.json_sizes else float("nan"))
            lines.append(f"  its --json run: CPU {json_ratio:.2f}x the text run's (goal <= "
                         f"{JSON_GOAL:.0f}x): {'PASS' if json_ratio <= JSON_GOAL else 'FAIL'}; "
                         f"output {size:.1f}x the text's")
        else:
            lines.append(f"  its --json run: over {timeout:.0f} s or not run (goal <= "
                         f"{JSON_GOAL:.0f}x the text run's CPU): FAIL")
    done = [c for c in cases if c.median is not None]
    if len(cases) == 1:  # a case on its own (a declaration at its limits): no growth to fit
        done = []
    # fitted on the CPU medians: the work a size costs (the wall time has others' load in it)
    found = fits([c.size for c in done],
                 [c.cpu_median for c in done if c.cpu_median is not None])
    if found:
        bends = found[0].model == "linear" and any(
            f.bic < found[0].bic - EVIDENCE and not grows_faster(f) for f in found[1:])
        growth = "linear or slower, the closest curve bending down" if bends else \
            found[0].model
        lines.append(f"  growth: {growth} (fitted on the CPU medians of {len(done)} sizes; "
                     f"t in s, n = {series.axis})")
        for f in found:
            lines.append(f"    {f.model:<11} R^2 {f.r2:.4f}  BIC {f.bic:7.1f}  t = {f.formula()}")
    elif len(cases) > 1:
        lines.append(f"  growth: not fitted (only {len(done)} sizes measured)")
    data = {"ruleset": series.ruleset, "name": series.name, "axis": series.axis,
            "limit": series.limit, "baseline_median_s": base, "baseline_cpu_median_s": base_cpu,
            "baseline_runs": [asdict(s) for s in baseline],
            "cases": [{"size": c.size, "walls_s": c.walls, "cpus_s": c.cpus,
                       "output_bytes": c.sizes, "timed_out": c.timed_out, "median_s": c.median,
                       "cpu_median_s": c.cpu_median, "json_walls_s": c.json_walls,
                       "json_cpus_s": c.json_cpus, "json_output_bytes": c.json_sizes,
                       "json_timed_out": c.json_timed_out} for c in cases],
            "largest_ratio": ratio, "largest_cpu_ratio": cpu_ratio, "goal_ratio": GOAL_RATIO,
            "largest_json_to_text_cpu": json_ratio, "json_goal_ratio": JSON_GOAL,
            "fits": [asdict(f) for f in found]}
    return lines, data


def _where() -> str:
    return ("a file (plain text)" if TERMINAL is None else
            f"a {TERMINAL[0]}-column pseudo-terminal (colour)")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time whole `referee run` commands on generated scripts up to each "
                    "ruleset's declaration limits, against a bare Typer + rich app.")
    parser.add_argument("--only", action="append", choices=sorted({**SERIES, **LIMIT_CASES}),
                        metavar="NAME",
                        help="this series or case only (repeatable; one of "
                             f"{', '.join([*SERIES, *LIMIT_CASES])})")
    parser.add_argument("--no-limits", action="store_true",
                        help="the growth series alone, not the cases at the declarations' "
                             "limits")
    parser.add_argument("--points", type=int, default=DEFAULT_POINTS,
                        help=f"sizes per series, the limit included (default {DEFAULT_POINTS})")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"measured runs of each case (default {DEFAULT_ROUNDS})")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds before a case is stopped (default {DEFAULT_TIMEOUT:.0f})")
    parser.add_argument("--keep", type=Path, help="write the generated scripts to this folder")
    parser.add_argument("--terminal", type=int, nargs="?", const=120, metavar="COLUMNS",
                        help="write every child's output to a pseudo-terminal this wide "
                             "(default 120), as a player sees it: colour, rounded boxes")
    parser.add_argument("--text-only", action="store_true",
                        help="run each script as text only, not also with --json")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    global TERMINAL
    args = parse_args(argv)
    if args.terminal:
        TERMINAL = (args.terminal, 50)
    chosen = [SERIES[k] for k in SERIES if not args.only or k in args.only]
    if not args.no_limits:
        chosen += [LIMIT_CASES[k] for k in LIMIT_CASES if not args.only or k in args.only]

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    out: list[str] = [f"Scale: whole `referee run` commands vs a bare Typer + rich app "
                      f"({args.rounds} interleaved rounds, {args.points} sizes per series; "
                      f"Python {platform.python_version()}; timeout {args.timeout:.0f} s; "
                      f"output to {_where()}; "
                      f"load average {load_average()} at the start)", ""]
    results = []
    with tempfile.TemporaryDirectory(prefix="referee-bench-pycache-") as pycache, \
            tempfile.TemporaryDirectory(prefix="referee-scale-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        env = child_env(pycache)
        if TERMINAL is not None:  # a colour terminal of that size, whatever the caller's
            env.update(TERM="xterm-256color", COLUMNS=str(TERMINAL[0]),
                       LINES=str(TERMINAL[1]))
            for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
                env.pop(name, None)
        for series in chosen:
            try:
                cases, baseline = measure_series(series, folder, env, points=args.points,
                                                 rounds=args.rounds, timeout=args.timeout,
                                                 say=say, json=not args.text_only)
            except CaseError as error:
                print(f"scale.py: {series.name}: {error}", file=sys.stderr)
                return 2
            lines, data = report(series, cases, baseline, args.timeout)
            out += [*lines, ""]
            results.append(data)
            say("\n".join(lines))
    out.append(f"load average {load_average()} at the end ({os.cpu_count()} CPUs)")
    if args.json:
        print(json.dumps({"python": sys.executable, "python_version": platform.python_version(),
                          "rounds": args.rounds, "points": args.points,
                          "timeout_s": args.timeout, "cpus": os.cpu_count(),
                          "series": results}, indent=2))
    else:
        print("\n".join(out).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
