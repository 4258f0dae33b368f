"""The World at War artillery mission resolver: HE (W-1 to W-5), smoke (W-6), FASCAM (W-7)
and chemical (W-8). Pure: it asks through the port and returns a ``Result`` whose
``state_updates`` keep the markers and the units' states in a game file."""

from __future__ import annotations

from typing import Any

from referee.core.charts import Charts
from referee.core.fates import Fate, summary
from referee.core.result import Result, StepLog
from referee.core.table import NOTHING, Shown, as_signed
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.waw import kept as kp
from referee.rulesets.waw import markers as mk
from referee.rulesets.waw.declaration import MissionDeclaration, Unit
from referee.rulesets.waw.situation import Situation, situation
from referee.rulesets.waw.tables import RULESET_ID, tables
from referee.rulesets.waw.userdata import load_user_data

MARKER_OF = {"smoke": "smoke", "fascam": "mines", "chemical": "chemical"}
CLAUSE_OF = {"he": "W-1", "smoke": "W-6", "fascam": "W-7", "chemical": "W-8"}


def attack(ctx: AttackContext) -> Result:
    log = StepLog()
    data = load_user_data(str(ctx.options["data-file"]))
    if ctx.options["data-file"]:
        log.input(Msg.of("waw.step.data_file", file=ctx.options["data-file"]), "W-1")
    found = situation(ctx, data)
    decl, data = found.decl, found.data
    hex_label = decl.hex or "?"
    mission = decl.mission or "he"
    log.input(Msg.of("waw.step.mission", mission=Msg.of(f"waw.mission.{mission}"),
                     hex=hex_label), CLAUSE_OF[mission], mission=mission, hex=hex_label)
    log.note(Msg.of("waw.step.placement_not_adjudicated"), CLAUSE_OF[mission])
    if decl.roster is not None:
        log.input(Msg.of("waw.step.roster", file=decl.roster), CLAUSE_OF[mission])
    for text, clause in found.notes:
        log.input(text, clause)
    outcome_data: dict[str, Any] = {"mission": mission, "hex": hex_label}
    updates: dict[str, Any] = {}
    charts = Charts(ctx.state, ctx.entry)
    if mission == "he":
        from referee.rulesets.waw.he_mission import resolve_he

        he = resolve_he(ctx.port, decl, data, ctx.options, log, charts)
        outcome_data.update(attack_hits=he.attack_hits, cancels=he.cancels, net_hits=he.net,
                            hits=he.hits_by_unit, status=he.status_by_unit,
                            hq_rolls=he.hq_rolls)
        worked = Msg.of("waw.outcome.he", net=he.net, hex=hex_label)
        fates = _fates(found, decl.units, he.status_by_unit, he.hits_by_unit)
        outcome = Msg.of("kept.outcome.fates", fates=summary(fates),
                         detail=Msg.of("waw.outcome.he_net", net=he.net))
        updates = kp.updates(ctx.state, {hex_label: [(u, he.status_by_unit[u.key])
                                                     for u in decl.units]})
        updates |= _defence(ctx, decl, log)
    else:
        if mission == "chemical":
            from referee.rulesets.waw.chemical import resolve_chemical

            chem = resolve_chemical(ctx.port, decl, data, log,
                                    str(ctx.options.values.get("chemical-hq", "exempt")),
                                    charts, one_line=found.as_kept)
            outcome_data.update(passed=chem.passed, status=chem.status_by_unit)
            updates = _chemical_units(ctx, found, chem.status_by_unit)
        marker, placed = _place(ctx, mission, hex_label, log)
        updates |= placed
        outcome_data["marker"] = marker.to_state()
        shown = Msg.of(f"waw.marker.{marker.kind}", level=marker.level)
        outcome = Msg.of(f"waw.outcome.{mission}", hex=hex_label, marker=shown)
        fates = [Fate(Msg.of("kept.fate.hex", hex=hex_label), None, (shown,))]
        if mission == "chemical":
            fates += _fates(found, decl.units, chem.status_by_unit, {})
            outcome = Msg.of("kept.outcome.fates", fates=summary(fates),
                             detail=Msg.of("waw.outcome.chemical_checks"))
    if mission == "he":
        log.outcome(worked, CLAUSE_OF[mission])
    updates |= charts.updates()
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data=outcome_data, options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default, state_updates=updates,
                  fates=tuple(fates))


def _defence(ctx: AttackContext, decl: MissionDeclaration, log: StepLog) -> dict[str, Any]:
    """W-2: the hex's infantry defence bonus the players gave (with the hex, or asked once
    the attack had hits), kept so that a later mission on the hex does not ask it again; a
    data file's terrain is read from the file each time, so it is not kept."""
    given = decl.terrain_defence
    if given is None and decl.terrain is None:
        given = next((s.data["defence"] for s in log.steps
                      if s.clause == "W-2" and "defence" in s.data), None)
    if given is None or decl.terrain is not None or decl.hex is None:
        return {}
    return {kp.DEFENCE_KEY: {**ctx.state.get(kp.DEFENCE_KEY, {}), decl.hex: given}}


