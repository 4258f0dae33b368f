"""Benchmark cases of the Lock 'n Load Tactical odds (issue 8), for ``benchmarks/odds.py``.

Each case computes one die's full report as the fire would (the odds function with a
realistic question and the facts the resolver passes), beside the closest bare dyce
expression; the largest attack dice beside the same query in dyce (``bare_fire``: the attack
total less the defence total, then every unit's damage check die in order, the helping
leader's LM carried from check to check), checked equal to ours. Units invented; the damage
table is a stand-in with made-up bands (the real one is the players' own chart). Time them
alone with ``python benchmarks/odds.py --only lnlt``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from dyce import H
from odds_bench import Case

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.rulesets.lnlt.combat import TargetFacts, damage_order, target_facts
from referee.rulesets.lnlt.odds import (
    NO_EFFECT,
    UNKNOWN,
    attack_odds,
    dc_odds,
    defence_odds,
    hero_odds,
)
from referee.rulesets.lnlt.roster import DamageTable, Unit, band_result

TABLE = DamageTable.model_validate({
    "source": "stand-in (made-up numbers)", "compare": "over-morale",
    "leg": [{"at_least": 1, "result": "shaken"}, {"at_least": 3, "result": "reduced"},
            {"at_least": 5, "result": "eliminated"}],
    "vehicle": [{"at_least": 8, "result": "damaged"}, {"at_least": 11, "result": "destroyed"}]})


def _stack(n: int) -> list[Unit]:
    """``n`` units in one hex: leaders of LM 2, 1, 1 first, a tank, then squads."""
    units = [Unit(id="l2", side="R", hex="T", kind="smc", leader=True, lm=2, morale=8),
             Unit(id="l1", side="R", hex="T", kind="smc", leader=True, lm=1, morale=7),
             Unit(id="l1b", side="R", hex="T", kind="smc", leader=True, lm=1, morale=7),
             Unit(id="tank", side="R", hex="T", kind="vehicle", armor=2)]
    units += [Unit(id=f"s{i}", side="R", hex="T", kind="mmc", morale=5 + i % 3)
              for i in range(max(0, n - len(units)))]
    return units[:n]


def _q() -> DiceQuestion:
    return DiceQuestion(id="i1.fire.C4.attack", text=Msg.of("lnlt.q.attack_die", firing="x"),
                        spec=DiceSpec(count=1))


TWO = target_facts(damage_order(_stack(2)), TABLE)
FIVE = target_facts(damage_order(_stack(5)), TABLE)
BIG = target_facts(damage_order(_stack(200)), TABLE)  # the roster allows 200 units
# the most helper states: 40 leaders of every LM (1-5, some without morale: asked), 40 tanks
MANY_LEADERS = target_facts(damage_order(
    [Unit(id=f"l{i}", side="R", hex="T", kind="smc", leader=True, lm=1 + i % 5,
          morale=None if i % 7 == 0 else 6 + i % 4) for i in range(40)]
    + [Unit(id=f"v{i}", side="R", hex="T", kind="vehicle", armor=2) for i in range(40)]
    + [Unit(id=f"s{i}", side="R", hex="T", kind="mmc", morale=4 + i % 4) for i in range(120)]),
    TABLE)


def _attack(facts: Any) -> Callable[[], object]:
    return lambda: attack_odds(_q(), firing="F", hex="T", fp=6, lm=1, drm=0, tm=2, af=0,
                               targets=facts)


def bare_fire(targets: Sequence[TargetFacts], shift: int, defence: int
              ) -> tuple[dict[tuple[str, str | None], Fraction], dict[str, Fraction]]:
    """The same query as the attack die's end states, in dyce: the margin of the attack
    total over the defence total, then each unit's damage check die in order (its total
    less the helping leader's LM for a leg unit; a leader left in Good Order helps those
    after him if his LM is better; a result the chart cannot give is asked, and so is what
    follows from it); each unit's chance of each result, and of a Hero."""
    margin = (H(6) + shift) - (H(6) + defence)
    states: Counter[tuple[int, int]] = Counter()
    for m, p in margin.probability_items():
        if m > 0:
            states[(m, 0)] += p
    results: dict[tuple[str, str | None], Fraction] = {}
    heroes: dict[str, Fraction] = {}
    for unit in targets:
        after: Counter[tuple[int, int]] = Counter()
        hero = Fraction(0)
        for (m, h), p in states.items():
            check = H(6) + (m - (h if unit.leg and h != UNKNOWN else 0))
            for total, q in check.probability_items():
                new = h
                if unit.leg and h == UNKNOWN:  # its helper's LM is not known
                    result = None
                else:
                    result = None if unit.bands is None else band_result(unit.bands, total)
                    if unit.helps > max(h, 0) and result in (None, NO_EFFECT):
                        new = UNKNOWN if result is None else unit.helps
                results[(unit.id, result)] = results.get((unit.id, result), 0) + p * q
                after[(m, new)] += p * q
            if unit.mmc:
                hero += p / 12  # a natural 1, then an even hero die
        states = after
        heroes[unit.id] = hero
    return results, heroes


def _same_fire(targets: Sequence[TargetFacts]) -> Any:
    def check(report: Any, bare: Any) -> bool:
        results, heroes = bare
        ends = {e.label: e.value for e in report.end_states}
        for unit in targets:
            if results.get((unit.id, None)):
                continue  # asked at the table: no odds shown for it
            for (key, result), p in results.items():
                if key != unit.id or result in (None, NO_EFFECT) or not p:
                    continue
                label = Msg.of("lnlt.odds.end.result", unit=unit.label,
                               result=Msg.of(f"lnlt.result.{result}"))
                if ends.get(label) != p:
                    return False
            if heroes[unit.id] and ends.get(Msg.of("lnlt.odds.end.hero", unit=unit.label)) \
                    != heroes[unit.id]:
                return False
        return True
    return check


CASES = [
    Case("lnlt attack die, leader + squad, table", True, _attack(TWO),
         lambda: ((H(6) + 7) - (H(6) + 2)).gt(0)),
    Case("lnlt attack die, 5 units (3 leaders, a tank), table", True, _attack(FIVE),
         lambda: ((H(6) + 7) - (H(6) + 2)) + H(6)),
    Case("lnlt defence die, 5 units, table", True,
         lambda: defence_odds(_q(), hex="T", attack=11, tm=2, af=2, targets=FIVE),
         lambda: (11 - (H(6) + 4)).gt(0)),
    Case("lnlt damage check, 5 units to go", True,
         lambda: dc_odds(_q(), diff=6, minus=0, helper=0, targets=FIVE),
         lambda: H(6) + 6),
    Case("lnlt hero die", True, lambda: hero_odds(_q(), unit="Rook"),
         lambda: H(6).apply(lambda f: f % 2 == 0)),
    Case("lnlt attack die, 200 units in the hex (largest)", False, _attack(BIG),
         lambda: bare_fire(BIG, 6 + 1, 2), _same_fire(BIG)),
    Case("lnlt attack die, 200 units, 40 leaders of LM 1-5", False, _attack(MANY_LEADERS),
         lambda: bare_fire(MANY_LEADERS, 6 + 1, 2), _same_fire(MANY_LEADERS)),
    Case("lnlt damage check, 200 units, 40 leaders of LM 1-5", False,
         lambda: dc_odds(_q(), diff=8, minus=0, helper=0, targets=MANY_LEADERS),
         lambda: H(6) + 8),
]

