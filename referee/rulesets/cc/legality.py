"""Which pieces may fire together, and the Command each piece gets (C-2, C-6, C-7, C-14).

``refusal`` returns the first reason the declared pieces may not make this attack (a ``Msg``),
or ``None``; the players may then pick other pieces or another target.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.options import Options
from referee.core.text import Msg
from referee.rulesets.cc.arithmetic import group_fp, highest_command, largest_hindrance
from referee.rulesets.cc.declaration import FireDeclaration, FiringPiece


def hex_leaders(firing: Sequence[FiringPiece], piece: FiringPiece,
                options: Options) -> list[FiringPiece]:
    """C-14: the unbroken leaders in the piece's hex whose Command may modify it."""
    return [p for p in firing
            if p.kind == "leader" and p.hex == piece.hex and not p.broken and p.command
            and (p is not piece or options["leader-commands-self"])]


def command_skips(piece: FiringPiece, options: Options) -> bool:
    """C-14 with C-1: ordnance (a white-band weapon) takes no Command to its FP or Range
    (option ordnance-command, default none: the 20th Anniversary rules' weapon Command)."""
    return piece.white_band and options.values.get("ordnance-command", "none") == "none"


def hex_command(firing: Sequence[FiringPiece], piece: FiringPiece, options: Options) -> int:
    """C-14: the Command of the unbroken leaders in the piece's hex (broken leaders give 0),
    which modifies its FP and Range; none for ordnance under the default reading."""
    if command_skips(piece, options):
        return 0
    return highest_command([p.command for p in hex_leaders(firing, piece, options)],
                           options["command-from"])


def connected(hexes: set[str], adjacent: Sequence[Sequence[str]]) -> bool:
    """C-6: every firing hex is linked to the others through a chain of adjacent hexes."""
    if len(hexes) <= 1:
        return True
    links: dict[str, set[str]] = {h: set() for h in hexes}
    for a, b in adjacent:
        if a in links and b in links:
            links[a].add(b)
            links[b].add(a)
    start = next(iter(sorted(hexes)))
    seen, todo = {start}, [start]
    while todo:
        for nxt in links[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen == hexes


def group_refusal(firing: Sequence[FiringPiece], target: Msg | str, options: Options, *,
                  adjacent: Sequence[Sequence[str]] | None = None) -> tuple[str, Msg] | None:
    """(clause, reason) for the first rule these pieces break as one fire group at
    ``target``, or ``None``. ``adjacent`` ``None``: the chain of hexes is not checked (the
    table asks it hex by hex). The one check of a group, whether the pieces are entered one
    at a time at the table (each refused when it is entered) or declared in a file."""
    by_name = {p.name: p for p in firing if p.name is not None}
    shooters = [p for p in firing if p.fires]
    for p in firing:
        activator = by_name.get(p.activated_by or "")
        if p.kind == "leader" and activator is not None and activator.kind == "leader":
            return "C-14", Msg.of("cc.refuse.leader_activates_leader", leader=activator.label,
                                  other=p.label)
    for p in shooters:
        if p.kind == "weapon" and p.carrier_broken:
            return "C-14", Msg.of("cc.refuse.carrier_broken", piece=p.label)
        if not p.los:
            return "C-6", Msg.of("cc.refuse.no_los", piece=p.label, target=target)
        reach = p.range + hex_command(firing, p, options)
        if p.distance > reach:
            return "C-6", Msg.of("cc.refuse.out_of_range", piece=p.label, distance=p.distance,
                                 reach=reach, target=target)
    if len(shooters) > 1:
        heavy = next((p for p in shooters if p.white_band), None)
        if heavy is not None:
            return "C-7", Msg.of("cc.refuse.white_band_alone", piece=heavy.label)
        hexes = {p.hex for p in shooters}
        if adjacent is not None and not connected(hexes, adjacent):
            return "C-6", Msg.of("cc.refuse.not_a_chain", hexes=", ".join(sorted(hexes)))
    return None


def refusal(decl: FireDeclaration, options: Options) -> tuple[str, Msg] | None:
    """(clause, reason) for the first rule these pieces break, or ``None`` when legal."""
    return group_refusal(decl.firing, decl.target_label, options, adjacent=decl.adjacent)


def best_fp(firing: Sequence[FiringPiece], bonuses: Sequence[int], options: Options) -> int:
    """C-8, C-9, C-14: the highest final FP any choice of base piece gives (what the
    resolver's ``_firepower`` works out for the chosen base): the base's FP (with its hex's
    Command unless the declared FP includes it), +1 for each other piece, less the largest
    hindrance (for ordnance under ordnance-hindrance=targeting-roll: none), plus the bonuses."""
    shooters = [p for p in firing if p.fires]
    included = options["declared-fp-includes-command"]
    best = max(p.fp + (0 if included else hex_command(firing, p, options)) for p in shooters)
    fp = group_fp(best, len(shooters))
    ordnance = len(shooters) == 1 and shooters[0].white_band
    if not (ordnance and options["ordnance-hindrance"] == "targeting-roll"):
        fp -= largest_hindrance([p.hindrance for p in shooters])
    return fp + sum(bonuses)
