"""One side's hits in a round of the assault (F-A8 to F-A10, F-A22): the teams that fight, the
score each needs, the roll to hit, and the allocation problem of the hits they scored (the
seed's allocation, with the teams of the other side still in the fight).

In a counterattack, a team's reach is the assault's reach read both ways (F-X13 ``mirror``):
a distance measured one way is the same the other way, and so is a building's opening.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import Choice, DiceQuestion, MultiChoiceQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.fight import Fight, Fighter, answerer, can_fight
from referee.rulesets.fow.ratings import skill_test, to_hit_as_target


def team_score(fight: Fight, team: Fighter, targets: Sequence[Fighter],
               reading: str) -> tuple[int, str]:
    """F-A9: the score ``team`` needs to hit, and why (``card``, ``skill`` or ``target``,
    F-X9's reading: the best experience among the platoons it fights)."""
    if team.hits_on is not None:
        return team.hits_on, "card"
    if reading == "target-experience" and targets:
        return max(to_hit_as_target(fight.platoon(t.platoon).skill) for t in targets), "target"
    return skill_test(fight.platoon(team.platoon).skill), "skill"


def roll_to_hit(port: Port, log: StepLog, fight: Fight, fighters: Sequence[Fighter],
                targets: Sequence[Fighter], options: Mapping[str, Any], round_no: int,
                odds: Callable[[Mapping[str, int]], OddsRef | None]) -> dict[str, int]:
    """F-A9: one die each; the hits each team scored (0 or 1), by team id. ``odds`` gives
    the roll's odds reference from each team's score."""
    reading = str(options["assault-to-hit"])
    scored = {t.id: team_score(fight, t, targets, reading) for t in fighters}
    by_score: dict[tuple[int, str], list[str]] = {}
    for t in fighters:
        by_score.setdefault(scored[t.id], []).append(t.name)
    for (score, why), names in by_score.items():
        platoon = fight.platoon(fighters[[t.name for t in fighters].index(names[0])].platoon)
        log.modifier(Msg.of(f"fow.melee.score.{why}", teams=", ".join(names), score=score,
                            skill=Msg.of(f"fow.skill.{platoon.skill}")),
                     "F-X9" if why == "target" else "F-A9")
    scores = {t.id: scored[t.id][0] for t in fighters}
    common = set(scores.values())
    target = common.pop() if len(common) == 1 else None
    roll = port.ask(DiceQuestion(
        id=f"round.{round_no}.to-hit",
        spec=DiceSpec(count=len(fighters), target=target, count_only=False),
        text=Msg.of("fow.q.to_hit", side=fight.side_name(fighters[0].side),
                    teams=len(fighters),
                    scores=", ".join(f"{t.name} {scores[t.id]}+" for t in fighters)
                    if target is None else f"{target}+"),
        clause="F-A9", odds=odds(scores), answered_by=answerer(fighters[0].side)))
    assert roll.faces is not None
    hits = {t.id: int(face >= scores[t.id]) for t, face in zip(fighters, roll.faces,
                                                               strict=True)}
    log.roll(Msg.of("fow.melee.roll", side=fight.side_name(fighters[0].side),
                    faces=", ".join(f"{t.name} {face}" for t, face in
                                    zip(fighters, roll.faces, strict=True)),
                    source=Msg.of(f"dice.source.{roll.source}"), hits=sum(hits.values())),
             "F-A9", faces=roll.faces, source=roll.source.value, hits=sum(hits.values()))
    return hits


def mirror(fight: Fight, team: Fighter, targets: Sequence[Fighter]) -> tuple[str, ...]:
    """F-A22 (F-X13 ``mirror``): the charging teams a defending team reaches, read from the
    assault's reach the other way: a charging team that reached it, or that fought at or in
    its building."""
    if team.reaches is not None:
        return tuple(t.id for t in targets if t.id in team.reaches)
    out = []
    for a in targets:
        if a.situation in ("outside-at-opening", "inside"):
            reached = team.building is not None and team.building == a.building
        elif a.situation == "inside-through-opening":
            reached = team.id in a.near_opening
        else:
            reached = (a.reaches is None or team.id in a.reaches) and team.id not in a.impassable
        if reached:
            out.append(a.id)
    return tuple(out)


def ask_reach(port: Port, team: Fighter, targets: Sequence[Fighter], round_no: int,
              default: tuple[str, ...]) -> tuple[str, ...]:
    """F-X13 ``ask``: the charging teams a counterattacking team reaches."""
    picked: tuple[str, ...] = port.ask(MultiChoiceQuestion(
        id=f"round.{round_no}.reach.{team.id}", text=Msg.of("fow.q.counter_reach",
                                                             team=team.name),
        choices=tuple(Choice(t.id, t.name) for t in targets), default_values=default,
        clause="F-A22", answered_by=answerer(team.side)))
    return picked


def allocation(fight: Fight, status: Mapping[str, str], hits: Mapping[str, int],
               hitters: Sequence[Fighter], targets: Sequence[Fighter],
               reach: Mapping[str, tuple[str, ...]] | None = None) -> AssaultDeclaration:
    """The allocation problem of a round (the seed's declaration shape): the teams that
    scored hits, each with its reach, and the other side's teams still in the fight.
    ``reach``: a counterattack's reach by hitting team (``None``: the assault's own)."""
    target_ids = [t.id for t in targets]
    defending = []
    for t in targets:
        entry: dict[str, Any] = {"id": t.id, "name": t.name, "type": t.kind,
                                 "platoon": t.platoon}
        state = status[t.id]
        if t.is_vehicle and state != "active":
            entry["status"] = state
        if t.is_vehicle and t.top is not None:
            entry["top"] = t.top
        if not t.is_vehicle and t.building is not None and (
                t.side == "defender" or t.situation == "inside"):
            entry["building"] = t.building  # a charging team is in it only fighting inside
        defending.append(entry)
    hitting = []
    for h in hitters:
        if not hits.get(h.id):
            continue
        entry = {"id": h.id, "name": h.name, "type": h.hitter, "hits": hits[h.id]}
        if h.fully_armoured and h.hitter in ("tank", "tank-escort"):
            entry["fully_armoured"] = True
        if h.priority is not None:
            entry["priority"] = h.priority
        if reach is None:  # the charging side: its declared reach
            entry["situation"] = h.situation
            if h.situation in ("outside-at-opening", "inside"):
                entry["building"] = h.building
            elif h.situation == "inside-through-opening":
                entry["near_opening"] = [t for t in h.near_opening if t in target_ids]
            else:
                entry["reaches"] = [t for t in target_ids if h.reaches is None
                                    or t in h.reaches]
            entry["impassable"] = [t for t in h.impassable if t in target_ids]
        else:
            entry.update(_counter_situation(h, reach[h.id], targets))
        hitting.append(entry)
    return AssaultDeclaration.model_validate({"defending": defending, "hitting": hitting})


def _counter_situation(team: Fighter, reached: tuple[str, ...],
                       targets: Sequence[Fighter]) -> dict[str, Any]:
    """Where a counterattacking team fights from (F-10): inside its building against
    charging teams in it, through an opening against teams outside, or in the open."""
    if team.building is None or team.hitter == "tank":
        return {"situation": "open", "reaches": list(reached)}
    inside = [t.id for t in targets if t.id in reached and t.situation == "inside"
              and t.building == team.building]
    if inside:
        return {"situation": "inside", "building": team.building}
    return {"situation": "inside-through-opening", "near_opening": list(reached)}


def fighting(fight: Fight, status: Mapping[str, str], side: str,
             platoons: set[str]) -> list[Fighter]:
    """F-A8: the teams of ``side``'s platoons in the fight that can fight."""
    return [t for t in fight.of_side(side) if t.platoon in platoons and can_fight(t, status)]

