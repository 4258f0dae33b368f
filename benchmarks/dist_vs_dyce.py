"""Benchmark: the odds' distribution value, ``referee.odds.dist.Dist`` against the same value
built on dyce's histogram (``H``), on the project's real odds workloads (issue 25, item 3).

Why
---
``odds/dist.py`` keeps a distribution as whole-number weights over one total, with the
closed forms the rulesets need (binomial, mixture, sum); dyce's ``H`` is the same idea in a
general library. One of the two is kept: this measures which serves the referee better.

What it measures
----------------
``DyceDist`` (below) is ``Dist``'s interface written the dyce way: the histogram is a dyce
``H``, a binomial is ``n @ H({1: good, 0: bad})``, a die is ``H(sides)``, the total of ``n``
rolls ``n @ H``, a sum is ``H + H``, a mixture is
``aggregate_weighted``, a change of outcome is ``H.apply``, a chance is read through
``probability_items``, ``ge``, ``le``, ``lt`` and ``eq``; only the mean is summed by hand
(dyce's is a float). Every odds workload of ``benchmarks/odds.py`` runs with each:

* **steps**: every ``Case`` of every ``odds_cases_<name>.py`` (one roll's report, its end
  states worked out), then the roll shown: its text (``render.odds.report_lines``) and its
  JSON (``render.json_out.odds_json``), which read every outcome's chance;
* **whole runs**: every ``Run`` (the attack played once with seeded dice), every roll's report,
  end states and JSON in order, as one figure.

The implementation is switched in the same process by setting the name ``Dist`` (and every
distribution kept at module level, as Lock 'n Load's die) in every loaded ``referee`` module;
each timed call starts from cold (every ``functools`` cache of the referee cleared, Epic's kept
work forgotten), for both arms alike. The arms alternate call by call, in alternating order;
medians and the ratio dyce / dist.py (the baseline: the code as shipped) per case, and the
sum over the cases. Both arms must give the same answer (the same distribution, the same end
states, the same JSON): exit status 1 otherwise.

Then the cost of loading each (a fresh interpreter importing ``referee.odds.dist`` or
``dyce``; medians of ``-X importtime``'s cumulative microseconds), and the import of dyce is
otherwise not counted (a warm-up call first).

From the repository root::

    python benchmarks/dist_vs_dyce.py [--rounds 7] [--only epic] [--no-runs]

Measured, and what was decided
------------------------------
On the 2-CPU machine shared with other work (load average 5 to 8), dyce / dist.py:

* 2026-12-02, before main's application layer was merged (``--rounds 7``): median 1.06x over
  the 50 steps (range 0.67x-1.59x), 1.02x over the 7 whole runs; 0 answers different;
  loading dyce 263 ms.
* 2026-12-02, after the merge (``--rounds 3``): median 1.03x over the 50 steps (range
  0.12x-2.63x: single calls of a few ms under load), 1.15x over the 7 whole runs (0.68x-1.38x;
  the largest Epic declaration alone, 0.68x here, was 1.30x in a run of Epic alone); 0 answers
  different; loading dist.py 22 ms, dyce 188 ms.

Neither is faster beyond the noise, and ``dist.py`` loads with the odds anyway, so dyce would
only add its import to a first roll's odds, and could not carry a simulation's runs or give an
exact mean (a wrapper would stay). Kept: ``odds/dist.py``. dyce is no dependency of the
referee: it is in ``pyproject.toml``'s ``test`` extra only, as this benchmark's other arm,
the bare queries of ``benchmarks/odds.py`` and the tests' independent oracle
(``tests/odds/test_odds_dist.py``); the import-linter contract ``no-dice-library`` forbids it
in ``referee``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dyce import H  # noqa: E402
from dyce.h import aggregate_weighted  # noqa: E402
from odds_bench import Case, Run, modules  # noqa: E402
from startup import load_average  # noqa: E402

from referee.odds import dist as dist_module  # noqa: E402
from referee.odds.dist import Dist, wilson  # noqa: E402


class DyceDist:
    """``Dist``'s interface over a dyce ``H`` (exact integer counts); ``runs`` as ``Dist``'s."""

    __slots__ = ("h", "runs")

    def __init__(self, probs: Mapping[int, Fraction], runs: int | None = None) -> None:
        kept = {int(k): Fraction(v) for k, v in probs.items() if v}
        if not kept:
            raise ValueError("a distribution needs at least one outcome")
        total = math.lcm(*(v.denominator for v in kept.values()))
        counts = {k: v.numerator * (total // v.denominator) for k, v in kept.items()}
        if sum(counts.values()) != total:
            raise ValueError("probabilities do not sum to 1")
        self.h, self.runs = H(counts).lowest_terms(), runs

    @classmethod
    def _of(cls, h: Any, runs: int | None = None) -> DyceDist:
        out = cls.__new__(cls)
        out.h, out.runs = h.lowest_terms(), runs
        return out

    @classmethod
    def from_counts(cls, counts: Mapping[int, int], runs: int | None = None) -> DyceDist:
        if sum(counts.values()) <= 0:
            raise ValueError("a distribution needs at least one outcome")
        return cls._of(H({int(k): int(c) for k, c in counts.items()}), runs)

    @classmethod
    def point(cls, value: int) -> DyceDist:
        return cls._of(H({value: 1}))

    @classmethod
    def die(cls, sides: int) -> DyceDist:
        return cls._of(H(sides))

    @classmethod
    def binomial(cls, n: int, p: Fraction) -> DyceDist:
        if n == 0 or p == 0:
            return cls.point(0)
        if p == 1:
            return cls.point(n)
        return cls._of(n @ H({1: p.numerator, 0: p.denominator - p.numerator}))

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction, Any]]) -> DyceDist:
        parts = [(Fraction(w), d) for w, d in parts if w]
        if not parts:
            raise ValueError("a distribution needs at least one outcome")
        den = math.lcm(*(w.denominator for w, _ in parts))
        runs = [d.runs for _, d in parts if d.runs is not None]
        return cls._of(aggregate_weighted((d.h, w.numerator * (den // w.denominator))
                                          for w, d in parts), min(runs) if runs else None)

    @property
    def exact(self) -> bool:
        return self.runs is None

    def items(self) -> Iterator[tuple[int, Fraction]]:
        return iter(sorted(self.h.probability_items()))

    def counts(self) -> tuple[dict[int, int], int]:
        return dict(self.h.items()), self.h.total

    def outcomes(self) -> tuple[int, ...]:
        return tuple(sorted(self.h.outcomes()))

    def floats(self) -> list[float]:
        return [p for _, p in sorted(self.h.probability_items(lambda n, d: n / d))]

    def __getitem__(self, value: int) -> Fraction:
        return Fraction(self.h.get(value, 0), self.h.total)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DyceDist) and self.h == other.h and self.runs == other.runs

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.h.items())), self.runs))

    @property
    def low(self) -> int:
        return min(self.h.outcomes())

    @property
    def high(self) -> int:
        return max(self.h.outcomes())

    def mean(self) -> Fraction:
        return Fraction(sum(k * c for k, c in self.h.items()), self.h.total)

    @staticmethod
    def _true(h: Any) -> Fraction:
        return Fraction(dict(h.probability_items()).get(True, 0))

    def at_least(self, value: int) -> Fraction:
        return self._true(self.h.ge(value))

    def at_most(self, value: int) -> Fraction:
        return self._true(self.h.le(value))

    def percentile(self, value: int) -> Fraction:
        return 100 * (self._true(self.h.lt(value)) + self._true(self.h.eq(value)) / 2)

    def interval(self, p: Fraction) -> tuple[float, float] | None:
        return None if self.runs is None else wilson(float(p), self.runs)

    def map(self, f: Callable[[int], int]) -> DyceDist:
        return self._of(self.h.apply(f), self.runs)

    def then(self, f: Callable[[int], Any]) -> DyceDist:
        return DyceDist.mixture((v, f(k)) for k, v in self.items())

    def sum_of(self, n: int) -> DyceDist:
        return self._of(n @ self.h, self.runs) if n else self.point(0)

    def __add__(self, other: DyceDist) -> DyceDist:
        runs = [d.runs for d in (self, other) if d.runs is not None]
        return self._of(self.h + other.h, min(runs) if runs else None)


IMPLEMENTATIONS: dict[str, Any] = {"dist.py": Dist, "dyce": DyceDist}


def _convert(value: Any, kind: Any) -> Any:
    counts, _ = value.counts()
    return kind.from_counts(counts, runs=value.runs)


def use(name: str) -> None:
    """Every loaded referee module's ``Dist`` (and its module-level distributions) becomes
    ``name``'s class."""
    kind = IMPLEMENTATIONS[name]
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("referee") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is Dist or value is DyceDist:
                setattr(module, attr, kind)
            elif isinstance(value, (Dist, DyceDist)) and not isinstance(value, kind):
                setattr(module, attr, _convert(value, kind))
    setattr(dist_module, "Dist", kind)  # noqa: B010  # a function-level import reads it here


