"""Resolving a game file's entry again from what its log keeps (``game verify``).

Each entry keeps what resolves it again: for an attack its options, its declaration and its
answers in order; for a Lock 'n Load impulse its options, the roster of a first impulse and
its answers; for World at War's marker phase, which action it took. Replaying gives the typed
dice as typed and rolls every program die afresh from the revealed seed (the entry's number,
the question, the roll), starting from the state the entry began from. The replay's rolls,
outcome and state are then compared with the log (``referee.game.verify``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.dice import ROLL, DiceRoll, KeyedDice
from referee.core.questions import DiceQuestion, Question

if TYPE_CHECKING:
    from referee.core.port import Port
    from referee.core.result import Result, StepLog
    from referee.game import LogEntry
    from referee.rulesets.lnlt.roster import Roster

STATE_OPTIONS = "options"  # where a Lock 'n Load phase keeps the options it plays with


def impulse(roster: Roster | None, state: Any, options: Any, entry: int | None = None,
            damage_table: Any = None, typed: Mapping[str, Any] | None = None
            ) -> Callable[[Any], tuple[Any, StepLog, Any]]:
    """One Lock 'n Load impulse, from the roster (the first) or the state the game file
    holds: played again from there when the player goes back (a fresh copy each time). It
    gives the phase, the working and the charts read (``referee.core.charts``: the Damage
    Check results entered in the game, ``entry`` the game entry being played).
    ``damage_table``: a Damage Check Table given in the middle of the phase (``--dct``),
    used from this impulse on. ``typed``: a phase with no roster, whose units the first
    impulse asks at the table (``sides``: the game's, else asked too)."""
    from referee.core.charts import Charts
    from referee.core.result import StepLog
    from referee.rulesets.lnlt import play as engine

    def play_one(port: Any) -> tuple[Any, StepLog, Any]:
        log = StepLog()
        charts = Charts(state, entry)
        kept = engine.load_state(state) if roster is None else None
        if kept is None and roster is None and typed is not None:
            from referee.rulesets.lnlt.typed import ask_roster

            phase = engine.begin(ask_roster(port, typed.get("sides")), port, log)
        elif roster is not None:
            phase = engine.begin(roster.model_copy(deep=True), port, log)
        else:
            assert kept is not None  # the loop plays a phase the file holds, not ended
            phase = kept
            if damage_table is not None:
                from referee.core.text import Msg
                from referee.rulesets.lnlt.roster import DamageTable

                table = DamageTable.model_validate(damage_table)
                phase.roster.damage_table = table
                log.input(Msg.of("lnlt.step.dct_from_now", source=table.source), "L-5")
        if not phase.ended:
            engine.play(phase, port, options, log, 1, charts)
        return phase, log, charts

    return play_one


class _Capture:
    """Keeps every roll the replay makes, in order."""

    def __init__(self, inner: Port) -> None:
        self.inner = inner
        self.rolls: list[tuple[str, DiceRoll]] = []

    def ask(self, question: Question) -> Any:
        value = self.inner.ask(question)
        if isinstance(question, DiceQuestion) and isinstance(value, DiceRoll):
            self.rolls.append((question.id, value))
        return value


@dataclass(frozen=True)
class Replayed:
    rolls: list[tuple[str, DiceRoll]]
    outcome: Any  # the outcome as the log keeps it (JSON)
    after: dict[str, Any]  # the ruleset's state after the entry (JSON)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


def _is_program(script: Any) -> bool:
    return isinstance(script, Mapping) and "rolled" in script


def replay(entry: LogEntry, key: str | None) -> Replayed:
    """Resolve ``entry`` again from its before-state: its program dice rolled afresh from
    the game's dice ``key`` (``None``: as the log gives them)."""
    from referee.frontends.answers import AnswerPort

    assert entry.replay is not None and entry.before is not None and entry.number is not None
    block = entry.replay
    before = entry.before
    if block.get("kind") == "waw-markers":
        return _markers(block, before)
    if block.get("kind") == "charts":  # ``game charts``: the answers it left (issue 27)
        return Replayed([], None, _plain({**before, "charts": block.get("charts") or []}))
    if block.get("kind") == "state":  # ``game roster --import``: the armies it brought in
        return Replayed([], None, _plain({**before, **(block.get("updates") or {})}))
    answers = {str(q): (ROLL if key is not None and _is_program(a) else a)
               for q, a in block.get("answers", [])}
    dice = KeyedDice(key if key is not None else "", attack=entry.number)
    port = _Capture(AnswerPort(answers, dice, file=f"#{entry.number}"))
    from referee.core.options import resolve_options
    from referee.rulesets import find_ruleset

    info = find_ruleset(entry.ruleset)
    options = resolve_options(info.option_specs(), block.get("options") or {})
    if block.get("kind") == "phase":
        from referee.rulesets.lnlt import play as engine
        from referee.rulesets.lnlt.roster import Roster

        roster = (Roster.model_validate(block["roster"]) if block.get("roster") is not None
                  else None)
        phase, log, charts = impulse(roster, before, options, entry.number,
                                     block.get("damage_table"), block.get("typed"))(port)
        result: Result = engine.impulse_result(phase, log, options, charts)
        after = {**before, **_plain(dict(result.state_updates)),
                 STATE_OPTIONS: block.get("options") or {}}
    else:
        from referee.rulesets.base import AttackContext
        from referee.session import validate_declaration

        raw = block.get("declaration")
        declaration = (validate_declaration(info, raw, f"#{entry.number}")
                       if raw is not None else None)
        result = info.implementation().attack(AttackContext(port, options, declaration,
                                                            state=before, entry=entry.number))
        after = {**before, **_plain(dict(result.state_updates))}
    port.inner.finish()  # type: ignore[attr-defined]
    return Replayed(port.rolls, _plain(result.to_json()["outcome"]), _plain(after))


def _markers(block: Mapping[str, Any], before: dict[str, Any]) -> Replayed:
    from referee.rulesets.waw import markers as mk

    state = dict(before)
    if block.get("action") == "clear":
        state.update(mk.clear(state))
    else:
        state.update(mk.removal_phase(state)[1])
    return Replayed([], None, _plain(state))
