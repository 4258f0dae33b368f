"""An Epic Armageddon assault, clauses E-A1 to E-A18 (brief: docs/rules/epic-armageddon-turn.md)
with war engines in it (E-W1 to E-W11 where they touch an assault).

The engage action's target and charge, who fights, the attack dice (first strike first), hits
allocated and saved by each side on its own units, an early end (wiped out or stalled),
supporting fire, the result roll and its modifiers, another round on a tie, then the loser's
extra hits, breaking and withdrawal and the winner's Blast markers. Geometry is the players'
input; every choice is a question. Pure: questions through the port, a ``Result`` back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Mirrored, Port
from referee.core.questions import (
    ATTACKER,
    DEFENDER,
    EITHER,
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
)
from referee.core.result import Result, StepLog
from referee.core.table import Shown, dice_text
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.allocation import HitKind
from referee.rulesets.epic.assault_model import AssaultDeclaration, AssaultFormation, Support
from referee.rulesets.epic.assault_near import ask_nearby, ask_where
from referee.rulesets.epic.damage import Allocation, Hit, allocate, roll_saves
from referee.rulesets.epic.fighters import (
    FAR,
    SIDES,
    Die,
    Fighter,
    SideState,
    d3,
    dice_of,
    extra_dice,
    extras_of,
    fighter_key,
    other,
)
from referee.rulesets.epic.formations import (
    FormationState,
    formation_label,
    formation_state,
    listing,
    settle_broken,
)
from referee.rulesets.epic.tables import RULESET_ID
from referee.rulesets.epic.warengine import Damage, apply_damage

MAX_ROUNDS = 10  # E-X12: ties are fought again; a safety stop far beyond any real game


@dataclass
class Fight:
    """The assault in progress."""

    ctx: AttackContext
    log: StepLog
    decl: AssaultDeclaration
    sides: dict[str, SideState]
    round: int = 1
    supports: dict[str, list[Support]] = field(default_factory=dict)
    nearby: dict[str, list[str]] = field(default_factory=dict)  # able to support, by side
    rows: list[tuple[Any, ...]] = field(default_factory=list)  # the attack dice table
    margin: int = 0  # the last result roll's difference (E-A11)

    @property
    def port(self) -> Port:
        return self.ctx.port

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.ctx.options.values)


# -- setting up ------------------------------------------------------------------------------
def prepare(ctx: AttackContext, decl: AssaultDeclaration, log: StepLog) -> Fight | None:
    """E-A1, E-A2: each side's formations, their state (the game file's, else declared, else
    asked) and units, as fighters; ``None`` when the assault cannot take place."""
    sides: dict[str, SideState] = {}
    for side in SIDES:
        formations: list[AssaultFormation] = list(getattr(decl, f"{side}s"))
        names = [f.name for f in formations]
        clash = len({u.key for f in formations for u in f.units}) < sum(
            len(f.units) for f in formations)
        states: list[FormationState] = []
        fighters: list[Fighter] = []
        broken_at_start: dict[str, bool] = {}
        for f in formations:
            fs = formation_state(ctx.state, f.name, f.blast_markers, False, log, ctx.port,
                                 formation_label(f.name))
            standing = [u for u in f.units if not fs.lost(u.name)]
            for u in standing:
                key = fighter_key(u, f.name, clash)
                damage = u.damage + fs.damage.get(u.key, 0)
                down = u.shields_down + fs.shields_down.get(u.key, 0)
                contact = bool(u.contact)
                engaged = contact or bool(u.engaged)
                distance = 0.0 if contact else (u.distance if u.distance is not None
                                                and engaged else FAR)
                fighters.append(Fighter(u, side, f.name, key, len(fighters), contact, engaged,
                                        distance, side == "attacker", damage=damage,
                                        shields_down=down))
            worth = sum(fi.worth for fi in fighters if fi.formation == f.name)
            # E-T2: the side that engages took an action, so none of it is broken unless
            # the count or the game file says so (then it may not engage): not asked
            settle_broken(ctx.port, fs, worth, f.broken if side == "defender" else False, log)
            broken_at_start[f.name] = fs.broken
            states.append(fs)
        sides[side] = SideState(side, states, fighters, broken_at_start,
                                lost=dict.fromkeys(names, 0),
                                destroyed={n: [] for n in names})
    fight = Fight(ctx, log, decl, sides)
    attacker, defender = sides["attacker"], sides["defender"]
    log.input(Msg.of("epic.assault.step.engage", attacker=_names(attacker),
                     defender=_names(defender)), "E-A1")
    broken = [fs for fs in attacker.formations if fs.broken]
    if broken:  # E-T2: a broken formation takes no action
        log.outcome(Msg.of("epic.assault.step.broken_attacker", formation=broken[0].shown),
                    "E-T2")
        return None
    if not attacker.engaged():  # E-A2: nobody within 15 cm after the charge
        log.outcome(Msg.of("epic.assault.step.no_assault", attacker=_names(attacker)), "E-A2")
        return None
    _reach(fight)
    return fight


def _names(side: SideState) -> Msg | str:
    return listing([fs.shown for fs in side.formations])


def _reach(fight: Fight) -> None:
    """E-A2 with the odds: the charging player says which groups that may reach base
    contact do (at the table: the charge move), each a what-if choice."""
    seen: dict[str, list[Fighter]] = {}
    for f in fight.sides["attacker"].fighters:
        if f.unit.reach and not f.contact:
            seen.setdefault(f.unit.group or f.key, []).append(f)
    for group, members in seen.items():
        first = members[0]
        into = fight.port.ask(ChoiceQuestion(
            answered_by=EITHER,
            id=f"assault.reach.{group}", clause="E-A2", default_value="contact", whatif=True,
            text=Msg.of("epic.assault.q.reach", units=listing([m.shown for m in members]),
                        count=len(members), cc=first.unit.cc or "-", ff=first.unit.ff or "-"),
            choices=(Choice("contact", Msg.of("epic.assault.choice.contact")),
                     Choice("firefight", Msg.of("epic.assault.choice.firefight")))))
        for m in members:
            if into == "contact":
                m.contact, m.distance = True, 0.0
        fight.log.input(Msg.of("epic.assault.step.reach", units=listing([m.shown for m in
                                                                         members]),
                               choice=Msg.of(f"epic.assault.choice.{into}")), "E-A2")


# -- one round ---------------------------------------------------------------------------------
def _we_split(fight: Fight, f: Fighter) -> int | None:
    """E-W11: a war engine in base contact splits its DC dice between close combat and
    firefight (asked, with the odds of each split); not in contact: all firefight."""
    if not f.war_engine or not f.contact or f.unit.cc is None or f.unit.ff is None:
        return None
    dc = f.unit.dc or 1
    value = fight.port.ask(ChoiceQuestion(
        answered_by=EITHER,
        id=f"assault.{fight.round}.split.{f.key}", clause="E-W11", default_value=str(dc),
        whatif=True, text=Msg.of("epic.assault.q.split", unit=f.shown, dice=dc),
        choices=tuple(Choice(str(n), Msg.of("epic.assault.choice.split", cc=n, ff=dc - n))
                      for n in range(dc, -1, -1))))
    return int(value)


def _extra_count(fight: Fight, f: Fighter, index: int, extra: Any) -> int:
    """E-A15: a fixed number of extra attacks, or its roll (``d3``: a die halved, rounded
    up; ``d6``)."""
    if isinstance(extra.count, int):
        return int(extra.count)
    roll = fight.port.ask(DiceQuestion(
        answered_by=EITHER, id=f"assault.{fight.round}.extra.{f.key}.{index + 1}", clause="E-A15",
        spec=DiceSpec(count=1),
        text=Msg.of("epic.assault.q.extra", unit=f.shown, roll=extra.count.upper())))
    face = roll.faces[0] if roll.faces else 1
    count = d3(face) if extra.count == "d3" else face
    fight.log.roll(Msg.of("epic.assault.step.extra", unit=f.shown, roll=extra.count.upper(),
                          faces=dice_text(roll), count=count), "E-A15", faces=roll.faces,
                   count=count)
    return count


def _pool(fight: Fight, side: SideState, first_strike: bool,
          split: dict[str, int | None]) -> list[Die]:
    dice: list[Die] = []
    for f in side.fighters:
        dice += dice_of(f, first_strike, split.get(f.key))
        for index, extra in extras_of(f, first_strike):
            dice += extra_dice(f, extra, _extra_count(fight, f, index, extra))
    # a stable order, as the question lists them: by kind of attack, then value
    return sorted(dice, key=lambda d: (d.attack, d.value, d.macro, d.fire))


def _groups(dice: Sequence[Die]) -> list[tuple[int, Die]]:
    out: list[tuple[int, Die]] = []
    for d in dice:
        if out and (out[-1][1].value, out[-1][1].attack, out[-1][1].macro, out[-1][1].fire) \
                == (d.value, d.attack, d.macro, d.fire):
            out[-1] = (out[-1][0] + 1, out[-1][1])
        else:
            out.append((1, d))
    return out


def _group_text(count: int, d: Die) -> Msg:
    return Msg.of("epic.assault.dice.group", count=count, value=d.value,
                  attack=Msg.of(f"epic.assault.attack_short.{d.attack}"),
                  macro=Msg.of("epic.assault.dice.macro") if d.macro else "")


def _roll_attacks(fight: Fight, side: SideState, dice: list[Die], phase: str,
                  facts: Any, supporter: str | None = None) -> list[Hit]:
    """E-A4: one die per attack, a hit on its value or more, no modifier. One question for
    the side's dice, listed by kind and value (typed in that order)."""
    if not dice:
        return []
    groups = _groups(dice)
    qid = f"assault.{fight.round}.{side.side}" + ("" if phase == "normal" else f".{phase}")
    listed: Msg | str = listing([_group_text(n, d) for n, d in groups])
    roll = fight.port.ask(DiceQuestion(
        answered_by=ATTACKER if side.side == "attacker" else DEFENDER,
        id=qid, clause="E-A4", spec=DiceSpec(count=len(dice)),
        text=Msg.of("epic.assault.q.attack", side=_names(side), dice=listed)
        if supporter is None else Msg.of("epic.assault.q.support_attack", name=supporter,
                                         dice=listed),
        odds=OddsRef.to("referee.rulesets.epic.assault_odds:attack_dice",
                        side=side.side, targets=tuple(d.value for d in dice), facts=facts)))
    faces = roll.faces or ()
    hits: list[Hit] = []
    at = 0
    cells = []
    for count, d in groups:
        got = sum(1 for face in faces[at:at + count] if face >= d.value)
        cells.append((count, d, faces[at:at + count], got))
        at += count
        label = Msg.of(f"epic.assault.attack.{d.attack}")
        hits += [Hit(HitKind(d.fire), label)] * got
    fight.log.roll(Msg.of("epic.assault.step.attack", side=_names(side), dice=listed,
                          faces=dice_text(roll), hits=len(hits)), "E-A4", question=qid,
                   faces=faces, hits=len(hits))
    for count, d, shown_faces, got in cells:
        fight.rows.append((fight.round, Msg.of(f"epic.assault.side.{side.side}"),
                           Msg.of(f"epic.assault.phase.{phase}"),
                           Msg.of(f"epic.assault.attack.{d.attack}"),
                           Shown(d.value, f"{d.value}+"),
                           Shown(d.macro, Msg.of("word.yes" if d.macro else "word.no")),
                           count, Shown(list(shown_faces), " ".join(map(str, shown_faces))
                                        or "-"), got))
    return hits


