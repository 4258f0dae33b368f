"""The operations phase: impulses, activations and actions (L-1 to L-14).

``start`` makes a phase from a roster; ``play_impulse`` plays one impulse of it through the
port: the current player passes or activates (declaring every hex first, L-3), then acts
(fire, move, spot) in any order the rules allow (L-9); the opponent may answer a move with
Op Fire (5.3, L-12, L-13). ``phase_over`` says whether, and why, the phase has ended (L-2).
Everything is kept in a ``PhaseState``, a value a game file stores between impulses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.core import work
from referee.core.charts import Charts
from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import (
    ATTACKER,
    DEFENDER,
    EITHER,
    Answerer,
    Choice,
    ConfirmQuestion,
    MultiChoiceQuestion,
)
from referee.core.result import StepLog
from referee.core.table import NOTHING, Shown, as_signed
from referee.core.text import Msg
from referee.rulesets.lnlt.activation import (
    activatable,
    by_hex,
    can_act,
    reach,
)
from referee.rulesets.lnlt.combat import LeaderHelp, resolve_fire
from referee.rulesets.lnlt.firepower import (
    Component,
    FireKind,
    FpBuild,
    build_fp,
    steps_cell,
)
from referee.rulesets.lnlt.questions import Refusal, RuledChoice, RuledMultiChoice
from referee.rulesets.lnlt.roster import (
    MOVE_MARKERS,
    PhaseState,
    PlayedImpulse,
    Roster,
    Unit,
    UnitAction,
)
from referee.rulesets.lnlt.tables import tables

NO_OP_FIRE = ("moved", "low-crawl", "fired")  # 5.3: these markers forbid Op Fire
SPOT_TO_OP_FIRE = ("low-crawl", "stealth")  # 5.3: only if the hex entered is spotted


def start(roster: Roster, initiative: str) -> PhaseState:
    """A new phase: the initiative player has the first impulse (L-1)."""
    return PhaseState(roster=roster, initiative=initiative, current=initiative)


def phase_over(state: PhaseState) -> str | None:
    """L-2: 'all-used' when every unit on the map has moved, fired or is Ops Complete;
    'three-passes' after three consecutive passes (L-X1: reset by any activation)."""
    if state.passes >= tables().consecutive_passes:
        return "three-passes"
    if all(u.markers for u in state.roster.scan() if u.on_map):
        return "all-used"
    return None


def check_end(state: PhaseState, log: StepLog) -> bool:
    reason = phase_over(state)
    if reason is not None and not state.ended:
        state.ended, state.end_reason = True, reason
        log.outcome(Msg.of(f"lnlt.end.{reason}", passes=state.passes), "L-2")
    return state.ended


def _unit_label(unit: Unit) -> Msg:
    return Msg.of("lnlt.label.unit", name=unit.label, kind=Msg.of(f"lnlt.kind.{unit.kind}"))


def _names(units: list[Unit]) -> str:
    return ", ".join(u.label for u in units)


def _list(units: list[Unit]) -> str:
    """Units inside a choice label (no commas: a shown multiple answer is comma-separated)."""
    return " / ".join(u.label for u in units)


def play_pass(state: PhaseState, log: StepLog, options: Options) -> None:
    side = state.current
    forced = not activatable(state.roster, side)
    counts = not (forced and options["pass-count"] == "forced-passes-ignored")
    if counts:
        state.passes += 1
    log.input(Msg.of("lnlt.step.pass" if counts else "lnlt.step.pass_not_counted",
                     side=side, passes=state.passes), "L-X1" if not counts else "L-2",
              passes=state.passes)
    state.log.append(PlayedImpulse(number=state.impulses, side=side, kind="pass",
                                   passes=state.passes))


def _fire_shortcuts(roster: Roster, side: str, free: list[Unit]) -> list[Choice]:
    """L-1, L-3: "Fire from C4" for each hex whose free units may fire, when an enemy unit
    is on the map: the hex is activated by the choice (declared before anything is done)."""
    if not _enemy_hexes(roster, side):
        return []
    return [Choice(f"fire:{h}", Msg.of("lnlt.choice.fire_now", hex=h,
                                       units=_list([u for u in units if _fires(u)])))
            for h, units in sorted(by_hex(free).items()) if any(_fires(u) for u in units)]


def _fire_refusals(roster: Roster, side: str, offered: set[str]) -> tuple[Refusal, ...]:
    """Why "Fire from H" is not offered for a hex of the player's (a script naming it is
    told): every unit there marked (L-8), or Shaken (L-5)."""
    out = []
    for h, units in sorted(by_hex(u for u in roster.scan() if u.side == side
                                  and u.on_map).items()):
        if f"fire:{h}" in offered:
            continue
        if all(u.markers for u in units):
            out.append(Refusal(f"fire:{h}", "L-8", Msg.of("lnlt.why.all_marked", hex=h)))
        elif shaken := [u for u in units if u.shaken and _armed(u)]:
            out.append(Refusal(f"fire:{h}", "L-5", Msg.of("lnlt.why.shaken_fire",
                                                           units=_names(shaken))))
    return tuple(out)


def idle_before(state: PhaseState, side: str, options: Options) -> bool:
    """L-X1 under empty-activation=resets: whether ``side``'s last impulse changed nothing on
    the map (a pass, or an activation in which nothing acted and no leader became Ops
    Complete). Under that option such an activation resets the count of passes, so a player
    who takes every default (Enter at the table, a script's ``use_defaults``, the odds' walk)
    would activate and do nothing for ever: after an impulse that changed nothing, the
    default is to pass. The players may still activate; only the default differs. With
    every default taken the phase then ends: each side's defaults do nothing once, then
    pass, and three passes end it (L-2)."""
    if empty_counts_as_pass(options):
        return False
    last = next((r for r in reversed(state.log) if r.side == side), None)
    if last is None:
        return False
    return last.kind == "pass" or (not last.did and not any(
        a.impulse == last.number for a in state.actions))


def play_impulse(state: PhaseState, port: Port, options: Options, log: StepLog,
                 charts: Charts | None = None) -> None:
    """One impulse of the current player (L-1), then the turn passes to the other;
    ``charts``: the Damage Check results read off the players' chart so far. The impulses of
    a phase are counted (``lnlt.impulses``)."""
    work.add("lnlt.impulses")
    state.impulses += 1
    n, side = state.impulses, state.current
    free = activatable(state.roster, side)
    fire_now = _fire_shortcuts(state.roster, side, free)
    choices = [*fire_now, Choice("pass", Msg.of("lnlt.choice.pass"))]
    if free:
        choices.insert(len(fire_now), Choice("activate", Msg.of("lnlt.choice.activate")))
    refusals: tuple[Refusal, ...] = () if free else (
        Refusal("activate", "L-2", Msg.of("lnlt.why.nothing_left", side=side)),)
    refusals += _fire_refusals(state.roster, side, {c.value for c in fire_now})
    log.input(Msg.of("lnlt.step.impulse", n=n, side=side), "L-1", impulse=n, side=side)
    # the default is never Pass while something may act: a stray Enter must not end the
    # player's impulse (issue 18); but for an impulse that would change nothing again
    # (``idle_before``: the defaults would never end the phase)
    activates = bool(free) and not idle_before(state, side, options)
    what = port.ask(RuledChoice(id=f"i{n}.do", text=Msg.of("lnlt.q.do", side=side, n=n),
                                choices=tuple(choices),
                                default_value="activate" if activates else "pass",
                                clause="L-1", refusals=refusals,
                                help=Msg.of("lnlt.help.do") if fire_now else None))
    if what == "pass":
        play_pass(state, log, options)
    elif what == "activate":
        Activation(state, port, options, log, charts=charts).play()
    else:  # "fire:C4": activate C4 and fire from it, asking only what the roster cannot tell
        Activation(state, port, options, log, compact=True,
                   charts=charts).play(fire_from=what[5:])
    state.current = state.other(side)
    check_end(state, log)


@dataclass
class Activation:
    """One activation: the declared hexes, the units they activate, and what those do."""

    state: PhaseState
    port: Port
    options: Options
    log: StepLog
    compact: bool = False  # begun with "Fire from H": ask only what the roster cannot tell
    hexes: list[str] = field(default_factory=list)
    units: dict[str, Msg] = field(default_factory=dict)  # unit id -> how it was activated
    reach_leaders: list[str] = field(default_factory=list)
    fired: dict[str, str] = field(default_factory=dict)  # hex -> the target it fired at
    moved: set[str] = field(default_factory=set)
    spotted: dict[str, tuple[str, str]] = field(default_factory=dict)  # hex -> (target, by)
    acted: set[str] = field(default_factory=set)
    did: list[str] = field(default_factory=list)
    move_fire: dict[str, str] = field(default_factory=dict)  # unit -> hex it moved into
    charts: Charts | None = None  # the players' chart as read so far (Damage Check results)

    @property
    def n(self) -> int:
        return self.state.impulses

    @property
    def side(self) -> str:
        return self.state.current

    @property
    def roster(self) -> Roster:
        return self.state.roster

    def play(self, fire_from: str | None = None) -> None:
        """``fire_from``: the hex the player chose to fire from (the shortcut of the impulse
        question): it is the activated hex, and its fire the first action."""
        before: dict[str, tuple[tuple[str, ...], str, str]] = {
            u.id: (tuple(u.markers), u.status, u.hex) for u in self.roster.units}
        self.declare(fire_from)
        self.act(fire_from)
        self.finish()
        self._fates(before)

    def _fates(self, before: dict[str, tuple[tuple[str, ...], str, str]]) -> None:
        """What the activation did to each unit, by name and side (``core.fates``): its
        new status, its new markers, where it moved; a Hero who appeared."""
        for unit in self.roster.units:
            markers, status, hex_id = before.get(unit.id, ((), "", ""))
            effects = []
            if unit.id not in before:
                effects.append(Msg.of("lnlt.fate.appeared", hex=unit.hex))
            elif unit.status != status:
                effects.append(Msg.of(f"lnlt.result.{unit.status}"))
            if unit.id in before and unit.hex != hex_id:
                effects.append(Msg.of("lnlt.fate.moved", hex=unit.hex))
            effects += [Msg.of(f"lnlt.marker.{m}") for m in unit.markers if m not in markers]
            if effects:
                self.log.fate(unit.side, unit.label, *effects)

    # --- L-3, L-4, L-10: declaring the hexes ------------------------------------------------

    def declare(self, chosen: str | None = None) -> None:
        roster, side = self.roster, self.side
        free = by_hex(activatable(roster, side))
        own = sorted(free)  # L-3: the hexes holding a unit of his still unused
        on_map = by_hex(u for u in roster.scan() if u.side == side and u.on_map)
        refusals = []
        for h in roster.all_hexes():
            if h in free:
                continue
            mine = on_map.get(h)
            why = (Msg.of("lnlt.why.all_marked", hex=h) if mine else
                   Msg.of("lnlt.why.no_own_unit", hex=h, side=side))
            refusals.append(Refusal(h, "L-8" if mine else "L-3", why))
        if chosen is not None:
            first = chosen
            self.log.note(Msg.of("lnlt.step.fire_declares", hex=first), "L-3")
        else:
            first = self.port.ask(RuledChoice(
                id=f"i{self.n}.hex", text=Msg.of("lnlt.q.hex", side=side),
                choices=tuple(Choice(h, Msg.of("lnlt.label.hex", hex=h, units=_list(free[h])))
                              for h in own),
                default_value=own[0], clause="L-3", refusals=tuple(refusals)))
        units = activatable(roster, side, first)
        if roster.multi_level(first):
            units = self._own_building(first, units)
        else:
            self._activate_hex(first, units, None)
        pending = [u for u in units if u.is_leader]
        # L-11: a marked leader of the hex is not activated, but a script naming the hexes
        # he would reach is refused with his rule, not left unanswered
        levels = {level_of(u) for u in units}
        pending += [u for u in roster.units if u.side == side and u.on_map and u.is_leader
                    and u.hex == first and u.markers and level_of(u) in levels]
        round_ = 1
        while pending:
            found = reach(roster, side, pending, set(self.hexes), self.options)
            for ref in found.refused.values():
                self.log.note(Msg.of("lnlt.step.not_reachable", hex=ref.value,
                                     reason=ref.reason), ref.clause)
            qid = f"i{self.n}.reach" if round_ == 1 else f"i{self.n}.reach.{round_}"
            if not found.units:
                self._no_reach(qid, pending, found.refused)
                break
            chosen = self.port.ask(RuledMultiChoice(
                id=qid, text=Msg.of("lnlt.q.reach", leaders=_names(pending)),
                choices=tuple(Choice(h, Msg.of("lnlt.label.reach", hex=h,
                                               leaders=_list(found.leaders[h]),
                                               units=_list(found.units[h])))
                              for h in found.units),
                min_count=0, clause="L-3", refusals=tuple(found.refused.values()),
                help=Msg.of("lnlt.help.reach")))
            pending = []
            for h in chosen:
                leaders = found.leaders[h]
                self._activate_hex(h, found.units[h], leaders)
                for ref in found.unit_refusals.get(h, []):
                    self.log.note(Msg.of("lnlt.step.unit_not_activated",
                                         unit=roster.unit(ref.value).label, hex=h,
                                         reason=ref.reason), ref.clause)
                pending += [u for u in found.units[h] if u.is_leader]  # L-10 chain
            round_ += 1
        by_id = {u.id: u for u in roster.scan()}
        rows = [(by_id[uid].label, by_id[uid].hex, how) for uid, how in self.units.items()]
        self.log.table(Msg.of("lnlt.table.activation", n=self.n, side=side),
                       [Msg.of(f"lnlt.col.{c}") for c in ("unit", "hex", "activated_by")],
                       rows, clause="L-3")

    def _no_reach(self, qid: str, leaders: list[Unit], refused: dict[str, Refusal]) -> None:
        """L-3, L-4, L-11: the leaders of the activated hexes reach no adjacent hex (not in
        Good Order, marked, or only units they may not activate there). When an adjacent
        hex holds units of the player that could act, the reach question is still put, with
        nothing to pick but "no adjacent hex" and the reason: so that a script naming a hex
        is refused with the rule and the reason (as docs/lnlt.md says), and a player at the
        table sees why."""
        near = [ref for h, ref in refused.items()
                if any(h in self.roster.neighbours(ldr.hex) for ldr in leaders)]
        if not near:
            return
        self.port.ask(RuledMultiChoice(
            id=qid, text=Msg.of("lnlt.q.reach", leaders=_names(leaders)),
            choices=(Choice("none", Msg.of("lnlt.label.reach_none", reason=near[0].reason)),),
            min_count=0, clause=near[0].clause, refusals=tuple(refused.values()),
            help=Msg.of("lnlt.help.reach")))

    def _own_building(self, hex_id: str, units: list[Unit]) -> list[Unit]:
        """L-4, L-X2 in the activated hex when it holds a multi-level building: each level
        is a place of its own, so the activation covers one level (asked when the player's
        units are on several; units outside the building count as level 0). A GO, unmarked
        leader on that level also activates the levels directly above and below him in his
        own building (option leader-building-levels=level-above-below, the default; with
        own-level-only he does not); the other levels of the hex are not activated."""
        levels = sorted({level_of(u) for u in units})
        at = levels[0]
        if len(levels) > 1:
            helpers = [u for u in units if u.is_leader and u.good_order and not u.markers]
            default = level_of(helpers[0]) if helpers else levels[0]
            at = int(self.port.ask(RuledChoice(
                id=f"i{self.n}.level", text=Msg.of("lnlt.q.level", hex=hex_id),
                choices=tuple(Choice(str(lv), Msg.of(
                    "lnlt.label.level", level=lv,
                    units=_list([u for u in units if level_of(u) == lv]))) for lv in levels),
                default_value=str(default), clause="L-4", help=Msg.of("lnlt.help.level"))))
        here = [u for u in units if level_of(u) == at]
        self._activate_hex(hex_id, here, None)
        leaders = [u for u in here if u.is_leader and u.good_order and not u.markers]
        reach_levels = {at}
        if leaders and self.options["leader-building-levels"] == "level-above-below":
            reach_levels |= {at - 1, at + 1}
        near = [u for u in units if level_of(u) in reach_levels and u not in here]
        if near:
            self._activate_hex(hex_id, near, leaders, clause="L-X2")
        levels_text = ", ".join(map(str, sorted(reach_levels)))
        for u in units:
            if level_of(u) not in reach_levels:
                why = Msg.of("lnlt.why.own_building", unit=u.label, level=level_of(u),
                             levels=levels_text, count=len(reach_levels))
                self.log.note(Msg.of("lnlt.step.unit_not_activated", unit=u.label, hex=hex_id,
                                     reason=why), "L-4")
        return here + near

    def _activate_hex(self, hex_id: str, units: list[Unit], leaders: list[Unit] | None,
                      clause: str | None = None) -> None:
        if hex_id not in self.hexes:
            self.hexes.append(hex_id)
        if leaders:
            how = Msg.of("lnlt.how.leader", leaders=_names(leaders))
            self.reach_leaders += [ldr.id for ldr in leaders if ldr.id not in self.reach_leaders]
            clause = clause or (
                "L-10" if any(ldr.hex != self.hexes[0] for ldr in leaders) else "L-3")
        else:
            how = Msg.of("lnlt.how.hex")
            clause = "L-3"
        for u in units:
            self.units[u.id] = how
        self.log.input(Msg.of("lnlt.step.activated", hex=hex_id, units=_names(units), how=how),
                       clause, hex=hex_id, units=[u.id for u in units])

    # --- L-5 to L-9: acting -----------------------------------------------------------------

    def _free(self, hex_id: str) -> list[Unit]:
        """Activated units of ``hex_id`` that have not acted (L-7: still usable)."""
        return [u for u in self.roster.scan() if u.id in self.units and u.hex == hex_id
                and u.id not in self.acted and can_act(u)]

    def _spotter(self, hex_id: str) -> Unit | None:
        spot = self.spotted.get(hex_id)
        if spot is None:
            return None
        unit = self.roster.unit(spot[1])
        return unit if "fired" not in unit.markers else None

    def act(self, first_fire: str | None = None) -> None:
        k = 1
        if first_fire is not None:
            self.fire(first_fire)
            k = 2
        while True:
            offered, refusals = [], []
            for h in dict.fromkeys([*self.hexes, *self.move_fire.values()]):
                free, spotter = self._free(h), self._spotter(h)
                if spotter is not None and spotter.shaken:
                    spotter = None
                if h in self.fired:
                    refusals.append(Refusal(f"fire:{h}", "L-5", Msg.of(
                        "lnlt.why.hex_fired", hex=h, target=self.fired[h])))
                elif (any(_fires(u) for u in free) or spotter
                      or self._movers_who_may_fire(h)):
                    offered.append(Choice(f"fire:{h}", Msg.of("lnlt.choice.fire", hex=h)))
                elif shaken := [u for u in free if u.shaken and _armed(u)]:
                    refusals.append(Refusal(f"fire:{h}", "L-5", Msg.of(
                        "lnlt.why.shaken_fire", units=_names(shaken))))
                if h not in self.hexes:
                    continue
                elsewhere = [p for p in self.roster.all_hexes() if p != h]
                if h in self.moved:
                    refusals.append(Refusal(f"move:{h}", "L-5", Msg.of("lnlt.why.hex_moved",
                                                                        hex=h)))
                elif free and not elsewhere:  # the roster knows no other hex to go to
                    refusals.append(Refusal(f"move:{h}", "L-5", Msg.of("lnlt.why.no_hex_to_move",
                                                                        hex=h)))
                elif free:
                    offered.append(Choice(f"move:{h}", Msg.of("lnlt.choice.move", hex=h)))
                if free and not elsewhere:  # ... nor to spot
                    refusals.append(Refusal(f"spot:{h}", "L-11", Msg.of("lnlt.why.no_hex_to_spot",
                                                                         hex=h)))
                elif free:
                    offered.append(Choice(f"spot:{h}", Msg.of("lnlt.choice.spot", hex=h)))
            if not offered:
                break
            offered.append(Choice("done", Msg.of("lnlt.choice.done")))
            what = self.port.ask(RuledChoice(
                id=f"i{self.n}.act.{k}", text=Msg.of("lnlt.q.act", n=self.n),
                choices=tuple(offered), default_value="done", clause="L-9",
                refusals=tuple(refusals)))
            if what == "done":
                break
            verb, _, hex_id = what.partition(":")
            if verb == "fire":
                self.fire(hex_id)
            elif verb == "move":
                self.move(hex_id, k)
            else:
                self.spot(hex_id, k)
            k += 1

    def _movers_who_may_fire(self, hex_id: str) -> list[Unit]:
        """L-5: units that moved by Assault Move or Stealth this impulse may also fire."""
        return [u for u in self.roster.scan() if self.move_fire.get(u.id) == hex_id
                and "fired" not in u.markers and _fires(u)]

    def _note_action(self, unit: Unit, action: str) -> None:
        self.state.actions.append(UnitAction(impulse=self.n, unit=unit.id,
                                             action=action,  # type: ignore[arg-type]
                                             markers_before=list(unit.markers)))

    def fire(self, hex_id: str) -> None:
        roster, n = self.roster, self.n
        spotter = self._spotter(hex_id)
        movers = self._movers_who_may_fire(hex_id)
        ready = ({u.id for u in self._free(hex_id)} | ({spotter.id} if spotter else set())
                 | {u.id for u in movers})
        if movers:
            self.log.note(Msg.of("lnlt.step.move_fire", units=_names(movers)), "L-5")
        units = [u for u in roster.scan() if u.id in ready]
        comps = [c for u in units if not u.shaken for c in _components(u)]
        enemies = by_hex(u for u in roster.scan() if u.side != self.side and u.on_map)
        enemy = sorted(enemies)
        if not enemy:
            self.log.note(Msg.of("lnlt.step.no_target"), "L-5")
            self.fired[hex_id] = "-"
            return
        if not comps:  # "Fire from H" on a level of a building where nothing may fire
            self.log.note(Msg.of("lnlt.step.none_fire", hex=hex_id), "L-5")
            return
        chosen = self._choose_components(f"i{n}.fire.{hex_id}", comps, hex_id,
                                         _shaken_refusals(units, "L-5"))
        spotted_at = self.spotted.get(hex_id)
        oc_firers = [c.unit for c in chosen if "ops-complete" in c.unit.markers]
        refusals = []
        legal = enemy
        if oc_firers and spotted_at:
            legal = [spotted_at[0]]
            refusals = [Refusal(h, "L-14", Msg.of("lnlt.why.spotted_only", hex=h,
                                                   spotted=spotted_at[0],
                                                   units=_names(oc_firers)))
                        for h in enemy if h != spotted_at[0]]
        if self.compact and len(legal) == 1:
            target = legal[0]
            self.log.note(Msg.of("lnlt.step.inferred_target", hex=target,
                                 units=_names(enemies.get(target, []))),
                          "L-14" if refusals else "L-5")
        else:
            target = self.port.ask(RuledChoice(
                id=f"i{n}.fire.{hex_id}.target", text=Msg.of("lnlt.q.target", hex=hex_id),
                choices=tuple(Choice(h, Msg.of("lnlt.label.hex", hex=h,
                                               units=_list(enemies.get(h, []))))
                              for h in legal),
                default_value=legal[0], clause="L-5", refusals=tuple(refusals)))
        kind = FireKind.SPOTTED if (spotted_at and target == spotted_at[0]) else FireKind.NORMAL
        self.fired[hex_id] = target
        self._resolve(f"i{n}.fire.{hex_id}", chosen, hex_id, target, kind)
        for unit in {c.unit.id: c.unit for c in chosen}.values():
            only_sw = all(c.sw is not None for c in chosen if c.unit is unit) and not unit.leader
            self._note_action(unit, "move-fire" if unit.id in self.move_fire else
                         "spotted-fire" if unit.markers else "fire")
            self.acted.add(unit.id)
            if only_sw:
                marks = bool(self.options["sw-only-fire-marks-owner"])
                self.log.note(Msg.of("lnlt.step.sw_only" if marks else "lnlt.step.sw_only_free",
                                     unit=unit.label), "L-X4")
                if not marks:
                    continue
            _mark(unit, "fired")
        firers = {c.unit.id for c in chosen}
        marked = [u for u in roster.scan() if u.id in firers and "fired" in u.markers]
        if marked:
            self.log.outcome(Msg.of("lnlt.step.marked", units=_names(marked),
                                    marker=Msg.of("lnlt.marker.fired")), "L-8")
        self.did.append(f"fire:{hex_id}:{target}")

    def _choose_components(self, prefix: str, comps: list[Component],
                           hex_id: str, refusals: tuple[Refusal, ...] = (),
                           by: Answerer = ATTACKER) -> list[Component]:
        if self.compact and len(comps) == 1:  # one unit, one weapon: nobody else may fire
            only = comps[0]
            firer: Msg | str = (only.unit.label if only.sw is None else
                                Msg.of("lnlt.step.firer_sw", sw=only.sw.label,
                                       unit=only.unit.label))
            self.log.note(Msg.of("lnlt.step.inferred_with", hex=hex_id, firer=firer), "L-5")
            return comps
        values = tuple(c.key for c in comps)
        default = tuple(c.key for c in comps if not c.oft)
        firing = tuple(c.key for c in comps if _lends_fp(c))
        keys = self.port.ask(RuledMultiChoice(
            id=f"{prefix}.with", text=Msg.of("lnlt.q.with", hex=hex_id),
            choices=tuple(Choice(c.key, _component_label(c)) for c in comps),
            default_values=default or values[:1], min_count=1, clause="L-6",
            refusals=refusals,
            help=Msg.of("lnlt.help.with"), needs_one=firing,
            needs_one_refusal=Refusal("leader", "L-5", Msg.of("lnlt.why.leader_alone")),
            answered_by=by))
        return [c for c in comps if c.key in keys]

    def _resolve(self, prefix: str, chosen: list[Component], hex_id: str, target: str,
                 kind: FireKind, target_units: list[Unit] | None = None,
                 target_moved: bool | None = None) -> None:
        roster, port, log = self.roster, self.port, self.log
        enemy = self.state.other(chosen[0].unit.side)
        # an Op Fire is the other player's (L-12): the firer is the impulse's defender
        firer = DEFENDER if kind is FireKind.OP_FIRE else ATTACKER
        targets = target_units or [u for u in roster.scan() if u.hex == target
                                   and u.side == enemy and u.on_map]
        fp_comps = [c for c in chosen if not c.oft and _lends_fp(c)]
        ifp_units = [c.unit for c in fp_comps if c.sw is None]
        lead = ifp_units[0].id if ifp_units else None
        if len(ifp_units) > 1:
            best = max(ifp_units, key=lambda u: u.ifp)
            lead = port.ask(RuledChoice(
                id=f"{prefix}.lead", text=Msg.of("lnlt.q.lead"),
                choices=tuple(Choice(u.id, _unit_label(u)) for u in ifp_units),
                default_value=best.id, clause="L-5", help=Msg.of("lnlt.help.lead"),
                whatif=True, answered_by=firer))
        if target_moved is None:
            target_moved = any(m in tables().moved_target_markers
                               for u in targets for m in u.markers)
        oft_comps = [c for c in chosen if c.oft]
        build = build_fp(fp_comps + oft_comps, lead, kind=kind, target_moved=target_moved,
                         options=self.options)
        help_ = self._leader_lm(chosen, hex_id, target, kind, fp_comps)
        firing = _names(list({c.unit.id: c.unit for c in chosen}.values()))
        self._fp_table(build, help_, firing, target, kind)
        for shot in build.oft:
            self._oft(prefix, shot.component, target, shot.drm, shot.clause, firer)
        if not fp_comps:
            return
        fired = resolve_fire(port, log, prefix, firing=firing, target_hex=target, build=build,
                             help=help_, targets=targets, table=roster.damage_table,
                             clause="L-12" if kind is FireKind.OP_FIRE else
                             ("L-14" if kind is FireKind.SPOTTED else "L-5"),
                             roster_ids=frozenset(u.id for u in roster.units),
                             compact=self.compact, tm_known=roster.terrain.get(target),
                             charts=self.charts, firer=firer)
        roster.units.extend(fired.heroes)  # brief section 3: a Hero joins the MMC's hex

    def _leader_lm(self, chosen: list[Component], hex_id: str, target: str, kind: FireKind,
                   fp_comps: list[Component]) -> LeaderHelp:
        best = LeaderHelp(0, None)
        for c in chosen:
            ldr = c.unit
            if not ldr.leader or not ldr.good_order:
                continue
            if "ops-complete" in ldr.markers:
                spot = self.spotted.get(hex_id)
                if not (spot and spot[1] == ldr.id and spot[0] == target):
                    self.log.note(Msg.of("lnlt.step.lm_refused", leader=ldr.label), "L-11")
                    continue
                if (self.options["ops-complete-leader-lm"] == "own-fire-only"
                        and fp_comps):
                    self.log.note(Msg.of("lnlt.step.lm_own_only", leader=ldr.label), "L-X6")
                    continue
                self.log.modifier(Msg.of("lnlt.step.lm_spotted", leader=ldr.label,
                                         lm=ldr.lm, hex=target), "L-14")
            if ldr.lm > best.lm:
                best = LeaderHelp(ldr.lm, ldr.label)
        if best.leader:
            self.log.modifier(Msg.of("lnlt.step.lm", leader=best.leader, lm=best.lm), "L-5")
        return best

    def _fp_table(self, build: FpBuild, help_: LeaderHelp, firing: str, target: str,
                  kind: FireKind) -> None:
        none = Shown([], "-")  # no steps
        rows: list[tuple[object, ...]] = [(r.source, r.base, steps_cell(r.steps), r.value,
                                           r.clause) for r in build.rows]
        if build.moved_bonus:
            rows.append((Msg.of("lnlt.fp.moved_target"), NOTHING, none,
                         as_signed(build.moved_bonus), "L-12"))
        rows.append((Msg.of("lnlt.fp.total"), NOTHING, none, build.total, "L-5"))
        if help_.leader:
            rows.append((Msg.of("lnlt.fp.leader", leader=help_.leader), NOTHING, none,
                         as_signed(help_.lm), "L-5"))
        self.log.table(Msg.of("lnlt.table.fp", firing=firing, hex=target,
                              kind=Msg.of(f"lnlt.firekind.{kind.value}")),
                       [Msg.of(f"lnlt.col.{c}") for c in ("source", "base", "steps", "fp",
                                                           "clause")],
                       rows, clause="L-5")
        self.log.input(Msg.of("lnlt.step.fp", firing=firing, hex=target, fp=build.total,
                              kind=Msg.of(f"lnlt.firekind.{kind.value}")),
                       {FireKind.OP_FIRE: "L-12", FireKind.SPOTTED: "L-14"}.get(kind, "L-5"),
                       fp=build.total)

    def _oft(self, prefix: str, comp: Component, target: str, drm: int, clause: str,
             by: Answerer) -> None:
        assert comp.sw is not None
        enemy = _enemy_hexes(self.roster, comp.unit.side)
        where = self.port.ask(RuledChoice(
            id=f"{prefix}.oft.{comp.key}", text=Msg.of("lnlt.q.oft", sw=comp.sw.label),
            choices=(Choice("same", Msg.of("lnlt.choice.oft_same", hex=target)),
                     *(Choice(h, Msg.of("lnlt.choice.oft_other", hex=h))
                       for h in enemy if h != target)),
            default_value="same", clause="L-6", answered_by=by))
        at = target if where == "same" else where
        self.log.note(Msg.of("lnlt.step.oft", sw=comp.sw.label, unit=comp.unit.label, hex=at,
                             drm=f"{drm:+d}"), clause, drm=drm, hex=at)

    def move(self, hex_id: str, k: int) -> None:
        roster, n = self.roster, self.n
        free = self._free(hex_id)
        prefix = f"i{n}.move.{hex_id}"
        keys = self.port.ask(MultiChoiceQuestion(
            id=f"{prefix}.units", text=Msg.of("lnlt.q.movers", hex=hex_id),
            choices=tuple(Choice(u.id, _unit_label(u)) for u in free),
            default_values=tuple(u.id for u in free), min_count=1, clause="L-5",
            help=Msg.of("lnlt.help.movers")))
        how = self.port.ask(RuledChoice(
            id=f"{prefix}.type", text=Msg.of("lnlt.q.move_type"),
            choices=tuple(Choice(m, Msg.of(f"lnlt.marker.{m}")) for m in MOVE_MARKERS),
            default_value="moved", clause="L-8"))
        places = [h for h in roster.all_hexes() if h != hex_id]
        near = sorted(roster.neighbours(hex_id))
        to = self.port.ask(RuledChoice(
            id=f"{prefix}.to", text=Msg.of("lnlt.q.move_to"),
            choices=tuple(Choice(h, h) for h in places),
            default_value=near[0] if near else places[0], clause="L-5",
            refusals=(Refusal(hex_id, "L-5", Msg.of("lnlt.why.same_hex", hex=hex_id)),)))
        movers = [u for u in free if u.id in keys]
        shaken = [u for u in movers if u.shaken]
        if shaken and self.port.ask(ConfirmQuestion(
                id=f"{prefix}.closer", text=Msg.of("lnlt.q.shaken_closer",
                                                   units=_names(shaken), hex=to),
                default_value=False, clause="L-5", help=Msg.of("lnlt.help.shaken_closer"),
                answered_by=EITHER)):  # geometry: both players see it
            # a Shaken unit may not move closer to an enemy unit in its LOS (Unit.shaken);
            # geometry stays at the table: the players say whether this move would
            movers = [u for u in movers if not u.shaken]
            self.log.outcome(Msg.of("lnlt.step.shaken_stays", units=_names(shaken),
                                    hex=hex_id, to=to), "L-5")
            if not movers:
                return
        for u in movers:
            self._note_action(u, "move")
            self.acted.add(u.id)
            u.hex, u.position, u.level = to, "open", None
            _mark(u, how)
        self.moved.add(hex_id)
        if how in ("assault-move", "stealth"):
            self.move_fire.update({u.id: to for u in movers})
        self.log.outcome(Msg.of("lnlt.step.moved", units=_names(movers), frm=hex_id, to=to,
                                marker=Msg.of(f"lnlt.marker.{how}")), "L-8")
        self.did.append(f"move:{hex_id}:{to}")
        self.op_fire(movers, to, how, k)

    def op_fire(self, movers: list[Unit], to: str, how: str, k: int) -> None:
        """5.3: the other player may answer a move with Op Fire (L-12, L-13 under Ops
        Complete). Units marked Moved, Low Crawl or Fired may not."""
        roster, n = self.roster, self.n
        enemy = self.state.other(self.side)
        if how in SPOT_TO_OP_FIRE:
            seen = self.port.ask(ConfirmQuestion(
                id=f"i{n}.opfire.{k}.spotted", text=Msg.of("lnlt.q.op_spotted", hex=to,
                                                           side=enemy),
                default_value=False, clause="L-8", answered_by=EITHER))
            if not seen:
                return
        j = 1
        while True:
            unmarked = [u for u in roster.scan() if u.side == enemy and u.on_map
                        and not any(m in NO_OP_FIRE for m in u.markers)]
            firing = {u.hex for u in unmarked if _fires(u)}
            hexes = sorted(firing)
            able_in = by_hex(u for u in unmarked if u.hex in firing and not u.shaken)
            # Shaken units may not Op Fire: when only they could, the question is still put
            # (nothing but "no Op Fire"), so that the players see why and a script naming
            # their hex is refused with the reason
            shaken_hexes = {u.hex for u in unmarked if u.shaken and _armed(u)} - firing
            if not hexes and not shaken_hexes:
                return
            refusals = tuple(
                Refusal(h, "L-12", Msg.of("lnlt.why.shaken_op_fire", hex=h, units=_names(
                    [u for u in unmarked if u.hex == h and u.shaken])))
                if h in shaken_hexes else
                Refusal(h, "L-8", Msg.of("lnlt.why.no_op_fire", hex=h))
                for h in sorted({u.hex for u in roster.scan() if u.side == enemy and u.on_map})
                if h not in firing)
            where = self.port.ask(RuledChoice(
                id=f"i{n}.opfire.{k}.{j}", text=Msg.of("lnlt.q.op_fire", side=enemy, hex=to),
                choices=(Choice("none", Msg.of("lnlt.choice.no_op_fire")),
                         *(Choice(h, Msg.of("lnlt.label.hex", hex=h, units=_list(able_in[h])))
                           for h in hexes)),
                default_value="none", clause="L-12", refusals=refusals,
                answered_by=DEFENDER))  # L-12: the other player's answer to a move
            if where == "none":
                return
            comps = [c for u in able_in[where] for c in _components(u)]
            prefix = f"i{n}.opfire.{k}.{j}"
            chosen = self._choose_components(prefix, comps, where, _shaken_refusals(
                [u for u in unmarked if u.hex == where], "L-12"), by=DEFENDER)
            targets = [u for u in roster.scan() if u.hex == to and u.side == self.side
                       and u.on_map]
            self._resolve(prefix, chosen, where, to, FireKind.OP_FIRE, targets,
                          target_moved=how in tables().moved_target_markers)
            firers = list({c.unit.id: c.unit for c in chosen}.values())
            for u in firers:
                self._note_action(u, "op-fire")
                _mark(u, "fired")
            self.log.outcome(Msg.of("lnlt.step.marked", units=_names(firers),
                                    marker=Msg.of("lnlt.marker.fired")), "L-8")
            self.did.append(f"op-fire:{where}:{to}")
            j += 1

    def spot(self, hex_id: str, k: int) -> None:
        roster, n = self.roster, self.n
        free = self._free(hex_id)
        prefix = f"i{n}.spot.{k}"
        uid = self.port.ask(RuledChoice(
            id=f"{prefix}.unit", text=Msg.of("lnlt.q.spotter", hex=hex_id),
            choices=tuple(Choice(u.id, _unit_label(u)) for u in free),
            default_value=free[0].id, clause="L-11"))
        places = [h for h in roster.all_hexes() if h != hex_id]
        target = self.port.ask(RuledChoice(
            id=f"{prefix}.hex", text=Msg.of("lnlt.q.spot_hex"),
            choices=tuple(Choice(h, h) for h in places), default_value=places[0],
            clause="L-11"))
        found = self.port.ask(ConfirmQuestion(
            id=f"{prefix}.found", text=Msg.of("lnlt.q.spot_found", hex=target),
            default_value=False, clause="L-14", help=Msg.of("lnlt.help.spot"),
            answered_by=EITHER))
        unit = roster.unit(uid)
        self._note_action(unit, "spot")
        self.acted.add(uid)
        _mark(unit, "ops-complete")
        self.log.outcome(Msg.of("lnlt.step.spotted" if found else "lnlt.step.not_spotted",
                                unit=unit.label, hex=target), "L-11")
        if found:
            self.spotted[hex_id] = (target, uid)
        self.did.append(f"spot:{hex_id}:{target}")

    def finish(self) -> None:
        marked_leaders = []
        for lid in self.reach_leaders:
            leader = self.roster.unit(lid)
            if lid not in self.acted and not leader.markers:
                self._note_action(leader, "activate-others")
                _mark(leader, "ops-complete")
                marked_leaders.append(leader)
                self.log.outcome(Msg.of("lnlt.step.leader_ops_complete", leader=leader.label),
                                 "L-10")
        if not self.did and not marked_leaders and empty_counts_as_pass(self.options):
            # L-2, L-X1: an activation in which nothing acted and no leader became Ops
            # Complete changes nothing on the map; letting it reset the count would let a
            # player put the three-pass end off for ever. It counts as a pass.
            self.state.passes += 1
            self.log.input(Msg.of("lnlt.step.empty_activation", side=self.side,
                                  passes=self.state.passes), "L-X1", passes=self.state.passes)
        else:
            if self.state.passes:
                self.log.input(Msg.of("lnlt.step.passes_reset", passes=self.state.passes),
                               "L-X1")
            self.state.passes = 0
        self.state.log.append(PlayedImpulse(number=self.n, side=self.side, kind="activation",
                                            hexes=list(self.hexes), did=list(self.did),
                                            passes=self.state.passes))


EMPTY_ACTIVATION = "empty-activation"  # option (L-X1): counts-as-pass | resets


def empty_counts_as_pass(options: Options) -> bool:
    """L-X1: whether an activation that did nothing counts as a pass (the default) or, as
    any activation, resets the count of consecutive passes (option empty-activation=resets).
    Read with a default so that a rulesets file without the option keeps the default."""
    return bool(options.values.get(EMPTY_ACTIVATION, "counts-as-pass") != "resets")


def level_of(unit: Unit) -> int:
    """A unit's building level; a unit outside the building (no level) is at ground, 0."""
    return unit.level if unit.level is not None else 0


