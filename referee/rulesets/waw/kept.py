"""Unit states kept in a game file between missions (W-4, W-8), as Epic keeps its Blast
markers: each hex's units after its last mission, with what the missions left them (good
order, disorganized, weakened, eliminated). Read back when the next mission falls on the same
hex: a typed mission offers them as its units line (Enter keeps them), a roster's units take
their kept states, a declared unit whose state the script leaves out takes its own.

State keys (ruleset ``world-at-war``): ``units``, ``{hex: [{"id", "name", "kind",
"disorganized", "weakened", "eliminated"}]}`` and, once a chemical strike has settled it
(W-8), an infantry unit's ride: ``"mounted_in"`` (the key of the combat vehicle it rides in)
or ``"on_foot": true``; ``defence``, ``{hex: bonus}`` (the hex's
infantry defence bonus as typed, W-2). A later mission is offered each hex with standing
units as an HE mission on it (issue 27): the hex, its units and its bonus are not asked
again. Pure functions over plain values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.rulesets.waw.declaration import Unit, unit_key

STATE_KEY = "units"
DEFENCE_KEY = "defence"  # {hex: the infantry defence bonus the players gave for it (W-2)}


def kept(state: Mapping[str, Any], hex_id: str) -> list[dict[str, Any]]:
    """The units the game file keeps for ``hex_id`` (eliminated ones included)."""
    return [dict(u) for u in state.get(STATE_KEY, {}).get(hex_id, [])]


def as_unit(saved: Mapping[str, Any]) -> Unit:
    """A kept unit as a mission's unit, with the id and name it had: a unit typed without a
    name keeps its id (its label "unit 2" in the player's language), one typed with a name
    its name (the id follows from it), a roster's or a script's unit both."""
    name, uid = saved.get("name"), str(saved["id"])
    own_id = None if name is not None and unit_key(str(name)) == uid else uid
    return Unit(id=own_id, name=name, kind=saved["kind"],
                disorganized=bool(saved["disorganized"]), weakened=bool(saved["weakened"]))


def standing(state: Mapping[str, Any], hex_id: str) -> list[Unit]:
    """The kept units of the hex still on the map, as mission units."""
    return [as_unit(u) for u in kept(state, hex_id) if not u.get("eliminated")]


def rides(state: Mapping[str, Any], hex_id: str) -> dict[str, str | None]:
    """W-8: how the kept infantry of ``hex_id`` stood at the last chemical strike that knew
    it, by unit key: the key of the standing combat vehicle it rides in, or ``None`` on foot;
    a unit whose ride the game does not know (or whose vehicle is gone) is left out."""
    units = kept(state, hex_id)
    vehicles = {str(u["id"]) for u in units
                if u["kind"] == "combat-vehicle" and not u.get("eliminated")}
    out: dict[str, str | None] = {}
    for u in units:
        if u["kind"] != "infantry" or u.get("eliminated"):
            continue
        if u.get("on_foot"):
            out[str(u["id"])] = None
        elif u.get("mounted_in") in vehicles:
            out[str(u["id"])] = str(u["mounted_in"])
    return out


def ridden(units: Sequence[Unit]) -> dict[str, str | None]:
    """W-8: each infantry unit's ride as a chemical strike settled it (its declaration or the
    players' answer): the key of its combat vehicle, or ``None`` on foot."""
    vehicles = [v for v in units if v.kind == "combat-vehicle"]
    return {u.key: next((v.key for v in vehicles if u.rides_in(v)), None)
            for u in units if u.kind == "infantry"}


def saved_unit(unit: Unit, status: str) -> dict[str, Any]:
    return {"id": unit.key, "name": unit.name, "kind": unit.kind,
            "disorganized": status in ("disorganized", "weakened-disorganized"),
            "weakened": status in ("weakened", "weakened-disorganized"),
            "eliminated": status == "eliminated"}


def updates(state: Mapping[str, Any], by_hex: Mapping[str, Sequence[tuple[Unit, str]]],
            replace: bool = True,
            mounted: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    """The state updates that keep each hex's units after a mission (``(unit, status)``
    pairs): the hex's list replaced (the mission's units are what it holds), or with
    ``replace=False`` merged by id (a chemical strike's neighbour hexes). ``mounted``: the
    infantry rides the mission settled (``ridden``); a unit it does not name keeps the ride
    the game knew (an HE mission does not ask it)."""
    units = {h: list(v) for h, v in state.get(STATE_KEY, {}).items()}
    sides = {u["id"]: u["side"] for v in units.values() for u in v if u.get("side")}
    known = {h: {u["id"]: u for u in v} for h, v in units.items()}
    for hex_id, pairs in by_hex.items():
        new = [saved_unit(u, status) for u, status in pairs]
        for n in new:  # a unit keeps the side a roster gave it (issue 27: game roster)
            if n["id"] in sides:
                n["side"] = sides[n["id"]]
            if n["kind"] != "infantry":
                continue
            ride: str | None
            if mounted is not None and n["id"] in mounted:
                ride = mounted[n["id"]] or ""  # None there: on foot
            else:
                ride = _ride(known.get(hex_id, {}).get(n["id"], {}))
            if ride == "":
                n["on_foot"] = True
            elif ride is not None:
                n["mounted_in"] = ride
        if replace:
            units[hex_id] = new
        else:
            ids = {n["id"] for n in new}
            units[hex_id] = [u for u in units.get(hex_id, []) if u["id"] not in ids] + new
    return {STATE_KEY: units}


def _ride(saved: Mapping[str, Any]) -> str | None:
    """A kept unit's ride as ``updates`` carries it on: ``""`` on foot, a vehicle key, or
    ``None`` (not known)."""
    if saved.get("on_foot"):
        return ""
    return str(saved["mounted_in"]) if saved.get("mounted_in") else None