def _take_hits(fight: Fight, side: SideState, hits: list[Hit], phase: str,
               only: Sequence[Fighter] | None = None) -> None:
    """E-A5: the side allocates the hits on its own units (normal hits, then macro-weapon
    hits, E-12) to units directly engaged, and saves; war engines take damage (E-W1)."""
    if not hits:
        return
    for part, part_hits in (("normal", [h for h in hits if not h.kind.macro]),
                            ("mw", [h for h in hits if h.kind.macro])):
        if not part_hits:
            continue
        alive = [f for f in (only if only is not None else side.fighters) if not f.dead]
        units = [f.defender() for f in alive]
        stage = f"assault.{fight.round}.{side.side}.{phase}" + ("" if part == "normal"
                                                                  else ".mw")
        alloc: Allocation = allocate(_owner(fight, side), fight.log, units, part_hits, stage,
                                     fight.options)
        shielded = _void_shields(fight, alive, alloc)
        report = roll_saves(_owner(fight, side), fight.log, units, shielded, stage, False)
        if report.rows:
            fight.log.table(Msg.of("epic.assault.table.saves", side=_names(side),
                                   round=fight.round),
                            [Msg.of(f"epic.col.{c}") for c in ("unit", "hits", "save", "dice",
                                                               "result", "clause")],
                            report.rows, clause="E-A5")
        for f in alive:
            failed = report.failed.get(f.key, 0)
            if failed:
                _wound(fight, side, f, failed, "E-A5")