def _mark(unit: Unit, marker: str) -> None:
    if marker not in unit.markers:
        unit.markers.append(marker)  # type: ignore[arg-type]


def _lends_fp(comp: Component) -> bool:
    """Whether a component fires (a leader's own entry lends only his LM)."""
    return comp.sw is not None or not comp.unit.leader


def _armed(unit: Unit) -> bool:
    """Whether the unit has anything that fires (its IFP or a support weapon)."""
    return any(_lends_fp(c) for c in _components(unit))


def _fires(unit: Unit) -> bool:
    """Whether the unit may fire now: armed, and not Shaken (``Unit.shaken``)."""
    return not unit.shaken and _armed(unit)


def _shaken_refusals(units: list[Unit], clause: str) -> tuple[Refusal, ...]:
    """Refusals for the firing choices of Shaken units: offered none, a script naming one
    is told why."""
    return tuple(Refusal(c.key, clause, Msg.of("lnlt.why.shaken_unit", unit=u.label))
                 for u in units if u.shaken for c in _components(u))


def _components(unit: Unit) -> list[Component]:
    """What a unit can fire: its IFP (MMC and SMC; a leader lends his LM), its SWs."""
    out = []
    if unit.kind != "vehicle" or unit.ifp:
        out.append(Component(unit))
    out += [Component(unit, sw) for sw in unit.sws]
    return out


def _component_label(comp: Component) -> Msg:
    if comp.sw is not None:
        return Msg.of("lnlt.label.sw", sw=comp.sw.label, unit=comp.unit.label,
                      kind=Msg.of(f"lnlt.sw.{comp.sw.kind}"), fp=comp.sw.fp)
    if comp.unit.leader:
        return Msg.of("lnlt.label.leader", unit=comp.unit.label, lm=comp.unit.lm)
    return Msg.of("lnlt.label.ifp", unit=comp.unit.label, ifp=comp.unit.ifp)


def _enemy_hexes(roster: Roster, side: str) -> list[str]:
    return sorted({u.hex for u in roster.scan() if u.side != side and u.on_map})
