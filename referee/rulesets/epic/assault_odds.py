"""The odds of an assault (issue 29): exact chances of its outcome from the attack dice to the
result roll (E-A4 to E-A10, E-W11), loaded only through ``OddsRef`` when odds are shown.

Each side's hits are the sum of its dice (independent binomials). The side that takes them
allocates them with the defaults a script takes (the even spread, war engines first, front
to back: ``allocation.legal_units``), each unit's fate follows from the chance one hit kills it
after every save it may take (``assault_facts.kill_chance``), normal hits before macro-weapon
hits, then the declared supporting fire on the survivors when the assault goes on. The two
sides' fates are independent, so the result roll's chances are summed over every pair of
fates: the early end (E-A7) or the highest of two dice plus the modifiers (E-A9). A tie's
further round is counted as a tie (E-X12). First strike makes each side's other dice depend
on the hits it took first (E-A16): the fates after the first strikes are worked out, then
each pair of them goes on as above. Beyond the exact budget the fates are simulated
(seeded, labelled approximate with their interval)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, LazyEndStates, OddsReport
from referee.rulesets.epic.allocation import HitKind, Target, legal_units
from referee.rulesets.epic.assault_facts import AssaultFacts, SideFact, UnitFact

STATE_BUDGET = 40_000  # fates of one side tracked exactly; beyond, the fates are simulated
RUNS = 1_000
MAX_OF_TWO = {m: Fraction(2 * m - 1, 36) for m in range(1, 7)}  # the higher of two dice
DIFF: dict[int, Fraction] = {}
for _a, _pa in MAX_OF_TWO.items():
    for _d, _pd in MAX_OF_TWO.items():
        DIFF[_a - _d] = DIFF.get(_a - _d, Fraction(0)) + _pa * _pd


class TooMany(Exception):
    """More fates than the exact budget: simulate instead."""


# -- one side's fate ------------------------------------------------------------------------
def _binomial_sum(dice: Iterable[tuple[int, Fraction]]) -> Dist:
    out = Dist.point(0)
    for n, p in dice:
        out = out + Dist.binomial(n, p)
    return out


@functools.lru_cache(maxsize=4096)
def _allocation(units: tuple[UnitFact, ...], alive: tuple[bool, ...], hits: int
                ) -> tuple[int, ...]:
    """How ``hits`` fall on the living engaged ``units`` with the defaults (E-10, E-W2)."""
    targets = [Target(u.key, u.key, u.type, 0.0 if u.contact else u.distance, u.order,
                      True, True, False, share=u.share, contact=u.contact)
               for u, a in zip(units, alive, strict=True) if a]
    taken: dict[str, int] = {}
    kind = HitKind("assault")
    for _ in range(hits):
        legal = legal_units(targets, kind, taken)
        if not legal:
            break
        taken[legal[0].key] = taken.get(legal[0].key, 0) + 1
    return tuple(taken.get(u.key, 0) for u in units)


def _signature(u: UnitFact) -> tuple[Any, ...]:
    """What tells a unit apart for its fate: alike units are interchangeable."""
    return (u.type, u.contact, u.distance, u.share, u.left, u.worth, u.fail, u.fail_mw,
            u.shields, u.inspiring, u.fearless)


def packs(units: Sequence[UnitFact], by_dice: bool = False
          ) -> tuple[tuple[UnitFact, int], ...]:
    """Engaged units in packs of alike ones (a war engine alone), in their listed order;
    ``by_dice``: alike in their dice to roll too (their survivors attack later)."""
    out: list[list[Any]] = []
    for u in units:
        for pack in out:
            if pack[0].share == 1 and u.share == 1 and _signature(pack[0]) == _signature(u) \
                    and (not by_dice or pack[0].dice == u.dice):
                pack[1] += 1
                break
        else:
            out.append([u, 1])
    return tuple((u, n) for u, n in out)


@functools.lru_cache(maxsize=8192)
def _spread(pk: tuple[tuple[UnitFact, int], ...], state: tuple[int, ...], hits: int
            ) -> tuple[tuple[tuple[int, int], ...], ...]:
    """How ``hits`` fall on each pack's living units: per pack, (hits, units) pairs."""
    virtual: list[UnitFact] = []
    owner: list[int] = []
    for i, ((u, n), lost) in enumerate(zip(pk, state, strict=True)):
        alive = n - lost if u.share == 1 else (1 if lost < u.left else 0)
        for j in range(alive):
            virtual.append(UnitFact(f"{i}.{j}", True, u.contact, u.distance, i * 100 + j,
                                    u.share, u.left, u.worth, u.fail, u.fail_mw, u.shields,
                                    (), u.inspiring, u.fearless, u.type, None))
            owner.append(i)
    got = _allocation(tuple(virtual), tuple(True for _ in virtual), hits)
    per: list[dict[int, int]] = [{} for _ in pk]
    for i, n in zip(owner, got, strict=True):
        if n:
            per[i][n] = per[i].get(n, 0) + 1
    return tuple(tuple(sorted(d.items())) for d in per)


