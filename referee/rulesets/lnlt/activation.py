"""Who may be activated (L-3, L-4, L-10): pure functions over a roster.

An activation covers one hex; a GO leader in an activated hex may add the adjacent hexes,
within the reach limits of L-4; a leader activated that way may reach further (L-10 chain).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.core.options import Options
from referee.core.text import Msg
from referee.rulesets.lnlt.questions import Refusal
from referee.rulesets.lnlt.roster import Roster, Unit


def can_act(unit: Unit) -> bool:
    """L-8, L-11: a unit with any marker (Moved... Fired, Ops Complete) does not act again
    this turn, except as L-12 to L-14 allow; eliminated units are off the map."""
    return unit.on_map and not unit.markers


def activatable(roster: Roster, side: str, hex_id: str | None = None) -> list[Unit]:
    return [u for u in roster.scan() if u.side == side and can_act(u)
            and (hex_id is None or u.hex == hex_id)]


def by_hex(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    """``units`` by hex, in the order given (one pass, where a scan of the roster for each
    hex would cost hexes x units)."""
    out: dict[str, list[Unit]] = {}
    for unit in units:
        out.setdefault(unit.hex, []).append(unit)
    return out


def can_reach(roster: Roster, leader: Unit) -> Refusal | None:
    """Whether ``leader`` may activate adjacent hexes at all (L-3, L-4, L-11)."""
    if not leader.good_order:
        return Refusal(leader.id, "L-3", Msg.of("lnlt.why.leader_not_go", leader=leader.label))
    if leader.markers:
        return Refusal(leader.id, "L-11", Msg.of("lnlt.why.leader_marked",
                                                  leader=leader.label))
    if leader.position == "inside":
        return Refusal(leader.id, "L-4", Msg.of("lnlt.why.leader_inside", leader=leader.label))
    return None


def unit_refusal(roster: Roster, leader: Unit, unit: Unit, options: Options) -> Refusal | None:
    """L-4: why ``leader`` may not activate ``unit`` in an adjacent hex (None: he may)."""
    if unit.kind == "vehicle" and not leader.armor_leader:
        return Refusal(unit.id, "L-4", Msg.of("lnlt.why.vehicle", leader=leader.label,
                                               unit=unit.label))
    if unit.kind != "vehicle" and leader.armor_leader:
        return Refusal(unit.id, "L-4", Msg.of("lnlt.why.armor_leader", leader=leader.label,
                                               unit=unit.label))
    if unit.position == "inside":
        return Refusal(unit.id, "L-4", Msg.of("lnlt.why.bunker_inside", leader=leader.label,
                                               unit=unit.label))
    if roster.multi_level(unit.hex):
        # L-4: in an adjacent multi-level building only the leader's own level (units
        # outside a building are at level 0). The levels directly above and below him
        # (L-X2) are those of his OWN building, handled where his hex is activated.
        own = leader.level if leader.level is not None else 0
        at = unit.level if unit.level is not None else 0
        if at != own:
            return Refusal(unit.id, "L-4", Msg.of("lnlt.why.level", leader=leader.label,
                                                   unit=unit.label, level=at,
                                                   levels=str(own)))
    return None


@dataclass
class Reach:
    """What the leaders of the activated hexes can add: per hex, the units and the leaders
    that reach them; and, per hex left out, why."""

    units: dict[str, list[Unit]] = field(default_factory=dict)
    leaders: dict[str, list[Unit]] = field(default_factory=dict)
    refused: dict[str, Refusal] = field(default_factory=dict)
    unit_refusals: dict[str, list[Refusal]] = field(default_factory=dict)


def reach(roster: Roster, side: str, leaders: list[Unit], activated_hexes: set[str],
          options: Options) -> Reach:
    """The hexes that ``leaders`` (GO, unmarked, activated) can add to the activation."""
    out = Reach()
    usable = [ldr for ldr in leaders if can_reach(roster, ldr) is None]
    around = {ldr.id: roster.neighbours(ldr.hex) for ldr in leaders}
    free = by_hex(activatable(roster, side))
    for hex_id in sorted(free):  # the primary hexes (L-3)
        if hex_id in activated_hexes:
            continue
        near = [ldr for ldr in usable if hex_id in around[ldr.id]]
        if not near:
            why = next((can_reach(roster, ldr) for ldr in leaders
                        if hex_id in around[ldr.id]), None)
            out.refused[hex_id] = (Refusal(hex_id, why.clause, why.reason) if why else Refusal(
                hex_id, "L-3", Msg.of("lnlt.why.not_adjacent", hex=hex_id)))
            continue
        units: list[Unit] = []
        by: list[Unit] = []
        refusals: list[Refusal] = []
        for unit in free[hex_id]:
            reasons = [unit_refusal(roster, ldr, unit, options) for ldr in near]
            ok = [ldr for ldr, why in zip(near, reasons, strict=True) if why is None]
            if ok:
                units.append(unit)
                by += [ldr for ldr in ok if ldr not in by]
            else:
                first = next(r for r in reasons if r is not None)
                refusals.append(first)
        out.unit_refusals[hex_id] = refusals
        if units:
            out.units[hex_id] = units
            out.leaders[hex_id] = by
        else:
            first = refusals[0]
            out.refused[hex_id] = Refusal(hex_id, first.clause, first.reason)
    return out
