"""Seeded Flames of War assaults of any size up to the declaration's limits (60 defending
teams, 60 hitting teams, 60 hits each), for the work-counter guard (tests/test_fow_scale.py)
and the benchmark (benchmarks/fow_allocation.py).

``declaration(hits, teams, hitters, seed)`` is a declaration as a dict, the shape a script's
``[declaration]`` table has: defending teams of every type (some vehicles Bogged Down or
Bailed Out, armoured vehicles of several Top armours, a few infantry teams in a building),
hitting teams of every type sharing the hits, each reaching its own random subset of the
defenders (some across impassable terrain, some with a priority type). ``script_text`` writes
it as a script for ``referee run`` with the results rolled (so the odds of each save show).
Invented teams only.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel

from referee.rulesets.fow.declaration import AssaultDeclaration, HittingTeam


def _limit(model: type[BaseModel], field: str, bound: str) -> int:
    """A bound the declaration model sets (``max_length``, ``le``), read from the model."""
    value: int = next(getattr(m, bound) for m in model.model_fields[field].metadata
                      if hasattr(m, bound))
    return value


MAX_DEFENDING = _limit(AssaultDeclaration, "defending", "max_length")
MAX_HITTING = _limit(AssaultDeclaration, "hitting", "max_length")
MAX_HITS_PER_TEAM = _limit(HittingTeam, "hits", "le")


def declaration(hits: int, teams: int, hitters: int | None = None, seed: int = 2024,
                reach: str = "some") -> dict[str, Any]:
    """An assault of ``hits`` hits from ``hitters`` teams (default: as few as the limit of
    hits per team allows, at least 12) over ``teams`` defending teams. Each hitting team
    reaches ``"some"`` defending teams (3 to 10 of them) or ``"most"`` (all but 1 to 3, so
    that every hitting team's hits form a group of their own and the graph is dense)."""
    if hitters is None:
        hitters = min(MAX_HITTING, max(12, -(-hits // MAX_HITS_PER_TEAM)))
    if not (1 <= teams <= MAX_DEFENDING and 1 <= hitters <= MAX_HITTING
            and hits <= hitters * MAX_HITS_PER_TEAM):
        raise ValueError(f"{hits} hits from {hitters} teams over {teams} teams: "
                         "beyond the declaration's limits")
    rng = random.Random(seed)
    defending: list[dict[str, Any]] = []
    for i in range(teams):
        kind = rng.choice(["infantry", "infantry", "infantry", "gun", "tank", "transport"])
        team: dict[str, Any] = {"id": f"d{i}", "name": f"Defending team {i}", "type": kind}
        if kind in ("tank", "transport"):
            top = rng.choice([None, 0, 1, 1, 2, 3])
            if top is not None:
                team["top"] = top
            team["status"] = rng.choice(["active"] * 3 + ["bogged-down", "bailed-out"])
        elif kind == "infantry" and rng.random() < 0.1:
            team["building"] = "the barn"
        defending.append(team)
    ids = [d["id"] for d in defending]
    shares = [0] * hitters
    for i in range(hits):
        shares[i % hitters if i < hitters else rng.randrange(hitters)] += 1
    while max(shares) > MAX_HITS_PER_TEAM:  # keep every team within its own limit
        top = shares.index(max(shares))
        low = shares.index(min(shares))
        shares[top] -= 1
        shares[low] += 1
    hitting: list[dict[str, Any]] = []
    for h, share in enumerate(shares):
        kind = rng.choice(["infantry", "infantry", "gun", "tank", "tank-escort"])
        if reach == "most":
            reached = sorted(rng.sample(ids, max(1, teams - rng.randint(1, 3))))
        else:
            reached = sorted(rng.sample(ids, rng.randint(min(3, teams), min(10, teams))))
        team = {"id": f"h{h}", "name": f"Hitting team {h}", "type": kind, "hits": share,
                "reaches": reached}
        priority = rng.choice([None, None, "tank", "infantry", "gun"])
        if priority is not None:
            team["priority"] = priority
        if kind in ("tank", "tank-escort") and rng.random() < 0.3:
            team["fully_armoured"] = True
        if len(reached) > 3 and rng.random() < 0.2:
            team["impassable"] = [reached[0]]
        hitting.append(team)
    return {"attacker": "Grey Company (invented)", "defender": "Red Hill Company (invented)",
            "defending": defending, "hitting": hitting}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(value)


def script_text(decl: dict[str, Any], results: str = "unverified", seed: int = 1) -> str:
    """A script for ``referee run``: the proposal accepted, the results rolled from
    ``seed`` (``results = "skip"`` stops after the allocation)."""
    lines = ['ruleset = "fow"', 'title = "benchmark assault (invented)"', f"seed = {seed}",
             "use_defaults = true", "roll_missing_dice = true", "", "[declaration]"]
    lines += [f"{k} = {_toml_value(decl[k])}" for k in ("attacker", "defender")]
    for table in ("defending", "hitting"):
        for team in decl[table]:
            lines += ["", f"[[declaration.{table}]]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in team.items()]
    lines += ["", "[answers]", f"results = {_toml_value(results)}", ""]
    return "\n".join(lines)
