"""Rolling to hit, as every Epic attack does: the fire type a weapon fires with (E-7), its
dice rolled once, or twice for a need of 7+ (E-8, E-9), and the need and modifiers as the
tables show them. Used by the roll to hit alone (``attack``), the whole attack (``firing``)
and barrages (``barrage``)."""

from __future__ import annotations

from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, DiceQuestion
from referee.core.result import StepLog
from referee.core.table import NOTHING, Shown, as_dice, dice_text
from referee.core.text import Msg
from referee.rulesets.epic.declaration import Weapon
from referee.rulesets.epic.tables import tables
from referee.rulesets.epic.tohit import HitPlan


def rule(section: str) -> Msg:
    return Msg.of(f"epic.rule.{section}")


def choose_fire_type(port: Port, w: Weapon, log: StepLog) -> tuple[str, int]:
    """E-7: a weapon with both values fires all its shots as AP or as AT (asked); a weapon
    with one value fires as that. Returns the fire type and its to-hit value."""
    if w.ap is not None and w.at is not None:
        fire = port.ask(ChoiceQuestion(
            id=f"fire-type.{w.key}", text=Msg.of("epic.q.fire_type", weapon=w.label,
                                                  ap=w.ap, at=w.at),
            choices=(Choice("ap", Msg.of("epic.fire.ap_value", value=w.ap)),
                     Choice("at", Msg.of("epic.fire.at_value", value=w.at))),
            default_value="ap", clause="E-7", rule=rule("to_hit"), whatif=True))
        log.input(Msg.of("epic.step.fire_type_chosen", weapon=w.label,
                         fire=Msg.of(f"epic.fire.{fire}")), "E-7", weapon=w.key, fire=fire)
    else:
        fire = "ap" if w.ap is not None else "at"
    to_hit = w.ap if fire == "ap" else w.at
    assert to_hit is not None
    return fire, to_hit


def roll_hits(port: Port, w: Weapon, shots: int, plan: HitPlan, log: StepLog,
              qid: str | None = None, label: Msg | str | None = None,
              clause: str | None = None, rest: Any = None) -> tuple[int, Shown]:
    """Roll ``shots`` to-hit dice for ``w`` (E-8, E-9); returns (hits, the dice as a table
    cell: the faces; a 7+ roll's ``{"first": ..., "then": ...}``; ``null`` when no dice
    were rolled). ``rest`` (``ShotsRest``, ``BarrageRest``) is what the odds know of the
    rest of the attack."""
    qid = qid or f"to-hit.{w.key}"
    name = label or w.label
    fail = (tables().natural_fail,)
    if plan.mode == "impossible":
        log.outcome(Msg.of("epic.step.impossible", weapon=name, need=plan.need), "E-9")
        return 0, NOTHING
    assert plan.target is not None
    spec = DiceSpec(count=shots, target=plan.target, auto_fail=fail, count_only=True)
    text = "epic.q.roll_direct" if plan.mode == "direct" else "epic.q.roll_first"
    odds = "referee.rulesets.epic.odds:to_hit"
    first = port.ask(DiceQuestion(id=qid, spec=spec, clause=clause or "E-8",
                                  text=Msg.of(text, weapon=name, shots=shots,
                                              target=plan.target, need=plan.need),
                                  rule=rule("to_hit"),
                                  odds=OddsRef.to(odds, weapon=name, need=plan.need,
                                                  stage="direct" if plan.mode == "direct"
                                                  else "first", then=plan.then, rest=rest)))
    log.roll(Msg.of("epic.step.rolled", weapon=name, dice=spec.describe(),
                    faces=dice_text(first), source=Msg.of(f"dice.source.{first.source}"),
                    successes=first.successes),
             clause or ("E-8" if plan.mode == "direct" else "E-9"), question=qid,
             faces=first.faces, successes=first.successes, source=first.source.value)
    if plan.mode == "direct" or first.successes == 0:
        return first.successes, as_dice(first)
    assert plan.then is not None
    spec2 = DiceSpec(count=first.successes, target=plan.then, count_only=True)
    second = port.ask(DiceQuestion(id=f"{qid}.then", spec=spec2, clause="E-9",
                                   text=Msg.of("epic.q.roll_then", weapon=name,
                                               count=first.successes, then=plan.then),
                                   rule=rule("seven_plus"),
                                   odds=OddsRef.to(odds, weapon=name, need=plan.need,
                                                   stage="then", then=plan.then, rest=rest)))
    log.roll(Msg.of("epic.step.rolled", weapon=name, dice=spec2.describe(),
                    faces=dice_text(second), source=Msg.of(f"dice.source.{second.source}"),
                    successes=second.successes),
             "E-9", question=f"{qid}.then", faces=second.faces,
             successes=second.successes, source=second.source.value)
    one, two = as_dice(first), as_dice(second)
    return second.successes, Shown({"first": one.value, "then": two.value},
                                   f"{one.text} → {two.text}")


def modifiers_cell(parts: list[tuple[str, int, Msg]]) -> Shown:
    """The modifiers of a shot as a table cell: each one's id (as the modifiers lookup names
    it: ``cover``, ``ignore_cover`` or the action) and value; ``-`` (an empty list) for
    none."""
    return Shown([{"modifier": key, "value": value} for key, value, _ in parts],
                 tuple(shown for _, _, shown in parts) or "-")


def need_cell(plan: HitPlan) -> Shown:
    """The need of a shot as a table cell: the need and how it is rolled (as the to-hit
    lookup gives them), shown as ``need_text``."""
    return Shown({"need": plan.need, "mode": plan.mode, "target": plan.target,
                  "then": plan.then}, need_text(plan))


def need_text(plan: HitPlan) -> Msg:
    if plan.mode == "impossible":
        return Msg.of("epic.need.impossible", need=plan.need)
    if plan.mode == "two_stage":
        return Msg.of("epic.need.two_stage", need=plan.need, first=plan.target, then=plan.then)
    if plan.need < (plan.target or 0):
        return Msg.of("epic.need.natural_one", need=plan.need, target=plan.target)
    return Msg.of("epic.need.direct", target=plan.target)
