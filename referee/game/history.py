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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg
from referee.game import Event, GameTransaction, LogEntry, entry_digest, event_head
from referee.game.faults import tampered, where_entry, where_event


def message(value: Any) -> Any:
    """A message as the log keeps it (``{"msg": id, "params": {...}}``) made a ``Msg``
    again, so that it is shown in the language of the command that reads it."""
    if isinstance(value, dict) and set(value) == {"msg", "params"} and isinstance(
            value["msg"], str) and isinstance(value["params"], dict):
        return Msg.of(value["msg"], **{k: message(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [message(v) for v in value]
    return value


@dataclass
class History:
    """The entries of a game file in order, checked (``check_history``); since format 3 also
    every event, and the pending entry still open at the end (``None``: none)."""

    entries: list[LogEntry]
    events: list[Event] = field(default_factory=list)
    pending: Event | None = None
    states: dict[int, dict[str, Any]] = field(default_factory=dict)  # at each pending entry

    @property
    def standing(self) -> list[LogEntry]:
        return [e for e in self.entries if e.standing]

    def code_after(self, entry: LogEntry) -> str:
        """The check code of the entry's event."""
        from referee.game.chain import check_code

        return check_code(entry.digest) if entry.digest and entry.body is not None else ""

    def abandoned(self) -> list[tuple[Event, Event]]:
        """Each attack abandoned after its pending entry: (the pending entry, the abandon)."""
        by_id = {e.id: e for e in self.events}
        return [(by_id[int(e.body["pending"])], e) for e in self.events
                if e.kind == "abandon" and e.body and e.body.get("pending") in by_id]

    def contribution(self, number: int) -> list[dict[str, Any]]:
        """The bodies of the contributions of entry ``number``, in order."""
        return list(self._contributions.get(number, ()))

    @cached_property
    def _contributions(self) -> dict[int, list[dict[str, Any]]]:
        out: dict[int, list[dict[str, Any]]] = {}
        for e in self.events:
            if e.kind == "contribution" and e.number is not None and e.body is not None:
                out.setdefault(e.number, []).append(e.body)
        return out


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
    ``digest``: how an entry's digest of format 2 is worked out (a reader that checks the same
    file again and again remembers the digests of the entries it has seen unchanged)."""
    if tx.schema < 2:
        return History(tx.log())  # a file of format 1 keeps no history to check
    if tx.schema >= 3:
        return _Walk(tx).run()
    return _check_format_2(tx, digest)


def _check_format_2(tx: GameTransaction,
                    digest: Callable[[str, LogEntry], str] = entry_digest) -> History:
    name = tx.name
    entries = tx.log()
    migrated = _migrated(tx)
    first = int(migrated["entries"])
    old = entries[:first]
    if len(old) != first or any(e.has_history for e in old):
        raise tampered(name, "log", Msg.of("game.why.old_entries", count=first))
    state: dict[str, Any] = {str(k): v for k, v in migrated["state"].items()}
    stack: list[LogEntry] = list(old)
    previous = ""
    for entry in entries[first:]:
        where = where_entry(entry)
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
            raise tampered(name, where_entry(top), Msg.of("game.why.old_undone"))
        assert top.before is not None
        state[top.ruleset] = top.before
    for entry in stack:
        if not entry.standing:
            raise tampered(name, where_entry(entry), Msg.of("game.why.undone_below"))
    on_stack = {e.id for e in stack}
    for entry in entries:
        if entry.standing and entry.id not in on_stack:
            raise tampered(name, where_entry(entry), Msg.of("game.why.stands"))
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


@contextmanager
def changing(path: Path) -> Iterator[tuple[GameTransaction, History]]:
    """A game file opened to change what it keeps outside an attack (undo, ``game
    charts``): it must exist, its game must not be revealed (closed), and its log must hold
    together; one transaction."""
    from referee.game import open_game
    from referee.game.seed import game_info

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with open_game(path) as tx:
        info = game_info(tx)
        if info is not None and info.revealed is not None:
            raise GameFileError(Msg.of("game.error.revealed", file=str(path)))
        yield tx, check_history(tx)


def undo(path: Path, to: int | None = None) -> tuple[list[LogEntry], str]:
    """Take back the last entry that stands (``to``: every entry after entry ``to``): for
    each an ``undo`` event, and its ruleset's state put back as it was before it. Returns the
    entries undone, last first, with the time they were undone, and the check code after
    the undo."""
    with changing(path) as (tx, history):
        standing = history.standing
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


def _undo(tx: GameTransaction, targets: Sequence[LogEntry]) -> tuple[list[LogEntry], str]:

    first_before: dict[str, dict[str, Any]] = {}
    for entry in targets:
        assert entry.before is not None
        first_before.setdefault(entry.ruleset, entry.before)
    for ruleset, before in first_before.items():
        tx.replace_state(ruleset, before)
    undone = [replace(entry, undone=tx.undo_entry(entry).at) for entry in reversed(targets)]
    assert tx.last is not None
    return undone, tx.last.code


class _Walk:
    """The check of a game file of format 3 (see the module), event by event."""

    def __init__(self, tx: GameTransaction) -> None:
        self.tx = tx
        self.name = tx.name
        self.events = tx.events()
        self.by_id = {e.id: e for e in self.events}
        migrated = _migrated(tx)
        self.first = int(migrated["entries"])  # entries of format 1, before any history
        self.state: dict[str, Any] = {str(k): v for k, v in migrated["state"].items()}
        self.stack: list[LogEntry] = []  # the entries standing (old ones: and undone)
        self.tops: list[int] = []  # the highest number standing, at each place of the stack
        self.previous = ""
        self.undone: dict[int, str] = {}  # entry id: when an undo took it back
        self.open: Event | None = None  # the pending entry not closed yet
        self.first_pending: dict[int, int] = {}  # number: its first pending entry
        self.written_after: set[int] = set()  # numbers with an entry after it
        self.abandoned: set[int] = set()
        self.contributed: dict[int, set[int | None]] = {}
        self.last: Event | None = None  # the last event but contributions
        self.revealed: Event | None = None
        self.states: dict[int, dict[str, Any]] = {}
        self.chained = False  # a format-3 event met (no entry of format 2 after it)
        self.sides: dict[str, str] = {}  # each name's side, as the side events leave it
        found = next((e for e in self.events if e.kind == "migrated"), None)
        kept = (found.body or {}).get("undone") if found is not None else None
        self.old_undone = {int(k): str(v) for k, v in (kept or {}).items()
                           if str(k).isdigit()}
        from referee.game.seed import game_info

        self.info = game_info(tx)

    def fail(self, event: Event | str, why: str, **params: Any) -> GameFileError:
        where = event if isinstance(event, str) else where_event(event)
        return tampered(self.name, where, Msg.of(f"game.why.{why}", **params))

    def next_number(self) -> int:
        number = (self.tops[-1] if self.tops else 0) + 1
        while number in self.abandoned and number not in self.written_after:
            number += 1
        return number

    def _push(self, entry: LogEntry) -> None:
        self.stack.append(entry)
        self.tops.append(max(self.tops[-1] if self.tops else 0, entry.number or 0))

    def _pop(self) -> LogEntry:
        self.tops.pop()
        return self.stack.pop()

    def run(self) -> History:
        old = self.events[:self.first]
        if len(old) != self.first or any(e.entry is None or e.entry.has_history for e in old):
            raise tampered(self.name, "log", Msg.of("game.why.old_entries", count=self.first))
        for e in old:
            if e.entry is not None:
                self._push(e.entry)
        for event in self.events[self.first:]:
            self._head(event)
            getattr(self, f"_{event.kind}")(event)
            if event.kind not in ("contribution", "side"):  # these may come between any two
                self.last = event
        self._end()
        entries = [e.entry for e in self.events if e.entry is not None]
        return History(entries, self.events, self.open, self.states)

    def _head(self, event: Event) -> None:
        old = event.entry is not None and event.entry.body is None
        if old and self.chained:
            raise self.fail(event, "no_history")
        if old and event.entry is not None and not event.entry.has_history:
            raise self.fail(event, "no_history")
        self.chained = self.chained or not old
        if event_head(self.previous, event) != event.digest:
            raise self.fail(event, "digest")
        self.previous = event.digest or ""

    def _open_after_reveal(self, event: Event) -> None:
        if self.revealed is not None:
            raise self.fail(event, "after_reveal")

    # --- each kind of event ---------------------------------------------------------------

    def _game(self, event: Event) -> None:
        if event is not self.events[0]:
            raise self.fail(event, "game_not_first")

    def _migrated(self, event: Event) -> None:
        if any(e.kind != "entry" or (e.entry is not None and e.entry.body is not None)
               for e in self.events if e.id < event.id) or event.kind in (
                   e.kind for e in self.events if e.id > event.id):
            raise self.fail(event, "migrated")
        ids = {e.id for e in self.events if e.entry is not None and e.id < event.id}
        if not set(self.old_undone) <= ids:
            raise self.fail(event, "migrated")
        while self.stack and self.stack[-1].id in self.old_undone:
            top = self._pop()
            if top.before is None:
                raise self.fail(event, "old_undone")
            self.state[top.ruleset] = top.before
        if any(e.id in self.old_undone for e in self.stack):
            raise self.fail(event, "undone_below")
        self.undone.update(self.old_undone)

    def _entry(self, event: Event) -> None:
        entry = event.entry
        assert entry is not None and entry.number is not None
        if entry.body is None:  # written by format 2
            return self._old_entry(entry)
        self._open_after_reveal(event)
        pending = entry.body.get("pending")
        if pending is not None:
            if self.open is None or self.open.id != pending or self.open.number != entry.number:
                raise self.fail(event, "not_pending", number=entry.number)
            self.open = None
        elif self.open is not None:
            raise self.fail(event, "pending_open", number=self.open.number)
        elif entry.number != self.next_number():
            raise self.fail(event, "numbered", number=self.next_number())
        program = any(r.get("source") != "typed" for r in entry.rolls)
        if program and entry.body.get("scheme") != (2 if self.info is not None else 1):
            raise self.fail(event, "scheme")  # a game's dice are of scheme 2, --seed's of 1
        if entry.before != self.state.get(entry.ruleset, {}):
            raise self.fail(event, "before")
        self.state[entry.ruleset] = entry.after
        self._push(entry)
        first = self.first_pending.get(entry.number)
        if first is not None and first < entry.id:
            self.written_after.add(entry.number)

    def _old_entry(self, entry: LogEntry) -> None:
        assert entry.number is not None and entry.before is not None
        where = where_entry(entry)
        while self.stack and (self.stack[-1].number or 0) >= entry.number:
            top = self._pop()
            if top.id not in self.old_undone or not top.has_history:
                raise self.fail(where, "renumbered", other=top.number)
            assert top.before is not None
            self.state[top.ruleset] = top.before
        if len(self.stack) != entry.number - 1:
            raise self.fail(where, "missing", number=len(self.stack) + 1)
        if entry.before != self.state.get(entry.ruleset, {}):
            raise self.fail(where, "before")
        self.state[entry.ruleset] = entry.after
        self._push(entry)

    def _pending(self, event: Event) -> None:
        self._open_after_reveal(event)
        if self.info is None:
            raise self.fail(event, "scheme")
        if self.open is not None:
            raise self.fail(event, "pending_open", number=self.open.number)
        if event.number != self.next_number():
            raise self.fail(event, "numbered", number=self.next_number())
        self.first_pending.setdefault(event.number, event.id)
        self.open = event
        self.states[event.id] = self.state.get(event.ruleset, {})

    def _resume(self, event: Event) -> None:
        self._open_after_reveal(event)
        pending = self.by_id.get(int((event.body or {}).get("pending") or 0))
        last = self.last
        if (pending is None or pending.kind != "pending" or pending.number != event.number
                or last is None or last.kind != "abandon" or self.open is not None
                or (last.body or {}).get("pending") != pending.id):
            raise self.fail(event, "resume")
        self.open = pending

    def _contribution(self, event: Event) -> None:
        from referee.game.contribution import stored_ok

        body = event.body
        if (self.open is None or event.number != self.open.number or not stored_ok(body)
                or self.info is None or self.info.holder_dice):
            raise self.fail(event, "contribution")
        assert body is not None and event.number is not None
        given = self.contributed.setdefault(event.number, set())
        if None in given or body.get("roll") in given or (
                body.get("roll") is None and given):
            raise self.fail(event, "contribution_again", number=event.number)
        given.add(body.get("roll"))

    def _abandon(self, event: Event) -> None:
        if (self.open is None or (event.body or {}).get("pending") != self.open.id
                or event.number != self.open.number):
            raise self.fail(event, "abandon")
        self.abandoned.add(event.number or 0)
        self.open = None

    def _undo(self, event: Event) -> None:
        self._open_after_reveal(event)
        target = (event.body or {}).get("entry")
        if (not self.stack or self.stack[-1].id != target or self.open is not None
                or self.stack[-1].number != event.number or not self.stack[-1].has_history):
            raise self.fail(event, "undo")
        top = self._pop()
        assert top.before is not None
        self.state[top.ruleset] = top.before
        self.undone[top.id] = event.at

    def _side(self, event: Event) -> None:
        """A side said at the table (issue 27): a name, one of the game's sides, and the
        side it was on before (``None``: none)."""
        body = event.body or {}
        name, side = body.get("name"), body.get("side")
        sides = self.info.sides if self.info is not None else None
        if (not isinstance(name, str) or not isinstance(side, str)
                or (sides is not None and side not in sides)
                or body.get("was") != self.sides.get(name)):
            raise self.fail(event, "side")
        self.sides[name] = side

    def _reveal(self, event: Event) -> None:
        self._open_after_reveal(event)
        if self.open is not None or self.info is None:
            raise self.fail(event, "reveal")
        self.revealed = event

    # --- what the file keeps beside the chain -----------------------------------------------

    def _end(self) -> None:
        tx = self.tx
        if self.previous != (tx.meta("head") or ""):
            raise tampered(self.name, "log", Msg.of("game.why.last_removed"))
        for event in self.events:
            entry = event.entry
            if entry is not None and entry.undone != self.undone.get(entry.id):
                raise self.fail(event, "undone_mark")
        if any(e.kind == "side" for e in self.events) and tx.sides() != self.sides:
            raise tampered(self.name, "sides", Msg.of("game.why.sides"))
        held = tx.all_state()
        for ruleset in sorted(set(held) | set(self.state)):
            if held.get(ruleset, {}) != (self.state.get(ruleset) or {}):
                raise tampered(self.name, f"state.{ruleset}", Msg.of("game.why.state"))
        info = self.info
        revealed = tx.meta("revealed")
        if (self.revealed is None) != (revealed is None) or (
                self.revealed is not None and (self.revealed.at != revealed or info is None
                                               or (self.revealed.body or {}).get("seed")
                                               != info.seed)):
            raise tampered(self.name, "meta.revealed", Msg.of("game.why.revealed"))
        facts = None
        if self.events and self.events[0].kind == "game":
            facts = self.events[0].body
        migrated = next((e for e in self.events if e.kind == "migrated"), None)
        if migrated is not None and (migrated.body or {}).get("game") is not None:
            facts = (migrated.body or {}).get("game")
        raw = tx.meta("game")
        if (facts is None) != (raw is None) or (
                raw is not None and json.loads(raw) != facts):
            raise tampered(self.name, "meta.game", Msg.of("game.why.facts"))