def _pack_fates(u: UnitFact, lost: int, spread: tuple[tuple[int, int], ...],
                macro: bool) -> list[tuple[int, Fraction]]:
    """A pack's losses after its units take ``spread`` hits (a war engine: its points, void
    shields first, E-W9)."""
    if not spread:
        return [(lost, Fraction(1))]
    p = u.fail_mw if macro else u.fail
    if u.share > 1:
        hits = spread[0][0]
        hits -= min(u.shields, hits) if lost == 0 else 0
        out: dict[int, Fraction] = {}
        for k, q in Dist.binomial(hits, p).items():
            after = min(u.left, lost + k)
            out[after] = out.get(after, Fraction(0)) + q
        return list(out.items())
    deaths = Dist.point(0)
    for n, units in spread:
        deaths = deaths + Dist.binomial(units, 1 - (1 - p) ** n)
    return [(lost + k, q) for k, q in deaths.items()]


def _apply(pk: tuple[tuple[UnitFact, int], ...], states: dict[tuple[int, ...], Fraction],
           hits: Dist, macro: bool) -> dict[tuple[int, ...], Fraction]:
    if hits.high == 0:
        return states
    out: dict[tuple[int, ...], Fraction] = {}
    for state, p in states.items():
        for h, ph in hits.items():
            spread = _spread(pk, state, h)
            partial: dict[tuple[int, ...], Fraction] = {(): p * ph}
            for (u, _), lost, part in zip(pk, state, spread, strict=True):
                fates = _pack_fates(u, lost, part, macro)
                partial = {(*key, after): q * pf for key, q in partial.items()
                           for after, pf in fates}
            for key, q in partial.items():
                out[key] = out.get(key, Fraction(0)) + q
        if len(out) > STATE_BUDGET:
            raise TooMany
    return out


def _summary(pk: tuple[tuple[UnitFact, int], ...], idle: Sequence[UnitFact],
             state: tuple[int, ...]) -> tuple[int, int, int, bool, bool]:
    """(points lost, units left as worth, inspiring engaged alive, engaged alive, any
    alive) of a fate."""
    lost = sum(state)
    alive = [(u, (n - t) if u.share == 1 else int(t < u.left))
             for (u, n), t in zip(pk, state, strict=True)]
    worth = sum(u.worth * a for u, a in alive) + sum(u.worth for u in idle)
    engaged = any(a for _, a in alive)
    return (lost, worth, sum(a for u, a in alive if u.inspiring), engaged,
            engaged or bool(idle))


Fates = dict[tuple[int, int, int, bool, bool], tuple[Fraction, dict[Any, Fraction]]]


