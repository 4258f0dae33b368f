"""Combat Commander odds (issue 8): the targeting roll (C-1), the fire roll (C-10) and each
defence roll (C-4, C-5), with the end state of every target unit.

Every roll is a Fate card drawn without replacement, so the odds come from the cards left in
the virtual deck (``FateCardQuestion.remaining``), never from independent dice; a deck that is
not public is taken as two independent dice, and a note says so. The end states (each unit
broken, suppressed, eliminated) are exact: ``odds_walk`` walks the cards of every unit of the
hex at once (for each attack total the targeting and fire cards may give), and the next
defence roll finds its point of the walk kept. Only where a walk would pass ``EXACT_WORK``
steps are the units past that point simulated, seeded by the question id. Imported only
through ``OddsRef``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.core.work import add as counted
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, LazyEndStates, OddsReport
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc import odds_walk
from referee.rulesets.cc.deck import TRIGGERS, FateCardQuestion
from referee.rulesets.cc.labels import joined
from referee.rulesets.cc.odds_draws import DeckRun, classes, distribution, shuffled
from referee.rulesets.cc.odds_plan import Plan, Rules, Unit, possible, unit_result

EXACT_WORK = 25_000
"""Steps (points × classes, ``odds_walk.Layers.extend``) of the exact walks of a roll's
units, over every attack total; the units the walks would reach past it are simulated. A
step costs a few microseconds (the 12 leaders of the largest declaration at the fire roll:
some 8,000 steps, about 30 ms, then every defence roll looked up); decided by the size of
the problem, calibrated so that the slowest roll (the walks within it, a simulation of the
rest) stays near 125 ms on the benchmark machine."""

EXACT_LEADERS = 2
"""The units rolling after at most this many leaders are always worked out exactly (their
walk is a few cards: the former limit of the exact odds)."""

SIMULATION_CARDS = 24_000
"""Cards the seeded simulation of a hex may play out in all: its runs are this many over the
cards one run draws (problem size, not timing), between ``MIN_RUNS`` and ``MAX_RUNS``."""
MIN_RUNS, MAX_RUNS = 2_000, 20_000  # a chance's 95 % interval: about ±2.2 % to ±0.7 %

Result = ar.Result


@dataclass(frozen=True)
class Stage:
    """What is still unknown before the defence rolls: the targeting card (``threshold``:
    its product must exceed it) and the fire card (``fp``), or neither (``attack`` known)."""

    attacker: DeckRun | None
    fp: int = 0
    threshold: int | None = None
    attack: int | None = None


def _plan(units: Sequence[Mapping[str, Any]], order: Sequence[str], rules: Mapping[str, Any],
          deck: DeckRun, same: bool) -> Plan:
    by_key = {u["key"]: Unit(**u) for u in units}
    leaders = tuple((k, u.command) for k, u in by_key.items() if u.kind == "leader")
    return Plan(by_key, tuple(order), Rules(**rules), deck, same, leaders,
                {k: i for i, (k, _) in enumerate(leaders)},
                {k: (u.broken, u.suppressed) for k, u in by_key.items()})


# -- one unit's result from the cards --------------------------------------------------------
def _morale(plan: Plan, flags: tuple[bool, ...], state: tuple[bool, bool], unit: Unit) -> int:
    """C-4, C-14: the unit's Morale for its defence roll, given whether each leader of the hex
    is broken now (``flags``, in ``plan.leaders`` order) and its own (broken, suppressed)."""
    memo = (unit.key, flags, *state)
    morale = plan.morale.get(memo)
    if morale is None:
        leaders = [(k, command, b) for (k, command), b in zip(plan.leaders, flags, strict=True)]
        command = ar.command_in_hex(leaders, unit.key,
                                    self_counts=plan.rules.leader_commands_self,
                                    how=plan.rules.command_from)
        morale = ar.defence_morale(ar.printed_morale(unit.morale, unit.broken_morale, state[0]),
                                   plan.rules.cover, command, state[1])
        plan.morale[memo] = morale
    return morale


def _roll(plan: Plan, flags: tuple[bool, ...], state: tuple[bool, bool], unit: Unit,
          attack: int, total: int) -> Result:
    """C-4, C-5: the unit's result for a card of dice ``total``."""
    return unit_result(plan, state, unit, attack, _morale(plan, flags, state, unit) + total)


def _flags(plan: Plan, states: Mapping[str, tuple[bool, bool]]) -> tuple[bool, ...]:
    return tuple(states[k][0] for k, _ in plan.leaders)


def _after(state: tuple[bool, bool], result: Result) -> tuple[bool, bool]:
    if result in (Result.BROKEN, Result.ELIMINATED):
        return True, state[1]
    if result is Result.SUPPRESSED:
        return state[0], True
    return state


