"""Allocating hits and rolling saves through the port (E-10 to E-13), and the Blast marker
ledger. The legal options come from ``allocation``; the save arithmetic from ``saves``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.errors import AnswerError
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import ATTACKER, DEFENDER, Choice, ChoiceQuestion, DiceQuestion
from referee.core.result import StepLog
from referee.core.table import NOTHING, Shown, as_signed, dice_text, dice_value
from referee.core.text import Msg
from referee.rulesets.epic.allocation import (
    HitKind,
    Target,
    eligible,
    forced_reason,
    legal_units,
    needs_order_choice,
    order_fire_types,
    refusal,
)
from referee.rulesets.epic.formations import Defender
from referee.rulesets.epic.saves import Save, save_for
from referee.rulesets.epic.tables import tables


@dataclass(frozen=True)
class Hit:
    kind: HitKind
    weapon: Msg | str  # the weapon as a player reads it
    disrupt: bool = False
    ignore_cover: bool = False
    titan_killer: str | None = None  # 1, d3, d6: a Titan killer's damage (E-W8)
    weight: int = 1  # hits it counts as in the even spread (a Titan killer on a war engine)


def _weapon_cell(hit: Hit) -> Any:
    """The weapon a hit came from, as the allocation table shows it (a broken formation's
    extra hit comes from none: ``-``)."""
    return NOTHING if hit.kind.fire == "extra" else hit.weapon


@dataclass(frozen=True, kw_only=True)
class AllocationQuestion(ChoiceQuestion):
    """A choice among the legal units only; naming a unit that is not legal is refused with
    the clause it breaks (E-10), not just "not one of the choices"."""

    refusals: tuple[tuple[str, str, Msg], ...] = ()  # (key, name, reason)

    def accept(self, raw: Any) -> str:
        try:
            return super().accept(raw)
        except AnswerError:
            if isinstance(raw, str):
                folded = raw.strip().casefold()
                for key, name, reason in self.refusals:
                    if folded in (key.casefold(), name.casefold()):
                        raise AnswerError(reason) from None
            raise


@dataclass
class Allocation:
    hits_on: dict[str, list[Hit]] = field(default_factory=dict)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    wasted: int = 0
    allocated: list[tuple[str, str]] = field(default_factory=list)  # (fire, unit key) in order


def _label(u: Target, held: int) -> Msg:
    return Msg.of("epic.choice.unit", unit=u.shown, type=u.type, distance=f"{u.distance:g}",
                  held=held)


def allocate(port: Port, log: StepLog, units: Sequence[Defender], hits: Sequence[Hit],
             phase: str, options: dict[str, Any], numbered_from: int = 0,
             taken_before: dict[str, int] | None = None) -> Allocation:
    """Allocate ``hits`` one at a time, asking whoever allocates when the rules leave a choice
    (E-10; E-X2 who; E-X6 ties; E-X7 the order of AP and AT hits in a mixed formation)."""
    out = Allocation()
    targets = [d.target for d in units]
    kinds = list(dict.fromkeys(h.kind for h in hits))
    ordered = order_fire_types(targets, kinds)
    if (options.get("mixed-allocation") == "ask-defender"
            and needs_order_choice(targets, kinds)):
        first = port.ask(ChoiceQuestion(
            id=f"allocate.{phase}.order", clause="E-X7", default_value="at", whatif=True,
            answered_by=DEFENDER,  # E-X7: the defender is asked
            text=Msg.of("epic.q.allocation_order"),
            choices=(Choice("at", Msg.of("epic.choice.at_first")),
                     Choice("ap", Msg.of("epic.choice.ap_first")))))
        ordered.sort(key=lambda k: 0 if k.fire == first else 1)
        log.input(Msg.of("epic.step.allocation_order", fire=Msg.of(f"epic.fire.{first}")),
                  "E-X7", first=first)
    elif (options.get("mixed-allocation") != "ask-defender"
          and needs_order_choice(targets, kinds)):
        # E-X7 house rule, only where the rules leave the order open (INF, LV and AV all
        # present): AT hits to the light vehicles first
        ordered.sort(key=lambda k: 0 if k.fire == "at" else 1)
    who = Msg.of(f"epic.who.{options.get('allocation-by', 'defender')}")
    allocator = ATTACKER if options.get("allocation-by") == "attacker" else DEFENDER
    taken: dict[str, int] = dict(taken_before or {})
    n = numbered_from  # hit numbers run on across the phases of one attack
    for kind in ordered:
        pool = eligible(targets, kind)  # the units this kind of hit can reach at all
        for hit in (h for h in hits if h.kind == kind):
            n += 1
            legal = legal_units(targets, kind, taken, str(options.get("allocation-tie")),
                                pool)
            fire = Msg.of(f"epic.fire.{kind.fire}")
            if not legal:
                out.wasted += 1
                out.rows.append((n, fire, _weapon_cell(hit), NOTHING,
                                 Msg.of("epic.why.no_target"), "E-10"))
                continue
            alike = len(legal) > 1 and _all_alike(units, legal, out.hits_on)
            if len(legal) == 1:
                chosen = legal[0]
                why = forced_reason(targets, kind, taken, chosen, pool)
            elif alike:  # E-X6: nothing tells them apart, so there is nothing to choose
                chosen = legal[0]
                why = Msg.of("epic.why.alike", count=len(legal))
            else:
                others = [u for u in targets if u not in legal]
                value = port.ask(AllocationQuestion(
                    id=f"allocate.{phase}.{n}", clause="E-10", default_value=legal[0].key,
                    whatif=True, answered_by=allocator,  # E-10, E-X2: who allocates
                    text=Msg.of("epic.q.allocate", n=n, fire=fire, who=who),
                    choices=tuple(Choice(u.key, _label(u, taken.get(u.key, 0)))
                                  for u in legal),
                    refusals=tuple((u.key, u.name, reason) for u in others
                                   if (reason := refusal(targets, kind, taken, u)))))
                chosen = next(u for u in legal if u.key == value)
                why = Msg.of("epic.why.chosen", who=who, count=len(legal))
            if hit.titan_killer is not None and chosen.share > 1:  # E-W8: its damage now
                hit = replace(hit, weight=_titan_killer(port, log, hit, chosen, phase, n))
            taken[chosen.key] = taken.get(chosen.key, 0) + hit.weight
            out.hits_on.setdefault(chosen.key, []).append(hit)
            out.allocated.append((kind.fire, chosen.key))
            out.rows.append((n, fire, _weapon_cell(hit), chosen.shown, why,
                             "E-12" if kind.macro else "E-10"))
    if out.wasted:
        log.outcome(Msg.of("epic.step.wasted", count=out.wasted), "E-10", wasted=out.wasted)
    return out


def _titan_killer(port: Port, log: StepLog, hit: Hit, unit: Target, phase: str,
                  n: int) -> int:
    """E-W8: a Titan killer hit on a war engine does the damage of its dice, rolled when it
    is allocated (one point without dice); it counts as that many hits for the spread."""
    roll_of = hit.titan_killer or "1"
    if roll_of == "1":
        return 1
    roll = port.ask(DiceQuestion(
        id=f"titan-killer.{phase}.{n}", clause="E-W8", spec=DiceSpec(count=1),
        text=Msg.of("epic.we.q.titan_killer", unit=unit.shown, roll=roll_of.upper())))
    face = roll.faces[0] if roll.faces else 1
    points = (face + 1) // 2 if roll_of == "d3" else face
    log.roll(Msg.of("epic.we.step.titan_killer", unit=unit.shown, roll=roll_of.upper(),
                    faces=dice_text(roll), points=points), "E-W8", faces=roll.faces,
             points=points)
    return points


def _all_alike(units: Sequence[Defender], legal: Sequence[Target],
               hits_on: dict[str, list[Hit]]) -> bool:
    """The units that may take the next hit are alike (one group, nothing to tell them
    apart) and hold the same hits so far: whichever takes it, the attack goes the same."""
    by_key = {d.key: d for d in units}
    first = by_key[legal[0].key]
    held = _effects(hits_on.get(first.key, []))
    return all(first.alike(by_key[u.key]) and _effects(hits_on.get(u.key, [])) == held
               for u in legal[1:])


def _effects(hits: Sequence[Hit]) -> Counter[Hit]:
    """What hits do to the unit that takes them (their kind, disrupt, ignore cover), the
    weapon that scored them aside."""
    return Counter(replace(h, weapon="") for h in hits)


@dataclass
class SaveReport:
    destroyed: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    failed: dict[str, int] = field(default_factory=dict)  # saves failed, by unit (E-W1)


def _save_cell(save: Save) -> Shown:
    """The save rolled, as a table cell: the need (``null``: no save) and where it comes
    from, whether crossfire worsened it, a re-roll, an invulnerable save after it."""
    return Shown({"need": save.need, "source": save.source, "crossfire": save.crossfire,
                  "reroll": save.reroll, "invulnerable": save.invulnerable}, _save_text(save))


def _saved_cell(saved: int, failed: int) -> Shown:
    return Shown({"saved": saved, "failed": failed},
                 Msg.of("epic.col.saved_count", saved=saved, failed=failed))


def _save_text(save: Save) -> Msg:
    if save.need is None:
        return Msg.of(f"epic.save.{save.source}")
    if save.crossfire:
        return Msg.of(f"epic.save.{save.source}_crossfire", need=save.need, base=save.need - 1)
    return Msg.of(f"epic.save.{save.source}_need", need=save.need)


def save_against(unit: Defender, h: Hit, crossfire: bool) -> Save:
    """The save ``unit`` rolls against hit ``h`` (E-11, E-12; a broken formation's extra hits
    allow none). A unit in fortifications ignores crossfire's -1 (brief section 3)."""
    if h.kind.fire == "extra":
        return Save(None, "extra")
    if h.titan_killer is not None:  # E-W8: no cover or armour save, reinforced or not
        return Save(None, "titan_killer", invulnerable=unit.invulnerable)
    return save_for(unit_type=unit.target.type, armour=unit.armour,
                    cover_save=unit.cover_save, macro=h.kind.fire == "mw",
                    ignore_cover=h.ignore_cover,
                    crossfire=crossfire and not unit.ignores_crossfire,
                    reinforced=unit.reinforced, invulnerable=unit.invulnerable)


