"""The Flames of War attack: the whole assault step (``assault``, docs/rules/
flames-of-war-assault.md) or the allocation of known hits (F-1 to F-13, the seed).

Pure: it asks through the port and returns a ``Result``. What is resolved follows from the
declaration (``assaulting`` teams: the whole assault; ``hitting`` teams: the allocation); with
no declaration, or a roster alone, the first question asks it, unless the game file keeps the
armies (then it is the whole assault). The allocation's steps: the declaration, each hitting
team's eligible teams and the hits ignored, the referee's proposed allocation, the defender's
allocation (``allocate``), and only then the results (F-7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.core.fates import Fate, summary
from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion
from referee.core.result import Result, StepLog
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.fow import results
from referee.rulesets.fow.allocate import allocate, check_priorities, readings
from referee.rulesets.fow.declaration import AssaultDeclaration

if TYPE_CHECKING:
    from referee.rulesets.fow.armies import Army
    from referee.rulesets.fow.problem import Problem

RULESET_ID = "flames-of-war"
STEPS = ("assault", "allocation")

Asked = tuple[AssaultDeclaration, tuple[tuple[Msg, str], ...], "Army | None"]


def ask_step(port: Port) -> str:
    """What the players resolve: the whole assault, or only the allocation of known hits."""
    step: str = port.ask(ChoiceQuestion(
        id="step", text=Msg.of("fow.q.step"),
        choices=tuple(Choice(s, Msg.of(f"fow.step_kind.{s}")) for s in STEPS),
        default_value="assault", clause="F-A1"))
    return step


def _declaration(ctx: AttackContext) -> Asked:
    """The declaration, what was inferred at the table instead of asked (a line of the working
    each, with its clause), and the armies a game file keeps from it (``None``: an
    allocation's teams are not kept)."""
    decl = ctx.declaration
    if decl is not None and not isinstance(decl, AssaultDeclaration):
        decl = AssaultDeclaration.model_validate(decl)
    transport_priority = bool(ctx.options["transport-priority"])
    if decl is not None and decl.roster is None:
        if decl.whole:
            from referee.rulesets.fow.armies import from_declaration

            return decl, (), from_declaration(decl)
        return decl, (), None
    from referee.rulesets.fow import kept
    from referee.rulesets.fow.armies import ask_assault, from_roster

    if decl is None and kept.has_armies(ctx.state):
        army = kept.army(ctx.state)
        found = ask_assault(ctx.port, army)
        if not isinstance(found, str):
            return (found.declaration, ((Msg.of("fow.inferred.game_armies"), "F-A1"),
                                        *found.notes), army)
        if found == "new":  # new platoons typed, kept beside the game's (issue 27)
            from referee.rulesets.fow.armies import from_declaration
            from referee.rulesets.fow.typed import ask_whole

            typed = ask_whole(ctx.port, ctx.options.values, beside=army)
            return typed.declaration, typed.notes, from_declaration(typed.declaration)
        from referee.rulesets.fow.ask import ask_declaration

        # only the allocation of hits already rolled: its teams are typed, not kept (F-1)
        alone = ask_declaration(ctx.port, transport_priority)
        return alone.declaration, alone.notes, None
    step = ask_step(ctx.port)
    if decl is not None:
        assert decl.roster is not None
        if step == "assault":
            army = kept.with_kept(from_roster(decl.roster), ctx.state)
            asked = ask_assault(ctx.port, army, attacker=decl.attacker,
                                defender=decl.defender)
            if not isinstance(asked, str):
                return asked.declaration, asked.notes, army
            if asked == "new":
                from referee.rulesets.fow.armies import from_declaration
                from referee.rulesets.fow.typed import ask_whole

                typed = ask_whole(ctx.port, ctx.options.values, beside=army)
                return typed.declaration, typed.notes, from_declaration(typed.declaration)
        from referee.rulesets.fow.roster import ask_from_roster

        asked = ask_from_roster(ctx.port, decl, transport_priority)
        return asked.declaration, asked.notes, None
    if step == "assault":
        from referee.rulesets.fow.armies import from_declaration
        from referee.rulesets.fow.typed import ask_whole

        # the teams typed at the table are kept too (issue 27): the next assault names them
        asked = ask_whole(ctx.port, ctx.options.values, in_game=ctx.entry is not None)
        return asked.declaration, asked.notes, from_declaration(asked.declaration)
    from referee.rulesets.fow.ask import ask_declaration

    asked = ask_declaration(ctx.port, transport_priority)
    return asked.declaration, asked.notes, None


def attack(ctx: AttackContext) -> Result:
    decl, inferred, army = _declaration(ctx)
    if decl.whole:
        from referee.rulesets.fow.assault import resolve

        return resolve(ctx, decl, inferred, army)
    return _allocation(ctx, decl, inferred)


def _allocation(ctx: AttackContext, decl: AssaultDeclaration,
                inferred: tuple[tuple[Msg, str], ...]) -> Result:
    port, log = ctx.port, StepLog()
    readings(ctx.options.values)
    check_priorities(decl, ctx.options.values)
    attacker = decl.attacker or Msg.of("fow.default.attacker")
    defender = decl.defender or Msg.of("fow.default.defender")
    total = sum(h.hits for h in decl.hitting)
    # before any die: a game asks the sides now; named by them where the game knows them
    attacker_side, defender_side = ctx.parties(attacker, defender)
    attacker, defender = attacker_side or attacker, defender_side or defender
    log.input(Msg.of("fow.step.declared", attacker=attacker, defender=defender, hits=total,
                     hitters=len(decl.hitting), teams=len(decl.defending)), "F-1")
    for text, clause in inferred:
        log.note(text, clause)
    done = allocate(port, log, decl, ctx.options.values)
    problem, allocation, held = done.problem, done.allocation, done.held

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
    worked = Msg.of("fow.outcome", hits=len(allocation), teams=len(held), ignored=ignored)
    log.outcome(worked, "F-3")
    fates = team_fates(problem, held, effects, defender)
    outcome = Msg.of("kept.outcome.fates", fates=summary(fates), detail=worked)
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  fates=tuple(fates),
                  outcome_data={"allocation": {str(n): t for n, t in sorted(allocation.items())},
                                "ignored": ignored, "held": dict(held), "results": mode,
                                "effects": effects},
                  options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default)


def team_fates(problem: Problem, held: Mapping[str, int], effects: Mapping[str, list[str]],
               defender: Msg | str) -> list[Fate]:
    """What the allocation did to each defending team by name (issue 27, outcome first):
    the hits it holds and, once rolled or entered, their results (each save's outcome
    counted)."""
    out = []
    for team in problem.teams:
        hits = held.get(team.id, 0)
        found: list[Msg] = [Msg.of("kept.fate.hits", hits=hits)] if hits else []
        for outcome, count in Counter(effects.get(team.id, [])).items():
            what = Msg.of(f"fow.fate.{outcome}")
            found.append(what if count == 1 else Msg.of("kept.fate.times", count=count,
                                                         what=what))
        out.append(Fate(defender, team.name, tuple(found)))
    return out
