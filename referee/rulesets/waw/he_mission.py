"""The HE mission resolver (W-1 to W-5): attack dice, terrain defence dice, the spread of
hits in the hex, the effects on each unit, and the HQ roll."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.core.charts import ChartKey, Charts
from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import (
    DEFENDER,
    EITHER,
    Choice,
    ChoiceQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
)
from referee.core.result import StepLog
from referee.core.table import NOTHING, as_dice, as_need, dice_text
from referee.core.text import Msg
from referee.rulesets.waw.declaration import MissionDeclaration, Unit
from referee.rulesets.waw.he import (
    Allocation,
    AskCell,
    Pick,
    Status,
    Target,
    distribute,
    he_effects,
    net_hits,
    owner_picks,
)
from referee.rulesets.waw.labels import join
from referee.rulesets.waw.line import RatingLine, RatingQuestion
from referee.rulesets.waw.tables import ASK, EFFECTS, EffectRow, tables
from referee.rulesets.waw.userdata import UserData


@dataclass(frozen=True)
class Rating:
    firepower: int
    hit_number: int
    source: Msg | str


@dataclass(frozen=True)
class HeOutcome:
    attack_hits: int
    cancels: int
    net: int
    hits_by_unit: dict[str, int]
    status_by_unit: dict[str, str]
    hq_rolls: dict[str, str]


def _rule(name: str) -> Msg:
    return Msg.of(f"waw.rule.{name}")


def ask_rating(port: Port, decl: MissionDeclaration, data: UserData) -> Rating:
    """W-1: the mission's firepower and hit number: declared, from the data file, or asked
    (the excerpt gives no artillery ratings)."""
    t = tables()
    if decl.artillery is not None:
        asset = data.artillery_by_id(decl.artillery)
        if asset is None:
            from referee.core.errors import UsageError

            raise UsageError(Msg.of("waw.error.no_artillery", given=decl.artillery,
                                    known=", ".join(a.id for a in data.artillery) or "-"))
        return Rating(asset.firepower, asset.hit_number, asset.name)
    if decl.firepower is None and decl.hit_number is None and data.artillery:
        picked = port.ask(ChoiceQuestion(
            id="artillery", text=Msg.of("waw.q.artillery" if decl.roster is None
                                        else "waw.q.artillery_roster"),
            choices=(*(Choice(a.id, Msg.of("waw.choice.artillery", name=a.name,
                                           firepower=a.firepower, hit=a.hit_number))
                       for a in data.artillery),
                     Choice("other", Msg.of("waw.choice.other_rating"))),
            default_value=data.artillery[0].id, clause="W-1", rule=_rule("he"),
            whatif=True))
        asset = data.artillery_by_id(picked)
        if asset is not None:
            return Rating(asset.firepower, asset.hit_number, asset.name)
    firepower, hit_number = decl.firepower, decl.hit_number
    if firepower is None and hit_number is None:  # one line for both (a script: 5, then 4)
        line: RatingLine = port.ask(RatingQuestion(
            id="firepower", text=Msg.of("waw.q.rating"), max_firepower=t.max_firepower,
            lowest_hit=t.lowest_hit_number, highest_hit=t.highest_hit_number,
            hint_msg=Msg.of("waw.entry.hint.rating"), clause="W-1", rule=_rule("he")))
        firepower, hit_number = line.firepower, line.hit_number
    if firepower is None:
        firepower = port.ask(NumberQuestion(id="firepower", text=Msg.of("waw.q.firepower"),
                                            minimum=1, maximum=t.max_firepower, clause="W-1",
                                            rule=_rule("he")))
    if hit_number is None:
        hit_number = port.ask(NumberQuestion(
            id="hit-number", text=Msg.of("waw.q.hit_number"), minimum=t.lowest_hit_number,
            maximum=t.highest_hit_number, clause="W-1", rule=_rule("he")))
    return Rating(firepower, hit_number, Msg.of("waw.source.given"))


def ask_defence(port: Port, decl: MissionDeclaration, data: UserData, options: Options,
                log: StepLog) -> int:
    """W-2: the hex's infantry defence value (whatever the target), without cover unless a
    house rule adds it (``defence-cover=included``: the extra dice are asked here, with the
    terrain, once there are hits to cancel, as before the odds: scripts and records written
    then replay unchanged, and a mission without hits asks nothing about the hex)."""
    t = tables()
    source: Msg | str
    if decl.terrain is not None:
        terrain = data.terrain_by_id(decl.terrain)
        if terrain is None:
            from referee.core.errors import UsageError

            raise UsageError(Msg.of("waw.error.no_terrain", given=decl.terrain,
                                    known=", ".join(x.id for x in data.terrain) or "-"))
        value, source = terrain.infantry_defence, terrain.name
    elif decl.terrain_defence is not None:
        value, source = decl.terrain_defence, Msg.of("waw.source.given")
    elif data.terrain:
        picked = port.ask(ChoiceQuestion(
            id="terrain", text=Msg.of("waw.q.terrain"),
            choices=tuple(Choice(x.id, Msg.of("waw.choice.terrain", name=x.name,
                                              value=x.infantry_defence))
                          for x in data.terrain),
            default_value=data.terrain[0].id, clause="W-2", rule=_rule("he"), whatif=True,
            answered_by=EITHER))
        terrain = data.terrain_by_id(picked)
        assert terrain is not None
        value, source = terrain.infantry_defence, terrain.name
    else:
        value = port.ask(NumberQuestion(id="terrain-defence",
                                        text=Msg.of("waw.q.terrain_defence"), minimum=0,
                                        maximum=t.max_defence, clause="W-2",
                                        rule=_rule("he"), answered_by=EITHER))
        source = Msg.of("waw.source.given")
    log.input(Msg.of("waw.step.defence_value", value=value, source=source), "W-2",
              defence=value)
    if any(u.kind == "combat-vehicle" for u in decl.units):
        log.note(Msg.of("waw.step.defence_infantry_value"), "W-2")
    if options["defence-cover"] == "included":
        cover = int(port.ask(NumberQuestion(id="cover-dice", text=Msg.of("waw.q.cover_dice"),
                                            minimum=0, maximum=t.max_defence,
                                            default_value=0, clause="W-2",
                                            answered_by=EITHER)))
        log.warning(Msg.of("waw.step.cover_included", dice=cover), "W-2", cover=cover)
        value += cover
    return int(value)


def _picker(port: Port, options: Options, names: dict[str, Msg | str], targets: int,
            log: StepLog, odds_facts: dict[str, object]) -> Pick:
    """W-3: who takes the hits of a round short of one hit per target."""

    def pick(candidates: Sequence[str], count: int, round_no: int) -> list[str]:
        if owner_picks(options["he-remainder"] == "owner", targets, round_no):
            chosen = port.ask(MultiChoiceQuestion(
                id=f"pick.round-{round_no}", text=Msg.of("waw.q.pick_owner", count=count,
                                                         round=round_no),
                choices=tuple(Choice(c, names[c]) for c in candidates),
                default_values=tuple(candidates)[:count], min_count=count, max_count=count,
                clause="W-3", rule=_rule("he"), answered_by=DEFENDER))  # the owner picks
            log.input(Msg.of("waw.step.picked_owner", units=join([names[c] for c in chosen]),
                             round=round_no), "W-3")
            return list(chosen)
        left = list(candidates)
        chosen_list: list[str] = []
        for j in range(1, count + 1):
            spec = DiceSpec(count=1, sides=len(left))
            legend = join([Msg.of("waw.list.legend", n=i, unit=names[c])
                           for i, c in enumerate(left, 1)])
            roll = port.ask(DiceQuestion(
                id=f"pick.round-{round_no}.{j}", spec=spec,
                text=Msg.of("waw.q.pick_random", sides=len(left), legend=legend),
                clause="W-3", rule=_rule("he"), answered_by=DEFENDER,
                odds=OddsRef.to(f"{ODDS}:pick", round_no=round_no, left=tuple(left),
                                chosen=tuple(chosen_list), to_pick=count - j + 1,
                                **odds_facts)))
            assert roll.faces is not None
            unit = left.pop(roll.faces[0] - 1)
            chosen_list.append(unit)
            log.roll(Msg.of("waw.step.picked_random", dice=spec.describe(), round=round_no,
                            face=roll.faces[0], unit=names[unit], legend=legend,
                            source=Msg.of(f"dice.source.{roll.source}")), "W-3",
                     face=roll.faces[0], unit=unit)
        return chosen_list

    return pick


def effect_chart(cell: str) -> ChartKey:
    """What the players' chart of a first (further...) HE hit on a soft unit reads: the same
    for every soft unit, so asked once a game (``referee.core.charts``)."""
    return ChartKey("waw.he-effect", "soft", cell.replace("_", "-"))


def _effect_asker(port: Port, unit: Unit, data: UserData, log: StepLog,
                  charts: Charts) -> AskCell:
    """Cells of the effects table the excerpt leaves open: the data file, else the players'
    chart as entered before in the game (or for a unit before in this mission), else the
    player."""

    def ask(cell: str) -> str:
        from_file = getattr(data.soft_effects, cell, None)
        if from_file is not None:
            log.input(Msg.of("waw.step.effect_from_file", cell=Msg.of(f"waw.cell.{cell}"),
                             effect=Msg.of(f"waw.effect.{from_file}")), "W-4")
            return str(from_file)
        legal = EFFECTS if cell == "first" else tuple(e for e in EFFECTS if e != "weaken")
        found = charts.ask(port, ChoiceQuestion(
            id=f"effect.{unit.key}.{cell.replace('_', '-')}",
            text=Msg.of(f"waw.q.effect_{cell}", unit=unit.label),
            choices=tuple(Choice(e, Msg.of(f"waw.effect.{e}")) for e in legal),
            default_value="none", clause="W-4", rule=_rule("he"), answered_by=EITHER,
            help=Msg.of("waw.help.effect_not_in_excerpt")), effect_chart(cell))
        answer = found.value
        if found.source is None:
            log.input(Msg.of("waw.step.effect_asked", cell=Msg.of(f"waw.cell.{cell}"),
                             unit=unit.label, effect=Msg.of(f"waw.effect.{answer}")), "W-4")
        else:
            log.input(Msg.of("kept.chart.step", what=Msg.of(f"waw.cell.{cell}"),
                             unit=unit.label, answer=Msg.of(f"waw.effect.{answer}"),
                             source=found.source), "W-4", chart=effect_chart(cell).text())
        return str(answer)

    return ask


ODDS = "referee.rulesets.waw.odds_he"


def unit_facts(u: Unit, data: UserData, charts: Charts | None = None) -> dict[str, object]:
    """A target as the odds need it: plain values, its W-4 effects row with the data file's
    cells filled in, else the players' chart as entered before in the game (``ask`` where
    the players decide after the roll)."""
    row = tables().he_effects["combat-vehicle" if u.kind == "combat-vehicle" else "soft"]
    cells = {}
    for cell in ("first", "further", "weakened_again"):
        value = getattr(row, cell)
        if value == ASK:
            value = getattr(data.soft_effects, cell, None) or ASK
        if value == ASK and charts is not None:
            found = charts.known(effect_chart(cell))
            value = str(found.answer) if found is not None else ASK
        cells[cell] = value
    return {"key": u.key, "name": u.label, "soft": u.soft, "disorganized": u.disorganized,
            "weakened": u.weakened, **cells}


def known_defence(decl: MissionDeclaration, data: UserData, options: Options) -> int | None:
    """W-2: the defence dice when the declaration already fixes them (no question needed),
    for the odds at the attack roll; ``None`` when they are asked after it (an undeclared
    terrain, or the cover dice of ``defence-cover=included``)."""
    if options["defence-cover"] == "included":
        return None
    base = decl.terrain_defence
    if decl.terrain is not None:
        terrain = data.terrain_by_id(decl.terrain)
        base = None if terrain is None else terrain.infantry_defence
    return base


def status_of(unit: Unit) -> Status:
    return Status(disorganized=unit.disorganized, weakened=unit.weakened)


def resolve_he(port: Port, decl: MissionDeclaration, data: UserData, options: Options,
               log: StepLog, charts: Charts | None = None) -> HeOutcome:
    """W-1 to W-5; ``charts``: the answers read off the players' charts so far (the game's
    and this mission's)."""
    charts = charts if charts is not None else Charts()
    t = tables()
    hex_label = decl.hex or "?"
    hqs = [u for u in decl.units if u.kind == "hq"]
    targets = [u for u in decl.units if u.kind != "hq"]
    names = {u.key: u.label for u in decl.units}
    for hq in hqs:
        log.input(Msg.of("waw.step.hq_not_target", unit=hq.label), "W-5")
    if not targets:
        log.outcome(Msg.of("waw.step.no_targets", hex=hex_label), "W-5")
        return HeOutcome(0, 0, 0, {}, {u.key: status_of(u).name for u in decl.units}, {})

    odds_facts: dict[str, object] = {
        "units": tuple(unit_facts(u, data, charts) for u in targets),
        "hqs": tuple(u.label for u in hqs),
        "spill": options["soft-with-armour"] == "spill-over"}
    owner = options["he-remainder"] == "owner"
    rating = ask_rating(port, decl, data)
    log.input(Msg.of("waw.step.rating", firepower=rating.firepower, hit=rating.hit_number,
                     source=rating.source), "W-1", firepower=rating.firepower,
              hit_number=rating.hit_number)
    spec = DiceSpec(count=rating.firepower, target=rating.hit_number, count_only=True)
    attack = port.ask(DiceQuestion(
        id="attack", spec=spec, clause="W-1", rule=_rule("he"),
        text=Msg.of("waw.q.attack", dice=rating.firepower, hit=rating.hit_number),
        odds=OddsRef.to(f"{ODDS}:attack", firepower=rating.firepower,
                        hit_number=rating.hit_number,
                        defence=known_defence(decl, data, options),
                        cover_later=options["defence-cover"] == "included",
                        cancel_on=t.defence_cancel_on, owner=owner, **odds_facts)))
    log.roll(Msg.of("waw.step.attack_roll", dice=spec.describe(), faces=dice_text(attack),
                    source=Msg.of(f"dice.source.{attack.source}"), hits=attack.successes),
             "W-1", faces=attack.faces, hits=attack.successes)
    log.table(Msg.of("waw.table.attack", hex=hex_label),
              [Msg.of(f"waw.col.{c}") for c in ("firepower", "hit_number", "dice", "hits")],
              [(rating.firepower, as_need(rating.hit_number), as_dice(attack),
                attack.successes)], clause="W-1")

    cancels, defence_dice = 0, NOTHING
    if attack.successes == 0:
        log.outcome(Msg.of("waw.step.no_hits"), "W-1")
        defence = 0
    else:
        defence = ask_defence(port, decl, data, options, log)
        if defence == 0:
            log.outcome(Msg.of("waw.step.no_defence_dice"), "W-2")
        else:
            dspec = DiceSpec(count=defence, target=t.defence_cancel_on, count_only=True)
            droll = port.ask(DiceQuestion(
                id="defence", spec=dspec, clause="W-2", rule=_rule("he"),
                answered_by=DEFENDER,  # W-2: the target's owner rolls
                text=Msg.of("waw.q.defence", dice=defence, cancel=t.defence_cancel_on),
                odds=OddsRef.to(f"{ODDS}:defence", attack_hits=attack.successes,
                                dice=defence, cancel_on=t.defence_cancel_on, owner=owner,
                                **odds_facts)))
            cancels, defence_dice = droll.successes, as_dice(droll)
            log.roll(Msg.of("waw.step.defence_roll", dice=dspec.describe(),
                            faces=dice_text(droll), source=Msg.of(f"dice.source.{droll.source}"),
                            cancels=cancels), "W-2", faces=droll.faces, cancels=cancels)
    net = net_hits(attack.successes, cancels)
    if attack.successes:
        if cancels > attack.successes:
            log.outcome(Msg.of("waw.step.net_floor", hits=attack.successes, cancels=cancels),
                        "W-2", net=net)
        else:
            log.outcome(Msg.of("waw.step.net", hits=attack.successes, cancels=cancels,
                               net=net), "W-2", net=net)
        log.table(Msg.of("waw.table.defence", hex=hex_label),
                  [Msg.of(f"waw.col.{c}") for c in ("defence", "dice", "cancels", "hits",
                                                     "net")],
                  [(defence, defence_dice, cancels, attack.successes, net)], clause="W-2")

    spill = options["soft-with-armour"] == "spill-over"
    if net:
        log.outcome(Msg.of("waw.step.spread", net=net, units=len(targets)), "W-3")
    pick = _picker(port, options, names, len(targets), log, {"net": net, **odds_facts})
    allocations = distribute(net, [Target(u.key, u.soft) for u in targets], pick,
                             spill_over=spill)
    hits_by_unit = {u.key: sum(1 for a in allocations if a.unit == u.key) for u in targets}
    if allocations:
        log.table(Msg.of("waw.table.distribution", hex=hex_label),
                  [Msg.of(f"waw.col.{c}") for c in ("hit", "unit", "round", "why")],
                  [(a.number, names[a.unit], a.round, _why(a, len(targets), options))
                   for a in allocations], clause="W-3")

    statuses: dict[str, str] = {}
    rows = []
    for u in targets:
        before = status_of(u)
        n = hits_by_unit[u.key]
        kind_row = "combat-vehicle" if u.kind == "combat-vehicle" else "soft"
        ask = _effect_asker(port, u, data, log, charts)
        after, applied = he_effects(before, n, t.he_effects[kind_row], ask)
        statuses[u.key] = after.name
        why = _effect_why(u, n, applied, before)
        rows.append((u.label, Msg.of(f"waw.kind.{u.kind}"), n,
                     Msg.of(f"waw.status.{before.name}"), Msg.of(f"waw.status.{after.name}"),
                     why))
        if n:
            log.outcome(Msg.of("waw.step.effect", unit=u.label, hits=n,
                               before=Msg.of(f"waw.status.{before.name}"),
                               after=Msg.of(f"waw.status.{after.name}")), "W-4",
                        unit=u.key, status=after.name)

    hq_rolls: dict[str, str] = {}
    someone_hit = any(hits_by_unit.values())
    for hq in hqs:
        if not someone_hit:
            log.outcome(Msg.of("waw.step.hq_no_roll", unit=hq.label), "W-5")
            statuses[hq.key] = status_of(hq).name
            rows.append((hq.label, Msg.of("waw.kind.hq"), 0,
                         Msg.of(f"waw.status.{status_of(hq).name}"),
                         Msg.of(f"waw.status.{status_of(hq).name}"),
                         Msg.of("waw.why.hq_no_roll")))
            continue
        log.note(Msg.of("waw.step.hq_roll", unit=hq.label), "W-5")
        result = port.ask(ChoiceQuestion(
            id=f"hq-roll.{hq.key}", text=Msg.of("waw.q.hq_roll", unit=hq.label),
            choices=tuple(Choice(e, Msg.of(f"waw.effect.{e}")) for e in EFFECTS),
            default_value="none", clause="W-5", rule=_rule("hq"), answered_by=DEFENDER,
            help=Msg.of("waw.help.hq_roll")))
        before = status_of(hq)
        after, _ = he_effects(before, 1, _hq_row(str(result)), lambda cell: "none")
        hq_rolls[hq.key] = str(result)
        statuses[hq.key] = after.name
        log.outcome(Msg.of("waw.step.hq_result", unit=hq.label,
                           effect=Msg.of(f"waw.effect.{result}"),
                           after=Msg.of(f"waw.status.{after.name}")), "W-5",
                    unit=hq.key, status=after.name)
        rows.append((hq.label, Msg.of("waw.kind.hq"), 0, Msg.of(f"waw.status.{before.name}"),
                     Msg.of(f"waw.status.{after.name}"),
                     Msg.of("waw.why.hq_roll", effect=Msg.of(f"waw.effect.{result}"))))
    log.table(Msg.of("waw.table.effects", hex=hex_label),
              [Msg.of(f"waw.col.{c}") for c in ("unit", "kind", "hits", "before", "after",
                                                 "why")], rows, clause="W-4")
    return HeOutcome(attack.successes, cancels, net, hits_by_unit, statuses, hq_rolls)


def _hq_row(effect: str) -> EffectRow:
    return EffectRow(first=effect, further="none", weakened_again="none")


def _why(a: Allocation, targets: int, options: Options) -> Msg:
    if a.how == "full-round":
        return Msg.of("waw.why.full_round" if a.round == 1 else "waw.why.next_round",
                      round=a.round)
    if a.how == "spill-over":
        return Msg.of("waw.why.spill_over")
    if options["he-remainder"] == "owner" and not (targets == 2 and a.round == 1):
        return Msg.of("waw.why.owner", round=a.round)
    return Msg.of("waw.why.random", round=a.round)


def _effect_why(u: Unit, hits: int, applied: list[str],
                before: Status) -> Msg | tuple[Msg, ...]:
    if hits == 0:
        return Msg.of("waw.why.no_hit")
    if u.kind == "combat-vehicle":
        if applied[0] == "none":
            return Msg.of("waw.why.vehicle_already", hits=hits)
        return Msg.of("waw.why.vehicle", hits=hits)
    return tuple(Msg.of("waw.why.soft_hit", n=i, effect=Msg.of(f"waw.applied.{e}"))
                 for i, e in enumerate(applied, 1))
