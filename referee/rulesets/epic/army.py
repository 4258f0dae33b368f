"""What an Epic Armageddon game file keeps of the armies (issue 27): each formation an attack
of the game named, with its side (a roster's), its weapons' profiles and its units (their type
and armour save where the attack gave them), beside the Blast markers, losses and broken state
the game keeps for it (``saved``); shown by ``game roster``, written as a roster file
(``declaration.Roster``), and a roster file brought in.

State: ``formations.<name>.army``: ``{"side", "weapons": [...], "units": [...]}``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from referee.core.armies import Group, RosterPart, Unit
from referee.core.fates import joined
from referee.core.result import Result
from referee.core.text import Msg
from referee.rulesets.epic.common import shown
from referee.rulesets.epic.declaration import ShootingDeclaration, weapon_key

RULESET_ID = "epic-armageddon"
ARMY = "army"


def _weapon(w: Any) -> dict[str, Any]:
    out: dict[str, Any] = w.model_dump(mode="json", exclude_defaults=True)
    return out


def _army(old: Mapping[str, Any] | None, side: str | None, weapons: list[Any],
          units: list[dict[str, Any]]) -> dict[str, Any]:
    """A formation's army, what the attack gave of it over what was kept (a unit of the same
    name takes the new profile, keeping what the attack did not say)."""
    old = dict(old or {})
    kept_units = {weapon_key(u["name"]): u for u in old.get("units", [])}
    for u in units:
        before = kept_units.get(weapon_key(u["name"]), {})
        kept_units[weapon_key(u["name"])] = {**before, **{k: v for k, v in u.items()
                                                          if v is not None}}
    kept_weapons = {weapon_key(w["name"]): w for w in old.get("weapons", [])}
    for w in weapons:
        kept_weapons[weapon_key(w["name"])] = w
    return {"side": side or old.get("side"), "weapons": list(kept_weapons.values()),
            "units": list(kept_units.values())}


def with_army(state: Mapping[str, Any], decl: ShootingDeclaration, result: Result,
              roster_sides: Mapping[str, str | None] | None = None) -> Result:
    """``result`` whose state keeps the armies of the attack's formations: the firing
    formation's weapons and units, the target's units (and the army every formation kept
    already, which the attack's own state updates would drop)."""
    formations = dict(result.state_updates.get("formations")
                      or state.get("formations", {}))
    before = state.get("formations", {})
    for name, saved in list(formations.items()):
        old = before.get(name, {}).get(ARMY)
        if old is not None and ARMY not in saved:
            formations[name] = {**saved, ARMY: old}
    sides = dict(roster_sides or {})
    firing, target = decl.firing, decl.target
    if firing:
        units = [{"name": u.name, "number": u.number, "weapons": list(u.weapons)}
                 for u in decl.firing_units]
        saved = formations.get(firing, {"blast_markers": 0, "broken": False, "destroyed": []})
        formations[firing] = {**saved, ARMY: _army(saved.get(ARMY), sides.get(firing),
                                                   [_weapon(w) for w in decl.weapons], units)}
    if target and decl.target_units:
        units = [{"name": u.name, "number": u.number, "type": u.type, "armour": u.armour,
                  "reinforced": u.reinforced or None, "invulnerable": u.invulnerable or None,
                  "dc": u.dc, "void_shields": u.void_shields or None}
                 for u in decl.target_units]
        saved = formations.get(target, {"blast_markers": 0, "broken": False, "destroyed": []})
        formations[target] = {**saved, ARMY: _army(saved.get(ARMY), sides.get(target), [],
                                                   units)}
    return dataclasses.replace(result, state_updates={**result.state_updates,
                                                      "formations": formations})


def _unit_label(u: Mapping[str, Any]) -> Msg | str:
    return shown(u["name"], u.get("number"), "unit")


def _weapon_text(w: Mapping[str, Any]) -> str:
    values = [f"{k.upper()}{v}+" for k, v in (("ap", w.get("ap")), ("at", w.get("at")))
              if v is not None]
    if w.get("barrage") is not None:
        values.append(f"BP{w['barrage']}")
    return "/".join(values)


def _profile(u: Mapping[str, Any], weapons: Mapping[str, Mapping[str, Any]]) -> Msg:
    parts: list[Msg | str] = []
    if u.get("type"):
        parts.append(u["type"] + (f" {u['armour']}+" if u.get("armour") else ""))
    for name in u.get("weapons", []):
        w = weapons.get(weapon_key(name))
        label = shown(w["name"], w.get("number"), "weapon") if w else name
        parts.append(Msg.of("kept.army.epic.weapon", weapon=label,
                            values=_weapon_text(w) if w else "-"))
    return Msg.of("kept.army.profile", parts=joined(parts))


def groups(state: Mapping[str, Any]) -> list[Group]:
    out = []
    for name, saved in state.get("formations", {}).items():
        army = saved.get(ARMY)
        if army is None:
            continue
        weapons = {weapon_key(w["name"]): w for w in army.get("weapons", [])}
        lost = {weapon_key(d) for d in saved.get("destroyed", [])}
        units = tuple(Unit(_unit_label(u), _profile(u, weapons),
                           Msg.of("epic.fate.destroyed")
                           if weapon_key(u["name"]) in lost else None)
                      for u in army.get("units", []))
        if not units:  # weapons alone (typed as pools of shots): one line for them
            units = tuple(Unit(shown(w["name"], w.get("number"), "weapon"),
                               Msg.of("kept.army.epic.shots", shots=w.get("shots", 1),
                                      values=_weapon_text(w)))
                          for w in army.get("weapons", []))
        own = [Msg.of("epic.fate.markers", markers=saved.get("blast_markers", 0))]
        if saved.get("broken"):
            own.append(Msg.of("epic.state.broken"))
        out.append(Group(RULESET_ID, name, army.get("side"), units, tuple(own)))
    return out


def roster(state: Mapping[str, Any], sides: Mapping[str, str]) -> list[RosterPart] | None:
    """The kept formations as an Epic roster (``--roster``): each with its side, weapons and
    units by name; a unit destroyed, or whose type no attack gave (it only fired), is named
    in a comment; the Blast markers and broken state are said in a comment (the game file
    keeps them)."""
    from referee.catalog import render

    formations = [(n, f) for n, f in state.get("formations", {}).items() if f.get(ARMY)]
    if not formations:
        return None
    parts: list[RosterPart] = []
    for name, saved in formations:
        army = saved[ARMY]
        lost = {weapon_key(d) for d in saved.get("destroyed", [])}
        units = [u for u in army.get("units", []) if u.get("type")
                 and weapon_key(u["name"]) not in lost]
        if not units:
            parts.append(Msg.of("kept.army.epic.left_out_formation", name=name))
            continue
        parts.append(("[[formation]]", {"name": name,
                                        "side": army.get("side") or sides.get(name),
                                        "initiative": army.get("initiative")}))
        parts.append(Msg.of("kept.army.epic.markers", markers=saved.get("blast_markers", 0),
                            broken=Msg.of("word.yes" if saved.get("broken") else "word.no")))
        names = {weapon_key(w["name"]): render(shown(w["name"], w.get("number"), "weapon"))
                 for w in army.get("weapons", [])}
        for w in army.get("weapons", []):
            parts.append(("[[formation.weapons]]",
                          {k: names[weapon_key(w["name"])] if k == "name" else v
                           for k, v in w.items() if k != "number"}))
        for u in units:
            carried = [names.get(weapon_key(n), n) for n in u.get("weapons", [])]
            parts.append(("[[formation.units]]", {
                "name": render(_unit_label(u)), "type": u["type"], "armour": u.get("armour"),
                "weapons": carried or None, "reinforced": u.get("reinforced") or None,
                "invulnerable": u.get("invulnerable") or None, "dc": u.get("dc"),
                "void_shields": u.get("void_shields"),
                **{k: u.get(k) or None for k in ASSAULT_FIELDS}}))
        parts += [Msg.of("kept.army.epic.left_out", name=_unit_label(u))
                  for u in army.get("units", []) if u not in units]
    return parts


# what a unit fights with in an assault and does in the turn (a roster's, kept as given)
ASSAULT_FIELDS = ("cc", "ff", "fearless", "inspiring", "expendable", "leader",
                  "supreme_commander", "first_strike", "extra")


def imported(path: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The state keeping a roster file's formations (their side, weapons and units) with the
    kept ones; the Blast markers and losses the game keeps stay."""
    from referee.rulesets.epic.roster import load_roster

    formations = {n: dict(f) for n, f in state.get("formations", {}).items()}
    for f in load_roster(path).formation:
        saved = formations.get(f.name, {"blast_markers": 0, "broken": False, "destroyed": []})
        units = [u.model_dump(mode="json", exclude_defaults=True) for u in f.units]
        army: dict[str, Any] = {"side": f.side, "weapons": [_weapon(w) for w in f.weapons],
                                "units": units}
        if f.initiative is not None:
            army["initiative"] = f.initiative
        formations[f.name] = {**saved, ARMY: army}
    return {"formations": formations}


def kept_armies(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The formations the game keeps an army of, by name."""
    return {n: f[ARMY] for n, f in state.get("formations", {}).items() if f.get(ARMY)}


def firing_from_kept(state: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    """A kept formation's weapons and firing units (its units that are not destroyed), as a
    declaration takes them; ``None``: the game keeps no weapons of it."""
    army = kept_armies(state).get(name)
    if not army or not army.get("weapons"):
        return None
    lost = {weapon_key(d) for d in state["formations"][name].get("destroyed", [])}
    units = [{"name": u["name"], "number": u.get("number"), "weapons": u["weapons"]}
             for u in army.get("units", []) if u.get("weapons")
             and weapon_key(u["name"]) not in lost]
    return {"weapons": list(army["weapons"]), "firing_units": units}


def target_from_kept(state: Mapping[str, Any], name: str) -> list[dict[str, Any]] | None:
    """A kept formation's units with their type and save (where they stand is asked),
    as a declaration takes them; ``None``: the game keeps no such units of it."""
    army = kept_armies(state).get(name)
    units = [u for u in (army or {}).get("units", []) if u.get("type")]
    if not units:
        return None
    return [{k: v for k, v in (("name", u["name"]), ("number", u.get("number")),
                                ("type", u["type"]), ("armour", u.get("armour")),
                                ("reinforced", u.get("reinforced") or False),
                                ("invulnerable", u.get("invulnerable") or False),
                                ("dc", u.get("dc")), ("void_shields", u.get("void_shields")))
             if v is not None} for u in units]