def _owner(fight: Fight, side: SideState) -> Port:
    """The port that asks the questions of hits on ``side``'s units of their owner: the
    allocation and saves, tagged as the defender's (the side that was hit), are the
    attacker's when the assaulting formation was hit."""
    return fight.port if side.side == "defender" else Mirrored(fight.port)


def _void_shields(fight: Fight, alive: Sequence[Fighter], alloc: Allocation) -> Allocation:
    """E-W9: hits on a war engine with shields up are stopped one by one (no save, no
    marker), close combat hits aside, which ignore the shields."""
    out = Allocation(dict(alloc.hits_on), alloc.rows, alloc.wasted, alloc.allocated)
    for f in alive:
        if not f.war_engine or not f.shields_up or f.key not in out.hits_on:
            continue
        held = out.hits_on[f.key]
        stopped = 0
        kept: list[Hit] = []
        for h in held:
            if h.kind.fire != "we-cc" and not _close_combat(h) and stopped < f.shields_up:
                stopped += 1
            else:
                kept.append(h)
        if stopped:
            f.shields_down += stopped
            fight.log.outcome(Msg.of("epic.assault.step.shields", unit=f.shown,
                                     count=stopped, left=f.shields_up), "E-W9",
                              unit=f.key, stopped=stopped)
            out.hits_on[f.key] = kept
    return out


