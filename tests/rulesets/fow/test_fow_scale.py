"""The work of the Flames of War allocation step at the declaration's limits, as counted by
the graph code (``referee.core.work``: ``fow.*``), not timed: the same assault costs the same
counts on any machine, so an accidental exponential (or a search per hit and team, as the
"Why there" column once ran) fails here deterministically.

The bounds follow from how the step works, not from a stopwatch:

* the proposal is one min-cost flow that pushes one hit per augmenting path, with one
  Dijkstra search each: ``hits`` augmentations and searches;
* the explanation builds at most two residual graphs (Bellman-Ford potentials, counted in
  rounds, at most ``nodes + 1`` each) and runs at most one Dijkstra search from each team in
  each: at most ``2 * (nodes + 1) + 2 * teams`` searches more, with no flow of its own;
* a search scans each arc of its graph at most once in each direction, so the arcs scanned
  stay within ``2 * arcs`` of the flow graph per search.

A completion search (the costly fallback for hits that only the vehicle order might force)
is bounded on an assault built to need it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee.core import work as counter
from referee.rulesets.fow.explain import Explanation
from referee.rulesets.fow.residual import groups_of
from referee.rulesets.fow.validate import Allocator
from tests.support.fow import problem
from tests.support.work import builders

MAX_DEFENDING, MAX_HITTING, MAX_HITS_PER_TEAM = builders.fow_limits()


class Work:
    """The allocation's work, as the graph code counted it."""

    def __init__(self, count: Counter[str]) -> None:
        self.searches = count["fow.searches"]  # shortest-path searches (Dijkstra, B-F rounds)
        self.arcs = count["fow.arcs"]  # arcs those searches scanned
        self.augmentations = count["fow.augmentations"]  # flow pushes along a path
        self.completions = count["fow.completions"]  # full completion searches


def allocation_step(decl: dict[str, Any]) -> tuple[Work, dict[str, int]]:
    """Propose, validate and explain the allocation of ``decl``: the work it took, and the
    sizes of its flow graph."""
    p, _ = problem(decl)
    with counter.counting() as count:
        allocator = Allocator(p)
        proposal = allocator.proposal
        assert allocator.check(proposal) is None
        explanation = Explanation(allocator, proposal)
        for hit in p.hits:
            explanation.why(hit.number)
    work = Work(count)
    groups, _ = groups_of(p)
    sizes = {"hits": len(p.hits), "teams": len(p.teams), "groups": len(groups),
             "arcs": len(groups) + sum(len(g.eligible) for g in groups) + len(p.teams)}
    return work, sizes


@pytest.mark.parametrize("reach", ["some", "most"])
def test_the_largest_declaration_is_allocated_and_explained_within_its_work_bound(
        reach: str) -> None:
    """60 hitting teams of 60 hits each over 60 defending teams, each hitting team reaching
    a few defending teams (forced hits, priority types, ignored hits) or nearly all of them
    (the densest flow graph)."""
    decl = builders.fow_assault(MAX_HITTING * MAX_HITS_PER_TEAM, MAX_DEFENDING,
                                MAX_HITTING, reach=reach)
    assert len(decl["hitting"]) == MAX_HITTING and len(decl["defending"]) == MAX_DEFENDING
    assert all(h["hits"] == MAX_HITS_PER_TEAM for h in decl["hitting"])
    work, size = allocation_step(decl)
    nodes = size["groups"] + size["teams"] + 1
    assert work.augmentations == size["hits"]
    assert work.completions == 0
    assert work.searches <= size["hits"] + 2 * (nodes + 1) + 2 * size["teams"]
    assert work.arcs <= 2 * size["arcs"] * work.searches


def test_completion_searches_stay_bounded_where_the_vehicle_order_may_force_hits() -> None:
    """200 hits from 60 teams over 60 defending teams (seeded so that the armour order is
    what may force some hits): each completion search costs one flow and an exchange search
    that tries a bounded number of load vectors."""
    work, size = allocation_step(builders.fow_assault(200, 60, 60, seed=4))
    nodes = size["groups"] + size["teams"] + 1
    assert 1 <= work.completions <= size["groups"]
    # the proposal, and per completion search the flow of its first completion and the flow
    # that hands out the completion it finds: at most one augmentation per hit each
    assert work.augmentations <= size["hits"] * (1 + 2 * work.completions)
    # each exchange search: up to 60 vectors tried, each with its residual graph and a
    # search from each team
    per_completion = size["hits"] + 60 * ((nodes + 1) + size["teams"])
    assert work.searches <= size["hits"] + 2 * (nodes + 1) + 2 * size["teams"] \
        + work.completions * per_completion
