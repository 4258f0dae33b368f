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
entry's. A file of format 1 is migrated forward by the first command that writes to it, and
read as it is by the commands that only read (``read_game``).

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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg
from referee.files import GAME_APPLICATION_ID as APPLICATION_ID  # "REFR": a game file's
from referee.files import is_game_file, umask

SCHEMA_VERSION = 2
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

    @property
    def standing(self) -> bool:
        return self.undone is None

    @property
    def has_history(self) -> bool:
        """Written with its before-state and digest (format 2)."""
        return self.digest is not None


def entry_digest(previous: str, entry: LogEntry) -> str:
    """SHA-256 over the previous entry's digest and everything this entry keeps but its
    undone mark: an entry changed or taken out breaks the chain after it."""
    body = [previous, entry.id, entry.number, entry.at, entry.ruleset, entry.command,
            entry.seed, entry.result, entry.before, entry.after, entry.rolls, entry.replay,
            entry.about]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


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
            self._before[ruleset] = self.state(ruleset)

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
                   about: Mapping[str, Any] | None = None) -> int:
        """Add an entry to the log, with its ruleset's state before this command (or before
        the previous entry this command wrote) and after it; returns its number."""
        number = self.next_number()
        before = self._before.pop(ruleset, None)
        after = self.state(ruleset)
        if before is None:
            before = after
        # as the file will give them back (a tuple read as a list): what the digest covers
        row = LogEntry(self._next_id(), clock(), ruleset, command, seed, _plain(entry), number,
                       None, before, after, _plain(list(rolls)),
                       _plain(replay) if replay is not None else None, _plain(about or {}))
        digest = entry_digest(self.meta("head") or "", row)
        self._conn.execute(
            "INSERT INTO log (id, at, ruleset, command, seed, entry, number, before, after, "
            "rolls, replay, about, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.at, ruleset, command, seed, _dumps(row.result), number, _dumps(before),
             _dumps(after), _dumps(row.rolls),
             _dumps(row.replay) if row.replay is not None else None, _dumps(row.about),
             digest))
        self.set_meta("head", digest)
        return number

    def _next_id(self) -> int:
        row = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'log'").fetchone()
        (largest,) = self._conn.execute("SELECT coalesce(max(id), 0) FROM log").fetchone()
        return max(int(row[0]) if row and isinstance(row[0], int) else 0, int(largest)) + 1

    def next_number(self) -> int:
        """The number the next entry takes: one more than the entries that stand."""
        if self.schema < 2:
            (count,) = self._conn.execute("SELECT count(*) FROM log").fetchone()
            return int(count) + 1
        (count,) = self._conn.execute("SELECT count(*) FROM log WHERE undone IS NULL").fetchone()
        return int(count) + 1

    def mark_undone(self, entry_id: int) -> str:
        """Mark the entry undone now; the time written."""
        at = clock()
        self._conn.execute("UPDATE log SET undone = ? WHERE id = ?", (at, entry_id))
        self._bump()
        return at

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
        self._conn.execute("INSERT INTO sides VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                           "side = excluded.side", (name, side))
        self._bump()

    @property
    def revision(self) -> int:
        """Bumped by every write: a command that read the state, asked its questions and
        now writes can tell whether another command wrote in between."""
        return _revision(self._conn, self._name)

    def _bump(self) -> None:
        self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                           "WHERE key = 'revision'")

    def log(self) -> list[LogEntry]:
        columns = ["id", "at", "ruleset", "command", "seed", "entry"]
        if self.schema >= 2:
            columns += HISTORY_COLUMNS
        rows = self._conn.execute("SELECT {} FROM log ORDER BY id".format(", ".join(columns)))
        return [self._entry(dict(zip(columns, row, strict=True))) for row in rows]

    def redone(self, number: int) -> LogEntry | None:
        """The entry numbered ``number`` undone after the last entry that stands (the one the
        next entry redoes), if any: read without reading the whole log."""
        if self.schema < 2:
            return None
        columns = ["id", "at", "ruleset", "command", "seed", "entry", *HISTORY_COLUMNS]
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
        return LogEntry(out.id, out.at, out.ruleset, out.command, seed, entry, number, undone,
                        parts["before"], parts["after"], parts["rolls"], replay, parts["about"],
                        row["digest"])


@contextmanager
def open_game(path: str | Path) -> Iterator[GameTransaction]:
    """Open (or create) a game file and run one transaction in it: committed when the block
    ends normally, rolled back on any exception (Ctrl-C included). Any SQLite failure, and a
    database that is not a referee game file, is a ``GameFileError``. A file of an older
    format is migrated forward in the same transaction; what an interrupted command left is
    rolled back first (``recover``); a new file is made whole before it takes its name."""
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
            yield GameTransaction(conn, name)
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
        for statement in filter(str.strip, (SCHEMA + SCHEMA_2).split(";")):
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT INTO meta VALUES ('revision', '0')")
        return
    if _check(conn, name) == 1:
        _migrate_1_to_2(conn, name)


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