def fates(side: SideFact, normal: Dist, mw: Dist, support: Dist,
          begin: tuple[int, ...] | None = None,
          memo: dict[Any, dict[tuple[int, ...], Fraction]] | None = None) -> Fates:
    """The side's fates after taking ``normal`` then ``mw`` hits, each with its fates after
    the enemy's supporting fire too (used when the assault goes on, E-A8). ``begin``: the
    losses of each pack (packed by dice) before, after a first strike."""
    pk = packs([u for u in side.units if u.engaged], by_dice=begin is not None)
    idle = [u for u in side.units if not u.engaged]
    start = {begin if begin is not None else tuple(0 for _ in pk): Fraction(1)}
    main = _apply(pk, _apply(pk, start, normal, False), mw, True)
    out: Fates = {}
    for state, p in main.items():
        key = _summary(pk, idle, state)
        after = None if memo is None else memo.get(state)
        if after is None:  # the support's fates of a state: the same whatever led to it
            after = _apply(pk, {state: Fraction(1)}, support, False)
            if memo is not None:
                memo[state] = after
        prob, finals = out.get(key, (Fraction(0), {}))
        for s2, q in after.items():
            k2 = _summary(pk, idle, s2)
            finals[k2] = finals.get(k2, Fraction(0)) + p * q
        out[key] = (prob + p, finals)
    return out


# -- the result ------------------------------------------------------------------------------
def _mods(kills: int, worth: int, other_worth: int, markers: int, other_markers: int,
          inspiring: int) -> int:
    return (kills + int(worth > other_worth) + int(worth > 2 * other_worth) + int(markers == 0)
            + int(other_markers > markers) + inspiring)


@functools.lru_cache(maxsize=1024)
def _roll(a: int, d: int) -> tuple[Fraction, Fraction, Fraction]:
    """Chances the attacker wins, the defender wins, a tie, with modifiers ``a`` and ``d``."""
    win = sum((p for diff, p in DIFF.items() if diff > d - a), Fraction(0))
    tie = DIFF.get(d - a, Fraction(0))
    return win, 1 - win - tie, tie


def outcome(facts: AssaultFacts, hits: dict[str, tuple[Dist, Dist]]) -> dict[str, Fraction]:
    """The chances of the assault's end and the expected kills, exactly: ``hits[side]``
    are the (normal, macro) hits the side still takes from the enemy's dice."""
    a_side, d_side = facts.attacker, facts.defender
    fa = fates(a_side, *hits["attacker"], _binomial_sum(d_side.support))
    fd = fates(d_side, *hits["defender"], _binomial_sum(a_side.support))
    out = dict.fromkeys(("attacker", "defender", "tie", "kills_a", "kills_d"), Fraction(0))
    _ends(out, fa, fd, a_side, d_side, Fraction(1))
    return out


Joint = dict[tuple[Any, Any], Fraction]


def _ends(out: dict[str, Fraction], fa: Fates, fd: Fates, a_side: SideFact,
          d_side: SideFact, weight: Fraction) -> None:
    """Adds to ``out`` how the assault ends from each pair of the sides' fates, each pair's
    chance times ``weight``."""
    early: Joint = {}
    later: Joint = {}
    _pairs(fa, fd, weight, early, later)
    _settle(out, early, later, a_side, d_side)


def _pairs(fa: Fates, fd: Fates, weight: Fraction, early: Joint, later: Joint) -> None:
    """The chances of each pair of the sides' fates: ``early`` those that end the fight
    before supporting fire (E-A7), ``later`` the others, after it (E-A8)."""
    for ka, (pa, finals_a) in fa.items():
        for kd, (pd, finals_d) in fd.items():
            if (not kd[4] and ka[4]) or not ka[3]:
                early[(ka, kd)] = early.get((ka, kd), Fraction(0)) + weight * pa * pd
                continue
            for fa2, qa in finals_a.items():
                for fd2, qd in finals_d.items():
                    # each side's finals add up to its main fate's chance
                    later[(fa2, fd2)] = later.get((fa2, fd2), Fraction(0)) + weight * qa * qd


