"""The odds at the whole assault's dice (docs/rules/flames-of-war-assault.md): the chance
defensive fire stops the charge (F-A6), and the chance the side that hits wins the round: the
other side has no team left able to fight (F-A17), or every one of its platoons fails the
counterattack test (F-A18, F-A21) or must break off (F-A26).

Imported only when odds are shown (through the ``OddsRef`` of a dice question). Every number is
exact (fractions): dice are independent, each team's result depends only on the hits it holds,
and the counterattack test is one die for every platoon.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport

SIDES = 6


def at_least(score: int) -> Fraction:
    """One die reaching ``score``."""
    return Fraction(max(0, min(SIDES, SIDES + 1 - score)), SIDES)


def defensive_fire(question: DiceQuestion, *, threshold: int, counting: str) -> OddsReport:
    """The hits of defensive fire, and the chance they stop the charge (F-A6). ``counting``:
    ``all`` (every hit counts), ``tanks`` (a platoon of Tank teams: only a tank destroyed or
    bailed out stops it, which the players' results decide) or ``mixed`` (the hits on Tank
    teams do not count, and the charging player spreads them later)."""
    spec = question.spec
    assert spec.target is not None
    dist = Dist.binomial(spec.count, at_least(spec.target))
    ends: list[EndState] = []
    notes = [Msg.of("fow.odds.df.note.threshold", threshold=threshold)]
    if counting == "all":
        stopped = dist.at_least(threshold)
        ends = [EndState(Msg.of("fow.odds.df.end.stopped"), stopped),
                EndState(Msg.of("fow.odds.df.end.goes_in"), 1 - stopped)]
    else:
        notes.append(Msg.of(f"fow.odds.df.note.{counting}"))
    return OddsReport(Msg.of("fow.odds.df.title", dice=spec.count, score=spec.target),
                      Msg.of("fow.odds.df.unit"), dist, end_states=tuple(ends),
                      notes=tuple(notes))


def motivation(question: DiceQuestion, *, ratings: tuple[tuple[str, int], ...],
               rerolls: tuple[str, ...] = ()) -> OddsReport:
    """The counterattack test (F-A18): one die for every platoon; each passes on its
    rating, a platoon in ``rerolls`` with one more die if it fails (F-A20). The chance each
    passes, and that all fail (the other side wins the round)."""
    dist = Dist({face: Fraction(1, SIDES) for face in range(1, SIDES + 1)})
    ends = []
    for name, score in ratings:
        fail = 1 - at_least(score)
        chance = 1 - fail * fail if name in rerolls else 1 - fail
        ends.append(EndState(Msg.of("fow.odds.morale.end.passes", platoon=name), chance))
    all_fail = Fraction(0)
    for v in range(1, SIDES + 1):
        if any(v >= score for _, score in ratings):
            continue
        again = [score for name, score in ratings if name in rerolls]
        all_fail += Fraction(1, SIDES) * (1 - at_least(min(again)) if again else 1)
    ends.append(EndState(Msg.of("fow.odds.morale.end.all_fail"), all_fail))
    return OddsReport(Msg.of("fow.odds.morale.title"), Msg.of("fow.odds.morale.unit"), dist,
                      measure=lambda roll: (roll.faces or (0,))[0], end_states=tuple(ends))


@functools.cache
def hit_chances(top: int, anti_tank: int, firepower: int, glancing: str
                ) -> tuple[Fraction, Fraction, Fraction]:
    """One assault hit on a vehicle (F-A12, F-A13): the chance it does not bounce, destroys
    and bails out."""
    from referee.rulesets.fow.outcomes import hit_result
    from referee.rulesets.fow.results import save_outcome

    fp = at_least(firepower)
    failed = destroyed = bailed = Fraction(0)
    for face in range(1, SIDES + 1):
        save = save_outcome(face, top, anti_tank)
        if save == "bounced":
            continue
        failed += Fraction(1, SIDES)
        for passed, chance in ((True, fp), (False, 1 - fp)):
            result = hit_result(save, passed, glancing)
            if result == "destroyed":
                destroyed += chance / SIDES
            elif result == "bailed-out":
                bailed += chance / SIDES
    return failed, destroyed, bailed


def team_chances(top: int, hits: Sequence[tuple[int, int]], glancing: str
                 ) -> tuple[Fraction, Fraction]:
    """A vehicle holding ``hits`` (anti-tank, firepower each): the chance it ends destroyed,
    and bailed out (its worst outcome, F-A13)."""
    none_worse = Fraction(1)  # no hit destroys it
    no_effect = Fraction(1)  # no hit destroys or bails it out
    for anti_tank, firepower in hits:
        _, destroyed, bailed = hit_chances(top, anti_tank, firepower, glancing)
        none_worse *= 1 - destroyed
        no_effect *= 1 - destroyed - bailed
    return 1 - none_worse, none_worse - no_effect


def save(question: DiceQuestion, *, team: str, top: int, anti_tanks: tuple[int, ...],
         firepowers: tuple[int, ...], glancing: str) -> OddsReport:
    """A vehicle's assault saves (F-A12): how many fail, and how the vehicle ends."""
    failing = [hit_chances(top, at, fp, glancing)[0] for at, fp in zip(anti_tanks, firepowers,
                                                                       strict=True)]
    dist = Dist.point(0)
    for chance in failing:
        dist = dist + Dist.binomial(1, chance)
    destroyed, bailed = team_chances(top, list(zip(anti_tanks, firepowers, strict=True)),
                                     glancing)
    ends = (EndState(Msg.of("fow.odds.save.end.destroyed", team=team), destroyed),
            EndState(Msg.of("fow.odds.save.end.bailed", team=team), bailed),
            EndState(Msg.of("fow.odds.save.end.none", team=team), 1 - destroyed - bailed))

    def measure(roll: Any) -> int:
        from referee.rulesets.fow.results import save_outcome

        faces = roll.faces or ()
        return sum(1 for face, at in zip(faces, anti_tanks, strict=False)
                   if save_outcome(face, top, at) != "bounced")

    return OddsReport(Msg.of("fow.odds.save.title", team=team, count=len(anti_tanks), top=top),
                      Msg.of("fow.odds.save.unit"), dist, measure=measure, end_states=ends,
                      notes=(Msg.of("fow.odds.save.note"),))