def _close_combat(hit: Hit) -> bool:
    return isinstance(hit.weapon, Msg) and hit.weapon.id == "epic.assault.attack.cc"


def _wound(fight: Fight, side: SideState, f: Fighter, points: int, clause: str) -> None:
    """A unit that failed ``points`` saves (or took hits with none): destroyed, or for a
    war engine that many points of damage (E-W1), with its critical hits (E-W4). Each
    point is a kill for the other side (E-A9, E-W11)."""
    if f.dead:
        return
    enemy = fight.sides[other(side.side)]
    if f.war_engine:
        done: Damage = apply_damage(fight.port, fight.log, f.key, f.shown, f.dc, f.damage,
                                    points, f"assault.{fight.round}.critical.{f.key}",
                                    name=f.unit.name,
                                    datasheet=fight.options.get("critical-hits-file") or None)
        f.damage = done.damage_after
        enemy.kills += done.points
        side.lost[f.formation] += done.points
        if done.destroyed:
            f.dead = True
            side.destroyed[f.formation].append(f.unit.name)
        return
    f.dead = True
    enemy.kills += 1
    if not f.unit.expendable:  # E-A18: counted for the result, no marker
        side.lost[f.formation] += 1
    side.destroyed[f.formation].append(f.unit.name)
    fight.log.outcome(Msg.of("epic.step.destroyed", unit=f.shown), clause, unit=f.key)


def _later_dice(side: SideState, split: dict[str, int | None]) -> list[Die]:
    """The dice a side rolls after the first strikes, as the odds before them know them:
    every other attack, its extra attacks of a fixed number too (E-A15; those of a roll are
    not rolled yet: left out)."""
    dice: list[Die] = []
    for f in side.fighters:
        dice += dice_of(f, False, split.get(f.key))
        for _, extra in extras_of(f, False):
            if isinstance(extra.count, int):
                dice += extra_dice(f, extra, extra.count)
    return dice


