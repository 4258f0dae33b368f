"""The whole Epic Armageddon shooting attack, clauses E-1 to E-14 in order.

Who may fire (E-2, E-3), suppression (E-4), the under-fire Blast marker (E-5, E-6), AP or AT
(E-7), to hit (E-8, E-9), allocation of normal hits and saves (E-10, E-11), macro-weapon hits
after them (E-12), Blast markers per casualty (E-13) and the break check at the end (E-14),
with crossfire, reinforced armour, invulnerable saves, ignore cover, disrupt and attacks on
broken formations from the brief's section 3. Pure: questions through the port, a Result back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, NamedTuple

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion
from referee.core.result import Result, StepLog, Summary
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.allocation import HitKind, can_take
from referee.rulesets.epic.damage import (
    Allocation,
    Hit,
    MarkerLedger,
    allocate,
    roll_saves,
)
from referee.rulesets.epic.declaration import ShootingDeclaration, TargetUnit, Weapon, weapon_key
from referee.rulesets.epic.firing import cover_choices, pools, roll_pools, who_may_fire
from referee.rulesets.epic.formations import (
    Defender,
    FormationState,
    ask_crossfire,
    ask_places,
    ask_standing,
    defender,
    formation_label,
    formation_state,
    join,
    settle_broken,
    target_needs,
)
from referee.rulesets.epic.line import Needs, Place
from referee.rulesets.epic.tables import RULESET_ID, Action, tables
from referee.rulesets.epic.warengine import Engine, engines_of, shielded, wound_engines


def _rule(section: str) -> Msg:
    return Msg.of(f"epic.rule.{section}")


def attack(ctx: AttackContext, decl: ShootingDeclaration, log: StepLog) -> Result:
    port, options = ctx.port, dict(ctx.options.values)
    firing_name = decl.firing or "-"  # the declaration requires both names (full attack)
    target_name = decl.target or "-"
    # without declared units there is nobody to suppress: the firing markers are not asked
    firing_markers = decl.firing_blast_markers if decl.firing_units else 0
    firing = formation_state(ctx.state, firing_name, firing_markers, False, log, port,
                             formation_label(firing_name))
    crossfire = decl.crossfire  # left out: asked with where the target's units stand
    target = formation_state(ctx.state, target_name, decl.target_blast_markers, False, log,
                             port, formation_label(target_name))
    # E-14 with E-W6: the units left, a war engine counting its starting DC
    settle_broken(port, target, sum(u.dc or 1 for u in decl.target_units
                                    if not target.lost(u.name)), decl.target_broken, log)
    log.input(Msg.of("epic.step.declared_full", firing=firing.shown, target=target.shown),
              "E-1")

    taken = choose_action(port, decl, firing, target, log)
    action = taken.action
    if action is not None and action.id == "overwatch" and not taken.fires_on_overwatch:
        return go_on_overwatch(ctx, log, firing)
    if action is None:
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})
    if not action.may_shoot:
        log.outcome(Msg.of("epic.step.may_not_shoot", action=Msg.of(f"epic.action.{action.id}"),
                           firing=firing.shown), "E-2")
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})

    # nothing left to shoot at: no marker, no dice
    if decl.target_units and all(target.lost(u.name) for u in decl.target_units):
        log.outcome(Msg.of("epic.step.no_units_left", target=target.shown), "E-6")
        return epic_result(ctx, log, Msg.of("epic.outcome.no_units_left", target=target.shown),
                           {"shot": False, "units_left": 0}, {})
    fire_units = who_may_fire(port, decl, firing, options, log)
    if not fire_units:
        # E-6 (FAQ): nobody able to shoot places no Blast marker
        log.outcome(Msg.of("epic.step.nobody_fires", firing=firing.shown), "E-6")
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})

    overwatch_cover = bool(options.get("overwatch-open-ground-cover")) and decl.target_on_overwatch
    standing = [u for u in decl.target_units if not target.lost(u.name)]
    macro = any(w.macro for _, ws in fire_units for w in ws)
    places, crossfire = target_places(port, standing, target, macro=macro,
                                      crossfire=crossfire)
    if crossfire:  # E-11, E-13: as declared, typed in the target's line or asked
        log.input(Msg.of("epic.step.crossfire", target=target.shown, count=crossfire), "E-13",
                  crossfire=crossfire)
    units = [defender(u, i, places.get(u.key, (None, None))[1], overwatch_cover=overwatch_cover,
                      group=_run(target, places.get(u.key)))
             for i, u in enumerate(decl.target_units) if not target.lost(u.name)]
    units = beyond_reach(units, [w for _, ws in fire_units for w in ws], log)
    units = [replace(d, damage=d.damage + target.damage.get(d.key, 0),
                     shields=max(0, d.shields - target.shields_down.get(d.key, 0)))
             if d.war_engine else d for d in units]  # the game file's damage (E-W1, E-W9)
    units = aim(port, decl, units, log)
    ledger = MarkerLedger(target.shown, target.blast_markers, target.broken, log=log)
    first_hit_rule = options.get("under-fire-marker") == "first-hit"
    if not first_hit_rule:  # E-6: under fire as soon as anyone can shoot, hits or not
        ledger.add(1, Msg.of("epic.bm.under_fire"), "E-6")

    profiles = pools(port, fire_units, not decl.firing_units, log)
    cover = cover_choices(port, profiles, units, log)
    from referee.rulesets.epic.oddsfacts import AttackFacts

    facts = AttackFacts(tuple(units), ledger.before, ledger.broken_at_start, crossfire or 0,
                        tuple(sorted(options.items())), name=target.shown)
    # typed at the table: each roll step's dice in one prompt (issue 27)
    hits = roll_pools(port, profiles, cover, action, units, log, facts,
                      ledger.added + ledger.as_hits, step=decl.by_hand)
    log.table(Msg.of("epic.table.shots", firing=firing.shown, target=target.shown),
              [Msg.of(f"epic.col.{c}") for c in
               ("weapon", "fire", "shots", "to_hit", "modifiers", "need", "dice", "hits")],
              hits.rows, clause="E-8")
    hits_list = hits.hits
    if first_hit_rule and hits_list:
        ledger.add(1, Msg.of("epic.bm.first_hit"), "E-X1")

    engines = engines_of(units)
    casualties, alloc_rows, save_rows, allocated = _damage(port, log, units, hits_list, options,
                                                        crossfire or 0, ledger, facts, engines,
                                                        step=decl.by_hand)
    extra_rows = _broken_extra_hits(port, log, units, casualties, ledger, options,
                                    len(alloc_rows), engines)
    keep_engines(target, units, engines)
    alloc_rows += extra_rows[0]
    casualties += extra_rows[1]
    for table, rows_, clause in (("allocation", alloc_rows, "E-10"), ("saves", save_rows,
                                                                      "E-11")):
        if rows_:
            cols = (("hit", "fire", "weapon", "unit", "why", "clause") if table == "allocation"
                    else ("unit", "hits", "save", "dice", "result", "clause"))
            # a very large attack's hits, one a row, are shown counted by unit and fire
            summary = (Summary(cols.index("unit"), Msg.of("epic.col.hits"), cols.index("fire"))
                       if table == "allocation" else None)
            log.table(Msg.of(f"epic.table.{table}", target=target.shown),
                      [Msg.of(f"epic.col.{c}") for c in cols], rows_, clause=clause,
                      summary=summary)
    extra_states = None
    if decl.overwatch is not None or taken.fires_on_overwatch:
        # E-20: having fired, it is no longer on overwatch
        log.note(Msg.of("epic.overwatch.ended", firing=firing.shown), "E-20")
        firing.on_overwatch = False
        extra_states = {firing_name: firing.to_state()}
    return finish(ctx, log, target, units, casualties, ledger, hits_list, allocated,
                  firing_name=firing_name, fired=[s.name for s, _ in fire_units],
                  extra_states=extra_states)


def aim(port: Port, decl: ShootingDeclaration, units: list[Defender],
        log: StepLog) -> list[Defender]:
    """E-W2: at a formation of war engines and other units the attacker says which the
    attack aims at; its hits go only there (the others as if out of range)."""
    reach = [d for d in units if d.target.in_range or d.target.in_mw_range]
    if not any(d.war_engine for d in reach) or all(d.war_engine for d in reach):
        return units
    chosen = decl.aim or port.ask(ChoiceQuestion(
        id="aim", clause="E-W2", default_value="war-engines", whatif=True,
        text=Msg.of("epic.we.q.aim"),
        choices=(Choice("war-engines", Msg.of("epic.we.choice.war_engines")),
                 Choice("others", Msg.of("epic.we.choice.others")))))
    log.input(Msg.of("epic.we.step.aim", at=Msg.of(f"epic.we.choice.{chosen.replace('-', '_')}")),
              "E-W2", aim=chosen)
    return [d if d.war_engine == (chosen == "war-engines") else
            replace(d, target=replace(d.target, in_range=False, in_mw_range=False))
            for d in units]


def keep_engines(formation: FormationState, units: list[Defender],
                 engines: dict[str, Engine]) -> None:
    """The war engines' damage and shields down, for the game file (E-W1, E-W9)."""
    for d in units:
        if d.key in engines:
            formation.damage[d.key] = engines[d.key].damage
            formation.shields_down[d.key] = max(0, d.shields - engines[d.key].shields) + \
                formation.shields_down.get(d.key, 0)