def roll_saves(port: Port, log: StepLog, units: Sequence[Defender], allocation: Allocation,
               phase: str, crossfire: bool, rest: Any = None, step: bool = False) -> SaveReport:
    """E-11 and E-12: one save per hit; any failed save destroys the unit. ``rest`` (a
    ``PhaseRest`` without its ``survive``) lets each save roll show the odds of how the
    attack ends, given the saves already rolled. ``step``: the first save roll of every
    unit in one prompt (issue 27; a re-roll or an invulnerable save is asked after it)."""
    report = SaveReport()
    t = tables()
    grouped: dict[str, list[tuple[Save, int]]] = {}
    for unit in units:
        groups: dict[tuple[Any, ...], tuple[Save, int]] = {}
        for h in allocation.hits_on.get(unit.key, []):
            save = save_against(unit, h, crossfire)
            old = groups.get(save.key)
            groups[save.key] = (save, (old[1] if old else 0) + 1)
        if groups:
            grouped[unit.key] = list(groups.values())
        if crossfire and unit.ignores_crossfire and any(s.need is not None
                                                        for s, _ in groups.values()):
            # brief section 3: fortified, so its saves are not worsened; the formation
            # still takes crossfire's extra Blast marker (E-13)
            log.note(Msg.of("epic.step.fortified_crossfire", unit=unit.shown), "E-11",
                     unit=unit.key)
    odds = _SaveOdds(rest, units, allocation, grouped, t.invulnerable_save)
    batches = _batches(units, allocation, grouped)
    if step:
        port = _step(port, units, grouped, batches, phase, odds if rest is not None else None)
    for unit in units:
        if unit.key not in grouped or batches.get(unit.key) == ():
            continue
        batch = batches.get(unit.key)
        if batch:
            _roll_batch(port, log, batch, grouped[unit.key][0][0], phase, odds, report,
                        rest is not None)
            continue
        groups_ = grouped[unit.key]
        odds.unit, odds.failed, odds.label = unit, 0, None
        for i, (save, count) in enumerate(groups_, 1):
            qid = f"save.{phase}.{unit.key}" + (f".{i}" if len(groups_) > 1 else "")
            odds.index = i - 1
            failed, shown = _roll_one(port, log, unit, save, count, qid, t.invulnerable_save,
                                      odds.ref if rest is not None else None)
            odds.failed += failed
            report.rows.append((unit.shown, count, _save_cell(save), shown,
                                _saved_cell(count - failed, failed),
                                "E-12" if save.source == "macro" else "E-11"))
        odds.known[unit.key] = Fraction(0 if odds.failed else 1)
        report.failed[unit.key] = odds.failed
        if odds.failed:
            report.destroyed.append(unit.key)
    return report