def play(plan: Plan, attack: int, totals: Sequence[int], through: int) -> list[Result]:
    """C-12: the defence rolls in ``plan.order`` through position ``through``, the card at
    each position of dice ``totals[p]``; a leader that breaks gives no more Command."""
    states = dict(plan.initial)
    flags = list(_flags(plan, states))
    out = []
    for p in range(through + 1):
        unit = plan.units[plan.order[p]]
        result = _roll(plan, tuple(flags), states[unit.key], unit, attack, totals[p])
        states[unit.key] = _after(states[unit.key], result)
        if unit.key in plan.index:
            flags[plan.index[unit.key]] = states[unit.key][0]
        out.append(result)
    return out


def _relevant(plan: Plan, upto: int) -> list[int]:
    return [p for p in range(upto) if plan.units[plan.order[p]].kind == "leader"] + [upto]


def _label(unit: Unit, result: Result) -> Msg:
    return Msg.of("cc.odds.end.unit", unit=unit.name, result=Msg.of(f"cc.result.{result}"))


def end_states(plan: Plan, stage: Stage, key: str) -> tuple[EndState, ...]:
    """Each unit's chance of each result it can get, in the order of the defence rolls:
    exact (``odds_walk``) for the units from the first on whose walk stays within
    ``EXACT_WORK`` (at least those rolling after at most ``EXACT_LEADERS`` leaders), the
    rest simulated."""
    units = [plan.units[k] for k in plan.order]
    exact, chances = walk_chances(plan, units, attack_cases(plan, stage))
    heavy = range(exact, len(units))
    simulated = _simulated(plan, stage, key, heavy) if exact < len(units) else {}
    return tuple(simulated[(u.key, r)] if i >= exact else
                 EndState(_label(u, r), chances[(u.key, r)])
                 for i, u in enumerate(units) for r in possible(u, plan.rules))


Case = tuple[int, int, tuple[int, ...]]
"""One way the attacker's cards fall: its weight (a whole number), the attack total, and the
totals of the attacker's cards taken from the pass the defence draws start in (the same
deck, C-X6)."""


@dataclass(frozen=True)
class Cases:
    """The attack totals the attacker's cards still to draw may give, with their weights
    over ``den``, and where in the defence deck the defence draws start (``offset``)."""

    cases: tuple[Case, ...]
    den: int
    offset: int


def attack_cases(plan: Plan, stage: Stage) -> Cases:
    """C-1, C-3: the targeting card (a miss ends the attack: no case) and the fire card,
    from the cards left in the attacker's deck."""
    if stage.attacker is None:
        assert stage.attack is not None
        return Cases(((1, stage.attack, ()),), 1, 0)
    deck = stage.attacker
    drawn: list[tuple[int, tuple[tuple[int, int], ...]]] = [(1, ())]  # weight, (pass, total)
    den, position = 1, 0
    if stage.threshold is not None:
        cycle, cards = deck.group(0)
        hits: Counter[int] = Counter()
        for (hit, total), n in classes(cards, stage.threshold).items():
            if hit:
                hits[total] += n
        drawn = [(n, ((cycle, total),)) for total, n in sorted(hits.items())]
        den, position = len(cards), 1
    cycle, cards = deck.group(position)
    after_targeting = position == 1 and deck.known and deck.group(0)[0] == cycle
    den *= len(cards) - after_targeting  # the targeting card left this pass
    offset = position + 1 if plan.same else 0
    start = plan.deck.group(offset)[0] if plan.same and plan.deck.known else None
    out: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for weight, before in drawn:
        left = list(odds_walk.totals(cards))
        for c, total in before:
            if c == cycle:
                left[total - 2] -= 1
        for total, n in enumerate(left, 2):
            if n:
                same = tuple(sorted(t for c, t in (*before, (cycle, total)) if c == start))
                out[(stage.fp + total, same)] += weight * n
    return Cases(tuple((w, attack, same) for (attack, same), w in out.items()), den, offset)


