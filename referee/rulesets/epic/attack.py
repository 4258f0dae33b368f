"""The Epic Armageddon attack: the entry point and the roll to hit alone (clauses E-7, E-8,
E-9).

Pure: it asks through the port and returns a ``Result``. A declaration with weapons only is
the roll to hit alone; one with target units is the whole attack (``shooting``), or a barrage
(``barrage``) when its weapons have barrage points. The roll to hit they all make is
``hitting``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core.port import Port
from referee.core.questions import (
    EITHER,
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    NumberQuestion,
)
from referee.core.result import Result, StepLog
from referee.core.table import Shown, as_need
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.declaration import ShootingDeclaration, Weapon
from referee.rulesets.epic.hitting import (
    choose_fire_type,
    modifiers_cell,
    need_cell,
    need_text,
    roll_hits,
    rule,
)
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


def _choose_fire_types(port: Port, decl: ShootingDeclaration, log: StepLog) -> list[WeaponShots]:
    return [WeaponShots(w, *choose_fire_type(port, w, log)) for w in decl.weapons]


def _roll_to_hit(port: Port, shot: WeaponShots, plan: HitPlan,
                 log: StepLog) -> tuple[int, Shown]:
    return roll_hits(port, shot.weapon, shot.weapon.shots, plan, log)


def attack(ctx: AttackContext) -> Result:
    port, log, t = ctx.port, StepLog(), tables()
    typed_lines: Any = None  # the formations' lines typed at the table (``typed``)
    if isinstance(ctx.declaration, ShootingDeclaration):
        decl = ctx.declaration
    elif ctx.declaration is not None:
        decl = ShootingDeclaration.model_validate(ctx.declaration)
    else:
        kind = port.ask(ChoiceQuestion(
            id="attack-kind", text=Msg.of("epic.q.attack_kind"), clause="E-1",
            choices=(*_kept_pairs(ctx.state), Choice("whole", Msg.of("epic.kind.whole")),
                     Choice("to-hit", Msg.of("epic.kind.to_hit")),
                     Choice("assault", Msg.of("epic.kind.assault"))),
            default_value="whole"))
        if kind == "whole":
            # the whole attack at the table: a line for each formation (issue 27)
            from referee.rulesets.epic.typed import ask_lines

            decl, typed_lines = ask_lines(ctx)
        elif kind == "assault":  # E-A1: the engage action, typed at the table
            from referee.rulesets.epic.assault_table import ask_assault

            decl = ShootingDeclaration(assault=ask_assault(ctx))
        elif kind == "to-hit":
            decl = ask_declaration(port)
        else:  # two formations the game keeps (issue 27): only where they stand is asked
            firing_name, target_name = _kept_pair(ctx.state, kind)
            decl = ShootingDeclaration(firing=firing_name, target=target_name, by_hand=True)
    if decl.turn is not None:  # E-T1 to E-T7: the next step of the game file's turn
        from referee.rulesets.epic import turn

        return turn.play(ctx, decl.turn)
    if decl.assault is not None:
        from referee.rulesets.epic import assault
        from referee.rulesets.epic.assault_table import with_roster as from_roster

        return assault.attack(ctx, from_roster(ctx, decl.assault), log)
    if decl.full:
        from referee.rulesets.epic.roster import who_takes_part, with_roster

        decl = with_roster(who_takes_part(port, decl))
        from referee.rulesets.epic.formations import formation_label

        # who attacks whom, before any die: a game file asks a formation's side now
        ctx.parties(formation_label(decl.firing or "-"), formation_label(decl.target or "-"))
        if decl.by_hand and not decl.weapons:
            from referee.rulesets.epic.typed import ask_formations

            decl = ask_formations(ctx, decl, typed_lines)
        if any(w.barrage is not None for w in decl.weapons):
            from referee.rulesets.epic import barrage
            from referee.rulesets.epic.roster import others_under_templates

            return _kept(ctx, decl, barrage.attack(ctx, others_under_templates(port, decl),
                                                   log))
        from referee.rulesets.epic import shooting

        return _kept(ctx, decl, shooting.attack(ctx, decl, log))
    firing = decl.firing or Msg.of("epic.default.firing")
    target = decl.target or Msg.of("epic.default.target")
    ctx.parties(firing, target)
    log.input(Msg.of("epic.step.declared", firing=firing, target=target,
                     weapons=len(decl.weapons)), "E-1")

    action_id = port.ask(ChoiceQuestion(
        id="action", text=Msg.of("epic.q.action", firing=firing),
        choices=tuple(Choice(a.id, Msg.of(f"epic.action.{a.id}")) for a in t.actions),
        default_value="advance", clause="E-8", rule=rule("to_hit")))
    action = t.action(action_id)
    log.input(Msg.of("epic.step.action", action=Msg.of(f"epic.action.{action.id}")), "E-8",
              action=action.id)
    if not action.may_shoot:
        log.outcome(Msg.of("epic.step.may_not_shoot", action=Msg.of(f"epic.action.{action.id}"),
                           firing=firing), "E-2")
        return _result(ctx, log, {"ap": 0, "at": 0}, {}, shot=False)

    in_cover = port.ask(ConfirmQuestion(id="cover", text=Msg.of("epic.q.cover",
                                                                target=target),
                                        clause="E-8", rule=rule("to_hit"),
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


def _kept_pairs(state: Mapping[str, object]) -> tuple[Choice, ...]:
    """Who may fire at whom among the formations the game keeps (issue 27): a formation
    with weapons at each other kept formation with units, offered by name."""
    from referee.rulesets.epic.army import firing_from_kept, kept_armies, target_from_kept

    names = list(kept_armies(state))
    return tuple(Choice(f"kept:{a}:{b}", Msg.of("epic.kind.kept", firing=a, target=b))
                 for a in names if firing_from_kept(state, a) is not None
                 for b in names if b != a and target_from_kept(state, b) is not None)


def _kept_pair(state: Mapping[str, object], value: str) -> tuple[str, str]:
    """The two kept formations a ``kept:FIRING:TARGET`` choice names."""
    from referee.rulesets.epic.army import kept_armies

    names = list(kept_armies(state))
    for a in names:
        for b in names:
            if value == f"kept:{a}:{b}":
                return a, b
    raise ValueError(value)


def _kept(ctx: AttackContext, decl: ShootingDeclaration, result: Result) -> Result:
    """In a game file, the result keeps the formations' armies too (issue 27)."""
    if ctx.entry is None:
        return result
    from referee.rulesets.epic.army import with_army

    sides: dict[str, str | None] = {}
    if decl.roster is not None:
        from referee.rulesets.epic.roster import load_roster

        sides = {f.name: f.side for f in load_roster(decl.roster).formation}
    return with_army(ctx.state, decl, result, sides)


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
