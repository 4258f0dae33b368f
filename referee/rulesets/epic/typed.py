"""The whole attack typed at the table, with no roster (issue 14): compact lines.

The formations' names (optional: Enter keeps a label in the player's language), the firing
formation's Blast markers (they decide whether its units' distances are needed: suppression,
E-4), then a line for each group of alike firing units and their weapons (``4 ap4``), a line
for each group of alike target units (``3 inf 6+ woods 30``), and the crossfire. The lines
are read by ``entry``; here they become the declaration the resolvers take, the same value a
script's declaration gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.port import Port
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.declaration import FiringUnit, ShootingDeclaration, TargetUnit, Weapon
from referee.rulesets.epic.formations import ask_markers, formation_label
from referee.rulesets.epic.line import (
    FiringGroup,
    FiringQuestion,
    GroupQuestion,
    NameQuestion,
    Profile,
    TargetQuestion,
    UnitGroup,
)

DEFAULT_FIRING, DEFAULT_TARGET = "firing-formation", "target-formation"
MAX_OTHERS = 9  # other formations under a barrage's templates (the declaration's limit)


@dataclass(frozen=True, kw_only=True)
class OtherNameQuestion(NameQuestion):
    """Another formation under the templates: a name not taken by a formation of the attack
    (``-``: no more)."""

    taken: frozenset[str] = frozenset()

    def parse(self, text: str) -> str | None:
        name = super().parse(text)
        if name is not None and name.casefold() in self.taken:
            raise AnswerError(Msg.of("epic.entry.name_taken", name=name))
        return name


def ask_names(port: Port, kept: tuple[str, ...] = ()) -> tuple[str, str]:
    """E-1: the two formations, each named or left to its label (Enter); ``kept``: the
    names of the formations the game keeps, completed as they are typed (issue 27)."""
    firing = port.ask(NameQuestion(id="firing-name", clause="E-1", default_value="-",
                                text=Msg.of("epic.q.firing_name"), suggestions=kept,
                                hint_msg=Msg.of("epic.hint.name",
                                                label=formation_label(DEFAULT_FIRING))))
    target = port.ask(NameQuestion(id="target-name", clause="E-1", default_value="-",
                                text=Msg.of("epic.q.target_name"), suggestions=kept,
                                hint_msg=Msg.of("epic.hint.name",
                                                label=formation_label(DEFAULT_TARGET))))
    return firing or DEFAULT_FIRING, target or DEFAULT_TARGET


def ask_formations(ctx: AttackContext, decl: ShootingDeclaration) -> ShootingDeclaration:
    """The firing and the target formations, typed at the table (no roster). A formation
    the game keeps (issue 27) is not typed again: its weapons and units are the kept ones,
    only where its units stand is asked (as with a roster)."""
    from referee.rulesets.epic.army import firing_from_kept, target_from_kept

    port = ctx.port
    firing = decl.firing or DEFAULT_FIRING
    target = decl.target or DEFAULT_TARGET
    markers = decl.firing_blast_markers
    saved = ctx.state.get("formations", {}).get(firing)
    if saved is not None:  # the game file knows them (shown when the attack starts)
        markers = int(saved.get("blast_markers", 0))
    elif markers is None:
        markers = ask_markers(port, firing, formation_label(firing))
    nearest = dict(ctx.options.values).get("suppression-front") == "nearest-enemy"
    kept_firing = firing_from_kept(ctx.state, firing)
    kept_target = target_from_kept(ctx.state, target)
    if kept_firing is not None:  # issue 27: the weapons the game keeps, not typed again
        barrage = any(w.get("barrage") is not None for w in kept_firing["weapons"])
        macro = any(w.get("macro") for w in kept_firing["weapons"])
        fired: dict[str, Any] = kept_firing
    else:
        firing_groups = _firing_lines(port, formation_label(firing), markers > 0, nearest)
        barrage = firing_groups[0].barrage
        macro = any(p.macro for g in firing_groups for _, p in g.weapons)
        fired = _firing(firing_groups, markers, nearest)
    targets: list[Any] = (kept_target if kept_target is not None else _targets(
        _target_lines(port, formation_label(target), barrage, macro, "target")))
    update: dict[str, Any] = {"firing": firing, "target": target, **fired,
                              "target_units": targets}
    if saved is None:
        update["firing_blast_markers"] = markers
    if barrage and not decl.also_under_templates:
        update["also_under_templates"] = _others(ctx, {firing, target})
    # the crossfire (the target's, and each other formation's under a barrage) is asked by
    # the attack, as on every path (E-13)
    from referee.rulesets.epic.roster import revalidate

    return revalidate(decl, update)


def _others(ctx: AttackContext, taken: set[str]) -> list[dict[str, Any]]:
    """E-15, E-19: the other formations under a barrage's templates, a name and its unit
    lines each (every unit under a template is attacked, each formation with its own
    markers); ``-`` (what Enter takes) when there are no more."""
    port = ctx.port
    out: list[dict[str, Any]] = []
    while len(out) < MAX_OTHERS:
        n = len(out) + 1
        name = port.ask(OtherNameQuestion(
            id=f"other.{n}.name", clause="E-15", default_value="-",
            taken=frozenset(x.casefold() for x in taken),
            text=Msg.of("epic.q.other_name" if n == 1 else "epic.q.other_more"),
            hint_msg=Msg.of("epic.hint.other_name")))
        if name is None:
            break
        taken.add(name)
        groups = _target_lines(port, name, True, False, f"other.{n}")
        # its Blast markers, crossfire and broken state are asked by the barrage (E-19)
        out.append({"name": name, "units": _targets(groups)})
    return out


def _firing_lines(port: Port, firing: Msg | str, suppression: bool,
                  nearest: bool) -> list[FiringGroup]:
    """E-2 to E-7: a line for each group of alike firing units; their distances only when
    Blast markers may suppress some (E-4)."""
    hint = ("epic.hint.firing_nearest" if nearest else "epic.hint.firing_distance") \
        if suppression else "epic.hint.firing"

    def line(groups: list[FiringGroup]) -> FiringQuestion:
        return FiringQuestion(
            **_line_fields("firing", len(groups), firing, hint, groups), clause="E-7",
            need_distance=suppression, barrage=groups[0].barrage if groups else None,
            profiles=frozenset(p for g in groups for _, p in g.weapons))

    return _lines(port, line)


def _target_lines(port: Port, target: Msg | str, barrage: bool, macro: bool,
                  prefix: str) -> list[UnitGroup]:
    """E-10 and E-11: a line for each group of alike target units, with where they stand
    (``nomw``: beyond the macro-weapons' reach, E-12). ``prefix``: the lines' question ids
    (``target``, or ``other.2`` for another formation under a barrage's templates)."""
    hint = ("epic.hint.target_barrage" if barrage else
            "epic.hint.target_mw" if macro else "epic.hint.target")

    def line(groups: list[UnitGroup]) -> TargetQuestion:
        return TargetQuestion(**_line_fields("target", len(groups), target, hint, groups, prefix),
                           clause="E-10", barrage=barrage, macro=macro)

    return _lines(port, line)


def _line_fields(side: str, n: int, formation: Msg | str, hint: str,
                 groups: list[Any], prefix: str | None = None) -> dict[str, Any]:
    """What the lines of one list share: the first asks, the next ones end on ``-``."""
    return {"id": f"{prefix or side}.{n + 1}",
            "text": Msg.of(f"epic.q.{side}_first" if not n else f"epic.q.{side}_more",
                           **{side: formation}),
            "hint_msg": Msg.of(hint if not n else "epic.hint.more"),
            "default_value": None if not n else "-",
            "previous": groups[-1] if groups else None,
            "units_before": sum(g.count for g in groups)}


def _lines(port: Port, question: Callable[[list[Any]], GroupQuestion]) -> list[Any]:
    groups: list[Any] = []
    while line := port.ask(question(groups)):
        groups += line
    return groups


def _weapons(groups: list[FiringGroup]) -> dict[Profile, Weapon]:
    """One weapon for each profile the lines name, numbered in the order they come."""
    profiles = list(dict.fromkeys(p for g in groups for _, p in g.weapons))
    return {p: Weapon(name=f"weapon-{i}", number=i, ap=p.ap, at=p.at, barrage=p.barrage,
                      macro=p.macro, disrupt=p.disrupt, ignore_cover=p.ignore_cover)
            for i, p in enumerate(profiles, 1)}


def _firing(groups: list[FiringGroup], markers: int, nearest: bool) -> dict[str, Any]:
    """The weapons, and the firing units when they matter: with Blast markers (suppression,
    E-4) or a barrage (its points are summed over the weapons that fire, E-16). Otherwise
    every shot of a profile is one pool (E-7) and no unit is suppressed."""
    weapons = _weapons(groups)
    if markers == 0 and not groups[0].barrage and any(g.in_range for g in groups):
        shots: dict[Profile, int] = {}
        for g in groups:
            if g.in_range:
                for times, p in g.weapons:
                    shots[p] = shots.get(p, 0) + g.count * times
        return {"weapons": [w.model_copy(update={"shots": shots[p]})
                            for p, w in weapons.items() if p in shots]}
    units: list[FiringUnit] = []
    for i, g in enumerate(groups, 1):
        carried = [weapons[p].name for times, p in g.weapons for _ in range(times)]
        for _ in range(g.count):
            n = len(units) + 1
            # the line's distance is what suppression counts from: to the target formation,
            # or to the nearest enemy under option suppression-front=nearest-enemy
            units.append(FiringUnit(name=f"shooter-{n}", number=n, group=f"line-{i}",
                                    weapons=carried,
                                    distance=g.distance, in_range=g.in_range,
                                    nearest_enemy=g.distance if nearest else None))
    return {"weapons": list(weapons.values()), "firing_units": units}


def _targets(groups: list[UnitGroup]) -> list[TargetUnit]:
    units: list[TargetUnit] = []
    for i, g in enumerate(groups, 1):
        for _ in range(g.count):
            n = len(units) + 1
            units.append(TargetUnit.model_validate({
                "name": f"unit-{n}", "number": n, "group": f"line-{i}", "type": g.type,
                "armour": g.armour, "terrain": g.terrain,
                "distance": g.distance if g.distance is not None else 0.0,
                "in_range": g.in_range, "under_template": g.under,
                "in_mw_range": g.in_range and g.in_mw, "dc": g.dc,
                "void_shields": g.shields,
                "reinforced": g.reinforced, "invulnerable": g.invulnerable}))
    return units
