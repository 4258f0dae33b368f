"""Whole ``referee run`` commands as a player waits for them, as text and as ``--json``,
beside the minimal Typer + rich app measured in the same run: shared by the benchmarks that
give a whole-run figure beside their per-step one (``odds.py``, ``fow_allocation.py``).

Each script is run as a fresh process, ``referee run FILE`` (text, to a file) and ``referee
run FILE --json``, each round beside a run of the baseline (``benchmarks/baseline_app.py``),
the three in an order that rotates from round to round; warm-up runs first, which must
succeed. The children are started and reaped as ``startup.py`` does (``startup.run_once``:
a blocking ``wait4``, the child's own CPU time; the same interpreter and environment, a
private warmed bytecode cache). Medians; the figures are multiples of the baseline's
medians, judged by CPU time (the work done, which others' load on a shared machine barely
moves), the JSON run also as a multiple of the text run (the goal of issue 25: at most 2x),
with the size of each output.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from startup import BenchmarkError, Command, Sample, _entry_point_argv, run_once  # noqa: E402

JSON_GOAL = 2.0  # issue 25: the JSON run within twice the text run
KINDS = ("text", "json")


def referee_argv(script: Path, *extra: str) -> tuple[str, ...]:
    return _entry_point_argv("", "referee.start", ("run", str(script), *extra))


def baseline_argv() -> tuple[str, ...]:
    return _entry_point_argv(f"sys.path.insert(0, {str(HERE)!r}); ", "baseline_app",
                             ("epic", "to-hit", "8"))


@dataclass
class WholeRun:
    """One script's runs: ``text`` and ``json`` samples (a kind ``over`` ran past the
    timeout and was not run again)."""

    name: str
    script: Path
    samples: dict[str, list[Sample]] = field(default_factory=lambda: {k: [] for k in KINDS})
    over: set[str] = field(default_factory=set)

    def argv(self, kind: str) -> tuple[str, ...]:
        return referee_argv(self.script, *(("--json",) if kind == "json" else ()))

    def median(self, kind: str, what: str) -> float | None:
        got = self.samples[kind]
        if kind in self.over or not got:
            return None
        return float(statistics.median(getattr(s, what) for s in got))


def _once(argv: Sequence[str], env: dict[str, str], timeout: float, cwd: Path | None
          ) -> Sample | None:
    try:
        kwargs: dict[str, Any] = {} if cwd is None else {"cwd": cwd}
        return run_once(Command("run", tuple(argv)), env, check_output=True, timeout=timeout,
                        **kwargs)
    except BenchmarkError as error:
        raise SystemExit(f"{' '.join(argv[4:])} failed: {error}") from None


def measure(runs: Sequence[WholeRun], env: dict[str, str], *, rounds: int, timeout: float,
            kinds: Sequence[str] = KINDS, cwd: Path | None = None,
            say: Callable[[str], None] | None = None) -> list[Sample]:
    """Every run's ``kinds``, ``rounds`` times each, interleaved with the baseline (whose
    samples are returned); a kind that runs past ``timeout`` is run no more."""
    base = baseline_argv()
    baseline: list[Sample] = []
    for _ in range(2):  # warm-up: bytecode written, page cache filled
        _once(base, env, timeout, cwd)
    for run in runs:
        for kind in kinds:
            if _once(run.argv(kind), env, timeout, cwd) is None:
                run.over.add(kind)
        if say is not None:
            say(f"  warm-up {run.name}: {', '.join(sorted(run.over)) or 'ok'}")
    for r in range(rounds):
        for run in runs:
            order: list[tuple[str | None, tuple[str, ...]]] = [
                (None, base), *((kind, run.argv(kind)) for kind in kinds
                                 if kind not in run.over)]
            first = r % len(order)
            for which, argv in order[first:] + order[:first]:
                sample = _once(argv, env, timeout, cwd)
                if which is None:
                    if sample is not None:
                        baseline.append(sample)
                elif sample is None:
                    run.over.add(which)
                else:
                    run.samples[which].append(sample)
        if say is not None:
            say(f"  round {r + 1}/{rounds} done")
    return baseline


def _kb(size: float | None) -> str:
    return "-" if size is None else f"{size / 1024:,.0f}"


def report(runs: Sequence[WholeRun], baseline: Sequence[Sample], timeout: float,
           kinds: Sequence[str] = KINDS) -> tuple[list[str], int]:
    """The table of the whole runs and how many JSON runs miss the goal (``JSON_GOAL`` times
    the text run's CPU time)."""
    wall = statistics.median(s.wall_s for s in baseline)
    cpu = statistics.median(s.cpu_s for s in baseline)
    lines = [f"baseline (the minimal Typer + rich app): {wall * 1000:.0f} ms, CPU "
             f"{cpu * 1000:.0f} ms (medians of {len(baseline)})"]
    head = ["whole run"]
    for kind in kinds:
        head += [f"{kind} s", "x app", "CPU x app", f"{kind} KB"]
    if len(kinds) == 2:
        head += ["json/text CPU", "size", "goal"]
    rows = [head]
    missed = 0
    for run in runs:
        row = [run.name]
        for kind in kinds:
            w, c = run.median(kind, "wall_s"), run.median(kind, "cpu_s")
            if w is None or c is None:
                row += [f"> {timeout:.0f}" if kind in run.over else "-", "-", "-", "-"]
            else:
                row += [f"{w:.2f}", f"{w / wall:.1f}x", f"{c / cpu:.1f}x",
                        _kb(run.median(kind, "output_bytes"))]
        if len(kinds) == 2:
            text_cpu, json_cpu = run.median("text", "cpu_s"), run.median("json", "cpu_s")
            text_kb, json_kb = (run.median("text", "output_bytes"),
                                run.median("json", "output_bytes"))
            if text_cpu and json_cpu and text_kb and json_kb:
                ok = json_cpu / text_cpu <= JSON_GOAL
                row += [f"{json_cpu / text_cpu:.2f}x", f"{json_kb / text_kb:.1f}x",
                        "met" if ok else "MISSED"]
            else:
                ok = False
                row += ["-", "-", "MISSED"]
            missed += not ok
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if len(kinds) == 2:
        lines.append(f"goal (issue 25): the JSON run within {JSON_GOAL:.0f}x the text run's "
                     "CPU time; the sizes are what each printed")
    return lines, missed
