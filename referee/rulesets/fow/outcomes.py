"""What a round's assault hits do to the teams that hold them (F-A11 to F-A16): infantry and
gun teams are destroyed, unarmoured vehicles too, armoured vehicles save each hit with a die
plus Top armour against the hitting team's anti-tank, and each hit that does not bounce faces
a firepower test. ``hit_result`` and ``worst`` are the rule as pure functions; ``resolve``
asks for the dice and writes the working.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import DiceQuestion
from referee.core.result import StepLog
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.fow.allocate import Allocated
from referee.rulesets.fow.fight import (
    BAILED,
    DESTROYED,
    Fight,
    Fighter,
    Status,
    answerer,
    other,
)
from referee.rulesets.fow.results import save_outcome

NO_EFFECT = "no-effect"
ORDER = (NO_EFFECT, BAILED, DESTROYED)  # worse to the right


def worst(outcomes: Sequence[str]) -> str:
    """F-A13: a vehicle takes the worst outcome of its hits."""
    return max(outcomes, key=ORDER.index, default=NO_EFFECT)


def hit_result(save: str, firepower_passed: bool, glancing: str) -> str:
    """F-A13: one hit's outcome from its save (``bounced``, ``glancing``, ``penetrating``)
    and its firepower test; ``glancing``: option ``glancing-hit`` (F-X12)."""
    if save == "bounced":
        return NO_EFFECT
    if save == "penetrating" or glancing == "as-penetrating":
        return DESTROYED if firepower_passed else BAILED
    return BAILED if firepower_passed else NO_EFFECT


def firepower_passes(face: int, firepower: int) -> bool:
    return face >= firepower


def without_save(team: Fighter, state: str, options: Mapping[str, Any]) -> str | None:
    """The clause by which a team holding an assault hit is destroyed without a save, or
    ``None`` when it saves (an armoured vehicle)."""
    if team.kind in ("infantry", "gun"):
        return "F-A11"
    if team.top is None:
        return "F-A14"
    if state in ("bogged-down", BAILED) and options["stopped-vehicles-hit"] == "destroyed":
        return "F-X10"
    return None


@dataclass(frozen=True)
class HitRatings:
    """The anti-tank and firepower a hitting team has in an assault (F-A12, F-A13)."""

    anti_tank: int
    firepower: int


def ratings_of(team: Fighter, options: Mapping[str, Any]) -> HitRatings:
    return HitRatings(team.anti_tank if team.anti_tank is not None
                      else int(options["assault-anti-tank"]),
                      team.firepower if team.firepower is not None
                      else int(options["assault-firepower"]))


def resolve(port: Port, log: StepLog, fight: Fight, status: Status, done: Allocated,
            options: Mapping[str, Any], round_no: int) -> list[tuple[Any, ...]]:
    """The results of a round's allocated hits, in team order; ``status`` is updated. The
    rows of the round's results table: team, hits, what happened, clause."""
    rows: list[tuple[Any, ...]] = []
    held = done.held
    for target in done.problem.teams:
        count = held.get(target.id, 0)
        if not count:
            continue
        team = fight.team(target.id)
        clause = without_save(team, status[team.id], options)
        if clause is not None:
            status[team.id] = DESTROYED
            log.outcome(Msg.of(f"fow.result_step.{clause}", team=team.name, hits=count), clause)
            rows.append((team.name, count, _cell([DESTROYED]), clause))
            continue
        numbers = sorted(n for n, t in done.allocation.items() if t == team.id)
        by = [ratings_of(fight.team(done.source[n]), options) for n in numbers]
        outcomes = _armoured(port, log, team, by, options, round_no)
        result = worst(outcomes)
        if result != NO_EFFECT:
            status[team.id] = result
        log.outcome(Msg.of(f"fow.result_step.vehicle.{result}", team=team.name), "F-A13")
        rows.append((team.name, count, _cell(outcomes), "F-A13"))
    return rows


def _armoured(port: Port, log: StepLog, team: Fighter, by: Sequence[HitRatings],
              options: Mapping[str, Any], round_no: int) -> list[str]:
    """F-A12, F-A13: an armoured vehicle's saves, one die a hit, and the firepower tests of
    the hits that do not bounce."""
    assert team.top is not None
    top = team.top
    anti_tanks = sorted({r.anti_tank for r in by})
    roll = port.ask(DiceQuestion(
        id=f"round.{round_no}.save.{team.id}", spec=DiceSpec(count=len(by)),
        text=Msg.of("fow.q.assault_save", team=team.name, count=len(by), top=top,
                    anti_tank="/".join(map(str, anti_tanks))), clause="F-A12",
        answered_by=answerer(team.side),  # the hit team's owner saves
        odds=OddsRef.to("referee.rulesets.fow.assault_odds:save", team=team.name, top=top,
                        anti_tanks=tuple(r.anti_tank for r in by),
                        firepowers=tuple(r.firepower for r in by),
                        glancing=str(options["glancing-hit"]))))
    assert roll.faces is not None
    saves = [save_outcome(face, top, r.anti_tank) for face, r in zip(roll.faces, by,
                                                                     strict=True)]
    log.roll(Msg.of("fow.result_step.save", team=team.name, top=top,
                    anti_tank="/".join(map(str, anti_tanks)),
                    faces=" ".join(map(str, roll.faces)),
                    source=Msg.of(f"dice.source.{roll.source}"),
                    bounced=saves.count("bounced"), glancing=saves.count("glancing"),
                    penetrating=saves.count("penetrating")), "F-A12",
             faces=roll.faces, source=roll.source.value)
    failed = [i for i, s in enumerate(saves) if s != "bounced"]
    passed = dict.fromkeys(failed, True)
    needing = [i for i in failed if by[i].firepower > 1]
    if failed and not needing:
        log.modifier(Msg.of("fow.result_step.firepower_always", team=team.name), "F-A13")
    if needing:
        fp = sorted({by[i].firepower for i in needing})
        test = port.ask(DiceQuestion(
            id=f"round.{round_no}.firepower.{team.id}", spec=DiceSpec(count=len(needing)),
            text=Msg.of("fow.q.firepower", team=team.name, count=len(needing),
                        firepower="/".join(map(str, fp))), clause="F-A13",
            answered_by=answerer(other(team.side))))  # the hitting side's firepower
        assert test.faces is not None
        for i, face in zip(needing, test.faces, strict=True):
            passed[i] = firepower_passes(face, by[i].firepower)
        log.roll(Msg.of("fow.result_step.firepower", team=team.name,
                        firepower="/".join(map(str, fp)), faces=" ".join(map(str, test.faces)),
                        source=Msg.of(f"dice.source.{test.source}"),
                        passed=sum(passed[i] for i in needing)), "F-A13",
                 faces=test.faces, source=test.source.value)
    glancing = str(options["glancing-hit"])
    if "glancing" in saves and glancing != "bails-out":
        log.note(Msg.of(f"fow.result_step.glancing.{glancing}"), "F-X12")
    return [hit_result(s, passed.get(i, False), glancing) for i, s in enumerate(saves)]


def _cell(outcomes: list[str]) -> Shown:
    """What happened to a team, as a results table cell: each hit's outcome and the team's."""
    result = worst(outcomes)
    return Shown({"outcomes": outcomes, "result": result},
                 Msg.of(f"fow.fight_result.{result}"))