def _step(port: Port, units: Sequence[Defender], grouped: dict[str, list[tuple[Save, int]]],
          batches: dict[str, tuple[Defender, ...]], phase: str,
          odds: _SaveOdds | None) -> Port:
    """The first save roll of each unit (or batch of alike units) that rolls one, in the
    order ``roll_saves`` rolls them, asked in one prompt (``step_dice``); the odds of its
    end states are those before the first roll."""
    from referee.rulesets.epic.step_dice import DiceGroup, ask_step

    groups: list[DiceGroup] = []
    first: Defender | None = None  # the unit of the first group
    for unit in units:
        batch = batches.get(unit.key)
        if unit.key not in grouped or batch == ():
            continue
        chain = grouped[unit.key]
        if batch:
            save = chain[0][0]
            assert save.need is not None
            label = Msg.of("epic.units.batch", first=batch[0].shown, last=batch[-1].shown,
                           count=len(batch))
            groups.append(DiceGroup(f"save.{phase}.{batch[0].key}..{batch[-1].key}", label,
                                    DiceSpec(count=len(batch), target=save.need,
                                             count_only=True)))
            first = first or unit
            continue
        for i, (save, count) in enumerate(chain, 1):
            if save.need is not None:
                qid = f"save.{phase}.{unit.key}" + (f".{i}" if len(chain) > 1 else "")
                groups.append(DiceGroup(qid, unit.shown, DiceSpec(count=count, target=save.need,
                                                                  count_only=True)))
                first = first or unit
    if first is not None and odds is not None:  # before any save: its end states
        odds.unit, odds.label, odds.failed, odds.index = first, None, 0, 0
        g = groups[0]
        groups[0] = DiceGroup(g.qid, g.label, g.spec, odds.ref("save", g.spec.count))
    return ask_step(port, f"save.{phase}", groups, clause="E-11", answered_by=DEFENDER,
                    kind="save")


