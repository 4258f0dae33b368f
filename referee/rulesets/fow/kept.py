"""The armies a game file keeps for Flames of War (docs/rules/flames-of-war-assault.md,
section 4): every team of the armies that fought, by id and name, with its side, platoon,
type, card values and state, and every platoon with its ratings and whether it is Pinned Down.

State keys (ruleset ``flames-of-war``): ``teams`` (``saved.SavedTeam`` records), ``platoons``
(``saved.SavedPlatoon``) and ``assaults`` (how many whole assaults the game has resolved).
Pure functions over plain values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, replace
from typing import Any

from referee.rulesets.fow.armies import Army, ArmyPlatoon, ArmyTeam

TEAMS = "teams"
PLATOONS = "platoons"
ASSAULTS = "assaults"


def has_armies(state: Mapping[str, Any]) -> bool:
    """Whether the game keeps armies to assault with (a roster's, from an earlier assault)."""
    return bool(state.get(TEAMS)) and bool(state.get(PLATOONS))


def army(state: Mapping[str, Any]) -> Army:
    """The armies the game keeps."""
    teams = tuple(ArmyTeam(**t) for t in state.get(TEAMS, ()))
    platoons = tuple(ArmyPlatoon(**p) for p in state.get(PLATOONS, ()))
    return Army(teams, platoons, "game")


def with_kept(fought: Army, state: Mapping[str, Any]) -> Army:
    """A roster's army with the states the game keeps for its teams (by id and name) and
    platoons (by name): a team destroyed or bailed out in an earlier assault is still so."""
    if not has_armies(state):
        return fought
    known = army(state)
    teams = []
    for t in fought.teams:
        same = next((k for k in known.teams if k.id == t.id and k.name == t.name), None)
        teams.append(replace(t, status=same.status) if same is not None else t)
    platoons = []
    for p in fought.platoons:
        same_p = next((k for k in known.platoons if k.name == p.name), None)
        platoons.append(replace(p, pinned=same_p.pinned) if same_p is not None else p)
    return Army(tuple(teams), tuple(platoons), fought.source)


def destroyed(state: Mapping[str, Any]) -> dict[str, str]:
    """The kept teams destroyed, by id and by name (each to the team's name)."""
    out: dict[str, str] = {}
    for t in state.get(TEAMS, ()):
        if t.get("status") == "destroyed":
            out[t["id"]] = t["name"]
            out[t["name"]] = t["name"]
    return out


def pinned(state: Mapping[str, Any], platoon: str) -> bool:
    return any(p["name"] == platoon and p.get("pinned") for p in state.get(PLATOONS, ()))


def merged(state: Mapping[str, Any], fought: Army) -> Army:
    """The kept armies with ``fought``'s teams and platoons in place of the kept ones of the
    same id (teams) or name (platoons), and the new ones added."""
    known = army(state) if has_armies(state) else Army((), ())
    ids = {t.id for t in fought.teams}
    names = {p.name for p in fought.platoons}
    teams = (*(t for t in known.teams if t.id not in ids), *fought.teams)
    platoons = (*(p for p in known.platoons if p.name not in names), *fought.platoons)
    return Army(teams, platoons, "game")


def updates(state: Mapping[str, Any], fought: Army, status: Mapping[str, str],
            in_assault: Mapping[str, tuple[str, str, bool]], now_pinned: Iterable[str]
            ) -> dict[str, Any]:
    """The state updates after an assault: ``fought``'s teams with their states after it
    (``status`` by id), its platoons in the assault (``in_assault``: their ratings, as the
    assault had them) Pinned Down or not as ``now_pinned`` says, and the count of
    assaults."""
    pinned_now = set(now_pinned)
    teams = tuple(replace(t, status=status.get(t.id, t.status)) for t in fought.teams)
    platoons = tuple(
        replace(p, pinned=p.name in pinned_now, skill=in_assault[p.name][0],
                motivation=in_assault[p.name][1], reroll=in_assault[p.name][2])
        if p.name in in_assault else p for p in fought.platoons)
    whole = merged(state, Army(teams, platoons))
    return {TEAMS: [asdict(t) for t in whole.teams],
            PLATOONS: [asdict(p) for p in whole.platoons],
            ASSAULTS: int(state.get(ASSAULTS, 0)) + 1}
