"""The end states of an Epic Armageddon attack at a roll (issue 8): the expected number of units
destroyed, the chance the target formation breaks (E-14) and the chance it is wiped out,
conditional on what was rolled so far. The rest of the attack is worked out with the
resolver's own rules (allocation with the defaults a script would take, saves, Blast markers,
break check): exactly (binomials, then a dynamic programme over the units) when the cases are
few, else by a seeded simulation with its interval. Loaded by ``odds`` when the end states of
a roll are read (``LazyEndStates``), never for a roll whose end states are not shown.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.core.work import add as counted
from referee.odds.dist import Dist
from referee.odds.report import EndState
from referee.odds.simulate import simulate_many
from referee.rulesets.epic.allocation import (
    HitKind,
    Target,
    can_take,
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
    phase_survival,
)
from referee.rulesets.epic.tables import tables

EXACT_CASES = 12_000
"""Joint cases (hit counts × unit fates that the rest depends on) worked out exactly; beyond
it the rest of the attack is simulated. Decided by the size of the problem; the number is
calibrated so that the largest exact step stays well under 250 ms on the benchmark machine
(a case is an allocation and a few integer products per group of like units, ~15 µs)."""

SET_STEPS = 50
"""The exact macro-weapon phase (``MacroPhase``) works out every set of the phase's units
that may die (``2^uncertain`` sets); a set costs about one step per unit of the formation
(its allocation to the survivors, in closed form, each unit's chance kept by the hits it
takes) and this many steps of its own (the fates of the units hit, the sums of outcomes)."""

EXACT_PHASE_WORK = 2**11 * (60 + SET_STEPS)
"""Steps (survivor sets × (units + ``SET_STEPS``)) of an exact macro-weapon phase; beyond,
the rest is simulated. The largest exact problem, 2^11 survivor sets at the declaration's
limit of 60 units, takes about 100 ms on the benchmark machine (up to 6,000 macro-weapon
hits: the allocation's cost does not grow with the hits). Within the declaration limits
this puts the line where the former estimate did (four cases a set, ``EXACT_CASES``):
the same odds are exact, and the same simulated."""

SIM_RUNS = 2_500
"""Runs of the seeded simulation: a chance's 95 % interval is then at most about ±2 %."""

SIM_WORK = 50_000
"""A simulated run of a shooting attack's rest costs about one step per unit and per pool of
dice: such a simulation makes at most this many steps, so beyond 20 units and pools it
makes fewer runs (at the largest declaration, 60 units and 30 pools: 555 runs, ±4.2 %,
shown with the estimate). Decided by the size of the problem; calibrated to keep that
case under 250 ms."""

Outcome = tuple[int, bool]  # (units destroyed in this attack, formation broken after it)


def fresh() -> None:
    """Forget what the odds keep between rolls (for a benchmark of a step from cold)."""
    for kept in (_passes, _macro_phase, _group_fates):
        kept.cache_clear()


def rest_end_states(rest: ShotsRest | BarrageRest, count: int, chance: Fraction,
                 key: str) -> tuple[EndState, ...]:
    if isinstance(rest, BarrageRest):
        return barrage_end_states(rest, count, chance, key)
    return shots_end_states(rest, count, chance, key)


def save_end_states(rest: PhaseRest, saves: tuple[Any, ...] | None, stage: str,
                 key: str) -> tuple[EndState, ...]:
    if saves is not None:
        rest = replace(rest, survive=phase_survival(saves, stage))
    return phase_end_states(rest, key)


class Mass:
    """Chances as integer numerators over one common denominator: the hot loops multiply
    and add integers (no gcd at every step, as ``Fraction`` would); ``fraction`` gives the
    exact value back."""

    __slots__ = ("den", "num")

    def __init__(self, num: dict[Any, int], den: int) -> None:
        self.num, self.den = num, den

    @classmethod
    def of(cls, probs: dict[Any, Fraction]) -> Mass:
        den = math.lcm(*(p.denominator for p in probs.values())) if probs else 1
        return cls({k: p.numerator * (den // p.denominator) for k, p in probs.items()}, den)

    def sum(self, pick: Any) -> Fraction:
        """Σ pick(key) × chance, exactly."""
        return Fraction(sum(pick(k) * v for k, v in self.num.items()), self.den)


class Tally:
    """The three end states, summed over weighted cases."""

    def __init__(self, attack: AttackFacts) -> None:
        self.attack = attack
        self.n = len(attack.units)
        self.values = [Fraction(0), Fraction(0), Fraction(0)]

    def add(self, weight: Fraction, mass: Mass) -> None:
        n = self.n
        picks = (lambda o: o[0], lambda o: int(o[1]), lambda o: int(o[0] >= n))
        for i, pick in enumerate(picks):
            self.values[i] += weight * mass.sum(pick)

    def states(self) -> tuple[EndState, ...]:
        return tuple(EndState(label, v, kind) for (label, kind), v in
                     zip(self.attack.end_labels(), self.values, strict=True))


def _states(mass: Mass, attack: AttackFacts) -> tuple[EndState, ...]:
    tally = Tally(attack)
    tally.add(Fraction(1), mass)
    return tally.states()


def _simulated(trial: Any, attack: AttackFacts, key: str, runs: int = SIM_RUNS,
               pools: int = 0) -> tuple[EndState, ...]:
    """The end states from ``runs`` seeded runs of ``trial`` (a run steps through the
    units, and the ``pools`` of dice it draws)."""
    n = len(attack.units)
    counted("epic.simulated", runs * (n + pools))

    def one(rng: random.Random) -> tuple[float, float, float]:
        k, broken = trial(rng)
        return float(k), float(broken), float(k >= n)
    return simulate_many(one, key, attack.end_labels(), runs=runs)


def shots_end_states(rest: ShotsRest, count: int, chance: Fraction,
                     key: str) -> tuple[EndState, ...]:
    pools = [PoolFacts(count, chance, rest.current), *rest.later]
    cases = math.prod(p.shots + 1 for p in pools) * \
        _fate_cases(rest.attack, [*rest.known, *(p.hit for p in pools)])
    if cases > EXACT_CASES:
        runs = min(SIM_RUNS, SIM_WORK // (len(rest.attack.units) + len(pools)))
        return _simulated(_ShotsTrial(rest, pools), rest.attack, key, runs, len(pools))
    tally = Tally(rest.attack)
    lists = 0
    for weight, hits in _hit_lists(rest.known, pools):
        tally.add(weight, _after_hits(rest.attack, hits, rest.added))
        lists += 1
    counted("epic.exact", lists)
    return tally.states()


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


def _markers_from_hits(attack: AttackFacts, hits: Sequence[Hit], added: int) -> int:
    """The first-hit marker (E-X1) and the disrupt markers of the first phase of saves (the
    normal hits, or the macro-weapon hits when there are no others); the macro-weapon
    phase's disrupt markers depend on the survivors (``disrupt_markers``)."""
    if attack.option("under-fire-marker") == "first-hit" and hits:
        added += 1
    normal = [h for h in hits if not h.kind.macro] or list(hits)
    return added + disrupt_markers(attack, attack.units, normal)


def disrupt_markers(attack: AttackFacts, alive: Sequence[Defender],
                    hits: Sequence[Hit]) -> int:
    """E-13 as ``shooting.disrupt_markers`` reads it: a marker per disrupt hit that some unit
    alive can take (each, with option disrupt-unplaced-hits=marker)."""
    disrupt = [h for h in hits if h.disrupt]
    if not disrupt or attack.option("disrupt-unplaced-hits") == "marker":
        return len(disrupt)
    targets = [u.target for u in alive]
    return sum(1 for h in disrupt if any(can_take(t, h.kind) for t in targets))


def _after_hits(attack: AttackFacts, hits: list[Hit], added: int) -> Mass:
    """The attack's end from its hits (E-10 to E-14): first-hit and disrupt markers, normal
    hits allocated and saved, then macro-weapon hits to the survivors."""
    return _phase_outcomes(_normal_phase(attack, hits, added))


def _normal_phase(attack: AttackFacts, hits: Sequence[Hit], added: int,
                  survival: Any = None) -> PhaseRest:
    """The first phase of saves from the hits: the normal hits allocated (the macro-weapon
    hits wait for the survivors, E-12), or the macro-weapon hits alone."""
    survival = survival or _survival
    added = _markers_from_hits(attack, hits, added)
    normal = [h for h in hits if not h.kind.macro]
    macro = tuple(h for h in hits if h.kind.macro)
    if not normal:  # the macro-weapon hits are the only phase
        units = list(attack.units)
        return PhaseRest(attack, survival(attack, units, allocate_default(units, macro,
                                                                         attack)), (), added)
    alloc = allocate_default(list(attack.units), normal, attack)
    survive = survival(attack, attack.units, alloc)
    taken = tuple((k, len(v)) for k, v in alloc.items())
    return PhaseRest(attack, survive, (), added, macro, taken)


def phase_end_states(rest: PhaseRest, key: str) -> tuple[EndState, ...]:
    uncertain = sum(1 for _, q, _ in rest.survive if 0 < q < 1)
    if rest.mw_hits:
        heavy = 2**uncertain * (len(rest.attack.units) + SET_STEPS) > EXACT_PHASE_WORK
    else:  # one pass over the groups of like units
        heavy = uncertain + 1 > EXACT_CASES
    if heavy:
        return _simulated(_PhaseTrial(rest), rest.attack, key)
    return _states(_phase_outcomes(rest), rest.attack)


class MacroPhase:
    """The macro-weapon hits of a phase, allocated to its survivors (E-12) exactly, for every
    set of units the phase may destroy: the allocation in closed form
    (``FastAllocation.allocate``, the same hits to the same units as ``allocate_default``),
    each unit's chance to save its hits kept by the hits it takes, the fates of the units
    hit kept by their chances (``_fates``). So a survivor set costs about one step per unit
    left to allocate to, not one per hit. ``allocations`` counts the survivor sets worked
    out (the work counter of the tests)."""

    def __init__(self, attack: AttackFacts, mw_hits: Sequence[Hit],
                 taken_normal: Sequence[tuple[str, int]]) -> None:
        self.attack = attack
        self.fast = FastAllocation(attack, mw_hits)
        self.runs = self.fast.runs(mw_hits)
        self.index = {u.key: i for i, u in enumerate(attack.units)}
        self.spread = attack.option("mw-spread") == "continue"
        self.taken = {self.index[k]: v for k, v in taken_normal}
        self.away = _away(attack)
        self.crossfire = attack.crossfire > 0
        self._chance: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[int, int]] = {}
        self.allocations = 0

    def _saved(self, i: int, got: dict[int, int]) -> tuple[int, int]:
        """Unit ``i``'s chance to save every hit it got, as (numerator, denominator)."""
        key = (i, tuple(sorted(got.items())))
        chance = self._chance.get(key)
        if chance is None:
            unit = self.attack.units[i]
            q = Fraction(1)
            for h, n in key[1]:
                q *= _passes(unit, self.fast.hits[h], self.crossfire) ** n
            chance = self._chance[key] = (q.numerator, q.denominator)
        return chance

    def fates(self, gone: Iterable[str]) -> Mass:
        """(destroyed, markers, out of range) → chance, of the macro-weapon hits on the
        units not ``gone``."""
        self.allocations += 1
        fast, units, away = self.fast, self.attack.units, self.away
        out = {self.index[k] for k in gone}
        before = ({i: v for i, v in self.taken.items() if i not in out}
                  if self.spread else None)
        groups: dict[tuple[int, int, int, int], int] = {}
        for i, got in fast.allocate(self.runs, out, before).items():
            w = 0 if all(fast.hits[h].disrupt for h in got) else 1
            g = (*self._saved(i, got), w, int(units[i].key in away))
            groups[g] = groups.get(g, 0) + 1
        return _group_fates(tuple(groups.items()))


@functools.lru_cache(maxsize=64)
def _macro_phase(attack: AttackFacts, mw_hits: tuple[Hit, ...],
                 taken_normal: tuple[tuple[str, int], ...]) -> MacroPhase:
    return MacroPhase(attack, mw_hits, taken_normal)


def _phase_outcomes(rest: PhaseRest) -> Mass:
    """The end from a phase of saves in progress: its units' fates, then the macro-weapon
    hits (if any) on the survivors: for each set of this phase's units destroyed (in whole
    numbers over one denominator), the macro-weapon phase on the rest (``MacroPhase``)."""
    attack = rest.attack
    away = _away(attack)
    if not rest.mw_hits:
        return _finish(attack, _fates(rest.survive, away), rest.dead_before, rest.added)
    macro = _macro_phase(attack, rest.mw_hits, rest.taken_normal)
    before = len(rest.dead_before)
    away_before = len(away & set(rest.dead_before))
    closing: dict[tuple[int, int, int], Outcome] = {}
    # by the macro-weapon phase's denominator: outcome → whole-number weight
    buckets: dict[int, dict[Outcome, int]] = {}
    sets, den = _dead_sets(rest.survive, away)
    # E-13: the macro-weapon hits' disrupt markers count the hits some survivor can take
    mw_disrupt = any(h.disrupt for h in rest.mw_hits)
    for dead, p, m, o in sets:
        gone = (*rest.dead_before, *dead)
        if mw_disrupt:
            left = set(gone)
            m += disrupt_markers(attack, [u for u in attack.units if u.key not in left],
                                 rest.mw_hits)
        mw = macro.fates(gone)
        bucket = buckets.setdefault(mw.den, {})
        for (k, mk, ok), v in mw.num.items():
            state = (k + len(dead), mk + m, ok + o)
            outcome = closing.get(state)
            if outcome is None:
                outcome = closing[state] = close(
                    attack, before + state[0], rest.added + state[1],
                    first_kill=bool(state[0]) and not before,
                    away_killed=away_before + state[2])
            bucket[outcome] = bucket.get(outcome, 0) + p * v
    counted("epic.sets", len(sets) * (len(attack.units) + SET_STEPS))
    out: dict[Outcome, Fraction] = {}
    for mw_den, weights in buckets.items():
        for outcome, v in weights.items():
            out[outcome] = out.get(outcome, Fraction(0)) + Fraction(v, den * mw_den)
    return Mass.of(out)


def _survival(attack: AttackFacts, units: Sequence[Defender], alloc: dict[str, list[Hit]]
              ) -> tuple[tuple[str, Fraction, int], ...]:
    """Each hit unit's chance to survive its saves, with the markers its loss adds (none if
    every hit on it disrupts: the disrupt markers were placed per hit, E-13)."""
    out = []
    crossfire = attack.crossfire > 0
    for u in units:
        hits = alloc.get(u.key)
        if not hits:
            continue
        q = Fraction(1)
        for h, n in Counter(hits).items():
            q *= _passes(u, h, crossfire) ** n
        out.append((u.key, q, 0 if all(h.disrupt for h in hits) else 1))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _passes(unit: Defender, hit: Hit, crossfire: bool) -> Fraction:
    """The chance one hit on ``unit`` is saved, re-rolls and invulnerable save included."""
    s = save_against(unit, hit, crossfire)
    return 1 - per_hit_fail(s.need, s.reroll, s.invulnerable, "save",
                            tables().invulnerable_save)


def _fates(survive: Iterable[tuple[str, Fraction, int]],
           away: frozenset[str] = frozenset()) -> Mass:
    """(units destroyed, markers for them, how many of them were out of range) → chance;
    units with the same chance, marker weight and range are taken together (a binomial in
    integers), so the common case is a few products of whole numbers."""
    groups: dict[tuple[int, int, int, int], int] = {}
    for key, q, w in survive:
        g = (q.numerator, q.denominator, w, int(key in away))
        groups[g] = groups.get(g, 0) + 1
    return _group_fates(tuple(groups.items()))


@functools.lru_cache(maxsize=4096)
def _group_fates(groups: tuple[tuple[tuple[int, int, int, int], int], ...]) -> Mass:
    """``_fates`` of units grouped as ((chance to live as numerator and denominator, marker
    weight, out of range), how many): whole numbers, as keys too (a ``Fraction``'s hash
    costs a modular inverse)."""
    num: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    den = 1
    for (a, b, w, out_of_range), n in groups:
        if a == b:
            continue
        # survives a/b, dies (b-a)/b
        deaths = [math.comb(n, d) * (b - a) ** d * a ** (n - d) for d in range(n + 1)]
        nxt: dict[tuple[int, int, int], int] = {}
        for (k, m, o), v in num.items():
            for d, pd in enumerate(deaths):
                if pd:
                    state = (k + d, m + d * w, o + d * out_of_range)
                    nxt[state] = nxt.get(state, 0) + v * pd
        num, den = nxt, den * b**n
    return Mass(num, den)


def _dead_sets(survive: Iterable[tuple[str, Fraction, int]], away: frozenset[str]
               ) -> tuple[list[tuple[tuple[str, ...], int, int, int]], int]:
    """Every set of the units that may die, as (the units, its chance as a whole number over
    one denominator, the markers their loss adds, how many were out of range), and the
    denominator (the product of the chances' denominators). Units sure to die are in every
    set, units sure to live in none."""
    sure: list[str] = []
    m0 = o0 = 0
    out: list[tuple[tuple[str, ...], int, int, int]] = [((), 1, 0, 0)]
    den = 1
    for key, q, w in survive:
        if q == 1:
            continue
        o = int(key in away)
        if not q:
            sure.append(key)
            m0, o0 = m0 + w, o0 + o
            continue
        a, b = q.numerator, q.denominator
        out = [s for dead, p, m, k in out
               for s in ((dead, p * a, m, k), ((*dead, key), p * (b - a), m + w, k + o))]
        den *= b
    return [((*sure, *dead), p, m + m0, k + o0) for dead, p, m, k in out], den


def _finish(attack: AttackFacts, phase: Mass, dead_before: tuple[str, ...],
            added: int) -> Mass:
    """Crossfire's marker for the first kill, a broken formation's extra hits, the break
    check (E-13, E-14, brief section 3)."""
    out: dict[Outcome, int] = {}
    away = len(_away(attack) & set(dead_before))
    for (k, m, o), v in phase.num.items():
        outcome = close(attack, len(dead_before) + k, added + m, first_kill=bool(k)
                        and not dead_before, away_killed=away + o)
        out[outcome] = out.get(outcome, 0) + v
    return Mass(out, phase.den)


def close(attack: AttackFacts, killed: int, added: int, first_kill: bool,
          away_killed: int = 0) -> Outcome:
    """Units destroyed and broken or not, from the casualties of saves and the markers
    (``away_killed``: how many of the casualties were out of range)."""
    if first_kill and attack.crossfire:
        added += attack.crossfire
    n = len(attack.units)
    if attack.broken_at_start:
        # every marker became a hit with no save, one per survivor in reach first (E-10)
        reach = len(attack.units) - len(_away(attack)) - (killed - away_killed)
        return killed + min(added, reach), True
    left = n - killed
    return killed, left > 0 and attack.markers_before + added >= left


def _away(attack: AttackFacts) -> frozenset[str]:
    """Units a broken formation's extra hits cannot reach (out of range or line of fire):
    a macro-weapon hit may have destroyed one of them (E-12), so they are counted apart."""
    extra = HitKind("extra")
    return frozenset(u.key for u in attack.units if not can_take(u.target, extra))


# -- allocation with the script defaults ----------------------------------------------------
def allocate_default(units: Sequence[Defender], hits: Sequence[Hit], attack: AttackFacts,
                     before: dict[str, int] | None = None) -> dict[str, list[Hit]]:
    """``damage.allocate`` with every choice at its default (the nearest, listed first; AT
    hits first where the E-X7 order is open). Each hit goes to the unit that
    ``allocation.legal_units`` puts first: among the units the hit can reach, the fewest
    hits so far, then the nearest, then the first listed (a heap keyed so)."""
    targets: list[Target] = [d.target for d in units]
    kinds = list(dict.fromkeys(h.kind for h in hits))
    ordered = order_fire_types(targets, kinds)
    if needs_order_choice(targets, kinds):
        ordered.sort(key=lambda k: 0 if k.fire == "at" else 1)
    taken = dict(before or {})
    out: dict[str, list[Hit]] = {}
    for kind in ordered:
        mine = [h for h in hits if h.kind == kind]
        pool = [(taken.get(u.key, 0), u.distance, u.order, u.key) for u in targets
                if can_take(u, kind)]
        if not pool:
            continue
        heapq.heapify(pool)
        for hit in mine:
            held, distance, order, key = heapq.heappop(pool)
            out.setdefault(key, []).append(hit)
            heapq.heappush(pool, (held + 1, distance, order, key))
        for held, _, _, key in pool:
            taken[key] = held
    return out


Runs = list[tuple[int, int]]
"""Hits in the order the resolver makes them, as runs: (hit number, how many)."""


class FastAllocation:
    """``allocate_default`` and ``_survival`` in closed form and floating point, for the
    simulation's many cases. Units and hits are numbered once: each kind's units in
    allocation order, each unit's chance to save each hit. The heap of ``allocate_default``
    pops the unit with the fewest hits, then the nearest: the units below the most-hit one
    are levelled up first (a level at a time, nearest first), then every hit goes round the
    units in turn, nearest first. So a run of k hits gives each unit k // n of them and one
    more to the next k % n in the round: the cost is per run and per unit, not per hit."""

    def __init__(self, attack: AttackFacts, hits: Sequence[Hit]) -> None:
        self.attack = attack
        self.units = attack.units
        self.hits: list[Hit] = []
        self.number: dict[Hit, int] = {}
        self._of: dict[Hit, int] = {}  # a hit as given (its weapon kept) → its number
        for h in dict.fromkeys(hits):
            self.hit_number(h)
        self.away = {i for i, u in enumerate(self.units) if u.key in _away(attack)}

    def hit_number(self, hit: Hit) -> int:
        """The number of ``hit`` (its weapon's name dropped: it changes nothing here)."""
        known = self._of.get(hit)
        if known is not None:
            return known
        h = replace(hit, weapon="")
        if h not in self.number:
            self.number[h] = len(self.hits)
            self.hits.append(h)
            crossfire = self.attack.crossfire > 0
            self._saves = [[float(_passes(u, x, crossfire)) for x in self.hits]
                           for u in self.units]
            kinds = dict.fromkeys(x.kind for x in self.hits)
            self._ranks = {k: [i for _, _, _, i in sorted(
                (u.target.distance, u.target.order, u.key, i)
                for i, u in enumerate(self.units) if can_take(u.target, k))] for k in kinds}
        self._of[hit] = self.number[h]
        return self.number[h]

    @property
    def hit_kinds(self) -> list[HitKind]:
        """Each hit number's kind."""
        return [h.kind for h in self.hits]

    def runs(self, hits: Iterable[Hit]) -> Runs:
        out: Runs = []
        for h in hits:
            n = self.hit_number(h)
            if out and out[-1][0] == n:
                out[-1] = (n, out[-1][1] + 1)
            else:
                out.append((n, 1))
        return out

    def allocate(self, runs: Runs, gone: set[int] | frozenset[int] = frozenset(),
                 before: dict[int, int] | None = None) -> dict[int, dict[int, int]]:
        """Unit number → hit number → hits taken, as ``allocate_default`` gives them to the
        units not ``gone``."""
        kinds = list(dict.fromkeys(self.hits[h].kind for h, k in runs if k))
        ranks = {k: [i for i in self._ranks[k] if i not in gone] for k in kinds}
        kinds.sort(key=lambda k: (len(ranks[k]), k.fire))  # order_fire_types
        fires = {k.fire for k in kinds}
        if {"ap", "at"} <= fires and {"INF", "LV", "AV"} <= {
                u.target.type for i, u in enumerate(self.units) if i not in gone}:
            kinds.sort(key=lambda k: 0 if k.fire == "at" else 1)  # needs_order_choice
        taken = dict(before or {})
        out: dict[int, dict[int, int]] = {}
        for kind in kinds:
            order = ranks[kind]
            if not order:
                continue
            mine = [(h, k) for h, k in runs if k and self.hits[h].kind == kind]
            total = sum(k for _, k in mine)
            n = len(order)
            held = [taken.get(i, 0) for i in order]
            top, level = max(held), min(held)
            picks: list[int] = []  # the levelling picks, a level at a time
            while level < top and len(picks) < total:
                picks += [j for j, h in enumerate(held) if h <= level]
                level += 1
            levelling = sum(top - h for h in held)  # picks before the rounds begin
            start = 0
            for h, k in mine:
                end = start + k
                for j in range(start, min(end, levelling)):
                    got = out.setdefault(order[picks[j]], {})
                    got[h] = got.get(h, 0) + 1
                first = max(start, levelling)
                if end > first:
                    whole, extra = divmod(end - first, n)
                    offset = (first - levelling) % n
                    for j in range(n):
                        c = whole + (1 if (j - offset) % n < extra else 0)
                        if c:
                            got = out.setdefault(order[j], {})
                            got[h] = got.get(h, 0) + c
                start = end
            for i, got in out.items():
                taken[i] = sum(got.values()) + (before or {}).get(i, 0)
        return out

    def survival(self, alloc: dict[int, dict[int, int]]) -> list[tuple[int, float, int]]:
        """Each hit unit's chance to survive its saves, and the markers its loss adds."""
        out = []
        for i, got in alloc.items():
            q = 1.0
            saves = self._saves[i]
            for h, n in got.items():
                q *= saves[h] ** n
            out.append((i, q, 0 if all(self.hits[h].disrupt for h in got) else 1))
        return out


# -- simulation of the rest (large cases) ---------------------------------------------------
def _die(rng: random.Random, q: float) -> bool:
    """Does a unit with survival chance ``q`` die?"""
    return rng.random() >= q


def _sampler(shots: int, chance: Fraction) -> list[float]:
    """The cumulative chances of 0..shots hits, for one random draw per pool."""
    cdf, total = [], 0.0
    for p in _binomial_floats(shots, float(chance)):
        total += p
        cdf.append(total)
    return cdf


def _binomial_floats(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _draw(rng: random.Random, cdf: list[float]) -> int:
    return min(bisect.bisect_left(cdf, rng.random()), len(cdf) - 1)


class _ShotsTrial:
    """One simulated run of the rest of a shooting attack: a draw of each pool's hits, the
    units' saves, the macro-weapon phase, the break check. The allocations are worked out in
    closed form (``FastAllocation``), so a run costs about the same with 6000 dice as with
    6. The phases are kept by what they depend on (``phase_key``: the hits of each kind in
    order, not which pool rolled them), and the macro-weapon phase also by the units lost
    before it, so that draws alike in what matters are worked out once."""

    def __init__(self, rest: ShotsRest, pools: Sequence[PoolFacts]) -> None:
        self.rest, self.pools = rest, pools
        self.cdfs = [_sampler(p.shots, p.chance) for p in pools]
        self.fast = FastAllocation(rest.attack, [*rest.known, *(p.hit for p in pools)])
        self.known = self.fast.runs(rest.known)
        self.numbers = [self.fast.hit_number(p.hit) for p in pools]
        self.phases: dict[Runs | tuple[tuple[int, int], ...],
                          tuple[list[tuple[int, float, int]], int, Runs, dict[int, int]]] = {}
        # the macro-weapon phase's fates and disrupt markers, by the phase and its dead
        self.macro: dict[tuple[Any, frozenset[int]],
                         tuple[list[tuple[int, float, int]], int]] = {}
        self.misses = 0  # phases worked out (not found kept): the work the cache leaves

    def phase_key(self, counts: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """The hits as runs, each kind's runs together in the order the kind first came
        (``FastAllocation.allocate`` takes the kinds in that order and each kind's hits in
        turn, so it allocates these runs as it would the pools' own)."""
        kinds = self.fast.hit_kinds
        per: dict[HitKind, list[list[int]]] = {}
        for h, k in [*self.known, *zip(self.numbers, counts, strict=True)]:
            if not k:
                continue
            mine = per.setdefault(kinds[h], [])
            if mine and mine[-1][0] == h:
                mine[-1][1] += k
            else:
                mine.append([h, k])
        return tuple((h, k) for mine in per.values() for h, k in mine)

    def _phase(self, runs: Sequence[tuple[int, int]]
               ) -> tuple[list[tuple[int, float, int]], int, Runs, dict[int, int]]:
        fast = self.fast
        self.misses += 1
        added = self.rest.added
        if self.rest.attack.option("under-fire-marker") == "first-hit" and runs:
            added += 1
        normal = [(h, k) for h, k in runs if not fast.hits[h].kind.macro]
        macro = [(h, k) for h, k in runs if fast.hits[h].kind.macro]
        if not normal:  # the macro-weapon hits are the only phase
            normal, macro = macro, []
        added += disrupt_markers(self.rest.attack, self.rest.attack.units,
                                 [fast.hits[h] for h, k in normal for _ in range(k)])
        alloc = fast.allocate(normal)
        taken = {i: sum(got.values()) for i, got in alloc.items()}
        return fast.survival(alloc), added, macro, taken

    def __call__(self, rng: random.Random) -> Outcome:
        key = self.phase_key([_draw(rng, c) for c in self.cdfs])
        phase = self.phases.get(key)
        if phase is None:
            phase = self.phases[key] = self._phase(key)
        survive, added, macro, taken = phase
        fast, attack = self.fast, self.rest.attack
        dead = {i for i, q, _ in survive if _die(rng, q)}
        m = sum(w for i, _, w in survive if i in dead)
        if macro:
            gone = frozenset(dead)
            kept = self.macro.get((key, gone))
            if kept is None:
                before = ({i: v for i, v in taken.items() if i not in dead}
                          if attack.option("mw-spread") == "continue" else None)
                marks = disrupt_markers(attack,
                                        [u for i, u in enumerate(fast.units) if i not in dead],
                                        [fast.hits[h] for h, k in macro for _ in range(k)])
                kept = self.macro[(key, gone)] = (
                    fast.survival(fast.allocate(macro, dead, before)), marks)
            fates, marks = kept
            m += marks
            for i, q, w in fates:
                if _die(rng, q):
                    dead.add(i)
                    m += w
        return close(attack, len(dead), added + m, first_kill=bool(dead),
                     away_killed=len(fast.away & dead))


class _PhaseTrial:
    """One simulated run of the rest from a phase of saves in progress: its units' fates,
    then the macro-weapon hits (if any) on the survivors (``FastAllocation``), the break
    check."""

    def __init__(self, rest: PhaseRest) -> None:
        self.rest = rest
        attack = rest.attack
        self.survive = [(k, float(q), w) for k, q, w in rest.survive]
        self.number = {u.key: i for i, u in enumerate(attack.units)}
        self.fast = FastAllocation(attack, rest.mw_hits)
        self.mw = self.fast.runs(rest.mw_hits)
        self.gone = {self.number[k] for k in rest.dead_before}
        self.taken = {self.number[k]: v for k, v in rest.taken_normal}
        self.spread = attack.option("mw-spread") == "continue"
        self.away = _away(attack)

    def __call__(self, rng: random.Random) -> Outcome:
        rest = self.rest
        dead = {k for k, q, _ in self.survive if _die(rng, q)}
        m = sum(w for k, _, w in self.survive if k in dead)
        if self.mw:
            gone = self.gone | {self.number[k] for k in dead}
            before = ({i: v for i, v in self.taken.items() if i not in gone}
                      if self.spread else None)
            units = rest.attack.units
            m += disrupt_markers(rest.attack, [u for i, u in enumerate(units) if i not in gone],
                                 rest.mw_hits)
            for i, q, w in self.fast.survival(self.fast.allocate(self.mw, gone, before)):
                if _die(rng, q):
                    dead.add(units[i].key)
                    m += w
        away = len(self.away & (set(rest.dead_before) | dead))
        return close(rest.attack, len(rest.dead_before) + len(dead), rest.added + m,
                     first_kill=bool(dead) and not rest.dead_before, away_killed=away)


# -- barrages --------------------------------------------------------------------------------
def barrage_end_states(rest: BarrageRest, count: int, chance: Fraction,
                       key: str) -> tuple[EndState, ...]:
    groups = [BarrageGroup(rest.current, chance, rest.current_hit), *rest.later]
    counts = [count, *(len(g.members) for g in rest.later)]
    cases = math.prod(c + 1 for c in counts) * (len(rest.attack.units) + 1)
    if cases > EXACT_CASES:
        return _simulated(_BarrageTrial(rest, groups, counts), rest.attack, key,
                          pools=len(groups))
    dists = [Dist.binomial(c, g.chance) for c, g in zip(counts, groups, strict=True)]
    tally = Tally(rest.attack)

    def walk(i: int, weight: Fraction, hit: list[tuple[str, Hit]]) -> None:
        if i == len(groups):
            tally.add(weight, _phase_outcomes(_barrage_phase(rest, hit)))
            return
        for k, p in dists[i].items():
            walk(i + 1, weight * p, hit + [(u, groups[i].hit) for u in groups[i].members[:k]])
    walk(0, Fraction(1), list(rest.known))
    counted("epic.exact", math.prod(c + 1 for c in counts))
    return tally.states()


def _barrage_phase(rest: BarrageRest, hit: list[tuple[str, Hit]]) -> PhaseRest:
    attack = rest.attack
    alloc: dict[str, list[Hit]] = {}
    for u, h in hit:
        alloc.setdefault(u, []).append(h)
    added = rest.added + (len(hit) if attack.disrupt_all else 0)
    return PhaseRest(attack, _survival(attack, attack.units, alloc), (), added)


class _BarrageTrial:
    """One simulated run of the rest of a barrage on one formation: a draw of each group's
    hits (the nearest members take them, E-17), one save chain per unit hit, the markers,
    the break check. Every unit is under one group and takes at most one hit, so each
    unit's chance to survive it is worked out once."""

    def __init__(self, rest: BarrageRest, groups: Sequence[BarrageGroup],
                 counts: Sequence[int]) -> None:
        attack = self.attack = rest.attack
        crossfire = attack.crossfire > 0
        units = {u.key: u for u in attack.units}

        def fate(key: str, hit: Hit) -> tuple[str, float, int]:
            return key, float(_passes(units[key], hit, crossfire)), 0 if hit.disrupt else 1
        self.known = [fate(k, h) for k, h in rest.known]
        self.groups = [[fate(k, g.hit) for k in g.members] for g in groups]
        self.cdfs = [_sampler(c, g.chance) for c, g in zip(counts, groups, strict=True)]
        self.added = rest.added
        self.away = _away(attack)

    def __call__(self, rng: random.Random) -> Outcome:
        hits = len(self.known)
        dead = {k for k, q, _ in self.known if _die(rng, q)}
        m = sum(w for k, _, w in self.known if k in dead)
        for members, cdf in zip(self.groups, self.cdfs, strict=True):
            got = _draw(rng, cdf)
            hits += got
            for k, q, w in members[:got]:
                if _die(rng, q):
                    dead.add(k)
                    m += w
        added = self.added + (hits if self.attack.disrupt_all else 0)
        return close(self.attack, len(dead), added + m, first_kill=bool(dead),
                     away_killed=len(self.away & dead))