# --- a round's roll to hit: the chance to win the round ------------------------------------

EXACT_VECTORS = 150  # sets of hits a step evaluates exactly (each an allocation solved)
RUNS = 200  # beyond it: seeded sets of hits, each evaluated exactly (once: cached)


class _Round:
    """One round of an assault as the odds see it: which teams may hit, which are hit, and
    what each set of hits does (the referee's proposed allocation, then each team's
    results: F-A10 to F-A16)."""

    def __init__(self, fight: Any, status: Mapping[str, str], hitters: Sequence[str],
                 targets: Sequence[str], reach: Mapping[str, tuple[str, ...]] | None,
                 options: Mapping[str, Any], in_fight: Sequence[str]) -> None:
        self.fight = fight
        self.status = dict(status)
        self.hitters = [fight.team(t) for t in hitters]
        self.targets = [fight.team(t) for t in targets]
        self.reach = reach
        self.options = options
        self.platoons = [p for p in fight.platoons if p.name in set(in_fight)]
        self._every: Any = None  # the problem where every team hits, built once
        self._patterns: Counter[tuple[bool, ...]] | None = None

    def every(self) -> Any:
        """The allocation problem where every hitting team hits once, and each team's
        reach: a set of hits is a part of its hits (F-2, F-9 to F-13 do not change)."""
        if self._every is None:
            from referee.rulesets.fow import melee
            from referee.rulesets.fow.allocate import readings
            from referee.rulesets.fow.eligibility import build

            decl = melee.allocation(self.fight, self.status, {h.id: 1 for h in self.hitters},
                                    self.hitters, self.targets, self.reach)
            order, escorts = readings(self.options)
            self._every = build(decl, order, escorts)
        return self._every

    def out_before(self, team: Any) -> bool:
        return team.hitter is None or self.status[team.id] == "bailed-out"

    def evaluate(self, hits: Mapping[str, int]
                 ) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
        """For one set of hits: each target's chance to be destroyed, and to be out of the
        fight (destroyed or bailed out, or out already)."""
        from referee.rulesets.fow.outcomes import ratings_of, without_save
        from referee.rulesets.fow.problem import Problem
        from referee.rulesets.fow.validate import Allocator

        every, _, source = self.every()
        chosen = tuple(h for h in every.hits if hits.get(source[h.number]))
        allocation = (Allocator(Problem(every.teams, chosen, every.readings)).proposal
                      if chosen else {})
        held: dict[str, list[tuple[int, int]]] = {}
        for number, team_id in allocation.items():
            r = ratings_of(self.fight.team(source[number]), self.options)
            held.setdefault(team_id, []).append((r.anti_tank, r.firepower))
        destroyed: dict[str, Fraction] = {}
        out: dict[str, Fraction] = {}
        glancing = str(self.options["glancing-hit"])
        for t in self.targets:
            before = Fraction(int(self.out_before(t)))
            if t.id not in held:
                destroyed[t.id], out[t.id] = Fraction(0), before
            elif without_save(t, self.status[t.id], self.options) is not None:
                destroyed[t.id], out[t.id] = Fraction(1), Fraction(1)
            else:
                d, b = team_chances(t.top, held[t.id], glancing)
                destroyed[t.id], out[t.id] = d, max(before, d + b)
        return destroyed, out

    def win(self, destroyed: Mapping[str, Fraction], out: Mapping[str, Fraction],
            scored: int) -> Fraction:
        """F-A17 to F-A21, F-A26: the chance the side that hit wins the round: every platoon
        of the other side fails its test (with its re-roll), has no team left able to fight,
        or must break off because an unarmoured tank team of it is left (F-A26); the
        platoons that pass and may stay choosing to counterattack. Each team's result
        depends only on its own hits, so a platoon's chances are products."""
        from referee.rulesets.fow.ratings import motivation_test

        leaves = {}  # each platoon's chance not to stay, should it pass
        for p in self.platoons:
            others, unarmoured = Fraction(1), Fraction(1)
            for t in self.targets:
                if t.platoon != p.name or self.out_before(t):
                    continue
                if t.kind == "tank" and t.top is None:
                    unarmoured *= destroyed[t.id]
                else:
                    others *= out[t.id]
            leaves[p.name] = 1 - unarmoured * (1 - others)
        if scored == 0:  # F-A19: every platoon counts as passed
            patterns: Counter[tuple[bool, ...]] = Counter({(True,) * len(self.platoons): 1})
            throws = 1
        else:
            if self._patterns is None:  # which platoons pass, for each first die and re-roll
                found: Counter[tuple[bool, ...]] = Counter()
                for v in range(1, SIDES + 1):
                    for w in range(1, SIDES + 1):
                        found[tuple(v >= motivation_test(p.motivation) or (
                            p.reroll and w >= motivation_test(p.motivation))
                            for p in self.platoons)] += 1
                self._patterns = found
            patterns, throws = self._patterns, SIDES * SIDES
        total = Fraction(0)
        for passing, count in patterns.items():
            chance = Fraction(count, throws)
            for p, passes in zip(self.platoons, passing, strict=True):
                if passes:
                    chance *= leaves[p.name]
            total += chance
        return total