def fight_round(fight: Fight) -> None:
    """One round of attacks (E-A3 to E-A5, E-A15, E-A16): first strike dice of both sides,
    their casualties out before the rest attack; then every other die of both sides."""
    split = {f.key: _we_split(fight, f) for s in fight.sides.values() for f in s.fighters
             if not f.dead and f.engaged}
    for phase, first_strike in (("first-strike", True), ("normal", False)):
        pools = {s: _pool(fight, fight.sides[s], first_strike, split) for s in SIDES}
        if not any(pools.values()):
            continue
        if first_strike:
            fight.log.note(Msg.of("epic.assault.step.first_strike"), "E-A16")
        hits: dict[str, list[Hit]] = {}
        rolled: tuple[tuple[str, int, int], ...] = ()
        for s in SIDES:
            done = {r[0] for r in rolled}
            waiting = {k: pools[k] for k in SIDES if k not in done}
            if first_strike:  # the odds follow the fight on: every other die after these
                waiting = {k: [*(pools[k] if k not in done else ()),
                               *_later_dice(fight.sides[k], split)] for k in SIDES}
            hits[s] = _roll_attacks(fight, fight.sides[s], pools[s], phase,
                                    _facts(fight, waiting, rolled))
            rolled += ((s, sum(1 for h in hits[s] if not h.kind.macro),
                        sum(1 for h in hits[s] if h.kind.macro)),)
        for s in ("defender", "attacker"):  # simultaneous: each takes the other's hits
            _take_hits(fight, fight.sides[s], hits[other(s)], phase)


def early_end(fight: Fight) -> str | None:
    """E-A7: the defenders all destroyed with an attacker left: the attacker wins; every
    attacking unit that was engaged destroyed: stalled, the defender wins."""
    attacker, defender = fight.sides["attacker"], fight.sides["defender"]
    if not defender.alive() and attacker.alive():
        fight.log.outcome(Msg.of("epic.assault.step.wiped", defender=_names(defender)),
                          "E-A7")
        return "attacker"
    if not [f for f in attacker.fighters if f.engaged and not f.dead]:
        fight.log.outcome(Msg.of("epic.assault.step.stalled", attacker=_names(attacker)),
                          "E-A7")
        return "defender"
    return None


# -- supporting fire -------------------------------------------------------------------------
def supporting_fire(fight: Fight) -> None:
    """E-A8: formations of either side within 15 cm of the fight may support with their
    firefight values; their hits go only to enemy units directly involved."""
    for side in SIDES:
        for support in fight.supports.get(side, []):
            if not support.units:
                continue
            if support.broken or support.marched:
                fight.log.note(Msg.of("epic.assault.step.support_refused", name=support.name),
                               "E-A8")
                continue
            key = support.name.casefold().replace(" ", "-")
            bring = fight.port.ask(ConfirmQuestion(
                answered_by=EITHER,
                id=f"assault.{fight.round}.support.{key}", clause="E-A8", default_value=True,
                whatif=True, text=Msg.of("epic.assault.q.bring", name=support.name)))
            if not bring:
                continue
            dice = [Die(support.name, u.ff, "assault", False, False, "ff")
                    for u in support.units for _ in range(u.count * (u.dc or 1))]
            hits = _roll_attacks(fight, fight.sides[side], dice, "support",
                                 _facts(fight, {}, ()), supporter=support.name)
            enemy = fight.sides[other(side)]
            _take_hits(fight, enemy, hits, "support", only=enemy.engaged())


# -- the result ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Totals:
    """One side's result roll (E-A9): the highest die and each modifier."""

    die: int
    kills: int
    more: int
    twice: int
    no_markers: int
    fewer_markers: int
    inspiring: int

    @property
    def total(self) -> int:
        return (self.die + self.kills + self.more + self.twice + self.no_markers
                + self.fewer_markers + self.inspiring)


def modifiers(fight: Fight, side: str, die: int) -> Totals:
    me, them = fight.sides[side], fight.sides[other(side)]
    mine, theirs = me.worth(), them.worth()
    markers, their_markers = me.markers(), them.markers()
    return Totals(die, me.kills, int(mine > theirs), int(mine > 2 * theirs),
                  int(markers == 0), int(their_markers > markers), me.inspiring())