def _batches(units: Sequence[Defender], allocation: Allocation,
             grouped: dict[str, list[tuple[Save, int]]]) -> dict[str, tuple[Defender, ...]]:
    """Alike units (one group, nothing to tell them apart) that each hold one and the same
    hit and roll a plain save (no re-roll, no invulnerable save): their saves are rolled
    together, a die a unit, as players do. Keyed by each unit: the first of a batch gives the
    batch, the others ``()``; a unit rolled on its own is absent."""
    def plain(u: Defender) -> bool:
        chain = grouped.get(u.key, [])
        return (len(chain) == 1 and chain[0][1] == 1 and chain[0][0].need is not None
                and not chain[0][0].reroll and not chain[0][0].invulnerable)

    out: dict[str, tuple[Defender, ...]] = {}
    for i, u in enumerate(units):
        if u.key in out or not plain(u) or u.group is None:
            continue
        held = _effects(allocation.hits_on[u.key])
        batch = [u] + [v for v in units[i + 1:] if v.key not in out and plain(v)
                       and u.alike(v) and _effects(allocation.hits_on[v.key]) == held]
        if len(batch) > 1:
            out[u.key] = tuple(batch)
            out.update({v.key: () for v in batch[1:]})
    return out


def _roll_batch(port: Port, log: StepLog, batch: tuple[Defender, ...], save: Save, phase: str,
                odds: _SaveOdds, report: SaveReport, with_odds: bool) -> None:
    """E-11 for alike units with one hit each: one die a unit, rolled together. Alike, so
    which of them fail changes nothing: the dice are read in the order the units are listed
    (a count of saves alone: the first listed fail)."""
    assert save.need is not None
    first, last = batch[0], batch[-1]
    label = Msg.of("epic.units.batch", first=first.shown, last=last.shown, count=len(batch))
    odds.unit, odds.failed, odds.index, odds.label = first, 0, 0, label
    qid = f"save.{phase}.{first.key}..{last.key}"
    roll = port.ask(DiceQuestion(
        id=qid, spec=DiceSpec(count=len(batch), target=save.need, count_only=True),
        clause="E-11", answered_by=DEFENDER,
        text=Msg.of("epic.q.save_batch", first=first.shown, last=last.shown,
                    count=len(batch), need=save.need),
        odds=odds.ref("save", 1) if with_odds else None))
    failed = len(batch) - roll.successes
    if roll.faces is not None:
        lost = [u for u, face in zip(batch, roll.faces, strict=True) if face < save.need]
    else:
        lost = list(batch[:failed])
    log.roll(Msg.of("epic.step.save", unit=label, need=save.need, faces=dice_text(roll),
                    source=Msg.of(f"dice.source.{roll.source}"), failed=failed), "E-11",
             question=qid, faces=roll.faces, need=save.need, failed=failed)
    report.rows.append((label, len(batch), _save_cell(save),
                        Shown({"save": dice_value(roll)},
                              (Msg.of("epic.dice.save", faces=dice_text(roll)),)),
                        _saved_cell(len(batch) - failed, failed), "E-11"))
    for u in batch:
        gone = u in lost
        odds.known[u.key] = Fraction(0 if gone else 1)
        report.failed[u.key] = int(gone)
        if gone:
            report.destroyed.append(u.key)


