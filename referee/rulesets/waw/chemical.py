"""The chemical strike (W-8): a morale check for every unit in the marker hex and its six
neighbours, outcomes by kind of unit. The morale check itself is not in the excerpt: the
players roll it by their rules and say whether each unit passed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from referee.core.charts import ChartAnswer, ChartKey, Charts
from referee.core.fates import joined
from referee.core.port import Port
from referee.core.questions import DEFENDER, EITHER, Choice, ChoiceQuestion, ConfirmQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.waw.declaration import MissionDeclaration, Unit
from referee.rulesets.waw.he import Status, apply_effect
from referee.rulesets.waw.he_mission import effect_chart
from referee.rulesets.waw.line import MoraleQuestion
from referee.rulesets.waw.tables import ASK, EFFECTS, tables
from referee.rulesets.waw.userdata import UserData


@dataclass(frozen=True)
class ChemicalOutcome:
    passed: dict[str, bool]
    status_by_unit: dict[str, str]


def _status(u: Unit) -> Status:
    return Status(disorganized=u.disorganized, weakened=u.weakened)


def resolve_chemical(port: Port, decl: MissionDeclaration, data: UserData,
                     log: StepLog, hq_reading: str = "exempt",
                     charts: Charts | None = None, one_line: bool = False) -> ChemicalOutcome:
    """``hq_reading``: option chemical-hq. W-5 makes HQs no artillery target (exempt, the
    default); W-8 has the strike affect every unit of its hexes (checks). ``charts``: the
    answers read off the players' charts so far (``referee.core.charts``). ``one_line``: the
    morale checks of two units or more asked in one line (``morale``, issue 27), each unit's
    result then applied and shown as when asked on its own."""
    charts = charts if charts is not None else Charts()
    passed: dict[str, bool] = {}
    statuses: dict[str, str] = {}
    rows: dict[str, tuple[object, ...]] = {}
    riders = {u.key for u in decl.units if u.mounted_in is not None}
    vehicles = [u for u in decl.units if u.kind == "combat-vehicle"]

    def vehicle_of(rider: Unit) -> Unit:
        return next(v for v in vehicles if rider.rides_in(v))

    def weakened_again(unit: Unit) -> str:
        cell = data.soft_effects.weakened_again or tables().he_effects["soft"].weakened_again
        if cell != ASK:
            return cell
        found = charts.ask(port, ChoiceQuestion(
            id=f"effect.{unit.key}.weakened-again",
            text=Msg.of("waw.q.effect_weakened_again", unit=unit.label),
            choices=tuple(Choice(e, Msg.of(f"waw.effect.{e}")) for e in EFFECTS if e != "weaken"),
            default_value="none", clause="W-8", answered_by=EITHER,
            help=Msg.of("waw.help.effect_not_in_excerpt")),
            effect_chart("weakened_again"))
        _kept(log, found, Msg.of("waw.cell.weakened_again"), unit)
        return str(found.value)

    # vehicles first: the infantry riding in them shares their result
    order = [u for u in decl.units if u.key not in riders] + \
            [u for u in decl.units if u.key in riders]
    checking = [u for u in order if u.key not in riders
                and not (u.kind == "hq" and hq_reading == "exempt")]
    given: dict[str, bool] = {}
    if one_line and len(checking) > 1:
        labels = tuple(u.label for u in checking)
        line = port.ask(MoraleQuestion(
            id="morale", text=Msg.of("waw.q.morale_line", units=joined(list(labels))),
            units=labels, default_value=" ".join(["y"] * len(checking)), clause="W-8",
            rule=Msg.of("waw.rule.chemical"),
            answered_by=DEFENDER,  # each unit's owner rolls its morale check
            hint_msg=Msg.of("waw.entry.hint.morale"), help=Msg.of("waw.help.morale")))
        given = {u.key: ok for u, ok in zip(checking, line.passed, strict=True)}
    for u in order:
        before = _status(u)
        if u.kind == "hq" and hq_reading == "exempt":
            log.input(Msg.of("waw.step.chem_hq", unit=u.label), "W-5", unit=u.key)
            statuses[u.key] = before.name
            rows[u.key] = (u.label, Msg.of(f"waw.kind.{u.kind}"),
                           Msg.of("waw.morale.not_checked"), Msg.of(f"waw.status.{before.name}"),
                           Msg.of(f"waw.status.{before.name}"), Msg.of("waw.why.chem_hq"))
            continue
        if u.mounted_in is not None:
            vehicle = vehicle_of(u)
            ok = passed[vehicle.key]
            log.input(Msg.of("waw.step.rider", unit=u.label, vehicle=vehicle.label,
                             result=Msg.of("waw.morale.passed" if ok else "waw.morale.failed")),
                      "W-8", unit=u.key, passed=ok)
            after = before if ok else replace(before, disorganized=True)
            why = Msg.of("waw.why.chem_rider_pass" if ok else "waw.why.chem_rider_fail",
                         vehicle=vehicle.label)
        else:
            ok = given[u.key] if u.key in given else bool(port.ask(ConfirmQuestion(
                id=f"morale.{u.key}", text=Msg.of("waw.q.morale", unit=u.label),
                default_value=True, clause="W-8", rule=Msg.of("waw.rule.chemical"),
                answered_by=DEFENDER,  # the unit's owner rolls its morale check
                help=Msg.of("waw.help.morale"))))
            log.input(Msg.of("waw.step.morale", unit=u.label,
                             result=Msg.of("waw.morale.passed" if ok else "waw.morale.failed")),
                      "W-8", unit=u.key, passed=ok)
            after, why = _outcome(port, u, before, ok, weakened_again, charts, log)
        passed[u.key] = ok
        statuses[u.key] = after.name
        if after != before:
            log.outcome(Msg.of("waw.step.chem_effect", unit=u.label,
                               before=Msg.of(f"waw.status.{before.name}"),
                               after=Msg.of(f"waw.status.{after.name}")), "W-8",
                        unit=u.key, status=after.name)
        rows[u.key] = (u.label, Msg.of(f"waw.kind.{u.kind}"),
                       Msg.of("waw.morale.passed" if ok else "waw.morale.failed"),
                       Msg.of(f"waw.status.{before.name}"), Msg.of(f"waw.status.{after.name}"),
                       why)
    log.table(Msg.of("waw.table.chemical", hex=decl.hex or "?"),
              [Msg.of(f"waw.col.{c}") for c in ("unit", "kind", "morale", "before", "after",
                                                 "why")], [rows[u.key] for u in decl.units],
              "W-8")
    return ChemicalOutcome(passed, statuses)


def _kept(log: StepLog, found: ChartAnswer, what: Msg, unit: Unit) -> None:
    """The working says when a chart's answer was the one entered before."""
    if found.source is not None:
        log.input(Msg.of("kept.chart.step", what=what, unit=unit.label,
                         answer=Msg.of(f"waw.effect.{found.value}"), source=found.source),
                  "W-8")


