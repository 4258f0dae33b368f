"""Generated scripts for ``referee run``: one growth series per ruleset, from a small case up to
the limits of the ruleset's declaration (or roster) model.

Each series has one size (what it counts is its ``axis``); everything else the declaration
lists grows with it in proportion, and the values inside each item (shots, FP, hits per team)
stay fixed, so a resolver that does a fixed amount of work per item grows linearly in the size.
The largest size is the model's own limit, read from the model (``max_length`` of a list,
``le`` of a number), so the series follows the model when a limit changes:

* **Epic**: ``weapons`` kinds of weapon of 200 shots each (``Weapon.shots``), at twice as many
  target units (all in range, in the open), up to 30 kinds and 60 units: at the limit the
  largest declaration the model accepts (30 x 200 dice, 60 units);
* **Combat Commander**: ``firing`` pieces (squads in a chain of adjacent hexes, one leader in
  five, one weapon in five) at a target hex of up to 12 units, up to 20 pieces;
* **Lock 'n Load**: ``units`` in a phase (two sides, four units to a hex, a leader in every
  third hex of one side); every hex is activated once and fires at the enemy hex opposite, and
  the phase ends when every unit has acted (L-2), up to 200 units;
* **World at War**: ``units`` in the target hex of an HE mission of firepower 40 (the largest
  the model takes), up to 30 units;
* **Flames of War**: ``defending`` teams (in platoons of six) against as many hitting teams,
  ten hits for every three teams, each hitting team reaching 3 to 10 defenders: at the limit,
  200 hits over 60 teams (the case of issue 16; each team's own limit of 60 hits is far from
  reached). ``fow_assault`` builds any assault up to the declaration's limits (3,600 hits:
  60 hitting teams of 60 hits) for benchmarks/fow_allocation.py and the work guard
  (tests/rulesets/fow/test_fow_scale.py).

Dice the script does not give are rolled from its seed (``roll_missing_dice``) and every other
question takes its default (``use_defaults``), so a script answers only what has no default.
Units are invented. Used by ``benchmarks/scale.py``; import it from other benchmarks too::

    from script_builders import SERIES, write_script
    path = write_script(SERIES["lnlt"].script(200), tmp_dir / "lnlt-200.toml")
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

if importlib.util.find_spec("referee") is None:  # not installed: this checkout's own
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.script import Script, dump_script

SEED = 2024
Declaration = dict[str, Any]


def field_limit(model: Any, name: str) -> int:
    """The largest length (a list's ``max_length``) or value (a number's ``le``) that ``model``
    accepts for the field ``name``."""
    for item in model.model_fields[name].metadata:
        for attribute in ("max_length", "le"):
            value = getattr(item, attribute, None)
            if value is not None:
                return int(value)
    raise LookupError(f"{model.__name__}.{name} has no upper limit")


def _scaled(size: int, limit: int, other_limit: int) -> int:
    """``other_limit`` scaled by ``size / limit``, at least 1."""
    return max(1, -(-size * other_limit // limit))


@dataclass(frozen=True)
class Series:
    """One ruleset's growth series: ``script(size)`` for sizes 1 to ``limit``."""

    ruleset: str
    name: str
    axis: str
    limit: int
    build: Callable[[int], dict[str, Any]]

    def script(self, size: int) -> dict[str, Any]:
        if not 1 <= size <= self.limit:
            raise ValueError(f"{self.name}: size {size} is outside 1..{self.limit}")
        return self.build(size)

    def sizes(self, points: int) -> list[int]:
        """``points`` sizes spread evenly up to the limit (the limit always included)."""
        points = max(2, min(points, self.limit))
        return sorted({max(1, round(self.limit * (i + 1) / points)) for i in range(points)})


def _script(ruleset: str, title: str, declaration: Declaration,
            answers: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"ruleset": ruleset, "title": title, "seed": SEED, "use_defaults": True,
            "roll_missing_dice": True, "declaration": declaration, "answers": answers or {}}