def _fates(found: Situation, units: list[Unit], status: dict[str, str],
           hits: dict[str, int]) -> list[Fate]:
    """What the mission left each unit, by its hex: the state it changed to, a hit that
    changed nothing, or nothing (unharmed)."""
    from referee.rulesets.waw.he_mission import status_of

    out = []
    for u in units:
        before, after = status_of(u).name, status.get(u.key, status_of(u).name)
        where = found.unit_hex.get(u.key)
        centre = found.decl.hex or "?"
        group = (Msg.of("kept.fate.hex", hex=where) if where is not None else
                 Msg.of("kept.fate.hex", hex=centre) if u.position == "centre" else
                 Msg.of("kept.fate.around", hex=centre))
        effects: tuple[Msg, ...] = ()
        if after != before:
            effects = (Msg.of(f"waw.status.{after}"),)
        elif hits.get(u.key):
            effects = (Msg.of("kept.fate.no_effect"),)
        out.append(Fate(group, u.label, effects))
    return out


def _chemical_units(ctx: AttackContext, found: Situation,
                    status: dict[str, str]) -> dict[str, Any]:
    """W-8: the states the strike leaves, kept by hex: the strike hex's units in place of
    what it held, the roster's units around it in their own hexes; units typed as standing
    around it have no hex the referee knows, so their states are not kept. Each infantry
    unit's ride (in a combat vehicle or on foot) is kept with it: a later strike on the hex
    as the game keeps it does not ask it again."""
    decl = found.decl
    centre = [(u, status[u.key]) for u in decl.units if found.unit_hex.get(u.key) == decl.hex]
    around: dict[str, list[tuple[Unit, str]]] = {}
    for u in decl.units:
        where = found.unit_hex.get(u.key)
        if where is not None and where != decl.hex:
            around.setdefault(where, []).append((u, status[u.key]))
    rides = kp.ridden(decl.units)  # each infantry unit's ride, settled by the strike
    updates = kp.updates(ctx.state, {decl.hex or "?": centre}, mounted=rides)
    return kp.updates({**ctx.state, **updates}, around, replace=False, mounted=rides)


def _place(ctx: AttackContext, mission: str, hex_label: str,
           log: StepLog) -> tuple[mk.Marker, dict[str, Any]]:
    t = tables()
    kind = MARKER_OF[mission]
    level = t.smoke_first_level if kind == "smoke" else 0
    replaces = kind == "smoke" and ctx.options.values.get("smoke-on-smoke",
                                                          "replace") == "replace"
    replaced = mk.in_hex(ctx.state, kind, hex_label) if replaces else []
    marker, updates = mk.place(ctx.state, kind, hex_label, level, replaces)
    clause = CLAUSE_OF[mission]
    for old in replaced:  # W-6: one smoke marker a hex, the fresher one
        log.outcome(Msg.of("waw.step.smoke_replaced", old=Msg.of(
            f"waw.marker.{old.kind}", level=old.level), hex=hex_label, new=Msg.of(
            f"waw.marker.{kind}", level=level)), clause, replaced=old.to_state())
    log.outcome(Msg.of("waw.step.marker_placed", marker=Msg.of(f"waw.marker.{kind}",
                                                                level=level), hex=hex_label),
                clause, marker=marker.to_state())
    if kind == "smoke":
        _smoke_notes(ctx, hex_label, log)
    elif kind == "mines":
        log.note(Msg.of("waw.step.mines_attack"), "W-7")
    else:
        log.note(Msg.of("waw.step.chemical_move", mp=t.chemical_extra_mp, hex=hex_label), "W-8")
    rows = [(m.id, Shown({"kind": m.kind, "level": m.level},
                         Msg.of(f"waw.marker.{m.kind}", level=m.level)), m.hex,
             Msg.of(f"waw.removal.{m.kind}"))
            for m in mk.markers({"markers": updates["markers"]})]
    log.table(Msg.of("waw.table.markers"),
              [Msg.of(f"waw.col.{c}") for c in ("id", "marker", "hex", "removal")], rows,
              clause)
    return marker, updates


def _smoke_notes(ctx: AttackContext, hex_label: str, log: StepLog) -> None:
    from referee.rulesets.waw.smoke import smoke_fire

    t = tables()
    cases = [("far", False, False, False), ("far_advanced_centre", False, True, False),
             ("adjacent_centre", True, False, False), ("adjacent_neighbour", True, False, True)]
    rows = []
    for name, adjacent, advanced, neighbour in cases:
        v = smoke_fire(adjacent=adjacent, advanced=advanced, into_neighbour=neighbour,
                       neighbours=ctx.options["smoke-neighbours"],
                       penalty_reading=ctx.options["smoke-penalty"], penalty=t.smoke_penalty)
        sight = "blocked" if v.blocked else "open"
        rows.append((Shown(name, Msg.of(f"waw.smoke.case.{name}")),
                     Shown(sight, Msg.of(f"waw.smoke.{sight}")),
                     NOTHING if v.blocked else as_signed(v.penalty),
                     Shown(v.why, Msg.of(f"waw.smoke.why.{v.why}"))))
    log.table(Msg.of("waw.table.smoke", hex=hex_label),
              [Msg.of(f"waw.col.{c}") for c in ("firer", "sight", "hit_number", "why")], rows,
              "W-6")