def _settle(out: dict[str, Fraction], early: Joint, later: Joint, a_side: SideFact,
            d_side: SideFact) -> None:
    """How each pair of fates ends: the early end (E-A7), or the result roll (E-A9)."""
    for (ka, kd), p in early.items():
        if not kd[4] and ka[4]:  # E-A7: the defenders wiped out
            _add(out, "attacker", p, ka, kd, a_side, d_side)
        else:  # E-A7: every engaged attacker down: stalled
            _add(out, "defender", p, ka, kd, a_side, d_side)
    for (fa2, fd2), q in later.items():
        if not fd2[4] and fa2[4]:
            _add(out, "attacker", q, fa2, fd2, a_side, d_side)
            continue
        if not fa2[4] and fd2[4]:
            _add(out, "defender", q, fa2, fd2, a_side, d_side)
            continue
        a = _mods(a_side.kills + fd2[0], fa2[1], fd2[1], a_side.markers, d_side.markers,
                  fa2[2])
        d = _mods(d_side.kills + fa2[0], fd2[1], fa2[1], d_side.markers, a_side.markers,
                  fd2[2])
        win, lose, tie = _roll(a, d)
        for key, chance in (("attacker", win), ("defender", lose), ("tie", tie)):
            _add(out, key, q * chance, fa2, fd2, a_side, d_side)


def _add(out: dict[str, Fraction], key: str, p: Fraction, a: tuple[Any, ...],
         d: tuple[Any, ...], a_side: SideFact, d_side: SideFact) -> None:
    out[key] += p
    out["kills_a"] += p * (a_side.kills + d[0])
    out["kills_d"] += p * (d_side.kills + a[0])


def _hits(side: SideFact) -> tuple[Dist, Dist]:
    normal = _binomial_sum((n, p) for n, p, fire in side.dice if fire != "mw")
    mw = _binomial_sum((n, p) for n, p, fire in side.dice if fire == "mw")
    return normal, mw


def chances(facts: AssaultFacts) -> tuple[dict[str, Fraction], int | None]:
    """The end's chances from ``facts``, exactly (runs ``None``) or simulated."""
    if facts.attacker.first_strike or facts.defender.first_strike:
        try:
            return first_strike(facts), None
        except TooMany:
            return simulate(facts), RUNS
    # each side takes the hits of the other's dice, or the hits it has rolled already
    hits = {"attacker": _hits(facts.defender), "defender": _hits(facts.attacker)}
    for side, n, m in facts.rolled:
        hits["defender" if side == "attacker" else "attacker"] = (Dist.point(n),
                                                                    Dist.point(m))
    try:
        return outcome(facts, hits), None
    except TooMany:
        return simulate(facts), RUNS


# -- first strike: the other dice depend on who survives it (E-A16) ----------------------------
PAIRS_BUDGET = 40  # pairs of the sides' fates after a first strike worked out exactly (32: ~90 ms)


def _phase_dice(pk: tuple[tuple[UnitFact, int], ...], state: tuple[int, ...],
                first: bool) -> tuple[tuple[tuple[Fraction, bool], int], ...]:
    """The living units' dice of a phase: (chance, macro) and how many."""
    groups: dict[tuple[Fraction, bool], int] = {}
    for (u, n), lost in zip(pk, state, strict=True):
        alive = n - lost if u.share == 1 else int(lost < u.left)
        for p, fire, fs in u.dice:
            if fs == first and alive:
                key = (p, fire == "mw")
                groups[key] = groups.get(key, 0) + alive
    return tuple(sorted(groups.items()))


def _phase_hits(pk: tuple[tuple[UnitFact, int], ...], state: tuple[int, ...],
                first: bool) -> tuple[Dist, Dist]:
    """The normal and macro hits of the living units' dice of a phase."""
    groups = _phase_dice(pk, state, first)
    return (_binomial_sum((n, p) for (p, mw), n in groups if not mw),
            _binomial_sum((n, p) for (p, mw), n in groups if mw))


