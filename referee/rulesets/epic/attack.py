"""The Epic Armageddon attack: the entry point and the roll to hit (clauses E-7, E-8, E-9).

Pure: it asks through the port and returns a ``Result``. A declaration with weapons only is
the roll to hit alone; one with target units is the whole attack (``shooting``), or a barrage
(``barrage``) when its weapons have barrage points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import (
    EITHER,
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    NumberQuestion,
)
from referee.core.result import Result, StepLog
from referee.core.table import NOTHING, Shown, as_dice, as_need, dice_text
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.declaration import ShootingDeclaration, Weapon
from referee.rulesets.epic.tables import RULESET_ID, tables
from referee.rulesets.epic.tohit import HitPlan, hit_plan, required_roll

FIRE_TYPES = ("ap", "at")
MAX_WEAPON_TYPES = 12
TO_HIT_VALUES = tuple(range(2, 7))


@dataclass(frozen=True)
class WeaponShots:
    """One weapon's part of the attack after the E-7 choice."""

    weapon: Weapon
    fire_type: str
    to_hit: int


def _rule(section: str) -> Msg:
    return Msg.of(f"epic.rule.{section}")


def ask_declaration(port: Port) -> ShootingDeclaration:
    """The weapons of the roll to hit alone, asked one by one (the whole attack at the table
    takes compact lines instead: ``typed``)."""
    count = port.ask(NumberQuestion(id="weapons", text=Msg.of("epic.q.weapons"), minimum=1,
                                    maximum=MAX_WEAPON_TYPES, default_value=1))
    weapons = []
    for i in range(1, count + 1):
        shots = port.ask(NumberQuestion(id=f"weapon.{i}.shots",
                                        text=Msg.of("epic.q.weapon_shots", n=i),
                                        minimum=1, maximum=200, default_value=1))
        values = tuple(Choice(str(v), f"{v}+") for v in TO_HIT_VALUES)
        none = Choice("none", Msg.of("epic.choice.none"))
        ap = port.ask(ChoiceQuestion(id=f"weapon.{i}.ap", text=Msg.of("epic.q.weapon_ap", n=i),
                                     choices=(none, *values), default_value="none",
                                     clause="E-7"))
        # a weapon needs at least one value, so "none" is offered for AT only if AP has one
        at_choices = values if ap == "none" else (none, *values)
        at = port.ask(ChoiceQuestion(id=f"weapon.{i}.at", text=Msg.of("epic.q.weapon_at", n=i),
                                     choices=at_choices, default_value=at_choices[0].value,
                                     clause="E-7"))
        weapons.append(Weapon(name=f"weapon-{i}", number=i, shots=shots,
                              ap=None if ap == "none" else int(ap),
                              at=None if at == "none" else int(at)))
    return ShootingDeclaration(weapons=weapons)


def choose_fire_type(port: Port, w: Weapon, log: StepLog) -> tuple[str, int]:
    """E-7: a weapon with both values fires all its shots as AP or as AT (asked); a weapon
    with one value fires as that. Returns the fire type and its to-hit value."""
    if w.ap is not None and w.at is not None:
        fire = port.ask(ChoiceQuestion(
            id=f"fire-type.{w.key}", text=Msg.of("epic.q.fire_type", weapon=w.label,
                                                  ap=w.ap, at=w.at),
            choices=(Choice("ap", Msg.of("epic.fire.ap_value", value=w.ap)),
                     Choice("at", Msg.of("epic.fire.at_value", value=w.at))),
            default_value="ap", clause="E-7", rule=_rule("to_hit"), whatif=True))
        log.input(Msg.of("epic.step.fire_type_chosen", weapon=w.label,
                         fire=Msg.of(f"epic.fire.{fire}")), "E-7", weapon=w.key, fire=fire)
    else:
        fire = "ap" if w.ap is not None else "at"
    to_hit = w.ap if fire == "ap" else w.at
    assert to_hit is not None
    return fire, to_hit


def _choose_fire_types(port: Port, decl: ShootingDeclaration, log: StepLog) -> list[WeaponShots]:
    return [WeaponShots(w, *choose_fire_type(port, w, log)) for w in decl.weapons]


def _roll_to_hit(port: Port, shot: WeaponShots, plan: HitPlan,
                 log: StepLog) -> tuple[int, Shown]:
    return roll_hits(port, shot.weapon, shot.weapon.shots, plan, log)


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
                                  rule=_rule("to_hit"),
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
                                   rule=_rule("seven_plus"),
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


