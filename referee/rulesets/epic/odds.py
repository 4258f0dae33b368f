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

SIM_RUNS = 2_500
"""Runs of the seeded simulation: a chance's 95 % interval is then at most about ±2 %."""

SIM_WORK = 50_000
"""A simulated run of a shooting attack's rest costs about one step per unit and per pool of
dice: such a simulation makes at most this many steps, so beyond 20 units and pools it
makes fewer runs (at the largest declaration, 60 units and 30 pools: 555 runs, ±4.2 %,
shown with the estimate). Decided by the size of the problem; calibrated to keep that
case under 250 ms."""

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
        ends += _hit_states(weapon, final)
        notes.append(Msg.of("epic.odds.note.final_hits", dist=_compact(final)))
        chance = per_die * second
    else:
        dist = Dist.binomial(n, per_die)
        unit = Msg.of("epic.odds.unit.hits")
        title = (Msg.of("epic.odds.title.then", weapon=weapon, count=n, then=target)
                 if stage == "then" else
                 Msg.of("epic.odds.title.to_hit", weapon=weapon, count=n, target=target))
        chance = per_die
        if stage == "direct" and rest is None:  # the roll to hit alone: comparable with a
            ends += _hit_states(weapon, dist)   # 7+ roll of the same weapon in a what-if
    if rest is not None:
        key = question.id
        if isinstance(rest, BarrageRest):
            ends += barrage_end_states(rest, n, chance, key)
        else:
            ends += shots_end_states(rest, n, chance, key)
        notes += _default_notes(rest.attack)
    return OddsReport(title, unit, dist, successes, tuple(ends), notes=tuple(notes))


def save(question: DiceQuestion, *, unit: str, stage: str,
         rest: PhaseRest | None = None, saves: tuple[Any, ...] | None = None) -> OddsReport:
    """A save roll (the save, a reinforced-armour re-roll, an invulnerable save): the failed
    saves among its dice, and the end states given every save rolled so far (``saves``: see
    ``oddsfacts.phase_survival``)."""
    if rest is not None and saves is not None:
        rest = replace(rest, survive=phase_survival(saves, stage))
    n = question.spec.count
    target = question.spec.target or 7
    fail = Fraction(min(6, target - 1), 6)
    dist = Dist.binomial(n, fail)
    title = Msg.of(f"epic.odds.title.{stage}", unit=unit, count=n, need=target)
    ends: list[EndState] = []
    notes: list[Msg] = []
    if rest is not None:
        ends += phase_end_states(rest, question.id)
        if rest.mw_hits or rest.attack.broken_at_start:  # hits still to allocate
            notes += _default_notes(rest.attack)
    return OddsReport(title, Msg.of("epic.odds.unit.failed"), dist, _Failed(n), tuple(ends),
                      notes=tuple(notes))


def _default_notes(attack: AttackFacts) -> list[Msg]:
    """Say so where the end states take an allocation choice still open at its default: a
    tie in distance (E-X6) or the order of AT and AP hits (E-X7). A barrage's hits fall on
    the nearest of each group without a choice; only a broken formation's extra hits are
    allocated there."""
    if attack.barrage and not attack.broken_at_start:
        return []
    units = [u.target for u in attack.units]
    distances = [u.distance for u in units]
    tie = (attack.option("allocation-tie", "defender-chooses") != "listed-order"
           and len(set(distances)) < len(distances))
    order = (not attack.barrage
             and attack.option("mixed-allocation", "ask-defender") == "ask-defender"
             and {"INF", "LV", "AV"} <= {u.type for u in units})
    return [Msg.of("epic.odds.note.defaults")] if tie or order else []


def _hit_states(weapon: Msg | str, hits: Dist) -> list[EndState]:
    """The weapon's hits after every stage of its roll: expected, and at least one."""
    return [EndState(Msg.of("epic.odds.end.hits_after", weapon=weapon), hits.mean(),
                     Kind.EXPECTED),
            EndState(Msg.of("epic.odds.end.any_hit", weapon=weapon), hits.at_least(1))]


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
                     zip(_labels(self.attack), self.values, strict=True))


def _states(mass: Mass, attack: AttackFacts) -> tuple[EndState, ...]:
    tally = Tally(attack)
    tally.add(Fraction(1), mass)
    return tally.states()


def _simulated(trial: Any, attack: AttackFacts, key: str, runs: int = SIM_RUNS
               ) -> tuple[EndState, ...]:
    n = len(attack.units)

    def one(rng: random.Random) -> tuple[float, float, float]:
        k, broken = trial(rng)
        return float(k), float(broken), float(k >= n)
    return simulate_many(one, key, _labels(attack), runs=runs)


