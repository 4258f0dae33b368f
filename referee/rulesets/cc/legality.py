"""Which pieces may fire together, and the Command each piece gets (C-2, C-6, C-7, C-14).

``refusal`` returns the first reason the declared pieces may not make this attack (a ``Msg``),
or ``None``; the players may then pick other pieces or another target.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.options import Options
from referee.core.text import Msg
from referee.rulesets.cc.arithmetic import highest_command
from referee.rulesets.cc.declaration import FireDeclaration, FiringPiece


def hex_leaders(decl: FireDeclaration, piece: FiringPiece, options: Options) -> list[FiringPiece]:
    """C-14: the unbroken leaders in the piece's hex whose Command may modify it."""
    return [p for p in decl.firing
            if p.kind == "leader" and p.hex == piece.hex and not p.broken and p.command
            and (p is not piece or options["leader-commands-self"])]


def command_skips(piece: FiringPiece, options: Options) -> bool:
    """C-14 with C-1: ordnance (a white-band weapon) takes no Command to its FP or Range
    (option ordnance-command, default none: the 20th Anniversary rules' weapon Command)."""
    return piece.white_band and options.values.get("ordnance-command", "none") == "none"


def hex_command(decl: FireDeclaration, piece: FiringPiece, options: Options) -> int:
    """C-14: the Command of the unbroken leaders in the piece's hex (broken leaders give 0),
    which modifies its FP and Range; none for ordnance under the default reading."""
    if command_skips(piece, options):
        return 0
    return highest_command([p.command for p in hex_leaders(decl, piece, options)],
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


def refusal(decl: FireDeclaration, options: Options) -> tuple[str, Msg] | None:
    """(clause, reason) for the first rule these pieces break, or ``None`` when legal."""
    by_name = {p.name: p for p in decl.firing}
    shooters = decl.shooters
    for p in decl.firing:
        activator = by_name.get(p.activated_by or "")
        if p.kind == "leader" and activator is not None and activator.kind == "leader":
            return "C-14", Msg.of("cc.refuse.leader_activates_leader", leader=activator.name,
                                  other=p.name)
    for p in shooters:
        if p.kind == "weapon" and p.carrier_broken:
            return "C-14", Msg.of("cc.refuse.carrier_broken", piece=p.name)
        if not p.los:
            return "C-6", Msg.of("cc.refuse.no_los", piece=p.name, target=decl.target_hex)
        reach = p.range + hex_command(decl, p, options)
        if p.distance > reach:
            return "C-6", Msg.of("cc.refuse.out_of_range", piece=p.name, distance=p.distance,
                                 reach=reach, target=decl.target_hex)
    if len(shooters) > 1:
        heavy = next((p for p in shooters if p.white_band), None)
        if heavy is not None:
            return "C-7", Msg.of("cc.refuse.white_band_alone", piece=heavy.name)
        hexes = {p.hex for p in shooters}
        if not connected(hexes, decl.adjacent):
            return "C-6", Msg.of("cc.refuse.not_a_chain", hexes=", ".join(sorted(hexes)))
    return None
