"""Which defending teams each hitting team's hits may go to (F-2, F-9 to F-13).

A pure function of the declaration and the readings: each excluded team carries the clause
that rules it out, and a hitting team with no eligible team has its hits ignored (F-11,
F-12), with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rulesets.fow.declaration import AssaultDeclaration, DefendingTeam, HittingTeam
from referee.rulesets.fow.problem import Hit, Problem, Readings, Team


@dataclass(frozen=True)
class EscortReadings:
    escorts_as_tanks: bool = True  # F-X5: "accompanying infantry" are V3 Tank Escorts
    escorts_hit_vehicles: bool = False  # F-X7: body wins, escorts never hit vehicles


@dataclass(frozen=True)
class Reach:
    """One hitting team's eligibility: the teams its hits may go to, and the teams it
    might have hit but may not, each with the clause that rules it out."""

    hitter: HittingTeam
    considered: tuple[str, ...]  # the teams the situation puts in play (F-2 or F-10)
    eligible: tuple[str, ...]
    excluded: tuple[tuple[str, str], ...]  # (team id, clause)

    @property
    def ignored(self) -> bool:
        return self.hitter.hits > 0 and not self.eligible

    def ignored_clauses(self) -> tuple[str, ...]:
        in_play = set(self.considered)
        clauses = {c for t, c in self.excluded if t in in_play} or {"F-2"}
        return tuple(sorted(clauses, key=clause_order))


def clause_order(clause: str) -> tuple[int, str]:
    tail = clause.split("-")[-1]
    return (int(tail), clause) if tail.isdigit() else (99, clause)


def team_from(d: DefendingTeam) -> Team:
    return Team(d.id, d.label, d.type, d.status, d.top, d.building, d.platoon)


def reach_of(h: HittingTeam, defenders: tuple[DefendingTeam, ...],
             readings: EscortReadings) -> Reach:
    escort_as_tank = h.type == "tank-escort" and readings.escorts_as_tanks
    tankish = h.type == "tank" or escort_as_tank
    no_vehicles = h.type == "tank" or (escort_as_tank and not readings.escorts_hit_vehicles)
    # F-10: a team fighting at or in a building hits the teams the building puts in play
    if h.situation in ("outside-at-opening", "inside"):
        considered = tuple(d.id for d in defenders if d.building == h.building)
        place = "F-10"
    elif h.situation == "inside-through-opening":
        considered = tuple(d.id for d in defenders if d.id in h.near_opening)
        place = "F-10"
    else:
        considered = tuple(d.id for d in defenders if d.id in h.reaches)
        place = "F-2"
    eligible: list[str] = []
    excluded: list[tuple[str, str]] = []
    for d in defenders:
        if d.id not in considered:
            excluded.append((d.id, place))
        elif d.id in h.impassable:
            excluded.append((d.id, "F-13"))
        elif no_vehicles and d.type in ("tank", "transport"):
            excluded.append((d.id, "F-12"))
        elif h.situation == "open" and d.building is not None and not (
                tankish and h.fully_armoured):
            # F-11: only Fully-Armoured tanks (and their escorts) hit teams in buildings from
            # outside; other teams fight them through an opening (F-10)
            excluded.append((d.id, "F-11" if tankish else "F-10"))
        else:
            eligible.append(d.id)
    return Reach(h, considered, tuple(eligible), tuple(excluded))


def build(decl: AssaultDeclaration, readings: Readings,
          escorts: EscortReadings) -> tuple[Problem, tuple[Reach, ...], dict[int, str]]:
    """The allocation problem, each hitting team's reach, and the hitting team of every hit
    number (ignored hits included: they keep their numbers)."""
    defenders = tuple(decl.defending)
    reaches = tuple(reach_of(h, defenders, escorts) for h in decl.hitting)
    hits: list[Hit] = []
    source: dict[int, str] = {}
    number = 0
    for r in reaches:
        for _ in range(r.hitter.hits):
            number += 1
            source[number] = r.hitter.id
            if r.eligible:
                hits.append(Hit(number, r.hitter.label, r.eligible, r.hitter.priority,
                                r.excluded))
    problem = Problem(tuple(team_from(d) for d in defenders), tuple(hits), readings)
    return problem, reaches, source
