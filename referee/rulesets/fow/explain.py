"""The "Why there" column: the rule that put each hit of a legal allocation where it is.

A hit is *forced* when no other team it may go to admits any legal allocation, the other hits
moving as needed; then the rules named are those that the best allocation with the hit on
each other team breaks: that allocation is worse in evenness (F-3, or the tier that comes
first: F-4, F-5, F-X8), or as even but with more hits off their priority type (F-8), or as
good in both but against the lowest-Top order (F-6; F-4 under the F-X2 summary reading).
Otherwise the defender chose freely (F-1).

Hits with the same eligible teams and priority type are interchangeable, so the answer is
worked out once per group of them (``residual.groups_of``): a group whose hits sit on two
teams or more is the defender's choice at once (two of its hits could swap); for a group on
one team, the cheapest change that moves one of its hits onto another team is a shortest path
in the allocation's residual graph (``residual.Residual``), which says how much worse the
best such allocation is and why. Only a change as good as the allocation that moves hits
between vehicles needs the full completion search (``Allocator.legal_completion``).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.core.text import Msg
from referee.rulesets.fow.eligibility import clause_order
from referee.rulesets.fow.residual import Residual, allocation_of, counts_of, groups_of
from referee.rulesets.fow.validate import Allocator, order_clause


class Explanation:
    """The "Why there" of every hit of one legal ``allocation``."""

    def __init__(self, allocator: Allocator, allocation: Mapping[int, str]) -> None:
        self.allocator = allocator
        self.problem = allocator.problem
        self.allocation = dict(allocation)
        self.groups, self.group_of = groups_of(self.problem)
        self.counts = counts_of(self.groups, self.group_of, self.allocation)
        self._same_loads: Residual | None = None
        self._any_loads: Residual | None = None
        self._by_group: dict[int, Msg] = {}

    def why(self, number: int) -> Msg:
        hit = self.problem.hit(number)
        if len(hit.eligible) == 1:
            ruled_out = sorted({c for _, c in hit.excluded} or {"F-2"}, key=clause_order)
            return Msg.of("fow.rule.only", clauses=", ".join(ruled_out))
        g = self.group_of[number]
        if g not in self._by_group:
            self._by_group[g] = self._why_group(g)
        return self._by_group[g]

    def _why_group(self, g: int) -> Msg:
        share = self.counts[g]
        if len(share) > 1:
            # two hits of the group on different teams: swapping them is as legal
            return Msg.of("fow.rule.choice")
        (held_by,) = share
        broken: list[str] = []
        for other in self.groups[g].eligible:
            if other == held_by:
                continue
            clause = self._clause_against(g, other)
            if clause is None:
                return Msg.of("fow.rule.choice")
            if clause not in broken:
                broken.append(clause)
        return Msg.of("fow.rule.forced", clauses=", ".join(sorted(broken, key=clause_order)))

    def _clause_against(self, g: int, other: str) -> str | None:
        """``None`` when a legal allocation puts a hit of group ``g`` on ``other``; else
        the rule that the best allocation doing so breaks."""
        if self._same_loads is None:
            self._same_loads = Residual(self.problem, self.groups, self.counts,
                                        evenness=False)
        swap = self._same_loads.cycle(g, other)
        if swap is not None and swap.priority == 0:
            return None  # the same loads and priority types: as legal as the allocation
        if self._any_loads is None:
            self._any_loads = Residual(self.problem, self.groups, self.counts, evenness=True)
        path = self._any_loads.cycle(g, other)
        assert path is not None, "a hit can always move, its team losing one"
        held = self._any_loads.held
        problem = self.problem
        worse_priority = path.priority > 0 and (problem.readings.priority_first
                                                or path.evenness == 0)
        if worse_priority:
            return "F-8"
        if path.evenness > 0:
            assert path.gains is not None and path.loses is not None
            gains, loses = problem.team(path.gains), problem.team(path.loses)
            return order_clause(gains, held.get(gains.id, 0) + 1, loses, held[loses.id] - 1)
        # as good a score, other loads: legal unless the lowest-Top order forbids them
        moved = allocation_of(self.groups, self._any_loads.moved(g, other), self.allocation)
        if self.allocator.check(moved) is None:
            return None
        fixed = {self.groups[g].numbers[0]: other}
        if self.allocator.legal_completion(fixed) is not None:
            return None
        best = self.allocator.solved(fixed)
        assert best is not None
        violation = self.allocator.check(best)
        return None if violation is None else violation.clause