def result_roll(fight: Fight) -> str | None:
    """E-A9, E-A10: each side two dice, the higher kept, plus its modifiers; the higher
    total wins (``None``: a tie, fought again)."""
    totals: dict[str, Totals] = {}
    for side in SIDES:
        qid = f"assault.{fight.round}.result.{side}"
        roll = fight.port.ask(DiceQuestion(
            answered_by=ATTACKER if side == "attacker" else DEFENDER,
            id=qid, clause="E-A9", spec=DiceSpec(count=2),
            text=Msg.of("epic.assault.q.result", side=_names(fight.sides[side])),
            odds=OddsRef.to("referee.rulesets.epic.assault_odds:result_die", side=side,
                            known=tuple((s, t.die) for s, t in totals.items()),
                            facts=_result_facts(fight),
                            names={s: _names(fight.sides[s]) for s in SIDES})))
        die = max(roll.faces or (1,))
        totals[side] = modifiers(fight, side, die)
        fight.log.roll(Msg.of("epic.assault.step.result_die", side=_names(fight.sides[side]),
                              faces=dice_text(roll), die=die), "E-A9", question=qid,
                       faces=roll.faces, die=die)
    rows = []
    for key in ("die", "kills", "more", "twice", "no_markers", "fewer_markers", "inspiring",
                "total"):
        rows.append((Msg.of(f"epic.assault.mod.{key}"),
                     *(getattr(totals[s], key) for s in SIDES)))
    fight.log.table(Msg.of("epic.assault.table.result", round=fight.round),
                    [Msg.of("epic.assault.col.modifier"),
                     *(Msg.of(f"epic.assault.side.{s}") for s in SIDES)], rows, clause="E-A9")
    a, d = totals["attacker"].total, totals["defender"].total
    fight.margin = abs(a - d)
    if a == d:
        fight.log.outcome(Msg.of("epic.assault.step.tie", total=a), "E-A10", total=a)
        return None
    winner = "attacker" if a > d else "defender"
    fight.log.outcome(Msg.of("epic.assault.step.winner", side=_names(fight.sides[winner]),
                             won=max(a, d), lost=min(a, d)), "E-A9", attacker=a, defender=d,
                      winner=winner)
    return winner


def _result_facts(fight: Fight) -> tuple[Any, ...]:
    """What the result roll's odds need: each side's modifiers but the die."""
    return tuple((s, modifiers(fight, s, 0).total) for s in SIDES)


# -- the end ---------------------------------------------------------------------------------
def loser_withdraws(fight: Fight, loser: str, margin: int) -> None:
    """E-A11, E-A13, E-A17: the loser's extra hits (no save, front to back, any unit but
    fearless ones), the formation broken (destroyed if it was broken already), its
    withdrawal's losses (an input), and a Blast marker on each other formation of its side
    that could have supported."""
    side = fight.sides[loser]
    for fs in side.formations:
        if side.broken_at_start[fs.name]:
            for f in side.fighters:
                if f.formation == fs.name and not f.dead and not f.unit.fearless:
                    f.dead = True
                    side.destroyed[fs.name].append(f.unit.name)
                    fight.log.outcome(Msg.of("epic.assault.step.destroyed_broken", unit=f.shown),
                                      "E-A11", unit=f.key)
    if margin:
        fight.log.note(Msg.of("epic.assault.step.extra_hits", side=_names(side), count=margin),
                       "E-A11", hits=margin)
        alive = [f for f in side.fighters if not f.dead]
        targets = [f.extra_hit_target() for f in alive]
        if fight.options.get("assault-extra-hits") == "engaged-only":  # E-X11
            targets = [t for t, f in zip(targets, alive, strict=True) if f.engaged]
        alloc = allocate(_owner(fight, side), fight.log, targets,
                         [Hit(HitKind("extra"), "-")] * margin, "assault.loser", fight.options)
        if alloc.rows:
            fight.log.table(Msg.of("epic.assault.table.extra_hits", side=_names(side)),
                            [Msg.of(f"epic.col.{c}") for c in ("hit", "fire", "weapon", "unit",
                                                               "why", "clause")],
                            alloc.rows, clause="E-A11")
        for f in alive:
            taken = len(alloc.hits_on.get(f.key, []))
            if taken:
                _wound(fight, side, f, taken, "E-A11")
    for fs in side.formations:
        fs.broken = True
        fight.log.outcome(Msg.of("epic.assault.step.loser_broken", formation=fs.shown),
                          "E-A11")
    survivors = [f for f in side.fighters if not f.dead]
    if survivors:
        lost = fight.port.ask(MultiChoiceQuestion(
            answered_by=EITHER, id="assault.withdrawal", clause="E-A11", default_values=(),
            text=Msg.of("epic.assault.q.withdrawal", side=_names(side)),
            choices=tuple(Choice(f.key, f.shown) for f in survivors)))
        for f in survivors:
            if f.key in lost:
                f.dead = True
                side.destroyed[f.formation].append(f.unit.name)
                fight.log.outcome(Msg.of("epic.assault.step.withdrawal_lost", unit=f.shown),
                                  "E-A11", unit=f.key)
    for name in fight.nearby.get(loser, []):
        fight.log.outcome(Msg.of("epic.assault.step.nearby_marker", formation=name), "E-A11",
                          formation=name)


