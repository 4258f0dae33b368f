"""Barrages (E-15 to E-19): barrage points summed over the weapons that may fire, the barrage
table, one to-hit roll per unit under the templates, and for every formation hit the
under-fire marker, the table's extra markers and a marker per casualty, then its break check."""

from __future__ import annotations

from typing import Any

from referee.core.result import Result, StepLog
from referee.core.table import as_need, as_signed
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.allocation import HitKind
from referee.rulesets.epic.damage import Allocation, Hit, MarkerLedger, allocate, roll_saves
from referee.rulesets.epic.declaration import ShootingDeclaration, TargetUnit, weapon_key
from referee.rulesets.epic.firing import weapon_list, who_may_fire
from referee.rulesets.epic.formations import (
    Defender,
    FormationState,
    ask_crossfire,
    defender,
    formation_label,
    formation_state,
    names_cell,
    settle_broken,
    target_needs,
)
from referee.rulesets.epic.shooting import (
    _run,
    choose_action,
    close_formation,
    epic_result,
    go_on_overwatch,
    keep_engines,
    target_places,
)
from referee.rulesets.epic.tables import BarrageRow, tables
from referee.rulesets.epic.tohit import hit_plan, required_roll
from referee.rulesets.epic.warengine import engines_of, wound_engines


def barrage_row(points: int, options: dict[str, Any], log: StepLog) -> BarrageRow | None:
    """E-17 with E-X5: above the table, the 16-18 row with a warning, or refused."""
    t = tables()
    if points > t.barrage_highest:
        if options.get("barrage-over-18") == "refuse":
            log.outcome(Msg.of("epic.barrage.refused", points=points), "E-X5")
            return None
        log.warning(Msg.of("epic.barrage.clamped", points=points, highest=t.barrage_highest),
                    "E-X5")
        points = t.barrage_highest
    return t.barrage_row(points)


def extra_markers(row: BarrageRow, options: dict[str, Any]) -> int:
    """E-19 with E-X10: the table's extra markers (or at most three as a house rule)."""
    if options.get("barrage-extra-markers") == "at-most-three":
        return min(row.markers, 3)
    return row.markers


def attack(ctx: AttackContext, decl: ShootingDeclaration, log: StepLog) -> Result:
    from referee.rulesets.epic.hitting import need_text, roll_hits

    port, _t, options = ctx.port, tables(), dict(ctx.options.values)
    firing_name = decl.firing or "-"
    # without declared units there is nobody to suppress: the firing markers are not asked
    firing_markers = decl.firing_blast_markers if decl.firing_units else 0
    firing = formation_state(ctx.state, firing_name, firing_markers, False, log, port,
                             formation_label(firing_name))
    target_label = formation_label(decl.target or "-")
    log.input(Msg.of("epic.step.declared_barrage", firing=firing.shown,
                     target=target_label), "E-15")
    aimed = FormationState(decl.target or "-", 0, False, label=target_label)
    taken = choose_action(port, decl, firing, aimed, log)
    action = taken.action
    if action is not None and action.id == "overwatch" and not taken.fires_on_overwatch:
        return go_on_overwatch(ctx, log, firing)
    if action is None or not action.may_shoot:
        if action is not None:
            log.outcome(Msg.of("epic.step.may_not_shoot",
                               action=Msg.of(f"epic.action.{action.id}"), firing=firing.shown),
                        "E-2")
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})
    fire_units = who_may_fire(port, decl, firing, options, log)
    weapons = [w for _, ws in fire_units for w in ws if w.barrage is not None]
    if not weapons:
        log.outcome(Msg.of("epic.step.nobody_fires", firing=firing.shown), "E-15")
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})
    points = sum(w.barrage or 0 for w in weapons)
    log.input(Msg.of("epic.step.barrage_points", points=points,
                     weapons=weapon_list(weapons)), "E-16", points=points)
    row = barrage_row(points, options, log)
    if row is None:
        return epic_result(ctx, log, Msg.of("epic.outcome.no_shooting"), {"shot": False}, {})
    extra = extra_markers(row, options)
    log.table(Msg.of("epic.table.barrage_row", points=points),
              [Msg.of(f"epic.col.{c}") for c in ("templates", "extra_markers", "ap", "at")],
              [(row.templates, extra, as_need(row.ap), as_need(row.at))], clause="E-17")
    if row.templates:
        log.note(Msg.of("epic.barrage.extra_templates", count=row.templates,
                        lof=Msg.of("word.yes" if options.get("extra-templates-need-lof")
                                   else "word.no"),
                        overlap=Msg.of("word.yes" if options.get("extra-template-overlap")
                                       == "allowed" else "word.no")), "E-18")
    macro = all(w.macro for w in weapons)
    if any(w.macro for w in weapons) and not macro:
        log.note(Msg.of("epic.barrage.mixed_macro"), "E-17")
    # E-17 (FAQ): a special ability applies only if every contributing weapon has it
    disrupt = all(w.disrupt for w in weapons)
    ignore_cover = all(w.ignore_cover for w in weapons)
    for flag, ability in ((disrupt, "disrupt"), (ignore_cover, "ignore_cover")):
        if flag:
            log.note(Msg.of(f"epic.barrage.all_{ability}"), "E-17")
        elif any(getattr(w, ability) for w in weapons):
            log.note(Msg.of(f"epic.barrage.mixed_{ability}"), "E-17")
    # crossfire depends on where each formation stands (brief section 3): the target's is
    # the declaration's, each other formation's its own (asked when left out)
    formations: list[tuple[str, int | None, bool | None, list[TargetUnit], int | None]] = [
        (decl.target or "-", decl.target_blast_markers, decl.target_broken,
         list(decl.target_units), decl.crossfire)]
    formations += [(f.name, f.blast_markers, f.broken, list(f.units), f.crossfire)
                   for f in decl.also_under_templates]
    states: dict[str, Any] = {}
    summary: list[Msg] = []
    data: dict[str, Any] = {"shot": True, "barrage_points": points, "formations": {}}
    for name, markers, broken, units, crossfire in formations:
        res = _one_formation(ctx, log, name, markers, broken, units, row, extra, action.modifier,
                             macro, crossfire, options, need_text, roll_hits,
                             disrupt=disrupt, ignore_cover=ignore_cover)
        if res is None:
            continue
        state, fdata = res
        states[name] = state.to_state()
        data["formations"][name] = fdata
        outcome_state = ("epic.state.broken" if state.broken else
                         "epic.state.destroyed" if not fdata["units_left"] else
                         "epic.state.steady")  # E-14: a wiped-out formation is destroyed
        summary.append(Msg.of("epic.outcome.formation", target=formation_label(name),
                              killed=len(fdata[
            "casualties"]), markers=state.blast_markers, state=Msg.of(outcome_state)))
    joined: Msg | str = "-"
    for m in summary:
        joined = m if joined == "-" else Msg.of("epic.outcome.and", first=joined, then=m)
    outcome = Msg.of("epic.outcome.barrage", points=points, formations=joined)
    return epic_result(ctx, log, outcome, data, states, firing=firing_name)


