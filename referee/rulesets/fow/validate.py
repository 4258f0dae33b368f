"""Is an allocation legal, and if not, which clause does it break and why.

An allocation is legal when (1) every hit goes to a team it may go to (F-2, F-9 to F-13);
(2) its score (``Problem.score``: evenness with the tiers, then hits off their priority type)
equals the solver's, which is the best possible; (3) no hit could move from a vehicle to one
that comes first in the same round (``Problem.precedes``: a lower Top armour, F-6 and F-X3;
under the F-X2 summary reading also a functioning vehicle before a stopped one, F-4) while
(1) and (2) still hold. ``Allocator`` also answers the hit-by-hit question: which teams
the next hit may go to so that a complete legal allocation remains possible.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from referee.core.text import Msg
from referee.rulesets.fow.completion import Completions
from referee.rulesets.fow.flow import loads
from referee.rulesets.fow.problem import Problem, Team
from referee.rulesets.fow.residual import Group, Residual, groups_of
from referee.rulesets.fow.solver import solve


@dataclass(frozen=True)
class Violation:
    clause: str
    msg: Msg


def order_clause(source: Team, s_held: int, target: Team, t_held: int) -> str:
    """The rule a move of one hit from ``source`` (holding ``s_held``) onto ``target``
    (holding ``t_held``) would follow, when it makes the spread more even: two hits apart,
    plain evenness (F-3); otherwise a first hit that belongs to an earlier tier: transports
    last (F-5), Bogged Down and Bailed Out last (F-4), or the order of the tiers (F-X8)."""
    if t_held + 1 < s_held:
        return "F-3"
    if source.kind == "transport" and target.kind != "transport":
        return "F-5"
    if source.bogged_or_bailed and not target.bogged_or_bailed:
        return "F-4"
    return "F-X8"


class Allocator:
    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self._precede: dict[tuple[str, int], list[tuple[Team, str]]] = {}
        self._solved: dict[frozenset[tuple[int, str]], dict[int, str] | None] = {}

    @functools.cached_property
    def proposal(self) -> dict[int, str]:
        best = solve(self.problem)
        assert best is not None
        return best

    @functools.cached_property
    def best_score(self) -> tuple[int, int]:
        return self.problem.score(self.proposal)

    @functools.cached_property
    def _best_parts(self) -> tuple[int, int]:
        """The best evenness weight and count of hits off their priority type."""
        return self.problem.evenness(self.proposal), self.problem.off_priority(self.proposal)

    def solved(self, fixed: Mapping[int, str]) -> dict[int, str] | None:
        """The solver's allocation with the hits in ``fixed`` on their teams (kept: the
        explanation asks again for a completion's rule)."""
        key = frozenset(fixed.items())
        if key not in self._solved:
            self._solved[key] = solve(self.problem, fixed)
        found = self._solved[key]
        return None if found is None else dict(found)

    def _name(self, team_id: str) -> str:
        return self.problem.team(team_id).name

    # --- the checks ----------------------------------------------------------------------

    def check(self, allocation: Mapping[int, str]) -> Violation | None:
        """``None`` when ``allocation`` (hit number to team id, every hit) is legal."""
        return (self._check_targets(allocation) or self._check_score(allocation)
                or self._check_vehicle_order(allocation))

    def _check_targets(self, allocation: Mapping[int, str]) -> Violation | None:
        problem = self.problem
        numbers = [h.number for h in problem.hits]
        missing = [n for n in numbers if n not in allocation]
        if missing:
            return Violation("F-7", Msg.of("fow.violation.missing",
                                           hits=", ".join(map(str, missing))))
        extra = sorted(set(allocation) - set(numbers))
        if extra:
            return Violation("F-7", Msg.of("fow.violation.extra",
                                           hits=", ".join(map(str, extra))))
        for hit in problem.hits:
            team_id = allocation[hit.number]
            if team_id in hit.eligible:
                continue
            reasons = dict(hit.excluded)
            if team_id in reasons:
                clause = reasons[team_id]
                return Violation(clause, Msg.of(f"fow.violation.ineligible.{clause}",
                                                hit=hit.number, team=self._name(team_id),
                                                attacker=hit.attacker))
            return Violation("F-2", Msg.of("fow.violation.not_defending", hit=hit.number,
                                           team=team_id))
        return None

    def _check_score(self, allocation: Mapping[int, str]) -> Violation | None:
        problem = self.problem
        even, prio = problem.evenness(allocation), problem.off_priority(allocation)
        best_even, best_prio = self._best_parts
        order = ("prio", "even") if problem.readings.priority_first else ("even", "prio")
        for part in order:
            if part == "even" and even != best_even:
                if not problem.readings.priority_first or prio == best_prio:
                    return self._explain_evenness(allocation)
            if part == "prio" and prio != best_prio:
                if problem.readings.priority_first or even == best_even:
                    return self._explain_priority(allocation)
        return None

    def _explain_evenness(self, allocation: Mapping[int, str]) -> Violation:
        """Find a chain of moves: a hit off team ``t`` onto team ``u`` (possibly moving other
        hits along the way) that gives ``u`` a hit of lower rank than ``t`` gives up."""
        problem = self.problem
        held = loads(allocation)
        on_team: dict[str, list[int]] = {}
        for number, team_id in sorted(allocation.items()):
            on_team.setdefault(team_id, []).append(number)
        for source_id in sorted(held, key=lambda t: -held[t]):
            source = problem.team(source_id)
            give_up = problem.rank_weight(source, held[source_id])
            parent: dict[str, tuple[int, str]] = {}
            frontier = [source_id]
            while frontier:
                nxt: list[str] = []
                for at in frontier:
                    for number in on_team.get(at, ()):
                        for u in problem.hit(number).eligible:
                            if u == source_id or u in parent:
                                continue
                            parent[u] = (number, at)
                            nxt.append(u)
                            gain = problem.rank_weight(problem.team(u), held.get(u, 0) + 1)
                            if gain < give_up:
                                return self._evenness_violation(source, problem.team(u),
                                                                held, parent)
                frontier = nxt
        return Violation("F-3", Msg.of("fow.violation.uneven_generic"))

    def _evenness_violation(self, source: Team, target: Team, held: Mapping[str, int],
                            parent: Mapping[str, tuple[int, str]]) -> Violation:
        chain: list[tuple[int, str, str]] = []
        at = target.id
        while at != source.id:
            number, came_from = parent[at]
            chain.append((number, came_from, at))
            at = came_from
        chain.reverse()
        first_hit = chain[0][0]
        moves = "; ".join(f"{n}: {self._name(a)} → {self._name(b)}" for n, a, b in chain)
        s_held, t_held = held[source.id], held.get(target.id, 0)
        clause = order_clause(source, s_held, target, t_held)
        return Violation(clause, Msg.of(f"fow.violation.order.{clause}", hit=first_hit,
                                        team=source.name, held=s_held, other=target.name,
                                        other_held=t_held, moves=moves))

    def _explain_priority(self, allocation: Mapping[int, str]) -> Violation:
        problem = self.problem
        for hit in problem.hits:
            if hit.priority is None or problem.team(allocation[hit.number]).kind == hit.priority:
                continue
            fits = [problem.team(t).name for t in hit.eligible
                    if problem.team(t).kind == hit.priority]
            if fits:
                return Violation("F-8", Msg.of("fow.violation.priority", hit=hit.number,
                                               attacker=hit.attacker,
                                               kind=Msg.of(f"fow.kind.{hit.priority}"),
                                               team=self._name(allocation[hit.number]),
                                               fits=", ".join(fits)))
        return Violation("F-8", Msg.of("fow.violation.priority_generic"))

    def _check_vehicle_order(self, allocation: Mapping[int, str]) -> Violation | None:
        """F-6 (and F-4 under the F-X2 summary reading): no hit could move from a vehicle
        onto one that comes first in the same round, keeping the score."""
        held = loads(allocation)
        move = self.vehicle_move(held, lambda: Residual.of(self.problem, allocation,
                                                            evenness=False))
        if move is None:
            return None
        t, u, clause = move
        hit = min(n for n, team_id in allocation.items() if team_id == t.id)
        if clause == "F-4":
            return Violation("F-4", Msg.of("fow.violation.stopped", hit=hit, team=t.name,
                                           other=u.name))
        return Violation("F-6", Msg.of("fow.violation.armour", hit=hit, team=t.name,
                                       top=t.top_armour, held=held[t.id], other=u.name,
                                       other_top=u.top_armour, other_held=held.get(u.id, 0)))

    def vehicle_move(self, held: Mapping[str, int], residual: Callable[[], Residual]
                      ) -> tuple[Team, Team, str] | None:
        """The first vehicle ``t`` whose hit could move onto a vehicle ``u`` that comes
        first in the same round, with the clause that orders them, for loads ``held`` of an
        allocation of the best score. Such a move keeps the evenness, so it is possible
        exactly when the residual graph of hits of equal rank leads from ``t`` to ``u`` at
        no cost in priority types."""
        problem = self.problem
        graph: Residual | None = None
        for t in self.vehicles:
            j = held.get(t.id, 0)
            if j == 0:
                continue
            reach: set[str] | None = None
            for u, clause in self.before(t, j):
                if problem.rank(u, held.get(u.id, 0) + 1) != problem.rank(t, j):
                    continue
                if reach is None:
                    graph = graph or residual()
                    reach = graph.free_teams(t.id)
                if u.id in reach:
                    return t, u, clause
        return None

    @functools.cached_property
    def groups(self) -> tuple[tuple[Group, ...], dict[int, int]]:
        return groups_of(self.problem)

    @functools.cached_property
    def vehicles(self) -> list[Team]:
        return [t for t in self.problem.teams if t.is_vehicle]

    def before(self, t: Team, j: int) -> list[tuple[Team, str]]:
        """The vehicles that take a ``j``-th hit before vehicle ``t`` does, each with the
        clause that orders them (``Problem.precedes``), in the order of the teams."""
        key = (t.id, j)
        if key not in self._precede:
            self._precede[key] = [(u, clause) for u in self.vehicles
                                  if (clause := self.problem.precedes(u, t, j)) is not None]
        return self._precede[key]

    # --- hit by hit ----------------------------------------------------------------------

    def options(self, chosen: Mapping[int, str], number: int) -> dict[str, dict[int, str]]:
        """The teams hit ``number`` may go to, given the hits ``chosen`` so far, each with
        a complete legal allocation that follows from that choice."""
        out: dict[str, dict[int, str]] = {}
        for team_id in self.problem.hit(number).eligible:
            fixed = {**chosen, number: team_id}
            if all(self.proposal.get(n) == t for n, t in fixed.items()):
                out[team_id] = dict(self.proposal)
                continue
            completion = self.legal_completion(fixed)
            if completion is not None:
                out[team_id] = completion
        return out

    def legal_completion(self, fixed: Mapping[int, str],
                         limit: int = 60) -> dict[int, str] | None:
        """A legal allocation that keeps the hits in ``fixed`` where they are, or ``None``
        (``completion.legal_completion``)."""
        return self._completions.legal(fixed, limit)

    @functools.cached_property
    def _completions(self) -> Completions:
        return Completions(self)

