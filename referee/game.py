"""Game files: state that lives between commands (``--game FILE``).

A game file is an SQLite database (standard library) with the current state of each ruleset
as JSON and an append-only log of every resolved step. Each command runs in one transaction:
a crash or Ctrl-C rolls everything back, so a game file is never half-written.
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
    """Reads and writes inside one command's transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def state(self, ruleset: str) -> dict[str, Any]:
        rows = self._conn.execute("SELECT key, value FROM state WHERE ruleset = ?", (ruleset,))
        return {k: json.loads(v) for k, v in rows}

    def update_state(self, ruleset: str, values: Mapping[str, Any]) -> None:
        self._conn.executemany(
            "INSERT INTO state (ruleset, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (ruleset, key) DO UPDATE SET value = excluded.value",
            [(ruleset, k, json.dumps(v, sort_keys=True)) for k, v in values.items()])

    def append_log(self, ruleset: str, command: str, entry: Mapping[str, Any],
                   seed: int | None = None) -> None:
        self._conn.execute(
            "INSERT INTO log (at, ruleset, command, seed, entry) VALUES (?, ?, ?, ?, ?)",
            (datetime.now(UTC).isoformat(timespec="seconds"), ruleset, command, seed,
             json.dumps(entry, sort_keys=True, ensure_ascii=False)))

    def log(self) -> list[LogEntry]:
        rows = self._conn.execute(
            "SELECT id, at, ruleset, command, seed, entry FROM log ORDER BY id")
        return [LogEntry(i, at, r, c, s, json.loads(e)) for i, at, r, c, s, e in rows]


@contextmanager
def open_game(path: str | Path) -> Iterator[GameTransaction]:
    """Open (or create) a game file and run one transaction in it: committed when the block
    ends normally, rolled back on any exception (Ctrl-C included)."""
    path = Path(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("error.game_open", file=str(path), reason=str(err))) from None
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in filter(str.strip, SCHEMA.split(";")):
                conn.execute(statement)
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError as err:
            raise GameFileError(Msg.of("error.game_open", file=str(path),
                                       reason=str(err))) from None
        if row is None:
            conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise GameFileError(Msg.of("error.game_schema", file=str(path), found=row[0],
                                       expected=SCHEMA_VERSION))
        try:
            yield GameTransaction(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    finally:
        conn.close()
