"""The Combat Commander fire attack (O20): clauses C-1 to C-14, options C-X1 to C-X8.

Pure: it asks through the port and returns a ``Result``. The order follows the rules: the
pieces' legality, the FP (Command, group, hindrance, bonuses), for ordnance the targeting roll,
the fire roll and its trigger, then one defence roll per unit in the defender's order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from referee.core.charts import ChartKey, Charts
from referee.core.fates import Fate
from referee.core.fates import summary as fates_summary
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import (
    ATTACKER,
    DEFENDER,
    EITHER,
    Answerer,
    Choice,
    ChoiceQuestion,
    NumberQuestion,
)
from referee.core.result import Result, StepLog
from referee.core.table import Shown, as_signed
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc.deck import RULESET_ID, FateCard, FateCardQuestion, VirtualDecks
from referee.rulesets.cc.declaration import (
    Declaration,
    FireDeclaration,
    FiringPiece,
    RosterDeclaration,
    TargetUnit,
)
from referee.rulesets.cc.labels import joined
from referee.rulesets.cc.legality import command_skips, hex_command, hex_leaders, refusal


def _nation(nation: str) -> Msg:
    return Msg.of(f"cc.nation.{nation}")


def _signed(value: int) -> str:
    return f"{value:+d}"


@dataclass
class Attack:
    """What one attack carries between its steps."""

    ctx: AttackContext
    decl: FireDeclaration
    decks: VirtualDecks
    log: StepLog
    charts: Charts = field(default_factory=Charts)  # the VP read off the players' rules
    events: dict[str, str] = field(default_factory=dict)  # unit key -> what an event did
    results: dict[str, str] = field(default_factory=dict)  # unit key -> its defence result
    jammed: list[FiringPiece] = field(default_factory=list)  # weapons broken by Jammed!

    @property
    def port(self) -> Port:
        return self.ctx.port

    def option(self, name: str) -> Any:
        return self.ctx.options[name]

    def draw(self, qid: str, nation: str, text: Msg, clause: str, odds: str, *,
             by: Answerer = ATTACKER, **facts: Any) -> FateCard:
        """One Fate card for a roll: typed from the player's card, or drawn (C-10, C-X8).
        ``odds`` names the function of ``referee.rulesets.cc.odds`` that gives its odds;
        ``by``: who rolls it (the defender his defence rolls, C-12)."""
        if self.decks.needs_reshuffle(nation):
            self.decks.reshuffle(nation)
            self.log.note(Msg.of("cc.step.reshuffle", nation=_nation(nation)), clause)
        edition = self.decks.edition
        card = self.port.ask(FateCardQuestion(
            id=qid, text=text, clause=clause, nation=nation, edition_id=edition.id,
            composition=edition.composition(nation), remaining=self.decks.remaining(nation),
            hint_msg=Msg.of("cc.hint.card"), answered_by=by,
            odds=OddsRef.to(f"referee.rulesets.cc.odds:{odds}", **facts)))
        assert isinstance(card, FateCard)
        if card.source.by_program:
            self.decks.take(nation, card)
        return card

    @property
    def defence_deck(self) -> str:
        """C-X6: whose Fate deck the defence rolls draw from."""
        return self.decl.defender if self.option("defence-deck") == "defender" \
            else self.decl.attacker

    def plan(self, states: list[UnitState], order: list[str]) -> dict[str, Any]:
        """The facts the odds of the rest of the attack need (plain values): the target
        units as they stand, the order of their defence rolls, the rules in force, and the
        defence deck (``same``: the attacker's own, C-X6)."""
        nation = self.defence_deck
        return {"units": tuple(_unit_facts(s) for s in states), "order": tuple(order),
                "rules": {"cover": self.decl.cover,
                          "suppressed_tie": self.option("suppressed-tie"),
                          "command_from": self.option("command-from"),
                          "leader_commands_self": bool(self.option("leader-commands-self"))},
                "defence": {"nation": nation, "same": nation == self.decl.attacker,
                            "remaining": self.decks.remaining(nation),
                            "full": self.decks.edition.composition(nation)}}

    def initial_plan(self) -> dict[str, Any]:
        units = list(self.decl.target)
        return self.plan([UnitState(u, u.broken, u.suppressed) for u in units],
                         [u.key for u in _default_order(units)])

    def card_cell(self, card: FateCard) -> Shown:
        """A Fate card as a table cell: its two dice and its trigger (``null``: none),
        shown as ``card_text``."""
        assert card.faces is not None
        return Shown({"dice": list(card.faces), "trigger": card.trigger or None},
                     self.card_text(card))

    def card_text(self, card: FateCard) -> Msg:
        assert card.faces is not None
        source = Msg.of(f"dice.source.{card.source}")
        label = card.label()
        if label is None:
            return Msg.of("cc.card.text", a=card.faces[0], b=card.faces[1], source=source)
        return Msg.of("cc.card.text_trigger", a=card.faces[0], b=card.faces[1], trigger=label,
                      source=source)


def _default_order(units: list[TargetUnit]) -> list[TargetUnit]:
    """C-12: the defence rolls' default order: units first, leaders last (the seed's tip)."""
    return [u for u in units if u.kind != "leader"] + [u for u in units if u.kind == "leader"]


def _unit_facts(state: UnitState) -> dict[str, Any]:
    u = state.unit
    return {"key": u.key, "name": u.label, "kind": u.kind, "morale": u.morale,
            "broken_morale": u.broken_morale, "command": u.command, "broken": state.broken,
            "suppressed": state.suppressed, "moving": u.moving}


def _declaration(ctx: AttackContext) -> tuple[FireDeclaration, list[tuple[Msg, str]]]:
    """The declaration (from a file, a roster and the table, or the table alone) and what
    the table inferred instead of asking (message, clause), for the working."""
    if isinstance(ctx.declaration, FireDeclaration):
        return ctx.declaration, []
    if isinstance(ctx.declaration, RosterDeclaration):
        from referee.rulesets.cc.roster_ask import ask_from_roster

        return ask_from_roster(ctx.port, ctx.declaration, ctx.options)
    if ctx.declaration is not None:
        declared = Declaration.model_validate(ctx.declaration)
        return _declaration(ctx._replace(declaration=declared))
    from referee.rulesets.cc.ask import ask_declaration

    if ctx.entry is None:
        return ask_declaration(ctx.port, ctx.options)
    # a game file (issue 27): the pieces it keeps are offered by name; typed ones are named
    from referee.rulesets.cc import kept_ask

    return ask_declaration(ctx.port, ctx.options, list(ctx.state.get("units", ())),
                           kept_ask.choices(ctx.state),
                           lambda value: kept_ask.ask_kept(ctx.port, *kept_ask.chosen(
                               ctx.state, value), options=ctx.options))


def attack(ctx: AttackContext) -> Result:
    decl, inferred = _declaration(ctx)
    decks = VirtualDecks(ctx.options["deck-edition"], dict(ctx.state.get("decks", {})),
                         ctx.options["deck-file"],
                         {"italy-sniper-blank": ctx.options["italy-sniper-blank"]})
    a = Attack(ctx, decl, decks, StepLog(), Charts(ctx.state, ctx.entry))
    shooters = decl.shooters
    declared = "cc.step.declared" if decl.target_hex is not None else "cc.step.declared_unnamed"
    ctx.parties(_nation(decl.attacker), None)  # before any card: a game asks the side now
    a.log.input(Msg.of(declared, attacker=_nation(decl.attacker),
                       pieces=joined(p.label for p in shooters), target=decl.target_label,
                       units=joined(u.label for u in decl.target)), "C-2")
    a.log.input(Msg.of("cc.step.edition", edition=Msg.of(f"cc.edition.{decks.edition.id}")),
                "C-X8")
    if ctx.options["deck-file"]:
        a.log.input(Msg.of("cc.step.deck_file", file=ctx.options["deck-file"]), "C-X8")
    for text, clause in inferred:
        a.log.note(text, clause)
    for nation in dict.fromkeys((decl.attacker, decl.defender)):
        reading = decks.edition.reading(nation)
        if reading is not None:
            a.log.note(Msg.of("cc.step.deck_reading", nation=_nation(nation), option=reading[0],
                              value=reading[1], trigger=Msg.of("cc.trigger.sniper")), "C-X8")
    refused = refusal(decl, ctx.options)
    if refused is not None:
        clause, reason = refused
        a.log.outcome(Msg.of("cc.step.refused", reason=reason), clause)
        return _result(a, Msg.of("cc.outcome.refused", reason=reason), {"allowed": False})
    ordnance = len(shooters) == 1 and shooters[0].white_band
    fp, hindrance_left = _firepower(a, shooters, ordnance)
    if fp <= 0:
        reason = Msg.of("cc.refuse.fp_zero", fp=fp)
        a.log.outcome(Msg.of("cc.step.refused", reason=reason), "C-9")
        return _result(a, Msg.of("cc.outcome.refused", reason=reason),
                       {"allowed": False, "fp": fp})
    if ordnance and not _targeting(a, shooters[0], hindrance_left, fp):
        missed = "cc.outcome.missed" if decl.target_hex is not None \
            else "cc.outcome.missed_unnamed"
        return _result(a, Msg.of(missed, target=decl.target_label),
                       {"allowed": True, "hit": False, "fp": fp})
    card = a.draw("fire", decl.attacker, Msg.of("cc.q.fire", nation=_nation(decl.attacker),
                                                fp=fp), "C-10", "fire", fp=fp,
                  weapons=tuple(p.label for p in shooters if p.kind == "weapon"),
                  **a.initial_plan())
    total = fp + card.total
    a.log.roll(Msg.of("cc.step.fire_roll", card=a.card_text(card), fp=fp, roll=card.total,
                      total=total), "C-3", card=card.key, source=card.source.value,
               attack_total=total)
    a.log.table(Msg.of("cc.table.attack"),
                [Msg.of(f"cc.col.{c}") for c in ("fp", "card", "roll", "total")],
                [(fp, a.card_cell(card), card.total, total)], clause="C-3")
    units = _trigger(a, card, shooters)
    gone = [u for u in decl.target if u.key not in {k.key for k in units}]
    rows, results = _defence(a, units, total)
    results.update({u.key: ar.Result.ELIMINATED.value for u in gone})
    if rows:
        a.log.table(Msg.of("cc.table.defence", attack=total),
                    [Msg.of(f"cc.col.{c}") for c in ("unit", "morale", "card", "roll",
                                                       "total", "versus", "result")],
                    rows, clause="C-12")
    by_key = {u.key: u for u in decl.target}
    a.results = results
    a.log.outcome(Msg.of("cc.step.done", count=len(results)), "C-12")
    fates = _fates(a, results)
    return _result(a, Msg.of("cc.outcome.resolved", total=total,
                             results=fates_summary(fates, unharmed=True)),
                   {"allowed": True, "hit": True, "fp": fp, "attack_total": total,
                    "trigger": card.trigger or None,
                    "results": {by_key[k].data_name: r for k, r in results.items()}}, fates)


def _firepower(a: Attack, shooters: list[FiringPiece], ordnance: bool) -> tuple[int, int]:
    """The attack's final FP (C-8, C-9, C-14, C-X1) with its build-up table; also the
    hindrance left for an ordnance targeting roll (C-1, C-X7)."""
    decl, log = a.decl, a.log
    rows: list[tuple[Any, ...]] = []
    included = a.option("declared-fp-includes-command")

    def modified(p: FiringPiece) -> int:
        return p.fp if included else p.fp + hex_command(decl.firing, p, a.ctx.options)

    base = shooters[0]
    if len(shooters) > 1:
        ranked = sorted(shooters, key=lambda p: -modified(p))
        base_key = a.port.ask(ChoiceQuestion(
            id="base", text=Msg.of("cc.q.base"), clause="C-8", whatif=True,
            choices=tuple(Choice(p.key, Msg.of("cc.choice.base", piece=p.label,
                                               fp=modified(p))) for p in ranked),
            default_value=ranked[0].key))
        base = next(p for p in shooters if p.key == base_key)
    command = 0 if included else hex_command(decl.firing, base, a.ctx.options)
    if ordnance and command_skips(base, a.ctx.options):
        for leader in hex_leaders(decl.firing, base, a.ctx.options):
            log.note(Msg.of("cc.step.ordnance_no_command", piece=base.label,
                            leader=leader.label), "C-14")
    fp = base.fp
    alone = "alone" if len(shooters) == 1 else "base"
    rows.append((Msg.of(f"cc.fp.{alone}", piece=base.label), "C-8", base.fp, fp))
    log.input(Msg.of(f"cc.step.{alone}", piece=base.label, fp=base.fp), "C-8", fp=base.fp)
    if included:
        log.warning(Msg.of("cc.step.fp_includes_command"), "C-X1")
    if command:
        fp += command
        rows.append((Msg.of("cc.fp.command", piece=base.label), "C-14", as_signed(command), fp))
        log.modifier(Msg.of("cc.step.command", piece=base.label, command=command, fp=fp),
                     "C-14", command=command)
    others = len(shooters) - 1
    if others:
        fp = ar.group_fp(fp, len(shooters))
        rows.append((Msg.of("cc.fp.group", count=others), "C-8", as_signed(others), fp))
        log.modifier(Msg.of("cc.step.group", count=others, fp=fp), "C-8", others=others)
    hindrance = ar.largest_hindrance([p.hindrance for p in shooters])
    hindrance_left = 0
    if hindrance and ordnance and a.option("ordnance-hindrance") == "targeting-roll":
        hindrance_left = hindrance
        log.note(Msg.of("cc.step.hindrance_to_targeting", hindrance=hindrance), "C-X7")
    elif hindrance:
        fp -= hindrance
        rows.append((Msg.of("cc.fp.hindrance"), "C-9", as_signed(-hindrance), fp))
        log.modifier(Msg.of("cc.step.hindrance", hindrance=hindrance, fp=fp), "C-9",
                     hindrance=hindrance)
    for bonus in decl.bonuses:
        fp += bonus.fp
        clause = "C-14" if bonus.source == "down-hill" else "C-9"
        rows.append((Msg.of(f"cc.bonus.{bonus.source}"), clause, as_signed(bonus.fp), fp))
        log.modifier(Msg.of("cc.step.bonus", source=Msg.of(f"cc.bonus.{bonus.source}"),
                            value=_signed(bonus.fp), fp=fp), clause, bonus=bonus.fp)
    rows.append((Msg.of("cc.fp.final"), "C-9", Shown(None, ""), fp))
    log.table(Msg.of("cc.table.fp"), [Msg.of(f"cc.col.{c}") for c in
                                      ("step", "clause", "change", "fp")], rows, clause="C-8")
    return fp, hindrance_left


def _targeting(a: Attack, piece: FiringPiece, hindrance: int, fp: int) -> bool:
    """C-1: ordnance must hit the hex first: product less hindrance above the range."""
    decl = a.decl
    card = a.draw("targeting", decl.attacker,
                  Msg.of("cc.q.targeting", piece=piece.label, distance=piece.distance,
                         hindrance=hindrance, nation=_nation(decl.attacker)), "C-1",
                  "targeting", piece=piece.label, distance=piece.distance, hindrance=hindrance,
                  fp=fp, **a.initial_plan())
    product = card.product
    hit = ar.targeting_hits(product, hindrance, piece.distance)
    a.log.roll(Msg.of("cc.step.targeting", card=a.card_text(card), product=product,
                      hindrance=hindrance, net=product - hindrance, distance=piece.distance,
                      result=Msg.of("cc.word.hit" if hit else "cc.word.miss")), "C-1",
               card=card.key, product=product, hit=hit)
    a.log.table(Msg.of("cc.table.targeting"),
                [Msg.of(f"cc.col.{c}") for c in ("card", "product", "hindrance", "net",
                                                   "range", "result")],
                [(a.card_cell(card), product, as_signed(-hindrance), product - hindrance,
                  piece.distance, Msg.of("cc.word.hit" if hit else "cc.word.miss"))],
                clause="C-1")
    _other_trigger(a, card, "C-1")
    if not hit:
        a.log.outcome(Msg.of("cc.step.missed"), "C-1")
    return hit


def _other_trigger(a: Attack, card: FateCard, clause: str) -> None:
    """C-X5: a trigger on a targeting or defence card is reported for the players."""
    if card.trigger and a.option("other-roll-triggers") == "report":
        a.log.note(Msg.of("cc.step.other_trigger", trigger=card.label() or ""), "C-X5")


def _trigger(a: Attack, card: FateCard, shooters: list[FiringPiece]) -> list[TargetUnit]:
    """The fire card's trigger (C-11, C-13); returns the units that roll for defence."""
    units = list(a.decl.target)
    rows: list[tuple[Any, ...]] = []
    if card.trigger == "jammed":
        weapons = [p for p in shooters if p.kind == "weapon"]
        a.jammed = weapons
        text = Msg.of("cc.step.jammed", weapons=joined((p.label for p in weapons), "-"))
        a.log.outcome(text, "C-11", broken_weapons=[p.name or p.key for p in weapons])
        rows.append((card.label(), "C-11", text))
    elif card.trigger == "event":
        a.log.note(Msg.of("cc.step.event"), "C-13")
        rows.append((card.label(), "C-13", Msg.of("cc.step.event")))
        units = _event_effects(a, units)
    elif card.trigger in ("sniper", "time"):
        text = Msg.of(f"cc.step.{card.trigger}")
        a.log.note(text, "C-10")
        rows.append((card.label(), "C-10", text))
    if rows:
        a.log.table(Msg.of("cc.table.triggers"),
                    [Msg.of(f"cc.col.{c}") for c in ("trigger", "clause", "effect")], rows)
    return units


def _event_effects(a: Attack, units: list[TargetUnit]) -> list[TargetUnit]:
    """C-13: the event resolves before the defence rolls; the referee asks what it did."""
    out = []
    for u in units:
        legal = ["none"]
        if not u.suppressed:
            legal.append("suppressed")
        if not u.broken:
            legal.append("broken")
        legal.append("eliminated")
        effect = a.port.ask(ChoiceQuestion(
            id=f"event.{u.key}", text=Msg.of("cc.q.event", unit=u.label), clause="C-13",
            choices=tuple(Choice(v, Msg.of(f"cc.event.{v}")) for v in legal),
            default_value="none", answered_by=EITHER))
        if effect != "none":
            a.events[u.key] = str(effect)
            a.log.input(Msg.of("cc.step.event_effect", unit=u.label,
                               effect=Msg.of(f"cc.event.{effect}")), "C-13", unit=u.key,
                        effect=effect)
        if effect == "suppressed":
            u = u.model_copy(update={"suppressed": True})
        elif effect == "broken":
            u = u.model_copy(update={"broken": True})
        elif effect == "eliminated":
            _eliminated(a, u)  # by the event, before the fire roll's defence rolls
            continue
        out.append(u)
    return out


@dataclass(frozen=True)
class UnitState:
    unit: TargetUnit
    broken: bool
    suppressed: bool


def _target_command(a: Attack, states: dict[str, UnitState], unit: TargetUnit) -> int:
    """C-12, C-14: the hex's Command now (a broken or eliminated leader gives 0)."""
    leaders = [(s.unit.key, s.unit.command, s.broken) for s in states.values()
               if s.unit.kind == "leader"]
    return ar.command_in_hex(leaders, unit.key, self_counts=a.option("leader-commands-self"),
                             how=a.option("command-from"))


def _defence(a: Attack, units: list[TargetUnit], total: int) -> tuple[list[tuple[Any, ...]],
                                                                       dict[str, str]]:
    """C-4, C-5, C-12: one defence roll per unit, in the defender's order."""
    log = a.log
    states = {u.key: UnitState(u, u.broken, u.suppressed) for u in units}
    deck_of = a.defence_deck
    todo = _default_order(units)
    rows: list[tuple[Any, ...]] = []
    results: dict[str, str] = {}
    n = 0
    while todo:
        n += 1
        unit = todo[0]
        # C-12: the order only changes a result through a leader's Command (a leader that
        # breaks gives 0 to the units after it): without one among them it is not asked
        if len(todo) > 1 and any(u.kind == "leader" for u in todo):
            key = a.port.ask(ChoiceQuestion(
                id=f"defence-order.{n}", text=Msg.of("cc.q.order"), clause="C-12",
                choices=tuple(Choice(u.key, u.label) for u in todo), default_value=todo[0].key,
                answered_by=DEFENDER))  # C-12: in the order the defender chooses
            unit = next(u for u in todo if u.key == key)
        todo.remove(unit)
        state = states[unit.key]
        morale, parts = _morale(a, states, state)
        card = a.draw(f"defence.{unit.key}", deck_of,
                      Msg.of("cc.q.defence", unit=unit.label, morale=morale,
                             nation=_nation(deck_of)), "C-4", "defence", by=DEFENDER,
                      attack=total,
                      morale=morale, unit=unit.key,
                      **a.plan(list(states.values()), [unit.key, *(u.key for u in todo)]))
        defence = morale + card.total
        result = ar.defence_result(total, defence, moving=unit.moving, broken=state.broken,
                                   suppressed=state.suppressed,
                                   suppressed_tie=a.option("suppressed-tie"))
        if defence == total and state.suppressed and not unit.moving:
            log.warning(Msg.of("cc.step.suppressed_tie", unit=unit.label,
                               reading=a.option("suppressed-tie")), "C-X4")
        clause = "C-5"
        log.roll(Msg.of("cc.step.defence", unit=unit.label, morale=morale, parts=parts,
                        card=a.card_text(card), roll=card.total, total=defence, attack=total,
                        result=Msg.of(f"cc.result.{result}")), clause, unit=unit.key,
                 morale=morale, defence_total=defence, result=result.value)
        _other_trigger(a, card, "C-4")
        if result is ar.Result.BROKEN:
            states[unit.key] = replace(state, broken=True)
            if unit.kind == "leader":
                log.note(Msg.of("cc.step.command_lost", unit=unit.label), "C-12")
        elif result is ar.Result.SUPPRESSED:
            states[unit.key] = replace(state, suppressed=True)
        elif result is ar.Result.ELIMINATED:
            states[unit.key] = replace(state, broken=True)
            _eliminated(a, unit)
        rows.append((unit.label, Shown(morale, Msg.of("cc.col.morale_parts", morale=morale,
                                                      parts=parts)),
                     a.card_cell(card), card.total, defence, total,
                     Msg.of(f"cc.result.{result}")))
        results[unit.key] = result.value
    return rows, results


def _morale(a: Attack, states: dict[str, UnitState], state: UnitState) -> tuple[int, Msg]:
    """C-4: Morale (broken side if broken) with cover, Command and Suppressed (-1)."""
    unit = state.unit
    printed = ar.printed_morale(unit.morale, unit.broken_morale, state.broken)
    if state.broken and unit.broken_morale is None:
        a.log.warning(Msg.of("cc.step.no_broken_morale", unit=unit.label), "C-4")
    parts = Msg.of("cc.morale.printed", value=printed)
    morale = printed
    if a.decl.cover:
        morale += a.decl.cover
        parts = Msg.of("cc.morale.cover", before=parts, value=_signed(a.decl.cover))
    command = _target_command(a, states, unit)
    if command:
        morale += command
        parts = Msg.of("cc.morale.command", before=parts, value=_signed(command))
        if unit.kind == "leader" and not state.broken and unit.command == command:
            a.log.warning(Msg.of("cc.step.self_command", unit=unit.label), "C-14")
    if state.suppressed:
        morale -= 1
        parts = Msg.of("cc.morale.suppressed", before=parts)
    return morale, parts


def _eliminated(a: Attack, unit: TargetUnit) -> None:
    """C-5, C-14: broken again is eliminated; to the Casualty Track, VP to the opponent."""
    vp = unit.vp
    if vp is None:
        # the same VP for units alike (kind and Morale, or a name): asked once a game
        alike = (unit.name,) if unit.name else (unit.kind, unit.morale,
                                                 unit.broken_morale or "-")
        found = a.charts.ask(a.port, NumberQuestion(
            id=f"vp.{unit.key}", clause="C-14", minimum=0, maximum=20,
            text=Msg.of("cc.q.vp", unit=unit.label), answered_by=EITHER),  # on the counter
            ChartKey("cc.vp", "/".join(map(str, (a.decl.defender, *alike))), "eliminated"))
        vp = found.value
        if found.source is not None:
            a.log.input(Msg.of("kept.chart.step", what=Msg.of("kept.chart.vp"),
                               unit=unit.label, answer=vp, source=found.source), "C-14")
    a.log.outcome(Msg.of("cc.step.eliminated", unit=unit.label, vp=vp,
                         side=_nation(a.decl.attacker)), "C-14", unit=unit.key, vp=vp)


def _kept_units(a: Attack) -> dict[str, Any]:
    """The named pieces and units of the attack kept in a game file with their side, hex,
    values and state after it (issue 27: asked once a game), merged with those kept."""
    if a.ctx.entry is None:  # no game file: nothing is kept
        return {}
    from referee.rulesets.cc import army

    return army.kept_after(a.ctx.state, a.decl, a.results, a.events,
                           [p.name for p in a.jammed if p.name])


def _fates(a: Attack, results: dict[str, str]) -> list[Fate]:
    """What the fire did to each unit of the target hex by name: the event's effect (a
    Suppressed marker, broken, eliminated) and its defence roll's result; the weapons a
    Jammed! fire card broke."""
    out = []
    for unit in a.decl.target:
        effects: list[Msg] = []
        if unit.key in a.events:
            effects.append(Msg.of("cc.fate.event", effect=Msg.of(
                f"cc.event.{a.events[unit.key]}")))
        result = results.get(unit.key)
        if result is not None and not (effects and result == ar.Result.ELIMINATED.value
                                       and a.events.get(unit.key) == "eliminated"):
            effects.append(Msg.of(f"cc.result.{result}"))
        target = (Msg.of("kept.fate.hex", hex=a.decl.target_hex)
                  if a.decl.target_hex is not None else a.decl.target_label)
        out.append(Fate(target, unit.label, tuple(effects)))
    for weapon in a.jammed:
        out.append(Fate(Msg.of("kept.fate.hex", hex=weapon.hex), weapon.label,
                        (Msg.of("cc.fate.jammed"),)))
    return out


def _result(a: Attack, outcome: Msg, data: dict[str, Any],
            fates: list[Fate] | None = None) -> Result:
    opts = a.ctx.options
    return Result(ruleset=RULESET_ID, steps=a.log.steps, tables=a.log.tables, outcome=outcome,
                  outcome_data={**data, "edition": a.decks.edition.id},
                  options=dict(opts.values), non_default_options=opts.non_default,
                  state_updates={"decks": a.decks.state, **a.charts.updates(),
                                 **_kept_units(a)},
                  fates=tuple(fates or ()))