def _outcome(port: Port, u: Unit, before: Status, ok: bool,
             weakened_again: Callable[[Unit], str], charts: Charts,
             log: StepLog) -> tuple[Status, Msg]:
    if ok:
        return before, Msg.of("waw.why.chem_pass")
    if u.kind == "combat-vehicle":
        if before.disorganized:
            return before, Msg.of("waw.why.chem_vehicle_already")
        return replace(before, disorganized=True), Msg.of("waw.why.chem_vehicle")
    if u.kind == "infantry":
        after = replace(before, disorganized=True)
        after, _ = apply_effect(after, "weaken",
                                lambda cell: weakened_again(u))
        return after, Msg.of("waw.why.chem_infantry")
    # unarmoured vehicles and HQs: the excerpt gives no outcome; the players' rules decide
    found = charts.ask(port, ChoiceQuestion(
        id=f"chemical-outcome.{u.key}", text=Msg.of("waw.q.chem_outcome", unit=u.label),
        choices=tuple(Choice(e, Msg.of(f"waw.effect.{e}")) for e in EFFECTS),
        default_value="none", clause="W-8", answered_by=EITHER,
            help=Msg.of("waw.help.effect_not_in_excerpt")),
        ChartKey("waw.chemical-outcome", u.kind, "failed"))
    _kept(log, found, Msg.of("kept.chart.chemical_failed"), u)
    effect = found.value
    after, _ = apply_effect(before, str(effect), lambda cell: "none")
    return after, Msg.of("waw.why.chem_other", effect=Msg.of(f"waw.effect.{effect}"))
