"""The exact end states of a hex's defence rolls, every unit in one walk, kept from one roll
to the next (issue 16). Loaded only by ``referee.rulesets.cc.odds``.

The defence rolls draw cards from one deck in order (C-12). A unit's result depends on its
own card and, through the hex's Command (C-14), on whether the leaders before it broke. The
walk (``Layers``) finds the points the units roll from, forwards, a unit at a time, then
works out their chances backwards: the chance of each later unit's results from a point of
the walk on depends only on

* the units still to roll (and the attack total),
* the cards left in the deck's current pass, counted by *class*: the dice totals that no
  unit still to roll tells apart (its result changes only where Morale plus the total meets
  the attack: a total below, equal, above) are one class, so a few classes stand for the
  eleven totals, and a class drawn leaves the others as they were (the deck is lumped
  exactly: drawing without replacement from classes is drawing from their cards);
* the Command the leaders that rolled give the units after them (``summary``: the highest,
  or the sum, of the Commands of those not broken), not which of them broke.

Only an unbroken leader with Command, with units after it, changes what follows: its card is
walked (every class, each leading to its own point). Any other unit's card is left out of the
cards the later units draw from (draws from a shuffled deck are exchangeable: the cards at
the positions that matter are distributed as the first cards drawn); its own chances are
worked out where it stands. Chances are whole numbers over one denominator a point.

The points worked out are kept (``_KEPT``): the next defence roll of the same attack starts
at a point the walk before it went through (its card drawn, its result known), so its end
states are looked up, not worked out again; the units that rolled before are then outside
the walk, their Command in ``summary``.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.work import add as counted
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc.deck import parse_key
from referee.rulesets.cc.odds_draws import ALL_PAIRS, DeckRun
from referee.rulesets.cc.odds_plan import Plan, Unit, possible, unit_result

Result = ar.Result
Vec = tuple[int, ...]
Counts = tuple[int, ...]
Starts = tuple[int, ...]  # a partition of the totals 2..12: the first total of each class

TOTALS = 11  # dice totals 2..12

KEPT_POINTS = 200_000
"""Points of the walks kept for the next rolls (the most recent first out last)."""

_KEPT: OrderedDict[tuple[Any, ...], tuple[Vec, int]] = OrderedDict()
_SIGNATURES: dict[tuple[Any, ...], int] = {}
_NUMBERS = itertools.count()
_MODEL: dict[tuple[Any, ...], Any] = {}  # Morale, summaries, classes by (what, units, ...)
_MAPS: dict[tuple[Starts, Starts], tuple[int, ...]] = {}


@functools.lru_cache(maxsize=64)
def totals(cards: tuple[str, ...]) -> Counts:
    """How many of ``cards`` show each dice total (index: total - 2)."""
    out = [0] * TOTALS
    for key in cards:
        (a, b), _ = parse_key(key)
        out[a + b - 2] += 1
    return tuple(out)


def lumped(fine: Sequence[int], starts: Starts) -> Counts:
    """Counts by total as counts by class."""
    out = [0] * len(starts)
    for total, n in enumerate(fine, 2):
        if n:
            out[bisect.bisect_right(starts, total) - 1] += n
    return tuple(out)


def _signature(value: tuple[Any, ...]) -> int:
    """A whole number for a point's fixed part (its hash is then cheap), never given to
    another (so forgetting them all, past ``KEPT_POINTS``, cannot mix two walks up)."""
    if len(_SIGNATURES) > KEPT_POINTS:
        fresh()
    number = _SIGNATURES.get(value)
    if number is None:
        number = _SIGNATURES[value] = next(_NUMBERS)
    return number


@dataclass(frozen=True)
class Deck:
    """Where the defence draws stand: cards ``left`` in the deck's current pass, those cards
    by total (``fine``), and the deck a reshuffle starts (``full``, ``full_size`` cards: a
    deck whose cards are not public is two independent dice at every draw: a pass of one)."""

    left: int
    fine: Counts
    full: Counts
    full_size: int

    @classmethod
    def of(cls, deck: DeckRun, position: int = 0, drawn: Sequence[int] = ()) -> Deck:
        """``deck`` at ``position`` (draws from now on), less the cards of totals ``drawn``
        already taken from that pass (the attacker's, from the same deck)."""
        if not deck.known or deck.full is None or deck.remaining is None:
            return cls(1, totals(ALL_PAIRS), totals(ALL_PAIRS), 1)
        cycle, cards = deck.group(position)
        start = 0 if cycle == 0 else len(deck.remaining) + (cycle - 1) * len(deck.full)
        fine = list(totals(cards))
        for total in drawn:
            fine[total - 2] -= 1
        return cls(len(cards) - (position - start), tuple(fine), totals(deck.full),
                   len(deck.full))


class DefenceWalk:
    """The exact chances of the results of ``units`` (rolling in this order, each in its
    state now) against an attack total, in the hex of ``plan``, from the cards of ``deck``.
    A point's ``summary`` is the Command the leaders outside the walk and those walked past
    give the units after them (the highest, or the sum, of the unbroken ones')."""

    def __init__(self, plan: Plan, attack: int, units: Sequence[Unit]) -> None:
        self.plan, self.attack = plan, attack
        self.units = tuple(units)
        self.m = len(self.units)
        rules = plan.rules
        self.how = rules.command_from
        self.result = unit_result
        self.possible = [tuple(possible(u, rules)) for u in self.units]
        # an unbroken leader with Command and units after it: its result matters to them
        self.branches = [u.kind == "leader" and u.command > 0 and not u.broken and p < self.m - 1
                         for p, u in enumerate(self.units)]
        self.sig = [_signature((attack, rules, self.units[p:])) for p in range(self.m + 1)]
        self.deck = Deck(0, (), (), 0)  # the walk's deck (its reshuffles), set by ``Layers``

    # -- what a point depends on (kept by the units from it on: shared by the walks) ------
    def combine(self, summary: int, command: int) -> int:
        return ar.highest_command([summary, command], self.how)

    def morale(self, q: int, summary: int) -> int:
        """C-4, C-14: unit ``q``'s Morale when the leaders outside the walk and those before
        it give ``summary`` (the leaders from it on stand as they are now)."""
        memo = ("morale", self.sig[q], summary)
        morale = _MODEL.get(memo)
        if morale is None:
            unit, rules = self.units[q], self.plan.rules
            leaders = [(u.key, u.command, u.broken) for u in self.units[q:]
                       if u.kind == "leader"] + [("", summary, False)]
            command = ar.command_in_hex(leaders, unit.key, self_counts=rules.leader_commands_self,
                                        how=self.how)
            morale = _MODEL[memo] = ar.defence_morale(
                ar.printed_morale(unit.morale, unit.broken_morale, unit.broken), rules.cover,
                command, unit.suppressed)
        assert isinstance(morale, int)
        return morale

    def domain(self, p: int, summary: int) -> frozenset[int]:
        """Every ``summary`` the units from ``p`` on may roll under."""
        memo = ("domain", self.sig[p], summary)
        out = _MODEL.get(memo)
        if out is None:
            reach = {summary}
            for q in range(p, self.m):
                if self.branches[q]:
                    reach |= {self.combine(x, self.units[q].command) for x in reach}
            out = _MODEL[memo] = frozenset(reach)
        assert isinstance(out, frozenset)
        return out

    def starts(self, p: int, summary: int) -> Starts:
        """The classes of totals the units from ``p`` on tell apart (C-5: a result changes
        where Morale plus the total meets the attack total)."""
        memo = ("starts", self.sig[p], summary)
        out = _MODEL.get(memo)
        if out is None:
            cuts = {2}
            for q in range(p, self.m):
                for x in self.domain(p, summary):
                    meet = self.attack - self.morale(q, x)
                    cuts |= {c for c in (meet, meet + 1) if 2 < c <= 12}
            out = _MODEL[memo] = tuple(sorted(cuts))
        assert isinstance(out, tuple)
        return out

    # -- the walk -------------------------------------------------------------------------
    def point(self, p: int, left: int, counts: Counts, summary: int) -> Point:
        """The point before unit ``p`` draws: a spent pass is the reshuffled deck (C-10)."""
        if left == 0:
            return self.deck.full_size, lumped(self.deck.full, self.starts(p, summary)), summary
        return left, counts, summary


Point = tuple[int, Counts, int]  # cards left in the pass, the pass's cards by class, summary
Step = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]
"""A point's own chances (whole numbers over the cards it draws from), those cards, and the
points it leads to (index in the next unit's points, how many cards lead there; none for a
unit whose card the later units do not see: then one point, all its cards)."""


