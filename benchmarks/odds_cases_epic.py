"""Benchmark cases: Epic Armageddon odds (issues 8, 16), for ``benchmarks/odds.py``.

Each case stops the real attack at one dice question (the resolver builds the question and
the facts its odds get, as at the table) and times the full odds report of that roll: the
roll's distribution and the end states of the attack (units destroyed, broken, wiped out).
``bare`` is the dyce query of the same roll (``odds_bench.bare_roll``: this roll's dice, the
largest declaration's 200 dice of Gun 0 included), checked equal to the roll's distribution
that ours shows; the end states (allocation, saves, Blast markers) have no dyce
counterpart. ``RUNS`` are whole attacks, every roll timed. Time them alone with
``python benchmarks/odds.py --only epic``.
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
    """Answers from ``answers`` (defaults otherwise); stops at the dice question ``qid``."""

    def __init__(self, answers: dict[str, Any], qid: str) -> None:
        from referee.frontends.answers import AnswerPort

        self.inner = AnswerPort(answers, random.Random(1), use_defaults=True)
        self.qid = qid
        self.question: Any = None

    def ask(self, question: Any) -> Any:
        if question.id == self.qid:
            self.question = question
            raise _Stop
        return self.inner.ask(question)


def question_at(declaration: dict[str, Any], answers: dict[str, Any], qid: str) -> Any:
    from referee import api

    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    port = _StopAt({"action": "advance", **answers}, qid)
    try:
        api.play(plan, port)
    except _Stop:
        return port.question
    raise LookupError(qid)


def _unit(name: str, kind: str = "INF", armour: int = 5, distance: float = 10,
          **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "armour": armour, "distance": distance,
            "in_range": True, "terrain": "open", **extra}


def _decl(weapons: list[dict[str, Any]], units: list[dict[str, Any]],
          **extra: Any) -> dict[str, Any]:
    return {"firing": "Grey Company (invented)", "target": "Red Hill Battery (invented)",
            "weapons": weapons, "target_units": units, "firing_blast_markers": 0,
            "target_blast_markers": 1, **extra}


def _ours(question: Any) -> Callable[[], object]:
    def run() -> object:
        from referee.odds.generic import report_for
        from referee.rulesets.epic import odds

        odds.fresh()  # each step from cold, as at the table
        return report_for(question)
    return run


def _bare(question: Any) -> Callable[[], object]:
    return lambda: bare_roll(question)


def same_roll(report: Any, h: Any) -> bool:
    """The roll's distribution that ours shows is the bare one: the successes of its dice
    (a save's failures are its dice less its successes)."""
    ours = dict(report.dist.items())
    bare = dict(h.probability_items())
    if report.unit.id == "epic.odds.unit.failed":
        count = report.dist.high
        bare = {count - k: p for k, p in bare.items()}
    return ours == {k: p for k, p in bare.items() if p}


def _case(name: str, typical: bool, question: Any) -> Case:
    return Case(name, typical, _ours(question), _bare(question), same_roll)


def _cases() -> list[Case]:
    company = [_unit(f"Squad {i}", distance=10 + i) for i in range(8)]
    company += [_unit("Tank", "AV", armour=4, distance=14)]
    thirty = _decl([{"name": "Autogun", "shots": 30, "ap": 4}], company)
    hits30 = question_at(thirty, {}, "to-hit.autogun")
    saves = question_at(thirty, {"to-hit.autogun": "=16"}, "save.normal.squad-0")
    seven = question_at(thirty, {"action": "double", "cover": True}, "to-hit.autogun")
    mixed = _decl([{"name": "Autogun", "shots": 20, "ap": 4},
                   {"name": "Lascannon", "shots": 6, "at": 4},
                   {"name": "Volcano gun", "shots": 4, "at": 3, "macro": True}],
                  [_unit(f"Squad {i}", distance=10 + i) for i in range(6)]
                  + [_unit(f"Tank {i}", "AV", armour=4, distance=12 + i) for i in range(3)])
    mixed_q = question_at(mixed, {}, "to-hit.autogun")
    small_mixed = _decl([{"name": "Autogun", "shots": 12, "ap": 4},
                         {"name": "Volcano gun", "shots": 3, "at": 3, "macro": True}],
                        [_unit(f"Squad {i}", distance=10 + i) for i in range(7)])
    small_mixed_q = question_at(small_mixed, {}, "to-hit.autogun")
    wide = _decl([{"name": "Autogun", "shots": 24, "ap": 4},
                  {"name": "Volcano gun", "shots": 4, "at": 3, "macro": True}],
                 [_unit(f"Squad {i}", distance=10 + i) for i in range(13)])
    wide_q = question_at(wide, {"to-hit.autogun": "=13", "to-hit.volcano-gun": "=4"},
                         "save.normal.squad-0")
    eleven = {**wide, "target_units": wide["target_units"][:11]}
    eleven_q = question_at(eleven, {"to-hit.autogun": "=11", "to-hit.volcano-gun": "=4"},
                           "save.normal.squad-0")
    horde = _decl([{"name": "Autogun", "shots": 200, "ap": 4},
                   {"name": "Volcano gun", "shots": 20, "at": 3, "macro": True}],
                  [_unit(f"Squad {i}", distance=10 + i) for i in range(30)])
    horde_q = question_at(horde, {}, "to-hit.autogun")
    big = _decl([{"name": "Autogun", "shots": 200, "ap": 4}],
                [_unit(f"Squad {i}", distance=10 + i) for i in range(30)])
    big_q = question_at(big, {}, "to-hit.autogun")
    barrage = _decl([{"name": "Howitzer", "barrage": 9}],
                    [_unit(f"Squad {i}", distance=10 + i, under_template=True)
                     for i in range(12)]
                    + [_unit(f"Tank {i}", "AV", armour=4, distance=12 + i,
                             under_template=True) for i in range(6)])
    barrage_q = question_at(barrage, {}, "barrage.red-hill-battery-invented.ap")
    # the largest declaration allowed: 30 weapons of 200 shots (the last a macro-weapon) at
    # 60 units, crossfire, reinforced and invulnerable saves among them
    largest_units = [_unit(f"Unit {i}", armour=4 + i % 3, distance=10 + i,
                           reinforced=i % 5 == 0, invulnerable=i % 7 == 0) for i in range(60)]
    largest_weapons: list[dict[str, Any]] = [
        {"name": f"Gun {i}", "shots": 200, "ap": 3 + i % 3} for i in range(29)]
    largest_weapons.append({"name": "Volcano gun", "shots": 200, "at": 4, "macro": True})
    largest = _decl(largest_weapons, largest_units, crossfire=1)
    largest_q = question_at(largest, {}, "to-hit.gun-0")
    largest_save = question_at(largest, {f"to-hit.gun-{i}": "=20" for i in range(29)}
                               | {"to-hit.volcano-gun": "=10"}, "save.normal.unit-0")
    # the slowest step of issue 16: eleven units still uncertain, then the macro-weapon hits
    largest_sets = question_at(largest, {f"to-hit.gun-{i}": "=200" for i in range(29)}
                               | {"to-hit.volcano-gun": "=95"}
                               | {f"save.normal.unit-{i}": "=0" for i in range(45)}
                               | {f"save.normal.unit-{i}.reroll": "=0" for i in range(45)}
                               | {f"save.normal.unit-{i}.invulnerable": "=0"
                                  for i in range(45)}, "save.normal.unit-45")
    barrage60 = _decl([{"name": "Howitzer", "barrage": 18}],
                      [_unit(f"Unit {i}", ["INF", "AV", "LV"][i % 3], armour=4 + i % 3,
                             distance=10 + i, under_template=True,
                             terrain="woods" if i % 3 == 2 else "open") for i in range(60)])
    barrage60_q = question_at(barrage60, {}, "barrage.red-hill-battery-invented.ap")

    return [
        _case("epic: 30 dice to hit (4+) at 9 units, with end states", True, hits30),
        _case("epic: saves of one unit mid-attack (16 hits on 9 units)", True, saves),
        _case("epic: 30 dice needing 7 (two stages), with end states", True, seven),
        _case("epic: AP + macro-weapon fire at 7 units (exact, every survivor set)", False,
              small_mixed_q),
        _case("epic: a save with 10 more units to save, then macro hits (2^11 sets)", False,
              eleven_q),
        _case("epic: a save with 12 more units to save, then macro hits (2^13 sets, simulated)",
              False, wide_q),
        _case("epic: AP + AT + macro-weapon fire at 9 units (simulated)", False, mixed_q),
        _case("epic: 200 dice at 30 units (largest exact)", False, big_q),
        _case("epic: 200 dice + 20 macro at 30 units (simulated)", False, horde_q),
        _case("epic: barrage at 18 units", False, barrage_q),
        _case("epic: largest declaration, 30 x 200 dice at 60 units (simulated)", False,
              largest_q),
        _case("epic: a save of the largest declaration (simulated)", False, largest_save),
        _case("epic: a save of the largest declaration, 2^11 survivor sets (exact)", False,
              largest_sets),
        _case("epic: barrage at 60 units (simulated)", False, barrage60_q),
    ]


def _fresh() -> None:
    from referee.rulesets.epic import odds

    odds.fresh()


# issue 16: 30 kinds of weapon at a company; the largest declaration
THIRTY_KINDS = _decl([{"name": f"Gun {i}", "shots": 1 + i % 4,
                       **({"ap": 3 + i % 3} if i % 3 else {"at": 4 + i % 2})} for i in range(30)],
                     [_unit(f"Squad {i}", distance=10 + i) for i in range(8)]
                     + [_unit("Tank", "AV", armour=4, distance=14)])
LARGEST = _decl([*({"name": f"Gun {i}", "shots": 200, "ap": 3 + i % 3} for i in range(29)),
                 {"name": "Volcano gun", "shots": 200, "at": 4, "macro": True}],
                [_unit(f"Unit {i}", armour=4 + i % 3, distance=10 + i, reinforced=i % 5 == 0,
                       invulnerable=i % 7 == 0) for i in range(60)], crossfire=1)
RUNS = [Run("epic: 30 kinds of weapon at 9 units", "epic", THIRTY_KINDS, fresh=_fresh),
        Run("epic: largest declaration, 30 x 200 dice at 60 units", "epic", LARGEST,
            fresh=_fresh)]


CASES = _cases()

