"""War engines take damage (E-W1, E-W4, E-W5): points off their damage capacity, a die per
point for critical hits, and a critical's effect read from the war engine's datasheet, which
is not public here: asked at the table, or read from the user's file (option
``critical-hits-file``: ``[[critical]]`` tables with the war engine's ``name``, the
``extra_damage`` a critical does and whether it ``destroys`` it). Pure: questions through the
port, steps into the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.port import Port
from referee.core.questions import ConfirmQuestion, DiceQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.table import dice_text
from referee.core.text import Msg

CRITICAL_FACE = 6  # E-W4: a 6 on the die rolled for a point of damage


@dataclass(frozen=True)
class Damage:
    """What ``points`` of damage did: the points it took (never beyond its capacity), its
    damage after, destroyed or not, the critical hits, and whether a critical destroyed it
    (then the Blast markers for the capacity it had left, E-W5)."""

    points: int
    damage_after: int
    destroyed: bool
    criticals: int
    by_critical: bool = False


@dataclass(frozen=True)
class CriticalEffect:
    extra_damage: int
    destroys: bool


def read_criticals(path: str | None) -> dict[str, CriticalEffect]:
    """The user's file of critical hit effects, by war engine name (folded)."""
    if not path:
        return {}
    from referee.files import read_toml

    _, raw = read_toml(path)
    out = {}
    for row in raw.get("critical", []):
        out[str(row["name"]).casefold()] = CriticalEffect(int(row.get("extra_damage", 0)),
                                                          bool(row.get("destroys", False)))
    return out


def apply_damage(port: Port, log: StepLog, key: str, shown: Msg | str, dc: int,
                 damage: int, points: int, qid: str, *, name: str = "",
                 datasheet: Any = None, criticals: bool = True) -> Damage:
    """``points`` of damage on a war engine that has taken ``damage`` of its ``dc`` (E-W1):
    a die for each point it takes, a 6 a critical hit whose effect comes from its datasheet
    (E-W4); hits a critical adds roll for criticals too. Never beyond its capacity."""
    taken = min(points, dc - damage)
    found = 0
    by_critical = False
    to_roll = taken if criticals else 0
    round_ = 0
    while to_roll and not by_critical:
        round_ += 1
        roll = port.ask(DiceQuestion(
            id=qid if round_ == 1 else f"{qid}.{round_}", clause="E-W4",
            spec=DiceSpec(count=to_roll, target=CRITICAL_FACE, count_only=True),
            text=Msg.of("epic.we.q.critical", unit=shown, count=to_roll)))
        crits = roll.successes
        found += crits
        log.roll(Msg.of("epic.we.step.critical_roll", unit=shown, count=to_roll,
                        faces=dice_text(roll), crits=crits), "E-W4", faces=roll.faces,
                 criticals=crits)
        to_roll = 0
        for i in range(crits):
            effect = _effect(port, shown, name, datasheet, f"{qid}.effect.{round_}.{i + 1}")
            if effect.destroys:
                by_critical = True
                log.outcome(Msg.of("epic.we.step.critical_destroys", unit=shown,
                                   left=dc - damage - taken), "E-W5", left=dc - damage - taken)
                taken = dc - damage
                break
            extra = min(effect.extra_damage, dc - damage - taken)
            if extra:
                log.outcome(Msg.of("epic.we.step.critical_damage", unit=shown, count=extra),
                            "E-W4", extra=extra)
                taken += extra
                to_roll += extra  # E-W4 (FAQ): hits a critical causes roll for criticals
    after = damage + taken
    destroyed = after >= dc
    log.outcome(Msg.of("epic.we.step.damage", unit=shown, points=taken, after=after, dc=dc,
                       state=Msg.of("epic.we.state.destroyed" if destroyed else
                                    "epic.we.state.working")), "E-W1",
                unit=key, points=taken, damage=after, destroyed=destroyed)
    return Damage(taken, after, destroyed, found, by_critical)


def _effect(port: Port, shown: Msg | str, name: str, datasheet: Any,
            qid: str) -> CriticalEffect:
    """A critical's effect: from the user's file when it names the war engine, else asked
    (read off its datasheet at the table)."""
    table = read_criticals(datasheet) if isinstance(datasheet, str) else (datasheet or {})
    found = table.get(name.casefold()) if name else None
    if found is not None:
        return found
    destroys = bool(port.ask(ConfirmQuestion(
        id=f"{qid}.destroys", clause="E-W4", default_value=False,
        text=Msg.of("epic.we.q.critical_destroys", unit=shown))))
    if destroys:
        return CriticalEffect(0, True)
    extra = int(port.ask(NumberQuestion(
        id=f"{qid}.damage", clause="E-W4", minimum=0, maximum=20, default_value=0,
        text=Msg.of("epic.we.q.critical_damage", unit=shown))))
    return CriticalEffect(extra, False)