class _SaveOdds:
    """What each save roll's odds know, kept as plain facts while the saves are rolled: the
    units whose saves are done (survived or not), the unit rolling now (the saves it has
    failed so far, the group it is at). The odds function works out the chances from them
    (``oddsfacts.SaveState``), so no odds arithmetic runs here, with odds shown or not."""

    def __init__(self, rest: Any, units: Sequence[Defender], allocation: Allocation,
                 grouped: dict[str, list[tuple[Save, int]]], invulnerable: int) -> None:
        self.rest, self.invulnerable = rest, invulnerable
        # each hit unit's save groups, and the markers its loss adds (none if every hit on
        # it disrupts): fixed for the phase
        self.groups = tuple(
            (u.key, tuple(grouped[u.key]),
             0 if all(h.disrupt for h in allocation.hits_on[u.key]) else 1)
            for u in units if grouped.get(u.key))
        self.known: dict[str, Fraction] = {}
        self.unit: Defender | None = None
        self.label: Msg | None = None  # several alike units rolled together
        self.failed = 0
        self.index = 0

    def ref(self, stage: str, count: int) -> OddsRef:
        assert self.unit is not None
        return OddsRef.to("referee.rulesets.epic.odds:save",
                          unit=self.unit.shown if self.label is None else self.label,
                          stage=stage, rest=self.rest,
                          saves=(self.groups, tuple(self.known.items()), self.unit.key,
                                 self.failed, self.index, count, self.invulnerable))


