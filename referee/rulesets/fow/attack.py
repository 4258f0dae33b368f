"""The Flames of War assault allocation resolver (F-1 to F-13).

Pure: it asks through the port and returns a ``Result``. The steps: the declaration, each
hitting team's eligible teams and the hits ignored, the referee's proposed allocation, the
defender's allocation (accepted, chosen hit by hit from legal options only, or given whole and
validated), the allocation table, and only then the results (F-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.errors import UsageError
from referee.core.port import Port
from referee.core.questions import DEFENDER, Choice, ChoiceQuestion
from referee.core.result import Result, StepLog, Summary
from referee.core.table import NOTHING, Shown, Table
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.fow import results
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.eligibility import EscortReadings, Reach, build
from referee.rulesets.fow.explain import Explanation
from referee.rulesets.fow.flow import loads
from referee.rulesets.fow.problem import Problem, Readings, Team
from referee.rulesets.fow.questions import AllocationQuestion
from referee.rulesets.fow.validate import Allocator

RULESET_ID = "flames-of-war"


def readings(options: Mapping[str, Any]) -> tuple[Readings, EscortReadings]:
    if options["tiers"] == "bogged-last" and \
            options["bogged-bailed-wait"] == "functioning-vehicles":
        # F-X8's bogged-last with F-X2's summary reading asks for a partial order (a bogged
        # tank after functioning transports, yet not ranked against infantry); the referee's
        # tiers are a total order, so it refuses the pair rather than allocate wrongly
        from referee.core.errors import UsageError

        raise UsageError(Msg.of("fow.error.readings_clash"))
    return (Readings(tiers=options["tiers"],
                     armour_every_round=options["armour-order"] == "every-round",
                     priority_first=options["priority-spread"] == "priority-first",
                     stopped_wait=options["bogged-bailed-wait"]),
            EscortReadings(escorts_as_tanks=options["tank-escorts"] == "tank-escort-rule",
                           escorts_hit_vehicles=options["escorts-hit-vehicles"]))


def _declaration(ctx: AttackContext) -> tuple[AssaultDeclaration, tuple[tuple[Msg, str], ...]]:
    """The declaration, and what was inferred at the table instead of asked (a line of the
    working each, with its clause)."""
    decl = ctx.declaration
    if decl is not None and not isinstance(decl, AssaultDeclaration):
        decl = AssaultDeclaration.model_validate(decl)
    transport_priority = bool(ctx.options["transport-priority"])
    if decl is not None and decl.roster is not None:
        from referee.rulesets.fow.roster import ask_from_roster

        asked = ask_from_roster(ctx.port, decl, transport_priority)
        return asked.declaration, asked.notes
    if decl is not None:
        return decl, ()
    from referee.rulesets.fow.ask import ask_declaration

    asked = ask_declaration(ctx.port, transport_priority)
    return asked.declaration, asked.notes


def _log_reach(log: StepLog, problem: Problem, reach: Reach) -> None:
    h = reach.hitter
    names = ", ".join(problem.team(t).name for t in reach.eligible) or "-"
    log.input(Msg.of("fow.step.hitter", hitter=h.label, kind=Msg.of(f"fow.hitter.{h.type}"),
                     hits=h.hits), "F-2")
    if h.situation != "open":
        log.input(Msg.of(f"fow.step.situation.{h.situation}", hitter=h.label,
                         building=h.building or "-"), "F-10")
    by_clause: dict[str, list[str]] = {}
    for team_id, clause in reach.excluded:
        if team_id in reach.considered or clause != "F-2":
            by_clause.setdefault(clause, []).append(problem.team(team_id).name)
    for clause, teams in by_clause.items():
        if clause in ("F-2", "F-10") and not reach.considered:
            continue
        log.modifier(Msg.of(f"fow.step.excluded.{clause}", hitter=h.label,
                            teams=", ".join(teams)), clause)
    if h.priority is not None:
        log.input(Msg.of("fow.step.priority", hitter=h.label,
                         kind=Msg.of(f"fow.kind.{h.priority}")), "F-8")
    if reach.ignored:
        clauses = reach.ignored_clauses()
        log.outcome(Msg.of("fow.step.ignored", hitter=h.label, hits=h.hits,
                           clauses=", ".join(clauses)), clauses[0])
    elif h.hits:
        log.outcome(Msg.of("fow.step.eligible", hitter=h.label, teams=names), "F-9")


def _choose(port: Port, allocator: Allocator, log: StepLog,
            proposed: Table) -> dict[int, str]:
    """The defender's allocation, asked with the referee's proposal shown first."""
    problem = allocator.problem
    proposal = allocator.proposal
    mode = port.ask(ChoiceQuestion(
        id="allocation", text=Msg.of("fow.q.allocation", hits=len(problem.hits)),
        choices=tuple(Choice(c, Msg.of(f"fow.allocation.mode.{c}"))
                      for c in ("proposed", "by-hit", "complete")),
        default_value="proposed", clause="F-1", shows=(proposed,), whatif=True,
        answered_by=DEFENDER))  # F-1: the player whose teams were hit
    if mode == "proposed":
        log.input(Msg.of("fow.step.accepted"), "F-1")
        return dict(proposal)
    if mode == "complete":
        numbers = tuple(h.number for h in problem.hits)
        answer = port.ask(AllocationQuestion(
            id="allocation.teams",
            text=Msg.of("fow.q.allocation_teams", hits=len(numbers),
                        ids=", ".join(t.id for t in problem.teams),
                        proposal=" ".join(proposal[n] for n in numbers)),
            hit_numbers=numbers, team_ids=tuple(t.id for t in problem.teams),
            check=allocator.check, default_value=tuple(proposal[n] for n in numbers),
            clause="F-1", answered_by=DEFENDER))
        log.input(Msg.of("fow.step.complete_checked", teams=str(answer)), "F-1")
        return dict(zip(numbers, answer, strict=True))
    chosen: dict[int, str] = {}
    plan = dict(proposal)
    for hit in problem.hits:
        options = allocator.options(chosen, hit.number)
        if len(options) == 1:
            only, plan = next(iter(options.items()))
            chosen[hit.number] = only
            log.input(Msg.of("fow.step.forced_hit", hit=hit.number,
                             team=problem.team(only).name), "F-1")
            continue
        held = loads(chosen)
        choices = tuple(Choice(t, Msg.of("fow.choice.team", team=problem.team(t).name,
                                         kind=Msg.of(f"fow.kind.{problem.team(t).kind}"),
                                         held=held.get(t, 0)))
                        for t in hit.eligible if t in options)
        default = plan[hit.number] if plan[hit.number] in options else choices[0].value
        team_id = port.ask(ChoiceQuestion(
            id=f"hit.{hit.number}", text=Msg.of("fow.q.hit", hit=hit.number,
                                                hitter=hit.attacker),
            choices=choices, default_value=default, clause="F-1", answered_by=DEFENDER))
        chosen[hit.number] = team_id
        plan = options[team_id]
        log.input(Msg.of("fow.step.chosen_hit", hit=hit.number, team=problem.team(team_id).name,
                         legal=", ".join(problem.team(t).name for t in hit.eligible
                                         if t in options)), "F-1")
    log.input(Msg.of("fow.step.by_hit"), "F-1")
    return chosen


def _note_readings(log: StepLog, problem: Problem, held: Mapping[str, int],
                   decl: AssaultDeclaration, options: Mapping[str, Any]) -> None:
    """Say which reading of an ambiguity was used, where it mattered to this assault."""
    armoured = [t for t in problem.teams if t.armoured]
    if len({t.top_armour for t in armoured}) > 1 and any(held.get(t.id, 0) > 1
                                                          for t in armoured):
        log.note(Msg.of(f"fow.note.armour.{options['armour-order']}"), "F-X3")
    if any(h.priority for h in decl.hitting):
        log.note(Msg.of(f"fow.note.priority.{options['priority-spread']}"), "F-X4")
    stopped = any(t.bogged_or_bailed for t in problem.teams if held.get(t.id))
    if stopped:
        log.note(Msg.of(f"fow.note.stopped.{options['bogged-bailed-wait']}",
                        tiers=Msg.of(f"fow.note.tiers.{options['tiers']}")), "F-X2")


def attack(ctx: AttackContext) -> Result:
    port, log = ctx.port, StepLog()
    decl, inferred = _declaration(ctx)
    order, escorts = readings(ctx.options.values)
    if not ctx.options["transport-priority"]:
        for h in decl.hitting:
            if h.priority == "transport":
                raise UsageError(Msg.of("fow.error.transport_priority", hitter=h.label))
    problem, reaches, source = build(decl, order, escorts)
    names = {r.hitter.id: r.hitter.label for r in reaches}
    attacker = decl.attacker or Msg.of("fow.default.attacker")
    defender = decl.defender or Msg.of("fow.default.defender")
    total = sum(h.hits for h in decl.hitting)
    log.input(Msg.of("fow.step.declared", attacker=attacker, defender=defender, hits=total,
                     hitters=len(decl.hitting), teams=len(decl.defending)), "F-1")
    for text, clause in inferred:
        log.note(text, clause)
    for reach in reaches:
        _log_reach(log, problem, reach)

    allocation: dict[int, str] = {}
    allocator = Allocator(problem)
    columns = tuple(Msg.of(f"fow.col.{c}") for c in ("hit", "from", "to", "rule"))
    rows: list[tuple[Any, ...]] = []
    if problem.hits:
        log.outcome(Msg.of("fow.step.proposal", teams=len(set(allocator.proposal.values())),
                           hits=len(problem.hits)), "F-3")
        rows = _rows(allocator, allocator.proposal, names, source)
        allocation = _choose(port, allocator, log,
                             Table(Msg.of("fow.table.proposal"), columns, tuple(rows), "F-3"))
        assert allocator.check(allocation) is None
        if allocation != allocator.proposal:
            rows = _rows(allocator, allocation, names, source)
    held = loads(allocation)
    _note_readings(log, problem, held, decl, ctx.options.values)
    log.outcome(Msg.of("fow.step.all_allocated", hits=len(allocation)), "F-7")
    log.table(Msg.of("fow.table.allocation"), columns, rows, "F-3",
              summary=Summary(3, Msg.of("fow.col.hits")))  # (thousands of hits: by reason)
    ignored_rows = []
    for reach in reaches:
        if reach.ignored:
            numbers = [n for n, s in source.items() if s == reach.hitter.id]
            clauses = reach.ignored_clauses()
            ignored_rows.append((Shown(numbers, _span(numbers)), reach.hitter.label,
                                 tuple(Msg.of(f"fow.ignored.{c}") for c in clauses)))
    if ignored_rows:
        log.table(Msg.of("fow.table.ignored"),
                  [Msg.of(f"fow.col.{c}") for c in ("hits", "from", "why")], ignored_rows)
    log.table(Msg.of("fow.table.teams"),
              [Msg.of(f"fow.col.{c}") for c in ("team", "type", "tier", "top", "held")],
              [(t.name, Msg.of(f"fow.kind.{t.kind}"), _tier(problem, t),
                NOTHING if t.top_armour is None else t.top_armour, held.get(t.id, 0))
               for t in problem.teams])

    result_rows: list[tuple[Any, ...]] = []
    effects: dict[str, list[str]] = {}
    mode = "skip"
    if allocation:
        mode = results.ask_mode(port)
        if mode != "skip":
            result_rows, effects = results.resolve(port, problem, held, mode,
                                                   ctx.options.values, log)
            log.table(Msg.of("fow.table.results"),
                      [Msg.of(f"fow.col.{c}") for c in ("team", "hits", "result", "reading")],
                      result_rows, "F-7")
    ignored = total - len(allocation)
    outcome = Msg.of("fow.outcome", hits=len(allocation), teams=len(held), ignored=ignored)
    log.outcome(outcome, "F-3")
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data={"allocation": {str(n): t for n, t in sorted(allocation.items())},
                                "ignored": ignored, "held": dict(held), "results": mode,
                                "effects": effects},
                  options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default)


def _rows(allocator: Allocator, allocation: Mapping[int, str], names: Mapping[str, str],
          source: Mapping[int, str]) -> list[tuple[Any, ...]]:
    """The allocation table's rows: each hit, its hitting team, its team and why there."""
    explanation = Explanation(allocator, allocation)
    problem = allocator.problem
    return [(n, names[source[n]], problem.team(allocation[n]).name, explanation.why(n))
            for n in sorted(allocation)]


def _tier(problem: Problem, team: Team) -> Shown:
    """A team's tier as a table cell: its number and what puts it there (``active``,
    ``stopped``, ``transport-active``, ``transport-stopped``)."""
    what = ("transport-" if team.kind == "transport" else "") + (
        "stopped" if team.bogged_or_bailed else "active")
    n = problem.tier(team)
    return Shown({"tier": n, "what": what},
                 Msg.of("fow.tier.label", n=n, what=Msg.of(f"fow.tier.{what}")))


def _span(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return str(numbers[0])
    return f"{numbers[0]}-{numbers[-1]}"
