"""Resolving a game file's entry again from what its log keeps (``game verify``).

Each entry keeps what resolves it again: for an attack its options, its declaration and its
answers in order; for a Lock 'n Load impulse its options, the roster of a first impulse and
its answers; for World at War's marker phase, which action it took. Replaying gives the typed
dice as typed and rolls every program die afresh from the revealed seed (scheme 2: the entry's
number, the roll's number in the entry and the opponent's contribution; scheme 1, entries of
older games: the entry's number, the question, the roll), starting from the state the entry
began from, through the same resolution as at the board (``play.resolve.Attack``). The
replay's rolls, outcome and state are then compared with the log (``play.verify``). An attack
abandoned after its pending entry is resolved the same way, as far as the answers it kept go,
for the dice it would have had (``would_have``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.dice import ROLL, DiceRoll, KeyedDice
from referee.core.questions import DiceQuestion, Question
from referee.core.text import jsonable

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


def replay(entry: LogEntry, dice: KeyedDice | None) -> Replayed:
    """Resolve ``entry`` again from its before-state: its program dice rolled afresh from
    ``dice`` (the game's, for the entry; ``None``: as the log gives them)."""
    from referee.frontends.answers import AnswerPort

    assert entry.replay is not None and entry.before is not None and entry.number is not None
    block = entry.replay
    before = entry.before
    if block.get("kind") == "waw-markers":
        from referee.play.markers import replay_markers

        return Replayed([], None, _plain(replay_markers(block, before)))
    if block.get("kind") == "charts":  # ``game charts``: the answers it left (issue 27)
        return Replayed([], None, _plain({**before, "charts": block.get("charts") or []}))
    if block.get("kind") == "state":  # ``game roster --import``: the armies it brought in
        return Replayed([], None, _plain({**before, **(block.get("updates") or {})}))
    answers = {str(q): (ROLL if dice is not None and _is_program(a) else a)
               for q, a in block.get("answers", [])}
    answerer = AnswerPort(answers, dice if dice is not None else KeyedDice("", entry.number),
                          file=f"#{entry.number}")
    port = _Capture(answerer)
    from referee.catalog import speaking
    from referee.core.options import resolve_options
    from referee.rulesets import find_ruleset

    info = find_ruleset(entry.ruleset)
    options = resolve_options(info.option_specs(), block.get("options") or {})

    with speaking(block.get("lang")):  # the names it made, in the language it was played in
        result, after = _resolved(entry, block, info, options, port, before)
    answerer.finish()
    outcome = {"text": jsonable(result.outcome), "data": jsonable(dict(result.outcome_data))}
    return Replayed(port.rolls, _plain(outcome), _plain(after))


def _resolved(entry: LogEntry, block: Mapping[str, Any], info: Any, options: Any, port: Port,
              before: Mapping[str, Any]) -> tuple[Result, dict[str, Any]]:
    """The entry's attack or impulse resolved again, and the state after it."""
    from referee.play.resolve import Attack

    if block.get("kind") == "phase":
        from referee.play.phase import STATE_OPTIONS, Impulse, impulse_result, roster_of

        phase, log, charts = Impulse(roster_of(block.get("roster")), before, options,
                                     entry.number, block.get("damage_table"),
                                     block.get("typed"))(port)
        result: Result = impulse_result(phase, log, options, charts)
        after = {**before, **_plain(dict(result.state_updates)),
                 STATE_OPTIONS: block.get("options") or {}}
    else:
        raw = block.get("declaration")
        declaration = (_declaration(info, raw, f"#{entry.number}")
                       if raw is not None else None)
        told = block.get("sides")  # the sides the game told the resolver (issue 27)
        result = Attack(info, options, declaration, before, entry.number,
                        (lambda _a, _d: dict(told)) if isinstance(told, dict) else None)(port)
        after = {**before, **_plain(dict(result.state_updates))}
    return result, after


def entry_dice(info: Any, history: Any, number: int, scheme: int) -> KeyedDice:
    """The game's dice of entry ``number`` as they were drawn: scheme 2 from the seed and the
    contribution the file keeps, scheme 1 (older games) from the seed and the opponent's
    text."""
    if scheme < 2:
        return KeyedDice(info.key, attack=number)
    from referee.core.dice import EntryDice
    from referee.game.contribution import HolderDice, from_file

    given = HolderDice() if info.holder_dice else from_file(history.contribution(number))
    if given is None:
        return EntryDice(info.seed, number)  # no contribution: any program die is a mismatch
    return EntryDice(info.seed, number, contribute=lambda: given.value)


_DECLARED: dict[tuple[str, str], Any] = {}  # a declaration validated once per process


def _declaration(info: Any, raw: Any, where: str) -> Any:
    """The ruleset's declaration of ``raw`` (validated once for the same text: a long game
    repeats its declarations), a fresh copy each time (a resolver may change it)."""
    import copy

    from referee.play.plan import validate_declaration

    key = (info.id, json.dumps(raw, sort_keys=True, ensure_ascii=False))
    if key not in _DECLARED:
        if len(_DECLARED) > 256:
            _DECLARED.clear()
        _DECLARED[key] = validate_declaration(info, raw, where)
    return copy.deepcopy(_DECLARED[key])


def would_have(history: Any, info: Any, abandon: Any) -> list[tuple[str, DiceRoll]] | None:
    """The program rolls an abandoned attack would have had (after the reveal): resolved
    from the state it began from with the answers it kept, each program die from the seed
    and its contribution, up to the first question those answers do not give. ``None``: no
    contribution was given, so it had no dice."""
    from referee.core.errors import RefereeError
    from referee.core.options import resolve_options
    from referee.frontends.answers import AnswerPort
    from referee.play.resolve import Attack
    from referee.rulesets import find_ruleset

    by_id = {e.id: e for e in history.events}
    pending = by_id.get((abandon.body or {}).get("pending"))
    if pending is None or pending.number is None:
        return None
    if not info.holder_dice and not history.contribution(pending.number):
        return None
    kept = (abandon.body or {}).get("answers") or (pending.body or {}).get("answers") or []
    answers = {str(q): (ROLL if _is_program(a) else a) for q, a in kept}
    port = _Capture(AnswerPort(answers, entry_dice(info, history, pending.number, 2),
                               file=f"#{pending.number}", roll_missing_dice=True))
    state = history.states.get(pending.id, {})
    body = pending.body or {}
    try:
        ruleset = find_ruleset(pending.ruleset)
        options = resolve_options(ruleset.option_specs(), body.get("options") or {})
        raw = body.get("declaration")
        if pending.command == "phase":
            from referee.play.phase import Impulse, roster_of

            Impulse(roster_of(raw), state, options)(port)
        else:
            declaration = (_declaration(ruleset, raw, f"#{pending.number}")
                           if raw is not None else None)
            Attack(ruleset, options, declaration, dict(state))(port)
    except (RefereeError, ValueError):
        pass  # the answers it kept end here
    return port.rolls


def would_have_lines(history: Any, info: Any, abandon: Any) -> list[str]:
    """``would_have`` as lines of the log."""
    from referee.catalog import render
    from referee.core.text import Msg
    from referee.render.display import dice_text

    rolls = would_have(history, info, abandon)
    if rolls is None:
        return [render(Msg.of("game.log.no_dice"))]
    if not rolls:
        return [render(Msg.of("game.log.would_have_none"))]
    return [render(Msg.of("game.log.would_have", question=qid, dice=dice_text(roll)))
            for qid, roll in rolls]