def walk_chances(plan: Plan, units: Sequence[Unit], cases: Cases
                 ) -> tuple[int, dict[tuple[str, Result], Fraction]]:
    """How many units, from the first on, are worked out exactly, and their chances of each
    result: the walks of every attack total (``odds_walk.Layers``) are taken a unit at a
    time while their steps stay within ``EXACT_WORK`` (and at least as far as the units
    rolling after at most ``EXACT_LEADERS`` leaders: a walk of a few cards). A walk kept
    from the roll before is looked up."""
    summary = odds_walk.outside_summary(plan, plan.order)
    walks: dict[int, odds_walk.DefenceWalk] = {}
    layers: dict[tuple[int, odds_walk.Point], odds_walk.Layers] = {}
    weighted: list[tuple[int, tuple[int, odds_walk.Point]]] = []
    for w, attack, same in cases.cases:
        walk = walks.setdefault(attack, odds_walk.DefenceWalk(plan, attack, units))
        walked = odds_walk.Layers(walk, odds_walk.Deck.of(plan.deck, cases.offset, same),
                                  summary)
        key = (attack, next(iter(walked.points[0])))
        layers.setdefault(key, walked)
        weighted.append((w, key))
    kept = {key: walked.kept() for key, walked in layers.items()}
    if all(kept.values()):
        count = len(units)
        vectors = {key: v for key, v in kept.items() if v is not None}
    else:
        least = sum(1 for i in range(len(units)) if len(_relevant(plan, i)) - 1 <= EXACT_LEADERS)
        count = _reach(list(layers.values()), len(units), least)
        vectors = {key: walked.chances(count) for key, walked in layers.items()} if count \
            else {}
    weights: Counter[int] = Counter()
    dens = {den for _, den in vectors.values()}
    assert len(dens) <= 1  # every case draws as many cards from the defence deck's pass
    for w, key in weighted:
        if count:
            for i, v in enumerate(vectors[key][0]):
                weights[i] += w * v
    den = cases.den * (dens.pop() if dens else 1)
    out: dict[tuple[str, Result], Fraction] = {}
    i = 0
    for u in units[:count]:
        for r in possible(u, plan.rules):
            out[(u.key, r)] = Fraction(weights[i], den)
            i += 1
    return count, out


def _reach(layers: Sequence[odds_walk.Layers], units: int, least: int) -> int:
    """Extend every walk a unit at a time while their steps stay within ``EXACT_WORK``, and
    at least ``least`` units; how many units they reached."""
    work = 0
    for count in range(units):
        for walked in layers:
            if walked.reached > count:
                continue
            most = EXACT_WORK - work if count >= least else 1 << 62
            work += walked.extend(most)
            if walked.reached == count:  # stopped: the next unit would pass the budget
                return count
    return units


def lazy_end_states(first: Sequence[EndState], plan: Plan, stage: Stage, key: str
                    ) -> LazyEndStates:
    """``first`` (already worked out), then ``end_states``, worked out only when read (a
    scripted run shows them at the first roll of the attack alone)."""
    labels = [*(e.label for e in first),
              *(_label(plan.units[k], r) for k in plan.order
                for r in possible(plan.units[k], plan.rules))]
    head = tuple(first)
    return LazyEndStates(labels, lambda: (*head, *end_states(plan, stage, key)))