def write_script(script: dict[str, Any], path: Path) -> Path:
    """``script`` written as a TOML script file (the format ``referee run`` reads)."""
    value = Script(path=str(path), ruleset=script["ruleset"], title=script.get("title"),
                   seed=script.get("seed"), use_defaults=script.get("use_defaults", False),
                   roll_missing_dice=script.get("roll_missing_dice", False),
                   options=script.get("options", {}), declaration=script.get("declaration"),
                   answers=script.get("answers", {}))
    path.write_text(dump_script(value, "Generated by benchmarks/script_builders.py"),
                    encoding="utf-8")
    return path


# -- Epic Armageddon -----------------------------------------------------------------------

def _epic_limits() -> tuple[int, int, int]:
    from referee.rulesets.epic.declaration import ShootingDeclaration, Weapon

    return (field_limit(ShootingDeclaration, "weapons"),
            field_limit(ShootingDeclaration, "target_units"), field_limit(Weapon, "shots"))


def epic(size: int) -> dict[str, Any]:
    weapons_limit, units_limit, shots = _epic_limits()
    rng = random.Random(SEED)
    weapons = []
    for i in range(size):
        weapon: dict[str, Any] = {"name": f"Gun {i + 1}", "shots": shots}
        if i % 3 != 2:
            weapon["ap"] = rng.choice([4, 5, 6])
        if i % 3 != 0:
            weapon["at"] = rng.choice([4, 5, 6])
        weapons.append(weapon)
    units = []
    for i in range(_scaled(size, weapons_limit, units_limit)):
        kind = ("INF", "INF", "LV", "AV")[i % 4]
        units.append({"name": f"Unit {i + 1}", "type": kind, "armour": 4 + i % 3,
                      "distance": 10 + i, "in_range": True, "terrain": "open"})
    declaration = {"firing": "Grey Battery (invented)", "target": "Red Company (invented)",
                   "firing_blast_markers": 0, "target_blast_markers": 0,
                   "weapons": weapons, "target_units": units}
    return _script("epic", f"{size} kinds of weapon at {len(units)} units", declaration,
                   {"action": "sustained-fire"})


def epic_largest() -> Declaration:
    """The largest Epic declaration with everything that costs work: 29 weapons of 200 shots
    and a macro-weapon of 200 at 60 units (re-rolls, invulnerable saves), crossfire, a Blast
    marker before the attack. The work guard's case (tests/odds/test_odds_work.py), and a whole
    run of the scale benchmark's cases at the limits (an allocation of some 3,000 hits)."""
    weapons_limit, units_limit, shots = _epic_limits()

    def unit(i: int) -> dict[str, Any]:
        return {"name": f"Unit {i}", "type": "INF", "armour": 4 + i % 3, "distance": 10 + i,
                "in_range": True, "terrain": "open", "reinforced": i % 5 == 0,
                "invulnerable": i % 7 == 0}

    return {"firing": "Grey Company (invented)", "target": "Red Hill Battery (invented)",
            "firing_blast_markers": 0, "target_blast_markers": 1, "crossfire": 1,
            "weapons": [*({"name": f"Gun {i}", "shots": shots, "ap": 3 + i % 3}
                          for i in range(weapons_limit - 1)),
                        {"name": "Volcano gun", "shots": shots, "at": 4, "macro": True}],
            "target_units": [unit(i) for i in range(units_limit)]}


# -- Combat Commander -----------------------------------------------------------------------

def _cc_limits() -> tuple[int, int]:
    from referee.rulesets.cc.declaration import FireDeclaration

    return field_limit(FireDeclaration, "firing"), field_limit(FireDeclaration, "target")