def _one_formation(ctx: AttackContext, log: StepLog, name: str, markers: int | None,
                   broken: bool | None,
                   units: list[TargetUnit], row: BarrageRow, extra: int, action_mod: int,
                   macro: bool, declared_crossfire: int | None, options: dict[str, Any],
                   need_text: Any, roll_hits: Any,
                   disrupt: bool = False,
                   ignore_cover: bool = False) -> tuple[Any, dict[str, Any]] | None:
    from referee.rulesets.epic.hitting import need_cell

    port, t = ctx.port, tables()
    state = formation_state(ctx.state, name, markers, False, log, port, formation_label(name))
    fkey = weapon_key(name)
    standing = [u for u in units if not state.lost(u.name)]
    # the crossfire is said with where the units stand, when that is asked (issue 27)
    folded = declared_crossfire is None and any(target_needs(u, True) for u in standing)
    places, crossfire = target_places(port, standing, state, barrage=True,
                                      crossfire=None if folded else 0)
    alive = [defender(u, i, places.get(u.key, (None, None))[1], barrage=True,
                      group=_run(state, places.get(u.key)))
             for i, u in enumerate(units) if not state.lost(u.name)]
    under = [d for d in alive if d.under_template]
    if not under:
        log.note(Msg.of("epic.barrage.none_under", formation=state.shown), "E-15")
        return None
    if not folded:
        crossfire = declared_crossfire if declared_crossfire is not None else \
            ask_crossfire(port, f"crossfire.{fkey}", state.shown)  # E-13: its own
    settle_broken(port, state, sum(d.worth for d in alive), broken, log)  # E-W6
    if crossfire:
        log.input(Msg.of("epic.step.crossfire", target=state.shown, count=crossfire), "E-13",
                  crossfire=crossfire)
    ledger = MarkerLedger(state.shown, state.blast_markers, state.broken, log=log)
    ledger.add(1, Msg.of("epic.bm.under_fire"), "E-6")
    ledger.add(extra, Msg.of("epic.bm.barrage_extra", count=extra), "E-19")
    # E-17: one die per unit under the templates, AP against infantry (and light vehicles,
    # the lower need), AT against armour; units in cover rolled apart with the -1.
    alloc = Allocation()
    rows = []
    groups: dict[tuple[str, bool], list[Defender]] = {}
    for d in under:
        fire = "at" if d.target.type in ("AV", "WE") else "ap"
        # E-W7: a war engine under a template's centre is attacked half its DC, rounded up
        times = -(-d.dc // 2) if d.war_engine and d.under_centre else 1
        groups.setdefault((fire, d.target.in_cover and not ignore_cover), []).extend(
            [d] * times)
    from referee.rulesets.epic.declaration import Weapon
    from referee.rulesets.epic.oddsfacts import AttackFacts, BarrageGroup, BarrageRest

    facts = AttackFacts(tuple(alive), ledger.before, ledger.broken_at_start, crossfire,
                        tuple(sorted(options.items())), barrage=True, disrupt_all=disrupt,
                        name=state.shown)
    planned = []
    for (fire, cover), members in groups.items():
        value = row.ap if fire == "ap" else row.at
        mod = action_mod + (t.cover_modifier if cover else 0)
        plan = hit_plan(required_roll(value, mod))
        # FAQ: hits from units rolled together fall on the nearest first
        order = sorted(members, key=lambda d: (d.target.distance, d.target.order))
        hit = Hit(HitKind("mw" if macro else fire), "barrage", disrupt, ignore_cover)
        planned.append((fire, cover, members, value, mod, plan, order, hit))
    for i, (fire, cover, members, value, mod, plan, order, hit) in enumerate(planned):
        label = Msg.of("epic.barrage.group", formation=state.shown,
                       fire=Msg.of(f"epic.fire.{fire}"),
                       cover=Msg.of("epic.barrage.in_cover" if cover else "epic.barrage.open"))
        qid = f"barrage.{fkey}.{fire}" + (".cover" if cover else "")
        dummy = Weapon(name=qid, ap=value)
        later = tuple(BarrageGroup(tuple(d.key for d in o), pl.chance, h)
                      for _, _, _, _, _, pl, o, h in planned[i + 1:] if pl.mode != "impossible")
        rest = BarrageRest(facts, tuple((k, alloc.hits_on[k][0]) for _, k in alloc.allocated),
                           tuple(d.key for d in order), hit, later,
                           ledger.added + ledger.as_hits)
        got, shown = roll_hits(ctx.port, dummy, len(members), plan, log, qid=qid,
                               label=label, clause="E-17", rest=rest)
        hit_units = order[:got]
        for d in hit_units:
            alloc.hits_on.setdefault(d.key, []).append(hit)
            alloc.allocated.append((hit.kind.fire, d.key))
        rows.append((label, len(members), as_need(value), as_signed(mod), need_cell(plan), shown,
                     names_cell([d.shown for d in hit_units])))
    log.table(Msg.of("epic.table.barrage_hits", formation=state.shown),
              [Msg.of(f"epic.col.{c}") for c in ("group", "units", "to_hit", "modifiers",
                                                 "need", "dice", "hit_units")], rows,
              clause="E-17")
    if disrupt:  # E-13: a Blast marker per hit, none per kill
        ledger.add(len(alloc.allocated), Msg.of("epic.bm.disrupt", count=len(alloc.allocated)),
                   "E-13")
    from referee.rulesets.epic.oddsfacts import PhaseRest

    report = roll_saves(port, log, under, alloc, fkey, crossfire > 0,
                        PhaseRest(facts, (), (), ledger.added + ledger.as_hits))
    if report.rows:
        log.table(Msg.of("epic.table.saves", target=state.shown),
                  [Msg.of(f"epic.col.{c}") for c in ("unit", "hits", "save", "dice", "result",
                                                     "clause")], report.rows, clause="E-11")
    engines = engines_of(alive)
    casualties = [k for k in report.destroyed if k not in engines]
    casualties += wound_engines(port, log, under, alloc, report.failed, ledger, engines,
                                options, fkey)
    for i, key in enumerate(casualties):
        unit = next(u for u in under if u.key == key)
        log.outcome(Msg.of("epic.step.destroyed", unit=unit.shown), "E-11", unit=key)
        if not disrupt and not unit.war_engine:  # an engine's came a point each (E-W5)
            ledger.add(1, Msg.of("epic.bm.casualty", unit=unit.shown), "E-13")
        if i == 0 and crossfire:  # each crossfiring formation adds its marker
            ledger.add(crossfire, Msg.of("epic.bm.crossfire", unit=unit.shown,
                                         count=crossfire), "E-13")
    if ledger.as_hits:
        survivors = [u for u in alive if u.key not in casualties]
        extra_alloc = allocate(port, log, survivors,
                               [Hit(HitKind("extra"), "-") for _ in range(ledger.as_hits)],
                               f"broken.{fkey}", options)
        spare = MarkerLedger(state.shown, 0, True)  # E-W10: the points are hits already
        casualties += wound_engines(port, log, survivors, extra_alloc, {}, spare, engines,
                                    options, f"broken.{fkey}", no_save=True)
        for key in extra_alloc.hits_on:
            if key in engines:
                continue
            casualties.append(key)
            log.outcome(Msg.of("epic.step.destroyed_no_save",
                               unit=next(u.shown for u in alive if u.key == key)), "E-13")
    keep_engines(state, alive, engines)
    is_broken, killed, left = close_formation(log, state, ledger, alive, casualties, "E-19")
    names = {u.key: u.name for u in alive}
    return state, {"casualties": killed, "markers_added": ledger.added,
                   "blast_markers": ledger.after, "broken": is_broken, "units_left": left,
                   "crossfire": crossfire, "hit_units": [names[k] for _, k in alloc.allocated]}

