"""The resolver entry: play impulses of an operations phase, from a roster or from the state
a game file kept, and return the working with the new state to keep."""

from __future__ import annotations

from typing import Any

from referee.core.charts import Charts
from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion
from referee.core.result import Result, StepLog
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.lnlt.phase import check_end, play_impulse, start
from referee.rulesets.lnlt.roster import PhaseState, Roster
from referee.rulesets.lnlt.tables import RULESET_ID

STATE_KEY = "phase"


def load_state(state: Any) -> PhaseState | None:
    """The phase kept in a game file (None: no phase, or the last one is over)."""
    raw = state.get(STATE_KEY) if state else None
    if not raw:
        return None
    phase = PhaseState.model_validate(raw)
    return None if phase.ended else phase


def begin(roster: Roster, port: Port, log: StepLog) -> PhaseState:
    """L-1: the initiative player (from the roster, or asked) has the first impulse."""
    initiative = roster.initiative or port.ask(ChoiceQuestion(
        id="initiative", text=Msg.of("lnlt.q.initiative"),
        choices=tuple(Choice(s, s) for s in roster.sides), default_value=roster.sides[0],
        clause="L-1"))
    phase = start(roster, initiative)
    log.input(Msg.of("lnlt.step.start", turn=roster.turn, initiative=initiative,
                     units=len(roster.units)), "L-1")
    check_end(phase, log)
    return phase


def play(phase: PhaseState, port: Port, options: Options, log: StepLog,
         impulses: int | None = None, charts: Charts | None = None) -> PhaseState:
    """Play impulses until the phase ends (L-2) or ``impulses`` have been played;
    ``charts``: the Damage Check results read off the players' chart so far."""
    played = 0
    while not phase.ended and (impulses is None or played < impulses):
        play_impulse(phase, port, options, log, charts)
        played += 1
    return phase


def impulse_table_rows(phase: PhaseState) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    for rec in phase.log:
        if rec.kind == "pass":
            what: object = Msg.of("lnlt.log.pass")
        else:
            what = tuple(Msg.of(f"lnlt.log.{d.split(':')[0]}", frm=d.split(":")[1],
                                to=d.split(":")[2]) for d in rec.did) or Msg.of(
                "lnlt.log.nothing")
        rows.append((rec.number, rec.side, Msg.of(f"lnlt.kind_impulse.{rec.kind}"),
                     Shown(list(rec.hexes), ", ".join(rec.hexes) or "-"), what, rec.passes))
    return rows


def summary_tables(phase: PhaseState, log: StepLog) -> None:
    log.table(Msg.of("lnlt.table.impulses", turn=phase.roster.turn),
              [Msg.of(f"lnlt.col.{c}") for c in ("n", "side", "impulse", "hexes", "did",
                                                  "passes")],
              impulse_table_rows(phase), clause="L-1")
    rows = [(u.label, u.side, u.hex, Msg.of(f"lnlt.kind.{u.kind}"),
             Shown(list(u.markers), tuple(Msg.of(f"lnlt.marker.{m}") for m in u.markers) or "-"),
             Msg.of(f"lnlt.result.{u.status}"))
            for u in phase.roster.units]
    log.table(Msg.of("lnlt.table.roster"),
              [Msg.of(f"lnlt.col.{c}") for c in ("unit", "side", "hex", "kind", "markers",
                                                  "status")],
              rows, clause="L-8")


def outcome(phase: PhaseState) -> Msg:
    if phase.ended:
        return Msg.of(f"lnlt.outcome.{phase.end_reason}", impulses=phase.impulses)
    return Msg.of("lnlt.outcome.in_progress", side=phase.current, n=phase.impulses + 1,
                  passes=phase.passes)


def result(phase: PhaseState, log: StepLog, options: Options,
           charts: Charts | None = None) -> Result:
    """The working with the phase's summary tables, and the state to keep."""
    summary_tables(phase, log)
    return impulse_result(phase, log, options, charts)


def impulse_result(phase: PhaseState, log: StepLog, options: Options,
                   charts: Charts | None = None) -> Result:
    """One impulse's working (no summary tables), with the state to keep (the chart results
    entered in it too)."""
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables,
                  outcome=outcome(phase),
                  outcome_data={"ended": phase.ended, "end_reason": phase.end_reason,
                                "impulses": phase.impulses, "current": phase.current,
                                "passes": phase.passes},
                  options=dict(options.values), non_default_options=options.non_default,
                  state_updates={STATE_KEY: phase.model_dump(mode="json"),
                                 **(charts.updates() if charts is not None else {})},
                  fates=log.fates)


def summary(state: Any, options: Options) -> Result:
    """The impulse log and the units of the phase a game file keeps (ended or not)."""
    phase = PhaseState.model_validate(state[STATE_KEY])
    return result(phase, StepLog(), options)


def attack(ctx: AttackContext) -> Result:
    """``referee run`` / ``attack``: resume the phase a game file holds, or start one from
    the roster (the declaration), and play it to its end (or ``max_impulses``)."""
    log = StepLog()
    phase = load_state(ctx.state)
    if phase is not None:
        log.input(Msg.of("lnlt.step.resumed", n=phase.impulses, side=phase.current), "L-1")
        limit = phase.roster.max_impulses
    else:
        if ctx.declaration is None:  # typed at the table (issue 27)
            from referee.rulesets.lnlt.typed import ask_roster

            roster = ask_roster(ctx.port)
        else:
            roster = (ctx.declaration if isinstance(ctx.declaration, Roster)
                      else Roster.model_validate(ctx.declaration))
        phase = begin(roster, ctx.port, log)
        limit = roster.max_impulses
    charts = Charts(ctx.state, ctx.entry)
    play(phase, ctx.port, ctx.options, log, limit, charts)
    return result(phase, log, ctx.options, charts)
