"""The odds of Epic Armageddon's dice questions (issue 8), loaded only through ``OddsRef``.

To hit (E-8, E-9): the hits of the roll; for a 7+ roll the first stage counts the 6s that
roll again, with the hits after the second stage as end states; per die 7+ = 1/12, 8+ =
1/18, 9+ = 1/36. Saves (E-11, E-12): the failed saves of the roll (a re-roll and an
invulnerable save are their own rolls). End states, where the rest of the attack is known:
the expected number of units destroyed, the chance the target formation breaks (E-14) and
the chance it is wiped out, conditional on what was rolled so far. The rest of the attack
is worked out with the resolver's own rules (allocation with the defaults a script would
take, saves, Blast markers, break check): exactly (binomials, then a dynamic programme over
the units) when the cases are few, else by a seeded simulation with its interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport, successes
from referee.odds.simulate import simulate_many
from referee.rulesets.epic.allocation import (
    HitKind,
    Target,
    can_take,
    legal_units,
    needs_order_choice,
    order_fire_types,
)
from referee.rulesets.epic.damage import Hit, save_against
from referee.rulesets.epic.formations import Defender
from referee.rulesets.epic.oddsfacts import (
    AttackFacts,
    BarrageGroup,
    BarrageRest,
    PhaseRest,
    PoolFacts,
    ShotsRest,
    per_hit_fail,
)
from referee.rulesets.epic.tables import tables

EXACT_CASES = 20_000
"""Joint cases (hit counts × unit fates that the rest depends on) worked out exactly; beyond
it the rest of the attack is simulated. A case costs a few Fraction operations per unit."""

SIM_RUNS = 4_000
"""Runs of the seeded simulation: a chance's 95 % interval is then at most about ±1.6 %."""

Outcome = tuple[int, bool]  # (units destroyed in this attack, formation broken after it)


# -- the odds functions named by the resolvers ---------------------------------------------
def to_hit(question: DiceQuestion, *, weapon: Msg | str, stage: str, need: int,
           then: int | None = None, rest: ShotsRest | BarrageRest | None = None) -> OddsReport:
    """A to-hit roll: ``stage`` is direct (one roll), first (the 6s of a 7+ roll) or then
    (the second die of a 7+ roll, needing ``then``)."""
    n = question.spec.count
    target = question.spec.target or 6
    per_die = Fraction(7 - max(target, tables().natural_fail + 1), 6)
    notes: list[Msg] = []
    ends: list[EndState] = []
    if stage == "first":
        assert then is not None
        second = Fraction(7 - then, 6)
        dist = Dist.binomial(n, per_die)
        final = dist.then(lambda k: Dist.binomial(k, second))
        unit = Msg.of("epic.odds.unit.sixes")
        title = Msg.of("epic.odds.title.seven_plus", weapon=weapon, count=n, need=need,
                       then=then)
        notes.append(Msg.of("epic.odds.note.seven_plus", need=need, then=then,
                            per_die=_fraction(per_die * second)))
        ends += [EndState(Msg.of("epic.odds.end.hits_after"), final.mean(), Kind.EXPECTED),
                 EndState(Msg.of("epic.odds.end.any_hit"), final.at_least(1))]
        notes.append(Msg.of("epic.odds.note.final_hits", dist=_compact(final)))
        chance = per_die * second
    else:
        dist = Dist.binomial(n, per_die)
        unit = Msg.of("epic.odds.unit.hits")
        title = (Msg.of("epic.odds.title.then", weapon=weapon, count=n, then=target)
                 if stage == "then" else
                 Msg.of("epic.odds.title.to_hit", weapon=weapon, count=n, target=target))
        chance = per_die
    if rest is not None:
        key = question.id
        if isinstance(rest, BarrageRest):
            ends += barrage_end_states(rest, n, chance, key)
        else:
            ends += shots_end_states(rest, n, chance, key)
    return OddsReport(title, unit, dist, successes, tuple(ends), notes=tuple(notes))


