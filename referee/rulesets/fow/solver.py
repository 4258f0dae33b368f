"""The allocation solver: the best allocation under the order of ``problem`` as one
min-cost flow.

Hits are units of flow; hit ``h`` may flow to any team in its eligible set; each team drains
into the sink through one convex arc (``MinCostFlow.add_convex``) whose ``j``-th unit costs the
rank weight of a ``j``-th hit. The costs are convex, so a team's units fill in order, and
because the slots form a transversal matroid the cheapest flow is the most even allocation
under *any* increasing weights (F-3, F-X6). The declared priority types (F-8) and Top armour
(F-6) are folded in as smaller parts of each cost, each part too small to outweigh one step of
the part above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.rulesets.fow.flow import Marginals, MinCostFlow
from referee.rulesets.fow.problem import Problem, Team


def solve(problem: Problem, fixed: Mapping[int, str] | None = None) -> dict[int, str] | None:
    """The solver's allocation (hit number to team id), with the hits in ``fixed`` forced to
    their teams; ``None`` when a forced team is not eligible for its hit."""
    fixed = fixed or {}
    hits, teams = problem.hits, problem.teams
    n = len(hits)
    if n == 0:
        return {}
    armour_range = n * (2 * problem.max_top + 4)
    if problem.readings.priority_first:
        rank_unit = armour_range + 1
        prio_unit = n * rank_unit * (n + 4) + armour_range + 1
    else:
        prio_unit = armour_range + 1
        rank_unit = n * prio_unit + armour_range + 1

    groups: dict[tuple[tuple[str, ...], str | None], list[int]] = {}
    for hit in hits:
        allowed = hit.eligible
        if hit.number in fixed:
            if fixed[hit.number] not in hit.eligible:
                return None
            allowed = (fixed[hit.number],)
        groups.setdefault((allowed, hit.priority), []).append(hit.number)
    team_node = {t.id: len(groups) + 1 + i for i, t in enumerate(teams)}
    sink = len(groups) + len(teams) + 1
    graph = MinCostFlow(sink + 1)
    arcs: list[tuple[int, str, int]] = []
    capacity = dict.fromkeys(team_node, 0)
    for g, ((allowed, priority), numbers) in enumerate(groups.items(), 1):
        graph.add_edge(0, g, len(numbers), 0)
        for team_id in allowed:
            off = priority is not None and problem.team(team_id).kind != priority
            arcs.append((graph.add_edge(g, team_node[team_id], len(numbers), prio_unit * off),
                         team_id, g))
            capacity[team_id] += len(numbers)
    def marginal(team: Team) -> Callable[[int], int]:
        return lambda j: problem.rank_weight(team, j) * rank_unit + problem.order_cost(team, j)

    for team in teams:  # (the costs of the units the flow reaches only)
        graph.add_convex(team_node[team.id], sink, Marginals(capacity[team.id], marginal(team)))
    sent, _ = graph.flow(0, sink, n)
    assert sent == n, "every hit has an eligible team"
    return _distribute(problem, groups, arcs, graph)


def _distribute(problem: Problem,
                groups: Mapping[tuple[tuple[str, ...], str | None], list[int]],
                arcs: list[tuple[int, str, int]], graph: MinCostFlow) -> dict[int, str]:
    """Hit numbers to teams from the flow on each group's arcs. The hits of a group are
    interchangeable, so they are handed out in rounds, in the order of allocation (tier,
    then lowest Top armour), so that the table reads as the rules are applied."""
    position = {t.id: i for i, t in enumerate(problem.teams)}

    def order(team_id: str) -> tuple[int, int, int]:
        team = problem.team(team_id)
        top = team.top_armour if team.armoured and team.top_armour is not None else -1
        return (problem.tier(team), top, position[team_id])

    counts: list[dict[str, int]] = [{} for _ in groups]
    for edge, team_id, g in arcs:
        if graph.carried(edge):
            counts[g - 1][team_id] = graph.carried(edge)
    allocation: dict[int, str] = {}
    for numbers, share in zip(groups.values(), counts, strict=True):
        pool = sorted(numbers, reverse=True)
        left = dict(share)
        while left:
            for team_id in sorted(left, key=order):
                allocation[pool.pop()] = team_id
                left[team_id] -= 1
                if left[team_id] == 0:
                    del left[team_id]
    return allocation


def allocate_with_loads(problem: Problem, wanted: Mapping[str, int], off_priority: int,
                        fixed: Mapping[int, str] | None = None) -> dict[int, str] | None:
    """An allocation giving each team exactly ``wanted`` hits with no more than
    ``off_priority`` hits off their priority type (and the hits in ``fixed`` on their
    teams), or ``None`` when there is none."""
    fixed = fixed or {}
    hits, teams = problem.hits, problem.teams
    n = len(hits)
    if sum(wanted.values()) != n:
        return None
    # a plain b-matching first: most load vectors tried are not reachable at all, and
    # without priority types it is the whole answer
    matched = _b_matching(problem, wanted, fixed)
    if matched is None or problem.off_priority(matched) <= off_priority:
        return matched
    # hits with the same options and priority are interchangeable: one node each group
    groups: dict[tuple[tuple[str, ...], str | None], list[int]] = {}
    for hit in hits:
        allowed = (fixed[hit.number],) if hit.number in fixed else hit.eligible
        groups.setdefault((allowed, hit.priority), []).append(hit.number)
    team_node = {t.id: len(groups) + 1 + i for i, t in enumerate(teams)}
    sink = len(groups) + len(teams) + 1
    graph = MinCostFlow(sink + 1)
    arcs: list[tuple[int, str, int]] = []
    for g, ((allowed, priority), numbers) in enumerate(groups.items(), 1):
        graph.add_edge(0, g, len(numbers), 0)
        for team_id in allowed:
            off = priority is not None and problem.team(team_id).kind != priority
            arcs.append((graph.add_edge(g, team_node[team_id], len(numbers), int(off)),
                         team_id, g))
    for team_id, node in team_node.items():
        if wanted.get(team_id, 0):
            graph.add_edge(node, sink, wanted[team_id], 0)
    sent, cost = graph.flow(0, sink, n)
    if sent != n or cost > off_priority:
        return None
    return _distribute(problem, groups, arcs, graph)


def _b_matching(problem: Problem, wanted: Mapping[str, int],
                fixed: Mapping[int, str]) -> dict[int, str] | None:
    """Hits to teams, each team taking exactly ``wanted`` hits (augmenting paths)."""
    holder: dict[str, list[int]] = {t: [] for t in wanted}
    allocation: dict[int, str] = {}
    options = {h.number: ((fixed[h.number],) if h.number in fixed else h.eligible)
               for h in problem.hits}

    def place(number: int, seen: set[str]) -> bool:
        for team_id in options[number]:
            if team_id in seen or wanted.get(team_id, 0) == 0:
                continue
            seen.add(team_id)
            if len(holder[team_id]) < wanted[team_id]:
                holder[team_id].append(number)
                allocation[number] = team_id
                return True
            for other in list(holder[team_id]):
                if other in fixed:
                    continue
                holder[team_id].remove(other)
                if place(other, seen):
                    holder[team_id].append(number)
                    allocation[number] = team_id
                    return True
                holder[team_id].append(other)
        return False

    for hit in problem.hits:
        if any(t not in hit.eligible for t in options[hit.number]):
            return None
        if not place(hit.number, set()):
            return None
    return allocation