def winner_markers(fight: Fight, winner: str) -> None:
    """E-A12, E-A13: the winner's formations each take a Blast marker per unit they lost
    (none if broken before the assault), then the break check."""
    side = fight.sides[winner]
    for fs in side.formations:
        lost = side.lost[fs.name]
        if side.broken_at_start[fs.name]:
            fight.log.outcome(Msg.of("epic.assault.step.broken_winner", formation=fs.shown),
                              "E-A13")
            continue
        if lost:
            fs.blast_markers += lost
            fight.log.outcome(Msg.of("epic.assault.step.winner_markers", formation=fs.shown,
                                     count=lost, total=fs.blast_markers), "E-A12",
                              markers=fs.blast_markers)
        left = sum(f.worth for f in side.fighters if f.formation == fs.name)
        if left and fs.blast_markers >= left:
            fs.broken = True
        fight.log.outcome(Msg.of("epic.step.break_check", target=fs.shown,
                                 markers=fs.blast_markers, units=left,
                                 result=Msg.of("epic.state.broken" if fs.broken else
                                               "epic.state.destroyed" if not left else
                                               "epic.state.steady")), "E-A12",
                          markers=fs.blast_markers, units=left, broken=fs.broken)


# -- the whole assault -------------------------------------------------------------------------
def _facts(fight: Fight, pools: dict[str, list[Die]],
           rolled: tuple[tuple[str, int, int], ...]) -> Any:
    """What the odds of a roll know (plain values: nothing is computed unless shown)."""
    from referee.rulesets.epic.assault_facts import snapshot

    supports = {s: [(u.count * (u.dc or 1), u.ff) for sup in fight.supports.get(s, [])
                    if not (sup.broken or sup.marched) for u in sup.units] for s in SIDES}
    first_strike = any(d.first_strike for p in pools.values() for d in p)
    facts = snapshot(fight.sides, pools, supports,
                     {s: fight.sides[s].kills for s in SIDES}, rolled, first_strike)
    return facts, {s: _names(fight.sides[s]) for s in SIDES}


def _stand_again(fight: Fight) -> None:
    """E-A10: before another round both sides may counter-charge (the attacker first): each
    side says whether its survivors stand as before, else where they stand now."""
    for side in SIDES:
        s = fight.sides[side]
        if not s.alive():
            continue
        same = fight.port.ask(ConfirmQuestion(
            answered_by=EITHER,
            id=f"assault.{fight.round}.{side}.as-before", clause="E-A10", default_value=True,
            text=Msg.of("epic.assault.q.as_before", side=_names(s))))
        if not same:
            ask_where(fight.port, s.alive(), f"assault.{fight.round}.{side}.where", _names(s))


