"""Flames of War allocation, checked against brute force on random small scenarios.

The brute force enumerates every allocation of every hit to an eligible team and applies the
definition directly: the legal allocations are those with the best score (evenness with the
tiers, F-3 to F-5 and F-X8, then priority types, F-8 and F-X4), among which no load vector of
equal score takes a hit off a vehicle onto one that comes first (``Problem.precedes``: lower
Top armour, F-6 and F-X3; functioning before stopped under the F-X2 summary reading).
It shares the definition of the score with the referee, not the search: the solver (a
min-cost flow), the validator (alternating paths, load-constrained flows) and the hit-by-hit
options (completions) are all checked against it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rulesets.fow.flow import loads, max_matching
from referee.rulesets.fow.problem import Hit, Problem, Readings, Team
from referee.rulesets.fow.validate import Allocator

Allocation = dict[int, str]


def _key(a: Mapping[int, str]) -> tuple[tuple[int, str], ...]:
    return tuple(sorted(a.items()))


def brute_force(problem: Problem) -> tuple[list[Allocation], set[tuple[tuple[int, str], ...]]]:
    """Every allocation, and the keys of the legal ones, by the definition."""
    numbers = [h.number for h in problem.hits]
    every = [dict(zip(numbers, combo, strict=True))
             for combo in itertools.product(*(h.eligible for h in problem.hits))]
    best = min(problem.score(a) for a in every)
    optimal = [a for a in every if problem.score(a) == best]
    vectors = {frozenset(loads(a).items()) for a in optimal}
    legal = set()
    for a in optimal:
        held = loads(a)
        improvable = False
        for t in problem.teams:
            j = held.get(t.id, 0)
            if j == 0:
                continue
            for u in problem.teams:
                if problem.precedes(u, t, j) is None:
                    continue
                moved = dict(held)
                moved[t.id] -= 1
                moved[u.id] = moved.get(u.id, 0) + 1
                if frozenset((k, v) for k, v in moved.items() if v) in vectors:
                    improvable = True
        if not improvable:
            legal.add(_key(a))
    return every, legal


@st.composite
def scenarios(draw: st.DrawFn, max_hits: int = 5) -> Problem:
    count = draw(st.integers(1, 4))
    teams = []
    for i in range(count):
        kind = draw(st.sampled_from(["tank", "infantry", "gun", "transport"]))
        vehicle = kind in ("tank", "transport")
        top = draw(st.sampled_from([None, 0, 1, 2])) if vehicle else None
        status = draw(st.sampled_from(["active", "bogged-down"])) if vehicle else "active"
        teams.append(Team(f"t{i}", f"T{i}", kind, status, top))
    ids = [t.id for t in teams]
    hits = []
    for n in range(1, draw(st.integers(1, max_hits)) + 1):
        eligible = draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
        priority = draw(st.sampled_from([None, None, "tank", "infantry", "gun"]))
        hits.append(Hit(n, f"a{n % 2}", tuple(sorted(eligible)), priority))
    readings = Readings(tiers=draw(st.sampled_from(["three-tiers", "bogged-last"])),
                        armour_every_round=draw(st.booleans()),
                        priority_first=draw(st.booleans()),
                        stopped_wait=draw(st.sampled_from(["all-other-teams",
                                                           "functioning-vehicles"])))
    return Problem(tuple(teams), tuple(hits), readings)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_F3_FX6_solver_allocation_is_legal_and_hits_the_most_distinct_teams(p: Problem) -> None:
    every, legal = brute_force(p)
    proposal = Allocator(p).proposal
    assert _key(proposal) in legal
    if not p.readings.priority_first:
        assert len(set(proposal.values())) == max_matching([h.eligible for h in p.hits])
        assert len(set(proposal.values())) == max(len(set(a.values())) for a in every)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_F3_F4_F5_F6_F8_validator_agrees_with_brute_force(p: Problem) -> None:
    """No legal allocation rejected, no illegal one accepted."""
    every, legal = brute_force(p)
    allocator = Allocator(p)
    for a in every:
        verdict = allocator.check(a)
        assert (verdict is None) == (_key(a) in legal), (a, verdict)


@settings(max_examples=150, deadline=None)
@given(scenarios(max_hits=4), st.randoms(use_true_random=False))
def test_F1_hit_by_hit_offers_exactly_the_teams_that_keep_a_legal_allocation_possible(
        p: Problem, rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    _, legal = brute_force(p)
    allocator = Allocator(p)
    chosen: Allocation = {}
    for hit in p.hits:
        offered = allocator.options(chosen, hit.number)
        possible = {dict(k)[hit.number] for k in legal
                    if all(dict(k)[n] == t for n, t in chosen.items())}
        assert set(offered) == possible
        for team_id, completion in offered.items():
            assert _key(completion) in legal and completion[hit.number] == team_id
        chosen[hit.number] = rnd.choice(sorted(offered))
    assert _key(chosen) in legal
