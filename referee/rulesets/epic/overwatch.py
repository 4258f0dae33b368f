"""Overwatch fire (E-20): is the formation on overwatch, did the enemy trigger it, and may it
fire now. The shooting itself is the normal attack at the triggering formation."""

from __future__ import annotations

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.epic.declaration import Overwatch
from referee.rulesets.epic.tables import tables

TRIGGERS = ("move", "disembark")
EVENTS = ("move", "disembark", "shoot", "regroup", "teleport", "counter-charge")


def trigger_problem(ow: Overwatch) -> Msg | None:
    """Why this event does not let the formation fire on overwatch (None: it does)."""
    if not ow.coherent:
        return Msg.of("epic.overwatch.not_coherent")
    if ow.trigger not in TRIGGERS:
        return Msg.of("epic.overwatch.no_trigger", trigger=Msg.of(f"epic.trigger.{ow.trigger}"))
    if ow.trigger == "move" and ow.enemy_action is not None:
        moves = tables().moves.get(ow.enemy_action)
        if moves == 0:
            return Msg.of("epic.overwatch.no_move", action=ow.enemy_action)
        if moves is not None and ow.after_move is not None and not 1 <= ow.after_move <= moves:
            return Msg.of("epic.overwatch.bad_move", action=ow.enemy_action, moves=moves,
                          after=ow.after_move)
    return None


def ask_trigger(port: Port, firing: Msg | str, target: Msg | str) -> Overwatch:
    """Overwatch fire at the table (E-20): what the enemy formation did, and for a move its
    action and after which of its moves (asked only when the action makes more than one)."""
    trigger = port.ask(ChoiceQuestion(
        id="overwatch.trigger", clause="E-20", default_value="move",
        text=Msg.of("epic.q.overwatch_trigger", firing=firing, target=target),
        choices=tuple(Choice(e, Msg.of(f"epic.trigger.{e}")) for e in EVENTS)))
    if trigger != "move":
        return Overwatch(trigger=trigger)
    moves = tables().moves
    action = port.ask(ChoiceQuestion(
        id="overwatch.enemy-action", clause="E-20", default_value="advance",
        text=Msg.of("epic.q.overwatch_action", target=target),
        choices=tuple(Choice(a, Msg.of(f"epic.action.{a}")) for a in moves)))
    after = 1
    if moves[action] > 1:
        after = int(port.ask(NumberQuestion(
            id="overwatch.after-move", clause="E-20", minimum=1, maximum=moves[action],
            default_value=1, text=Msg.of("epic.q.overwatch_after", target=target,
                                         moves=moves[action]))))
    return Overwatch(trigger="move", enemy_action=action,
                     after_move=after if moves[action] else None)


def check_trigger(ow: Overwatch, firing: Msg | str, target: Msg | str, log: StepLog) -> bool:
    log.input(Msg.of("epic.step.overwatch", firing=firing, target=target,
                     trigger=Msg.of(f"epic.trigger.{ow.trigger}"),
                     action=ow.enemy_action or "-", after=ow.after_move or "-"), "E-20")
    problem = trigger_problem(ow)
    if problem is not None:
        log.outcome(problem, "E-20")
        return False
    log.outcome(Msg.of("epic.overwatch.fires", firing=firing, target=target), "E-20")
    return True