def _units_left(ctx: AttackContext, decl: ShootingDeclaration) -> bool:
    """Has the target a unit the game file does not list as destroyed? (Nothing to shoot
    at: no crossfire to ask.)"""
    saved = ctx.state.get("formations", {}).get(decl.target or "-", {})
    lost = {weapon_key(n) for n in saved.get("destroyed", [])}
    return any(u.key not in lost for u in decl.target_units)


def _run(formation: FormationState, place: tuple[int, Any] | None) -> str | None:
    """The group of a unit placed by its formation's line: the run of the line it is in."""
    return None if place is None else f"{weapon_key(formation.name)}.{place[0]}"


def target_places(port: Port, units: list[TargetUnit], formation: FormationState,
                  barrage: bool = False, qid: str | None = None, macro: bool = False,
                  crossfire: int | None = 0) -> tuple[dict[str, tuple[int, Place]], int]:
    """One line for the target units whose situation the declaration (or roster) leaves
    out: in range and line of fire or not (E-10), the distance to the nearest attacker
    (E-10), the ground (E-8, E-11), under a template or not (a barrage, E-15), beyond the
    macro-weapons' reach (``nomw``, when they fire: E-12); and the formation's crossfire
    when it is not known (``crossfire`` None: E-11, E-13), in the same line, else on its
    own. Returns each unit's place and the crossfire."""
    asked = [u for u in units if target_needs(u, barrage)]
    if not asked:
        if crossfire is None:
            crossfire = ask_crossfire(port, "crossfire" if qid is None and not barrage
                                      else f"crossfire.{weapon_key(formation.name)}",
                                      formation.shown)
        return {}, crossfire
    labels = [u.label for u in asked]
    needs = Needs(distance=any(u.distance is None for u in asked),
                  terrain=any(u.terrain is None for u in asked), barrage=barrage,
                  macro=macro and any(u.in_mw_range is None for u in asked))
    qid = qid or f"situation.{weapon_key(formation.name)}"
    text = Msg.of("epic.q.targets", target=formation.shown, units=join(labels),
                  count=len(asked))
    hint = Msg.of("epic.hint.targets_barrage" if barrage else
                  "epic.hint.targets_mw" if needs.macro else "epic.hint.targets")
    if crossfire is None:
        places, crossfire = ask_standing(port, qid, text, hint, labels, needs)
    else:
        places = ask_places(port, qid, text, hint, labels, needs)
    return {u.key: p for u, p in zip(asked, places, strict=True)}, crossfire