def cc(size: int) -> dict[str, Any]:
    firing_limit, target_limit = _cc_limits()
    firing = []
    hexes = [f"B{i + 1}" for i in range(-(-size // 3))]
    for i in range(size):
        hex_id = hexes[i // 3]
        if i % 5 == 1:
            firing.append({"name": f"Leader {i + 1}", "kind": "leader", "hex": hex_id, "fp": 1,
                           "range": 5, "distance": 3, "command": 1 + i % 2})
        elif i % 5 == 3:
            firing.append({"name": f"MG {i + 1}", "kind": "weapon", "hex": hex_id, "fp": 2,
                           "range": 8, "distance": 3})
        else:
            firing.append({"name": f"Squad {i + 1}", "hex": hex_id, "fp": 4 + i % 3,
                           "range": 6, "distance": 3, "hindrance": i % 2})
    target: list[dict[str, Any]] = []
    for i in range(_scaled(size, firing_limit, target_limit)):
        if i % 3 == 1:  # leaders in the target hex: a broken one shakes the others (C-5)
            target.append({"name": f"Sergeant {i + 1}", "kind": "leader", "morale": 9,
                           "broken_morale": 10, "command": 1 + i % 2})
        else:
            target.append({"name": f"Rifle squad {i + 1}", "morale": 8 + i % 3,
                           "broken_morale": 9})
    declaration = {"attacker": "germany", "defender": "america", "target_hex": "F5",
                   "cover": 4, "adjacent": [[a, b] for a, b in pairwise(hexes)],
                   "firing": firing, "target": target}
    return _script("cc", f"{size} firing pieces at {len(target)} units", declaration)


CC_RIFLES = {"name": "Rifle squad", "hex": "K9", "fp": 12, "range": 6, "distance": 2}
CC_MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "K9", "fp": 6,
             "range": 12, "distance": 3}


def cc_leaders(firing: dict[str, Any], commands: list[int]) -> Declaration:
    """One piece firing at a hex of leaders of these Command values (up to the
    declaration's limit of 12 units, every one a leader, one in four suppressed): the
    costliest odds of a Combat Commander fire (tests/odds/test_odds_work.py)."""
    def leader(i: int, command: int) -> dict[str, Any]:
        return {"name": f"Sgt {i}", "kind": "leader", "morale": 7 + i % 3,
                "broken_morale": 6, "command": command, "suppressed": i % 4 == 3}

    return {"attacker": "germany", "defender": "america", "target_hex": "N6",
            "firing": [firing], "target": [leader(i, c) for i, c in enumerate(commands)]}


# -- Lock 'n Load Tactical ------------------------------------------------------------------

def _lnlt_limit() -> int:
    from referee.rulesets.lnlt.roster import Roster

    return field_limit(Roster, "units")


def lnlt(size: int) -> dict[str, Any]:
    """Grey holds hexes G1.., Red R1.., four units to a hex: squads (one in four with an
    MG), and in every third Grey hex a leader as its last unit. Impulses alternate: the side
    to move activates its next hex and fires at the enemy hex of the same number (a side with
    no hex left passes). The damage table (a stand-in) gives no effect whatever the check,
    so every unit stays on the map in Good Order (a Shaken unit may not fire, L-5) and the
    answers fit every size."""
    sides = ("Grey", "Red")
    units: list[dict[str, Any]] = []
    for i in range(size):
        side = sides[i % 2]
        number = i // 2
        hex_id = f"{side[0]}{number // 4 + 1}"
        unit: dict[str, Any] = {"id": f"{side[0].lower()}{number + 1}",
                                "name": f"{side} unit {number + 1}", "side": side,
                                "hex": hex_id, "morale": 5 + number % 3}
        if side == "Grey" and number % 4 == 3 and (number // 4) % 3 == 0:
            unit.update(kind="smc", leader=True, lm=1 + number % 2, morale=8)
        else:
            unit.update(kind="mmc", ifp=2 + number % 3)
            if number % 4 == 1:
                unit["sws"] = [{"id": "mg", "name": "light MG", "kind": "mg", "fp": 2}]
        units.append(unit)
    by_side = {s: sorted({u["hex"] for u in units if u["side"] == s},
                         key=lambda h: int(h[1:])) for s in sides}
    adjacent: dict[str, list[str]] = {}
    for s in sides:
        for a, b in pairwise(by_side[s]):
            adjacent.setdefault(a, []).append(b)
    for g, r in zip(by_side["Grey"], by_side["Red"], strict=False):  # Grey may have one more
        adjacent.setdefault(g, []).append(r)
    roster = {"sides": list(sides), "initiative": "Grey", "adjacent": adjacent,
              "units": units,
              "damage_table": {"source": "stand-in (made-up numbers)", "compare": "over-morale",
                               "leg": [{"at_least": 1, "result": "no-effect"}]}}
    answers: dict[str, Any] = {}
    n = 0
    for k in range(max(len(by_side["Grey"]), len(by_side["Red"]))):
        for side, other in (("Grey", "Red"), ("Red", "Grey")):
            n += 1
            if k >= len(by_side[side]) or not by_side[other]:
                continue  # nothing left to activate or to fire at: the pass is the default
            hex_id = by_side[side][k]
            target = by_side[other][min(k, len(by_side[other]) - 1)]
            answers[f"i{n}.do"] = "activate"
            answers[f"i{n}.hex"] = hex_id
            answers[f"i{n}.act.1"] = f"fire:{hex_id}"
            answers[f"i{n}.fire.{hex_id}.target"] = target
    return _script("lnlt", f"A phase of {size} units", roster, answers)


def lnlt_crowded(size: int) -> dict[str, Any]:
    """One fire at a crowded hex: a Grey squad with an MG fires at Red's ``size - 1`` units
    in one hex (a leader of each LM from 1 to 5 in every ten units, a vehicle in every
    five), then three passes end the phase. The damage checks and their odds follow every
    unit of the hex in order, with the leaders' help between them: the most work one fire
    can make."""
    units: list[dict[str, Any]] = [
        {"id": "g1", "name": "Grey squad", "side": "Grey", "hex": "G1", "kind": "mmc",
         "ifp": 4, "sws": [{"id": "mg", "name": "heavy MG", "kind": "mg", "fp": 3}]}]
    for i in range(size - 1):
        unit: dict[str, Any] = {"id": f"r{i + 1}", "name": f"Red unit {i + 1}", "side": "Red",
                                "hex": "R1"}
        if i % 10 < 5:
            unit.update(kind="smc", leader=True, lm=1 + i % 5, morale=6 + i % 4)
        elif i % 5 == 0:
            unit.update(kind="vehicle", armor=1 + i % 3)
        else:
            unit.update(kind="mmc", ifp=2, morale=4 + i % 4)
        units.append(unit)
    roster = {"sides": ["Grey", "Red"], "initiative": "Grey", "adjacent": {"G1": ["R1"]},
              "units": units,
              "damage_table": {"source": "stand-in (made-up numbers)", "compare": "over-morale",
                               "leg": [{"at_least": 1, "result": "shaken"},
                                       {"at_least": 4, "result": "reduced"}],
                               "vehicle": [{"at_least": 9, "result": "damaged"}]}}
    answers = {"i1.do": "activate", "i1.hex": "G1", "i1.act.1": "fire:G1",
               "i1.fire.G1.target": "R1", "i1.fire.G1.attack": [6], "i1.fire.G1.defence": [1],
               # Pass is never the default while something can act (L-1): said each time
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    return _script("lnlt", f"One fire at a hex of {size - 1} units", roster, answers)


# -- World at War ---------------------------------------------------------------------------

def _waw_limits() -> tuple[int, int]:
    from referee.rulesets.waw.declaration import MissionDeclaration

    return (field_limit(MissionDeclaration, "units"),
            field_limit(MissionDeclaration, "firepower"))


def waw(size: int) -> dict[str, Any]:
    _, firepower = _waw_limits()
    kinds = ("infantry", "combat-vehicle", "unarmoured-vehicle", "infantry", "hq")
    units = [{"name": f"Platoon {i + 1} (invented)", "kind": kinds[i % len(kinds)]}
             for i in range(size)]
    declaration = {"mission": "he", "hex": "0914", "firepower": firepower, "hit_number": 4,
                   "terrain_defence": 1, "units": units}
    return _script("waw", f"An HE mission of firepower {firepower} on {size} units",
                   declaration)


# -- Flames of War --------------------------------------------------------------------------

def fow_limits() -> tuple[int, int, int]:
    """The declaration's limits: defending teams, hitting teams, hits of one hitting team."""
    from referee.rulesets.fow.declaration import AssaultDeclaration, HittingTeam

    return (field_limit(AssaultDeclaration, "defending"),
            field_limit(AssaultDeclaration, "hitting"), field_limit(HittingTeam, "hits"))


def fow_assault(hits: int, teams: int, hitters: int | None = None, seed: int = SEED,
                reach: str = "some", platoon_size: int | None = None) -> Declaration:
    """A seeded assault of ``hits`` hits from ``hitters`` teams (default: as few as the limit
    of hits per team allows, at least 12) over ``teams`` defending teams: defending teams of
    every type (some vehicles Bogged Down or Bailed Out, armoured vehicles of several Top
    armours, a few infantry teams in a building; in platoons of ``platoon_size`` when given),
    hitting teams of every type sharing the hits, each reaching its own random subset of the
    defenders (some across impassable terrain, some with a priority type): ``"some"`` of them
    (3 to 10) or ``"most"`` (all but 1 to 3, so that every hitting team's hits form a group
    of their own and the graph is dense). The cases of benchmarks/fow_allocation.py and of
    the work guard (tests/rulesets/fow/test_fow_scale.py)."""
    max_defending, max_hitting, max_hits = fow_limits()
    if hitters is None:
        hitters = min(max_hitting, max(12, -(-hits // max_hits)))
    if not (1 <= teams <= max_defending and 1 <= hitters <= max_hitting
            and hits <= hitters * max_hits):
        raise ValueError(f"{hits} hits from {hitters} teams over {teams} teams: "
                         "beyond the declaration's limits")
    rng = random.Random(seed)
    defending: list[dict[str, Any]] = []
    for i in range(teams):
        kind = rng.choice(["infantry", "infantry", "infantry", "gun", "tank", "transport"])
        team: dict[str, Any] = {"id": f"d{i}", "name": f"Defending team {i}", "type": kind}
        if platoon_size:
            team["platoon"] = f"p{i // platoon_size}"
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
    while max(shares) > max_hits:  # keep every team within its own limit
        shares[shares.index(max(shares))] -= 1
        shares[shares.index(min(shares))] += 1
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


def fow_script(declaration: Declaration, title: str | None = None) -> dict[str, Any]:
    """A script of the assault: the referee's proposal accepted (the default) and every Top
    armour save rolled from the seed, so each save shows its odds."""
    hits = sum(h["hits"] for h in declaration["hitting"])
    return _script("fow", title or f"{hits} hits over {len(declaration['defending'])} teams",
                   declaration)


def fow(size: int) -> dict[str, Any]:
    """``size`` defending teams in platoons of six against as many hitting teams, ten hits for
    every three teams, each hitting team reaching some (3 to 10) of the defenders."""
    return fow_script(fow_assault(-(-10 * size // 3), size, size, platoon_size=6))


SERIES: dict[str, Series] = {
    "epic": Series("epic", "Epic", "weapons", _epic_limits()[0], epic),
    "cc": Series("cc", "Combat Commander", "firing", _cc_limits()[0], cc),
    "lnlt": Series("lnlt", "Lock 'n Load", "units", _lnlt_limit(), lnlt),
    "waw": Series("waw", "World at War", "units", _waw_limits()[0], waw),
    "fow": Series("fow", "Flames of War", "defending", min(fow_limits()[:2]), fow),
}


def _case(ruleset: str, name: str, script: Callable[[], dict[str, Any]]) -> Series:
    """A single case (a series of one size): a declaration at its ruleset's limits."""
    return Series(ruleset, name, "case", 1, lambda _size: script())


LIMIT_CASES: dict[str, Series] = {
    "epic-largest": _case("epic", "Epic, the largest declaration (30 x 200 dice, a "
                          "macro-weapon, 60 units, crossfire)",
                          lambda: _script("epic", "the largest declaration", epic_largest())),
    "cc-12-leaders": _case("cc", "Combat Commander, 12 leaders in the target hex",
                           lambda: _script("cc", "12 leaders",
                                           cc_leaders(CC_RIFLES, [1 + i % 3 for i in
                                                                  range(_cc_limits()[1])]))),
    "lnlt-crowded": _case("lnlt", "Lock 'n Load, one fire at a hex of 199 units",
                          lambda: lnlt_crowded(_lnlt_limit())),
    "fow-limit-some": _case("fow", "Flames of War, 3,600 hits over 60 teams, sparse reach",
                            lambda: fow_script(fow_assault(3600, 60, 60))),
    "fow-limit-most": _case("fow", "Flames of War, 3,600 hits over 60 teams, dense reach",
                            lambda: fow_script(fow_assault(3600, 60, 60, reach="most"))),
}
"""Whole runs at the declarations' limits, beside the growth series (``benchmarks/scale.py``
measures both)."""