def assault_round(question: DiceQuestion, *, scores: tuple[tuple[str, int], ...],
                  fight: Any, status: tuple[tuple[str, str], ...], hitters: tuple[str, ...],
                  targets: tuple[str, ...], reach: tuple[tuple[str, tuple[str, ...]], ...] | None,
                  options: tuple[tuple[str, Any], ...], in_fight: tuple[str, ...]
                  ) -> OddsReport:
    """A round's roll to hit (F-A9): the hits it may score, and how the round may end: the
    chance the side that hits wins it, each target's chance to be destroyed, and the
    teams destroyed expected. Exact over every set of hits up to ``EXACT_VECTORS`` distinct
    sets (teams alike in score, reach and ratings are counted together); beyond it, seeded
    sets of hits, each evaluated exactly."""
    by_score = dict(scores)
    chances = [at_least(by_score[h]) for h in hitters]
    dist = Dist.point(0)
    for chance in chances:
        dist = dist + Dist.binomial(1, chance)
    rnd = _Round(fight, dict(status), hitters, targets, None if reach is None else dict(reach),
                 dict(options), in_fight)
    groups = _groups(rnd, by_score)
    side = fight.side_name(fight.team(hitters[0]).side)
    labels = [Msg.of("fow.odds.round.end.win", side=side)]
    labels += [Msg.of("fow.odds.round.end.destroyed", team=t.name) for t in rnd.targets]
    labels.append(Msg.of("fow.odds.round.end.expected"))

    def compute() -> tuple[EndState, ...]:
        return _round_states(rnd, groups, labels, question.id)

    from referee.odds.report import LazyEndStates

    def measure(roll: Any) -> int:
        faces = roll.faces or ()
        return sum(1 for h, face in zip(hitters, faces, strict=False) if face >= by_score[h])

    return OddsReport(Msg.of("fow.odds.round.title", side=side, teams=len(hitters)),
                      Msg.of("fow.odds.round.unit"), dist, measure=measure,
                      end_states=LazyEndStates(labels, compute),
                      notes=(Msg.of("fow.odds.round.note.proposal"),
                             Msg.of("fow.odds.round.note.counterattack")))