def beyond_reach(units: list[Defender], weapons: list[Weapon],
                 log: StepLog) -> list[Defender]:
    """E-10 from the weapons' ranges: a target unit farther from the nearest attacker than
    the longest range of the weapons that fire is out of range of every one of them, so it
    cannot be hit (nor by the macro-weapons, E-12, beyond the longest of theirs)."""
    if not weapons or any(w.range is None for w in weapons):
        return units
    longest = max(w.range or 0.0 for w in weapons)
    macro = [w.range or 0.0 for w in weapons if w.macro]
    out = []
    for d in units:
        t = d.target
        if t.in_range and t.distance > longest:
            log.note(Msg.of("epic.step.beyond_reach", unit=d.shown, distance=f"{t.distance:g}",
                            range=f"{longest:g}"), "E-10")
            d = replace(d, target=replace(t, in_range=False, in_mw_range=False))
        elif macro and t.in_mw_range and t.distance > max(macro):
            log.note(Msg.of("epic.step.beyond_mw_reach", unit=d.shown,
                            distance=f"{t.distance:g}", range=f"{max(macro):g}"), "E-12")
            d = replace(d, target=replace(t, in_mw_range=False))
        out.append(d)
    return out


def go_on_overwatch(ctx: AttackContext, log: StepLog, firing: FormationState) -> Result:
    """E-20: the Overwatch action taken now: no shot; the game file records it."""
    log.outcome(Msg.of("epic.overwatch.goes_on", firing=firing.shown), "E-20")
    firing.on_overwatch = True
    return epic_result(ctx, log, Msg.of("epic.outcome.on_overwatch", firing=firing.shown),
                       {"shot": False, "overwatch": True}, {firing.name: firing.to_state()})


