"""Game files: state that lives between commands (``--game FILE``).

A game file is an SQLite database (standard library) with the current state of each ruleset
as JSON and an append-only log of every resolved step. A command writes in one transaction:
a crash or Ctrl-C rolls everything back, so a game file is never half-written. An attack reads
the state in a short transaction, asks its questions with the file unlocked, and writes its
result in a second one that first checks nobody else wrote in between (``revision``).

Since format 2 every log entry also keeps its number in the game (the next number after the
entries that stand: an undone entry's number is taken again by the next one), the state of
its ruleset before and after it (so that undo puts the state back, and verify can follow the
chain), its rolls, what is needed to resolve it again, and a digest chained to the previous
entry's. A file of an older format is migrated forward by the first command that writes to
it, and read as it is by the commands that only read (``read_game``).

Since format 3 the log is a chain of *events* (``referee.game.chain``): besides the entries,
the game made (``game``), an entry pending before its first program die (``pending``), the
opponent's contribution to its dice (``contribution``), an attack abandoned after it
(``abandon``) or taken up again by ``--resume`` (``resume``), an undo (``undo``: one per entry
taken back), the reveal (``reveal``) and the migration from format 2 (``migrated``), each with
its head (``digest``) and check code. The ``undone`` column and the ``meta`` values are kept
for quick reading; ``check_history`` proves them against the events. Every write first checks
the end of the chain (``guard``): a file whose last event was removed or changed, or whose
state is not the one its log leaves, is refused before anything is written.

A command killed inside its write (kill -9, a crash, a power cut) leaves a hot journal beside
the file, which SQLite rolls back the next time the file is opened for writing; a read-only
connection cannot, and refuses to read. So every command that opens a game file, reading or
writing, first rolls back a hot journal (``recover``: the file opened for writing once) and
tells the player in one line that the last command was interrupted and its entry not kept.
A new game file is made whole beside its name and then linked into place, so that a full disk
or a kill leaves no empty file under the name.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg
from referee.files import GAME_APPLICATION_ID as APPLICATION_ID  # "REFR": a game file's
from referee.files import is_game_file, umask

SCHEMA_VERSION = 3
SQLITE_READONLY_ROLLBACK = 776  # a read-only connection met a hot journal it cannot roll back
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS state (
    ruleset TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (ruleset, key));
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL, ruleset TEXT NOT NULL, command TEXT NOT NULL,
    seed INTEGER, entry TEXT NOT NULL);
"""
# format 2: what each entry keeps besides its result (NULL in entries of a format-1 file)
HISTORY_COLUMNS = ("number", "undone", "before", "after", "rolls", "replay", "about", "digest")
SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS sides (name TEXT PRIMARY KEY, side TEXT NOT NULL);
ALTER TABLE log ADD COLUMN number INTEGER;
ALTER TABLE log ADD COLUMN undone TEXT;
ALTER TABLE log ADD COLUMN before TEXT;
ALTER TABLE log ADD COLUMN after TEXT;
ALTER TABLE log ADD COLUMN rolls TEXT;
ALTER TABLE log ADD COLUMN replay TEXT;
ALTER TABLE log ADD COLUMN about TEXT;
ALTER TABLE log ADD COLUMN digest TEXT;
"""
# format 3: the log is a chain of events (NULL body: an entry written by format 2 or 1)
SCHEMA_3 = """
CREATE INDEX IF NOT EXISTS log_number ON log (number);
ALTER TABLE log ADD COLUMN kind TEXT NOT NULL DEFAULT 'entry';
ALTER TABLE log ADD COLUMN body TEXT;
ALTER TABLE log ADD COLUMN writer TEXT;
CREATE INDEX IF NOT EXISTS log_kind ON log (kind);
"""
KINDS = ("game", "migrated", "pending", "resume", "contribution", "entry", "abandon", "undo",
         "reveal", "side")


_ROW_NAMES = ("id", "at", "ruleset", "command", "seed", "entry", *HISTORY_COLUMNS, "kind",
              "body", "writer")
EVENT_COLUMNS_READ = ("id", "kind", "number", "at", "ruleset", "command", "seed", "entry",
                      "before", "after", "rolls", "replay", "about", "body")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


clock: Callable[[], str] = _now
"""The time written in each log entry (transcripts replace it with a fixed clock)."""


@dataclass(frozen=True)
class LogEntry:
    id: int
    at: str
    ruleset: str
    command: str
    seed: int | None
    result: dict[str, Any]  # the result as JSON (the log's column ``entry``)
    # format 2 (None in an entry written by a referee of format 1)
    number: int | None = None
    undone: str | None = None  # when it was undone
    before: dict[str, Any] | None = None  # its ruleset's state before it
    after: dict[str, Any] | None = None  # ... and after it
    rolls: list[dict[str, Any]] = field(default_factory=list)
    replay: dict[str, Any] | None = None  # what resolves it again (None: nothing to replay)
    about: dict[str, Any] = field(default_factory=dict)  # title, sides, expected losses
    digest: str | None = None
    # format 3: its scheme of dice, the pending entry it closes, the overrides agreed (None:
    # an entry written by format 2 or 1)
    body: dict[str, Any] | None = None
    stored: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # as read

    @property
    def standing(self) -> bool:
        return self.undone is None

    @property
    def has_history(self) -> bool:
        """Written with its before-state and digest (format 2)."""
        return self.digest is not None

    @property
    def scheme(self) -> int:
        """The scheme of its program dice: 2 for an entry of a game of format 3, else 1."""
        return int((self.body or {}).get("scheme") or 1)

    @property
    def overrides(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("overrides") or [])


@dataclass(frozen=True)
class Event:
    """A row of the log of a game file of format 3: its kind, the entry number it is about,
    what it says (``body``), its head (``digest``); ``entry``: the entry, for ``entry``;
    ``columns``: what its head covers (the chained columns, JSON ones as values)."""

    id: int
    kind: str
    number: int | None
    at: str
    ruleset: str
    command: str
    body: dict[str, Any] | None
    digest: str | None
    writer: str | None = None
    entry: LogEntry | None = None
    columns: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    stored: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # as read

    @property
    def code(self) -> str:
        from referee.game.chain import check_code

        return check_code(self.digest) if self.digest else ""


def entry_digest(previous: str, entry: LogEntry) -> str:
    """SHA-256 over the previous entry's digest and everything this entry keeps but its
    undone mark: an entry changed or taken out breaks the chain after it."""
    body = [previous, entry.id, entry.number, entry.at, entry.ruleset, entry.command,
            entry.seed, entry.result, entry.before, entry.after, entry.rolls, entry.replay,
            entry.about]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def row_digest(previous: str, entry: LogEntry) -> str:
    """An entry's head: by the chain of format 3 (``referee.game.chain``), or for an entry
    written by format 2 (no ``body``) by ``entry_digest``."""
    if entry.body is None:
        return entry_digest(previous, entry)
    from referee.game.chain import event_digest

    return event_digest(previous, {
        "id": entry.id, "kind": "entry", "number": entry.number, "at": entry.at,
        "ruleset": entry.ruleset, "command": entry.command, "seed": entry.seed,
        "entry": entry.result, "before": entry.before, "after": entry.after,
        "rolls": entry.rolls, "replay": entry.replay, "about": entry.about,
        "body": entry.body})


def event_head(previous: str, event: Event) -> str:
    """The head of any event (an entry's by ``row_digest``); read from the file, from its
    columns as stored (``chain.spliced_digest``)."""
    from referee.game.chain import event_digest, spliced_digest

    if event.entry is not None:
        if event.entry.stored is not None and event.entry.body is not None:
            return spliced_digest(previous, event.entry.stored)
        return row_digest(previous, event.entry)
    if event.stored is not None:
        return spliced_digest(previous, event.stored)
    return event_digest(previous, event.columns)


def _event_columns(id_: int, kind: str, number: int | None, at: str, ruleset: str,
                   command: str, body: Any) -> dict[str, Any]:
    return {"id": id_, "kind": kind, "number": number, "at": at, "ruleset": ruleset,
            "command": command, "seed": None, "entry": {}, "before": None, "after": None,
            "rolls": None, "replay": None, "about": None, "body": body}


def _dumps(value: Any) -> str:
    """JSON as the file keeps it: canonical (sorted keys, no spaces, UTF-8), so that a row's
    chained columns put together are its event's canonical JSON (``chain.spliced_digest``)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _plain(value: Any) -> Any:
    return json.loads(_dumps(value))


class GameTransaction:
    """Reads and writes inside one command's transaction. What is read is checked: a file
    damaged or edited outside the referee (state that is not JSON, a revision that is not a
    number, state of the wrong shape) is a ``GameFileError``, never a traceback."""

    def __init__(self, conn: sqlite3.Connection, name: str = "", *, schema: int = SCHEMA_VERSION,
                 writable: bool = True) -> None:
        self._conn = conn
        self._name = name
        self.schema = schema
        self.writable = writable
        self._before: dict[str, dict[str, Any]] = {}  # state of a ruleset before this command
        self.last: Event | None = None  # the last event this transaction wrote

    @property
    def name(self) -> str:
        return self._name

    def _damaged(self, where: str, reason: Msg | str) -> GameFileError:
        return _damaged(self._name, where, reason)

    def _json(self, where: str, text: Any) -> Any:
        if not isinstance(text, str):
            raise self._damaged(where, type(text).__name__)
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as err:
            raise self._damaged(where, str(err)) from None

    def state(self, ruleset: str, model: type[Any] | None = None) -> dict[str, Any]:
        """The state kept for ``ruleset``; with ``model`` (the ruleset's pydantic model of
        its state), checked against it."""
        rows = self._conn.execute("SELECT key, value FROM state WHERE ruleset = ?", (ruleset,))
        found = {str(k): self._json(f"state.{ruleset}.{k}", v) for k, v in rows}
        if model is not None:
            from pydantic import ValidationError

            from referee.files import validation_message

            try:
                model.model_validate(found, strict=True)
            except ValidationError as err:
                first = err.errors()[0]
                where = ".".join(["state", ruleset, *(str(p) for p in first["loc"])])
                raise self._damaged(where, validation_message(first)) from None
        return found

    def all_state(self) -> dict[str, dict[str, Any]]:
        """Every ruleset's state, by ruleset."""
        rulesets = [str(r) for (r,) in
                    self._conn.execute("SELECT DISTINCT ruleset FROM state ORDER BY ruleset")]
        return {r: self.state(r) for r in rulesets}

    def _keep_before(self, ruleset: str) -> None:
        if ruleset not in self._before:
            if self.writable and self.schema >= 3:
                self.guard_state(ruleset)
            self._before[ruleset] = self.state(ruleset)

    # --- the checks every write makes first (O(1) in the log's length) -------------------

    def guard(self) -> None:
        """The end of the chain holds: the head the file names is its last event's, and that
        event's head follows from the one before it (a last event taken out, or changed
        without its head, is refused; an edit further back is caught by ``check_history``,
        which every reading command runs)."""
        from referee.game.faults import tampered

        rows = self._conn.execute("SELECT {} FROM log ORDER BY id DESC LIMIT 2".format(
            ", ".join(_ROW_NAMES))).fetchall()
        head = self.meta("head") or ""
        if not rows:
            if head:
                raise tampered(self._name, "log", Msg.of("game.why.last_removed"))
            return
        last = self._event(dict(zip(_ROW_NAMES, rows[0], strict=True)))
        if last.digest != head:
            raise tampered(self._name, "log", Msg.of("game.why.last_removed"))
        previous = str(rows[1][_ROW_NAMES.index("digest")] or "") if len(rows) > 1 else ""
        if not (last.entry is not None and last.entry.body is None) and event_head(
                previous, last) != last.digest:  # (format 2's digests: check_history's)
            from referee.game.faults import where_event

            raise tampered(self._name, where_event(last), Msg.of("game.why.digest"))
        self._guard_meta()
        self._guard_sides()

    def _guard_sides(self) -> None:
        """The ``sides`` table says what the chain's ``side`` events say (issue 27): a
        formation moved to the other side in the file, not at the table, takes no write."""
        from referee.game.faults import tampered

        if self.schema < 3:
            return
        events = self.side_events()
        if events and events != self.sides():
            raise tampered(self._name, "sides", Msg.of("game.why.sides"))

    def _guard_meta(self) -> None:
        """What the commands read from ``meta`` besides the chain is what the chain says: the
        game's facts (its sides, holder, ``--holder-dice``) and whether it was revealed; a
        file whose ``meta`` was edited (say, ``holder_dice`` turned on to be asked no word)
        takes no write (``check_history`` finds it too, on reading)."""
        from referee.game.faults import tampered

        if self.schema < 3:
            return
        first = self._conn.execute("SELECT kind, body FROM log ORDER BY id LIMIT 1").fetchone()
        facts = (self._json("log.body", first[1]) if first is not None and first[0] == "game"
                 and first[1] is not None else None)
        migrated = self._conn.execute(
            "SELECT body FROM log WHERE kind = 'migrated' ORDER BY id LIMIT 1").fetchone()
        if migrated is not None and migrated[0] is not None:
            body = self._json("log.body", migrated[0])
            if isinstance(body, dict) and body.get("game") is not None:
                facts = body["game"]
        raw = self.meta("game")
        if (facts is None) != (raw is None) or (
                raw is not None and self._json("meta.game", raw) != facts):
            raise tampered(self._name, "meta.game", Msg.of("game.why.facts"))
        reveal = self._conn.execute(
            "SELECT at FROM log WHERE kind = 'reveal' ORDER BY id LIMIT 1").fetchone()
        revealed = self.meta("revealed")
        if (reveal is None) != (revealed is None) or (
                reveal is not None and reveal[0] != revealed):
            raise tampered(self._name, "meta.revealed", Msg.of("game.why.revealed"))

    def guard_state(self, ruleset: str) -> None:
        """The state the file holds for ``ruleset`` is the one its last event of that ruleset
        left (an entry's state after, an undo's state before the entry taken back)."""
        if self.schema < 3:
            return
        row = self._conn.execute(
            "SELECT id, kind, after, body, undone FROM log WHERE ruleset = ? AND kind IN "
            "('entry', 'undo') ORDER BY id DESC LIMIT 1", (ruleset,)).fetchone()
        if row is None:
            migrated = self.meta("migrated")
            expected = (json.loads(migrated).get("state", {}).get(ruleset, {})
                        if migrated else {})
        elif row[1] == "entry":
            if row[2] is None or (row[3] is None and row[4] is not None):
                return  # written by an older format: checked by check_history
            expected = self._json(f"log[{row[0]}].after", row[2])
        else:
            undone = self._json(f"log[{row[0]}].body", row[3])
            target = undone.get("entry") if isinstance(undone, dict) else None
            found = self._conn.execute("SELECT before FROM log WHERE id = ? AND kind = 'entry'",
                                       (target,)).fetchone()
            if found is None or found[0] is None:
                raise self._damaged(f"log[{row[0]}].body", "?")
            expected = self._json(f"log[{target}].before", found[0])
        if self.state(ruleset) != expected:
            from referee.game.faults import tampered

            raise tampered(self._name, f"state.{ruleset}", Msg.of("game.why.state"))

    def update_state(self, ruleset: str, values: Mapping[str, Any]) -> None:
        self._keep_before(ruleset)
        self._conn.executemany(
            "INSERT INTO state (ruleset, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (ruleset, key) DO UPDATE SET value = excluded.value",
            [(ruleset, k, _dumps(v)) for k, v in values.items()])
        self._bump()

    def replace_state(self, ruleset: str, values: Mapping[str, Any]) -> None:
        """The whole state of ``ruleset`` becomes ``values`` (undo puts a state back)."""
        self._keep_before(ruleset)
        self._conn.execute("DELETE FROM state WHERE ruleset = ?", (ruleset,))
        self._conn.executemany("INSERT INTO state (ruleset, key, value) VALUES (?, ?, ?)",
                               [(ruleset, k, _dumps(v)) for k, v in values.items()])
        self._bump()

    def append_log(self, ruleset: str, command: str, entry: Mapping[str, Any],
                   seed: int | None = None, *, rolls: Sequence[Mapping[str, Any]] = (),
                   replay: Mapping[str, Any] | None = None,
                   about: Mapping[str, Any] | None = None,
                   body: Mapping[str, Any] | None = None, number: int | None = None) -> int:
        """Add an entry to the log, with its ruleset's state before this command (or before
        the previous entry this command wrote) and after it; returns its number (``number``:
        the number of the pending entry it closes, else the next one)."""
        number = self.next_number() if number is None else number
        before = self._before.pop(ruleset, None)
        after = self.state(ruleset)
        if before is None:
            self._keep_before(ruleset)
            before = self._before.pop(ruleset)
        # as the file will give them back (a tuple read as a list): what the digest covers
        row = LogEntry(self._next_id(), clock(), ruleset, command, seed, _plain(entry), number,
                       None, before, after, _plain(list(rolls)),
                       _plain(replay) if replay is not None else None, _plain(about or {}),
                       body=_plain(dict(body or {})))
        digest = row_digest(self.meta("head") or "", row)
        self._conn.execute(
            "INSERT INTO log (id, at, ruleset, command, seed, entry, number, before, after, "
            "rolls, replay, about, digest, kind, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'entry', ?)",
            (row.id, row.at, ruleset, command, seed, _dumps(row.result), number, _dumps(before),
             _dumps(after), _dumps(row.rolls),
             _dumps(row.replay) if row.replay is not None else None, _dumps(row.about),
             digest, _dumps(row.body)))
        self.set_meta("head", digest)
        self.last = Event(row.id, "entry", number, row.at, ruleset, command, row.body, digest,
                          entry=row)
        return number

    def append_event(self, kind: str, body: Mapping[str, Any], *, number: int | None = None,
                     ruleset: str = "", command: str = "", writer: str | None = None) -> Event:
        """Add an event other than an entry to the chain (see the module); returns it."""
        assert kind in KINDS and kind != "entry"
        id_ = self._next_id()
        at = clock()
        columns = _event_columns(id_, kind, number, at, ruleset, command, _plain(dict(body)))
        event = Event(id_, kind, number, at, ruleset, command, columns["body"], None, writer,
                      columns=columns)
        head = event_head(self.meta("head") or "", event)
        self._conn.execute(
            "INSERT INTO log (id, at, ruleset, command, seed, entry, number, kind, body, "
            "writer, digest) VALUES (?, ?, ?, ?, NULL, '{}', ?, ?, ?, ?, ?)",
            (id_, at, ruleset, command, number, kind, _dumps(columns["body"]), writer, head))
        self.set_meta("head", head)
        self.last = replace(event, digest=head)
        return self.last

    def _next_id(self) -> int:
        row = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'log'").fetchone()
        (largest,) = self._conn.execute("SELECT coalesce(max(id), 0) FROM log").fetchone()
        return max(int(row[0]) if row and isinstance(row[0], int) else 0, int(largest)) + 1

    def next_number(self) -> int:
        """The number the next entry takes: one more than the entries that stand (format 3:
        one more than the last that stands, passing over the numbers burned, see
        ``burned``)."""
        if self.schema < 2:
            (count,) = self._conn.execute("SELECT count(*) FROM log").fetchone()
            return int(count) + 1
        if self.schema < 3:
            (count,) = self._conn.execute(
                "SELECT count(*) FROM log WHERE undone IS NULL").fetchone()
            return int(count) + 1
        (top,) = self._conn.execute("SELECT coalesce(max(number), 0) FROM log WHERE "
                                    "kind = 'entry' AND undone IS NULL").fetchone()
        number = int(top) + 1
        while self.burned(number):
            number += 1
        return number

    def burned(self, number: int) -> bool:
        """Whether ``number`` is never taken again: an attack took it (its first pending
        entry), was abandoned, and no entry of that number was written since (its dice could
        be foreseen by the holder, never shown)."""
        (first,) = self._conn.execute("SELECT min(id) FROM log WHERE kind = 'pending' AND "
                                      "number = ?", (number,)).fetchone()
        if first is None:
            return False
        (abandoned, written) = self._conn.execute(
            "SELECT EXISTS (SELECT 1 FROM log WHERE kind = 'abandon' AND number = ?), "
            "EXISTS (SELECT 1 FROM log WHERE kind = 'entry' AND number = ? AND id > ?)",
            (number, number, first)).fetchone()
        return bool(abandoned) and not written

    def undo_entry(self, entry: LogEntry) -> Event:
        """Take back ``entry`` (the last that stands): an ``undo`` event in the chain, and the
        entry marked undone; its ruleset's state is put back by the caller."""
        event = self.append_event("undo", {"entry": entry.id}, number=entry.number,
                                  ruleset=entry.ruleset, command=entry.command)
        self._conn.execute("UPDATE log SET undone = ? WHERE id = ?", (event.at, entry.id))
        self._bump()
        return event

    def contributions(self, number: int) -> list[dict[str, Any]]:
        """The contributions given for entry ``number``, in order
        (``referee.game.contribution``)."""
        rows = self._conn.execute("SELECT id, body FROM log WHERE kind = 'contribution' AND "
                                  "number = ? ORDER BY id", (number,))
        out = []
        for i, text in rows:
            body = self._json(f"log[{i}].body", text)
            if not isinstance(body, dict):
                raise self._damaged(f"log[{i}].body", type(body).__name__)
            out.append(body)
        return out

    def open_pending(self) -> Event | None:
        """The pending entry no entry or abandon has closed yet (an attack being played, or
        one whose command ended without a word: killed, crashed), else ``None``. Nothing but
        its contributions can follow it: every other write meets it first (``guard``)."""
        if self.schema < 3:
            return None
        row = self._conn.execute("SELECT id FROM log WHERE kind NOT IN ('contribution', "
                                 "'side') ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        event = self.event(int(row[0]))
        if event.kind == "pending":
            return event
        if event.kind == "resume":  # an abandoned attack taken up again
            return self.event(int((event.body or {}).get("pending", 0)))
        return None

    def event(self, event_id: int) -> Event:
        row = self._conn.execute("SELECT {} FROM log WHERE id = ?".format(", ".join(_ROW_NAMES)),
                                 (event_id,)).fetchone()
        if row is None:
            raise self._damaged(f"log[{event_id}]", "missing")
        return self._event(dict(zip(_ROW_NAMES, row, strict=True)))

    # --- meta: the game's own facts (its seed, its sides...) --------------------------------

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        if not isinstance(row[0], str):
            raise self._damaged(f"meta.{key}", type(row[0]).__name__)
        return row[0]

    def set_meta(self, key: str, value: str) -> None:
        self._conn.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                           "value = excluded.value", (key, value))
        self._bump()

    def sides(self) -> dict[str, str]:
        """The side each formation (or a roster's side) is on, as the players said."""
        if self.schema < 2:
            return {}
        rows = self._conn.execute("SELECT name, side FROM sides ORDER BY name")
        return {str(n): str(s) for n, s in rows}

    def remember_side(self, name: str, side: str) -> None:
        """Keep ``name`` on ``side``: in a file of format 3, a ``side`` event of the chain
        (issue 27: written as soon as the players say it, so an attack abandoned after it
        does not ask it again; a change of side is an event the log shows, with the side it
        was on), then the ``sides`` table, which is read quickly and must say what the
        chain says (``side_events``). Nothing is written when the side is the one kept."""
        if self.sides().get(name) == side:
            return
        if self.schema >= 3:
            if not self.side_events():  # a file of before: the sides it kept join the chain
                for old, was in self.sides().items():
                    self.append_event("side", {"name": old, "side": was, "was": None})
            self.append_event("side", {"name": name, "side": side,
                                       "was": self.sides().get(name)})
        self._conn.execute("INSERT INTO sides VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                           "side = excluded.side", (name, side))
        self._bump()

    def side_events(self) -> dict[str, str]:
        """The side of each name as the chain's ``side`` events leave it (empty: a file
        written before them, whose ``sides`` table has no events behind it)."""
        out: dict[str, str] = {}
        for i, text in self._conn.execute("SELECT id, body FROM log WHERE kind = 'side' "
                                          "ORDER BY id"):
            body = self._json(f"log[{i}].body", text)
            if not (isinstance(body, dict) and isinstance(body.get("name"), str)
                    and isinstance(body.get("side"), str)):
                raise self._damaged(f"log[{i}].body", "side")
            out[body["name"]] = body["side"]
        return out

    @property
    def revision(self) -> int:
        """Bumped by every write: a command that read the state, asked its questions and
        now writes can tell whether another command wrote in between."""
        return _revision(self._conn, self._name)

    def _bump(self) -> None:
        self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                           "WHERE key = 'revision'")

    def log(self) -> list[LogEntry]:
        """The entries, in order (format 3: the events of kind ``entry``)."""
        if self.schema >= 3:
            return [e.entry for e in self.events() if e.entry is not None]
        columns = ["id", "at", "ruleset", "command", "seed", "entry"]
        if self.schema >= 2:
            columns += HISTORY_COLUMNS
        rows = self._conn.execute("SELECT {} FROM log ORDER BY id".format(", ".join(columns)))
        return [self._entry(dict(zip(columns, row, strict=True))) for row in rows]

    def events(self) -> list[Event]:
        """Every event of the log, in order (before format 3: its entries)."""
        if self.schema < 3:
            return [Event(e.id, "entry", e.number, e.at, e.ruleset, e.command, None, e.digest,
                          entry=e) for e in self.log()]
        rows = self._conn.execute("SELECT {} FROM log ORDER BY id".format(", ".join(_ROW_NAMES)))
        return [self._event(dict(zip(_ROW_NAMES, row, strict=True))) for row in rows]

    def _event(self, row: dict[str, Any]) -> Event:
        kind = row["kind"]
        where = f"log[{row['id']}]"
        if kind not in KINDS:
            raise self._damaged(f"{where}.kind", repr(kind)[:40])
        if kind == "entry":
            entry = self._entry(row)
            return Event(entry.id, kind, entry.number, entry.at, entry.ruleset, entry.command,
                         entry.body, entry.digest, row["writer"], entry)
        body = self._json(f"{where}.body", row["body"])
        number = row["number"]
        if not isinstance(body, dict) or not (number is None or isinstance(number, int)):
            raise self._damaged(f"{where}.body", type(body).__name__)
        if not isinstance(row["digest"], str):
            raise self._damaged(f"{where}.digest", type(row["digest"]).__name__)
        columns = {name: row[name] for name in EVENT_COLUMNS_READ}
        for name in ("entry", "before", "after", "rolls", "replay", "about"):
            if columns[name] is not None:
                columns[name] = self._json(f"{where}.{name}", columns[name])
        columns["body"] = body
        return Event(int(row["id"]), kind, number, str(row["at"]), str(row["ruleset"]),
                     str(row["command"]), body, row["digest"],
                     row["writer"] if isinstance(row["writer"], str) else None,
                     columns=columns, stored={n: row[n] for n in EVENT_COLUMNS_READ})

    def redone(self, number: int) -> LogEntry | None:
        """The entry numbered ``number`` undone after the last entry that stands (the one the
        next entry redoes), if any: read without reading the whole log. In format 3, the
        last entry of that number undone, whenever (a number's word is its for good)."""
        if self.schema < 2:
            return None
        columns = ["id", "at", "ruleset", "command", "seed", "entry", *HISTORY_COLUMNS]
        if self.schema >= 3:
            columns += ["body"]
            row = self._conn.execute(
                "SELECT {} FROM log WHERE kind = 'entry' AND number = ? AND undone IS NOT "
                "NULL ORDER BY id DESC LIMIT 1".format(", ".join(columns)), (number,)).fetchone()
            return None if row is None else self._entry(dict(zip(columns, row, strict=True)))
        row = self._conn.execute(
            "SELECT {} FROM log WHERE number = ? AND undone IS NOT NULL AND id > "
            "(SELECT coalesce(max(id), 0) FROM log WHERE undone IS NULL) "
            "ORDER BY id DESC LIMIT 1".format(", ".join(columns)), (number,)).fetchone()
        return None if row is None else self._entry(dict(zip(columns, row, strict=True)))

    def _entry(self, row: dict[str, Any]) -> LogEntry:
        i = row["id"]
        where = f"log[{i}]"
        entry = self._json(where, row["entry"])
        if not isinstance(entry, dict):
            raise self._damaged(where, type(entry).__name__)
        seed = row["seed"] if isinstance(row["seed"], int) else None
        out = LogEntry(int(i), str(row["at"]), str(row["ruleset"]), str(row["command"]), seed,
                       entry)
        if row.get("digest") is None:  # an entry of format 1: it keeps no history
            number = row.get("number")
            return LogEntry(out.id, out.at, out.ruleset, out.command, seed, entry,
                            number if isinstance(number, int) else None)
        number, undone = row["number"], row["undone"]
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise self._damaged(f"{where}.number", repr(number)[:40])
        if undone is not None and not isinstance(undone, str):
            raise self._damaged(f"{where}.undone", type(undone).__name__)
        parts: dict[str, Any] = {}
        for name, kind in (("before", dict), ("after", dict), ("rolls", list),
                           ("about", dict)):
            value = self._json(f"{where}.{name}", row[name])
            if not isinstance(value, kind):
                raise self._damaged(f"{where}.{name}", type(value).__name__)
            parts[name] = value
        if any(not isinstance(r, dict) for r in parts["rolls"]):
            raise self._damaged(f"{where}.rolls", "not a table")
        replay = None if row["replay"] is None else self._json(f"{where}.replay",
                                                               row["replay"])
        if replay is not None and not isinstance(replay, dict):
            raise self._damaged(f"{where}.replay", type(replay).__name__)
        if not isinstance(row["digest"], str):
            raise self._damaged(f"{where}.digest", type(row["digest"]).__name__)
        body = None
        if row.get("body") is not None:
            body = self._json(f"{where}.body", row["body"])
            if not isinstance(body, dict):
                raise self._damaged(f"{where}.body", type(body).__name__)
        stored = ({n: row[n] for n in EVENT_COLUMNS_READ} if "kind" in row and body is not None
                  else None)
        return LogEntry(out.id, out.at, out.ruleset, out.command, seed, entry, number, undone,
                        parts["before"], parts["after"], parts["rolls"], replay, parts["about"],
                        row["digest"], body, stored)


@contextmanager
def open_game(path: str | Path, *, owner: int | None = None) -> Iterator[GameTransaction]:
    """Open (or create) a game file and run one transaction in it: committed when the block
    ends normally, rolled back on any exception (Ctrl-C included). Any SQLite failure, and a
    database that is not a referee game file, is a ``GameFileError``. A file of an older
    format is migrated forward in the same transaction; what an interrupted command left is
    rolled back first (``recover``); a new file is made whole before it takes its name. The
    end of the chain is checked first (``GameTransaction.guard``), and an attack left pending
    by another command is met: one still being played is not disturbed (refused), one whose
    command is gone is marked abandoned (``referee.game.liveness``); ``owner``: the pending
    entry of this command."""
    path = Path(path)
    name = str(path)
    if not os.path.lexists(path):
        _create(path)
    recover(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("error.game_open", file=name, reason=str(err))) from None
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
            _check_or_create(conn, name)
            tx = GameTransaction(conn, name)
            tx.guard()
            pending = tx.open_pending()
            if pending is not None and pending.id != owner:
                from referee.game.liveness import meet_pending

                meet_pending(tx, pending)
            yield tx
        except sqlite3.Error as err:
            _rollback(conn)
            raise GameFileError(Msg.of("error.game_open", file=name, reason=str(err))) from None
        except BaseException:
            _rollback(conn)
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            raise GameFileError(Msg.of("error.game_open", file=name, reason=str(err))) from None
    finally:
        conn.close()


def create_game(path: str | Path, fill: Callable[[GameTransaction], None]) -> None:
    """Make a new game file at ``path`` holding what ``fill`` writes, whole or not at all:
    built in a new file beside it and linked to its name only once complete (a name taken
    meanwhile is refused: ``game.error.exists``). A failure (a full disk, Ctrl-C) leaves
    nothing behind."""
    _create(Path(path), fill, must_be_new=True)


def _create(path: Path, fill: Callable[[GameTransaction], None] | None = None, *,
            must_be_new: bool = False) -> None:
    import tempfile

    name = str(path)
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".new")
    except OSError as err:
        raise GameFileError(Msg.of("error.game_open", file=name,
                                   reason=err.strerror or str(err))) from None
    try:
        os.fchmod(fd, 0o666 & ~umask())  # as SQLite makes a file (mkstemp's is private)
    finally:
        os.close(fd)
    try:
        conn = sqlite3.connect(temporary, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            _check_or_create(conn, name)
            if fill is not None:
                fill(GameTransaction(conn, name))
            conn.execute("COMMIT")
        finally:
            conn.close()
        try:
            os.link(temporary, path)  # never over a file made meanwhile
        except FileExistsError:
            if must_be_new:
                from referee.core.errors import UsageError

                raise UsageError(Msg.of("game.error.exists", file=name)) from None
        except OSError:  # a file system without hard links
            if os.path.lexists(path):
                raise
            os.replace(temporary, path)
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("error.game_open", file=name, reason=str(err))) from None
    except OSError as err:
        raise GameFileError(Msg.of("error.game_open", file=name,
                                   reason=err.strerror or str(err))) from None
    finally:
        for leftover in (temporary, temporary + "-journal"):
            try:
                os.unlink(leftover)
            except OSError:
                pass


