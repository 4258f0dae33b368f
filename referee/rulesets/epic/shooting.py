"""The whole Epic Armageddon shooting attack, clauses E-1 to E-14 in order.

Who may fire (E-2, E-3), suppression (E-4), the under-fire Blast marker (E-5, E-6), AP or AT
(E-7), to hit (E-8, E-9), allocation of normal hits and saves (E-10, E-11), macro-weapon hits
after them (E-12), Blast markers per casualty (E-13) and the break check at the end (E-14),
with crossfire, reinforced armour, invulnerable saves, ignore cover, disrupt and attacks on
broken formations from the brief's section 3. Pure: questions through the port, a Result back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, ConfirmQuestion, MultiChoiceQuestion
from referee.core.result import Result, StepLog
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.allocation import HitKind
from referee.rulesets.epic.damage import (
    Allocation,
    Hit,
    MarkerLedger,
    allocate,
    roll_saves,
)
from referee.rulesets.epic.declaration import ShootingDeclaration, Weapon
from referee.rulesets.epic.formations import (
    Defender,
    FormationState,
    Shooter,
    defender,
    formation_state,
    shooter,
)
from referee.rulesets.epic.suppression import suppression
from referee.rulesets.epic.tables import RULESET_ID, Action, tables
from referee.rulesets.epic.tohit import hit_plan, required_roll


@dataclass(frozen=True)
class Pool:
    """All the shots of one weapon profile from the units that fire it."""

    weapon: Weapon
    shots: int
    fire: str  # ap, at (after E-7)
    to_hit: int

    @property
    def hit_fire(self) -> str:
        return "mw" if self.weapon.macro else self.fire


def _rule(section: str) -> Msg:
    return Msg.of(f"epic.rule.{section}")


def who_may_fire(port: Port, decl: ShootingDeclaration, firing: FormationState,
                 options: dict[str, Any], log: StepLog) -> list[tuple[Shooter, list[Weapon]]]:
    """E-2, E-3 and E-4: the units that fire, each with the weapons that bear."""
    t = tables()
    nearest = options.get("suppression-front") == "nearest-enemy"
    if not decl.firing_units:  # no units declared: every weapon fires as declared
        log.note(Msg.of("epic.step.no_firing_units"), "E-4")
        whole = Shooter("formation", "-", tuple(decl.weapons), 0, True, None)
        return [(whole, list(decl.weapons))]
    able: list[tuple[Shooter, list[Weapon]]] = []
    rows: list[list[Any]] = []
    for unit in decl.firing_units:
        if unit.name in firing.destroyed:
            continue
        weapons = tuple(decl.weapon(n) for n in unit.weapons)
        s = shooter(port, unit, weapons, nearest)
        bearing = s.bearing if s.bearing is not None else 0.0
        bearing_ok = [w for w in weapons if t.arc(w.arc).allows(bearing)]
        if not s.in_range:
            status = Msg.of("epic.fire_status.out_of_range")
        elif not weapons:
            status = Msg.of("epic.fire_status.no_weapons")
        elif not bearing_ok:
            status = Msg.of("epic.fire_status.no_arc")
        else:
            status = Msg.of("epic.fire_status.able")
            able.append((s, bearing_ok))
        rows.append([s.name, f"{s.distance:g}", Msg.of("word.yes" if s.in_range else "word.no"),
                     _weapon_list(bearing_ok), status])
    # E-4: one unit per Blast marker, from the back
    sup = suppression([(s.key, s.distance) for s, _ in able], firing.blast_markers)
    if firing.blast_markers:
        log.input(Msg.of("epic.step.suppression", markers=firing.blast_markers,
                         count=len(sup.certain) + sup.from_tied), "E-4",
                  markers=firing.blast_markers)
    chosen: tuple[str, ...] = ()
    if sup.from_tied and sup.from_tied < len(sup.tied):
        names = {s.key: s.name for s, _ in able}
        chosen = tuple(port.ask(MultiChoiceQuestion(
            id="suppress", clause="E-4", min_count=sup.from_tied, max_count=sup.from_tied,
            default_values=sup.tied[:sup.from_tied],
            text=Msg.of("epic.q.suppress", count=sup.from_tied, firing=firing.name),
            choices=tuple(Choice(k, names[k]) for k in sup.tied))))
        log.input(Msg.of("epic.step.suppress_tie", units=", ".join(names[k] for k in chosen),
                         tied=", ".join(names[k] for k in sup.tied)), "E-4")
    elif sup.from_tied:
        chosen = sup.tied
    suppressed = set(sup.certain) | set(chosen)
    for row in rows:
        key = next((s.key for s, _ in able if s.name == row[0]), None)
        if key in suppressed:
            row[4] = Msg.of("epic.fire_status.suppressed")
    log.table(Msg.of("epic.table.who_fires", firing=firing.name),
              [Msg.of(f"epic.col.{c}") for c in ("unit", "distance", "in_range", "weapons",
                                                 "status")], rows, clause="E-2")
    return [(s, ws) for s, ws in able if s.key not in suppressed]


def _weapon_list(weapons: list[Weapon]) -> str:
    counts = Counter(w.name for w in weapons)
    return ", ".join(n if c == 1 else f"{c} × {n}" for n, c in counts.items()) or "-"


def _pools(port: Port, fire_units: list[tuple[Shooter, list[Weapon]]], whole: bool,
           log: StepLog) -> list[Pool]:
    """E-7: each weapon profile fires all its shots as AP or as AT."""
    counts: Counter[str] = Counter()
    profiles: dict[str, Weapon] = {}
    for _, weapons in fire_units:
        for w in weapons:
            counts[w.key] += 1
            profiles[w.key] = w
    pools = []
    for key, w in profiles.items():
        if w.barrage is not None:
            continue
        shots = w.shots if whole else w.shots * counts[key]
        if w.ap is not None and w.at is not None:
            fire = port.ask(ChoiceQuestion(
                id=f"fire-type.{w.key}", text=Msg.of("epic.q.fire_type", weapon=w.name,
                                                      ap=w.ap, at=w.at),
                choices=(Choice("ap", Msg.of("epic.fire.ap_value", value=w.ap)),
                         Choice("at", Msg.of("epic.fire.at_value", value=w.at))),
                default_value="ap", clause="E-7", rule=_rule("to_hit")))
            log.input(Msg.of("epic.step.fire_type_chosen", weapon=w.name,
                             fire=Msg.of(f"epic.fire.{fire}")), "E-7", weapon=w.key, fire=fire)
        else:
            fire = "ap" if w.ap is not None else "at"
        to_hit = w.ap if fire == "ap" else w.at
        assert to_hit is not None
        pools.append(Pool(w, shots, fire, to_hit))
    return pools


def _cover_choices(port: Port, pools: list[Pool], units: list[Defender],
                   log: StepLog) -> dict[str, bool]:
    """E-8: per kind of fire, is the cover modifier taken? All eligible units in cover: yes;
    none: no; some: the attacker chooses, and declining keeps those hits off units in cover."""
    t = tables()
    out: dict[str, bool] = {}
    for fire in dict.fromkeys(p.hit_fire for p in pools if not p.weapon.ignore_cover):
        reach = [d for d in units if d.target.type in t.allocation[fire]
                 and (d.target.in_mw_range if fire == "mw" else d.target.in_range)]
        covered = [d for d in reach if d.target.in_cover]
        if reach and len(covered) == len(reach):
            out[fire] = True
            log.modifier(Msg.of("epic.step.cover_forced", fire=Msg.of(f"epic.fire.{fire}"),
                                value=f"{t.cover_modifier:+d}"), "E-8", fire=fire)
        elif not covered:
            out[fire] = False
        else:
            out[fire] = bool(port.ask(ConfirmQuestion(
                id=f"cover.{fire}", default_value=True, clause="E-8",
                text=Msg.of("epic.q.take_cover", fire=Msg.of(f"epic.fire.{fire}"),
                            covered=len(covered), total=len(reach)))))
            log.input(Msg.of("epic.step.cover_taken" if out[fire] else "epic.step.cover_declined",
                             fire=Msg.of(f"epic.fire.{fire}")), "E-8", fire=fire,
                      taken=out[fire])
    return out


def attack(ctx: AttackContext, decl: ShootingDeclaration, log: StepLog) -> Result:
    from referee.rulesets.epic.attack import need_text, roll_hits

    port, t, options = ctx.port, tables(), dict(ctx.options.values)
    firing_name = decl.firing or "-"  # the declaration requires both names (full attack)
    target_name = decl.target or "-"
    # without declared units there is nobody to suppress: the firing markers are not asked
    firing_markers = decl.firing_blast_markers if decl.firing_units else 0
    firing = formation_state(ctx.state, firing_name, firing_markers, False, log, port)
    target = formation_state(ctx.state, target_name, decl.target_blast_markers,
                             decl.target_broken, log, port)
    log.input(Msg.of("epic.step.declared_full", firing=firing_name, target=target_name), "E-1")

    action = _action(port, decl, firing, log)
    if action is None:
        return _result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})
    if not action.may_shoot:
        log.outcome(Msg.of("epic.step.may_not_shoot", action=Msg.of(f"epic.action.{action.id}"),
                           firing=firing_name), "E-2")
        return _result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})

    fire_units = who_may_fire(port, decl, firing, options, log)
    if not fire_units:
        # E-6 (FAQ): nobody able to shoot places no Blast marker
        log.outcome(Msg.of("epic.step.nobody_fires", firing=firing_name), "E-6")
        return _result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})

    overwatch_cover = bool(options.get("overwatch-open-ground-cover")) and decl.target_on_overwatch
    units = [defender(port, u, i, overwatch_cover=overwatch_cover)
             for i, u in enumerate(decl.target_units) if u.name not in target.destroyed]
    ledger = MarkerLedger(target_name, target.blast_markers, target.broken, log=log)
    first_hit_rule = options.get("under-fire-marker") == "first-hit"
    if not first_hit_rule:  # E-6: under fire as soon as anyone can shoot, hits or not
        ledger.add(1, Msg.of("epic.bm.under_fire"), "E-6")

    pools = _pools(port, fire_units, not decl.firing_units, log)
    cover = _cover_choices(port, pools, units, log)
    modifier = action.modifier
    hits: list[Hit] = []
    rows = []
    for pool in pools:
        mods: list[Msg] = []
        mod = modifier
        if action.modifier:
            mods.append(Msg.of("epic.mod.action", value=f"{action.modifier:+d}",
                               action=Msg.of(f"epic.action.{action.id}")))
        took = cover.get(pool.hit_fire, False) and not pool.weapon.ignore_cover
        if took:
            mod += t.cover_modifier
            mods.append(Msg.of("epic.mod.cover", value=f"{t.cover_modifier:+d}"))
        if pool.weapon.ignore_cover:
            mods.append(Msg.of("epic.mod.ignore_cover"))
        need = required_roll(pool.to_hit, mod)
        plan = hit_plan(need)
        log.input(Msg.of("epic.step.need", weapon=pool.weapon.name,
                         fire=Msg.of(f"epic.fire.{pool.fire}"), to_hit=pool.to_hit,
                         modifier=f"{mod:+d}", need=need_text(plan)),
                  "E-9" if plan.mode != "direct" else "E-8", weapon=pool.weapon.key,
                  to_hit=pool.to_hit, modifier=mod, need=need)
        got, shown = roll_hits(port, pool.weapon, pool.shots, plan, log)
        kind = HitKind(pool.hit_fire, cover_ok=took or pool.weapon.ignore_cover
                       or not any(d.target.in_cover for d in units))
        hits += [Hit(kind, pool.weapon.name, pool.weapon.disrupt, pool.weapon.ignore_cover)
                 for _ in range(got)]
        fire_label = Msg.of(f"epic.fire.{pool.fire}") if not pool.weapon.macro else \
            Msg.of("epic.fire.mw_of", fire=Msg.of(f"epic.fire.{pool.fire}"))
        rows.append((pool.weapon.name, fire_label, pool.shots, f"{pool.to_hit}+",
                     tuple(mods) or "-", need_text(plan), shown, got))
    log.table(Msg.of("epic.table.shots", firing=firing_name, target=target_name),
              [Msg.of(f"epic.col.{c}") for c in
               ("weapon", "fire", "shots", "to_hit", "modifiers", "need", "dice", "hits")],
              rows, clause="E-8")
    if first_hit_rule and hits:
        ledger.add(1, Msg.of("epic.bm.first_hit"), "E-X1")
    disrupt_hits = sum(1 for h in hits if h.disrupt)
    ledger.add(disrupt_hits, Msg.of("epic.bm.disrupt", count=disrupt_hits), "E-13")

    casualties, alloc_rows, save_rows, record = _damage(port, log, units, hits, options,
                                                        decl.crossfire > 0, ledger)
    extra_rows = _broken_extra_hits(port, log, units, casualties, ledger, options,
                                    len(alloc_rows))
    alloc_rows += extra_rows[0]
    casualties += extra_rows[1]
    for table, rows_, clause in (("allocation", alloc_rows, "E-10"), ("saves", save_rows,
                                                                      "E-11")):
        if rows_:
            cols = (("hit", "fire", "weapon", "unit", "why", "clause") if table == "allocation"
                    else ("unit", "hits", "save", "dice", "result", "clause"))
            log.table(Msg.of(f"epic.table.{table}", target=target_name),
                      [Msg.of(f"epic.col.{c}") for c in cols], rows_, clause=clause)
    extra_states = None
    if decl.overwatch is not None:  # E-20: having fired, it is no longer on overwatch
        log.note(Msg.of("epic.overwatch.ended", firing=firing_name), "E-20")
        firing.on_overwatch = False
        extra_states = {firing_name: firing.to_state()}
    return finish(ctx, log, target, units, casualties, ledger, hits, record,
                  firing_name=firing_name, fired=[s.name for s, _ in fire_units],
                  extra_states=extra_states)


def _action(port: Port, decl: ShootingDeclaration, firing: FormationState,
            log: StepLog) -> Action | None:
    t = tables()
    if decl.overwatch is not None:
        from referee.rulesets.epic.overwatch import check_trigger

        if not check_trigger(decl.overwatch, firing.name, decl.target or "-", log):
            return None
        return t.action("overwatch")
    action_id = port.ask(ChoiceQuestion(
        id="action", text=Msg.of("epic.q.action", firing=firing.name),
        choices=tuple(Choice(a.id, Msg.of(f"epic.action.{a.id}")) for a in t.actions),
        default_value="advance", clause="E-8", rule=_rule("to_hit")))
    action = t.action(action_id)
    log.input(Msg.of("epic.step.action", action=Msg.of(f"epic.action.{action.id}")), "E-8",
              action=action.id)
    if action.modifier:
        log.modifier(Msg.of("epic.step.mod_action", action=Msg.of(f"epic.action.{action.id}"),
                            value=f"{action.modifier:+d}"), "E-8", value=action.modifier)
    return action


def _damage(port: Port, log: StepLog, units: list[Defender], hits: list[Hit],
            options: dict[str, Any], crossfire: bool, ledger: MarkerLedger
            ) -> tuple[list[str], list[tuple[Any, ...]], list[tuple[Any, ...]],
                       list[tuple[str, str]]]:
    """E-10 to E-13: normal hits first, casualties removed, then macro-weapon hits."""
    casualties: list[str] = []
    alloc_rows: list[tuple[Any, ...]] = []
    save_rows: list[tuple[Any, ...]] = []
    record: list[tuple[str, str]] = []
    normal = [h for h in hits if not h.kind.macro]
    macro = [h for h in hits if h.kind.macro]
    for phase, phase_hits in (("normal", normal), ("mw", macro)):
        if not phase_hits:
            continue
        alive = [u for u in units if u.key not in casualties]
        if phase == "mw" and normal:
            log.note(Msg.of("epic.step.mw_after", survivors=len(alive)), "E-12")
        alloc: Allocation = allocate(port, log, alive, phase_hits, phase, options,
                                     numbered_from=len(alloc_rows))
        alloc_rows += alloc.rows
        record += alloc.record
        report = roll_saves(port, log, alive, alloc, phase, crossfire)
        save_rows += report.rows
        for key in report.destroyed:
            unit = next(u for u in alive if u.key == key)
            all_disrupt = all(h.disrupt for h in alloc.hits_on[key])
            first = not casualties
            casualties.append(key)
            log.outcome(Msg.of("epic.step.destroyed", unit=unit.name), "E-11", unit=key)
            if not all_disrupt:
                ledger.add(1, Msg.of("epic.bm.casualty", unit=unit.name), "E-13")
            if first and crossfire:
                ledger.add(1, Msg.of("epic.bm.crossfire", unit=unit.name), "E-13")
    return casualties, alloc_rows, save_rows, record


def _broken_extra_hits(port: Port, log: StepLog, units: list[Defender], casualties: list[str],
                       ledger: MarkerLedger, options: dict[str, Any], numbered_from: int = 0
                       ) -> tuple[list[tuple[Any, ...]], list[str]]:
    """Section 3: a broken formation takes a hit with no save for every Blast marker it would
    have received, allocated front to back (casualties of these hits add nothing more)."""
    if not ledger.as_hits:
        return [], []
    alive = [u for u in units if u.key not in casualties]
    extra = [Hit(HitKind("extra"), "-") for _ in range(ledger.as_hits)]
    log.note(Msg.of("epic.step.broken_hits", count=ledger.as_hits), "E-13")
    alloc = allocate(port, log, alive, extra, "broken", options, numbered_from=numbered_from)
    dead = []
    for key in alloc.hits_on:
        unit = next(u for u in alive if u.key == key)
        dead.append(key)
        log.outcome(Msg.of("epic.step.destroyed_no_save", unit=unit.name), "E-13", unit=key)
    return alloc.rows, dead


def finish(ctx: AttackContext, log: StepLog, target: FormationState, units: list[Defender],
           casualties: list[str], ledger: MarkerLedger, hits: list[Hit],
           record: list[tuple[str, str]], *, firing_name: str, fired: list[str],
           extra_states: dict[str, Any] | None = None) -> Result:
    """E-13 ledger table and E-14 break check, then the result and the game-file state."""
    alive = [u for u in units if u.key not in casualties]
    log.table(Msg.of("epic.table.markers", target=target.name),
              [Msg.of("epic.col.reason"), Msg.of("epic.col.markers"), Msg.of("epic.col.clause")],
              ledger.table_rows(), clause="E-13")
    broken = break_check(log, target, ledger, len(alive))
    names = {u.key: u.name for u in units}
    target.blast_markers = ledger.after
    target.broken = broken
    target.destroyed = target.destroyed + [names[k] for k in casualties]
    hit_counts = Counter(h.kind.fire for h in hits)
    outcome = Msg.of("epic.outcome.full", target=target.name, killed=len(casualties),
                     markers=ledger.after, state=Msg.of("epic.state.broken" if broken else
                                                        ("epic.state.destroyed" if not alive
                                                         else "epic.state.steady")))
    data = {"shot": True, "fired": fired, "hits": dict(hit_counts),
            "casualties": [names[k] for k in casualties],
            "markers_added": ledger.added, "blast_markers": ledger.after,
            "extra_hits": ledger.as_hits, "broken": broken, "allocation": record,
            "units_left": len(alive)}
    states = {target.name: target.to_state()}
    if extra_states:
        states.update(extra_states)
    return _result(ctx, log, outcome, data, states, firing=firing_name)


def break_check(log: StepLog, target: FormationState, ledger: MarkerLedger, alive: int) -> bool:
    """E-14: only now, after the whole attack: broken if markers >= units left."""
    if ledger.broken_at_start:
        log.outcome(Msg.of("epic.step.still_broken", target=target.name), "E-14")
        return True
    broken = alive > 0 and ledger.after >= alive
    log.outcome(Msg.of("epic.step.break_check", target=target.name, markers=ledger.after,
                       units=alive, result=Msg.of("epic.state.broken" if broken else
                                                  ("epic.state.destroyed" if not alive
                                                   else "epic.state.steady"))), "E-14",
                markers=ledger.after, units=alive, broken=broken)
    return broken


def _result(ctx: AttackContext, log: StepLog, outcome: Msg, data: dict[str, Any],
            states: dict[str, Any], firing: str | None = None) -> Result:
    updates: dict[str, Any] = {}
    if states or firing:
        formations = dict(ctx.state.get("formations", {}))
        formations.update(states)
        if firing and formations.get(firing, {}).get("overwatch"):
            formations[firing] = {**formations[firing], "overwatch": False}
        updates = {"formations": formations}
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data=data, options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default, state_updates=updates)
