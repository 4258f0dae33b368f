"""Defensive fire (F-A3 to F-A7): the defending teams that fire at the charge, the hits they
score, what the hits did (entered by the players: the shooting rules are not adjudicated
here), and whether the charge is stopped.

``charge_stopped`` is the rule as a pure function; ``fire`` asks through the port and writes
the working.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import DEFENDER, DiceQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.fow.fight import BAILED, DESTROYED, Fight, Fighter, Status
from referee.rulesets.fow.fight_line import CasualtiesQuestion
from referee.rulesets.fow.line import none_line
from referee.rulesets.fow.ratings import to_hit_as_target

MAX_SCORE = 6


@dataclass(frozen=True)
class DefensiveFire:
    """What defensive fire did: its hits, the charging teams it destroyed or bailed out,
    and whether it stopped the charge (``reason``: the message id of why, or ``None``)."""

    hits: int
    casualties: tuple[tuple[str, str], ...]
    stopped: bool
    reason: str | None = None


def firers(fight: Fight, status: Mapping[str, str]) -> tuple[Fighter, ...]:
    """F-A3: the defending teams that fire: those given dice, neither destroyed nor bailed
    out."""
    return tuple(t for t in fight.of_side("defender")
                 if t.fires and status[t.id] not in (BAILED, DESTROYED))


def score(fight: Fight) -> int:
    """F-A4: the score to hit the charging platoon, one more when it is concealed."""
    return min(MAX_SCORE, to_hit_as_target(fight.charging.skill) + int(fight.concealed))


def charge_stopped(tanks: Sequence[bool], hits: int, tank_hits: int,
                   casualties: Mapping[str, str], tank_ids: Sequence[str], threshold: int,
                   rule: str) -> str | None:
    """F-A6: why the charge is stopped (a message id), or ``None`` when it goes in.

    ``tanks``: whether each charging team is a Tank team; ``tank_hits``: the hits the
    charging player put on Tank teams; ``rule``: option ``tank-charge-stop`` (F-X11)."""
    if rule == "hits" or not any(tanks):
        return "fow.df.stop.hits" if hits >= threshold else None
    if any(casualties.get(t) in (BAILED, DESTROYED) for t in tank_ids):
        return "fow.df.stop.tank"
    if all(tanks):
        return None
    return "fow.df.stop.hits" if hits - tank_hits >= threshold else None


def fire(port: Port, log: StepLog, fight: Fight, status: Status,
         options: Mapping[str, Any]) -> DefensiveFire:
    """Resolve defensive fire; ``status`` is updated with the teams it destroyed or bailed
    out."""
    shooting = firers(fight, status)
    charging = fight.of_side("attacker")
    threshold = int(options["defensive-fire-stop"])
    if not shooting:
        log.outcome(Msg.of("fow.df.none"), "F-A3")
        return DefensiveFire(0, (), False)
    dice = sum(t.fires for t in shooting)
    needed = score(fight)
    log.input(Msg.of("fow.df.firers", teams=", ".join(f"{t.name} ({t.fires})" for t in shooting),
                     dice=dice), "F-A3")
    skill = fight.charging.skill
    log.modifier(Msg.of("fow.df.base", platoon=fight.charging.name,
                        skill=Msg.of(f"fow.skill.{skill}"), score=to_hit_as_target(skill)),
                 "F-A4")
    if fight.concealed:
        log.modifier(Msg.of("fow.df.concealed", score=needed), "F-A4")
    tanks = [t.kind == "tank" for t in charging]
    roll = port.ask(DiceQuestion(
        id="defensive-fire", spec=DiceSpec(count=dice, target=needed, count_only=True),
        text=Msg.of("fow.q.defensive_fire", dice=dice, score=needed), clause="F-A4",
        answered_by=DEFENDER,  # F-A3: the defending teams fire
        odds=OddsRef.to("referee.rulesets.fow.assault_odds:defensive_fire",
                        threshold=threshold, counting=_counting(tanks, options))))
    hits = roll.successes
    log.roll(Msg.of("fow.df.roll", dice=dice, score=needed,
                    faces=" ".join(map(str, roll.faces)) if roll.faces else f"={hits}",
                    source=Msg.of(f"dice.source.{roll.source}"), hits=hits), "F-A4",
             faces=roll.faces, source=roll.source.value, hits=hits)
    casualties: tuple[tuple[str, str], ...] = ()
    if hits:
        casualties = port.ask(CasualtiesQuestion(
            id="defensive-fire.results", text=Msg.of("fow.q.df_results", hits=hits),
            team_ids=tuple(t.id for t in charging),
            vehicles=tuple(t.id for t in charging if t.is_vehicle), most=hits,
            hint_msg=Msg.of("fow.hint.casualties",
                            teams=", ".join(f"{t.id} {t.name}" for t in charging)),
            default_value=none_line(), clause="F-A5"))
    for team_id, result in casualties:
        status[team_id] = result
        log.outcome(Msg.of(f"fow.df.casualty.{result}", team=fight.team(team_id).name), "F-A5")
    if hits and not casualties:
        log.outcome(Msg.of("fow.df.no_casualty"), "F-A5")
    tank_ids = [t.id for t in charging if t.kind == "tank"]
    tank_hits = 0
    if (options["tank-charge-stop"] == "bailed-or-destroyed" and any(tanks)
            and not all(tanks) and hits >= threshold
            and not any(dict(casualties).get(t) for t in tank_ids)):
        tank_hits = port.ask(NumberQuestion(
            id="defensive-fire.tank-hits", text=Msg.of("fow.q.df_tank_hits", hits=hits),
            minimum=0, maximum=hits, default_value=0, clause="F-A6"))
        log.input(Msg.of("fow.df.tank_hits", hits=tank_hits), "F-A6")
    reason = charge_stopped(tanks, hits, tank_hits, dict(casualties), tank_ids, threshold,
                            str(options["tank-charge-stop"]))
    if reason is None:
        log.outcome(Msg.of("fow.df.goes_in", hits=hits, threshold=threshold), "F-A6")
    else:
        log.outcome(Msg.of(reason, hits=hits - tank_hits, threshold=threshold), "F-A6")
    return DefensiveFire(hits, casualties, reason is not None, reason)


def _counting(tanks: Sequence[bool], options: Mapping[str, Any]) -> str:
    """How the odds may count the hits towards the threshold: ``all`` (every hit counts),
    ``tanks`` (a platoon of Tank teams only: stopped by casualties, not by hits), ``mixed``
    (the hits on Tank teams do not count: not known before the charging player spreads
    them)."""
    if options["tank-charge-stop"] == "hits" or not any(tanks):
        return "all"
    return "tanks" if all(tanks) else "mixed"