def first_strike(facts: AssaultFacts) -> dict[str, Fraction]:
    """The end's chances exactly when first strike dice are still to roll: both sides'
    first strikes (or the hits already rolled), each side's fates after them, then for
    every pair of fates the survivors' other dice, as without first strike."""
    sides = {"attacker": facts.attacker, "defender": facts.defender}
    rolled = {s: (Dist.point(n), Dist.point(m)) for s, n, m in facts.rolled}
    pk = {s: packs([u for u in f.units if u.engaged], by_dice=True) for s, f in sides.items()}
    begin = {s: tuple(0 for _ in pk[s]) for s in sides}
    dealt = {s: rolled.get(s) or _phase_hits(pk[s], begin[s], True) for s in sides}
    after = {}
    for s in sides:
        normal, mw = dealt["defender" if s == "attacker" else "attacker"]
        after[s] = _apply(pk[s], _apply(pk[s], {begin[s]: Fraction(1)}, normal, False), mw,
                          True)
    if len(after["attacker"]) * len(after["defender"]) > PAIRS_BUDGET:
        raise TooMany
    support = {s: _binomial_sum(f.support) for s, f in sides.items()}
    out = dict.fromkeys(("attacker", "defender", "tie", "kills_a", "kills_d"), Fraction(0))
    # the dice each fate leaves to roll: fates that leave the same dice share their hits
    dice = {s: {st: _phase_dice(pk[s], st, False) for st in after[s]} for s in sides}
    hits = {s: {d: _phase_hits(pk[s], st, False) for st, d in dice[s].items()} for s in sides}
    early: Joint = {}
    later: Joint = {}
    memo: dict[str, dict[Any, dict[tuple[int, ...], Fraction]]] = {s: {} for s in sides}
    known: dict[Any, Fates] = {}

    def fates_of(side: str, state: tuple[int, ...], enemy: str, by: Any) -> Fates:
        key = (side, state, by)  # a side's fates: its state and the dice rolled at it
        if key not in known:
            known[key] = fates(sides[side], *hits[enemy][by], support[enemy], begin=state,
                               memo=memo[side])
        return known[key]

    for sa, pa in after["attacker"].items():
        for sd, pd in after["defender"].items():
            fa = fates_of("attacker", sa, "defender", dice["defender"][sd])
            fd = fates_of("defender", sd, "attacker", dice["attacker"][sa])
            _pairs(fa, fd, pa * pd, early, later)
    _settle(out, early, later, facts.attacker, facts.defender)
    return out


# -- simulated, when exact is out of reach ----------------------------------------------------
def simulate(facts: AssaultFacts, runs: int = RUNS) -> dict[str, Fraction]:
    """The same fates by a seeded simulation (first strike resolved first, as E-A16 says):
    each run allocates with the defaults and rolls every die and save, then the supporting
    fire when the assault goes on (E-A8)."""
    rng = random.Random(hash((len(facts.attacker.units), len(facts.defender.units),
                              facts.attacker.markers, facts.defender.markers)) & 0xFFFF)
    totals = dict.fromkeys(("attacker", "defender", "tie", "kills_a", "kills_d"), 0.0)
    spreads: dict[Any, tuple[int, ...]] = {}  # allocations met so far, by living units
    chances = _floats(facts)
    for _ in range(runs):
        end, ka, kd = _one_run(facts, chances, rng, spreads)
        totals[end] += 1
        totals["kills_a"] += ka
        totals["kills_d"] += kd
    return {k: Fraction(v / runs).limit_denominator(runs) for k, v in totals.items()}


Floats = tuple[dict[tuple[str, bool], float], dict[str, tuple[tuple[float, bool, bool], ...]],
               dict[str, tuple[tuple[int, float], ...]]]


def _floats(facts: AssaultFacts) -> Floats:
    """Each unit's chances, its dice (chance, macro, first strike) and each side's support
    dice as floats, once per simulation (its million comparisons)."""
    units = [u for s in (facts.attacker, facts.defender) for u in s.units]
    return ({(u.key, m): float(u.fail_mw if m else u.fail) for u in units for m in (False, True)},
            {u.key: tuple((float(p), fire == "mw", fs) for p, fire, fs in u.dice)
             for u in units},
            {s: tuple((n, float(p)) for n, p in facts.side(s).support)
             for s in ("attacker", "defender")})


