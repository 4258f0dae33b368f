"""Shared by the odds benchmark and its per-ruleset case files (``odds_cases_<ruleset>.py``).

A ``Case`` is one step's odds as an attack computes them (``ours``: the full report, its end
states worked out) beside the bare dice-library computation of the same query (``bare``);
``check``, where given, says whether the two answers agree (the benchmark fails a case whose
bare computation answers another question). ``typical`` marks the everyday step (up to 30
dice, hit then save), held to 25 ms; every case is held to 250 ms.

A ``Run`` is a whole attack: played once with seeded dice to collect its dice questions in
order (each carries the facts its odds get, as at the table), then every roll's odds timed
in that order (``ours``: from cold, what a roll keeps for the next one kept, as in a run) and
the bare dice-library query of every roll (``bare_roll``: the same dice, a Fate card from
the cards left in its deck).
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TYPICAL_MS = 25.0
ANY_MS = 250.0
HERE = Path(__file__).resolve().parent


def modules(only: str | None) -> list[tuple[str, Any]]:
    """The case files ``odds_cases_<group>.py`` (``only``: that group's), imported."""
    out = []
    for file in sorted(HERE.glob("odds_cases_*.py")):
        group = file.stem.removeprefix("odds_cases_")
        if only and only != group:
            continue
        out.append((group, importlib.import_module(file.stem)))
    return out


@dataclass(frozen=True)
class Case:
    name: str
    typical: bool
    ours: Callable[[], object]
    bare: Callable[[], object]
    check: Callable[[Any, Any], bool] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "ours", forcing(self.ours))

    @property
    def target_ms(self) -> float:
        return TYPICAL_MS if self.typical else ANY_MS


def forcing(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn``, then every end state of the report it returns worked out (they are lazy: the
    table shows them all, so a step's cost includes them)."""
    def run() -> object:
        report = fn()
        tuple(getattr(report, "end_states", ()))
        return report
    return run


def interleaved(ours: Callable[[], object], bare: Callable[[], object], rounds: int
                ) -> tuple[list[float], list[float]]:
    """Each function timed ``rounds`` times (ms), alternately and in alternating order
    (ours first, then bare first, ...), so that drift in the machine's load falls on both."""
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(rounds):
        order = ((0, ours), (1, bare)) if i % 2 == 0 else ((1, bare), (0, ours))
        for slot, fn in order:
            start = time.perf_counter()
            fn()
            times[slot].append((time.perf_counter() - start) * 1000)
    return times


def median(times: Sequence[float]) -> float:
    return statistics.median(times)


# -- whole runs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """A whole attack of ``ruleset`` from ``declaration`` (every other answer its default,
    the dice rolled from ``seed``)."""

    name: str
    ruleset: str
    declaration: dict[str, Any]
    options: tuple[str, ...] = ()
    seed: int = 1
    fresh: Callable[[], None] = field(default=lambda: None)  # forget what odds keep

    def script(self) -> dict[str, Any]:
        """The attack as a script for ``referee run`` (the same declaration, options and
        seed; every die rolled from the seed, every other question at its default)."""
        return {"ruleset": self.ruleset, "title": self.name, "seed": self.seed,
                "use_defaults": True, "roll_missing_dice": True,
                "options": dict(o.split("=", 1) for o in self.options),
                "declaration": self.declaration, "answers": {}}

    def questions(self) -> list[Any]:
        from referee import api
        from referee.core.questions import DiceQuestion
        from referee.frontends.answers import AnswerPort

        plan = api.plan_attack(self.ruleset, seed=self.seed, declaration=self.declaration,
                               options=list(self.options))
        inner = AnswerPort({}, plan.dice, roll_missing_dice=True, use_defaults=True)
        asked: list[Any] = []

        class Keeping:
            def ask(self, question: Any) -> Any:
                if isinstance(question, DiceQuestion):
                    asked.append(question)
                return inner.ask(question)
        api.play(plan, Keeping())
        return asked


def time_rolls(fn: Callable[[Any], object], questions: Sequence[Any], before: Callable[[], None]
               ) -> list[float]:
    """Each roll's time (ms), in the order of the run."""
    before()
    out = []
    for q in questions:
        start = time.perf_counter()
        fn(q)
        out.append((time.perf_counter() - start) * 1000)
    return out


def ours_roll(question: Any) -> object:
    from referee.odds.generic import report_for

    return forcing(lambda: report_for(question))()


def bare_roll(question: Any) -> object:
    """The bare dyce query of one roll: its dice as the question gives them (the successes
    of ``count`` dice needing the target; the total of the faces), or a Fate card drawn from
    the cards left in its deck (its dice total; a targeting card's product)."""
    from dyce import H

    remaining = getattr(question, "remaining", None)
    if getattr(question, "nation", None) is not None:
        from referee.rulesets.cc.deck import parse_key
        from referee.rulesets.cc.odds_draws import ALL_PAIRS

        cards: Counter[int] = Counter()
        product = question.id == "targeting"
        for key in remaining if remaining is not None else ALL_PAIRS:
            (a, b), _ = parse_key(key)
            cards[a * b if product else a + b] += 1
        return H(cards)
    spec = question.spec
    if spec.target is None:
        return spec.count @ H(spec.sides)
    return spec.count @ H(spec.sides).ge(spec.target)


def run_times(run: Run, rounds: int) -> dict[str, Any]:
    """Every roll of ``run`` timed, ours and bare interleaved by round: the medians of the
    whole run and of each roll."""
    questions = run.questions()
    ours: list[list[float]] = []
    bare: list[list[float]] = []
    for i in range(rounds):
        pair = [(ours, ours_roll, run.fresh), (bare, bare_roll, lambda: None)]
        for keep, fn, before in (pair if i % 2 == 0 else pair[::-1]):
            keep.append(time_rolls(fn, questions, before))
    per_roll = [median([r[j] for r in ours]) for j in range(len(questions))]
    slowest = max(range(len(questions)), key=lambda j: per_roll[j])
    return {"rolls": len(questions), "ours": median([sum(r) for r in ours]),
            "bare": median([sum(r) for r in bare]), "slowest_ms": per_roll[slowest],
            "slowest": questions[slowest].id, "first_ms": per_roll[0]}