def _roll_one(port: Port, log: StepLog, unit: Defender, save: Save, count: int, qid: str,
              invulnerable: int,
              odds: Callable[[str, int], OddsRef | None] | None = None
              ) -> tuple[int, Shown]:
    """The saves of ``unit`` against ``count`` hits of one kind: the saves failed, and the
    dice as a table cell (each stage's dice by stage: ``save``, ``reroll``,
    ``invulnerable``; ``null`` when none were rolled)."""
    def ref(stage: str, n: int) -> OddsRef | None:
        return None if odds is None else odds(stage, n)
    shown: list[Msg] = []
    rolled: dict[str, Any] = {}
    failed = count
    clause = "E-12" if save.source == "macro" else "E-11"
    if save.need is not None:
        roll = port.ask(DiceQuestion(id=qid, spec=DiceSpec(count=count, target=save.need,
                                                           count_only=True),
                                     clause=clause, answered_by=DEFENDER,
                                     text=Msg.of("epic.q.save", unit=unit.shown,
                                                                count=count, need=save.need),
                                     odds=ref("save", count)))
        failed = count - roll.successes
        shown.append(Msg.of("epic.dice.save", faces=dice_text(roll)))
        rolled["save"] = dice_value(roll)
        log.roll(Msg.of("epic.step.save", unit=unit.shown, need=save.need, faces=dice_text(roll),
                        source=Msg.of(f"dice.source.{roll.source}"), failed=failed), clause,
                 question=qid, faces=roll.faces, need=save.need, failed=failed)
        if failed and save.reroll:
            again = port.ask(DiceQuestion(
                id=f"{qid}.reroll", spec=DiceSpec(count=failed, target=save.need,
                                                  count_only=True), clause="E-11",
                answered_by=DEFENDER,
                text=Msg.of("epic.q.reroll", unit=unit.shown, count=failed, need=save.need),
                odds=ref("reroll", failed)))
            failed -= again.successes
            shown.append(Msg.of("epic.dice.reroll", faces=dice_text(again)))
            rolled["reroll"] = dice_value(again)
            log.roll(Msg.of("epic.step.reroll", unit=unit.shown, faces=dice_text(again),
                            failed=failed), "E-11", question=f"{qid}.reroll",
                     faces=again.faces, failed=failed)
    else:
        log.outcome(Msg.of("epic.step.no_save", unit=unit.shown, count=count,
                           why=_save_text(save)), clause)
    if failed and save.invulnerable:
        inv = port.ask(DiceQuestion(
            id=f"{qid}.invulnerable", spec=DiceSpec(count=failed, target=invulnerable,
                                                    count_only=True), clause="E-11",
            answered_by=DEFENDER, text=Msg.of("epic.q.invulnerable", unit=unit.shown, count=failed,
                        need=invulnerable), odds=ref("invulnerable", failed)))
        failed -= inv.successes
        shown.append(Msg.of("epic.dice.invulnerable", faces=dice_text(inv)))
        rolled["invulnerable"] = dice_value(inv)
        log.roll(Msg.of("epic.step.invulnerable", unit=unit.shown, faces=dice_text(inv),
                        failed=failed), "E-11", question=f"{qid}.invulnerable",
                 faces=inv.faces, failed=failed)
    return failed, Shown(rolled, tuple(shown)) if shown else NOTHING


@dataclass
class MarkerLedger:
    """Blast markers on a formation: before, each added with its reason, after (E-13)."""

    name: Msg | str  # the formation, as a player reads it
    before: int
    broken_at_start: bool = False
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    added: int = 0
    as_hits: int = 0  # a broken formation takes hits instead (brief section 3)
    log: StepLog | None = None  # each marker is also a step of the working, in its place

    def add(self, count: int, reason: Msg, clause: str) -> None:
        if count <= 0:
            return
        if self.broken_at_start:
            self.as_hits += count
            self.rows.append((reason, Shown({"as_hits": count},
                                            Msg.of("epic.bm.as_hits", count=count)), clause))
            if self.log is not None:
                self.log.outcome(Msg.of("epic.step.marker_as_hit", reason=reason, count=count,
                                        target=self.name), clause)
            return
        self.added += count
        self.rows.append((reason, as_signed(count), clause))
        if self.log is not None:
            self.log.outcome(Msg.of("epic.step.marker", reason=reason, count=count,
                                    target=self.name, total=self.after), clause)

    def table_rows(self) -> list[tuple[Any, ...]]:
        return [(Msg.of("epic.bm.before"), self.before, Shown(None, "")), *self.rows,
                (Msg.of("epic.bm.after"), self.after, Shown(None, ""))]

    @property
    def after(self) -> int:
        return self.before + self.added