def _one_run(facts: AssaultFacts, floats: Floats, rng: random.Random,
             spreads: dict[Any, tuple[int, ...]]) -> tuple[str, int, int]:
    state = {s: {u.key: 0 for u in facts.side(s).units} for s in ("attacker", "defender")}
    chance, dice, support = floats
    engaged = {s: tuple(u for u in facts.side(s).units if u.engaged)
               for s in ("attacker", "defender")}

    def take(side_name: str, n: int, macro: bool) -> None:
        if not n:
            return
        units = engaged[side_name]
        alive = tuple(state[side_name][u.key] < u.left for u in units)
        key = (side_name, alive, n)
        spread = spreads.get(key)
        if spread is None:
            spread = spreads[key] = _allocation(units, alive, n)
        for u, k in zip(units, spread, strict=True):
            if not k:
                continue
            fail = chance[(u.key, macro)]
            for _ in range(max(0, k - (u.shields if state[side_name][u.key] == 0 else 0))):
                if state[side_name][u.key] < u.left and rng.random() < fail:
                    state[side_name][u.key] += 1

    facts_first = facts.attacker.first_strike or facts.defender.first_strike

    def phase(first: bool) -> None:
        """Every living unit's dice of the phase, then each side takes the other's hits
        (simultaneous within the phase; first strike before the rest, E-A16)."""
        got: dict[str, tuple[int, int]] = {}
        rolled = {r[0]: (r[1], r[2]) for r in facts.rolled}
        for s in ("attacker", "defender"):
            if first == facts_first and s in rolled:  # this phase's hits already rolled
                got[s] = rolled[s]
                continue
            n = m = 0
            for u in facts.side(s).units:
                if state[s][u.key] >= u.left:
                    continue
                for p, macro, fs in dice[u.key]:
                    if fs == first and rng.random() < p:
                        m, n = (m + 1, n) if macro else (m, n + 1)
            got[s] = (n, m)
        for s in ("attacker", "defender"):
            other = "defender" if s == "attacker" else "attacker"
            take(other, got[s][0], False)
            take(other, got[s][1], True)

    def alive(s: str) -> bool:
        return any(state[s][u.key] < u.left for u in facts.side(s).units)

    def kills() -> tuple[int, int]:
        return (facts.attacker.kills + sum(state["defender"].values()),
                facts.defender.kills + sum(state["attacker"].values()))

    phase(True)
    phase(False)
    if not alive("defender") and alive("attacker"):  # E-A7: the defenders wiped out
        return "attacker", *kills()
    if not any(state["attacker"][u.key] < u.left for u in engaged["attacker"]):
        return "defender", *kills()  # E-A7: every engaged attacker down: stalled
    # E-A8: the assault goes on: each side's supporting fire, normal hits on the engaged
    fired = {s: sum(1 for n, p in support[s] for _ in range(n) if rng.random() < p)
             for s in ("attacker", "defender")}
    take("defender", fired["attacker"], False)
    take("attacker", fired["defender"], False)
    ka, kd = kills()
    if not alive("defender") and alive("attacker"):
        return "attacker", ka, kd
    if not alive("attacker") and alive("defender"):
        return "defender", ka, kd
    worth = {s: sum(u.worth for u in facts.side(s).units if state[s][u.key] < u.left)
             for s in state}
    insp = {s: sum(1 for u in facts.side(s).units
                   if u.inspiring and u.engaged and state[s][u.key] < u.left) for s in state}
    a = _mods(ka, worth["attacker"], worth["defender"], facts.attacker.markers,
              facts.defender.markers, insp["attacker"])
    d = _mods(kd, worth["defender"], worth["attacker"], facts.defender.markers,
              facts.attacker.markers, insp["defender"])
    diff = max(rng.randint(1, 6), rng.randint(1, 6)) - max(rng.randint(1, 6), rng.randint(1, 6))
    total = diff + a - d
    return ("attacker" if total > 0 else "defender" if total < 0 else "tie"), ka, kd


