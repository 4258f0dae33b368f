"""The allocation solver: the best allocation under the order of ``problem`` as one
min-cost flow.

Hits are units of flow; hit ``h`` may flow to any team in its eligible set; each team drains
into the sink through one arc per hit it could hold, the ``j``-th costing that hit's rank
weight. The costs are convex, so a team's arcs fill in order, and because the slots form a
transversal matroid the cheapest flow is the most even allocation under *any* increasing
weights (F-3, F-X6). The declared priority types (F-8) and Top armour (F-6) are folded in as
smaller parts of each cost, each part too small to outweigh one step of the part above it.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.rulesets.fow.flow import MinCostFlow
from referee.rulesets.fow.problem import Problem, Team


def _armour_cost(problem: Problem, team: Team, j: int) -> int:
    # F-6: among armoured vehicles, a lower Top armour is cheaper
    if team.armoured and problem.armour_applies(j):
        assert team.top_armour is not None
        return team.top_armour + 1
    return 0


def solve(problem: Problem, fixed: Mapping[int, str] | None = None) -> dict[int, str] | None:
    """The solver's allocation (hit number to team id), with the hits in ``fixed`` forced to
    their teams; ``None`` when a forced team is not eligible for its hit."""
    fixed = fixed or {}
    hits, teams = problem.hits, problem.teams
    n = len(hits)
    if n == 0:
        return {}
    top = max((t.top_armour or 0) for t in teams) + 2
    armour_range = n * top
    if problem.readings.priority_first:
        rank_unit = armour_range + 1
        prio_unit = n * rank_unit * (n + 4) + armour_range + 1
    else:
        prio_unit = armour_range + 1
        rank_unit = n * prio_unit + armour_range + 1

    team_node = {t.id: n + 1 + i for i, t in enumerate(teams)}
    sink = n + len(teams) + 1
    graph = MinCostFlow(sink + 1)
    arcs: list[tuple[int, str, int]] = []
    capacity = dict.fromkeys(team_node, 0)
    for i, hit in enumerate(hits, 1):
        graph.add_edge(0, i, 1, 0)
        allowed = hit.eligible
        if hit.number in fixed:
            if fixed[hit.number] not in hit.eligible:
                return None
            allowed = (fixed[hit.number],)
        for team_id in allowed:
            off = hit.priority is not None and problem.team(team_id).kind != hit.priority
            arcs.append((graph.add_edge(i, team_node[team_id], 1, prio_unit * off),
                         team_id, hit.number))
            capacity[team_id] += 1
    for team in teams:
        for j in range(1, capacity[team.id] + 1):
            cost = problem.rank_weight(team, j) * rank_unit + _armour_cost(problem, team, j)
            graph.add_edge(team_node[team.id], sink, 1, cost)
    sent, _ = graph.flow(0, sink, n)
    assert sent == n, "every hit has an eligible team"
    return {number: team_id for edge, team_id, number in arcs if graph.used(edge)}


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
    team_node = {t.id: n + 1 + i for i, t in enumerate(teams)}
    sink = n + len(teams) + 1
    graph = MinCostFlow(sink + 1)
    arcs: list[tuple[int, str, int]] = []
    for i, hit in enumerate(hits, 1):
        graph.add_edge(0, i, 1, 0)
        allowed = (fixed[hit.number],) if hit.number in fixed else hit.eligible
        for team_id in allowed:
            if team_id not in hit.eligible:
                return None
            off = hit.priority is not None and problem.team(team_id).kind != hit.priority
            arcs.append((graph.add_edge(i, team_node[team_id], 1, int(off)), team_id,
                         hit.number))
    for team_id, node in team_node.items():
        if wanted.get(team_id, 0):
            graph.add_edge(node, sink, wanted[team_id], 0)
    sent, cost = graph.flow(0, sink, n)
    if sent != n or cost > off_priority:
        return None
    return {number: team_id for edge, team_id, number in arcs if graph.used(edge)}


def feasible_with_loads(problem: Problem, wanted: Mapping[str, int],
                        off_priority: int) -> bool:
    """Is there an allocation giving each team exactly ``wanted`` hits with no more than
    ``off_priority`` hits off their priority type?"""
    return allocate_with_loads(problem, wanted, off_priority) is not None
