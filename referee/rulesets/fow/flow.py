"""Two small graph algorithms the allocation solver stands on (pure, no imports beyond the
standard library).

* ``MinCostFlow``: successive shortest paths with Dijkstra and potentials, for non-negative
  integer costs (Python integers, so lexicographic weights of any size stay exact).
* ``max_matching``: the size of a maximum bipartite matching (augmenting paths), the number of
  distinct teams a set of hits can reach at most (F-3); also the benchmark's baseline.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence


class MinCostFlow:
    def __init__(self, nodes: int) -> None:
        self.graph: list[list[int]] = [[] for _ in range(nodes)]
        # parallel edge arrays: head, residual capacity, cost
        self.head: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def add_edge(self, tail: int, head: int, cap: int, cost: int) -> int:
        """Add an arc; returns its index (its reverse arc is index + 1)."""
        if cost < 0:
            raise ValueError("MinCostFlow takes non-negative costs")
        index = len(self.head)
        self.graph[tail].append(index)
        self.head.append(head)
        self.cap.append(cap)
        self.cost.append(cost)
        self.graph[head].append(index + 1)
        self.head.append(tail)
        self.cap.append(0)
        self.cost.append(-cost)
        return index

    def flow(self, source: int, sink: int, wanted: int) -> tuple[int, int]:
        """Send up to ``wanted`` units at least cost; returns (flow sent, total cost)."""
        n = len(self.graph)
        potential = [0] * n
        sent = total = 0
        inf = None
        while sent < wanted:
            dist: list[int | None] = [inf] * n
            via = [-1] * n
            dist[source] = 0
            queue = [(0, source)]
            while queue:
                d, node = heapq.heappop(queue)
                if d != dist[node]:
                    continue
                for e in self.graph[node]:
                    if self.cap[e] <= 0:
                        continue
                    nxt = self.head[e]
                    nd = d + self.cost[e] + potential[node] - potential[nxt]
                    current = dist[nxt]
                    if current is None or nd < current:
                        dist[nxt] = nd
                        via[nxt] = e
                        heapq.heappush(queue, (nd, nxt))
            reached = dist[sink]
            if reached is None:
                break
            for v in range(n):
                dv = dist[v]
                if dv is not None:
                    potential[v] += dv
            push = wanted - sent
            node = sink
            while node != source:
                e = via[node]
                push = min(push, self.cap[e])
                node = self.head[e ^ 1]
            node = sink
            while node != source:
                e = via[node]
                self.cap[e] -= push
                self.cap[e ^ 1] += push
                total += self.cost[e] * push
                node = self.head[e ^ 1]
            sent += push
        return sent, total

    def carried(self, edge: int) -> int:
        """The flow on an arc: what its reverse arc can give back."""
        return self.cap[edge ^ 1]


def max_matching(eligible: Sequence[Sequence[str]]) -> int:
    """The largest number of hits that can go to pairwise different teams (Kuhn's
    augmenting paths); ``eligible[i]`` are the teams hit ``i`` may go to."""
    owner: dict[str, int] = {}

    def augment(hit: int, seen: set[str]) -> bool:
        for team in eligible[hit]:
            if team in seen:
                continue
            seen.add(team)
            if team not in owner or augment(owner[team], seen):
                owner[team] = hit
                return True
        return False

    return sum(1 for hit in range(len(eligible)) if augment(hit, set()))


def loads(allocation: Mapping[int, str]) -> dict[str, int]:
    """Hits held by each team under an allocation (hit number to team id)."""
    out: dict[str, int] = {}
    for team in allocation.values():
        out[team] = out.get(team, 0) + 1
    return out
