"""A game file's history: its entries in order, whether the log holds together, and undo.

The log holds together when, followed from its first entry, every entry's number is the next
after the entries that stood when it was written (an entry numbered as an earlier one means
those above it were undone first, and they must be marked so), every entry's state before is
the state the entries before it left, each digest follows from the one before it, the last
digest is the one the file names, and the state the file holds is the state the log leaves.
So an entry taken out, an entry or a die edited, a state edited, or an undone mark put on or
taken off is found (``check_history``), without the seed. ``undo`` marks entries undone and
puts back the state they began from: the state is derived from the log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg
from referee.game import GameTransaction, LogEntry, entry_digest


def message(value: Any) -> Any:
    """A message as the log keeps it (``{"msg": id, "params": {...}}``) made a ``Msg``
    again, so that it is shown in the language of the command that reads it."""
    if isinstance(value, dict) and set(value) == {"msg", "params"} and isinstance(
            value["msg"], str) and isinstance(value["params"], dict):
        return Msg.of(value["msg"], **{k: message(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [message(v) for v in value]
    return value


def tampered(file: str, where: str, reason: Msg) -> GameFileError:
    return GameFileError(Msg.of("game.error.tampered", file=file, where=where, reason=reason))


def _where(entry: LogEntry) -> str:
    from referee.catalog import render

    return render(Msg.of("game.where.entry", number=entry.number or "?", id=entry.id))


@dataclass(frozen=True)
class History:
    """The entries of a game file in order, checked (``check_history``)."""

    entries: list[LogEntry]

    @property
    def standing(self) -> list[LogEntry]:
        return [e for e in self.entries if e.standing]


def _migrated(tx: GameTransaction) -> dict[str, Any]:
    raw = tx.meta("migrated")
    if raw is None:
        return {"entries": 0, "state": {}}
    try:
        data = json.loads(raw)
        ok = isinstance(data["entries"], int) and isinstance(data["state"], dict)
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        raise tampered(tx.name, "meta.migrated", Msg.of("game.why.unreadable"))
    return data  # type: ignore[no-any-return]


def check_history(tx: GameTransaction,
                  digest: Callable[[str, LogEntry], str] = entry_digest) -> History:
    """The file's entries, after checking that the log holds together (see the module);
    a file that does not is a ``GameFileError`` naming the first entry that is wrong.
    ``digest``: how an entry's digest is worked out (a reader that checks the same file
    again and again remembers the digests of the entries it has seen unchanged)."""
    name = tx.name
    entries = tx.log()
    if tx.schema < 2:
        return History(entries)  # a file of format 1 keeps no history to check
    migrated = _migrated(tx)
    first = int(migrated["entries"])
    old = entries[:first]
    if len(old) != first or any(e.has_history for e in old):
        raise tampered(name, "log", Msg.of("game.why.old_entries", count=first))
    state: dict[str, Any] = {str(k): v for k, v in migrated["state"].items()}
    stack: list[LogEntry] = list(old)
    previous = ""
    for entry in entries[first:]:
        where = _where(entry)
        if not entry.has_history:
            raise tampered(name, where, Msg.of("game.why.no_history"))
        assert entry.number is not None and entry.before is not None
        if digest(previous, entry) != entry.digest:
            raise tampered(name, where, Msg.of("game.why.digest"))
        previous = entry.digest or ""
        while stack and (stack[-1].number or 0) >= entry.number:
            top = stack.pop()
            if top.standing or not top.has_history:
                raise tampered(name, where, Msg.of("game.why.renumbered", other=top.number))
            assert top.before is not None
            state[top.ruleset] = top.before
        if len(stack) != entry.number - 1:
            raise tampered(name, where, Msg.of("game.why.missing", number=len(stack) + 1))
        if entry.before != state.get(entry.ruleset, {}):
            raise tampered(name, where, Msg.of("game.why.before"))
        state[entry.ruleset] = entry.after
        stack.append(entry)
    if previous != (tx.meta("head") or ""):
        raise tampered(name, "log", Msg.of("game.why.last_removed"))
    while stack and not stack[-1].standing:  # undone at the end, nothing played since
        top = stack.pop()
        if not top.has_history:
            raise tampered(name, _where(top), Msg.of("game.why.old_undone"))
        assert top.before is not None
        state[top.ruleset] = top.before
    for entry in stack:
        if not entry.standing:
            raise tampered(name, _where(entry), Msg.of("game.why.undone_below"))
    on_stack = {e.id for e in stack}
    for entry in entries:
        if entry.standing and entry.id not in on_stack:
            raise tampered(name, _where(entry), Msg.of("game.why.stands"))
    held = tx.all_state()
    for ruleset in sorted(set(held) | set(state)):
        if held.get(ruleset, {}) != (state.get(ruleset) or {}):
            raise tampered(name, f"state.{ruleset}", Msg.of("game.why.state"))
    return History(entries)


def read_history(path: Path) -> tuple[History, Any]:
    """The checked history of the game file ``path`` and its game (``None``: made by
    ``--game`` alone), read without writing."""
    from referee.game import read_game
    from referee.game.seed import game_info

    with read_game(path) as tx:
        return check_history(tx), game_info(tx)


def undo(path: Path, to: int | None = None) -> list[LogEntry]:
    """Take back the last entry that stands (``to``: every entry after entry ``to``): each
    is marked undone and its ruleset's state is put back as it was before it. Returns the
    entries undone, last first, with the time they were undone."""
    from referee.game import open_game
    from referee.game.seed import game_info

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with open_game(path) as tx:
        info = game_info(tx)
        if info is not None and info.revealed is not None:
            raise GameFileError(Msg.of("game.error.revealed", file=str(path)))
        standing = check_history(tx).standing
        if not standing:
            raise UsageError(Msg.of("game.error.nothing_to_undo", file=str(path)))
        last = standing[-1].number or len(standing)
        if to is not None and not 0 <= to < last:
            raise UsageError(Msg.of("game.error.undo_to", to=to, last=last))
        targets = [standing[-1]] if to is None else [e for e in standing
                                                     if (e.number or 0) > to]
        for entry in targets:
            if not entry.has_history:
                raise GameFileError(Msg.of("game.error.old_entry", file=str(path),
                                           number=entry.number))
        return _undo(tx, targets)


def _undo(tx: GameTransaction, targets: Sequence[LogEntry]) -> list[LogEntry]:
    first_before: dict[str, dict[str, Any]] = {}
    for entry in targets:
        assert entry.before is not None
        first_before.setdefault(entry.ruleset, entry.before)
    undone = [replace(entry, undone=tx.mark_undone(entry.id)) for entry in reversed(targets)]
    for ruleset, before in first_before.items():
        tx.replace_state(ruleset, before)
    return undone
