"""The odds at the whole assault's dice (docs/rules/flames-of-war-assault.md): the chance
defensive fire stops the charge (F-A6), and the chance the side that hits wins the round: the
other side has no team left able to fight (F-A17), or every one of its platoons fails the
counterattack test (F-A18, F-A21).

Imported only when odds are shown (through the ``OddsRef`` of a dice question). Every number is
exact (fractions): dice are independent, each team's result depends only on the hits it holds,
and the counterattack test is one die for every platoon.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, OddsReport

SIDES = 6


def at_least(score: int) -> Fraction:
    """One die reaching ``score``."""
    return Fraction(max(0, min(SIDES, SIDES + 1 - score)), SIDES)


def defensive_fire(question: DiceQuestion, *, threshold: int, counting: str) -> OddsReport:
    """The hits of defensive fire, and the chance they stop the charge (F-A6). ``counting``:
    ``all`` (every hit counts), ``tanks`` (a platoon of Tank teams: only a tank destroyed or
    bailed out stops it, which the players' results decide) or ``mixed`` (the hits on Tank
    teams do not count, and the charging player spreads them later)."""
    spec = question.spec
    assert spec.target is not None
    dist = Dist.binomial(spec.count, at_least(spec.target))
    ends: list[EndState] = []
    notes = [Msg.of("fow.odds.df.note.threshold", threshold=threshold)]
    if counting == "all":
        stopped = dist.at_least(threshold)
        ends = [EndState(Msg.of("fow.odds.df.end.stopped"), stopped),
                EndState(Msg.of("fow.odds.df.end.goes_in"), 1 - stopped)]
    else:
        notes.append(Msg.of(f"fow.odds.df.note.{counting}"))
    return OddsReport(Msg.of("fow.odds.df.title", dice=spec.count, score=spec.target),
                      Msg.of("fow.odds.df.unit"), dist, end_states=tuple(ends),
                      notes=tuple(notes))


def motivation(question: DiceQuestion, *, ratings: tuple[tuple[str, int], ...]
               ) -> OddsReport:
    """The counterattack test (F-A18): one die for every platoon; each passes on its
    rating. The chance each passes, and that all fail (the other side wins the round)."""
    dist = Dist({face: Fraction(1, SIDES) for face in range(1, SIDES + 1)})
    ends = [EndState(Msg.of("fow.odds.morale.end.passes", platoon=name), at_least(score))
            for name, score in ratings]
    ends.append(EndState(Msg.of("fow.odds.morale.end.all_fail"),
                         1 - at_least(min(score for _, score in ratings))))
    return OddsReport(Msg.of("fow.odds.morale.title"), Msg.of("fow.odds.morale.unit"), dist,
                      measure=lambda roll: (roll.faces or (0,))[0], end_states=tuple(ends))


def hit_chances(top: int, anti_tank: int, firepower: int, glancing: str
                ) -> tuple[Fraction, Fraction, Fraction]:
    """One assault hit on a vehicle (F-A12, F-A13): the chance it does not bounce, destroys
    and bails out."""
    from referee.rulesets.fow.outcomes import hit_result
    from referee.rulesets.fow.results import save_outcome

    fp = at_least(firepower)
    failed = destroyed = bailed = Fraction(0)
    for face in range(1, SIDES + 1):
        save = save_outcome(face, top, anti_tank)
        if save == "bounced":
            continue
        failed += Fraction(1, SIDES)
        for passed, chance in ((True, fp), (False, 1 - fp)):
            result = hit_result(save, passed, glancing)
            if result == "destroyed":
                destroyed += chance / SIDES
            elif result == "bailed-out":
                bailed += chance / SIDES
    return failed, destroyed, bailed


def team_chances(top: int, hits: Sequence[tuple[int, int]], glancing: str
                 ) -> tuple[Fraction, Fraction]:
    """A vehicle holding ``hits`` (anti-tank, firepower each): the chance it ends destroyed,
    and bailed out (its worst outcome, F-A13)."""
    none_worse = Fraction(1)  # no hit destroys it
    no_effect = Fraction(1)  # no hit destroys or bails it out
    for anti_tank, firepower in hits:
        _, destroyed, bailed = hit_chances(top, anti_tank, firepower, glancing)
        none_worse *= 1 - destroyed
        no_effect *= 1 - destroyed - bailed
    return 1 - none_worse, none_worse - no_effect


def save(question: DiceQuestion, *, team: str, top: int, anti_tanks: tuple[int, ...],
         firepowers: tuple[int, ...], glancing: str) -> OddsReport:
    """A vehicle's assault saves (F-A12): how many fail, and how the vehicle ends."""
    failing = [hit_chances(top, at, fp, glancing)[0] for at, fp in zip(anti_tanks, firepowers,
                                                                       strict=True)]
    dist = Dist.point(0)
    for chance in failing:
        dist = dist + Dist.binomial(1, chance)
    destroyed, bailed = team_chances(top, list(zip(anti_tanks, firepowers, strict=True)),
                                     glancing)
    ends = (EndState(Msg.of("fow.odds.save.end.destroyed", team=team), destroyed),
            EndState(Msg.of("fow.odds.save.end.bailed", team=team), bailed),
            EndState(Msg.of("fow.odds.save.end.none", team=team), 1 - destroyed - bailed))

    def measure(roll: Any) -> int:
        from referee.rulesets.fow.results import save_outcome

        faces = roll.faces or ()
        return sum(1 for face, at in zip(faces, anti_tanks, strict=False)
                   if save_outcome(face, top, at) != "bounced")

    return OddsReport(Msg.of("fow.odds.save.title", team=team, count=len(anti_tanks), top=top),
                      Msg.of("fow.odds.save.unit"), dist, measure=measure, end_states=ends,
                      notes=(Msg.of("fow.odds.save.note"),))