def attack(ctx: AttackContext, decl: AssaultDeclaration, log: StepLog) -> Result:
    """E-A1 to E-A18: the assault from its declaration (built at the table or given)."""
    fight = prepare(ctx, decl, log)
    if fight is None:
        return _result(ctx, log, None, Msg.of("epic.assault.outcome.none"), {})
    if decl.support is not None:  # declared: the formations within 15 cm, supporting or not
        for sup in decl.support:
            fight.supports.setdefault(sup.side, []).append(sup)
            fight.nearby.setdefault(sup.side, []).append(sup.name)
    winner: str | None = None
    margin = 0
    asked_nearby = decl.support is not None
    for number in range(1, MAX_ROUNDS + 1):
        fight.round = number
        if number > 1:
            _stand_again(fight)
        fight_round(fight)
        if not asked_nearby:
            for sup in ask_nearby(fight.port, ctx.state):
                fight.nearby.setdefault(sup.side, []).append(sup.name)
                fight.supports.setdefault(sup.side, []).append(sup)
            asked_nearby = True
        winner = early_end(fight)
        if winner is not None:
            break
        supporting_fire(fight)
        winner = _wiped(fight)
        if winner is None:
            winner = result_roll(fight)
            margin = fight.margin
        if winner is not None:
            break
    if fight.rows:
        log.table(Msg.of("epic.assault.table.attacks"),
                  [Msg.of(f"epic.assault.col.{c}") for c in
                   ("round", "side", "phase", "attack", "value", "macro", "dice", "faces",
                    "hits")], fight.rows, clause="E-A4")
    if winner is None:  # E-X12: still tied after the safety stop
        log.warning(Msg.of("epic.assault.step.rounds_out", rounds=MAX_ROUNDS), "E-X12")
        return _result(ctx, log, fight, Msg.of("epic.assault.outcome.unresolved"), {})
    loser = other(winner)
    loser_withdraws(fight, loser, margin)
    winner_markers(fight, winner)
    return _finish(ctx, log, fight, winner, margin)


def _wiped(fight: Fight) -> str | None:
    """E-A9: a side with no unit left loses without a roll."""
    a, d = fight.sides["attacker"].alive(), fight.sides["defender"].alive()
    if a and not d:
        fight.log.outcome(Msg.of("epic.assault.step.wiped", defender=_names(
            fight.sides["defender"])), "E-A9")
        return "attacker"
    if d and not a:
        fight.log.outcome(Msg.of("epic.assault.step.wiped", defender=_names(
            fight.sides["attacker"])), "E-A9")
        return "defender"
    return None


def _finish(ctx: AttackContext, log: StepLog, fight: Fight, winner: str,
            margin: int) -> Result:
    states: dict[str, Any] = {}
    data: dict[str, Any] = {"assault": True, "winner": winner, "margin": margin,
                            "rounds": fight.round, "formations": {}}
    for side in SIDES:
        s = fight.sides[side]
        data[f"kills_by_{side}"] = s.kills
        for fs in s.formations:
            fs.destroyed = fs.destroyed + s.destroyed[fs.name]
            fs.damage = {**fs.damage, **{f.unit.key: f.damage for f in s.fighters
                                         if f.formation == fs.name and f.war_engine
                                         and not f.dead}}
            fs.shields_down = {**fs.shields_down,
                               **{f.unit.key: f.shields_down for f in s.fighters
                                  if f.formation == fs.name and f.war_engine and not f.dead}}
            left = sum(f.worth for f in s.fighters if f.formation == fs.name)
            states[fs.name] = fs.to_state()
            data["formations"][fs.name] = {
                "side": side, "destroyed": list(s.destroyed[fs.name]),
                "blast_markers": fs.blast_markers, "broken": fs.broken, "units_left": left}
    loser = fight.sides[other(winner)]
    for name in fight.nearby.get(loser.side, []):
        saved = dict(ctx.state.get("formations", {}).get(name, {}))
        if saved:  # the game file knows it: one more Blast marker (E-A11)
            saved["blast_markers"] = int(saved.get("blast_markers", 0)) + 1
            states[name] = saved
    lost = {s: sum(len(v) for v in fight.sides[s].destroyed.values()) for s in SIDES}
    outcome = Msg.of("epic.assault.outcome.won", winner=_names(fight.sides[winner]),
                     loser=_names(loser), margin=margin, lost_a=lost["attacker"],
                     lost_d=lost["defender"],
                     state=Msg.of("epic.state.broken" if loser.alive() else
                                  "epic.state.destroyed"))
    return _result(ctx, log, fight, outcome, states, data)


def _result(ctx: AttackContext, log: StepLog, fight: Fight | None, outcome: Msg,
            states: dict[str, Any], data: dict[str, Any] | None = None) -> Result:
    updates: dict[str, Any] = {}
    if states:
        formations = dict(ctx.state.get("formations", {}))
        formations.update(states)
        updates = {"formations": formations}
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data=data or {"assault": fight is not None, "winner": None},
                  options=dict(ctx.options.values),
                  non_default_options=ctx.options.non_default, state_updates=updates)