# -- the odds functions named by the resolver -------------------------------------------------
def _labels(names: dict[str, Any]) -> list[tuple[Msg, Kind]]:
    return [(Msg.of("epic.assault.odds.wins", side=names["attacker"]), Kind.CHANCE),
            (Msg.of("epic.assault.odds.wins", side=names["defender"]), Kind.CHANCE),
            (Msg.of("epic.assault.odds.tie"), Kind.CHANCE),
            (Msg.of("epic.assault.odds.kills", side=names["attacker"]), Kind.EXPECTED),
            (Msg.of("epic.assault.odds.kills", side=names["defender"]), Kind.EXPECTED)]


def end_states(facts: AssaultFacts, names: dict[str, Any]) -> tuple[EndState, ...]:
    values, runs = chances(facts)
    keys = ("attacker", "defender", "tie", "kills_a", "kills_d")
    return tuple(EndState(label, values[k], kind, runs, 0.5 if runs else None)
                 for (label, kind), k in zip(_labels(names), keys, strict=True))


class _Hits:
    """The hits of an actual roll of mixed values (``targets``: each die's, in order)."""

    def __init__(self, targets: Sequence[int]) -> None:
        self.targets = tuple(targets)

    def __call__(self, roll: DiceRoll) -> int:
        faces = roll.faces or ()
        return sum(1 for f, t in zip(faces, self.targets, strict=False) if f >= t)


def attack_dice(question: DiceQuestion, *, side: str, targets: tuple[int, ...],
                facts: Any) -> OddsReport:
    """A side's attack dice (E-A4): its hits, and how the assault may end."""
    groups: dict[int, int] = {}
    for t in targets:
        groups[t] = groups.get(t, 0) + 1
    dist = _binomial_sum((n, Fraction(7 - t, 6)) for t, n in groups.items())
    facts_, names = facts
    states = LazyEndStates([label for label, _ in _labels(names)],
                           lambda: end_states(facts_, names))
    return OddsReport(Msg.of("epic.assault.odds.title.attack", side=names[side],
                             count=len(targets)), Msg.of("epic.odds.unit.hits"), dist,
                      _Hits(targets), states)


def result_die(question: DiceQuestion, *, side: str, known: tuple[tuple[str, int], ...],
               facts: tuple[tuple[str, int], ...], names: dict[str, Any] | None = None
               ) -> OddsReport:
    """A side's result roll (E-A9): the higher of its two dice, and the chance it wins
    with its modifiers (``facts``) and the other side's die, when rolled (``known``)."""
    mods = dict(facts)
    dist = Dist({m: p for m, p in MAX_OF_TWO.items()})
    other = "defender" if side == "attacker" else "attacker"
    theirs = dict(known).get(other)
    them = Dist.point(theirs) if theirs is not None else Dist(dict(MAX_OF_TWO))
    win = tie = Fraction(0)
    for m, p in MAX_OF_TWO.items():
        for t, q in them.items():
            mine, their = m + mods[side], t + mods[other]
            if mine > their:
                win += p * q
            elif mine == their:
                tie += p * q
    label = names[side] if names else Msg.of(f"epic.assault.side.{side}")
    states = (EndState(Msg.of("epic.assault.odds.wins", side=label), win),
              EndState(Msg.of("epic.assault.odds.tie"), tie))
    return OddsReport(Msg.of("epic.assault.odds.title.result", side=label),
                      Msg.of("epic.assault.odds.unit.highest"), dist,
                      lambda roll: max(roll.faces or (1,)), states)


def highest(question: DiceQuestion, *, label: Msg | str) -> OddsReport:
    """A roll where the higher of two dice counts (a regroup, E-T5): its distribution."""
    return OddsReport(Msg.of("epic.assault.odds.title.highest", what=label),
                      Msg.of("epic.assault.odds.unit.highest"), Dist(dict(MAX_OF_TWO)),
                      lambda roll: max(roll.faces or (1,)))
