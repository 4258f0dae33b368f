"""The whole assault step (docs/rules/flames-of-war-assault.md, F-A1 to F-A26): defensive
fire, then rounds of hits, each followed by the other side's counterattack test, until one side
breaks off or has no team left that can fight.

Pure: it asks through the port and returns a ``Result``. The parts of each step live in their
own modules (``defensive``, ``melee``, ``allocate``, ``outcomes``, ``morale``), none of which
imports this one; the state a game file keeps is worked out by ``kept``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.errors import UsageError
from referee.core.fates import Fate
from referee.core.oddsref import OddsRef
from referee.core.questions import EITHER, ConfirmQuestion
from referee.core.result import Result, StepLog
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.fow import defensive, kept, melee, morale, outcomes
from referee.rulesets.fow.allocate import allocate, check_priorities, readings
from referee.rulesets.fow.armies import Army, on_sides
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.fight import (
    DESTROYED,
    Fight,
    Status,
    answerer,
    from_declaration,
    named,
    other,
)

RULESET_ID = "flames-of-war"
MAX_ROUNDS = 30  # the referee's limit: an assault still undecided is left to the table


def resolve(ctx: AttackContext, decl: AssaultDeclaration,
            inferred: tuple[tuple[Msg, str], ...], army: Army | None = None) -> Result:
    """The whole assault of ``decl``; ``army``: the armies the game file keeps from it
    (``None``: nothing is kept)."""
    options = ctx.options.values
    readings(options)
    check_priorities(decl, options)
    fight = from_declaration(decl)
    _check_kept(ctx, fight)
    status = fight.status()
    log = StepLog()
    # before any die: a game asks the sides now, and the fight is told them by name
    roles = (fight.attacker, fight.defender)
    fight = named(fight, *ctx.parties(fight.attacker, fight.defender))
    if army is not None and army.source == "declaration":  # typed: kept by the game's sides
        army = on_sides(army, {str(k): str(v) for k, v in zip(
            roles, (fight.attacker, fight.defender), strict=True)})
    charging = fight.of_side("attacker")
    log.input(Msg.of("fow.assault.declared", platoon=fight.charging.name,
                     attacker=fight.attacker, teams=len(charging),
                     defenders=len(fight.of_side("defender")), defender=fight.defender),
              "F-A1")
    for text, clause in inferred:
        log.note(text, clause)
    for p in fight.platoons:
        log.input(Msg.of("fow.assault.platoon", platoon=p.name,
                         skill=Msg.of(f"fow.skill.{p.skill}"),
                         motivation=Msg.of(f"fow.motivation.{p.motivation}"),
                         reroll=Msg.of("fow.assault.reroll" if p.reroll else "fow.assault.none")),
                  "F-A18")
    fire = defensive.fire(ctx.port, log, fight, status, options)
    pinned: list[str] = []
    round_log: list[dict[str, Any]] = []
    rounds = 0
    winner: str | None = None
    if fire.stopped:
        pinned.append(fight.charging.name)
        log.outcome(Msg.of("fow.assault.stopped", platoon=fight.charging.name), "F-A7")
        outcome = Msg.of("fow.assault.outcome.stopped", platoon=fight.charging.name)
    else:
        rounds, winner, broke = _rounds(ctx, log, fight, status, options, round_log)
        pinned += broke
        outcome = _outcome(fight, winner, rounds, log)
    _teams_table(log, fight, status)
    log.outcome(outcome, "F-A25" if winner else "F-A7" if fire.stopped else "F-A23")
    effects = {t.id: [DESTROYED] for t in fight.teams
               if status[t.id] == DESTROYED and fight.start.get(t.id) != DESTROYED}
    updates: dict[str, Any] = {}
    if army is not None:
        rated = {p.name: (p.skill, p.motivation, p.reroll) for p in fight.platoons}
        updates = kept.updates(ctx.state, army, status, rated, pinned)
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data={"stopped": fire.stopped, "defensive_fire_hits": fire.hits,
                                "rounds": rounds, "winner": winner, "round_log": round_log,
                                "status": dict(status), "pinned": pinned,
                                "effects": effects},
                  options=dict(options), non_default_options=ctx.options.non_default,
                  state_updates=updates, fates=_fates(fight, status, pinned))


def _fates(fight: Fight, status: Mapping[str, str], pinned: list[str]) -> tuple[Fate, ...]:
    """What the assault did to each team by name, by side (issue 27, outcome first): the
    state it ended in when it changed; a platoon Pinned Down."""
    out = []
    for team in fight.teams:
        now = status[team.id]
        changed = now != fight.start.get(team.id, "active")
        out.append(Fate(fight.side_name(team.side), team.name,
                        (Msg.of(f"fow.fate.{now}"),) if changed else ()))
    for platoon in pinned:
        side = next((t.side for t in fight.teams if t.platoon == platoon), "attacker")
        out.append(Fate(fight.side_name(side), platoon, (Msg.of("fow.fate.pinned"),)))
    return tuple(out)


def _check_kept(ctx: AttackContext, fight: Fight) -> None:
    """F-A2 with a game file: a team it keeps destroyed does not fight again (under its id
    or its name); a platoon it keeps Pinned Down charges only after it has rallied."""
    gone = kept.destroyed(ctx.state)
    for team in fight.teams:
        name = gone.get(team.id) or gone.get(team.name)
        if name is not None:
            raise UsageError(Msg.of("fow.error.kept_destroyed", team=team.name, kept=name))
    platoon = fight.charging.name
    if kept.pinned(ctx.state, platoon):
        rallied: bool = ctx.port.ask(ConfirmQuestion(
            id="assault.rallied", text=Msg.of("fow.q.rallied", platoon=platoon),
            default_value=False, clause="F-A2", answered_by=EITHER))
        if not rallied:
            raise UsageError(Msg.of("fow.error.pinned", platoon=platoon))


def _rounds(ctx: AttackContext, log: StepLog, fight: Fight, status: Status,
            options: Mapping[str, Any], round_log: list[dict[str, Any]]
            ) -> tuple[int, str | None, list[str]]:
    """F-A8 to F-A24, F-A26: the rounds; returns their number, the winner (``None``: undecided at
    the referee's limit) and the platoons that broke off. ``round_log`` gets each round's
    side, hits by team, allocation (hit number to team) and the teams' states after it."""
    port = ctx.port
    in_fight = {"attacker": {fight.charging.name},
                "defender": {t.platoon for t in fight.of_side("defender")}}
    side = "attacker"
    broke: list[str] = []
    for round_no in range(1, MAX_ROUNDS + 1):
        hit = other(side)
        hitters = melee.fighting(fight, status, side, in_fight[side])
        targets = [t for t in fight.of_side(hit)
                   if t.platoon in in_fight[hit] and status[t.id] != DESTROYED]
        log.input(Msg.of(f"fow.round.{'assault' if round_no == 1 else 'counterattack'}",
                         n=round_no, side=fight.side_name(side),
                         teams=", ".join(t.name for t in hitters)),
                  "F-A8" if round_no == 1 else "F-A22")
        reach = None if side == "attacker" else _counter_reach(
            port, fight, hitters, targets, options, round_no)
        facts = {"fight": fight, "status": tuple(status.items()),
                 "hitters": tuple(h.id for h in hitters), "targets": tuple(t.id for t in targets),
                 "reach": None if reach is None else tuple(reach.items()),
                 "options": tuple(options.items()), "in_fight": tuple(sorted(in_fight[hit]))}

        def odds(scores: Mapping[str, int], facts: dict[str, Any] = facts) -> OddsRef:
            return OddsRef.to("referee.rulesets.fow.assault_odds:assault_round",
                              scores=tuple(scores.items()), **facts)

        hits = melee.roll_to_hit(port, log, fight, hitters, targets, options, round_no, odds)
        scored = sum(hits.values())
        entry: dict[str, Any] = {"round": round_no, "side": side, "hits": dict(hits),
                                 "allocation": {}}
        round_log.append(entry)
        if scored:
            decl = melee.allocation(fight, status, hits, hitters, targets, reach)
            done = allocate(port, log, decl, options, qid=f"round.{round_no}.",
                            who=fight.side_name(hit), round_no=round_no, teams_table=False,
                            by=answerer(hit))
            entry["allocation"] = {str(n): t for n, t in sorted(done.allocation.items())}
            rows = outcomes.resolve(port, log, fight, status, done, options, round_no)
            if rows:
                log.table(Msg.of("fow.round.titled", n=round_no,
                                 title=Msg.of("fow.table.fight_results")),
                          [Msg.of(f"fow.col.{c}") for c in ("team", "hits", "result", "clause")],
                          rows, "F-A11")
        else:
            log.outcome(Msg.of("fow.round.no_hits", side=fight.side_name(side)), "F-A9")
        entry["status"] = dict(status)
        platoons = morale.able(fight, status, in_fight[hit])
        if not platoons:
            log.outcome(Msg.of("fow.round.nobody_left", side=fight.side_name(hit)), "F-A17")
            return round_no, side, broke
        forced = morale.must_break_off(log, fight, status, platoons)
        testing = [p for p in platoons if p not in forced]
        passed = morale.test(port, log, fight, testing, scored, round_no) if testing else {}
        choices = morale.choose(port, log, testing, passed, round_no)
        choices.update({p.name: morale.BREAK_OFF for p in forced})
        for p in platoons:
            if choices[p.name] == morale.BREAK_OFF:
                morale.break_off(log, fight, status, p, options)
                broke.append(p.name)
        staying = {p.name for p in platoons if choices[p.name] == morale.COUNTERATTACK}
        if not staying:
            return round_no, side, broke
        in_fight[hit] = staying
        side = hit
    log.warning(Msg.of("fow.round.limit", rounds=MAX_ROUNDS), "F-A23")
    return MAX_ROUNDS, None, broke


def _counter_reach(port: Any, fight: Fight, hitters: list[Any], targets: list[Any],
                   options: Mapping[str, Any], round_no: int) -> dict[str, tuple[str, ...]]:
    """F-A22: the teams each counterattacking team reaches (F-X13)."""
    out: dict[str, tuple[str, ...]] = {}
    for team in hitters:
        found = melee.mirror(fight, team, targets)
        if options["counterattack-reach"] == "ask":
            found = melee.ask_reach(port, team, targets, round_no, found)
        out[team.id] = found
    return out


def _outcome(fight: Fight, winner: str | None, rounds: int, log: StepLog) -> Msg:
    if winner is None:
        return Msg.of("fow.assault.outcome.undecided", rounds=rounds)
    log.note(Msg.of("fow.assault.consolidate", side=fight.side_name(winner)), "F-A25")
    return Msg.of(f"fow.assault.outcome.{winner}_wins", side=fight.side_name(winner),
                  rounds=rounds)


def _teams_table(log: StepLog, fight: Fight, status: Status) -> None:
    log.table(Msg.of("fow.table.after"),
              [Msg.of(f"fow.col.{c}") for c in ("team", "platoon", "type", "before", "after")],
              [(t.name, t.platoon, Msg.of(f"fow.kind.{t.kind}"),
                _state(fight.start.get(t.id, "active")), _state(status[t.id]))
               for t in fight.teams], "F-A16")


def _state(state: str) -> Shown:
    return Shown(state, Msg.of(f"fow.state.{state}"))