def attack(ctx: AttackContext) -> Result:
    port, log, t = ctx.port, StepLog(), tables()
    if isinstance(ctx.declaration, ShootingDeclaration):
        decl = ctx.declaration
    elif ctx.declaration is not None:
        decl = ShootingDeclaration.model_validate(ctx.declaration)
    elif port.ask(ChoiceQuestion(
            id="attack-kind", text=Msg.of("epic.q.attack_kind"), clause="E-1",
            choices=(Choice("whole", Msg.of("epic.kind.whole")),
                     Choice("to-hit", Msg.of("epic.kind.to_hit"))),
            default_value="whole")) == "whole":
        # the whole attack at the table: name the formations, then the rest is asked
        from referee.rulesets.epic.typed import ask_names

        firing_name, target_name = ask_names(port)
        decl = ShootingDeclaration(firing=firing_name, target=target_name, by_hand=True)
    else:
        decl = ask_declaration(port)
    if decl.full:
        from referee.rulesets.epic.roster import who_takes_part, with_roster

        decl = with_roster(who_takes_part(port, decl))
        if decl.by_hand and not decl.weapons:
            from referee.rulesets.epic.typed import ask_formations

            decl = ask_formations(ctx, decl)
        if any(w.barrage is not None for w in decl.weapons):
            from referee.rulesets.epic import barrage

            return barrage.attack(ctx, decl, log)
        from referee.rulesets.epic import shooting

        return shooting.attack(ctx, decl, log)
    firing = decl.firing or Msg.of("epic.default.firing")
    target = decl.target or Msg.of("epic.default.target")
    log.input(Msg.of("epic.step.declared", firing=firing, target=target,
                     weapons=len(decl.weapons)), "E-1")

    action_id = port.ask(ChoiceQuestion(
        id="action", text=Msg.of("epic.q.action", firing=firing),
        choices=tuple(Choice(a.id, Msg.of(f"epic.action.{a.id}")) for a in t.actions),
        default_value="advance", clause="E-8", rule=_rule("to_hit")))
    action = t.action(action_id)
    log.input(Msg.of("epic.step.action", action=Msg.of(f"epic.action.{action.id}")), "E-8",
              action=action.id)
    if not action.may_shoot:
        log.outcome(Msg.of("epic.step.may_not_shoot", action=Msg.of(f"epic.action.{action.id}"),
                           firing=firing), "E-2")
        return _result(ctx, log, {"ap": 0, "at": 0}, {}, shot=False)

    in_cover = port.ask(ConfirmQuestion(id="cover", text=Msg.of("epic.q.cover",
                                                                target=target),
                                        clause="E-8", rule=_rule("to_hit"),
                                        answered_by=EITHER))  # what both see on the table
    modifier = action.modifier
    mod_parts: list[tuple[str, int, Msg]] = []
    if action.modifier:
        log.modifier(Msg.of("epic.step.mod_action", action=Msg.of(f"epic.action.{action.id}"),
                            value=f"{action.modifier:+d}"), "E-8", value=action.modifier)
        mod_parts.append((action.id, action.modifier, Msg.of(
            "epic.mod.action", value=f"{action.modifier:+d}",
            action=Msg.of(f"epic.action.{action.id}"))))
    if in_cover:
        modifier += t.cover_modifier
        log.modifier(Msg.of("epic.step.mod_cover", value=f"{t.cover_modifier:+d}"), "E-8",
                     value=t.cover_modifier)
        mod_parts.append(("cover", t.cover_modifier,
                          Msg.of("epic.mod.cover", value=f"{t.cover_modifier:+d}")))

    hits = {"ap": 0, "at": 0}
    by_weapon: dict[str, int] = {}
    rows = []
    for shot in _choose_fire_types(port, decl, log):
        need = required_roll(shot.to_hit, modifier)
        plan = hit_plan(need)
        log.input(Msg.of("epic.step.need", weapon=shot.weapon.label,
                         fire=Msg.of(f"epic.fire.{shot.fire_type}"), to_hit=shot.to_hit,
                         modifier=f"{modifier:+d}", need=need_text(plan)),
                  "E-9" if plan.mode != "direct" else "E-8",
                  weapon=shot.weapon.key, to_hit=shot.to_hit, modifier=modifier, need=need)
        got, dice_shown = _roll_to_hit(port, shot, plan, log)
        hits[shot.fire_type] += got
        by_weapon[shot.weapon.key] = got
        rows.append((shot.weapon.label, Msg.of(f"epic.fire.{shot.fire_type}"), shot.weapon.shots,
                     as_need(shot.to_hit), modifiers_cell(mod_parts), need_cell(plan),
                     dice_shown, got))
    log.table(Msg.of("epic.table.shots", firing=firing, target=target),
              [Msg.of(f"epic.col.{c}") for c in
               ("weapon", "fire", "shots", "to_hit", "modifiers", "need", "dice", "hits")],
              rows, clause="E-8")
    return _result(ctx, log, hits, by_weapon, shot=True)


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


def _result(ctx: AttackContext, log: StepLog, hits: dict[str, int], by_weapon: dict[str, int],
            shot: bool) -> Result:
    if shot:
        outcome = Msg.of("epic.outcome.hits", ap=hits["ap"], at=hits["at"])
        log.outcome(outcome, "E-8")
    else:
        outcome = Msg.of("epic.outcome.no_shooting")
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data={"shot": shot, "hits": hits, "hits_by_weapon": by_weapon},
                  options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default)