OVERWATCH_FIRE = "overwatch-fire"  # the action question's choice: fires on overwatch now


class ActionTaken(NamedTuple):
    """The firing formation's action; ``fires_on_overwatch``: it took the Overwatch action
    earlier and fires now, at the formation that triggered it (E-20)."""

    action: Action | None
    fires_on_overwatch: bool = False


def choose_action(port: Port, decl: ShootingDeclaration, firing: FormationState,
                  target: FormationState, log: StepLog) -> ActionTaken:
    t = tables()
    overwatch = decl.overwatch
    if overwatch is None and not decl.takes_overwatch:
        choices = [Choice(a.id, Msg.of(f"epic.action.{a.id}")) for a in t.actions]
        choices.append(Choice(OVERWATCH_FIRE, Msg.of("epic.action.overwatch_fire")))
        action_id = port.ask(ChoiceQuestion(
            id="action", text=Msg.of("epic.q.action", firing=firing.shown),
            choices=tuple(choices), default_value="advance", clause="E-8",
            rule=_rule("to_hit")))
        if action_id != OVERWATCH_FIRE:
            action = t.action(action_id)
            log.input(Msg.of("epic.step.action", action=Msg.of(f"epic.action.{action.id}")),
                      "E-8", action=action.id)
            if action.modifier:
                log.modifier(Msg.of("epic.step.mod_action",
                                    action=Msg.of(f"epic.action.{action.id}"),
                                    value=f"{action.modifier:+d}"), "E-8", value=action.modifier)
            return ActionTaken(action)
        from referee.rulesets.epic.overwatch import ask_trigger

        overwatch = ask_trigger(port, firing.shown, target.shown)
    if overwatch is not None:
        from referee.rulesets.epic.overwatch import check_trigger

        if firing.from_game and firing.on_overwatch is False:
            # the game file knows its overwatch ended (it fired, or took another action)
            log.outcome(Msg.of("epic.overwatch.not_on", firing=firing.shown), "E-20")
            return ActionTaken(None)
        if not check_trigger(overwatch, firing.shown, target.shown, log):
            return ActionTaken(None)
        return ActionTaken(t.action("overwatch"), True)
    log.input(Msg.of("epic.step.action", action=Msg.of("epic.action.overwatch")), "E-20",
              action="overwatch")
    return ActionTaken(t.action("overwatch"))