def cold() -> None:
    """Forget what the odds keep between calls: every functools cache of the referee,
    Epic's kept work."""
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("referee") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == module_name:
                clear()
    epic = sys.modules.get("referee.rulesets.epic.odds")
    if epic is not None:
        epic.fresh()


def shown(report: Any) -> tuple[Any, ...]:
    """The report as a player and a program get it: its distribution, every end state, its
    text and its JSON (which read every outcome's chance). The answer both arms must give."""
    from referee.odds.report import RollOdds
    from referee.render.json_out import odds_json
    from referee.render.odds import report_lines

    if not hasattr(report, "dist"):  # a case whose ``ours`` is not a report
        return (report,)
    roll = RollOdds("bench", None, report, report.dist.low)
    states = tuple((s.label, s.value, s.runs) for s in report.end_states)
    return (tuple(report.dist.items()), states, tuple(report_lines(report)), odds_json(roll))


def step(fn: Callable[[], object]) -> Callable[[], tuple[Any, ...]]:
    def run() -> tuple[Any, ...]:
        cold()
        return shown(fn())
    return run


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def compare(fn: Callable[[], Any], rounds: int) -> tuple[float, float, bool]:
    """``fn`` under each implementation, alternating (in alternating order): the medians
    (ms) and whether the answers were the same."""
    times: dict[str, list[float]] = {"dist.py": [], "dyce": []}
    answers: dict[str, Any] = {}
    for name in ("dist.py", "dyce"):  # warm-up (dyce's import), and each arm's answer
        use(name)
        answers[name] = fn()
    for i in range(rounds):
        for name in (("dist.py", "dyce") if i % 2 == 0 else ("dyce", "dist.py")):
            use(name)
            ms, _ = timed(fn)
            times[name].append(ms)
    use("dist.py")
    return (statistics.median(times["dist.py"]), statistics.median(times["dyce"]),
            answers["dist.py"] == answers["dyce"])


