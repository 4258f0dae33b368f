"""What a Flames of War game file keeps of the armies, for ``game roster`` (issue 27): the
platoons and their teams (``kept``), by side, as a roster file (``roster.Roster``, with each
team's state and each platoon's Pinned Down), and a roster file brought in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from referee.core.armies import Group, RosterPart, Unit
from referee.core.text import Msg
from referee.rulesets.fow import kept
from referee.rulesets.fow.armies import ArmyTeam, from_roster

RULESET_ID = "flames-of-war"


def _profile(t: ArmyTeam) -> Msg:
    parts: list[Msg] = [Msg.of(f"fow.kind.{t.type}")]
    if t.top is not None:
        parts.append(Msg.of("kept.army.fow.top", top=t.top))
    if t.rof:
        parts.append(Msg.of("kept.army.fow.rof", rof=t.rof))
    if t.anti_tank is not None:
        parts.append(Msg.of("kept.army.fow.anti_tank", value=t.anti_tank))
    if t.firepower is not None:
        parts.append(Msg.of("kept.army.fow.firepower", value=t.firepower))
    from referee.core.fates import joined

    return Msg.of("kept.army.profile", parts=joined(parts))


def groups(state: Mapping[str, Any]) -> list[Group]:
    if not kept.has_armies(state):
        return []
    army = kept.army(state)
    out = []
    for p in army.platoons:
        units = tuple(Unit(t.name, _profile(t), None if t.status == "active"
                           else Msg.of(f"fow.state.{t.status}"))
                      for t in army.teams if t.platoon == p.name)
        out.append(Group(RULESET_ID, p.name, p.side, units,
                         (Msg.of("fow.fate.pinned"),) if p.pinned else ()))
    return out


def roster(state: Mapping[str, Any], sides: Mapping[str, str]) -> list[RosterPart] | None:
    """The kept armies as a Flames of War roster (``--roster``): each platoon with its side,
    ratings and Pinned Down, its teams with their cards and states."""
    if not kept.has_armies(state):
        return None
    army = kept.army(state)
    parts: list[RosterPart] = []
    for p in army.platoons:
        parts.append(("[[platoon]]", {"name": p.name, "side": p.side, "skill": p.skill,
                                      "motivation": p.motivation, "reroll": p.reroll or None,
                                      "pinned": p.pinned or None}))
        for t in army.teams:
            if t.platoon == p.name:
                team = {k: v for k, v in asdict(t).items() if k not in ("side", "platoon")
                        and v not in (None, False, 0) and not (k == "status" and v == "active")}
                parts.append(("[[platoon.teams]]", team))
    return parts


def imported(path: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The state keeping a roster file's platoons and teams with the kept ones."""
    whole = kept.merged(state, from_roster(path))
    return {kept.TEAMS: [asdict(t) for t in whole.teams],
            kept.PLATOONS: [asdict(p) for p in whole.platoons]}
