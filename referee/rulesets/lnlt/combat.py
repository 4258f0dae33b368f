"""Fire combat (brief section 3): the opposed roll and the damage checks.

Attack = 1d6 + FP + LM + DFT modifiers; defence = 1d6 + terrain modifier (+ the lowest armour
factor of the vehicles hit). If the attack is higher, every unit in the target hex takes a
damage check, leaders first: 1d6 + (attack - defence) - the LM of a GO leader of the hex
(leg units, not his own). The DFT modifiers, the terrain modifier and the Damage Check Table
are not public (decision 3): the first two are asked, the result is asked or read from the
table the players supplied.

Every die names its odds (``referee.rulesets.lnlt.odds``) with the facts the resolver holds at
that moment: the modifiers, the margin, the leader help, the target units in damage-check
order with the bands of the players' table. Those facts are plain values, so the odds code
(and its dice library) loads only when odds are shown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.core.charts import ChartKey, Charts
from referee.core.dice import DiceRoll, DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import (
    ATTACKER,
    EITHER,
    Answerer,
    Choice,
    ChoiceQuestion,
    DiceQuestion,
    NumberQuestion,
    other_player,
)
from referee.core.result import StepLog
from referee.core.table import NOTHING, Shown, as_signed
from referee.core.text import Msg
from referee.rulesets.lnlt.firepower import FpBuild
from referee.rulesets.lnlt.line import DRM_RANGE, TM_RANGE, Mods, ModsQuestion
from referee.rulesets.lnlt.roster import DamageTable, Unit
from referee.rulesets.lnlt.tables import tables


@dataclass(frozen=True)
class LeaderHelp:
    lm: int
    leader: str | None


@dataclass
class FireOutcome:
    attack: int
    defence: int
    effect: bool
    results: dict[str, str] = field(default_factory=dict)
    heroes: list[Unit] = field(default_factory=list)  # spawned by the damage checks


ODDS = "referee.rulesets.lnlt.odds"


@dataclass(frozen=True)
class TargetFacts:
    """What the odds need of one target unit, as the resolver sees it before the fire.

    ``helps``: the LM of a leader in Good Order, who helps the others after his own check
    if he stays in Good Order (0: not such a leader); ``bands``: (lowest DC total, result)
    rows of the players' table for this unit, in the table's order (None: the result is
    asked, so its odds are not known); ``missing``: why they are None ('table': no table
    given, 'rows': the table has no rows for this kind of unit, 'morale': an over-morale
    table and the unit has no morale)."""

    id: str
    label: str
    leg: bool
    mmc: bool
    helps: int
    bands: tuple[tuple[int, str], ...] | None
    missing: str = ""


def target_facts(units: list[Unit], table: DamageTable | None) -> tuple[TargetFacts, ...]:
    """The facts of each target; a name two targets share gets the unit's id after it, so
    that each unit's odds read apart (and a what-if, which pairs them by label, pairs the
    right ones)."""
    out = []
    names = Counter(u.label for u in units)
    for u in units:
        label = u.label if names[u.label] == 1 else f"{u.label} ({u.id})"
        bands: tuple[tuple[int, str], ...] | None = None
        rows = (table.vehicle if u.kind == "vehicle" else table.leg) if table else []
        missing = "table" if table is None else "rows" if not rows else ""
        if table is not None and rows:
            shift = 0 if table.compare == "total" else u.morale
            if shift is not None:
                bands = tuple((b.at_least + shift, b.result) for b in rows)
            else:
                missing = "morale"
        out.append(TargetFacts(u.id, label, u.leg, u.kind == "mmc",
                               u.lm if u.leader and u.good_order else 0, bands, missing))
    return tuple(out)


def _modifiers(port: Port, log: StepLog, prefix: str, target_hex: str, compact: bool,
               tm_known: int | None, clause: str) -> tuple[int, int]:
    """The DFT modifiers (DRM) and the target hex's terrain modifier (TM): the TM from the
    roster's terrain where it says (only the DRM is asked), else both in one line (compact)
    or one question each (as scripts written before answer them)."""
    if tm_known is not None:
        log.input(Msg.of("lnlt.step.tm_roster", hex=target_hex, tm=f"{tm_known:+d}"), clause,
                  tm=tm_known)
        drm = port.ask(NumberQuestion(id=f"{prefix}.drm", text=Msg.of("lnlt.q.drm"),
                                      minimum=DRM_RANGE[0], maximum=DRM_RANGE[1],
                                      default_value=0, clause="L-5", answered_by=EITHER))
        return int(drm), tm_known
    if compact:
        mods: Mods = port.ask(ModsQuestion(
            id=f"{prefix}.mods", text=Msg.of("lnlt.q.mods", hex=target_hex),
            hint_msg=Msg.of("lnlt.hint.mods"), default_value="0 0", clause="L-5",
            answered_by=EITHER))
        return mods.drm, mods.tm
    drm = port.ask(NumberQuestion(id=f"{prefix}.drm", text=Msg.of("lnlt.q.drm"),
                                  minimum=DRM_RANGE[0], maximum=DRM_RANGE[1], default_value=0,
                                  clause="L-5", answered_by=EITHER))
    tm = port.ask(NumberQuestion(id=f"{prefix}.tm", text=Msg.of("lnlt.q.tm", hex=target_hex),
                                 minimum=TM_RANGE[0], maximum=TM_RANGE[1], default_value=0,
                                 clause="L-5", answered_by=EITHER))
    return int(drm), int(tm)


def _die(port: Port, qid: str, text: Msg, clause: str, odds: OddsRef,
         by: Answerer) -> DiceRoll:
    return port.ask(DiceQuestion(id=qid, text=text, spec=DiceSpec(count=1), clause=clause,
                                 odds=odds, answered_by=by))


def _face(roll: DiceRoll) -> int:
    assert roll.faces is not None
    return roll.faces[0]


def damage_order(targets: list[Unit]) -> list[Unit]:
    """Leaders first (the best LM first), then the others in roster order."""
    leaders = sorted((u for u in targets if u.leader and u.leg), key=lambda u: -u.lm)
    return leaders + [u for u in targets if u not in leaders]


def resolve_fire(port: Port, log: StepLog, prefix: str, *, firing: str, target_hex: str,
                 build: FpBuild, help: LeaderHelp, targets: list[Unit],
                 table: DamageTable | None, clause: str,
                 roster_ids: frozenset[str] = frozenset(), compact: bool = False,
                 tm_known: int | None = None, charts: Charts | None = None,
                 firer: Answerer = ATTACKER) -> FireOutcome:
    """The opposed roll and the damage checks; ``roster_ids``: the ids already in use, so
    that a Hero spawned here gets a new one. ``compact`` (an activation begun with "Fire
    from ..."): the DRM and TM in one line, both dice of the opposed roll in one answer;
    ``tm_known``: the TM the roster's terrain gives the target hex (then not asked);
    ``charts``: the Damage Check results read off the players' chart so far (the game's and
    this impulse's: a result is asked once for the same reading); ``firer``: who rolls the
    attack die (an Op Fire's is the defender of the impulse), the other player rolls the
    defence die and the damage checks of his units."""
    target_owner = other_player(firer)
    t = tables()
    charts = charts if charts is not None else Charts()
    drm, tm = _modifiers(port, log, prefix, target_hex, compact, tm_known, clause)
    armour = [u.armor for u in targets if u.kind == "vehicle" and u.armor is not None]
    af = min(armour) if armour else 0
    order = damage_order(targets)
    facts = target_facts(order, table)
    if compact:  # the opposed roll in one answer: the attacker's die, then the defender's
        both = port.ask(DiceQuestion(
            id=f"{prefix}.opposed", spec=DiceSpec(count=2), clause=clause,
            text=Msg.of("lnlt.q.opposed", firing=firing, hex=target_hex),
            hint_msg=Msg.of("lnlt.hint.opposed"), answered_by=EITHER,  # both players' dice
            odds=OddsRef.to(f"{ODDS}:opposed_odds", firing=firing, hex=target_hex,
                            fp=build.total, lm=help.lm, drm=drm, tm=tm, af=af,
                            targets=facts)))
        assert both.faces is not None
        die_a, die_d = both.faces
        attack = die_a + build.total + help.lm + drm
    else:
        a_roll = _die(port, f"{prefix}.attack", Msg.of("lnlt.q.attack_die", firing=firing),
                      clause, OddsRef.to(f"{ODDS}:attack_odds", firing=firing, hex=target_hex,
                                         fp=build.total, lm=help.lm, drm=drm, tm=tm, af=af,
                                         targets=facts), firer)
        die_a = _face(a_roll)
        attack = die_a + build.total + help.lm + drm
        d_roll = _die(port, f"{prefix}.defence", Msg.of("lnlt.q.defence_die", hex=target_hex),
                      clause, OddsRef.to(f"{ODDS}:defence_odds", hex=target_hex,
                                         attack=attack, tm=tm, af=af, targets=facts),
                      target_owner)
        die_d = _face(d_roll)
    defence = die_d + tm + af
    rows: list[tuple[object, ...]] = [
        (Msg.of("lnlt.col.attack"), die_a, build.total, help.lm,
         Shown({"drm": drm}, f"{drm:+d}"), attack),
        (Msg.of("lnlt.col.defence"), die_d, NOTHING, NOTHING,
         Shown({"tm": tm, "af": af},
               Msg.of("lnlt.opposed.defence_mods", tm=f"{tm:+d}", af=f"{af:+d}")), defence)]
    log.table(Msg.of("lnlt.table.opposed", firing=firing, hex=target_hex),
              [Msg.of(f"lnlt.col.{c}") for c in ("side", "die", "fp", "lm", "mods", "total")],
              rows, clause="L-5")
    log.roll(Msg.of("lnlt.step.opposed", attack=attack, defence=defence, die_a=die_a,
                    fp=build.total, lm=help.lm, drm=f"{drm:+d}", die_d=die_d,
                    tm=f"{tm:+d}", af=f"{af:+d}"), clause, attack=attack, defence=defence)
    if attack <= defence:
        log.outcome(Msg.of("lnlt.step.no_effect", attack=attack, defence=defence), clause)
        return FireOutcome(attack, defence, False)
    diff = attack - defence
    outcome = FireOutcome(attack, defence, True)
    dc_rows: list[tuple[object, ...]] = []
    helper: Unit | None = None
    for i, unit in enumerate(order):
        minus = 0
        if unit.leg and helper is not None and helper is not unit:
            minus = helper.lm
        roll = _die(port, f"{prefix}.dc.{unit.id}", Msg.of("lnlt.q.dc_die", unit=unit.label),
                    clause, OddsRef.to(f"{ODDS}:dc_odds", diff=diff, minus=minus,
                                       helper=helper.lm if helper else 0, targets=facts[i:],
                                       helped_by=helper.label if minus and helper else ""),
                    target_owner)
        total = _face(roll) + diff - minus
        result, source = _result(port, prefix, unit, total, table, charts)  # read: either
        outcome.results[unit.id] = result
        dc_rows.append((unit.label, _face(roll), as_signed(diff),
                        Shown({"minus": minus, "leader": helper.label},
                              f"-{minus} ({helper.label})") if minus and helper else NOTHING,
                        total, Msg.of(f"lnlt.result.{result}"), source))
        log.roll(Msg.of("lnlt.step.dc", unit=unit.label, total=total, result=Msg.of(
            f"lnlt.result.{result}")), clause, unit=unit.id, total=total, result=result)
        if unit.kind == "mmc" and _face(roll) == 1:
            hero = _die(port, f"{prefix}.hero.{unit.id}", Msg.of("lnlt.q.hero", unit=unit.label),
                        clause, OddsRef.to(f"{ODDS}:hero_odds", unit=unit.label), target_owner)
            if _face(hero) % 2 == 0:
                taken = roster_ids | {u.id for u in (*targets, *outcome.heroes)}
                outcome.heroes.append(_spawn_hero(port, log, prefix, unit, taken, clause,
                                                  _face(hero), target_owner))
            else:
                log.note(Msg.of("lnlt.step.no_hero", unit=unit.label, face=_face(hero)),
                         clause)
        unit.status = _status(unit, result)
        if unit.leader and unit.good_order and (helper is None or unit.lm > helper.lm):
            helper = unit  # a leader helps the others only if he is still in Good Order
        if result in t.removes:
            log.outcome(Msg.of("lnlt.step.removed", unit=unit.label), clause)
    log.table(Msg.of("lnlt.table.dc", hex=target_hex),
              [Msg.of(f"lnlt.col.{c}") for c in ("unit", "die", "diff", "lm_help", "total",
                                                  "result", "read")],
              dc_rows, clause="L-5")
    return outcome


def _spawn_hero(port: Port, log: StepLog, prefix: str, unit: Unit, taken: frozenset[str],
                clause: str, face: int, owner: Answerer) -> Unit:
    """Brief section 3: an MMC's natural 1 on its damage check, then an even hero die: a
    Hero appears in the MMC's hex (whatever the check's result), on its side. His firepower
    is on the Hero counter the players draw (decision 3: asked, not invented); he joins the
    roster in Good Order, unmarked."""
    ifp = int(port.ask(NumberQuestion(
        id=f"{prefix}.hero.{unit.id}.ifp", minimum=0, maximum=20, default_value=0,
        clause=clause, answered_by=owner,  # the Hero counter his owner draws
        text=Msg.of("lnlt.q.hero_ifp", unit=unit.label, hex=unit.hex))))
    hero_id, n = f"hero-{unit.id}", 1
    while hero_id in taken:
        n += 1
        hero_id = f"hero-{unit.id}-{n}"
    hero = Unit(id=hero_id, side=unit.side, hex=unit.hex, kind="smc", ifp=ifp,
                position=unit.position, level=unit.level)
    log.outcome(Msg.of("lnlt.step.hero", unit=unit.label, face=face, hero=hero.label,
                       hex=unit.hex, ifp=ifp), clause, hero=hero.id, ifp=ifp)
    return hero


def dct_key(unit: Unit, total: int) -> ChartKey:
    """What the players' Damage Check Table reads for ``unit``: its kind, its morale (or a
    vehicle's armour) and the total; units alike in these read the same result."""
    value = unit.armor if unit.kind == "vehicle" else unit.morale
    return ChartKey("lnlt.dct", f"{unit.kind}/{value if value is not None else '-'}",
                    str(total))


def _result(port: Port, prefix: str, unit: Unit, total: int,
            table: DamageTable | None, charts: Charts) -> tuple[str, Msg]:
    t = tables()
    if table is not None:
        found = table.read(unit, total)
        if found is not None:
            return found, Msg.of("lnlt.read.table", source=table.source)
    names = t.vehicle_results if unit.kind == "vehicle" else t.leg_results
    answer = charts.ask(port, ChoiceQuestion(
        id=f"{prefix}.result.{unit.id}", text=Msg.of("lnlt.q.result", unit=unit.label,
                                                     total=total),
        choices=tuple(Choice(n, Msg.of(f"lnlt.result.{n}")) for n in names),
        default_value="no-effect", clause="L-5", help=Msg.of("lnlt.help.result"),
        answered_by=EITHER),  # read from the players' table
        dct_key(unit, total))
    return answer.value, answer.source or Msg.of("lnlt.read.asked")


def _status(unit: Unit, result: str) -> str:
    if result == "no-effect":
        return unit.status
    return result