def _damage(port: Port, log: StepLog, units: list[Defender], hits: list[Hit],
            options: dict[str, Any], crossfire: int, ledger: MarkerLedger,
            facts: Any = None, engines: dict[str, Engine] | None = None,
            step: bool = False) -> tuple[list[str], list[tuple[Any, ...]],
                                         list[tuple[Any, ...]], list[tuple[str, str]]]:
    """E-10 to E-13: normal hits first, casualties removed, then macro-weapon hits; war
    engines' shields stop hits first and their unsaved hits are points of damage (E-W1,
    E-W9; ``engines``: their damage and shields, kept up to date). ``step``: the saves of
    one allocation in one prompt (issue 27)."""
    engines = engines if engines is not None else engines_of(units)
    casualties: list[str] = []
    alloc_rows: list[tuple[Any, ...]] = []
    save_rows: list[tuple[Any, ...]] = []
    allocated: list[tuple[str, str]] = []
    normal = [h for h in hits if not h.kind.macro]
    macro = [h for h in hits if h.kind.macro]
    taken_normal: dict[str, int] = {}
    for phase, phase_hits in (("normal", normal), ("mw", macro)):
        if not phase_hits:
            continue
        alive = [u for u in units if u.key not in casualties]
        if phase == "mw" and normal:
            log.note(Msg.of("epic.step.mw_after", survivors=len(alive)), "E-12")
        disrupt_markers(log, ledger, alive, phase_hits, options)
        before: dict[str, int] = {}
        if phase == "mw" and normal and options.get("mw-spread") == "continue":
            # E-12 house rule: the even spread counts on from the survivors' normal hits
            before = {k: v for k, v in taken_normal.items() if k not in casualties}
            log.note(Msg.of("epic.step.mw_spread_continue"), "E-12")
        alloc: Allocation = allocate(port, log, alive, phase_hits, phase, options,
                                     numbered_from=len(alloc_rows), taken_before=before)
        if phase == "normal":
            taken_normal = {k: len(v) for k, v in alloc.hits_on.items()}
        alloc_rows += alloc.rows
        allocated += alloc.allocated
        rest = None
        if facts is not None:
            from referee.rulesets.epic.oddsfacts import PhaseRest

            rest = PhaseRest(facts, (), tuple(casualties), ledger.added + ledger.as_hits,
                             tuple(macro) if phase == "normal" else (),
                             tuple(taken_normal.items()))
        alloc = shielded(log, alive, alloc, engines, options)
        report = roll_saves(port, log, alive, alloc, phase, crossfire > 0, rest, step=step)
        save_rows += report.rows
        lost_engines = wound_engines(port, log, alive, alloc, report.failed, ledger, engines,
                                     options, phase)
        for key in [k for k in report.destroyed if k not in engines] + lost_engines:
            unit = next(u for u in alive if u.key == key)
            all_disrupt = all(h.disrupt for h in alloc.hits_on[key])
            first = not casualties
            casualties.append(key)
            log.outcome(Msg.of("epic.step.destroyed", unit=unit.shown), "E-11", unit=key)
            if not all_disrupt and not unit.war_engine:  # an engine's came a point each
                ledger.add(1, Msg.of("epic.bm.casualty", unit=unit.shown), "E-13")
            if first and crossfire:  # each crossfiring formation adds its marker
                ledger.add(crossfire, Msg.of("epic.bm.crossfire", unit=unit.shown,
                                             count=crossfire), "E-13")
    return casualties, alloc_rows, save_rows, allocated


def disrupt_markers(log: StepLog, ledger: MarkerLedger, alive: list[Defender],
                    hits: list[Hit], options: dict[str, Any]) -> None:
    """E-13: a Blast marker for each disrupt hit. A hit that no unit can take (AP fire at
    armour, a unit out of range...) is lost at allocation (E-10); under the default reading
    (option disrupt-unplaced-hits=no-marker) a lost hit is not inflicted, so it places no
    marker: the NetEA FAQ ties a disrupt marker to a hit that lands on a unit that counts
    (none for a hit on an expendable unit or a void shield). Whether a hit can be taken is
    settled before allocation: the even spread never leaves a hit without a unit once some
    unit can take its kind."""
    disrupt = [h for h in hits if h.disrupt]
    if not disrupt:
        return
    targets = [u.target for u in alive]
    placed = [h for h in disrupt if any(can_take(t, h.kind) for t in targets)]
    lost = len(disrupt) - len(placed)
    every = options.get("disrupt-unplaced-hits") == "marker"
    count = len(disrupt) if every else len(placed)
    if lost:
        log.note(Msg.of("epic.step.disrupt_unplaced_marked" if every else
                        "epic.step.disrupt_unplaced", count=lost), "E-13", lost=lost)
    ledger.add(count, Msg.of("epic.bm.disrupt", count=count), "E-13")


def _broken_extra_hits(port: Port, log: StepLog, units: list[Defender], casualties: list[str],
                       ledger: MarkerLedger, options: dict[str, Any], numbered_from: int = 0,
                       engines: dict[str, Engine] | None = None
                       ) -> tuple[list[tuple[Any, ...]], list[str]]:
    """Section 3: a broken formation takes a hit with no save for every Blast marker it would
    have received, allocated front to back (casualties of these hits add nothing more)."""
    if not ledger.as_hits:
        return [], []
    alive = [u for u in units if u.key not in casualties]
    extra = [Hit(HitKind("extra"), "-") for _ in range(ledger.as_hits)]
    log.note(Msg.of("epic.step.broken_hits", count=ledger.as_hits), "E-13")
    alloc = allocate(port, log, alive, extra, "broken", options, numbered_from=numbered_from)
    engines = engines_of(alive) if engines is None else engines
    spare = MarkerLedger(ledger.name, 0, True)  # E-W10: the engine's points are hits already
    dead = wound_engines(port, log, alive, alloc, {}, spare, engines, options, "broken",
                         no_save=True)
    for key in alloc.hits_on:
        unit = next(u for u in alive if u.key == key)
        if unit.war_engine:
            continue
        dead.append(key)
        log.outcome(Msg.of("epic.step.destroyed_no_save", unit=unit.shown), "E-13", unit=key)
    return alloc.rows, dead