class Layers:
    """One walk's points, unit by unit: found forwards (``extend``, a unit at a time, so
    that the caller stops as soon as the walk would be too long), then their chances
    worked backwards (``chances``) for as many units as were reached."""

    def __init__(self, walk: DefenceWalk, deck: Deck, summary: int) -> None:
        walk.deck = deck
        self.walk, self.deck = walk, deck
        self.deck_sig = _signature((deck.full, deck.full_size))
        self.points: list[dict[Point, int]] = [
            {walk.point(0, deck.left, lumped(deck.fine, walk.starts(0, summary)), summary): 0}]
        self.steps: list[list[Step]] = []  # per unit reached, per point

    @property
    def reached(self) -> int:
        """Units whose points are all known (their chances can be worked out)."""
        return len(self.steps)

    def kept(self) -> tuple[Vec, int] | None:
        """Every unit's chances, kept from a walk before (a defence roll after a roll whose
        walk went through here), or none."""
        (root,) = self.points[0]
        return _KEPT.get((self.walk.sig[0], self.deck_sig, self.walk.m, root))

    def extend(self, most: int) -> int:
        """Find the points of the next unit; return the steps that took (points × classes),
        more than ``most`` (and the unit not reached) if it would take more."""
        walk, p = self.walk, self.reached
        steps: list[Step] = []
        after: dict[Point, int] = {}
        work = 0
        branches = walk.branches[p] and p + 1 < walk.m
        unit = walk.units[p]
        state = (unit.broken, unit.suppressed)
        for left, counts, x in self.points[p]:
            work += len(counts)
            if work > most:
                counted("cc.walk", work)
                return work
            starts = walk.starts(p, x)
            base = walk.morale(p, x)
            results = [walk.result(walk.plan, state, unit, walk.attack, base + t)
                       for t in starts]
            own = tuple(sum(n for n, r in zip(counts, results, strict=True) if r is want)
                        for want in walk.possible[p])
            kids: list[tuple[int, int]] = []
            if p + 1 < walk.m and branches:
                for c, n in enumerate(counts):
                    if n:
                        broke = results[c] in (Result.BROKEN, Result.ELIMINATED)
                        y = x if broke else walk.combine(x, unit.command)
                        rest = list(counts)
                        rest[c] -= 1
                        point = walk.point(p + 1, left - 1, relump(
                            tuple(rest), starts, walk.starts(p + 1, y)), y)
                        kids.append((after.setdefault(point, len(after)), n))
            elif p + 1 < walk.m:  # its card is left out of the later units' (exchangeable)
                point = walk.point(p + 1, left - 1, relump(counts, starts,
                                                          walk.starts(p + 1, x)), x)
                kids.append((after.setdefault(point, len(after)), 0))
            steps.append((own, sum(counts), tuple(kids)))
        self.steps.append(steps)
        self.points.append(after)
        counted("cc.walk", work)
        return work

    def chances(self, units: int) -> tuple[Vec, int]:
        """The chances of the first ``units`` units (reached), as whole numbers over the
        returned denominator; the points' chances are kept for the rolls after."""
        walk = self.walk
        below: list[Vec] = []
        den = 1
        for p in range(units - 1, -1, -1):
            values: list[Vec] = []
            for (own, drawn, kids), point in zip(self.steps[p], self.points[p], strict=True):
                head = tuple(o * den for o in own)
                if p + 1 == units:
                    vec = head
                elif kids and kids[0][1] == 0:  # one point, all the cards
                    vec = (*head, *(v * drawn for v in below[kids[0][0]]))
                else:
                    total = [0] * len(below[0])
                    for k, n in kids:
                        total = [t + n * v for t, v in zip(total, below[k], strict=True)]
                    vec = (*head, *total)
                values.append(vec)
                _KEPT[(walk.sig[p], self.deck_sig, units - p, point)] = (vec, drawn * den)
            den *= self.steps[p][0][1] if self.steps[p] else 1
            below = values
        while len(_KEPT) > KEPT_POINTS:
            _KEPT.popitem(last=False)
        return below[0], den


def relump(counts: Counts, old: Starts, new: Starts) -> Counts:
    """Counts by the classes ``old`` as counts by the coarser classes ``new``."""
    index = _MAPS.get((old, new))
    if index is None:
        index = _MAPS[(old, new)] = tuple(bisect.bisect_right(new, s) - 1 for s in old)
    out = [0] * len(new)
    for i, n in zip(index, counts, strict=True):
        out[i] += n
    return tuple(out)


def fresh() -> None:
    """Forget the kept points (for a benchmark of a step from cold)."""
    for kept in (_KEPT, _SIGNATURES, _MODEL, _MAPS):
        kept.clear()


def outside_summary(plan: Plan, order: Sequence[str]) -> int:
    """The Command the hex's leaders that roll no more in this attack give (C-12, C-14)."""
    rolling = set(order)
    commands = [u.command for k, u in plan.units.items()
                if u.kind == "leader" and k not in rolling and not u.broken]
    return ar.highest_command(commands, plan.rules.command_from)
