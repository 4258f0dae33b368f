"""The allocation of one set of assault hits (F-1 to F-13), as a step of any attack: the
allocation of known hits (``attack``) and each round of a whole assault (``assault``).

Pure: it asks through the port and writes to the step log it is given. The steps: each hitting
team's eligible teams and the hits ignored, the referee's proposed allocation, the hit
player's allocation (accepted, chosen hit by hit from legal options only, or given whole and
validated), and the allocation tables. ``qid`` prefixes the question ids (``round.2.``) so that
every round of an assault has its own answers; ``round_no`` titles the tables of a round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core.errors import UsageError
from referee.core.port import Port
from referee.core.questions import DEFENDER, Answerer, Choice, ChoiceQuestion
from referee.core.result import StepLog, Summary
from referee.core.table import NOTHING, Shown, Table
from referee.core.text import Msg
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.eligibility import EscortReadings, Reach, build
from referee.rulesets.fow.explain import Explanation
from referee.rulesets.fow.flow import loads
from referee.rulesets.fow.problem import Problem, Readings, Team
from referee.rulesets.fow.questions import AllocationQuestion
from referee.rulesets.fow.validate import Allocator


def readings(options: Mapping[str, Any]) -> tuple[Readings, EscortReadings]:
    if options["tiers"] == "bogged-last" and \
            options["bogged-bailed-wait"] == "functioning-vehicles":
        # F-X8's bogged-last with F-X2's summary reading asks for a partial order (a bogged
        # tank after functioning transports, yet not ranked against infantry); the referee's
        # tiers are a total order, so it refuses the pair rather than allocate wrongly
        raise UsageError(Msg.of("fow.error.readings_clash"))
    return (Readings(tiers=options["tiers"],
                     armour_every_round=options["armour-order"] == "every-round",
                     priority_first=options["priority-spread"] == "priority-first",
                     stopped_wait=options["bogged-bailed-wait"]),
            EscortReadings(escorts_as_tanks=options["tank-escorts"] == "tank-escort-rule",
                           escorts_hit_vehicles=options["escorts-hit-vehicles"]))


def check_priorities(decl: AssaultDeclaration, options: Mapping[str, Any]) -> None:
    """F-X1: a Transport priority only under the summary box's reading."""
    if options["transport-priority"]:
        return
    said = [(t.priority, t.label) for t in decl.hitting]
    said += [(t.priority, t.label) for t in decl.assaulting]
    said += [(t.priority, t.label) for t in decl.defending]
    for priority, label in said:
        if priority == "transport":
            raise UsageError(Msg.of("fow.error.transport_priority", hitter=label))


@dataclass(frozen=True)
class Allocated:
    """One allocation: its problem, each hitting team's reach, the hitting team of every hit
    number, and where each hit went."""

    problem: Problem
    reaches: tuple[Reach, ...]
    source: dict[int, str]
    allocation: dict[int, str]

    @property
    def held(self) -> dict[str, int]:
        return loads(self.allocation)

    @property
    def ignored(self) -> int:
        return sum(r.hitter.hits for r in self.reaches if r.ignored)


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


