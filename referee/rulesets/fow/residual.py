"""An allocation as a flow of groups of hits, and shortest paths in its residual graph.

Hits with the same eligible teams and the same priority type are interchangeable (a
*group*): what matters of an allocation is how many hits of each group sit on each team. A
change of the allocation is then a walk in the *residual graph*: ``g -> t`` puts one more hit
of group ``g`` on team ``t``, ``t -> g`` takes one off; ``t -> sink`` lets ``t`` hold one hit
more, ``sink -> t`` one fewer. Each arc costs what the step changes in the allocation's score
(``Problem.score``): the rank weight of the hit a team gains or loses (evenness and tiers,
F-3 to F-5, F-X8) and the hits moved off or onto their priority type (F-8), weighted in the
order F-X4 gives them.

An allocation of the best score has no cycle of negative cost, so one Bellman-Ford pass gives
potentials under which every arc costs at least zero, and Dijkstra then finds, from one team,
the cheapest way to reach every other node: how much worse the best allocation that moves a
hit onto that team must be (zero: as good), and which teams gain and lose a hit on the way.
The searches count their work (``referee.core.work``: ``fow.searches``, ``fow.arcs``).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from referee.core import work
from referee.rulesets.fow.problem import Problem


@dataclass(frozen=True)
class Group:
    """Interchangeable hits: the same eligible teams and the same priority type."""

    eligible: tuple[str, ...]
    priority: str | None
    numbers: tuple[int, ...]


def groups_of(problem: Problem, fixed: Mapping[int, str] | None = None
              ) -> tuple[tuple[Group, ...], dict[int, int]]:
    """The groups of ``problem``'s hits (in the order of their first hit), and each hit
    number's group. A hit in ``fixed`` may go to its fixed team only (as in the solver)."""
    fixed = fixed or {}
    numbers: dict[tuple[tuple[str, ...], str | None], list[int]] = {}
    for hit in problem.hits:
        allowed = (fixed[hit.number],) if hit.number in fixed else hit.eligible
        numbers.setdefault((allowed, hit.priority), []).append(hit.number)
    groups = tuple(Group(e, p, tuple(n)) for (e, p), n in numbers.items())
    return groups, {n: g for g, group in enumerate(groups) for n in group.numbers}


def counts_of(groups: tuple[Group, ...], group_of: Mapping[int, int],
              allocation: Mapping[int, str]) -> list[dict[str, int]]:
    """How many hits of each group ``allocation`` puts on each team."""
    counts: list[dict[str, int]] = [{} for _ in groups]
    for number, team_id in allocation.items():
        share = counts[group_of[number]]
        share[team_id] = share.get(team_id, 0) + 1
    return counts


@dataclass(frozen=True)
class Path:
    """The cheapest change found: its cost in evenness and in priority types, and the teams
    that gain and lose a hit (``None`` where the loads stay as they are)."""

    evenness: int
    priority: int
    gains: str | None
    loses: str | None