def finish(ctx: AttackContext, log: StepLog, target: FormationState, units: list[Defender],
           casualties: list[str], ledger: MarkerLedger, hits: list[Hit],
           allocated: list[tuple[str, str]], *, firing_name: str, fired: list[str],
           extra_states: dict[str, Any] | None = None) -> Result:
    """E-13 ledger table and E-14 break check, then the result and the game-file state."""
    broken, killed, left = close_formation(log, target, ledger, units, casualties, "E-13")
    hit_counts = Counter(h.kind.fire for h in hits)
    outcome = Msg.of("epic.outcome.full", target=target.shown, killed=len(casualties),
                     markers=ledger.after, state=Msg.of("epic.state.broken" if broken else
                                                        ("epic.state.destroyed" if not left
                                                         else "epic.state.steady")))
    data = {"shot": True, "fired": fired, "hits": dict(hit_counts), "casualties": killed,
            "markers_added": ledger.added, "blast_markers": ledger.after,
            "extra_hits": ledger.as_hits, "broken": broken, "allocation": allocated,
            "units_left": left}
    states = {target.name: target.to_state()}
    if extra_states:
        states.update(extra_states)
    return epic_result(ctx, log, outcome, data, states, firing=firing_name)


def close_formation(log: StepLog, target: FormationState, ledger: MarkerLedger,
                    units: list[Defender], casualties: list[str],
                    clause: str) -> tuple[bool, list[str], int]:
    """After the whole attack on one formation: the Blast-marker ledger table (E-13, or E-19
    for a barrage), the E-14 break check and the formation's new state. Returns whether it
    broke, the names of the units destroyed and how many are left."""
    left = len([u for u in units if u.key not in casualties])
    log.table(Msg.of("epic.table.markers", target=target.shown),
              [Msg.of("epic.col.reason"), Msg.of("epic.col.markers"), Msg.of("epic.col.clause")],
              ledger.table_rows(), clause=clause)
    # E-W6: a working war engine counts its starting DC towards the break point
    broken = break_check(log, target, ledger, sum(u.worth for u in units
                                                  if u.key not in casualties))
    names = {u.key: u.name for u in units}
    killed = [names[k] for k in casualties]
    target.blast_markers = ledger.after
    target.broken = broken
    for unit in units:  # what the attack did to each unit, by name (core.fates)
        log.fate(target.shown, unit.shown,
                 *((Msg.of("epic.fate.destroyed"),) if unit.key in casualties else ()))
    log.fate(target.shown, None, Msg.of("epic.fate.markers", markers=ledger.after),
             *((Msg.of("epic.state.broken"),) if broken else
               (Msg.of("epic.state.destroyed"),) if not left else ()))
    target.destroyed = target.destroyed + killed
    return broken, killed, left


def break_check(log: StepLog, target: FormationState, ledger: MarkerLedger, alive: int) -> bool:
    """E-14: only now, after the whole attack: broken if markers >= units left."""
    if ledger.broken_at_start:
        log.outcome(Msg.of("epic.step.still_broken", target=target.shown), "E-14")
        return True
    broken = alive > 0 and ledger.after >= alive
    log.outcome(Msg.of("epic.step.break_check", target=target.shown, markers=ledger.after,
                       units=alive, result=Msg.of("epic.state.broken" if broken else
                                                  ("epic.state.destroyed" if not alive
                                                   else "epic.state.steady"))), "E-14",
                markers=ledger.after, units=alive, broken=broken)
    return broken


def epic_result(ctx: AttackContext, log: StepLog, outcome: Msg, data: dict[str, Any],
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
                  non_default_options=ctx.options.non_default, state_updates=updates,
                  fates=log.fates)