def _choose(port: Port, allocator: Allocator, log: StepLog, proposed: Table, qid: str,
            who: Msg | str | None, by: Answerer = DEFENDER) -> dict[int, str]:
    """The hit player's allocation (F-1: ``by``), asked with the referee's proposal shown
    first."""
    problem = allocator.problem
    proposal = allocator.proposal
    text = (Msg.of("fow.q.allocation", hits=len(problem.hits)) if who is None else
            Msg.of("fow.q.allocation_by", side=who, hits=len(problem.hits)))
    mode = port.ask(ChoiceQuestion(
        id=f"{qid}allocation", text=text,
        choices=tuple(Choice(c, Msg.of(f"fow.allocation.mode.{c}"))
                      for c in ("proposed", "by-hit", "complete")),
        default_value="proposed", clause="F-1", shows=(proposed,), whatif=True,
        answered_by=by))
    def said(key: str, **params: Any) -> Msg:
        return (Msg.of(f"fow.step.{key}", **params) if who is None else
                Msg.of(f"fow.step.by_side.{key}", side=who, **params))

    if mode == "proposed":
        log.input(said("accepted"), "F-1")
        return dict(proposal)
    if mode == "complete":
        numbers = tuple(h.number for h in problem.hits)
        answer = port.ask(AllocationQuestion(
            id=f"{qid}allocation.teams",
            text=Msg.of("fow.q.allocation_teams", hits=len(numbers),
                        ids=", ".join(t.id for t in problem.teams),
                        proposal=" ".join(proposal[n] for n in numbers)),
            hit_numbers=numbers, team_ids=tuple(t.id for t in problem.teams),
            check=allocator.check, default_value=tuple(proposal[n] for n in numbers),
            clause="F-1", answered_by=by))
        log.input(said("complete_checked", teams=str(answer)), "F-1")
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
            id=f"{qid}hit.{hit.number}", text=Msg.of("fow.q.hit", hit=hit.number,
                                                     hitter=hit.attacker),
            choices=choices, default_value=default, clause="F-1", answered_by=by))
        chosen[hit.number] = team_id
        plan = options[team_id]
        log.input(said("chosen_hit", hit=hit.number, team=problem.team(team_id).name,
                       legal=", ".join(problem.team(t).name for t in hit.eligible
                                       if t in options)), "F-1")
    log.input(said("by_hit"), "F-1")
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


def _title(key: str, round_no: int | None) -> Msg:
    title = Msg.of(key)
    return title if round_no is None else Msg.of("fow.round.titled", n=round_no, title=title)


def allocate(port: Port, log: StepLog, decl: AssaultDeclaration,
             options: Mapping[str, Any], *, qid: str = "", who: Msg | str | None = None,
             round_no: int | None = None, teams_table: bool = True,
             by: Answerer = DEFENDER) -> Allocated:
    """Allocate the hits of ``decl`` (its ``hitting`` teams on its ``defending`` teams);
    ``by``: the player whose teams were hit, who allocates (F-1)."""
    order, escorts = readings(options)
    problem, reaches, source = build(decl, order, escorts)
    names = {r.hitter.id: r.hitter.label for r in reaches}
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
                             Table(_title("fow.table.proposal", round_no), columns,
                                   tuple(rows), "F-3"), qid, who, by)
        assert allocator.check(allocation) is None
        if allocation != allocator.proposal:
            rows = _rows(allocator, allocation, names, source)
    held = loads(allocation)
    _note_readings(log, problem, held, decl, options)
    log.outcome(Msg.of("fow.step.all_allocated", hits=len(allocation)), "F-7")
    log.table(_title("fow.table.allocation", round_no), columns, rows, "F-3",
              summary=Summary(3, Msg.of("fow.col.hits")))  # (thousands of hits: by reason)
    ignored_rows = []
    for reach in reaches:
        if reach.ignored:
            numbers = [n for n, s in source.items() if s == reach.hitter.id]
            clauses = reach.ignored_clauses()
            ignored_rows.append((Shown(numbers, _span(numbers)), reach.hitter.label,
                                 tuple(Msg.of(f"fow.ignored.{c}") for c in clauses)))
    if ignored_rows:
        log.table(_title("fow.table.ignored", round_no),
                  [Msg.of(f"fow.col.{c}") for c in ("hits", "from", "why")], ignored_rows)
    if teams_table:
        log.table(_title("fow.table.teams", round_no),
                  [Msg.of(f"fow.col.{c}") for c in ("team", "type", "tier", "top", "held")],
                  [(t.name, Msg.of(f"fow.kind.{t.kind}"), _tier(problem, t),
                    NOTHING if t.top_armour is None else t.top_armour, held.get(t.id, 0))
                   for t in problem.teams])
    return Allocated(problem, reaches, source, allocation)


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