def _groups(rnd: _Round, scores: Mapping[str, int]) -> list[tuple[list[str], list[Fraction]]]:
    """The hitting teams in classes whose hits are alike once scored (the same reach, type,
    priority and ratings: the allocation and the results cannot tell them apart), each with
    the chance of each number of hits it scores (its teams' scores may differ)."""
    from referee.rulesets.fow.outcomes import ratings_of

    _, reaches, _ = rnd.every()
    eligible = {r.hitter.id: r.eligible for r in reaches}
    by_key: dict[Any, list[str]] = {}
    for h in rnd.hitters:
        key = (eligible[h.id], h.hitter, h.fully_armoured, h.priority,
               ratings_of(h, rnd.options))
        by_key.setdefault(key, []).append(h.id)
    out = []
    for ids in by_key.values():
        counts = Dist.point(0)
        for h in ids:
            counts = counts + Dist.binomial(1, at_least(scores[h]))
        out.append((ids, [counts[c] for c in range(len(ids) + 1)]))
    return out


def _round_states(rnd: _Round, groups: Sequence[tuple[list[str], list[Fraction]]],
                  labels: Sequence[Msg], key: str) -> tuple[EndState, ...]:
    import bisect
    import itertools
    from math import prod

    def outcome(counts: tuple[int, ...]) -> list[Fraction]:
        hits = {h: int(i < c) for (ids, _), c in zip(groups, counts, strict=True)
                for i, h in enumerate(ids)}
        destroyed, out = rnd.evaluate(hits)
        win = rnd.win(destroyed, out, sum(counts))
        return [win, *(destroyed[t.id] for t in rnd.targets), sum(destroyed.values(),
                                                                  Fraction(0))]

    sizes = [len(ids) for ids, _ in groups]
    kinds = [Kind.CHANCE] * (len(labels) - 1) + [Kind.EXPECTED]
    if prod(n + 1 for n in sizes) <= EXACT_VECTORS:
        totals = [Fraction(0)] * len(labels)
        for counts in itertools.product(*(range(n + 1) for n in sizes)):
            weight = prod(chances[c] for (_, chances), c in zip(groups, counts, strict=True))
            if not weight:
                continue
            for i, x in enumerate(outcome(counts)):
                totals[i] += weight * x
        return tuple(EndState(label, value, kind)
                     for label, value, kind in zip(labels, totals, kinds, strict=True))
    from referee.odds.simulate import simulate_many

    cache: dict[tuple[int, ...], list[float]] = {}

    cumulative = [list(itertools.accumulate(float(c) for c in chances))
                  for _, chances in groups]

    def trial(rng: Any) -> list[float]:
        counts = tuple(bisect.bisect(cum, rng.random() * cum[-1]) for cum in cumulative)
        if counts not in cache:
            cache[counts] = [float(x) for x in outcome(counts)]
        return cache[counts]

    return simulate_many(trial, key, list(zip(labels, kinds, strict=True)), runs=RUNS)