def recover(path: str | Path) -> bool:
    """Roll back what a command interrupted inside its write left in the game file ``path``
    (a hot journal), and say so (``referee.notices``): one line, the last command's entry
    was not kept. SQLite rolls a hot journal back when the file is next opened for writing,
    and a read-only connection refuses to read until then: so a read-only connection looks
    first, and only when it is refused for that reason is the file opened for writing, once.
    True when something was rolled back. A file that is not a game file is left alone."""
    journal = f"{path}-journal"
    try:
        if os.stat(journal).st_size == 0 or not is_game_file(path):
            return False
    except OSError:
        return False  # no journal: nothing was interrupted
    try:
        probe = sqlite3.connect(_read_only_uri(Path(path)), uri=True, isolation_level=None)
        try:
            probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            probe.close()
        return False  # the journal of a write going on now, or one already rolled back
    except sqlite3.Error as err:
        if getattr(err, "sqlite_errorcode", None) != SQLITE_READONLY_ROLLBACK:
            return False  # anything else is for the command's own open to report
    try:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")  # its first read rolls the journal back
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("game.error.recover", file=str(path),
                                   reason=str(err))) from None
    from referee.notices import say

    say(Msg.of("game.recovered", file=str(path)))
    return True


def _read_only_uri(path: Path) -> str:
    from urllib.parse import quote

    return "file:" + quote(str(path.resolve())) + "?mode=ro"


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that can only read ``path`` (which must exist): never created, never
    migrated, never written (but for a hot journal rolled back first: ``recover``)."""
    path = Path(path)
    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    recover(path)
    try:
        return sqlite3.connect(_read_only_uri(path), uri=True, isolation_level=None)
    except (sqlite3.Error, OSError) as err:
        raise GameFileError(Msg.of("error.game_open", file=str(path),
                                   reason=str(err))) from None


@contextmanager
def read_game(path: str | Path,
              conn: sqlite3.Connection | None = None) -> Iterator[GameTransaction]:
    """Read a game file (of this format or an older one) in one consistent snapshot,
    writing nothing: for the commands that only read (``game log``, ``follow``, ``odds``).
    ``conn``: an open read-only connection to use (``follow`` keeps one)."""
    name = str(path)
    own = conn is None
    if conn is None:
        conn = connect_read_only(path)
    try:
        conn.execute("BEGIN")
        try:
            schema = _check(conn, name)
            yield GameTransaction(conn, name, schema=schema, writable=False)
        finally:
            _rollback(conn)
    except sqlite3.Error as err:
        failure = GameFileError(Msg.of("error.game_open", file=name, reason=str(err)))
        failure.sqlite_code = getattr(err, "sqlite_errorcode", None)
        raise failure from None
    finally:
        if own:
            conn.close()


def _damaged(name: str, where: str, reason: Msg | str) -> GameFileError:
    return GameFileError(Msg.of("error.game_damaged", file=name, where=where, reason=reason))


def _revision(conn: sqlite3.Connection, name: str) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
    if row is None:
        raise _damaged(name, "meta.revision", "missing")
    if not isinstance(row[0], str) or not row[0].isascii() or not row[0].isdigit():
        raise _damaged(name, "meta.revision", repr(row[0])[:40])
    return int(row[0])


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def _check(conn: sqlite3.Connection, name: str) -> int:
    """The format of a referee game file (refused: a foreign database, a newer format, a
    format that is not a number, a damaged revision)."""
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    if app_id != APPLICATION_ID:
        raise GameFileError(Msg.of("error.game_foreign", file=name))
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    found = row[0] if row else None
    if not isinstance(found, str) or not found.isascii() or not found.isdigit():
        raise _damaged(name, "meta.schema", repr(found)[:40])
    if int(found) > SCHEMA_VERSION:
        raise GameFileError(Msg.of("error.game_schema", file=name, found=found,
                                   expected=SCHEMA_VERSION))
    if int(found) < 1:
        raise _damaged(name, "meta.schema", found)
    _revision(conn, name)  # a damaged file is refused before anything reads or writes it
    return int(found)


def _check_or_create(conn: sqlite3.Connection, name: str) -> None:
    """A new (empty) file becomes a game file; an existing one must be one of ours, and one
    of an older format is migrated forward."""
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    (tables,) = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    if tables == 0 and app_id == 0:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for statement in filter(str.strip, (SCHEMA + SCHEMA_2 + SCHEMA_3).split(";")):
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT INTO meta VALUES ('revision', '0')")
        return
    schema = _check(conn, name)
    if schema == 1:
        _migrate_1_to_2(conn, name)
    if schema < 3:
        _migrate_2_to_3(conn, name)


def _migrate_1_to_2(conn: sqlite3.Connection, name: str) -> None:
    """Format 1 to 2: the history columns and the sides table. The entries written before
    keep no history (they cannot be undone); their numbers are their places in the log, and
    the state they left is kept as where the history starts."""
    for statement in filter(str.strip, SCHEMA_2.split(";")):
        conn.execute(statement)
    conn.execute("UPDATE log SET number = (SELECT count(*) FROM log AS earlier "
                 "WHERE earlier.id <= log.id)")
    tx = GameTransaction(conn, name, schema=2)
    (count,) = conn.execute("SELECT count(*) FROM log").fetchone()
    tx.set_meta("migrated", _dumps({"from": 1, "entries": int(count),
                                    "state": tx.all_state()}))
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")


def _migrate_2_to_3(conn: sqlite3.Connection, name: str) -> None:
    """Format 2 to 3: the log becomes a chain of events. The entries written before keep
    their digests (and their dice, scheme 1); a ``migrated`` event, chained from the last of
    them, covers what format 2 kept outside its chain: which entries were undone, and the
    game's facts."""
    for statement in filter(str.strip, SCHEMA_3.split(";")):
        conn.execute(statement)
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    tx = GameTransaction(conn, name, schema=3)
    undone = {str(i): at for i, at in
              conn.execute("SELECT id, undone FROM log WHERE undone IS NOT NULL ORDER BY id")}
    game = tx.meta("game")
    tx.append_event("migrated", {"from": 2, "undone": undone,
                                 "game": tx._json("meta.game", game) if game else None})
