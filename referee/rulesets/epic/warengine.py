"""War engines take damage (E-W1, E-W4, E-W5): points off their damage capacity, a die per
point for critical hits, and a critical's effect read from the war engine's datasheet, which
is not public here: asked at the table, or read from the user's file (option
``critical-hits-file``: ``[[critical]]`` tables with the war engine's ``name``, the
``extra_damage`` a critical does and whether it ``destroys`` it). What its destruction does
around it (catastrophic damage, E-W12) is on the datasheet too: ``[[catastrophic]]`` tables
in the same file (``name``, ``within`` in cm, ``hits_on``), else asked when it is destroyed.
Pure: questions through the port, steps into the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.port import Port
from referee.core.questions import EITHER, ConfirmQuestion, DiceQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.table import dice_text
from referee.core.text import Msg
from referee.rulesets.epic.damage import Allocation, Hit, MarkerLedger
from referee.rulesets.epic.formations import Defender

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


@dataclass(frozen=True)
class Catastrophe:
    """What a war engine's destruction does around it, from its datasheet (E-W12): every
    unit within ``within`` cm is hit on ``hits_on`` or more (0 cm: nothing)."""

    within: int
    hits_on: int


def _rows(path: str, table: str, fields: dict[str, type]) -> list[dict[str, Any]]:
    """The ``[[table]]`` rows of the user's datasheet file, each field checked: a wrong one
    names the file, the line and what was expected."""
    from referee.core.errors import ScriptError
    from referee.files import read_toml, where

    text, raw = read_toml(path)
    rows = raw.get(table, [])
    if not isinstance(rows, list):
        raise ScriptError(path, where(text, [table]), Msg.of("epic.we.file.rows", table=table))
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise ScriptError(path, where(text, [table, i]), Msg.of("epic.we.file.name"))
        for key, value in row.items():
            kind = fields.get(key)
            number = kind is int and not isinstance(value, bool)
            if kind is None or not isinstance(value, kind) or (
                    kind is int and not (number and isinstance(value, int)
                                         and 0 <= value <= 99)):
                raise ScriptError(path, where(text, [table, i, key]), Msg.of(
                    "epic.we.file.field", key=key, known=", ".join(fields)))
    return rows


def read_criticals(path: str | None) -> dict[str, CriticalEffect]:
    """The user's file of critical hit effects, by war engine name (folded)."""
    if not path:
        return {}
    rows = _rows(path, "critical", {"name": str, "extra_damage": int, "destroys": bool})
    return {str(row["name"]).casefold(): CriticalEffect(int(row.get("extra_damage", 0)),
                                                        bool(row.get("destroys", False)))
            for row in rows}


def read_catastrophes(path: str | None) -> dict[str, Catastrophe]:
    """The user's file's catastrophic damage (E-W12), by war engine name (folded)."""
    if not path:
        return {}
    rows = _rows(path, "catastrophic", {"name": str, "within": int, "hits_on": int})
    return {str(row["name"]).casefold(): Catastrophe(int(row.get("within", 0)),
                                                     min(max(int(row.get("hits_on", 6)), 2), 6))
            for row in rows}


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
            answered_by=EITHER, id=qid if round_ == 1 else f"{qid}.{round_}", clause="E-W4",
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
    if destroyed and taken:
        catastrophe(port, log, shown, name, datasheet, f"{qid}.catastrophic")
    return Damage(taken, after, destroyed, found, by_critical)


def catastrophe(port: Port, log: StepLog, shown: Msg | str, name: str, datasheet: Any,
                qid: str) -> int:
    """E-W12: what the destroyed war engine's datasheet says its end does around it, read
    from the user's file or asked (Enter: nothing); the units within the distance are the
    players' to count; a die each; the hits, which their formations save as shooting
    hits (another attack). Returns the hits."""
    table = read_catastrophes(datasheet) if isinstance(datasheet, str) else {}
    found = table.get(name.casefold()) if name else None
    if found is None and not (isinstance(datasheet, str) and name and
                              name.casefold() in read_criticals(datasheet)):
        within = int(port.ask(NumberQuestion(
            answered_by=EITHER,
            id=f"{qid}.within", clause="E-W12", minimum=0, maximum=99, default_value=0,
            text=Msg.of("epic.we.q.catastrophe_within", unit=shown))))
        hits_on = 6 if not within else int(port.ask(NumberQuestion(
            answered_by=EITHER,
            id=f"{qid}.hits-on", clause="E-W12", minimum=2, maximum=6, default_value=6,
            text=Msg.of("epic.we.q.catastrophe_roll", unit=shown, within=within))))
        found = Catastrophe(within, hits_on)
    if found is None or not found.within:
        return 0
    near = int(port.ask(NumberQuestion(
        answered_by=EITHER,
        id=f"{qid}.units", clause="E-W12", minimum=0, maximum=99, default_value=0,
        text=Msg.of("epic.we.q.catastrophe_units", unit=shown, within=found.within))))
    if not near:
        log.note(Msg.of("epic.we.step.catastrophe_none", unit=shown, within=found.within),
                 "E-W12")
        return 0
    roll = port.ask(DiceQuestion(
        answered_by=EITHER, id=qid, clause="E-W12", spec=DiceSpec(count=near, target=found.hits_on,
                                              count_only=True),
        text=Msg.of("epic.we.q.catastrophe_dice", unit=shown, count=near,
                    target=found.hits_on)))
    log.roll(Msg.of("epic.we.step.catastrophe", unit=shown, count=near, within=found.within,
                    target=found.hits_on, faces=dice_text(roll), hits=roll.successes),
             "E-W12", faces=roll.faces, hits=roll.successes)
    return roll.successes


