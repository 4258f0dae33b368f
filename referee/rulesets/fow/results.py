"""The results step (F-7): only once every hit is allocated.

The brief's section 4 gives the consequences only as an [UNVERIFIED] recollection of the
V3 rules, so they are one of three choices, never the only path: apply that reading (infantry
and gun teams hit are destroyed; armoured vehicles save with a die plus Top armour against the
assault's anti-tank rating), enter each team's result from the players' own rulebook, or
stop after the allocation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import DEFENDER, EITHER, Choice, ChoiceQuestion, DiceQuestion
from referee.core.result import StepLog
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.fow.problem import Problem

RESULT_CHOICES = ("destroyed", "bailed-out", "no-effect")


def ask_mode(port: Port) -> str:
    mode: str = port.ask(ChoiceQuestion(
        id="results", text=Msg.of("fow.q.results"),
        choices=tuple(Choice(c, Msg.of(f"fow.results.mode.{c}"))
                      for c in ("skip", "unverified", "enter")),
        default_value="skip", clause="F-7", answered_by=EITHER))
    return mode


def _enter(port: Port, team_id: str, name: str, held: int) -> str:
    value: str = port.ask(ChoiceQuestion(
        id=f"result.{team_id}", text=Msg.of("fow.q.result", team=name, hits=held),
        choices=tuple(Choice(c, Msg.of(f"fow.result.{c}")) for c in RESULT_CHOICES),
        default_value="destroyed", clause="F-7", answered_by=DEFENDER))
    return value


def resolve(port: Port, problem: Problem, held: Mapping[str, int], mode: str,
            options: Mapping[str, Any], log: StepLog
            ) -> tuple[list[tuple[Any, ...]], dict[str, list[str]]]:
    """Rows of the results table (team, hits, what happened, the reading used), and for
    each team hit the outcome ids (``destroyed``, ``bounced``, ``glancing``...)."""
    rows: list[tuple[Any, ...]] = []
    effects: dict[str, list[str]] = {}
    anti_tank, firepower = options["assault-anti-tank"], options["assault-firepower"]
    settled: list[tuple[str, str, int]] = []  # the teams resolved so far, for the odds
    label = odds_labels(problem)
    if mode == "unverified":
        log.warning(Msg.of("fow.step.unverified", anti_tank=anti_tank, firepower=firepower),
                    "F-7")
    for team in problem.teams:
        count = held.get(team.id, 0)
        if count == 0:
            continue
        if mode == "enter":
            chosen = _enter(port, team.id, team.name, count)
            effects[team.id] = [chosen]
            rows.append((team.name, count, _result_cell([chosen]), Msg.of("fow.reading.entered")))
            log.outcome(Msg.of("fow.step.result_entered", team=team.name,
                               result=Msg.of(f"fow.result.{chosen}")), "F-7")
            continue
        if team.kind in ("infantry", "gun"):
            effects[team.id] = ["destroyed"]
            settled.append((label[team.id], "destroyed", 0))
            rows.append((team.name, count, _result_cell(["destroyed"]),
                         Msg.of("fow.reading.unverified")))
            log.outcome(Msg.of("fow.step.destroyed_no_save", team=team.name), "F-7")
        elif team.armoured:
            assert team.top_armour is not None
            roll = port.ask(DiceQuestion(
                id=f"save.{team.id}", spec=DiceSpec(count=count),
                text=Msg.of("fow.q.save", team=team.name, count=count, top=team.top_armour,
                            anti_tank=anti_tank), clause="F-7", answered_by=DEFENDER,
                odds=OddsRef.to("referee.rulesets.fow.odds:save", team=label[team.id],
                                top=team.top_armour, anti_tank=anti_tank, firepower=firepower,
                                settled=tuple(settled),
                                later=_later(problem, held, team.id))))
            assert roll.faces is not None
            outcomes = [save_outcome(face, team.top_armour, anti_tank) for face in roll.faces]
            effects[team.id] = outcomes
            settled.append((label[team.id], "saved", outcomes.count("penetrating")))
            log.roll(Msg.of("fow.step.save", team=team.name, top=team.top_armour,
                            anti_tank=anti_tank,
                            faces=" ".join(map(str, roll.faces)),
                            source=Msg.of(f"dice.source.{roll.source}"),
                            bounced=outcomes.count("bounced"),
                            glancing=outcomes.count("glancing"),
                            penetrating=outcomes.count("penetrating")), "F-7",
                     faces=roll.faces, source=roll.source.value)
            rows.append((team.name, count, _result_cell(outcomes, firepower),
                         Msg.of("fow.reading.unverified")))
        else:
            chosen = _enter(port, team.id, team.name, count)
            effects[team.id] = [chosen]
            settled.append((label[team.id], "destroyed" if chosen == "destroyed"
                            else "not-destroyed", 0))
            rows.append((team.name, count, _result_cell([chosen]),
                         Msg.of("fow.reading.entered_unarmoured")))
            log.outcome(Msg.of("fow.step.result_entered", team=team.name,
                               result=Msg.of(f"fow.result.{chosen}")), "F-7")
    return rows, effects


def _result_cell(outcomes: list[str], firepower: int | None = None) -> Shown:
    """What happened to a team, as a results table cell: the outcome ids (one entered or
    known, or each hit's save: ``bounced``, ``glancing``, ``penetrating``) and the
    firepower roll the rulebook then asks for (``null``: no save was rolled)."""
    if firepower is None:
        (outcome,) = outcomes
        return Shown({"outcomes": outcomes, "firepower": None}, Msg.of(f"fow.result.{outcome}"))
    return Shown({"outcomes": outcomes, "firepower": firepower},
                 tuple(Msg.of(f"fow.save.{o}", firepower=firepower) for o in outcomes))


def odds_labels(problem: Problem) -> dict[str, str]:
    """Each team's name in the odds, by id: its name, or ``name (id)`` where two teams share
    a name, so that every end state (and a what-if row, matched by label) is one team's."""
    names = [t.name for t in problem.teams]
    return {t.id: t.name if names.count(t.name) == 1 else f"{t.name} ({t.id})"
            for t in problem.teams}


def _later(problem: Problem, held: Mapping[str, int], team_id: str
           ) -> tuple[tuple[str, str, int, int], ...]:
    """The teams hit after ``team_id``, in the order their results come, for the odds of its
    save: (name, how, hits held, Top armour) with how ``destroyed`` (no save), ``save`` (an
    armoured vehicle's save) or ``entered`` (the players enter its result)."""
    label = odds_labels(problem)
    teams = [t for t in problem.teams if held.get(t.id, 0)]
    after = teams[[t.id for t in teams].index(team_id) + 1:]
    return tuple((label[t.id], "destroyed" if t.kind in ("infantry", "gun")
                  else "save" if t.armoured else "entered",
                  held[t.id], t.top_armour or 0) for t in after)


def save_outcome(face: int, top: int, anti_tank: int) -> str:
    """Die plus Top armour against the anti-tank rating: higher bounces, equal is a
    glancing hit, lower penetrates [UNVERIFIED reading, brief section 4]."""
    total = face + top
    if total > anti_tank:
        return "bounced"
    return "glancing" if total == anti_tank else "penetrating"
