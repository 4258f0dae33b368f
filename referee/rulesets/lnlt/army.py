"""What a Lock 'n Load Tactical game file keeps of the armies, for ``game roster`` (issue 27):
the units of the phase under way (or of the last one, or of a roster brought in), with their
hexes, statuses and markers, as a roster file (``roster.Roster``), and a roster file brought
in (kept as the army the next phase starts from)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.armies import Group, RosterPart, Unit
from referee.core.fates import joined
from referee.core.text import Msg
from referee.rulesets.lnlt.roster import GOOD_ORDER, Roster
from referee.rulesets.lnlt.roster import Unit as LnlUnit

RULESET_ID = "lnl-tactical"
ARMY = "army"  # the state key of a roster brought in, for the next phase


def kept_roster(state: Mapping[str, Any]) -> Roster | None:
    """The army the game keeps: the phase's roster (under way or over), else a roster
    brought in."""
    phase = state.get("phase")
    if phase:
        return Roster.model_validate(phase["roster"])
    army = state.get(ARMY)
    return Roster.model_validate(army) if army else None


def _profile(u: LnlUnit) -> Msg:
    parts: list[Msg | str] = [Msg.of(f"lnlt.kind.{u.kind}"),
                              Msg.of("kept.army.lnlt.ifp", ifp=u.ifp)]
    if u.morale is not None:
        parts.append(Msg.of("kept.army.lnlt.morale", morale=u.morale))
    if u.lm:
        parts.append(Msg.of("kept.army.lnlt.lm", lm=u.lm))
    if u.armor is not None:
        parts.append(Msg.of("kept.army.lnlt.armor", armor=u.armor))
    parts += [f"{sw.kind.upper()} {sw.fp}" if sw.fp else sw.kind.upper() for sw in u.sws]
    return Msg.of("kept.army.profile", parts=joined(parts))


def _state(u: LnlUnit) -> Msg | None:
    parts = ([Msg.of(f"lnlt.result.{u.status}")] if u.status != GOOD_ORDER else []) + \
        [Msg.of(f"lnlt.marker.{m}") for m in u.markers]
    return Msg.of("kept.army.profile", parts=joined(parts)) if parts else None


def groups(state: Mapping[str, Any]) -> list[Group]:
    found = kept_roster(state)
    if found is None:
        return []
    places = list(dict.fromkeys((u.side, u.hex) for u in found.units))
    return [Group(RULESET_ID, Msg.of("kept.fate.hex", hex=h), side,
                  tuple(Unit(u.label, _profile(u), _state(u)) for u in found.units
                        if (u.side, u.hex) == (side, h)))
            for side, h in places]


def roster(state: Mapping[str, Any], sides: Mapping[str, str]) -> list[RosterPart] | None:
    """The kept army as a Lock 'n Load roster (``--roster``): the sides, the map as the
    players read it, every unit with its hex, status and markers."""
    found = kept_roster(state)
    if found is None:
        return None
    data = found.model_dump(mode="json", exclude_defaults=True)
    units = data.pop("units")
    top = {k: v for k, v in data.items() if not isinstance(v, dict) or v}
    return [("", top), *(("[[units]]", unit) for unit in units)]


def imported(path: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """A roster file kept as the army the next phase starts from (a phase under way keeps
    its own: it is over before another starts)."""
    from referee.rulesets.lnlt.roster import read_roster

    return {ARMY: read_roster(path).model_dump(mode="json")}
