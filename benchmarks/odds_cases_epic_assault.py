"""Benchmark cases: the odds of an Epic Armageddon assault (issue 29), for
``benchmarks/odds.py``.

Each case stops a real assault at its first attack dice question (the resolver builds the
question and the facts its odds get, as at the table) and times the full odds report: the
hits of the roll and the exact chances of how the assault ends (every fate of both sides,
allocated with the defaults, the result roll's modifiers; with first strike, each pair of
the sides' fates after it going on). ``bare`` is the dyce query of the same dice (their
faces), in the same run, as the ratio's baseline; the assault's end has no dyce
counterpart. ``RUNS`` are whole assaults, every roll timed. Time them alone with
``python benchmarks/odds.py --only epic_assault``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from odds_bench import Case, Run, bare_roll


class _Stop(Exception):
    pass


class _StopAt:
    def __init__(self, qid: str) -> None:
        from referee.frontends.answers import AnswerPort

        self.inner = AnswerPort({}, random.Random(1), use_defaults=True)
        self.qid = qid
        self.question: Any = None

    def ask(self, question: Any) -> Any:
        if question.id == self.qid:
            self.question = question
            raise _Stop
        return self.inner.ask(question)


def question_at(declaration: dict[str, Any], qid: str = "assault.1.attacker") -> Any:
    from referee import api

    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    port = _StopAt(qid)
    try:
        api.play(plan, port)
    except _Stop:
        return port.question
    raise LookupError(qid)


def unit(name: str, where: str | float = "contact", **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {"name": name, "type": "INF", "armour": 4, "cc": 4, "ff": 5}
    if where == "contact":
        u.update(contact=True, engaged=True)
    else:
        u.update(contact=False, engaged=True, distance=float(where))
    return {**u, **extra}


def assault(attackers: list[dict[str, Any]], defenders: list[dict[str, Any]],
            support: list[dict[str, Any]] | None = None, d_markers: int = 1) -> dict[str, Any]:
    return {"assault": {
        "attackers": [{"name": "Grey Company (invented)", "blast_markers": 0,
                       "units": attackers}],
        "defenders": [{"name": "Red Company (invented)", "blast_markers": d_markers,
                       "broken": False, "units": defenders}],
        "support": support or []}}


def _ours(question: Any) -> Callable[[], object]:
    def run() -> object:
        from referee.odds.generic import report_for
        from referee.rulesets.epic import assault_odds

        assault_odds._allocation.cache_clear()  # each step from cold
        return report_for(question)
    return run


def _case(name: str, typical: bool, question: Any) -> Case:
    return Case(name, typical, _ours(question), lambda: bare_roll(question))


TYPICAL = assault([unit(f"A{i}") for i in range(4)] + [unit(f"A{i}", 10) for i in (4, 5)],
                  [unit(f"D{i}", armour=5, cc=5, ff=4, group="d") for i in range(5)])
COMPANY = assault([unit(f"A{i}", group="c") for i in range(6)]
                  + [unit(f"A{i}", 10, group="f") for i in range(6, 10)],
                  [unit(f"D{i}", armour=5, cc=5, ff=4, group="d") for i in range(6)]
                  + [unit(f"D{i}", 12, armour=5, cc=5, ff=4, group="e") for i in range(6, 10)],
                  support=[{"name": "Blue Squad (invented)", "side": "attacker",
                            "units": [{"count": 4, "ff": 4}]}])
TITAN = assault([{"name": "Iron Walker", "type": "WE", "armour": 4, "cc": 3, "ff": 4,
                  "dc": 4, "contact": True, "engaged": True}],
                [unit(f"D{i}", armour=5, cc=5, ff=4, group="d") for i in range(6)]
                + [unit(f"D{i}", 10, armour=5, cc=5, ff=4, group="e") for i in range(6, 8)])
FIRST = assault([unit(f"A{i}", first_strike=True, group="a") for i in range(6)],
                [unit(f"D{i}", armour=5, cc=5, ff=4, group="d") for i in range(6)])
# first strike on both sides, with units that do not have it and supporting fire
FIRST_MIXED = assault([unit(f"A{i}", first_strike=True, group="a") for i in range(4)]
                      + [unit(f"A{i}", group="b") for i in range(4, 8)]
                      + [unit(f"A{i}", 10, group="f") for i in range(8, 10)],
                      [unit(f"D{i}", armour=5, cc=5, ff=4, first_strike=True, group="d")
                       for i in range(3)]
                      + [unit(f"D{i}", armour=5, cc=5, ff=4, group="e") for i in range(3, 8)]
                      + [unit(f"D{i}", 12, armour=5, cc=5, ff=4, group="g")
                         for i in range(8, 10)],
                      support=[{"name": "Blue Squad (invented)", "side": "attacker",
                                "units": [{"count": 4, "ff": 4}]}])

CASES = [
    _case("epic assault: 6 against 5, a typical assault (exact)", False, question_at(TYPICAL)),
    _case("epic assault: 10 against 10 with supporting fire (exact)", False,
          question_at(COMPANY)),
    _case("epic assault: a war engine (DC4) against 8 (exact)", False, question_at(TITAN)),
    _case("epic assault: first strike, 6 against 6 (exact)", False,
          question_at(FIRST, "assault.1.attacker.first-strike")),
    _case("epic assault: first strike both sides, 10 against 10 with support (exact)", False,
          question_at(FIRST_MIXED, "assault.1.attacker.first-strike")),
]
RUNS = [Run("epic assault: 6 against 5, every roll", "epic", TYPICAL),
        Run("epic assault: 10 against 10 with support, every roll", "epic", COMPANY),
        Run("epic assault: first strike both sides, 10 against 10, every roll", "epic",
            FIRST_MIXED)]