def shots_end_states(rest: ShotsRest, count: int, chance: Fraction,
                     key: str) -> tuple[EndState, ...]:
    pools = [PoolFacts(count, chance, rest.current), *rest.later]
    cases = math.prod(p.shots + 1 for p in pools) * \
        _fate_cases(rest.attack, [*rest.known, *(p.hit for p in pools)])
    if cases > EXACT_CASES:
        runs = min(SIM_RUNS, SIM_WORK // (len(rest.attack.units) + len(pools)))
        return _simulated(_ShotsTrial(rest, pools), rest.attack, key, runs)
    tally = Tally(rest.attack)
    for weight, hits in _hit_lists(rest.known, pools):
        tally.add(weight, _after_hits(rest.attack, hits, rest.added))
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
    # a survivor set costs about four cases of hits (its own allocation and fates)
    cases = 4 * int(2 ** uncertain) if rest.mw_hits else uncertain + 1
    if cases > EXACT_CASES:
        return _simulated(_PhaseTrial(rest), rest.attack, key)
    return _states(_phase_outcomes(rest), rest.attack)


def _mw_phase(rest: PhaseRest, gone: set[str], survival: Any = None
              ) -> tuple[tuple[str, Any, int], ...]:
    """The macro-weapon hits allocated to the survivors (E-12) and their chances."""
    survival = survival or _survival
    attack = rest.attack
    alive = [u for u in attack.units if u.key not in gone]
    before = {}
    if attack.option("mw-spread") == "continue":
        before = {k: v for k, v in rest.taken_normal if k not in gone}
    alloc = allocate_default(alive, list(rest.mw_hits), attack, before)
    return tuple(survival(attack, alive, alloc))


def _phase_outcomes(rest: PhaseRest) -> Mass:
    """The end from a phase of saves in progress: its units' fates, then the macro-weapon
    hits (if any) on the survivors."""
    attack = rest.attack
    if not rest.mw_hits:
        return _finish(attack, _fates(rest.survive, _away(attack)), rest.dead_before,
                       rest.added)
    out: dict[Outcome, Fraction] = {}
    away = _away(attack)
    for dead, p in _dead_sets(rest.survive).items():
        m = sum(w for k, _, w in rest.survive if k in dead)
        o = len(dead & away)
        gone = set(rest.dead_before) | dead
        m += disrupt_markers(attack, [u for u in attack.units if u.key not in gone],
                             rest.mw_hits)
        mw = _fates(_mw_phase(rest, gone), away)
        shifted = Mass({(k + len(dead), mk + m, ok + o): v for (k, mk, ok), v in mw.num.items()},
                       mw.den)
        end = _finish(attack, shifted, rest.dead_before, rest.added)
        for outcome, v in end.num.items():
            out[outcome] = out.get(outcome, Fraction(0)) + p * Fraction(v, end.den)
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
    groups: dict[tuple[Fraction, int, int], int] = {}
    for key, q, w in survive:
        g = (q, w, int(key in away))
        groups[g] = groups.get(g, 0) + 1
    num: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    den = 1
    for (q, w, out_of_range), n in groups.items():
        if q == 1:
            continue
        a, b = q.numerator, q.denominator  # survives a/b, dies (b-a)/b
        deaths = [math.comb(n, d) * (b - a) ** d * a ** (n - d) for d in range(n + 1)]
        nxt: dict[tuple[int, int, int], int] = {}
        for (k, m, o), v in num.items():
            for d, pd in enumerate(deaths):
                if pd:
                    state = (k + d, m + d * w, o + d * out_of_range)
                    nxt[state] = nxt.get(state, 0) + v * pd
        num, den = nxt, den * b**n
    return Mass(num, den)


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
        for h in hits:
            self.hit_number(h)
        self.away = {i for i, u in enumerate(self.units) if u.key in _away(attack)}

    def hit_number(self, hit: Hit) -> int:
        """The number of ``hit`` (its weapon's name dropped: it changes nothing here)."""
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
        return self.number[h]

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
    6; the normal phase is kept per distinct draw."""

    def __init__(self, rest: ShotsRest, pools: Sequence[PoolFacts]) -> None:
        self.rest, self.pools = rest, pools
        self.cdfs = [_sampler(p.shots, p.chance) for p in pools]
        self.fast = FastAllocation(rest.attack, [*rest.known, *(p.hit for p in pools)])
        self.known = self.fast.runs(rest.known)
        self.numbers = [self.fast.hit_number(p.hit) for p in pools]
        self.phases: dict[tuple[int, ...], tuple[list[tuple[int, float, int]], int, Runs,
                                                 dict[int, int]]] = {}

    def _phase(self, counts: tuple[int, ...]) -> tuple[list[tuple[int, float, int]], int,
                                                       Runs, dict[int, int]]:
        fast = self.fast
        runs = list(self.known)
        for h, k in zip(self.numbers, counts, strict=True):
            if not k:
                continue
            if runs and runs[-1][0] == h:
                runs[-1] = (h, runs[-1][1] + k)
            else:
                runs.append((h, k))
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
        counts = tuple(_draw(rng, c) for c in self.cdfs)
        phase = self.phases.get(counts)
        if phase is None:
            phase = self.phases[counts] = self._phase(counts)
        survive, added, macro, taken = phase
        fast, attack = self.fast, self.rest.attack
        dead = {i for i, q, _ in survive if _die(rng, q)}
        m = sum(w for i, _, w in survive if i in dead)
        if macro:
            before = ({i: v for i, v in taken.items() if i not in dead}
                      if attack.option("mw-spread") == "continue" else None)
            m += disrupt_markers(attack, [u for i, u in enumerate(fast.units) if i not in dead],
                                 [fast.hits[h] for h, k in macro for _ in range(k)])
            for i, q, w in fast.survival(fast.allocate(macro, dead, before)):
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
        return _simulated(_BarrageTrial(rest, groups, counts), rest.attack, key)
    dists = [Dist.binomial(c, g.chance) for c, g in zip(counts, groups, strict=True)]
    tally = Tally(rest.attack)

    def walk(i: int, weight: Fraction, hit: list[tuple[str, Hit]]) -> None:
        if i == len(groups):
            tally.add(weight, _phase_outcomes(_barrage_phase(rest, hit)))
            return
        for k, p in dists[i].items():
            walk(i + 1, weight * p, hit + [(u, groups[i].hit) for u in groups[i].members[:k]])
    walk(0, Fraction(1), list(rest.known))
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
