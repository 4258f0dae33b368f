"""Counterattack or break off (F-A17 to F-A21, F-A24, F-A26): which platoons of the side that
was hit can still fight, which of them must break off without a test because an unarmoured tank
team of theirs is in the assault, the Motivation test of the others on one die (with a re-roll
for the platoons that failed and may re-roll), the choice of the platoons that passed, and
breaking off.

``passes`` and ``captured`` are the rules as pure functions; ``test``, ``choose`` and
``break_off`` ask through the port and write the working.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, DiceQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.fow.fight import (
    BAILED,
    BOGGED,
    DESTROYED,
    Fight,
    Fighter,
    Rated,
    Status,
    answerer,
    can_fight,
)
from referee.rulesets.fow.ratings import motivation_test

COUNTERATTACK, BREAK_OFF = "counterattack", "break-off"


def able(fight: Fight, status: Mapping[str, str], platoons: Iterable[str]) -> list[Rated]:
    """F-A17: the platoons among ``platoons`` with a team that can fight, in the fight's
    order."""
    names = set(platoons)
    return [p for p in fight.platoons if p.name in names and any(
        can_fight(t, status) for t in fight.teams if t.platoon == p.name)]


def unarmoured(fight: Fight, status: Mapping[str, str], platoon: Rated) -> list[Fighter]:
    """F-A26: the platoon's Tank teams without Top armour still in the assault (a team the
    declaration keeps in the fight is near enough: geometry stays at the table)."""
    return [t for t in fight.teams if t.platoon == platoon.name and t.side == platoon.side
            and t.kind == "tank" and t.top is None and status[t.id] != DESTROYED]


def must_break_off(log: StepLog, fight: Fight, status: Mapping[str, str],
                   platoons: Sequence[Rated]) -> list[Rated]:
    """F-A26: the platoons among ``platoons`` that may not counterattack (an unarmoured tank
    team of theirs is in the assault); they break off without a test."""
    out = []
    for p in platoons:
        teams = unarmoured(fight, status, p)
        if teams:
            out.append(p)
            log.outcome(Msg.of("fow.morale.unarmoured", platoon=p.name,
                               teams=", ".join(t.name for t in teams)), "F-A26")
    return out


def passes(die: int, platoon: Rated) -> bool:
    """F-A18: a platoon passes its Motivation test when the die reaches its rating."""
    return die >= motivation_test(platoon.motivation)


def test(port: Port, log: StepLog, fight: Fight, platoons: Sequence[Rated], hits_scored: int,
         round_no: int) -> dict[str, bool]:
    """F-A18 to F-A20: whether each platoon passed its counterattack test."""
    if hits_scored == 0:
        for p in platoons:
            log.outcome(Msg.of("fow.morale.no_hits", platoon=p.name), "F-A19")
        return {p.name: True for p in platoons}
    side = platoons[0].side
    ratings = tuple((p.name, motivation_test(p.motivation)) for p in platoons)
    roll = port.ask(DiceQuestion(
        id=f"round.{round_no}.motivation", spec=DiceSpec(count=1),
        text=Msg.of("fow.q.motivation", side=fight.side_name(side),
                    platoons=", ".join(f"{name} {score}+" for name, score in ratings)),
        clause="F-A18", answered_by=answerer(side),
        odds=OddsRef.to("referee.rulesets.fow.assault_odds:motivation", ratings=ratings,
                        rerolls=tuple(p.name for p in platoons if p.reroll))))
    assert roll.faces is not None
    die = roll.faces[0]
    result = {p.name: passes(die, p) for p in platoons}
    log.roll(Msg.of("fow.morale.roll", side=fight.side_name(side), die=die,
                    source=Msg.of(f"dice.source.{roll.source}")), "F-A18",
             faces=roll.faces, source=roll.source.value)
    for p in platoons:
        log.outcome(Msg.of("fow.morale.passed" if result[p.name] else "fow.morale.failed",
                           platoon=p.name, motivation=Msg.of(f"fow.motivation.{p.motivation}"),
                           score=motivation_test(p.motivation)), "F-A18")
    again = [p for p in platoons if not result[p.name] and p.reroll]
    if again:
        reroll = port.ask(DiceQuestion(
            id=f"round.{round_no}.reroll", spec=DiceSpec(count=1),
            text=Msg.of("fow.q.reroll", platoons=", ".join(p.name for p in again)),
            clause="F-A20", answered_by=answerer(side),
            odds=OddsRef.to("referee.rulesets.fow.assault_odds:motivation",
                            ratings=tuple((p.name, motivation_test(p.motivation))
                                          for p in again))))
        assert reroll.faces is not None
        second = reroll.faces[0]
        log.roll(Msg.of("fow.morale.reroll", die=second,
                        source=Msg.of(f"dice.source.{reroll.source}")), "F-A20",
                 faces=reroll.faces, source=reroll.source.value)
        for p in again:
            result[p.name] = passes(second, p)
            log.outcome(Msg.of("fow.morale.passed" if result[p.name] else "fow.morale.failed",
                               platoon=p.name,
                               motivation=Msg.of(f"fow.motivation.{p.motivation}"),
                               score=motivation_test(p.motivation)), "F-A20")
    return result


def choose(port: Port, log: StepLog, platoons: Sequence[Rated], passed: Mapping[str, bool],
           round_no: int) -> dict[str, str]:
    """F-A21: counterattack or break off, for each platoon (asked of those that passed)."""
    out: dict[str, str] = {}
    for p in platoons:
        if not passed[p.name]:
            out[p.name] = BREAK_OFF
            continue
        choice: str = port.ask(ChoiceQuestion(
            id=f"round.{round_no}.choice.{p.ident}",
            text=Msg.of("fow.q.counterattack", platoon=p.name),
            choices=tuple(Choice(c, Msg.of(f"fow.morale.choice.{c}"))
                          for c in (COUNTERATTACK, BREAK_OFF)),
            default_value=COUNTERATTACK, clause="F-A21", whatif=True,
            answered_by=answerer(p.side)))
        out[p.name] = choice
        log.input(Msg.of(f"fow.morale.chose.{choice}", platoon=p.name), "F-A21")
    return out


def captured(teams: Sequence[Fighter], status: Mapping[str, str], reading: str) -> list[str]:
    """F-A24 (F-X14): the teams of a platoon breaking off that cannot move away."""
    if reading == "none":
        return []
    return [t.id for t in teams if t.is_vehicle and status[t.id] in (BAILED, BOGGED)]


def break_off(log: StepLog, fight: Fight, status: Status, platoon: Rated,
              options: Mapping[str, Any]) -> list[str]:
    """F-A24: the platoon breaks off and is Pinned Down; its captured teams are destroyed.
    Returns the captured teams."""
    teams = [t for t in fight.teams if t.platoon == platoon.name and status[t.id] != DESTROYED]
    lost = captured(teams, status, str(options["captured-on-break-off"]))
    log.outcome(Msg.of("fow.morale.breaks_off", platoon=platoon.name), "F-A24")
    for team_id in lost:
        status[team_id] = DESTROYED
        log.outcome(Msg.of("fow.morale.captured", team=fight.team(team_id).name), "F-X14")
    return lost