def whole_run(run: Run) -> Callable[[], tuple[Any, ...]]:
    """Every roll of ``run``, in order, each report shown (from cold once, at the start)."""
    from referee.odds.generic import report_for

    questions = run.questions()

    def play() -> tuple[Any, ...]:
        cold()
        run.fresh()
        return tuple(shown(report_for(q)) for q in questions)
    return play


def import_us(module: str, rounds: int) -> float:
    """Median cumulative import time (ms) of ``module`` in a fresh interpreter."""
    out = []
    for _ in range(rounds):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                              capture_output=True, text=True, check=True)
        last = [line for line in done.stderr.splitlines() if line.rstrip().endswith(module)]
        out.append(int(last[-1].split("|")[1]) / 1000)
    return statistics.median(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", help="one case file: core, epic, cc, fow, waw, lnlt")
    parser.add_argument("--no-runs", action="store_true", help="the steps alone")
    args = parser.parse_args()
    print(f"dist.py against dyce ({args.rounds} rounds, alternating, medians; load average "
          f"{load_average()} at the start)")
    groups = modules(args.only)
    rows: list[tuple[str, str, float, float, bool]] = []
    for group, module in groups:
        case: Case
        for case in module.CASES:
            rows.append((group, case.name, *compare(step(case.ours), args.rounds)))
    runs: list[tuple[str, str, float, float, bool]] = []
    if not args.no_runs:
        for group, module in groups:
            for run in getattr(module, "RUNS", []):
                runs.append((group, run.name,
                             *compare(whole_run(run), max(3, args.rounds // 2))))
    width = max(len(r[1]) for r in rows + runs)
    differ = 0
    for title, table in (("step", rows), ("whole run", runs)):
        if not table:
            continue
        print(f"\n{'group':6} {title:{width}} {'dist.py ms':>10} {'dyce ms':>9} "
              f"{'dyce/dist':>9}  same")
        for group, name, ours, theirs, same in table:
            differ += not same
            print(f"{group:6} {name:{width}} {ours:10.2f} {theirs:9.2f} {theirs / ours:8.2f}x  "
                  f"{'yes' if same else 'NO'}")
        total_ours = sum(r[2] for r in table)
        total_theirs = sum(r[3] for r in table)
        ratios = [r[3] / r[2] for r in table]
        print(f"{'':6} {'sum (' + str(len(table)) + ')':{width}} {total_ours:10.1f} "
              f"{total_theirs:9.1f} {total_theirs / total_ours:8.2f}x  "
              f"(median ratio {statistics.median(ratios):.2f}x, "
              f"range {min(ratios):.2f}x-{max(ratios):.2f}x)")
    dist_ms, dyce_ms = import_us("referee.odds.dist", 5), import_us("dyce", 5)
    print(f"\nloading: referee.odds.dist {dist_ms:.1f} ms, dyce {dyce_ms:.1f} ms "
          f"(a fresh interpreter, -X importtime, medians of 5)")
    print(f"load average {load_average()} at the end; "
          f"{differ} case(s) where the two answers differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
