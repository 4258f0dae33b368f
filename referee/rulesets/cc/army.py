"""What a Combat Commander game file keeps of the armies (issue 27): every named piece and
unit of its attacks, with its side (its nation), its hex, its printed values as far as an
attack gave them, and its state after the last attack it took part in; shown by ``game
roster``, written as a roster file (``roster.Roster``), and a roster file brought in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.core.armies import Group, RosterPart, Unit
from referee.core.fates import joined
from referee.core.text import Msg

RULESET_ID = "combat-commander"
STATE_KEY = "units"
UNNAMED_HEX = "*"  # the firing hex of the lines typed before the first ``@HEX``


def _key(piece: Mapping[str, Any]) -> tuple[str, str]:
    return piece["side"], piece["name"].casefold()


def kept_after(state: Mapping[str, Any], decl: Any, results: Mapping[str, str],
               events: Mapping[str, str], jammed: Iterable[str]) -> dict[str, Any]:
    """The kept pieces after an attack: its named firing pieces (the attacker's) and target
    units (the defender's) with what it gave of them and their state after it (a defence
    result, an event's effect, a weapon broken by Jammed!), in place of the kept ones of the
    same side and name; the others as kept."""
    kept = {_key(p): dict(p) for p in state.get(STATE_KEY, ())}
    broken_weapons = set(jammed)
    for p in decl.firing:
        if p.name is None:
            continue
        old = kept.get((decl.attacker, p.name.casefold()), {})
        # a kept piece fired from its unnamed hex keeps the place it had (issue 27)
        where = old.get("hex") if p.hex == UNNAMED_HEX and old else p.hex
        kept[(decl.attacker, p.name.casefold())] = {
            **old, "name": p.name, "side": decl.attacker, "hex": where, "kind": p.kind,
            "fp": p.fp if p.fires else old.get("fp"), "range": p.range if p.fires
            else old.get("range"), "command": p.command, "white_band": p.white_band,
            "distance": p.distance if p.fires else old.get("distance"),
            "hindrance": p.hindrance if p.fires else old.get("hindrance"),
            "broken": p.broken or p.name in broken_weapons}
    for u in decl.target:
        if u.name is None:
            continue
        old = kept.get((decl.defender, u.name.casefold()), {})
        result = results.get(u.key)
        event = events.get(u.key)
        broken = u.broken or result in ("broken", "eliminated") or event == "broken"
        kept[(decl.defender, u.name.casefold())] = {
            **old, "name": u.name, "side": decl.defender,
            "hex": decl.target_hex or old.get("hex"), "kind": u.kind, "morale": u.morale,
            "broken_morale": u.broken_morale, "command": u.command,
            "vp": u.vp if u.vp is not None else old.get("vp"), "broken": broken,
            "cover": decl.cover,
            "suppressed": (u.suppressed or result == "suppressed" or event == "suppressed")
            and not broken,
            "eliminated": result == "eliminated" or event == "eliminated"}
    from referee.rulesets.cc.saved import SavedPiece

    return {STATE_KEY: [SavedPiece.model_validate(p).model_dump() for p in kept.values()]}


def named(pieces: list[dict[str, Any]], side: str,
          kept: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The pieces typed in a game with a name each (issue 27): one typed without a name
    gets its side's default name in the player's language, numbered by kind without gaps
    (``German unit 1``, ``German weapon 1``), never one the game keeps for its side (a piece
    typed anew is a new piece). Their ids (``piece-2``) stay: scripts answer as before."""
    from referee.catalog import render

    taken = {p["name"].casefold() for p in kept if p["side"] == side}
    taken |= {p["name"].casefold() for p in pieces if p.get("name")}
    counts: dict[str, int] = {}
    out = []
    for p in pieces:
        if p.get("name") is None:
            kind = p.get("kind", "unit")
            n = counts.get(kind, 0)
            while True:
                n += 1
                name = render(Msg.of(f"cc.kept.default.{kind}",
                                     nation=Msg.of(f"cc.nation.{side}"), n=n))
                if name.casefold() not in taken:
                    break
            counts[kind] = n
            taken.add(name.casefold())
            p = {**p, "name": name}
        out.append(p)
    return out


def _profile(p: Mapping[str, Any]) -> Msg:
    parts: list[Msg | str] = [Msg.of(f"kept.army.cc.{p.get('kind', 'unit')}")]
    if p.get("fp") is not None:
        parts.append(Msg.of("kept.army.cc.fp", fp=p["fp"], range=p.get("range") or 0))
    if p.get("morale") is not None:
        parts.append(Msg.of("kept.army.cc.morale", morale=p["morale"]))
    if p.get("command"):
        parts.append(Msg.of("kept.army.cc.command", command=p["command"]))
    return Msg.of("kept.army.profile", parts=joined(parts))


def _state(p: Mapping[str, Any]) -> Msg | None:
    for flag, shown in (("eliminated", "cc.result.eliminated"), ("broken", "cc.result.broken"),
                        ("suppressed", "cc.result.suppressed")):
        if p.get(flag):
            return Msg.of(shown)
    return None


def groups(state: Mapping[str, Any]) -> list[Group]:
    pieces = list(state.get(STATE_KEY, ()))
    places = list(dict.fromkeys((p["side"], p.get("hex")) for p in pieces))
    return [Group(RULESET_ID, Msg.of("kept.fate.hex", hex=h or "-"),
                  Msg.of(f"cc.nation.{side}"),
                  tuple(Unit(p["name"], _profile(p), _state(p)) for p in pieces
                        if (p["side"], p.get("hex")) == (side, h)))
            for side, h in places]


def roster(state: Mapping[str, Any], sides: Mapping[str, str]) -> list[RosterPart] | None:
    """The kept pieces as a Combat Commander roster (``--roster``): each with its side, hex,
    values and state. A roster unit needs its Morale (and a broken one its broken side's
    FP and Range): a piece whose Morale no attack gave (it only fired), or a broken one, is
    named in a comment to be filled in, never invented; an eliminated one is left out."""
    pieces = [p for p in state.get(STATE_KEY, ()) if not p.get("eliminated")]
    if not pieces:
        return None
    unknown = [p for p in pieces if p.get("morale") is None or p.get("kind") == "weapon"
               or p.get("hex") is None or p.get("broken")]
    parts: list[RosterPart] = [
        ("[[units]]", {"name": p["name"], "side": p["side"], "hex": p["hex"],
                       "kind": p["kind"], "fp": p.get("fp"), "range": p.get("range"),
                       "morale": p["morale"], "broken_morale": p.get("broken_morale"),
                       "command": p.get("command") or None,
                       "suppressed": p.get("suppressed") or None, "vp": p.get("vp")})
        for p in pieces if p not in unknown]
    for p in unknown:
        why = "kept.army.cc.left_out_broken" if p.get("broken") else "kept.army.cc.left_out"
        parts.append(Msg.of(why, name=p["name"]))
    return parts


def imported(path: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The state keeping a roster file's units (and the weapons they carry) with the kept
    ones; a kept piece of the same side and name takes the file's."""
    from referee.rulesets.cc.roster import load_roster
    from referee.rulesets.cc.saved import SavedPiece

    kept = {_key(p): dict(p) for p in state.get(STATE_KEY, ())}
    for u in load_roster(path).units:
        piece = {"name": u.name, "side": u.side, "hex": u.hex, "kind": u.kind, "fp": u.fp,
                 "range": u.range, "morale": u.morale, "broken_morale": u.broken_morale,
                 "command": u.command, "vp": u.vp, "broken": u.broken,
                 "suppressed": u.suppressed}
        kept[_key(piece)] = piece
        for w in u.weapons:
            weapon = {"name": w.name, "side": u.side, "hex": u.hex, "kind": "weapon",
                      "fp": w.fp, "range": w.range, "white_band": w.white_band}
            kept[_key(weapon)] = weapon
    return {STATE_KEY: [SavedPiece.model_validate(p).model_dump() for p in kept.values()]}
