"""An Epic Armageddon turn over the game file (E-T1 to E-T8; brief
docs/rules/epic-armageddon-turn.md): the strategy roll, each activation's action test (its
modifiers, retaining the initiative, the Blast marker and hold action of a failed test),
regrouping, and the end phase's rally tests and void shields. Each ``referee epic-turn`` is
one step (the next one the turn needs), resolved as an attack is: questions through the
port, a ``Result`` whose state update the game file keeps. The actions themselves (shooting,
assaults) are resolved by their own commands on the same game file between steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from referee.core.dice import DiceSpec
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import (
    EITHER,
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    NumberQuestion,
)
from referee.core.result import Result, StepLog
from referee.core.table import dice_text
from referee.core.text import Msg
from referee.rulesets.base import AttackContext
from referee.rulesets.epic.common import weapon_key
from referee.rulesets.epic.declaration import RosterFormation, TurnStep
from referee.rulesets.epic.formations import formation_label
from referee.rulesets.epic.tables import RULESET_ID

ACTIONS = ("advance", "engage", "double", "march", "marshal", "overwatch", "sustained-fire")


def side_label(side: str) -> Msg | str:
    """A side as a player reads it: a roster's side by its name, else the first or the
    second player."""
    return Msg.of(f"epic.turn.side.{side}") if side in ("first", "second") else side


@dataclass
class Known:
    """What the turn knows of a formation: its side, initiative value, units left (a war
    engine its DC), leaders and war engines (from the roster; asked when there is none)."""

    name: str
    side: str
    initiative: int
    worth: int
    leaders: int
    engines: tuple[str, ...] = ()


class Turn:
    def __init__(self, ctx: AttackContext, step: TurnStep, log: StepLog) -> None:
        self.ctx, self.step, self.log = ctx, step, log
        self.port: Port = ctx.port
        self.formations: dict[str, dict[str, Any]] = {
            k: dict(v) for k, v in ctx.state.get("formations", {}).items()}
        saved = ctx.state.get("turn")
        self.turn: dict[str, Any] = dict(saved) if saved else {
            "number": 1, "phase": "strategy", "acted": [], "strategy": {}, "sides": {},
            "initiative": {}}
        self.roster = self._roster()
        self.told: dict[str, str] = {}  # the sides asked in this step (the game keeps them)

    # -- what the turn knows -------------------------------------------------------------
    def _roster(self) -> dict[str, RosterFormation]:
        if self.step.roster is None:
            return {}
        from referee.rulesets.epic.roster import load_roster

        return {f.name: f for f in load_roster(self.step.roster).formation}

    def names(self) -> list[str]:
        return list(dict.fromkeys([*self.roster, *self.formations]))

    def state_of(self, name: str) -> dict[str, Any]:
        return self.formations.setdefault(name, {"blast_markers": 0, "broken": False,
                                                 "destroyed": []})

    def side_of(self, name: str) -> str:
        """E-T1: a formation's side: the roster's, else the game's (its army kept, or the
        side an attack was told), else asked once (the game's sides by name, when it has
        them) and told to the game (``outcome_data["sides_told"]``)."""
        sides = self.turn["sides"]
        if name not in sides:
            f = self.roster.get(name)
            kept = self.formations.get(name, {}).get("army", {}).get("side")
            known = (f.side if f is not None and f.side else kept) or self.step.sides.get(name)
            if not known:
                named = self.step.side_names if len(self.step.side_names) == 2 else None
                choices = (tuple(Choice(s, s) for s in named) if named else
                           (Choice("first", Msg.of("epic.turn.side.first")),
                            Choice("second", Msg.of("epic.turn.side.second"))))
                known = str(self.port.ask(ChoiceQuestion(
                    answered_by=EITHER, id=f"side.{weapon_key(name)}", clause="E-T1",
                    default_value=choices[0].value,
                    text=Msg.of("epic.turn.q.side", formation=formation_label(name)),
                    choices=choices)))
                self.told[name] = known
            sides[name] = known
        return str(sides[name])

    def initiative_of(self, name: str) -> int:
        known = self.turn["initiative"]
        if name not in known:
            f = self.roster.get(name)
            kept = self.formations.get(name, {}).get("army", {}).get("initiative")
            known[name] = (f.initiative if f is not None and f.initiative else kept) or int(
                self.port.ask(NumberQuestion(
                    answered_by=EITHER,
                    id=f"initiative.{weapon_key(name)}", clause="E-T3", minimum=1, maximum=6,
                    default_value=2, text=Msg.of("epic.turn.q.initiative",
                                                 formation=formation_label(name)))))
        return int(known[name])

    def known(self, name: str) -> Known:
        f = self.roster.get(name)
        state = self.state_of(name)
        lost = {weapon_key(n) for n in state.get("destroyed", [])}
        if f is not None:
            alive = [u for u in f.units if weapon_key(u.name) not in lost]
            worth = sum(u.dc or 1 for u in alive)
            leaders = sum(1 for u in alive if u.leader)
            engines = tuple(weapon_key(u.name) for u in alive if u.type == "WE")
        else:
            worth = int(self.port.ask(NumberQuestion(
                answered_by=EITHER,
                id=f"units.{weapon_key(name)}", clause="E-T7", minimum=1, maximum=99,
                default_value=1, text=Msg.of("epic.turn.q.units",
                                             formation=formation_label(name)))))
            leaders, engines = 0, tuple(state.get("shields_down", {}))
        return Known(name, self.side_of(name), self.initiative_of(name), worth, leaders,
                     engines)

    def sides(self) -> list[str]:
        return sorted({self.side_of(n) for n in self.names()})

    # -- the steps -----------------------------------------------------------------------
    def run(self) -> Msg:
        if self.step.regroup is not None:
            return self.regroup(self.step.regroup)
        phase = self.turn["phase"]
        if phase == "strategy":
            return self.strategy()
        if phase == "action" and not self.step.end_phase and self._waiting():
            return self.activation()
        return self.end_phase()

    def strategy(self) -> Msg:
        """E-T1: each side rolls a die and adds its strategy rating; the higher chooses to
        act first or second (a tie: the side that did not have the initiative last turn)."""
        totals = {}
        rows = []
        for side in self.sides():
            rating = self.turn["strategy"].get(side)
            if rating is None:
                rating = int(self.port.ask(NumberQuestion(
                    answered_by=EITHER, id=f"strategy.{side}", clause="E-T1", minimum=0, maximum=9,
                    default_value=2, text=Msg.of("epic.turn.q.strategy",
                                                 side=side_label(side)))))
                self.turn["strategy"][side] = rating
            roll = self.port.ask(DiceQuestion(
                answered_by=EITHER,
                id=f"strategy-roll.{side}", clause="E-T1", spec=DiceSpec(count=1),
                text=Msg.of("epic.turn.q.strategy_roll", side=side_label(side),
                            rating=rating)))
            face = roll.faces[0] if roll.faces else 1
            totals[side] = face + rating
            rows.append((side_label(side), face, rating, face + rating))
        self.log.table(Msg.of("epic.turn.table.strategy", turn=self.turn["number"]),
                       [Msg.of(f"epic.turn.col.{c}") for c in ("side", "die", "rating",
                                                               "total")], rows, clause="E-T1")
        best = max(totals.values())
        winners = [s for s, t in totals.items() if t == best]
        if len(winners) > 1:
            previous = self.turn.get("first")
            winners = [s for s in winners if s != previous] or winners
        winner = winners[0] if len(winners) == 1 else self.port.ask(ChoiceQuestion(
            answered_by=EITHER, id="strategy-tie", clause="E-T1", default_value=winners[0],
            text=Msg.of("epic.turn.q.tie"),
            choices=tuple(Choice(s, side_label(s)) for s in winners)))
        order = self.port.ask(ChoiceQuestion(
            answered_by=EITHER, id="goes-first", clause="E-T1", default_value="first",
            text=Msg.of("epic.turn.q.goes_first", side=side_label(winner)),
            choices=(Choice("first", Msg.of("epic.turn.choice.first")),
                     Choice("second", Msg.of("epic.turn.choice.second")))))
        others = [s for s in self.sides() if s != winner]
        first = winner if order == "first" or not others else others[0]
        self.turn.update(phase="action", first=first, acting=first, acted=[], last=None,
                         last_passed=False, last_retained=False, last_action=None)
        self.log.outcome(Msg.of("epic.turn.step.first", side=side_label(first),
                                winner=side_label(winner)), "E-T1",
                         first=first, winner=winner)
        return Msg.of("epic.turn.outcome.strategy", side=side_label(first),
                      turn=self.turn["number"])

    def _ready(self, side: str) -> list[str]:
        """E-T2: the side's unbroken formations that have not acted this turn."""
        return [n for n in self.names() if self.side_of(n) == side
                and n not in self.turn["acted"] and not self.state_of(n).get("broken")
                and self.known_worth(n) > 0]

    def known_worth(self, name: str) -> int:
        f = self.roster.get(name)
        if f is None:
            return 1
        lost = {weapon_key(n) for n in self.state_of(name).get("destroyed", [])}
        return sum(u.dc or 1 for u in f.units if weapon_key(u.name) not in lost)

    def _waiting(self) -> bool:
        return any(self._ready(s) for s in self.sides())

    def activation(self) -> Msg:
        """E-T2 to E-T4: the side to act names a formation and its action, and tests it."""
        last_side = self.side_of(self.turn["last"]) if self.turn.get("last") else None
        acting = self.turn.get("acting") or self.sides()[0]
        retain = False
        if (last_side is not None and self.turn["last_passed"]
                and not self.turn["last_retained"] and self._ready(last_side)
                and any(self._ready(s) for s in self.sides() if s != last_side)):
            retain = bool(self.port.ask(ConfirmQuestion(
                answered_by=EITHER, id="retain", clause="E-T4", default_value=False,
                text=Msg.of("epic.turn.q.retain", side=side_label(last_side)))))
            if retain:
                acting = last_side
        if not self._ready(acting):  # E-T4: the other side has none left: no -1
            acting = next(s for s in self.sides() if self._ready(s))
        ready = self._ready(acting)
        name = ready[0] if len(ready) == 1 else self.port.ask(ChoiceQuestion(
            answered_by=EITHER, id="formation", clause="E-T2", default_value=ready[0],
            text=Msg.of("epic.turn.q.formation", side=side_label(acting)),
            choices=tuple(Choice(weapon_key(n), formation_label(n)) for n in ready)))
        name = next(n for n in ready if weapon_key(n) == weapon_key(name))
        action = self.port.ask(ChoiceQuestion(
            answered_by=EITHER, id="action", clause="E-T2", default_value="advance",
            text=Msg.of("epic.turn.q.action", formation=formation_label(name)),
            choices=tuple(Choice(a, Msg.of(f"epic.action.{a}")) for a in ACTIONS)))
        k = self.known(name)
        state = self.state_of(name)
        markers = int(state.get("blast_markers", 0))
        need = k.initiative + (1 if markers else 0) + (1 if retain else 0)
        mods = [("markers", -1)] if markers else []
        if retain:
            mods.append(("retain", -1))
        for key, value in mods:
            self.log.modifier(Msg.of(f"epic.turn.mod.{key}", value=f"{value:+d}"), "E-T3",
                              value=value)
        passed = self._test(f"action-test.{weapon_key(name)}", name, k.initiative, need,
                            "E-T3")
        self.turn["acted"].append(name)
        self.turn.update(last=name, last_passed=passed, last_retained=retain,
                         last_action=action if passed else "hold")
        others = [s for s in self.sides() if s != acting]
        self.turn["acting"] = others[0] if others else acting
        if action == "overwatch" and passed:  # E-20: it goes on overwatch
            state["overwatch"] = True
        elif state.get("overwatch"):  # a new action ends an overwatch (E-20)
            state["overwatch"] = False
        if passed:
            self.log.outcome(Msg.of("epic.turn.step.passed", formation=formation_label(name),
                                    action=Msg.of(f"epic.action.{action}")), "E-T3")
            outcome = Msg.of("epic.turn.outcome.passed", formation=formation_label(name),
                             action=Msg.of(f"epic.action.{action}"))
        else:  # E-T3: a Blast marker and the hold action
            state["blast_markers"] = markers + 1
            self.log.outcome(Msg.of("epic.turn.step.failed", formation=formation_label(name),
                                    markers=markers + 1), "E-T3", markers=markers + 1)
            self._break_check(name, k)
            outcome = Msg.of("epic.turn.outcome.failed", formation=formation_label(name))
        self.log.note(Msg.of(f"epic.turn.note.{action if passed else 'hold'}",
                             formation=formation_label(name)), "E-T2")
        return outcome

    def _test(self, qid: str, name: str, initiative: int, need: int, clause: str) -> bool:
        """A test against the initiative value: a die needing ``need`` (a 1 is no failure
        by itself, official FAQ; 1 or less passes unrolled; 7 or more cannot pass)."""
        self.log.input(Msg.of("epic.turn.step.need", formation=formation_label(name),
                              initiative=initiative, need=need), clause, initiative=initiative,
                       need=need)
        if need <= 1:
            self.log.outcome(Msg.of("epic.turn.step.automatic"), clause)
            return True
        if need > 6:
            self.log.outcome(Msg.of("epic.turn.step.impossible", need=need), clause)
            return False
        roll = self.port.ask(DiceQuestion(
            answered_by=EITHER,
            id=qid, clause=clause, spec=DiceSpec(count=1, target=need, count_only=True),
            text=Msg.of("epic.turn.q.test", formation=formation_label(name), need=need)))
        passed = roll.successes == 1
        self.log.roll(Msg.of("epic.turn.step.rolled", faces=dice_text(roll),
                             result=Msg.of("epic.turn.result.passed" if passed else
                                           "epic.turn.result.failed")), clause,
                      faces=roll.faces, passed=passed)
        side = self.side_of(name)
        if not passed and self._supreme(side) and side not in self.turn.setdefault(
                "rerolls", []) and self.port.ask(ConfirmQuestion(
                    answered_by=EITHER, id=f"{qid}.supreme", clause="E-T8", default_value=True,
                    text=Msg.of("epic.turn.q.supreme", side=side_label(side)))):
            self.turn["rerolls"].append(side)  # E-T8: once a turn
            again = self.port.ask(DiceQuestion(
                answered_by=EITHER, id=f"{qid}.reroll", clause="E-T8",
                spec=DiceSpec(count=1, target=need, count_only=True),
                text=Msg.of("epic.turn.q.test", formation=formation_label(name), need=need)))
            passed = again.successes == 1
            self.log.roll(Msg.of("epic.turn.step.rerolled", faces=dice_text(again),
                                 result=Msg.of("epic.turn.result.passed" if passed else
                                               "epic.turn.result.failed")), "E-T8",
                          faces=again.faces, passed=passed)
        return passed

    def _supreme(self, side: str) -> bool:
        """Has ``side`` a supreme commander alive in a roster formation (E-T8)?"""
        for name, f in self.roster.items():
            lost = {weapon_key(n) for n in self.state_of(name).get("destroyed", [])}
            if self.side_of(name) == side and any(
                    u.supreme_commander and weapon_key(u.name) not in lost for u in f.units):
                return True
        return False

    def _break_check(self, name: str, k: Known) -> None:
        state = self.state_of(name)
        if not state.get("broken") and state.get("blast_markers", 0) >= k.worth:
            state["broken"] = True
            self.log.outcome(Msg.of("epic.turn.step.broken", formation=formation_label(name),
                                    markers=state["blast_markers"], units=k.worth), "E-14")

    def regroup(self, name: str) -> Msg:
        """E-T5: two dice, the higher removes that many markers, one more a leader."""
        if name not in self.names():
            self.log.outcome(Msg.of("epic.turn.step.unknown", formation=name), "E-T5")
            return Msg.of("epic.turn.outcome.nothing")
        k = self.known(name)
        roll = self.port.ask(DiceQuestion(
            answered_by=EITHER,
            id=f"regroup.{weapon_key(name)}", clause="E-T5", spec=DiceSpec(count=2),
            text=Msg.of("epic.turn.q.regroup", formation=formation_label(name)),
            odds=OddsRef.to("referee.rulesets.epic.assault_odds:highest",
                            label=formation_label(name))))
        removed = max(roll.faces or (1,)) + k.leaders
        state = self.state_of(name)
        before = int(state.get("blast_markers", 0))
        removed -= self._shields_back(name, state, removed)
        state["blast_markers"] = max(0, before - removed)
        self.log.roll(Msg.of("epic.turn.step.regroup", formation=formation_label(name),
                             faces=dice_text(roll), leaders=k.leaders, removed=removed,
                             before=before, after=state["blast_markers"]), "E-T5",
                      faces=roll.faces, removed=removed, markers=state["blast_markers"])
        return Msg.of("epic.turn.outcome.regroup", formation=formation_label(name),
                      markers=state["blast_markers"])

    def _shields_back(self, name: str, state: dict[str, Any], removed: int) -> int:
        """E-W9: a regroup's roll may put void shields back up instead of taking markers
        off, as its owner says; the points so spent."""
        down = {u: int(n) for u, n in state.get("shields_down", {}).items() if n}
        if not down or not removed:
            return 0
        spent = int(self.port.ask(NumberQuestion(
            answered_by=EITHER, id=f"regroup.{weapon_key(name)}.shields", clause="E-W9", minimum=0,
            maximum=min(removed, sum(down.values())), default_value=0,
            text=Msg.of("epic.turn.q.regroup_shields", formation=formation_label(name),
                        removed=removed, down=sum(down.values())))))
        left = spent
        for unit in down:
            back = min(left, down[unit])
            down[unit] -= back
            left -= back
        state["shields_down"] = {u: n for u, n in down.items() if n}
        if spent:
            self.log.outcome(Msg.of("epic.turn.step.regroup_shields",
                                    formation=formation_label(name), count=spent), "E-W9",
                             shields=spent)
        return spent

    def end_phase(self) -> Msg:
        """E-T6, E-T7, E-W9: rally tests, alternating from the higher strategy rating; a
        void shield back on each war engine; then the next turn."""
        sides = self.sides()
        ratings = self.turn["strategy"]
        order = sorted(sides, key=lambda s: -ratings.get(s, 0))
        queues = {s: [n for n in self.names() if self.side_of(n) == s
                      and (self.state_of(n).get("blast_markers") or self.state_of(n).get(
                          "broken")) and self.known_worth(n) > 0] for s in sides}
        rows = []
        turn = 0
        while any(queues.values()):
            side = order[turn % len(order)]
            turn += 1
            if not queues[side]:
                continue
            rows.append(self._rally(queues[side].pop(0)))
        if rows:
            self.log.table(Msg.of("epic.turn.table.rally", turn=self.turn["number"]),
                           [Msg.of(f"epic.turn.col.{c}") for c in
                            ("formation", "need", "result", "markers", "broken")], rows,
                           clause="E-T7")
        for name in self.names():
            down = dict(self.state_of(name).get("shields_down", {}))
            for unit, n in down.items():
                if n:
                    down[unit] = n - 1
                    self.log.outcome(Msg.of("epic.turn.step.shield_back", unit=unit,
                                            left=n - 1), "E-W9")
            if down:
                self.state_of(name)["shields_down"] = {u: n for u, n in down.items() if n}
        number = int(self.turn["number"])
        self.turn.update(number=number + 1, phase="strategy", acted=[], last=None,
                         last_passed=False, last_retained=False, last_action=None, rerolls=[])
        return Msg.of("epic.turn.outcome.end", turn=number, rallied=len(rows))

    def _rally(self, name: str) -> tuple[Any, ...]:
        """E-T7: a die against the initiative, -2 broken, -1 an enemy within 30 cm."""
        k = self.known(name)
        state = self.state_of(name)
        broken = bool(state.get("broken"))
        near = bool(self.port.ask(ConfirmQuestion(
            answered_by=EITHER,
            id=f"enemy-near.{weapon_key(name)}", clause="E-T7", default_value=True,
            text=Msg.of("epic.turn.q.enemy_near", formation=formation_label(name)))))
        need = k.initiative + (2 if broken else 0) + (1 if near else 0)
        for key, on, value in (("broken", broken, -2), ("near", near, -1)):
            if on:
                self.log.modifier(Msg.of(f"epic.turn.mod.{key}", value=f"{value:+d}"),
                                  "E-T7", value=value)
        passed = self._test(f"rally.{weapon_key(name)}", name, k.initiative, need, "E-T7")
        markers = int(state.get("blast_markers", 0))
        if passed:
            count = k.worth if broken else markers  # a broken one counts its units
            after = max(0, count - math.ceil(count / 2) - k.leaders)
            state.update(broken=False, blast_markers=after)
            self.log.outcome(Msg.of("epic.turn.step.rallied", formation=formation_label(name),
                                    markers=after), "E-T7", markers=after)
        elif broken:
            self.log.outcome(Msg.of("epic.turn.step.withdraws", formation=formation_label(name)),
                             "E-T7")
        else:
            self.log.outcome(Msg.of("epic.turn.step.stays", formation=formation_label(name),
                                    markers=markers), "E-T7")
        return (formation_label(name), need,
                Msg.of("epic.turn.result.passed" if passed else "epic.turn.result.failed"),
                int(state.get("blast_markers", 0)),
                Msg.of("word.yes" if state.get("broken") else "word.no"))


def play(ctx: AttackContext, step: TurnStep) -> Result:
    log = StepLog()
    turn = Turn(ctx, step, log)
    outcome = turn.run()
    return Result(ruleset=RULESET_ID, steps=log.steps, tables=log.tables, outcome=outcome,
                  outcome_data={"turn": turn.turn["number"], "phase": turn.turn["phase"],
                                **({"sides_told": turn.told} if turn.told else {})},
                  options=dict(ctx.options.values), non_default_options=ctx.options.non_default,
                  state_updates={"formations": turn.formations, "turn": turn.turn})
