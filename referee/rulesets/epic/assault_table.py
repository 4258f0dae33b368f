"""An assault at the table (E-A1 to E-A8): the formations typed in one line each, or taken from
a roster with a line for where their units stand; the other formations within 15 cm of the
fight (they may support, and take a Blast marker if their side loses); where units stand
again before another round. Builds the declaration the resolver takes (``assault``), the
same value a script's ``[declaration.assault]`` gives."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.errors import AnswerError, ScriptError
from referee.core.port import Port
from referee.core.questions import EntryQuestion
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.assault_entry import AssaultEntry, to_units
from referee.rulesets.epic.assault_model import (
    AssaultDeclaration,
    AssaultFormation,
    AssaultUnit,
    Support,
    SupportUnit,
)
from referee.rulesets.epic.common import weapon_key
from referee.rulesets.epic.entry import (
    Needs,
    distance_of,
    fold,
    named_thing,
    prefixed_value,
    split_groups,
    words,
)
from referee.rulesets.epic.formations import formation_label, join

if TYPE_CHECKING:
    from referee.rulesets.epic.assault import Fight
    from referee.rulesets.epic.fighters import Fighter

ATTACKER, DEFENDER = "assaulting-formation", "defending-formation"


def ask_assault(ctx: AttackContext) -> AssaultDeclaration:
    """The two formations typed at the table: a line each (E-A3), the engaging side first."""
    port = ctx.port
    formations = {}
    for side, default in (("attacker", ATTACKER), ("defender", DEFENDER)):
        line = port.ask(AssaultEntry(
            id=f"assault.{side}", clause="E-A3", charging=side == "attacker",
            text=Msg.of(f"epic.assault.q.{side}_line"),
            hint_msg=Msg.of(f"epic.assault.hint.{side}_line",
                            label=formation_label(default))))
        name = line.name or default
        formations[side] = AssaultFormation(
            name=name, blast_markers=line.markers if line.markers is not None else 0,
            units=[AssaultUnit.model_validate(u) for u in to_units(line)])
    if formations["attacker"].name.casefold() == formations["defender"].name.casefold():
        formations["defender"] = formations["defender"].model_copy(
            update={"name": formations["defender"].name + " (2)"})
    return AssaultDeclaration(attackers=[formations["attacker"]],
                              defenders=[formations["defender"]])


def _fill(decl: AssaultDeclaration,
          fill: Callable[[bool, AssaultFormation], AssaultFormation]) -> AssaultDeclaration:
    """Each formation named without units filled in by ``fill(charging, formation)``."""
    return decl.model_copy(update={
        side: [f if f.units else fill(side == "attackers", f) for f in getattr(decl, side)]
        for side in ("attackers", "defenders")})


def with_roster(ctx: AttackContext, decl: AssaultDeclaration) -> AssaultDeclaration:
    """Formations named without units: the roster's units (E-A3), and a line for where
    they stand after the charges (in contact, within 15 cm, or out: decision 4); without
    a roster, a line each typed at the table (``referee epic-assault A D``)."""
    if decl.roster is None:
        return _fill(decl, functools.partial(_typed, ctx)) if decl.by_hand else decl
    from referee.rulesets.epic.roster import load_roster

    path = decl.roster
    roster = load_roster(path)
    by_name = {f.name.casefold(): f for f in roster.formation}

    def from_roster(charging: bool, f: AssaultFormation) -> AssaultFormation:
        found = by_name.get(f.name.casefold())
        if found is None:
            raise ScriptError(path, "formation", Msg.of(
                "epic.roster.unknown", name=f.name,
                known=", ".join(x.name for x in roster.formation)))
        saved = ctx.state.get("formations", {}).get(f.name, {})
        lost = {weapon_key(n) for n in saved.get("destroyed", [])}
        units = [AssaultUnit.model_validate({
            k: v for k, v in u.model_dump(exclude_unset=True).items()
            if k not in ("weapons", "supreme_commander")})
            for u in found.units]
        standing = [u for u in units if u.key not in lost]
        places = _places(ctx.port, standing, f.name, charging)
        return f.model_copy(update={"units": [u.model_copy(update=places[u.key])
                                              for u in standing]})

    return _fill(decl, from_roster)


def _typed(ctx: AttackContext, charging: bool, f: AssaultFormation) -> AssaultFormation:
    """A formation named without units and no roster: its line, as at the table, without
    the name."""
    side = "attacker" if charging else "defender"
    line = ctx.port.ask(AssaultEntry(
        id=f"assault.{side}", clause="E-A3", charging=charging, named=False,
        text=Msg.of("epic.assault.q.units", formation=f.name),
        hint_msg=Msg.of(f"epic.assault.hint.{side}_units")))
    markers = f.blast_markers if f.blast_markers is not None else line.markers
    return f.model_copy(update={
        "blast_markers": markers if markers is not None else 0,
        "units": [AssaultUnit.model_validate(u) for u in to_units(line)]})


def _places(port: Port, units: Sequence[AssaultUnit], formation: str,
            charging: bool) -> dict[str, dict[str, Any]]:
    """One line for where a formation's units stand: ``contact``, cm to the nearest enemy
    within 15, ``out``; ``reach`` for units of the charging side that may reach contact."""
    from referee.rulesets.epic.formations import ask_places

    asked = [u for u in units if u.contact is None and u.engaged is None]
    if not asked:
        return {u.key: {} for u in units}
    labels = [u.name for u in asked]
    places = ask_places(port, f"situation.{weapon_key(formation)}",
                        Msg.of("epic.assault.q.where", formation=formation_label(formation),
                               units=join(labels), count=len(asked)),
                        Msg.of("epic.assault.hint.where"), labels,
                        Needs(distance=True, contact=True))
    out: dict[str, dict[str, Any]] = {u.key: {} for u in units}
    for u, (run, place) in zip(asked, places, strict=True):
        out[u.key] = {"contact": place.contact, "engaged": place.contact or place.in_range,
                      "distance": 0.0 if place.contact else place.distance,
                      "terrain": None if charging else place.terrain,
                      "group": u.group or f"{weapon_key(formation)}.{run}"}
    return out


def ask_where(port: Port, fighters: Sequence[Fighter], qid: str, side: Msg | str) -> None:
    """E-A10: where a side's survivors stand after counter-charges, before another round."""
    from referee.rulesets.epic.formations import ask_places

    labels = [f.shown for f in fighters]
    places = ask_places(port, qid, Msg.of("epic.assault.q.where", formation=side,
                                          units=join(labels), count=len(fighters)),
                        Msg.of("epic.assault.hint.where"), labels,
                        Needs(distance=True, contact=True))
    for f, (_, place) in zip(fighters, places, strict=True):
        f.contact = place.contact
        f.engaged = place.contact or place.in_range
        f.distance = 0.0 if place.contact else (place.distance or 0.0) if f.engaged else 500.0


