"""The former exact walk of Combat Commander's end states (issue 8), one unit at a time: kept
as the tests' independent reference for ``referee.rulesets.cc.odds_walk`` (issue 16), which
walks every unit at once. It walks the cards that decide one unit's result (the targeting and
fire cards, the defence cards of the leaders rolling before it, its own) in draw order,
every card total and every leader's result apart, merging only paths that leave the same
cards, attack total and leaders' results."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from referee.rulesets.cc.odds import Plan, Result, Stage, _after, _flags, _morale, _relevant
from referee.rulesets.cc.odds_draws import Cls, DeckRun, classes
from referee.rulesets.cc.odds_plan import unit_result as _result


@dataclass(frozen=True)
class Slot:
    """One draw that decides the outcome: from ``deck`` at ``position``; ``threshold`` set
    for a targeting card (its product must exceed it), which is then the first draw of its
    pass."""

    deck: DeckRun
    position: int
    threshold: int | None = None


@dataclass(frozen=True)
class Draws:
    """The decks behind some slots, for an exact walk over their cards: each slot's pass
    (``group``), each pass's cards by dice total (``counts``, index total - 2), the classes
    of a targeting slot (``fine``), and how many cards each slot draws from (``sizes``, the
    same on every path)."""

    group: tuple[int, ...]
    counts: tuple[tuple[int, ...], ...]
    fine: dict[int, Counter[Cls]]
    sizes: tuple[int, ...]


def draws(slots: Sequence[Slot]) -> Draws:
    keys: list[tuple[int, int]] = []
    counts: list[tuple[int, ...]] = []
    group: list[int] = []
    fine: dict[int, Counter[Cls]] = {}
    sizes: list[int] = []
    drawn: Counter[int] = Counter()
    for i, slot in enumerate(slots):
        cycle, cards = slot.deck.group(slot.position)
        key = (id(slot.deck), cycle) if slot.deck.known else (id(slot.deck), -1 - i)
        if key not in keys:
            keys.append(key)
            totals = [0] * 11
            for (_, total), n in classes(cards, None).items():
                totals[total - 2] += n
            counts.append(tuple(totals))
        g = keys.index(key)
        if slot.threshold is not None:
            assert drawn[g] == 0, "a targeting card is the first draw of its pass"
            fine[i] = classes(cards, slot.threshold)
        group.append(g)
        sizes.append(len(cards) - drawn[g])
        drawn[g] += 1
    return Draws(tuple(group), tuple(counts), fine, tuple(sizes))


def _slots(plan: Plan, stage: Stage, upto: int) -> tuple[list[Slot], list[int]]:
    slots: list[Slot] = []
    if stage.threshold is not None:
        assert stage.attacker is not None
        slots.append(Slot(stage.attacker, 0, stage.threshold))
    if stage.attack is None:
        assert stage.attacker is not None
        slots.append(Slot(stage.attacker, len(slots)))
    offset = len(slots) if plan.same else 0
    positions = _relevant(plan, upto)
    return slots + [Slot(plan.deck, offset + p) for p in positions], positions


def unit_odds(plan: Plan, stage: Stage, upto: int) -> dict[Result, Fraction]:
    """The exact chance of each result of the unit ``plan.order[upto]``: a walk over the
    cards of its slots in draw order, merging the paths that leave the same cards, the same
    attack total and the same leaders' results (whole-number weights, one denominator)."""
    slots, positions = _slots(plan, stage, upto)
    plan_draws = draws(slots)
    head = len(slots) - len(positions)
    tails = [math.prod(plan_draws.sizes[s + 1:]) for s in range(len(slots))]
    initial, index = plan.initial, plan.index
    State = tuple[tuple[tuple[int, ...], ...], int | None, tuple[bool, ...]]
    frontier: dict[State, int] = {(plan_draws.counts, stage.attack, _flags(plan, initial)): 1}
    weights: Counter[Result] = Counter()
    for s in range(len(slots)):
        g = plan_draws.group[s]
        unit = plan.units[plan.order[positions[s - head]]] if s >= head else None
        last = s == len(slots) - 1
        after: dict[State, int] = {}
        for (counts, attack, flags), weight in frontier.items():
            options: list[tuple[bool, int, int]] = (
                [(hit, total, n) for (hit, total), n in plan_draws.fine[s].items()]
                if s in plan_draws.fine else
                [(True, t + 2, n) for t, n in enumerate(counts[g]) if n])
            morale = 0 if unit is None else _morale(plan, flags, initial[unit.key], unit)
            for hit, total, n in options:
                w = weight * n
                if s in plan_draws.fine and not hit:
                    weights[Result.NO_EFFECT] += w * tails[s]  # a miss ends the attack (C-1)
                    continue
                result = None
                if unit is not None:
                    assert attack is not None
                    result = _result(plan, initial[unit.key], unit, attack, morale + total)
                    if last:
                        weights[result] += w
                        continue
                left = list(counts)
                row = list(left[g])
                row[total - 2] -= 1
                left[g] = tuple(row)
                if unit is None or result is None:
                    new_attack = attack if s in plan_draws.fine else stage.fp + total
                    key: State = (tuple(left), new_attack, flags)
                else:
                    # only whether a leader broke matters to the units after it (its Command)
                    broke = list(flags)
                    broke[index[unit.key]] = _after(initial[unit.key], result)[0]
                    key = (tuple(left), attack, tuple(broke))
                after[key] = after.get(key, 0) + w
        frontier = after
    denominator = math.prod(plan_draws.sizes)
    return {r: Fraction(w, denominator) for r, w in weights.items()}