def _simulated(plan: Plan, stage: Stage, key: str, which: Sequence[int]
               ) -> dict[tuple[str, Result], EndState]:
    """The results of the units at ``which`` (order positions) by a seeded simulation of the
    rest of the attack (seeded by the question id; runs by ``SIMULATION_CARDS``)."""
    from referee.odds.simulate import simulate_many

    last = max(which)
    labels = [(plan.order[i], r) for i in which
              for r in possible(plan.units[plan.order[i]], plan.rules)]
    attacker_draws = (stage.threshold is not None) + (stage.attack is None)

    def trial(rng: Any) -> list[float]:
        cards = shuffled(stage.attacker, attacker_draws + (last + 1 if plan.same else 0),
                         rng) if stage.attacker is not None else []
        defence = cards[attacker_draws:] if plan.same else shuffled(plan.deck, last + 1, rng)
        if stage.threshold is not None and cards[0][0] * cards[0][1] <= stage.threshold:
            return [0.0] * len(labels)
        attack = stage.attack if stage.attack is not None else \
            stage.fp + sum(cards[attacker_draws - 1])
        rolled = play(plan, attack, [a + b for a, b in defence], last)
        results = dict(zip(plan.order, rolled, strict=False))
        return [float(results[k] is r) for k, r in labels]

    cards = attacker_draws + last + 1
    runs = max(MIN_RUNS, min(MAX_RUNS, SIMULATION_CARDS // cards))
    counted("cc.simulated", runs * cards)
    states = simulate_many(trial, key, [(_label(plan.units[k], r), Kind.CHANCE)
                                        for k, r in labels], runs)
    return dict(zip(labels, states, strict=True))


# -- the reports -----------------------------------------------------------------------------
def _plus(offset: int, roll: DiceRoll) -> int:
    assert roll.faces is not None
    return offset + sum(roll.faces)


def _product(roll: DiceRoll) -> int:
    assert roll.faces is not None
    return roll.faces[0] * roll.faces[1]


def _deck(question: DiceQuestion) -> DeckRun:
    assert isinstance(question, FateCardQuestion)
    return DeckRun(question.nation, question.remaining, question.composition)


def _defence_deck(defence: Mapping[str, Any], attacker: DeckRun) -> DeckRun:
    if defence["same"]:
        return attacker
    return DeckRun(defence["nation"], _cards(defence["remaining"]), _cards(defence["full"]))


def _cards(cards: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if cards is None else tuple(cards)


def _deck_note(deck: DeckRun) -> Msg:
    nation = Msg.of(f"cc.nation.{deck.nation}")
    if deck.remaining is None or deck.full is None:
        return Msg.of("cc.odds.note.unknown_deck", nation=nation)
    return Msg.of("cc.odds.note.deck", nation=nation, left=len(deck.remaining),
                  size=len(deck.full))


def _notes(plan: Plan, attacker: DeckRun | None, fire_ahead: bool) -> tuple[Msg, ...]:
    notes = []
    if attacker is not None:
        notes.append(_deck_note(attacker))
    if plan.same:
        if fire_ahead:
            notes.append(Msg.of("cc.odds.note.same_deck"))
    elif attacker is None or attacker.nation != plan.deck.nation:
        notes.append(_deck_note(plan.deck))
    if fire_ahead:
        notes.append(Msg.of("cc.odds.note.event"))
    if len(plan.order) > 1:
        names = joined(plan.units[k].name for k in plan.order)
        notes.append(Msg.of("cc.odds.note.order", order=names))
    return tuple(notes)


def targeting(question: DiceQuestion, *, piece: Msg | str, distance: int, hindrance: int, fp: int,
              units: Sequence[Mapping[str, Any]], order: Sequence[str],
              rules: Mapping[str, Any], defence: Mapping[str, Any]) -> OddsReport:
    """C-1: the product of the two dice, and whether it hits; then the rest of the attack."""
    attacker = _deck(question)
    plan = _plan(units, order, rules, _defence_deck(defence, attacker), defence["same"])
    counts = distribution(attacker.first(), lambda faces, _: faces[0] * faces[1])
    dist = Dist.from_counts(counts)
    hit = sum((p for k, p in dist.items() if ar.targeting_hits(k, hindrance, distance)),
              Fraction(0))
    stage = Stage(attacker, fp, distance + hindrance)
    ends = lazy_end_states((EndState(Msg.of("cc.odds.end.hit"), hit),), plan, stage,
                           question.id)
    return OddsReport(Msg.of("cc.odds.title.targeting", piece=piece, distance=distance,
                             hindrance=hindrance, threshold=distance + hindrance),
                      Msg.of("cc.odds.unit.product"), dist, _product, ends,
                      notes=_notes(plan, attacker, True))


def fire(question: DiceQuestion, *, fp: int, weapons: Sequence[Msg | str],
         units: Sequence[Mapping[str, Any]], order: Sequence[str], rules: Mapping[str, Any],
         defence: Mapping[str, Any]) -> OddsReport:
    """C-3, C-10, C-11, C-13: the attack total, the fire card's triggers, then each unit."""
    attacker = _deck(question)
    plan = _plan(units, order, rules, _defence_deck(defence, attacker), defence["same"])
    cards = attacker.first()
    dist = Dist.from_counts(distribution(cards, lambda faces, _: fp + sum(faces)))
    ends: list[EndState] = []
    if attacker.known:
        shows = distribution(cards, lambda _, trigger: TRIGGERS.index(trigger) + 1
                             if trigger else 0)
        ends += [EndState(Msg.of("cc.odds.end.trigger", trigger=Msg.of(f"cc.trigger.{t}")),
                          Fraction(shows[i + 1], len(cards))) for i, t in enumerate(TRIGGERS)]
    states = lazy_end_states(ends, plan, Stage(attacker, fp), question.id)
    notes = _notes(plan, attacker, True)
    if weapons and attacker.known:
        notes += (Msg.of("cc.odds.note.jammed", weapons=joined(weapons)),)
    return OddsReport(Msg.of("cc.odds.title.fire", fp=fp), Msg.of("cc.odds.unit.attack"),
                      dist, functools.partial(_plus, fp), states, notes=notes)


def defence(question: DiceQuestion, *, attack: int, morale: int, unit: str,
            units: Sequence[Mapping[str, Any]], order: Sequence[str], rules: Mapping[str, Any],
            defence: Mapping[str, Any]) -> OddsReport:
    """C-4, C-5: this unit's defence total against the known attack total; its result and
    the results of the units still to roll."""
    deck = _deck(question)
    plan = _plan(units, order, rules, deck, False)
    dist = Dist.from_counts(distribution(deck.first(), lambda faces, _: morale + sum(faces)))
    name = plan.units[unit].name
    return OddsReport(Msg.of("cc.odds.title.defence", unit=name, morale=morale, attack=attack),
                      Msg.of("cc.odds.unit.defence"), dist, functools.partial(_plus, morale),
                      lazy_end_states((), plan, Stage(None, attack=attack), question.id),
                      notes=_notes(plan, None, False))