# -- the formations near the fight ----------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class NearbyEntry(EntryQuestion):
    """The other formations within 15 cm of the fight: ``Blue Squad a, Old Guard d`` (a name
    and its side: ``a`` the attacker's, ``d`` the defender's); ``-`` none."""

    default_value: str | None = "-"
    max_length: int = 600

    def parse(self, text: str) -> tuple[tuple[str, str], ...]:
        if text.strip() in ("-", "нет"):
            return ()
        out = []
        for part in text.split(","):
            bits = part.split()
            if len(bits) < 2:
                raise AnswerError(Msg.of("epic.assault.entry.nearby", part=part.strip()))
            side = next((s for s, ws in words()["side"].items() if fold(bits[-1]) in ws), None)
            if side is None:
                raise AnswerError(Msg.of("epic.assault.entry.nearby", part=part.strip()))
            out.append((" ".join(bits[:-1]), side))
        return tuple(out)

    def format(self, value: tuple[tuple[str, str], ...]) -> str:
        return ", ".join(f"{name} {side[0]}" for name, side in value) or "-"


@dataclass(frozen=True, kw_only=True)
class SupportEntry(EntryQuestion):
    """A supporting formation's units within 15 cm of an enemy in the fight, with a line of
    fire (E-A8): ``3 ff5, we dc3 ff4``; ``-`` if it cannot support (none there, broken, or it
    marched this turn)."""

    default_value: str | None = "-"
    max_length: int = 600

    def parse(self, text: str) -> tuple[tuple[int, int, int | None], ...]:
        if text.strip() in ("-", "нет"):
            return ()
        out = []
        for tokens in split_groups(text):
            count, ff, dc = 1, None, None
            rest = tokens
            if len(tokens) > 1 and tokens[0].isdigit():
                count, rest = int(tokens[0]), tokens[1:]
            for token in rest:
                value = prefixed_value(token, "assault_value")
                if value is not None and value[0] in ("ff", "dc"):
                    if value[0] == "ff":
                        ff = int(value[1])
                    else:
                        dc = int(value[1])
                    continue
                named = named_thing(token, "type")
                if named is not None or distance_of(token) is not None:
                    continue
                raise AnswerError(Msg.of("epic.assault.entry.support", part=token))
            if ff is None or not 2 <= ff <= 6 or not 1 <= count <= 60:
                raise AnswerError(Msg.of("epic.assault.entry.support", part=" ".join(tokens)))
            out.append((count, ff, dc))
        return tuple(out)

    def format(self, value: tuple[tuple[int, int, int | None], ...]) -> str:
        return ", ".join(f"{n} ff{ff}" + (f" dc{dc}" if dc else "") for n, ff, dc in value) \
            or "-"


def ask_nearby(fight: Fight) -> None:
    """E-A8, E-A11: the other formations of either side within 15 cm of the fight, once;
    each says what it could support with (asked when the assault goes on to support)."""
    named = fight.port.ask(NearbyEntry(
        id="assault.nearby", clause="E-A8", text=Msg.of("epic.assault.q.nearby"),
        hint_msg=Msg.of("epic.assault.hint.nearby")))
    for name, side in named:
        fight.nearby.setdefault(side, []).append(name)
        units = fight.port.ask(SupportEntry(
            id=f"assault.support.{weapon_key(name)}", clause="E-A8",
            text=Msg.of("epic.assault.q.support", name=name),
            hint_msg=Msg.of("epic.assault.hint.support")))
        saved = fight.ctx.state.get("formations", {}).get(name, {})
        fight.supports.setdefault(side, []).append(Support(
            name=name, side=side, broken=bool(saved.get("broken")),
            units=[SupportUnit(count=n, ff=ff, dc=dc) for n, ff, dc in units]))


