"""The firing side of an Epic shooting attack: who may fire (E-2, E-3), suppression (E-4),
the AP/AT choice (E-7), the cover modifier per kind of fire (E-8) and the rolls to hit (E-8,
E-9). Pure: questions through the port, steps into the log."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from referee.core.port import Port
from referee.core.questions import Choice, ConfirmQuestion, MultiChoiceQuestion
from referee.core.result import StepLog
from referee.core.table import NOTHING, Shown, as_need
from referee.core.text import Msg
from referee.rulesets.epic.allocation import HitKind
from referee.rulesets.epic.damage import Hit
from referee.rulesets.epic.declaration import FiringUnit, ShootingDeclaration, Weapon, weapon_key
from referee.rulesets.epic.formations import (
    Defender,
    FormationState,
    Shooter,
    ask_places,
    join,
    listing,
    shooter,
    shooter_needs,
)
from referee.rulesets.epic.hitting import choose_fire_type
from referee.rulesets.epic.line import Needs, Place
from referee.rulesets.epic.suppression import suppression
from referee.rulesets.epic.tables import Action, tables
from referee.rulesets.epic.tohit import hit_plan, required_roll


def _rule(section: str) -> Msg:
    return Msg.of(f"epic.rule.{section}")


@dataclass(frozen=True)
class Pool:
    """All the shots of one weapon profile from the units that fire it."""

    weapon: Weapon
    shots: int
    fire: str  # ap, at (after E-7)
    to_hit: int

    @property
    def hit_fire(self) -> str:
        # a Titan killer is a macro-weapon in all else (E-W8)
        return "mw" if self.weapon.macro or self.weapon.titan_killer else self.fire


def who_may_fire(port: Port, decl: ShootingDeclaration, firing: FormationState,
                 options: dict[str, Any], log: StepLog) -> list[tuple[Shooter, list[Weapon]]]:
    """E-2, E-3 and E-4: the units that fire, each with the weapons that bear."""
    t = tables()
    nearest = options.get("suppression-front") == "nearest-enemy"
    if not decl.firing_units:  # no units declared: every weapon fires as declared
        if decl.by_hand and firing.blast_markers == 0:
            log.note(Msg.of("epic.step.no_markers", firing=firing.shown), "E-4")
        else:
            log.note(Msg.of("epic.step.no_firing_units"), "E-4")
        whole = Shooter("formation", "-", tuple(decl.weapons), 0, True, None)
        return [(whole, list(decl.weapons))]
    present = [u for u in decl.firing_units if not firing.lost(u.name)]
    carried = {u.key: tuple(decl.weapon(n) for n in u.weapons) for u in present}
    places = _shooter_places(port, present, carried, firing, nearest)
    # alike units: of one line at the table, or of one run of the formation's line
    groups = {u.key: u.group if u.group is not None else
              (f"{weapon_key(firing.name)}.{places[u.key][0]}" if u.key in places else None)
              for u in present}
    able: list[tuple[Shooter, list[Weapon]]] = []
    rows: list[list[Any]] = []
    keys: list[str] = []
    for unit in present:
        weapons = carried[unit.key]
        s = shooter(unit, weapons, nearest, places.get(unit.key, (0, None))[1])
        bearing = s.bearing if s.bearing is not None else 0.0
        reach = [w for w in weapons if w.range is None or s.distance is None
                 or s.distance <= w.range]
        if s.in_range and len(reach) < len(weapons):  # E-2: known from the roster's ranges
            short = [w for w in weapons if w not in reach]
            log.note(Msg.of("epic.step.beyond_weapon_range", unit=s.shown,
                            distance=f"{s.distance:g}", weapons=weapon_list(short),
                            range=f"{max(w.range or 0 for w in short):g}"), "E-2")
        bearing_ok = [w for w in reach if t.arc(w.arc).allows(bearing)]
        if not s.in_range:
            status = Msg.of("epic.fire_status.out_of_range")
        elif not weapons:
            status = Msg.of("epic.fire_status.no_weapons")
        elif not reach:
            status = Msg.of("epic.fire_status.beyond_range")
        elif not bearing_ok:
            status = Msg.of("epic.fire_status.no_arc")
        else:
            status = Msg.of("epic.fire_status.able")
            able.append((s, bearing_ok))
        keys.append(s.key)
        rows.append([s.shown, NOTHING if s.distance is None else
                     Shown(s.distance, f"{s.distance:g}"),
                     Shown(s.in_range, Msg.of("word.yes" if s.in_range else "word.no")),
                     weapons_cell(bearing_ok), status])
    # E-4: one unit per Blast marker, from the back
    sup = suppression([(s.key, s.distance or 0.0) for s, _ in able], firing.blast_markers)
    if firing.blast_markers:
        log.input(Msg.of("epic.step.suppression", markers=firing.blast_markers,
                         count=len(sup.certain) + sup.from_tied), "E-4",
                  markers=firing.blast_markers)
    chosen: tuple[str, ...] = ()
    names = {s.key: s.shown for s, _ in able}
    if sup.from_tied and sup.from_tied < len(sup.tied) and _alike(able, sup.tied, groups):
        # E-4: the tied units are alike (one line, the same weapons): nothing to choose
        chosen = sup.tied[:sup.from_tied]
        log.input(Msg.of("epic.step.suppress_alike", units=listing([names[k] for k in chosen]),
                         tied=listing([names[k] for k in sup.tied])), "E-4")
    elif sup.from_tied and sup.from_tied < len(sup.tied):
        chosen = tuple(port.ask(MultiChoiceQuestion(
            id="suppress", clause="E-4", min_count=sup.from_tied, max_count=sup.from_tied,
            default_values=sup.tied[:sup.from_tied],
            text=Msg.of("epic.q.suppress", count=sup.from_tied, firing=firing.shown),
            choices=tuple(Choice(k, names[k]) for k in sup.tied))))
        log.input(Msg.of("epic.step.suppress_tie", units=listing([names[k] for k in chosen]),
                         tied=listing([names[k] for k in sup.tied])), "E-4")
    elif sup.from_tied:
        chosen = sup.tied
    suppressed = set(sup.certain) | set(chosen)
    for key, row in zip(keys, rows, strict=True):
        if key in suppressed:
            row[4] = Msg.of("epic.fire_status.suppressed")
            log.fate(firing.shown, names[key], Msg.of("epic.fate.suppressed"))
    log.table(Msg.of("epic.table.who_fires", firing=firing.shown),
              [Msg.of(f"epic.col.{c}") for c in ("unit", "distance", "in_range", "weapons",
                                                 "status")], rows, clause="E-2")
    return [(s, ws) for s, ws in able if s.key not in suppressed]


def _alike(able: list[tuple[Shooter, list[Weapon]]], tied: tuple[str, ...],
           groups: dict[str, str | None]) -> bool:
    """Equally far firing units of one group whose weapons that bear are the same."""
    firing = {s.key: [w.key for w in ws] for s, ws in able}
    first = tied[0]
    return groups[first] is not None and all(
        groups[k] == groups[first] and firing[k] == firing[first] for k in tied[1:])


def _shooter_places(port: Port, units: list[FiringUnit], carried: dict[str, tuple[Weapon, ...]],
                    firing: FormationState, nearest: bool) -> dict[str, tuple[int, Place]]:
    """One line for the firing units whose situation the declaration (or roster) leaves
    out: in line of fire or not (E-2), their distance when Blast markers may suppress some
    (E-4) or their weapons have a range (E-2), their bearing for fire arcs (E-3)."""
    needs = {u.key: shooter_needs(u, carried[u.key], nearest, firing.blast_markers)
             for u in units}
    asked = [u for u in units if any(needs[u.key])]
    if not asked:
        return {}
    what = Needs(distance=any(needs[u.key][1] for u in asked),
                 bearing=any(needs[u.key][2] for u in asked))
    hint = "epic.hint.shooters_nearest" if nearest else "epic.hint.shooters"
    labels = [u.label for u in asked]
    places = ask_places(port, f"situation.{weapon_key(firing.name)}",
                        Msg.of("epic.q.shooters", firing=firing.shown, units=join(labels),
                               count=len(asked)),
                        Msg.of(hint if what.distance or what.bearing
                               else "epic.hint.shooters_lof"), labels, what)
    return dict(zip((u.key for u in asked), places, strict=True))


def weapons_cell(weapons: list[Weapon]) -> Shown:
    """Weapons as a table cell: their names (a list; empty, shown ``-``, for none), shown
    as ``weapon_list``."""
    return Shown([w.label for w in weapons], weapon_list(weapons))


def weapon_list(weapons: list[Weapon]) -> Msg | str:
    counts = Counter(w.key for w in weapons)
    labels = {w.key: w.label for w in weapons}
    return listing([labels[k] if c == 1 else
                    (f"{c} × {labels[k]}" if isinstance(labels[k], str)
                     else Msg.of("epic.list.times", count=c, weapon=labels[k]))
                    for k, c in counts.items()])


def pools(port: Port, fire_units: list[tuple[Shooter, list[Weapon]]], whole: bool,
           log: StepLog) -> list[Pool]:
    """E-7: each weapon profile fires all its shots as AP or as AT."""
    counts: Counter[str] = Counter()
    profiles: dict[str, Weapon] = {}
    for _, weapons in fire_units:
        for w in weapons:
            counts[w.key] += 1
            profiles[w.key] = w
    pools = []
    for key, w in profiles.items():
        if w.barrage is not None:
            continue
        shots = w.shots if whole else w.shots * counts[key]
        fire, to_hit = choose_fire_type(port, w, log)
        pools.append(Pool(w, shots, fire, to_hit))
    return pools


def cover_choices(port: Port, pools: list[Pool], units: list[Defender],
                   log: StepLog) -> dict[str, bool]:
    """E-8: per kind of fire, is the cover modifier taken? All eligible units in cover: yes;
    none: no; some: the attacker chooses, and declining keeps those hits off units in cover."""
    t = tables()
    out: dict[str, bool] = {}
    for fire in dict.fromkeys(p.hit_fire for p in pools if not p.weapon.ignore_cover):
        reach = [d for d in units if d.target.type in t.allocation[fire]
                 and (d.target.in_mw_range if fire == "mw" else d.target.in_range)]
        covered = [d for d in reach if d.target.in_cover]
        if reach and len(covered) == len(reach):
            out[fire] = True
            log.modifier(Msg.of("epic.step.cover_forced", fire=Msg.of(f"epic.fire.{fire}"),
                                value=f"{t.cover_modifier:+d}"), "E-8", fire=fire)
        elif not covered:
            out[fire] = False
        else:
            out[fire] = bool(port.ask(ConfirmQuestion(
                id=f"cover.{fire}", default_value=True, clause="E-8", whatif=True,
                text=Msg.of("epic.q.take_cover", fire=Msg.of(f"epic.fire.{fire}"),
                            covered=len(covered), total=len(reach)))))
            log.input(Msg.of("epic.step.cover_taken" if out[fire] else "epic.step.cover_declined",
                             fire=Msg.of(f"epic.fire.{fire}")), "E-8", fire=fire,
                      taken=out[fire])
    return out


@dataclass
class RolledHits:
    hits: list[Hit]
    rows: list[tuple[Any, ...]]


def roll_pools(port: Port, pools: list[Pool], cover: dict[str, bool], action: Action,
                units: list[Defender], log: StepLog, attack: Any = None,
                added: int = 0, step: bool = False) -> RolledHits:
    """E-8 and E-9 for every weapon profile: its modifiers, the need, the dice, the hits.
    ``attack`` (``AttackFacts``) lets each roll's odds show how the attack may end;
    ``step``: every weapon's dice (the first roll of a 7+ need) in one prompt (issue 27)."""
    from referee.rulesets.epic.hitting import modifiers_cell, need_cell, need_text, roll_hits

    t = tables()
    planned = []
    for pool in pools:
        mods: list[tuple[str, int, Msg]] = []
        mod = action.modifier
        if action.modifier:
            mods.append((action.id, action.modifier,
                         Msg.of("epic.mod.action", value=f"{action.modifier:+d}",
                                action=Msg.of(f"epic.action.{action.id}"))))
        took = cover.get(pool.hit_fire, False) and not pool.weapon.ignore_cover
        if took:
            mod += t.cover_modifier
            mods.append(("cover", t.cover_modifier,
                         Msg.of("epic.mod.cover", value=f"{t.cover_modifier:+d}")))
        if pool.weapon.ignore_cover:
            mods.append(("ignore_cover", 0, Msg.of("epic.mod.ignore_cover")))
        # E-8: hits of a fire that declined the cover modifier cannot go to units in cover
        kind = HitKind(pool.hit_fire, cover_ok=took or pool.weapon.ignore_cover
                       or not any(d.target.in_cover for d in units))
        hit = Hit(kind, pool.weapon.label, pool.weapon.disrupt, pool.weapon.ignore_cover,
                  pool.weapon.titan_killer)
        planned.append((pool, mods, mod, hit_plan(required_roll(pool.to_hit, mod)), hit))
    out = RolledHits([], [])
    if step:
        port = _step(port, planned, attack, added)
    for i, (pool, mods, mod, plan, hit) in enumerate(planned):
        log.input(Msg.of("epic.step.need", weapon=pool.weapon.label,
                         fire=Msg.of(f"epic.fire.{pool.fire}"), to_hit=pool.to_hit,
                         modifier=f"{mod:+d}", need=need_text(plan)),
                  "E-9" if plan.mode != "direct" else "E-8", weapon=pool.weapon.key,
                  to_hit=pool.to_hit, modifier=mod, need=plan.need)
        rest = None
        if attack is not None:
            from referee.rulesets.epic.oddsfacts import PoolFacts, ShotsRest

            later = tuple(PoolFacts(p.shots, pl.chance, h) for p, _, _, pl, h in planned[i + 1:]
                          if pl.mode != "impossible")
            rest = ShotsRest(attack, tuple(out.hits), hit, later, added)
        got, shown = roll_hits(port, pool.weapon, pool.shots, plan, log, rest=rest)
        out.hits += [hit] * got
        fire_label = Msg.of(f"epic.fire.{pool.fire}") if not pool.weapon.macro else \
            Msg.of("epic.fire.mw_of", fire=Msg.of(f"epic.fire.{pool.fire}"))
        out.rows.append((pool.weapon.label, fire_label, pool.shots, as_need(pool.to_hit),
                         modifiers_cell(mods), need_cell(plan), shown, got))
    return out


