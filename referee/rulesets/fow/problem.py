"""The allocation problem as plain values: defending teams, hits with their eligible teams,
and the readings (ruleset options) that shape the order of allocation.

The order of allocation is expressed as a *rank* for each hit a team can hold: a team's
``j``-th hit has rank ``(j, tier)`` for its first hit and ``(j, 0)`` after that, so that

* every team eligible for some hit gets one before any team gets a second (F-3),
* first hits go to active Tank, Infantry and Gun teams, then to Bogged Down or Bailed Out
  ones, then to Transports (F-4, F-5, resolved as three tiers per F-X8).

An allocation's *score* is then compared lexicographically: the evenness weight (the sum of
its hits' rank weights: lower is more even), then the number of hits left off their
attacker's declared priority type (F-8, F-X4), then Top armour (F-6, F-X3), which is a
pairwise rule checked separately (see ``validate``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.rulesets.fow.flow import loads

TEAM_KINDS = ("tank", "infantry", "gun", "transport")
VEHICLE_KINDS = ("tank", "transport")
STATUSES = ("active", "bogged-down", "bailed-out")


@dataclass(frozen=True)
class Team:
    """A defending team (only what allocation needs)."""

    id: str
    name: str
    kind: str  # one of TEAM_KINDS
    status: str = "active"  # one of STATUSES
    top_armour: int | None = None  # armoured vehicles only
    building: str | None = None
    platoon: str | None = None

    @property
    def is_vehicle(self) -> bool:
        return self.kind in VEHICLE_KINDS

    @property
    def armoured(self) -> bool:
        return self.is_vehicle and self.top_armour is not None

    @property
    def bogged_or_bailed(self) -> bool:
        return self.status != "active"


@dataclass(frozen=True)
class Hit:
    """One hit to allocate: its number, the attacking team that scored it, the attacker's
    declared priority type (F-8) and the defending teams it may go to (F-2, F-9 to F-13)."""

    number: int
    attacker: str
    eligible: tuple[str, ...]
    priority: str | None = None
    # teams this hit may not go to, each with the clause that rules it out
    excluded: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Readings:
    """The option values that change the order of allocation."""

    tiers: str = "three-tiers"  # F-X8: "three-tiers" or "bogged-last"
    armour_every_round: bool = True  # F-X3: the lowest-Top order starts again each round
    priority_first: bool = False  # F-X4: priority before evenness (non-default)
    # F-X2: bogged down and bailed out teams wait for "all-other-teams" (body) or, in the
    # summary's reading, "functioning-vehicles" only
    stopped_wait: str = "all-other-teams"


@dataclass(frozen=True)
class Problem:
    teams: tuple[Team, ...]
    hits: tuple[Hit, ...]
    readings: Readings = field(default_factory=Readings)
    _by_id: dict[str, Team] = field(init=False, repr=False, compare=False)
    _by_number: dict[int, Hit] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {t.id: t for t in self.teams})
        object.__setattr__(self, "_by_number", {h.number: h for h in self.hits})

    def team(self, team_id: str) -> Team:
        return self._by_id[team_id]

    def hit(self, number: int) -> Hit:
        return self._by_number[number]

    # --- the order of allocation ---------------------------------------------------------

    def tier(self, team: Team) -> int:
        """1: active Tank/Infantry/Gun; 2: Bogged Down or Bailed Out; 3: Transports;
        4: Bogged Down or Bailed Out Transports (F-4, F-5, F-X8). With the F-X8 reading
        ``bogged-last``, transports come before bogged and bailed out teams."""
        transport = team.kind == "transport"
        # F-X2 summary reading: a stopped Tank waits for functioning vehicles only, which
        # ``precedes`` decides pairwise; it is not a tier of its own
        stopped = team.bogged_or_bailed and (transport or not self._summary_stopped)
        if self.readings.tiers == "bogged-last":
            return 1 + int(transport) + 2 * int(stopped)
        return 1 + int(stopped) + 2 * int(transport)

    @property
    def _summary_stopped(self) -> bool:
        return self.readings.stopped_wait == "functioning-vehicles"

    def rank(self, team: Team, j: int) -> tuple[int, int]:
        """The rank of the ``j``-th hit on ``team``: tiers order the first hits only."""
        return (j, self.tier(team) if j == 1 else 0)

    def rank_weight(self, team: Team, j: int) -> int:
        """A strictly increasing number for ``rank``: first hits 1 to 4 by tier, then
        ``j + 3`` for a team's ``j``-th hit."""
        return self.tier(team) if j == 1 else j + 3

    def evenness(self, allocation: Mapping[int, str]) -> int:
        return sum(self.rank_weight(self.team(t), j)
                   for t, held in loads(allocation).items() for j in range(1, held + 1))

    def off_priority(self, allocation: Mapping[int, str]) -> int:
        """Hits from teams with a declared priority type that sit on another type (F-8)."""
        return sum(1 for h in self.hits
                   if h.priority is not None and self.team(allocation[h.number]).kind
                   != h.priority)

    def score(self, allocation: Mapping[int, str]) -> tuple[int, int]:
        """Lower is better; the order of the two parts follows F-X4."""
        even, prio = self.evenness(allocation), self.off_priority(allocation)
        return (prio, even) if self.readings.priority_first else (even, prio)

    def armour_applies(self, j: int) -> bool:
        """F-X3: does the lowest-Top order apply to a team's ``j``-th hit?"""
        return self.readings.armour_every_round or j == 1

    # --- the pairwise order among vehicles (F-6; F-4 under the F-X2 summary reading) -----

    def vehicle_key(self, team: Team, j: int) -> tuple[int, int | None] | None:
        """For a vehicle's ``j``-th hit: (stopped, Top armour), each ``None``/0 where no
        rule orders it; ``None`` for teams that are not vehicles."""
        if not team.is_vehicle:
            return None
        stopped = int(self._summary_stopped and j == 1 and team.bogged_or_bailed
                      and team.kind != "transport")
        top = team.top_armour if team.armoured and self.armour_applies(j) else None
        return (stopped, top)

    def precedes(self, u: Team, t: Team, j: int) -> str | None:
        """The clause by which vehicle ``u`` takes a ``j``-th hit before vehicle ``t`` does
        (F-4 under the summary reading, then F-6 lowest Top armour), or ``None``."""
        ku, kt = self.vehicle_key(u, j), self.vehicle_key(t, j)
        if ku is None or kt is None:
            return None
        if ku[0] != kt[0]:
            return "F-4" if ku[0] < kt[0] else None
        if ku[1] is not None and kt[1] is not None and ku[1] < kt[1]:
            return "F-6"
        return None

    @functools.cached_property
    def max_top(self) -> int:
        return max((t.top_armour or 0) for t in self.teams)

    def order_cost(self, team: Team, j: int) -> int:
        """A small cost that makes every ``precedes`` move cheaper (for the solver)."""
        key = self.vehicle_key(team, j)
        if key is None:
            return 0
        return key[0] * (self.max_top + 2) + (0 if key[1] is None else key[1] + 1)