def save(question: DiceQuestion, *, unit: str, stage: str,
         rest: PhaseRest | None = None) -> OddsReport:
    """A save roll (the save, a reinforced-armour re-roll, an invulnerable save): the failed
    saves among its dice, and the end states given every save rolled so far."""
    n = question.spec.count
    target = question.spec.target or 7
    fail = Fraction(min(6, target - 1), 6)
    dist = Dist.binomial(n, fail)
    title = Msg.of(f"epic.odds.title.{stage}", unit=unit, count=n, need=target)
    ends: list[EndState] = []
    if rest is not None:
        ends += phase_end_states(rest, question.id)
    return OddsReport(title, Msg.of("epic.odds.unit.failed"), dist, _Failed(n), tuple(ends))


class _Failed:
    """The failed saves of an actual roll (the dice less the successes)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __call__(self, roll: DiceRoll) -> int:
        return self.count - roll.successes


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _pct(p: Fraction) -> str:
    value = float(p) * 100
    return "<0.1%" if 0 < value < 0.05 else f"{value:.1f}%"


def _compact(dist: Dist, most: int = 6) -> str:
    pct = _pct
    shown = [f"{k}: {pct(p)}" for k, p in dist.items()][:most]
    if dist.high >= most:
        shown[-1] = f"≥{most - 1}: {pct(dist.at_least(most - 1))}"
    return ", ".join(shown)


# -- end states ------------------------------------------------------------------------------
def _labels(attack: AttackFacts) -> list[tuple[Msg, Kind]]:
    name = attack.name or Msg.of("epic.default.target")
    return [(Msg.of("epic.odds.end.destroyed", target=name), Kind.EXPECTED),
            (Msg.of("epic.odds.end.breaks", target=name), Kind.CHANCE),
            (Msg.of("epic.odds.end.wiped_out", target=name), Kind.CHANCE)]


def _states(outcomes: dict[Outcome, Fraction], attack: AttackFacts) -> tuple[EndState, ...]:
    n = len(attack.units)
    expected = sum((p * k for (k, _), p in outcomes.items()), Fraction(0))
    broken = sum((p for (_, b), p in outcomes.items() if b), Fraction(0))
    wiped = sum((p for (k, _), p in outcomes.items() if k >= n), Fraction(0))
    values = (expected, broken, wiped)
    return tuple(EndState(label, v, kind) for (label, kind), v in zip(_labels(attack), values,
                                                                     strict=True))


def _simulated(trial: Any, attack: AttackFacts, key: str) -> tuple[EndState, ...]:
    n = len(attack.units)

    def one(rng: random.Random) -> tuple[float, float, float]:
        k, broken = trial(rng)
        return float(k), float(broken), float(k >= n)
    return simulate_many(one, key, _labels(attack), runs=SIM_RUNS)


def shots_end_states(rest: ShotsRest, count: int, chance: Fraction,
                     key: str) -> tuple[EndState, ...]:
    pools = [PoolFacts(count, chance, rest.current), *rest.later]
    cases = math.prod(p.shots + 1 for p in pools) * \
        _fate_cases(rest.attack, [*rest.known, *(p.hit for p in pools)])
    if cases > EXACT_CASES:
        return _simulated(lambda rng: _shots_trial(rest, pools, rng), rest.attack, key)
    out: dict[Outcome, Fraction] = {}
    for weight, hits in _hit_lists(rest.known, pools):
        for outcome, p in _after_hits(rest.attack, hits, rest.added).items():
            out[outcome] = out.get(outcome, Fraction(0)) + weight * p
    return _states(out, rest.attack)


def _fate_cases(attack: AttackFacts, hits: Sequence[Hit]) -> int:
    """Unit fates the rest depends on: every subset of units when macro-weapon hits follow
    normal ones (E-12: they go to the survivors), else one pass over the units."""
    if any(h.kind.macro for h in hits) and any(not h.kind.macro for h in hits):
        return int(2 ** len(attack.units))
    return len(attack.units) + 1


def _hit_lists(known: tuple[Hit, ...], pools: Sequence[PoolFacts]
               ) -> Iterable[tuple[Fraction, list[Hit]]]:
    """Every joint result of ``pools`` with its chance, as the list of hits in the order the
    resolver makes it (pools in order)."""
    dists = [Dist.binomial(p.shots, p.chance) for p in pools]

    def walk(i: int, weight: Fraction, hits: list[Hit]) -> Iterable[tuple[Fraction, list[Hit]]]:
        if i == len(pools):
            yield weight, hits
            return
        for k, p in dists[i].items():
            yield from walk(i + 1, weight * p, hits + [pools[i].hit] * k)
    yield from walk(0, Fraction(1), list(known))


def _after_hits(attack: AttackFacts, hits: list[Hit], added: int) -> dict[Outcome, Fraction]:
    """The attack's end from its hits (E-10 to E-14): first-hit and disrupt markers, normal
    hits allocated and saved, then macro-weapon hits to the survivors."""
    if attack.option("under-fire-marker") == "first-hit" and hits:
        added += 1
    added += sum(1 for h in hits if h.disrupt)
    normal = [h for h in hits if not h.kind.macro]
    macro = [h for h in hits if h.kind.macro]
    units = list(attack.units)
    if not normal:
        return _finish(attack, _phase(attack, units, macro), (), added)
    alloc = allocate_default(units, normal, attack)
    survive = _survival(attack, units, alloc)
    taken = tuple((k, len(v)) for k, v in alloc.items())
    rest = PhaseRest(attack, survive, (), added, tuple(macro), taken)
    return _phase_outcomes(rest)


def phase_end_states(rest: PhaseRest, key: str) -> tuple[EndState, ...]:
    uncertain = sum(1 for _, q, _ in rest.survive if 0 < q < 1)
    cases = int(2 ** uncertain) if rest.mw_hits else uncertain + 1
    if cases > EXACT_CASES:
        return _simulated(lambda rng: _phase_trial(rest, rng), rest.attack, key)
    return _states(_phase_outcomes(rest), rest.attack)


def _phase_outcomes(rest: PhaseRest) -> dict[Outcome, Fraction]:
    """The end from a phase of saves in progress: its units' fates, then the macro-weapon
    hits (if any) on the survivors."""
    attack = rest.attack
    if not rest.mw_hits:
        return _finish(attack, _fates(rest.survive), rest.dead_before, rest.added)
    out: dict[Outcome, Fraction] = {}
    for dead, p in _dead_sets(rest.survive).items():
        gone = set(rest.dead_before) | dead
        alive = [u for u in attack.units if u.key not in gone]
        before = {}
        if attack.option("mw-spread") == "continue":
            before = {k: v for k, v in rest.taken_normal if k not in gone}
        m = sum(w for k, _, w in rest.survive if k in dead)
        mw = _phase(attack, alive, list(rest.mw_hits), before)
        shifted = {(k + len(dead), mk + m): q for (k, mk), q in mw.items()}
        for outcome, q in _finish(attack, shifted, rest.dead_before, rest.added).items():
            out[outcome] = out.get(outcome, Fraction(0)) + p * q
    return out


def _phase(attack: AttackFacts, alive: list[Defender], hits: list[Hit],
           before: dict[str, int] | None = None) -> dict[tuple[int, int], Fraction]:
    """One phase of hits on ``alive``: (units destroyed, markers for them) → chance."""
    if not hits:
        return {(0, 0): Fraction(1)}
    alloc = allocate_default(alive, hits, attack, before)
    return _fates(_survival(attack, alive, alloc))


def _survival(attack: AttackFacts, units: Sequence[Defender], alloc: dict[str, list[Hit]]
              ) -> tuple[tuple[str, Fraction, int], ...]:
    """Each hit unit's chance to survive its saves, with the markers its loss adds (none if
    every hit on it disrupts: the disrupt markers were placed per hit, E-13)."""
    inv = tables().invulnerable_save
    out = []
    for u in units:
        hits = alloc.get(u.key)
        if not hits:
            continue
        q = Fraction(1)
        for h in hits:
            s = save_against(u, h, attack.crossfire > 0)
            q *= 1 - per_hit_fail(s.need, s.reroll, s.invulnerable, "save", inv)
        out.append((u.key, q, 0 if all(h.disrupt for h in hits) else 1))
    return tuple(out)


def _fates(survive: Iterable[tuple[str, Fraction, int]]) -> dict[tuple[int, int], Fraction]:
    """(units destroyed, markers for them) → chance; units with the same chance and marker
    weight are taken together (a binomial), so the common case is a few products."""
    groups: dict[tuple[Fraction, int], int] = {}
    for _, q, w in survive:
        groups[(q, w)] = groups.get((q, w), 0) + 1
    out: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for (q, w), n in groups.items():
        if q == 1:
            continue
        deaths = Dist.binomial(n, 1 - q)
        nxt: dict[tuple[int, int], Fraction] = {}
        for (k, m), p in out.items():
            for d, pd in deaths.items():
                key = (k + d, m + d * w)
                nxt[key] = nxt.get(key, Fraction(0)) + p * pd
        out = nxt
    return out


def _dead_sets(survive: Iterable[tuple[str, Fraction, int]]) -> dict[frozenset[str], Fraction]:
    out: dict[frozenset[str], Fraction] = {frozenset(): Fraction(1)}
    for key, q, _ in survive:
        if q == 1:
            continue
        nxt: dict[frozenset[str], Fraction] = {}
        for dead, p in out.items():
            if q:
                nxt[dead] = nxt.get(dead, Fraction(0)) + p * q
            gone = dead | {key}
            nxt[gone] = nxt.get(gone, Fraction(0)) + p * (1 - q)
        out = nxt
    return out


def _finish(attack: AttackFacts, phase: dict[tuple[int, int], Fraction],
            dead_before: tuple[str, ...], added: int) -> dict[Outcome, Fraction]:
    """Crossfire's marker for the first kill, a broken formation's extra hits, the break
    check (E-13, E-14, brief section 3)."""
    out: dict[Outcome, Fraction] = {}
    for (k, m), p in phase.items():
        outcome = close(attack, len(dead_before) + k, added + m, first_kill=bool(k)
                        and not dead_before)
        out[outcome] = out.get(outcome, Fraction(0)) + p
    return out


def close(attack: AttackFacts, killed: int, added: int, first_kill: bool) -> Outcome:
    """Units destroyed and broken or not, from the casualties of saves and the markers."""
    if first_kill and attack.crossfire:
        added += attack.crossfire
    n = len(attack.units)
    if attack.broken_at_start:
        # every marker became a hit with no save, one per survivor in reach first (E-10)
        return killed + min(added, _extra_reach(attack, killed)), True
    left = n - killed
    return killed, left > 0 and attack.markers_before + added >= left


def _extra_reach(attack: AttackFacts, killed: int) -> int:
    """Survivors the extra hits can reach (in range and line of fire). Exact when the units
    destroyed were in range, as every unit hit by normal fire is; a macro-weapon casualty
    out of normal range (E-12) would leave one more in reach than counted here."""
    extra = HitKind("extra")
    in_reach = sum(1 for u in attack.units if can_take(u.target, extra))
    return max(0, min(in_reach, len(attack.units) - killed))


# -- allocation with the script defaults ----------------------------------------------------
def allocate_default(units: Sequence[Defender], hits: Sequence[Hit], attack: AttackFacts,
                     before: dict[str, int] | None = None) -> dict[str, list[Hit]]:
    """``damage.allocate`` with every choice at its default (the nearest, listed first; AT
    hits first where the E-X7 order is open)."""
    targets: list[Target] = [d.target for d in units]
    kinds = list(dict.fromkeys(h.kind for h in hits))
    ordered = order_fire_types(targets, kinds)
    if needs_order_choice(targets, kinds):
        ordered.sort(key=lambda k: 0 if k.fire == "at" else 1)
    tie = str(attack.option("allocation-tie"))
    taken = dict(before or {})
    out: dict[str, list[Hit]] = {}
    for kind in ordered:
        for hit in (h for h in hits if h.kind == kind):
            legal = legal_units(targets, kind, taken, tie)
            if not legal:
                continue
            chosen = legal[0].key
            taken[chosen] = taken.get(chosen, 0) + 1
            out.setdefault(chosen, []).append(hit)
    return out


# -- simulation of the rest (large cases) ---------------------------------------------------
def _die(rng: random.Random, q: Fraction) -> bool:
    """Does a unit with survival chance ``q`` die?"""
    return rng.random() >= float(q)


def _shots_trial(rest: ShotsRest, pools: Sequence[PoolFacts], rng: random.Random) -> Outcome:
    hits = list(rest.known)
    for p in pools:
        c = float(p.chance)
        hits += [p.hit] * sum(1 for _ in range(p.shots) if rng.random() < c)
    attack, added = rest.attack, rest.added
    if attack.option("under-fire-marker") == "first-hit" and hits:
        added += 1
    added += sum(1 for h in hits if h.disrupt)
    normal = [h for h in hits if not h.kind.macro]
    macro = tuple(h for h in hits if h.kind.macro)
    if not normal:
        return _phase_trial(PhaseRest(attack, (), (), added, macro), rng)
    alloc = allocate_default(list(attack.units), normal, attack)
    survive = _survival(attack, attack.units, alloc)
    taken = tuple((k, len(v)) for k, v in alloc.items())
    return _phase_trial(PhaseRest(attack, survive, (), added, macro, taken), rng)


def _phase_trial(rest: PhaseRest, rng: random.Random) -> Outcome:
    attack = rest.attack
    dead = {k for k, q, _ in rest.survive if _die(rng, q)}
    m = sum(w for k, _, w in rest.survive if k in dead)
    if rest.mw_hits:
        gone = set(rest.dead_before) | dead
        alive = [u for u in attack.units if u.key not in gone]
        before = {}
        if attack.option("mw-spread") == "continue":
            before = {k: v for k, v in rest.taken_normal if k not in gone}
        alloc = allocate_default(alive, list(rest.mw_hits), attack, before)
        for key, q, w in _survival(attack, alive, alloc):
            if _die(rng, q):
                dead.add(key)
                m += w
    return close(attack, len(rest.dead_before) + len(dead), rest.added + m,
                 first_kill=bool(dead) and not rest.dead_before)


# -- barrages --------------------------------------------------------------------------------
def barrage_end_states(rest: BarrageRest, count: int, chance: Fraction,
                       key: str) -> tuple[EndState, ...]:
    groups = [BarrageGroup(rest.current, chance, rest.current_hit), *rest.later]
    counts = [count, *(len(g.members) for g in rest.later)]
    cases = math.prod(c + 1 for c in counts) * (len(rest.attack.units) + 1)
    if cases > EXACT_CASES:
        return _simulated(lambda rng: _barrage_trial(rest, groups, counts, rng), rest.attack,
                          key)
    dists = [Dist.binomial(c, g.chance) for c, g in zip(counts, groups, strict=True)]
    out: dict[Outcome, Fraction] = {}

    def walk(i: int, weight: Fraction, hit: list[tuple[str, Hit]]) -> None:
        if i == len(groups):
            for outcome, p in _barrage_after(rest, hit).items():
                out[outcome] = out.get(outcome, Fraction(0)) + weight * p
            return
        for k, p in dists[i].items():
            walk(i + 1, weight * p, hit + [(u, groups[i].hit) for u in groups[i].members[:k]])
    walk(0, Fraction(1), list(rest.known))
    return _states(out, rest.attack)


def _barrage_phase(rest: BarrageRest, hit: list[tuple[str, Hit]]) -> PhaseRest:
    attack = rest.attack
    alloc: dict[str, list[Hit]] = {}
    for u, h in hit:
        alloc.setdefault(u, []).append(h)
    added = rest.added + (len(hit) if attack.disrupt_all else 0)
    return PhaseRest(attack, _survival(attack, attack.units, alloc), (), added)


def _barrage_after(rest: BarrageRest, hit: list[tuple[str, Hit]]) -> dict[Outcome, Fraction]:
    return _phase_outcomes(_barrage_phase(rest, hit))


def _barrage_trial(rest: BarrageRest, groups: Sequence[BarrageGroup], counts: Sequence[int],
                   rng: random.Random) -> Outcome:
    hit = list(rest.known)
    for g, c in zip(groups, counts, strict=True):
        p = float(g.chance)
        k = sum(1 for _ in range(c) if rng.random() < p)
        hit += [(u, g.hit) for u in g.members[:k]]
    return _phase_trial(_barrage_phase(rest, hit), rng)
