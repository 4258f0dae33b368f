"""Completions: a legal allocation that keeps some hits where they are, for the hit-by-hit
questions (F-1: which teams the next hit may go to) and the "Why there" column.

The solver's allocation with those hits fixed settles evenness and priority types (F-3 to F-5,
F-8). When it breaks the vehicle order (F-6, F-4 under the F-X2 summary reading) only because
a fixed hit blocks the better move, the other load vectors of the same score are searched by
single exchanges; each is a flow of groups of hits (``residual``), and whether an exchange
keeps the score is a shortest path in its residual graph.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from referee.core import work
from referee.rulesets.fow.flow import loads
from referee.rulesets.fow.problem import Problem, Team
from referee.rulesets.fow.residual import Group, Residual, counts_of, groups_of
from referee.rulesets.fow.solver import allocate_with_loads


class Allocating(Protocol):
    """What the completion searches read of their allocator (``validate.Allocator``)."""

    problem: Problem

    @property
    def proposal(self) -> dict[int, str]: ...

    @property
    def best_score(self) -> tuple[int, int]: ...

    @property
    def groups(self) -> tuple[tuple[Group, ...], dict[int, int]]: ...

    @property
    def vehicles(self) -> list[Team]: ...

    def solved(self, fixed: Mapping[int, str]) -> dict[int, str] | None: ...

    def check(self, allocation: Mapping[int, str]) -> object | None:
        """``None`` when ``allocation`` is legal (else what it breaks)."""

    def vehicle_move(self, held: Mapping[str, int], residual: Callable[[], Residual]
                     ) -> tuple[Team, Team, str] | None: ...

    def before(self, t: Team, j: int) -> list[tuple[Team, str]]: ...


class Completions:
    """The completion searches of one ``Allocator`` (they share what they learn: which load
    vectors keep the vehicle order)."""

    def __init__(self, allocator: Allocating) -> None:
        self.allocator = allocator
        self.problem = allocator.problem
        self._legal: dict[frozenset[tuple[str, int]], bool] = {}

    def legal(self, fixed: Mapping[int, str], limit: int = 60) -> dict[int, str] | None:
        """A legal allocation that keeps the hits in ``fixed`` where they are, or ``None``.

        The cheapest completion settles evenness and priority types; when it breaks the
        Top-armour order only because a fixed hit blocks the better move, the other load
        vectors of equal score are searched by single exchanges (same round, same tier) that
        move a hit on or off an armoured vehicle, up to ``limit`` vectors. The search only
        ever returns a legal allocation; on table-top sizes it finds one whenever one exists
        (checked against brute force in the tests)."""
        problem = self.problem
        work.add("fow.completions")
        first = self.allocator.solved(fixed)
        if first is None or problem.score(first) != self.allocator.best_score:
            return None
        if self.allocator.check(first) is None:
            return first
        wanted = self._exchange_search(fixed, first, limit)
        if wanted is None:
            return None
        found = allocate_with_loads(problem, wanted,
                                    problem.off_priority(self.allocator.proposal), fixed)
        assert found is not None and self.allocator.check(found) is None
        return found

    def _exchange_search(self, fixed: Mapping[int, str], first: Mapping[int, str],
                         limit: int) -> dict[str, int] | None:
        """The search of ``legal`` over load vectors: breadth first from the
        loads of ``first`` (a completion of the best score that breaks the vehicle order),
        by single exchanges (same round, same tier) that move a hit on or off a vehicle,
        until ``limit`` vectors were tried; the first legal one, or ``None``. Each vector is
        a flow of groups of hits (the fixed hits in groups of their own); an exchange from
        ``a`` to ``b`` keeps the score and the fixed hits exactly when the residual graph
        leads from ``a`` to ``b`` at no cost in priority types."""
        problem = self.problem
        groups, group_of = groups_of(problem, fixed)
        start = loads(first)
        seen = {frozenset(start.items())}
        queue = [(start, counts_of(groups, group_of, first))]
        while queue and len(seen) < limit:
            held, counts = queue.pop(0)
            graph: Residual | None = None
            for a in problem.teams:
                ja = held.get(a.id, 0)
                if ja == 0:
                    continue
                reach: set[str] | None = None
                for b in problem.teams:
                    if b.id == a.id or not (a.is_vehicle or b.is_vehicle):
                        continue
                    if problem.rank(b, held.get(b.id, 0) + 1) != problem.rank(a, ja):
                        continue
                    wanted = dict(held)
                    wanted[a.id] -= 1
                    wanted[b.id] = wanted.get(b.id, 0) + 1
                    wanted = {k: v for k, v in wanted.items() if v}
                    key = frozenset(wanted.items())
                    if key in seen:
                        continue
                    seen.add(key)
                    if reach is None:
                        graph = graph or Residual(problem, groups, counts, evenness=False)
                        reach = graph.free_teams(a.id)
                    if b.id not in reach:
                        continue
                    assert graph is not None
                    moved = graph.shifted(a.id, b.id)
                    if self._legal_loads(key, groups, moved):
                        return wanted
                    queue.append((wanted, moved))
        return None

    def _legal_loads(self, key: frozenset[tuple[str, int]], groups: tuple[Group, ...],
                     counts: list[dict[str, int]]) -> bool:
        """Whether loads ``key``, of an allocation of the best score given as ``counts`` of
        ``groups``, keep the vehicle order (legality depends on the loads alone)."""
        if key not in self._legal:
            natural, group_of = self.allocator.groups
            merged: list[dict[str, int]] = [{} for _ in natural]
            for group, share in zip(groups, counts, strict=True):
                homes = {group_of[number] for number in group.numbers}
                if len(homes) == 1:
                    into = merged[homes.pop()]
                    for team_id, k in share.items():
                        into[team_id] = into.get(team_id, 0) + k
                    continue
                # fixed hits of several groups, all on their one team: each goes home
                (team_id,) = group.eligible
                for number in group.numbers:
                    into = merged[group_of[number]]
                    into[team_id] = into.get(team_id, 0) + 1
            held = dict(key)
            self._legal[key] = not self._direct_move(held, natural, merged) and \
                self.allocator.vehicle_move(held, lambda: Residual(self.problem, natural, merged,
                                                          evenness=False)) is None
        return self._legal[key]

    def _direct_move(self, held: Mapping[str, int], groups: tuple[Group, ...],
                     counts: list[dict[str, int]]) -> bool:
        """A quick look for the commonest move ``Allocator.vehicle_move`` finds: one hit that could
        itself go from a vehicle to one that comes first, at no cost in priority types."""
        problem = self.problem
        on: dict[str, list[int]] = {}
        for g, share in enumerate(counts):
            for team_id in share:
                on.setdefault(team_id, []).append(g)
        for t in self.allocator.vehicles:
            j = held.get(t.id, 0)
            if j == 0:
                continue
            for u, _ in self.allocator.before(t, j):
                if problem.rank(u, held.get(u.id, 0) + 1) != problem.rank(t, j):
                    continue
                for g in on.get(t.id, ()):
                    group = groups[g]
                    if u.id in group.eligible and (group.priority is None
                                                   or u.kind == group.priority
                                                   or t.kind != group.priority):
                        return True
        return False
