"""Two small graph algorithms the allocation solver stands on (pure: the standard library, and
the core's work counter, ``fow.searches``, ``fow.arcs`` and ``fow.augmentations``).

* ``MinCostFlow``: successive shortest paths with Dijkstra and potentials, for non-negative
  integer costs (Python integers, so lexicographic weights of any size stay exact).
* ``max_matching``: the size of a maximum bipartite matching (augmenting paths), the number of
  distinct teams a set of hits can reach at most (F-3); also the benchmark's baseline.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import overload

from referee.core import work


class MinCostFlow:
    """Successive shortest paths, one Dijkstra search per augmentation.

    ``add_convex`` adds an arc whose k-th unit costs ``costs[k - 1]`` (non-decreasing): it
    stands for one unit arc per cost, and the searches scan it as they would scan the cheapest
    unused unit arc forward and the dearest used one backward, so the flows and the order of
    the searches are those of the unit arcs, at the cost of one arc."""

    def __init__(self, nodes: int) -> None:
        self.graph: list[list[int]] = [[] for _ in range(nodes)]
        # parallel edge arrays: head, residual capacity, cost
        self.head: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []
        # convex arcs: their marginal costs and the units they carry
        self.convex: dict[int, Sequence[int]] = {}
        self.used: dict[int, int] = {}

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

    def add_convex(self, tail: int, head: int, costs: Sequence[int]) -> int:
        """Add an arc of ``len(costs)`` units, the k-th costing ``costs[k - 1]``. A list or
        tuple is checked to be non-decreasing; any other sequence is read lazily, only the
        costs of the units the flow reaches (``Marginals``), and is the caller's promise."""
        if isinstance(costs, list | tuple):
            if any(b < a for a, b in itertools.pairwise(costs)):
                raise ValueError("a convex arc's costs do not decrease")
            costs = list(costs)
        index = self.add_edge(tail, head, 0, costs[0] if costs else 0)
        self.convex[index] = costs
        self.used[index] = 0
        self._set_convex(index)
        return index

    def _set_convex(self, index: int) -> None:
        costs, used = self.convex[index], self.used[index]
        self.cap[index] = int(used < len(costs))
        self.cost[index] = costs[used] if used < len(costs) else 0
        self.cap[index + 1] = int(used > 0)
        self.cost[index + 1] = -costs[used - 1] if used else 0

    def flow(self, source: int, sink: int, wanted: int) -> tuple[int, int]:
        """Send up to ``wanted`` units at least cost; returns (flow sent, total cost)."""
        n = len(self.graph)
        graph, heads, caps, costs = self.graph, self.head, self.cap, self.cost
        convex = self.convex
        potential: list[float] = [0] * n  # integers at run time (inf only marks unreached)
        sent = total = 0
        heappush, heappop = heapq.heappush, heapq.heappop
        scanned = searches = 0
        inf = float("inf")  # (compares exactly with integers of any size)
        # each node's arcs with their heads, read at once
        pairs = [[(e, heads[e]) for e in arcs] for arcs in graph]
        while sent < wanted:
            searches += 1
            dist: list[float] = [inf] * n
            via = [-1] * n
            # settled nodes: an arc into one can shorten nothing, and is passed over. (The
            # potentials keep every residual arc between nodes a search reaches at a
            # non-negative reduced cost, and a node one search does not reach is reached by
            # none after it, so a settled node's distance is final: the searches, and so
            # the flows, are those of the plain algorithm;
            # tests/rulesets/fow/test_fow_properties.py.)
            done = [False] * n
            dist[source] = 0
            queue: list[tuple[float, int]] = [(0, source)]
            while queue:
                d, node = heappop(queue)
                if d != dist[node]:
                    continue
                done[node] = True
                arcs = pairs[node]
                scanned += len(arcs)
                base = d + potential[node]
                for e, nxt in arcs:
                    if not done[nxt] and caps[e] > 0:
                        nd = base + costs[e] - potential[nxt]
                        if nd < dist[nxt]:
                            dist[nxt] = nd
                            via[nxt] = e
                            heappush(queue, (nd, nxt))
            if dist[sink] == inf:
                break
            for v in range(n):
                dv = dist[v]
                if dv != inf:
                    potential[v] += dv
            push = wanted - sent
            node = sink
            while node != source:
                e = via[node]
                push = min(push, caps[e])
                node = heads[e ^ 1]
            node = sink
            while node != source:
                e = via[node]
                caps[e] -= push
                caps[e ^ 1] += push
                total += costs[e] * push
                arc = e & ~1
                if arc in convex:  # one unit (its capacity is one at a time)
                    self.used[arc] += 1 if e == arc else -1
                    self._set_convex(arc)
                node = heads[e ^ 1]
            sent += push
        work.add("fow.searches", searches)
        work.add("fow.arcs", scanned)
        work.add("fow.augmentations", searches - (sent < wanted))
        return sent, total

    def carried(self, edge: int) -> int:
        """The flow on an arc: what its reverse arc can give back."""
        if edge in self.convex:
            return self.used[edge]
        return self.cap[edge ^ 1]


class Marginals(Sequence[int]):
    """The marginal costs of a convex arc, worked out as the flow reaches them: ``cost(k)``
    for the k-th unit (k from 1), ``length`` units. A team's arc may take thousands of
    units in the declaration (every hit that can reach it) while the flow sends it a few
    dozen: only the costs on either side of what it carries are ever read."""

    def __init__(self, length: int, cost: Callable[[int], int]) -> None:
        self._length = length
        self._cost = cost
        self._known: dict[int, int] = {}

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        known = self._known.get(index)
        if known is None:
            known = self._known[index] = self._cost(index + 1)
        return known


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