class Residual:
    """The residual graph of one allocation (of the best score). With ``evenness`` the loads
    may change (the sink is in the graph); without, only hits of equal rank move, and an arc
    costs its change of priority types only."""

    def __init__(self, problem: Problem, groups: tuple[Group, ...],
                 counts: list[dict[str, int]], *, evenness: bool) -> None:
        self.problem = problem
        self.groups = groups
        self.counts = counts
        held: dict[str, int] = {}
        for share in counts:
            for team_id, k in share.items():
                held[team_id] = held.get(team_id, 0) + k
        self.held = held
        teams = problem.teams
        first_team = len(groups)
        self.node = {t.id: first_team + i for i, t in enumerate(teams)}
        self.team_at = {v: k for k, v in self.node.items()}
        self.sink = first_team + len(teams)
        n = len(problem.hits)
        bound = len(groups) + len(teams) + 2  # the most priority arcs a simple path holds
        if problem.readings.priority_first:
            self.e_unit, self.p_unit = 1, 2 * (n + 4) + 1
        else:
            self.e_unit, self.p_unit = 2 * bound + 1, 1
        adj: list[list[tuple[int, int]]] = [[] for _ in range(self.sink + 1)]
        for g, group in enumerate(groups):
            share = counts[g]
            size = len(group.numbers)
            for team_id in group.eligible:
                off = group.priority is not None and problem.team(team_id).kind != group.priority
                cost = self.p_unit * off
                k = share.get(team_id, 0)
                if k < size:
                    adj[g].append((self.node[team_id], cost))
                if k:
                    adj[self.node[team_id]].append((g, -cost))
        if evenness:
            for team in teams:
                j = held.get(team.id, 0)
                node = self.node[team.id]
                adj[node].append((self.sink, problem.rank_weight(team, j + 1) * self.e_unit))
                if j:
                    adj[self.sink].append((node, -problem.rank_weight(team, j) * self.e_unit))
        self.adj = adj
        self.potential = self._potentials()
        self._searched: dict[int, tuple[list[int | None], list[int], int | None]] = {}

    @classmethod
    def of(cls, problem: Problem, allocation: Mapping[int, str], *,
           evenness: bool) -> Residual:
        groups, group_of = groups_of(problem)
        return cls(problem, groups, counts_of(groups, group_of, allocation),
                   evenness=evenness)

    def _potentials(self) -> list[int]:
        """Shortest distances from a virtual node joined to every node at no cost
        (Bellman-Ford in rounds, each scanning only the nodes the round before improved):
        arcs cost at least zero once reduced by them. Each round counts as a search."""
        adj = self.adj
        n = len(adj)
        dist = [0] * n
        active = list(range(n))
        rounds = scanned = 0
        while active:
            rounds += 1
            if rounds > n + 1:
                raise AssertionError("negative cycle: not an allocation of the best score")
            improved: list[int] = []
            marked = [False] * n
            for node in active:
                base = dist[node]
                scanned += len(adj[node])
                for head, cost in adj[node]:
                    if base + cost < dist[head]:
                        dist[head] = base + cost
                        if not marked[head]:
                            marked[head] = True
                            improved.append(head)
            active = improved
        work.add("fow.searches", rounds)
        work.add("fow.arcs", scanned)
        return dist

    def _search(self, start: int, bound: int | None = None
                ) -> tuple[list[int | None], list[int]]:
        """Dijkstra from ``start`` on reduced costs: true distances and predecessors of the
        nodes it settles. With ``bound``, it stops once the reduced distance passes it: the
        nodes within are settled as in the whole search (the same pops, in the same order)."""
        cached = self._searched.get(start)
        if cached is not None and (cached[2] is None or (bound is not None
                                                         and bound <= cached[2])):
            return cached[0], cached[1]
        adj, pot = self.adj, self.potential
        n = len(adj)
        dist: list[int | None] = [None] * n
        pred = [-1] * n
        done = [False] * n
        dist[start] = 0
        queue = [(0, start)]
        scanned = 0
        while queue:
            d, node = heapq.heappop(queue)
            if d != dist[node]:
                continue
            if bound is not None and d > bound:
                break
            done[node] = True
            base = d + pot[node]
            scanned += len(adj[node])
            for head, cost in adj[node]:
                nd = base + cost - pot[head]
                current = dist[head]
                if current is None or nd < current:
                    dist[head] = nd
                    pred[head] = node
                    heapq.heappush(queue, (nd, head))
        true: list[int | None] = [d - pot[start] + pot[v] if done[v] and d is not None
                                  else None for v, d in enumerate(dist)]
        work.add("fow.searches")
        work.add("fow.arcs", scanned)
        self._searched[start] = (true, pred, bound)
        return true, pred

    def team_distances(self, team_id: str) -> dict[str, int]:
        """The cost of the cheapest walk from ``team_id`` to each team it reaches."""
        dist, _ = self._search(self.node[team_id])
        return {t: d for t, v in self.node.items() if (d := dist[v]) is not None}

    def free_teams(self, team_id: str) -> set[str]:
        """The teams a walk from ``team_id`` reaches at no cost (or a gain); the search stops
        as soon as no other team can be reached that cheaply."""
        start = self.node[team_id]
        pot = self.potential
        bound = max(pot[start] - pot[v] for v in self.team_at)
        dist, _ = self._search(start, bound)
        return {t for t, v in self.node.items() if (d := dist[v]) is not None and d <= 0}

    def cycle(self, group: int, team_id: str) -> Path | None:
        """The cheapest change that puts one more hit of ``group`` on ``team_id`` (the other
        hits moving as needed), or ``None`` when no such change exists."""
        start = self.node[team_id]
        arc = next((c for h, c in self.adj[group] if h == start), None)
        if arc is None:
            return None
        dist, pred = self._search(start)
        back = dist[group]
        if back is None:
            return None
        cost = arc + back
        gains = loses = None
        node = group
        while node != start:
            before = pred[node]
            if node == self.sink:
                gains = self.team_at[before]
            if before == self.sink:
                loses = self.team_at[node]
            node = before
        if self.problem.readings.priority_first:
            prio = (cost + self.p_unit // 2) // self.p_unit
            return Path(cost - prio * self.p_unit, prio, gains, loses)
        even = (cost + self.e_unit // 2) // self.e_unit
        return Path(even, cost - even * self.e_unit, gains, loses)

    def moved(self, group: int, team_id: str) -> list[dict[str, int]]:
        """The counts after the cheapest change that puts a hit of ``group`` on
        ``team_id`` (see ``cycle``)."""
        counts = self._walk(self.node[team_id], group)
        _shift(counts, group, team_id, 1)
        return counts

    def shifted(self, source: str, target: str) -> list[dict[str, int]]:
        """The counts after the cheapest walk from team ``source`` to team ``target``: one
        hit fewer on ``source``, one more on ``target`` (``team_distances`` says whether
        there is one, and what it costs)."""
        return self._walk(self.node[source], self.node[target])

    def _walk(self, start: int, end: int) -> list[dict[str, int]]:
        """The counts after moving hits along the search's path from ``start`` to ``end``."""
        _, pred = self._search(start)
        counts = [dict(share) for share in self.counts]
        first_team = len(self.groups)
        node = end
        while node != start:
            before = pred[node]
            if node < first_team:  # team -> group: a hit of the group leaves the team
                _shift(counts, node, self.team_at[before], -1)
            elif before < first_team:  # group -> team: a hit of the group joins the team
                _shift(counts, before, self.team_at[node], 1)
            node = before
        return counts


def _shift(counts: list[dict[str, int]], group: int, team_id: str, k: int) -> None:
    share = counts[group]
    share[team_id] = share.get(team_id, 0) + k
    if not share[team_id]:
        del share[team_id]


def allocation_of(groups: tuple[Group, ...], counts: list[dict[str, int]],
                  like: Mapping[int, str] | None = None) -> dict[int, str]:
    """Hit numbers to teams with ``counts`` hits of each group on each team: where ``like``
    already puts a group's hit on a team that keeps hits of it, it stays there."""
    out: dict[int, str] = {}
    for group, share in zip(groups, counts, strict=True):
        left = dict(share)
        rest = []
        for number in group.numbers:
            team_id = like.get(number) if like else None
            if team_id is not None and left.get(team_id, 0):
                out[number] = team_id
                left[team_id] -= 1
            else:
                rest.append(number)
        pool = [t for t, k in left.items() for _ in range(k)]
        out.update(zip(rest, pool, strict=True))
    return out

