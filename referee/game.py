"""Game files: state that lives between commands (``--game FILE``).

A game file is an SQLite database (standard library) with the current state of each ruleset
as JSON and an append-only log of every resolved step. A command writes in one transaction:
a crash or Ctrl-C rolls everything back, so a game file is never half-written. An attack reads
the state in a short transaction, asks its questions with the file unlocked, and writes its
result in a second one that first checks nobody else wrote in between (``revision``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg

SCHEMA_VERSION = 1
APPLICATION_ID = 0x52454652  # "REFR": marks an SQLite file as a referee game file
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


@dataclass(frozen=True)
class LogEntry:
    id: int
    at: str
    ruleset: str
    command: str
    seed: int | None
    entry: dict[str, Any]


class GameTransaction:
    """Reads and writes inside one command's transaction. What is read is checked: a file
    damaged or edited outside the referee (state that is not JSON, a revision that is not a
    number, state of the wrong shape) is a ``GameFileError``, never a traceback."""

    def __init__(self, conn: sqlite3.Connection, name: str = "") -> None:
        self._conn = conn
        self._name = name

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

    def update_state(self, ruleset: str, values: Mapping[str, Any]) -> None:
        self._conn.executemany(
            "INSERT INTO state (ruleset, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (ruleset, key) DO UPDATE SET value = excluded.value",
            [(ruleset, k, json.dumps(v, sort_keys=True)) for k, v in values.items()])
        self._bump()

    def append_log(self, ruleset: str, command: str, entry: Mapping[str, Any],
                   seed: int | None = None) -> None:
        self._conn.execute(
            "INSERT INTO log (at, ruleset, command, seed, entry) VALUES (?, ?, ?, ?, ?)",
            (datetime.now(UTC).isoformat(timespec="seconds"), ruleset, command, seed,
             json.dumps(entry, sort_keys=True, ensure_ascii=False)))
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
        rows = self._conn.execute(
            "SELECT id, at, ruleset, command, seed, entry FROM log ORDER BY id")
        out = []
        for i, at, r, c, s, e in rows:
            entry = self._json(f"log[{i}]", e)
            if not isinstance(entry, dict):
                raise self._damaged(f"log[{i}]", type(entry).__name__)
            out.append(LogEntry(i, str(at), str(r), str(c), s if isinstance(s, int) else None,
                                entry))
        return out


@contextmanager
def open_game(path: str | Path) -> Iterator[GameTransaction]:
    """Open (or create) a game file and run one transaction in it: committed when the block
    ends normally, rolled back on any exception (Ctrl-C included). Any SQLite failure, and a
    database that is not a referee game file, is a ``GameFileError``."""
    path = Path(path)
    name = str(path)
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


def _check_or_create(conn: sqlite3.Connection, name: str) -> None:
    """A new (empty) file becomes a game file; an existing one must be one of ours."""
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    (tables,) = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    if tables == 0 and app_id == 0:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for statement in filter(str.strip, SCHEMA.split(";")):
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT INTO meta VALUES ('revision', '0')")
        return
    if app_id != APPLICATION_ID:
        raise GameFileError(Msg.of("error.game_foreign", file=name))
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] != str(SCHEMA_VERSION):
        raise GameFileError(Msg.of("error.game_schema", file=name,
                                   found=row[0] if row else "?", expected=SCHEMA_VERSION))
    _revision(conn, name)  # a damaged file is refused before anything reads or writes it
