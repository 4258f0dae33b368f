"""The whole attack typed at the table, with no roster (issue 14): compact lines.

A line for each formation (issue 27, ``shoot_line``): the firing formation's name, Blast
markers and groups of alike firing units with their weapons (``Grey Company: 4 ap4,
Lascannon 2 at4``), then the target's name, Blast markers, crossfire and groups of alike
units (``Red Company: xf1, Rifles 2 inf 6+ woods 30``). Here they become the declaration the
resolvers take, the same value a script's declaration gives: its units and weapons named as
the line named them, or by their type and profile (``Infantry 1``, ``AP4+``), numbered without
gaps within the formation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.port import Port
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.common import NAMED_BY_TYPE
from referee.rulesets.epic.declaration import (
    FiringUnit,
    ShootingDeclaration,
    TargetUnit,
    Weapon,
    weapon_key,
)
from referee.rulesets.epic.formations import formation_label, listing
from referee.rulesets.epic.line import (
    FiringGroup,
    GroupQuestion,
    NameQuestion,
    Profile,
    TargetQuestion,
    UnitGroup,
)
from referee.rulesets.epic.shoot_line import ShootLine, ShootLineQuestion, profile_name
from referee.rulesets.lines import fold

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


@dataclass(frozen=True)
class TypedLines:
    """The two formations' lines as typed (``None``: not typed, the kept pair's path)."""

    firing: ShootLine | None = None
    target: ShootLine | None = None


def ask_lines(ctx: AttackContext) -> tuple[ShootingDeclaration, TypedLines]:
    """E-1, E-2 to E-13: the firing formation's line, then the target's (what the firing
    line named decides what the target's may say: ``clear`` under a barrage, ``nomw`` with
    macro-weapons). A formation the game keeps may be named alone."""
    firing = _ask_line(ctx, "firing", None)
    firing_name = _kept_name(ctx.state, firing.name) or DEFAULT_FIRING
    target = _ask_line(ctx, "target", None, firing=(firing_name, firing))
    target_name = _kept_name(ctx.state, target.name) or DEFAULT_TARGET
    decl = ShootingDeclaration(firing=firing_name, target=target_name, by_hand=True)
    return decl, TypedLines(firing, target)


def _ask_line(ctx: AttackContext, side: str, name: str | None,
              firing: tuple[str, ShootLine | None] | None = None) -> ShootLine:
    """One formation's line; ``name``: the formation's, when it is named already (its line
    then gives no name); ``firing``: for the target's line, the firing formation's name and
    line (``None``: the game keeps it)."""
    from referee.rulesets.epic.army import firing_from_kept, kept_armies, target_from_kept

    state = ctx.state
    saved: Mapping[str, Any] = state.get("formations", {})
    known = tuple((fold(n), int(f.get("blast_markers", 0))) for n, f in saved.items())
    options = dict(ctx.options.values)
    barrage = macro = False
    kept_of: Callable[[Mapping[str, Any], str], Any] = firing_from_kept
    if side == "firing":
        hint = ("firing_nearest" if options.get("suppression-front") == "nearest-enemy"
                else "firing")
    else:
        assert firing is not None
        kept_of = target_from_kept
        line = firing[1]
        if line is not None and line.groups:
            barrage = any(g.barrage for g in line.groups)
            macro = any(p.macro for g in line.groups for _, p in g.weapons)
        else:
            weapons = (firing_from_kept(state, firing[0]) or {}).get("weapons", [])
            barrage = any(w.get("barrage") is not None for w in weapons)
            macro = any(w.get("macro") for w in weapons)
        hint = "target_barrage" if barrage else "target_mw" if macro else "target"
    names = [n for n in kept_armies(state) if kept_of(state, n) is not None]
    kept = frozenset(fold(n) for n in names)
    shown = Msg.of(f"epic.shoot.hint.{hint}")
    if name is None:
        label = formation_label(DEFAULT_FIRING if side == "firing" else DEFAULT_TARGET)
        shown = _kept_hint(Msg.of("epic.shoot.hint.named", label=label, hint=shown), names)
        text = Msg.of(f"epic.shoot.q.{side}")
    else:
        text = Msg.of(f"epic.shoot.q.{side}_units", **{side: formation_label(name)})
        kept = frozenset()
    known_markers = known if name is None else tuple(
        (k, m) for k, m in known if k == fold(name))
    taken = fold(firing[0]) if firing is not None else None
    asked: ShootLine = ctx.port.ask(ShootLineQuestion(
        id=side, clause="E-1" if side == "firing" else "E-10", side=side, barrage=barrage,
        macro=macro, kept=kept, known_markers=known_markers, taken=taken,
        named=name is None, formation=name, text=text, hint_msg=shown,
        suggestions=tuple(names) if name is None else ()))
    if name is not None:  # its markers are checked against the name it has
        return ShootLine(name, asked.markers, asked.crossfire, asked.groups, asked.names)
    return asked


def _kept_hint(hint: Msg, names: list[str]) -> Msg:
    """The hint, with the formations the game keeps (each may be named alone)."""
    if not names:
        return hint
    return Msg.of("epic.shoot.hint.kept", hint=hint, names=listing(names))


def _kept_name(state: Mapping[str, Any], name: str | None) -> str | None:
    """The name as the game file spells it, when it keeps the formation (typed in another
    case: ``grey company``)."""
    if name is None:
        return None
    return next((n for n in state.get("formations", {}) if fold(n) == fold(name)), name)


def ask_formations(ctx: AttackContext, decl: ShootingDeclaration,
                   lines: TypedLines | None = None) -> ShootingDeclaration:
    """The firing and the target formations as their lines gave them (no roster). A
    formation the game keeps (issue 27) is not typed again: its weapons and units are the
    kept ones, only where its units stand is asked (as with a roster)."""
    from referee.rulesets.epic.army import firing_from_kept, target_from_kept

    lines = lines or TypedLines()
    firing = decl.firing or DEFAULT_FIRING
    target = decl.target or DEFAULT_TARGET
    saved = ctx.state.get("formations", {})
    nearest = dict(ctx.options.values).get("suppression-front") == "nearest-enemy"
    kept_firing = firing_from_kept(ctx.state, firing)
    if lines.firing is None and kept_firing is None:  # named on the command line
        lines = TypedLines(_ask_line(ctx, "firing", firing), lines.target)
    if lines.target is None and target_from_kept(ctx.state, target) is None:
        lines = TypedLines(lines.firing, _ask_line(ctx, "target", target,
                                                   firing=(firing, lines.firing)))
    update: dict[str, Any] = {"firing": firing, "target": target}
    if lines.firing is not None and lines.firing.groups:
        markers = int(saved[firing].get("blast_markers", 0)) if firing in saved else \
            lines.firing.markers or 0
        groups: list[FiringGroup] = list(lines.firing.groups)
        update.update(_firing(groups, lines.firing.names, markers, nearest))
        barrage = groups[0].barrage
    else:  # issue 27: the weapons the game keeps, not typed again
        assert kept_firing is not None  # the kept pair, or a line naming it alone
        update.update(kept_firing)
        barrage = any(w.get("barrage") is not None for w in kept_firing["weapons"])
    if firing not in saved:
        update["firing_blast_markers"] = (lines.firing.markers if lines.firing else None) or 0
    if lines.target is not None and lines.target.groups:
        update["target_units"] = _targets(list(lines.target.groups), lines.target.names)
    else:
        update["target_units"] = target_from_kept(ctx.state, target)
    if lines.target is not None:  # the line says the crossfire and markers (none: 0)
        update["crossfire"] = lines.target.crossfire or 0
        if target not in saved:
            update["target_blast_markers"] = lines.target.markers or 0
    if barrage and not decl.also_under_templates:
        update["also_under_templates"] = _others(ctx, {firing, target})
    # a kept pair's crossfire (and each other formation's under a barrage) is asked by the
    # attack, with where the units stand (E-13)
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


def _names(bases: list[tuple[str, bool]]) -> list[tuple[str, int | None]]:
    """Each unit's name and number from its base: a group's name (``Rifles``: ``Rifles 1``,
    ``Rifles 2``; alone of its name, ``Rifles``), or a default kind (``infantry``:
    ``infantry-1`` numbered 1, shown ``Infantry 1``), numbered without gaps; a name met
    twice takes a mark (``Rifles 1 (2)``)."""
    totals: dict[str, int] = {}
    for base, _ in bases:
        totals[weapon_key(base)] = totals.get(weapon_key(base), 0) + 1
    seen: dict[str, int] = {}
    used: set[str] = set()
    out: list[tuple[str, int | None]] = []
    for base, default in bases:
        k = seen[weapon_key(base)] = seen.get(weapon_key(base), 0) + 1
        if default:
            name, number = f"{base}-{k}", k
        else:
            name = base if totals[weapon_key(base)] == 1 else f"{base} {k}"
            number = None
        while weapon_key(name) in used:
            name = f"{name} (2)" if number is None else f"{name}-"
        used.add(weapon_key(name))
        out.append((name, number))
    return out


def _weapons(groups: list[FiringGroup],
             names: tuple[str | None, ...]) -> dict[tuple[Profile, str], Weapon]:
    """One weapon for each profile the lines name (for each name given to it: a group of
    one weapon named ``Lascannon 2 at4``), in the order they come; a weapon without a name
    is named by its profile (``AP4+``)."""
    keys = list(dict.fromkeys(_weapon_of(g, n, p) for g, n in zip(groups, names, strict=True)
                              for _, p in g.weapons))
    out: dict[tuple[Profile, str], Weapon] = {}
    used: set[str] = set()
    for p, name in keys:
        shown = name
        while weapon_key(shown) in used:
            shown = f"{shown} (2)"
        used.add(weapon_key(shown))
        out[(p, name)] = Weapon(name=shown, ap=p.ap, at=p.at, barrage=p.barrage,
                                macro=p.macro, disrupt=p.disrupt, ignore_cover=p.ignore_cover)
    return out


def _weapon_of(g: FiringGroup, name: str | None, p: Profile) -> tuple[Profile, str]:
    """A weapon of a group: its profile, and the group's name when it is the group's only
    weapon (else the profile's)."""
    return (p, name if name and len(g.weapons) == 1 else profile_name(p))


def _firing(groups: list[FiringGroup], names: tuple[str | None, ...], markers: int,
            nearest: bool) -> dict[str, Any]:
    """The weapons, and the firing units when they matter: with Blast markers (suppression,
    E-4) or a barrage (its points are summed over the weapons that fire, E-16). Otherwise
    every shot of a weapon is one pool (E-7) and no unit is suppressed."""
    weapons = _weapons(groups, names)
    if markers == 0 and not groups[0].barrage and any(g.in_range for g in groups):
        shots: dict[tuple[Profile, str], int] = {}
        for g, n in zip(groups, names, strict=True):
            if g.in_range:
                for times, p in g.weapons:
                    key = _weapon_of(g, n, p)
                    shots[key] = shots.get(key, 0) + g.count * times
        return {"weapons": [w.model_copy(update={"shots": shots[k]})
                            for k, w in weapons.items() if k in shots]}
    bases = [(n, False) if n else ("shooter", True)
             for g, n in zip(groups, names, strict=True) for _ in range(g.count)]
    labels = iter(_names(bases))
    units: list[FiringUnit] = []
    for i, (g, n) in enumerate(zip(groups, names, strict=True), 1):
        carried = [weapons[_weapon_of(g, n, p)].name for times, p in g.weapons
                   for _ in range(times)]
        for _ in range(g.count):
            name, number = next(labels)
            # the line's distance is what suppression counts from: to the target formation,
            # or to the nearest enemy under option suppression-front=nearest-enemy
            units.append(FiringUnit(name=name, number=number, group=f"line-{i}",
                                    weapons=carried,
                                    distance=g.distance, in_range=g.in_range,
                                    nearest_enemy=g.distance if nearest else None))
    return {"weapons": list(weapons.values()), "firing_units": units}


def _targets(groups: list[UnitGroup],
             names: tuple[str | None, ...] | None = None) -> list[TargetUnit]:
    """The target units of the lines, named as their groups were (``Rifles 1``), else by
    their type (``infantry-1``, shown ``Infantry 1``)."""
    names = names or (None,) * len(groups)
    bases = [(n, False) if n else (NAMED_BY_TYPE[g.type], True)
             for g, n in zip(groups, names, strict=True) for _ in range(g.count)]
    labels = iter(_names(bases))
    units: list[TargetUnit] = []
    for i, g in enumerate(groups, 1):
        for _ in range(g.count):
            name, number = next(labels)
            units.append(TargetUnit.model_validate({
                "name": name, "number": number, "group": f"line-{i}", "type": g.type,
                "armour": g.armour, "terrain": g.terrain,
                "distance": g.distance if g.distance is not None else 0.0,
                "in_range": g.in_range, "under_template": g.under,
                "in_mw_range": g.in_range and g.in_mw, "dc": g.dc,
                "void_shields": g.shields,
                "reinforced": g.reinforced, "invulnerable": g.invulnerable}))
    return units
