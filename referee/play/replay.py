"""Resolving a game file's entry again from what its log keeps (``game verify``).

Each entry keeps what resolves it again: for an attack its options, its declaration and its
answers in order; for a Lock 'n Load impulse its options, the roster of a first impulse and
its answers; for World at War's marker phase, which action it took. Replaying gives the typed
dice as typed and rolls every program die afresh from the revealed seed (the entry's number,
the question, the roll), starting from the state the entry began from, through the same
resolution as at the board (``play.resolve.Attack``). The replay's rolls, outcome and state are then
compared with the log (``play.verify``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.dice import ROLL, DiceRoll, KeyedDice
from referee.core.questions import DiceQuestion, Question

if TYPE_CHECKING:
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.game import LogEntry


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
        from referee.play.markers import replay_markers

        return Replayed([], None, _plain(replay_markers(block, before)))
    answers = {str(q): (ROLL if key is not None and _is_program(a) else a)
               for q, a in block.get("answers", [])}
    dice = KeyedDice(key if key is not None else "", attack=entry.number)
    answerer = AnswerPort(answers, dice, file=f"#{entry.number}")
    port = _Capture(answerer)
    from referee.core.options import resolve_options
    from referee.play.resolve import Attack
    from referee.rulesets import find_ruleset

    info = find_ruleset(entry.ruleset)
    options = resolve_options(info.option_specs(), block.get("options") or {})
    if block.get("kind") == "phase":
        from referee.play.phase import STATE_OPTIONS, Impulse, impulse_result, roster_of

        phase, log = Impulse(roster_of(block.get("roster")), before, options)(port)
        result: Result = impulse_result(phase, log, options)
        after = {**before, **_plain(dict(result.state_updates)),
                 STATE_OPTIONS: block.get("options") or {}}
    else:
        from referee.play.plan import validate_declaration

        raw = block.get("declaration")
        declaration = (validate_declaration(info, raw, f"#{entry.number}")
                       if raw is not None else None)
        result = Attack(info, options, declaration, before)(port)
        after = {**before, **_plain(dict(result.state_updates))}
    answerer.finish()
    return Replayed(port.rolls, _plain(result.to_json()["outcome"]), _plain(after))