def _effect(port: Port, shown: Msg | str, name: str, datasheet: Any,
            qid: str) -> CriticalEffect:
    """A critical's effect: from the user's file when it names the war engine, else asked
    (read off its datasheet at the table)."""
    table = read_criticals(datasheet) if isinstance(datasheet, str) else (datasheet or {})
    found = table.get(name.casefold()) if name else None
    if found is not None:
        return found
    destroys = bool(port.ask(ConfirmQuestion(
        answered_by=EITHER, id=f"{qid}.destroys", clause="E-W4", default_value=False,
        text=Msg.of("epic.we.q.critical_destroys", unit=shown))))
    if destroys:
        return CriticalEffect(0, True)
    extra = int(port.ask(NumberQuestion(
        answered_by=EITHER,
        id=f"{qid}.damage", clause="E-W4", minimum=0, maximum=20, default_value=0,
        text=Msg.of("epic.we.q.critical_damage", unit=shown))))
    return CriticalEffect(extra, False)


def stop_with_shields(log: StepLog, units: Sequence[Defender], alloc: Allocation,
                      *, close_combat: frozenset[int] = frozenset(),
                      per_point: bool = False) -> tuple[Allocation, dict[str, int]]:
    """E-W9: hits on a war engine with void shields up are stopped, one a shield (with the
    option ``void-shield-stops=one-point``, a Titan killer hit takes down a shield a point
    of its damage, E-X13): no save and no Blast marker for them. ``close_combat``: the
    indexes of hits (in each unit's list) that ignore the shields. Returns the allocation
    left and the shields each unit lost."""
    hits_on = dict(alloc.hits_on)
    lost: dict[str, int] = {}
    for d in units:
        held = hits_on.get(d.key, [])
        if not d.war_engine or not d.shields or not held:
            continue
        up = d.shields
        kept: list[Hit] = []
        for i, h in enumerate(held):
            if up and i not in close_combat:
                use = min(up, h.weight) if per_point else 1
                up -= use
                if per_point and h.weight > use:
                    kept.append(replace(h, weight=h.weight - use))
                continue
            kept.append(h)
        lost[d.key] = d.shields - up
        hits_on[d.key] = kept
        log.outcome(Msg.of("epic.we.step.shields", unit=d.shown, count=lost[d.key], left=up),
                    "E-W9", unit=d.key, stopped=lost[d.key])
    return Allocation(hits_on, alloc.rows, alloc.wasted, alloc.allocated), lost


def points_of(hits: Sequence[Hit], failed: int) -> int:
    """Points of damage from ``failed`` of ``hits`` not saved on a war engine: a Titan
    killer hit its rolled damage (the weightiest first when some were saved), another
    hit a point (E-W1, E-W8)."""
    weights = sorted((h.weight for h in hits), reverse=True)
    return sum(weights[:failed])


@dataclass
class Engine:
    """A war engine's damage and void shields up, as an attack goes on (E-W1, E-W9)."""

    damage: int
    shields: int


def engines_of(units: Sequence[Defender]) -> dict[str, Engine]:
    return {d.key: Engine(d.damage, d.shields) for d in units if d.war_engine}


def shielded(log: StepLog, units: Sequence[Defender], alloc: Allocation,
             engines: dict[str, Engine], options: dict[str, Any]) -> Allocation:
    """E-W9 for a shooting attack's hits: each engine's shields up stop hits first."""
    if not any(e.shields for e in engines.values()):
        return alloc
    now = [replace(d, shields=engines[d.key].shields) if d.key in engines else d
           for d in units]
    left, lost = stop_with_shields(log, now, alloc,
                                   per_point=options.get("void-shield-stops") == "one-point")
    for key, n in lost.items():
        engines[key].shields -= n
    return left


def wound_engines(port: Port, log: StepLog, units: Sequence[Defender], alloc: Allocation,
                  failed: dict[str, int], ledger: MarkerLedger, engines: dict[str, Engine],
                  options: dict[str, Any], phase: str, *, no_save: bool = False) -> list[str]:
    """E-W1, E-W4, E-W5: each war engine's unsaved hits (``no_save``: every hit, as a broken
    formation's extra hits) as points of damage, a Blast marker a point; the keys of those
    destroyed."""
    out = []
    for d in units:
        if not d.war_engine or d.key not in engines:
            continue
        held = alloc.hits_on.get(d.key, [])
        count = len(held) if no_save else failed.get(d.key, 0)
        if not count:
            continue
        done = apply_damage(port, log, d.key, d.shown, d.dc, engines[d.key].damage,
                            points_of(held, count), f"critical.{phase}.{d.key}", name=d.name,
                            datasheet=options.get("critical-hits-file") or None)
        engines[d.key].damage = done.damage_after
        ledger.add(done.points, Msg.of("epic.bm.damage", unit=d.shown, count=done.points),
                   "E-W5")
        if done.destroyed:
            out.append(d.key)
    return out