def _step(port: Port, planned: list[Any], attack: Any, added: int) -> Port:
    """The first roll of every weapon that can hit, asked in one prompt (``step_dice``);
    the odds of its end states are those before the first weapon's roll."""
    from referee.core.dice import DiceSpec
    from referee.core.oddsref import OddsRef
    from referee.rulesets.epic.step_dice import DiceGroup, ask_step

    rollable = [(pool, plan, hit) for pool, _, _, plan, hit in planned
                if plan.mode != "impossible" and pool.shots]
    groups = []
    for i, (pool, plan, hit) in enumerate(rollable):
        ref = None
        if i == 0 and attack is not None:
            from referee.rulesets.epic.oddsfacts import PoolFacts, ShotsRest

            later = tuple(PoolFacts(p.shots, pl.chance, h) for p, pl, h in rollable[1:])
            ref = OddsRef.to("referee.rulesets.epic.odds:to_hit", weapon=pool.weapon.label,
                             need=plan.need, then=plan.then,
                             stage="direct" if plan.mode == "direct" else "first",
                             rest=ShotsRest(attack, (), hit, later, added))
        groups.append(DiceGroup(f"to-hit.{pool.weapon.key}", pool.weapon.label,
                                DiceSpec(count=pool.shots, target=plan.target,
                                         auto_fail=(tables().natural_fail,), count_only=True),
                                ref))
    return ask_step(port, "to-hit", groups, clause="E-8")
