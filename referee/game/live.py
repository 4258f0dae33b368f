"""What a game file holds besides the game, for the phones at the table (``game serve``).

The commands at the terminal and the server talk only through the game file: no socket of
their own. A few small tables sit beside the log, outside its history and its checks (they
are never in an entry, never in a digest, and no write to them bumps the file's revision, so
an attack that asks its questions with the file unlocked never finds "the game changed"
because a phone was looked at):

* ``serving``: the one server on this file (its process, host and start), so that a second
  ``serve`` is refused and the terminal knows whether phones may be watching;
* ``seats``: the sides whose phone is connected now (the server keeps it);
* ``progress``: the attack in progress, written by the attack at the terminal after each
  answer while a server is serving, cleared at its end: the phones show it step by step;
* ``pending``: a question the terminal put to a side's phone, and its answer. Whoever answers
  first wins, in one transaction (``answer``, ``claim``): the phone's answer is taken only if
  the terminal has not claimed the question, and the terminal claims it only if no answer
  came; the terminal then checks the phone's answer with the question's own ``accept`` (the
  one validation path) and either takes it or hands the refusal back to the phone.
* ``bytes``: a program roll's contribution asked of the opponent's phone (the dice of trusted
  games: each roll of an entry drawn from the game's seed and the opponent's bytes for it,
  asked only once the entry's declaration is written pending). The phone's page answers with
  random bytes of its own (``crypto.getRandomValues``) as soon as it sees the request;
  first come wins against the terminal here too (``give_bytes``, ``claim_bytes``).

Each write is one short transaction (``BEGIN IMMEDIATE``) with a bounded wait for the lock:
a writer holding the file's lock longer makes the write fail (``LiveBusy``), and the caller
tries again later; nothing here ever blocks a command for long. Only the standard library is
imported here: the attack path uses it.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg

LIVE_SCHEMA = """
CREATE TABLE IF NOT EXISTS serving (
    id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL,
    started TEXT NOT NULL, address TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    side TEXT PRIMARY KEY, phones INTEGER NOT NULL, seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS progress (
    id INTEGER PRIMARY KEY CHECK (id = 1), entry INTEGER, ruleset TEXT, at REAL NOT NULL,
    steps TEXT NOT NULL, asking TEXT);
CREATE TABLE IF NOT EXISTS pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT, entry INTEGER, side TEXT NOT NULL,
    question TEXT NOT NULL, asked REAL NOT NULL, answer TEXT,
    by TEXT, error TEXT, answered REAL, done INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS bytes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, entry INTEGER, roll INTEGER NOT NULL,
    side TEXT NOT NULL, asked REAL NOT NULL, value TEXT, by TEXT, given REAL,
    done INTEGER NOT NULL DEFAULT 0);
"""
BUSY_SECONDS = 0.5  # how long a live write waits for a writer's lock before giving up
MAX_ANSWER = 400  # characters of an answer sent by a phone (longer: refused)
BYTES_HEX = (32, 64)  # hex characters of a phone's random bytes for a roll (16 to 32 bytes)


class LiveBusy(Exception):
    """Another command holds the file's lock: the live write is tried again later."""


def _tables(conn: sqlite3.Connection, name: str) -> None:
    from referee.files import GAME_APPLICATION_ID as APPLICATION_ID

    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    if app_id != APPLICATION_ID:
        raise GameFileError(Msg.of("error.game_foreign", file=name))
    for statement in filter(str.strip, LIVE_SCHEMA.split(";")):
        conn.execute(statement)


@contextmanager
def live_write(path: Path) -> Iterator[sqlite3.Connection]:
    """One short transaction on the live tables of ``path`` (made when missing)."""
    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("error.game_open", file=str(path), reason=str(err))) from None
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise LiveBusy(str(err)) from None
        try:
            _tables(conn, str(path))
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as err:
        raise LiveBusy(str(err)) from None
    finally:
        conn.close()


def _has(conn: sqlite3.Connection, table: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                       (table,)).fetchone()
    return row is not None


@contextmanager
def live_read(path: Path) -> Iterator[sqlite3.Connection]:
    """A read of the live tables (a connection that writes nothing)."""
    from referee.game import connect_read_only

    conn = connect_read_only(path)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    try:
        yield conn
    finally:
        conn.close()


# --- the server -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Server:
    pid: int
    host: str
    started: str
    address: str

    @property
    def alive(self) -> bool:
        """Whether the process still runs (a server killed with kill -9 leaves its row: it
        counts for nothing once its process is gone). Another host's server is taken as
        alive: it cannot be checked from here."""
        if self.host != socket.gethostname():
            return True
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def server_of(conn: sqlite3.Connection) -> Server | None:
    if not _has(conn, "serving"):
        return None
    row = conn.execute("SELECT pid, host, started, address FROM serving WHERE id = 1").fetchone()
    if row is None or not isinstance(row[0], int):
        return None
    return Server(int(row[0]), str(row[1]), str(row[2]), str(row[3]))


def serving(path: Path) -> Server | None:
    """The server serving ``path`` now (``None``: none, or one that died)."""
    try:
        with live_read(path) as conn:
            found = server_of(conn)
    except (GameFileError, sqlite3.Error):
        return None
    return found if found is not None and found.alive else None


def start_serving(path: Path, address: str) -> Server | None:
    """Take the file for this process's server; the server already serving it (alive) if
    there is one, else ``None``. A dead server's row and its seats and questions are
    cleared."""
    from datetime import UTC, datetime

    with live_write(path) as conn:
        found = server_of(conn)
        if found is not None and found.alive and found.pid != os.getpid():
            return found
        conn.execute("DELETE FROM serving")
        conn.execute("DELETE FROM seats")
        conn.execute("INSERT INTO serving VALUES (1, ?, ?, ?, ?)",
                     (os.getpid(), socket.gethostname(),
                      datetime.now(UTC).isoformat(timespec="seconds"), address))
    return None


def stop_serving(path: Path) -> None:
    with live_write(path) as conn:
        conn.execute("DELETE FROM serving WHERE pid = ?", (os.getpid(),))
        conn.execute("DELETE FROM seats")


def seat_joined(path: Path, side: str, change: int) -> None:
    """A phone of ``side`` connected (``change`` 1) or went away (-1)."""
    with live_write(path) as conn:
        conn.execute("INSERT INTO seats VALUES (?, max(0, ?), ?) ON CONFLICT (side) DO UPDATE "
                     "SET phones = max(0, phones + ?), seen = excluded.seen",
                     (side, change, time.time(), change))


SEAT_GRACE = 30.0  # seconds a seat stays joined after its last phone went away


def phones(path: Path) -> dict[str, int]:
    """The sides with a phone joined to a live server, and how many are connected now: a
    seat whose phone went away less than ``SEAT_GRACE`` seconds ago stays joined (a page
    reloaded, a phone asleep for a moment), with 0 phones connected."""
    try:
        with live_read(path) as conn:
            found = server_of(conn)
            if found is None or not found.alive or not _has(conn, "seats"):
                return {}
            return {str(s): int(n) for s, n in conn.execute(
                "SELECT side, phones FROM seats WHERE phones > 0 OR seen > ?",
                (time.time() - SEAT_GRACE,))}
    except (GameFileError, sqlite3.Error):
        return {}


# --- the attack in progress ---------------------------------------------------------------

class Progress:
    """The attack in progress as the phones see it: each question answered so far (its text
    and the answer as the terminal shows it) and the question being asked. Written after
    each change while a server serves the file; a write that finds the file busy is skipped
    (the next one carries everything)."""

    def __init__(self, path: Path, entry: int | None, ruleset: str) -> None:
        self.path = path
        self.entry = entry
        self.ruleset = ruleset
        self.steps: list[dict[str, Any]] = []
        self.asking: dict[str, Any] | None = None

    def ask(self, question: Any, who: str | None = None) -> None:
        from referee.core.text import jsonable

        self.asking = {"id": question.id, "text": jsonable(question.text),
                       "clause": question.clause, "by": question.answered_by, "who": who}
        self._write()

    def answered(self, question: Any, shown: str, who: str | None = None) -> None:
        from referee.core.text import jsonable

        self.steps = [s for s in self.steps if s["id"] != question.id]
        self.steps.append({"id": question.id, "text": jsonable(question.text),
                           "clause": question.clause, "answer": shown, "who": who})
        self.asking = None
        self._write()

    def back_to(self, question_ids: list[str]) -> None:
        """After going back: only the answers that stand (``question_ids``, in order)."""
        keep = {s["id"]: s for s in self.steps}
        self.steps = [keep[q] for q in question_ids if q in keep]
        self._write()

    def _write(self) -> None:
        try:
            with live_write(self.path) as conn:
                conn.execute("INSERT INTO progress VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT (id) "
                             "DO UPDATE SET entry = excluded.entry, ruleset = excluded.ruleset, "
                             "at = excluded.at, steps = excluded.steps, "
                             "asking = excluded.asking",
                             (self.entry, self.ruleset, time.time(),
                              json.dumps(self.steps, ensure_ascii=False),
                              json.dumps(self.asking, ensure_ascii=False)
                              if self.asking else None))
        except (LiveBusy, GameFileError, sqlite3.Error):
            pass  # the phones show it with the next write

    def clear(self) -> None:
        clear_progress(self.path)


def clear_progress(path: Path) -> None:
    try:
        with live_write(path) as conn:
            conn.execute("DELETE FROM progress")
            conn.execute("UPDATE pending SET done = 1 WHERE done = 0")
            conn.execute("UPDATE bytes SET done = 1 WHERE done = 0")
    except (LiveBusy, GameFileError, sqlite3.Error):
        pass


def progress_of(conn: sqlite3.Connection) -> dict[str, Any] | None:
    if not _has(conn, "progress"):
        return None
    row = conn.execute("SELECT entry, ruleset, steps, asking FROM progress WHERE id = 1"
                       ).fetchone()
    if row is None:
        return None
    try:
        steps = json.loads(row[2])
        asking = json.loads(row[3]) if row[3] else None
    except (TypeError, ValueError):
        return None
    if not isinstance(steps, list):
        return None
    return {"entry": row[0], "ruleset": row[1], "steps": [s for s in steps
                                                           if isinstance(s, dict)],
            "asking": asking if isinstance(asking, dict) else None}


# --- questions put to a phone -----------------------------------------------------------

@dataclass(frozen=True)
class Pending:
    id: int
    entry: int | None
    side: str
    question: dict[str, Any]
    answer: str | None
    by: str | None  # "phone" or "terminal": who answered (or claimed) it
    error: Any  # the refusal of the last answer the phone sent (a message as JSON)
    done: bool


def _pending(row: tuple[Any, ...]) -> Pending | None:
    try:
        question = json.loads(row[3])
        error = json.loads(row[6]) if row[6] else None
    except (TypeError, ValueError):
        return None
    if not isinstance(question, dict):
        return None
    return Pending(int(row[0]), row[1], str(row[2]), question, row[4], row[5], error,
                   bool(row[7]))


def put_question(path: Path, entry: int | None, side: str, question: dict[str, Any]) -> int:
    """Put a question to ``side``'s phone; its id. Earlier questions left open are closed."""
    with live_write(path) as conn:
        conn.execute("UPDATE pending SET done = 1 WHERE done = 0")
        cursor = conn.execute("INSERT INTO pending (entry, side, question, asked) "
                              "VALUES (?, ?, ?, ?)",
                              (entry, side, json.dumps(question, ensure_ascii=False),
                               time.time()))
        conn.execute("DELETE FROM pending WHERE done = 1 AND id < ? - 200", (cursor.lastrowid,))
        return int(cursor.lastrowid or 0)


_OPEN = ("SELECT id, entry, side, question, answer, by, error, done "
         "FROM pending WHERE done = 0 AND (? IS NULL OR side = ?) ORDER BY id DESC LIMIT 1")
_LAST = ("SELECT id, entry, side, question, answer, by, error, done "
         "FROM pending WHERE side = ? ORDER BY id DESC LIMIT 1")
_ONE = ("SELECT id, entry, side, question, answer, by, error, done "
        "FROM pending WHERE id = ?")


def open_question(conn: sqlite3.Connection, side: str | None = None) -> Pending | None:
    """The question open now (for ``side``), if any."""
    if not _has(conn, "pending"):
        return None
    row = conn.execute(_OPEN, (side, side)).fetchone()
    return None if row is None else _pending(row)


def last_question(conn: sqlite3.Connection, side: str) -> Pending | None:
    """The last question put to ``side`` (open or not): a phone that comes back sees it."""
    if not _has(conn, "pending"):
        return None
    row = conn.execute(_LAST, (side,)).fetchone()
    return None if row is None else _pending(row)


def read_question(path: Path, question_id: int) -> Pending | None:
    with live_read(path) as conn:
        row = conn.execute(_ONE, (question_id,)).fetchone()
    return None if row is None else _pending(row)


def answer(path: Path, question_id: int, side: str, text: str) -> bool:
    """The phone of ``side`` answers: taken only if the question is still open, is that
    side's, and nobody answered or claimed it (first answer wins); whether it was taken."""
    if len(text) > MAX_ANSWER:
        return False
    with live_write(path) as conn:
        cursor = conn.execute(
            "UPDATE pending SET answer = ?, by = 'phone', error = NULL, "
            "answered = ? WHERE id = ? AND side = ? AND done = 0 AND by IS NULL",
            (text, time.time(), question_id, side))
        return cursor.rowcount == 1


def claim(path: Path, question_id: int) -> bool:
    """The terminal answers the question itself: taken only if no answer came first."""
    with live_write(path) as conn:
        cursor = conn.execute("UPDATE pending SET by = 'terminal', answered = ? "
                              "WHERE id = ? AND done = 0 AND by IS NULL",
                              (time.time(), question_id))
        return cursor.rowcount == 1


def refuse(path: Path, question_id: int, reason: Any) -> None:
    """The phone's answer was refused (``reason``: a message as JSON): the question is
    open again, with the reason for the phone to show."""
    with live_write(path) as conn:
        conn.execute("UPDATE pending SET answer = NULL, by = NULL, "
                     "error = ? WHERE id = ? AND done = 0",
                     (json.dumps(reason, ensure_ascii=False), question_id))


def close(path: Path, question_id: int) -> None:
    """The question is answered (its answer taken) or given up (Ctrl-C, an error)."""
    with live_write(path) as conn:
        conn.execute("UPDATE pending SET done = 1 WHERE id = ?", (question_id,))


# --- a roll's bytes asked of the opponent's phone --------------------------------------------

@dataclass(frozen=True)
class BytesAsked:
    id: int
    entry: int | None
    roll: int
    side: str
    value: str | None
    by: str | None  # "phone" or "terminal"
    done: bool


def _bytes(row: tuple[Any, ...]) -> BytesAsked:
    return BytesAsked(int(row[0]), row[1], int(row[2]), str(row[3]), row[4], row[5],
                      bool(row[6]))


def ask_bytes(path: Path, entry: int | None, roll: int, side: str) -> int:
    """Ask ``side``'s phone for its bytes of program roll ``roll`` of entry ``entry``; the
    request's id. Earlier requests left open are closed."""
    with live_write(path) as conn:
        conn.execute("UPDATE bytes SET done = 1 WHERE done = 0")
        cursor = conn.execute("INSERT INTO bytes (entry, roll, side, asked) VALUES (?, ?, ?, ?)",
                              (entry, roll, side, time.time()))
        conn.execute("DELETE FROM bytes WHERE done = 1 AND id < ? - 200", (cursor.lastrowid,))
        return int(cursor.lastrowid or 0)


def open_bytes(conn: sqlite3.Connection, side: str) -> BytesAsked | None:
    """The request open now for ``side``'s phone, if any."""
    if not _has(conn, "bytes"):
        return None
    row = conn.execute("SELECT id, entry, roll, side, value, by, done FROM bytes "
                       "WHERE done = 0 AND by IS NULL AND side = ? ORDER BY id DESC LIMIT 1",
                       (side,)).fetchone()
    return None if row is None else _bytes(row)


def given_bytes(conn: sqlite3.Connection, side: str, most: int = 12) -> list[BytesAsked]:
    """The last parts ``side``'s phone gave, oldest first (each seat shows its own)."""
    if not _has(conn, "bytes"):
        return []
    rows = conn.execute("SELECT id, entry, roll, side, value, by, done FROM bytes "
                        "WHERE side = ? AND by = 'phone' AND value IS NOT NULL "
                        "ORDER BY id DESC LIMIT ?", (side, most)).fetchall()
    return [_bytes(row) for row in reversed(rows)]


def read_bytes(path: Path, request: int) -> BytesAsked | None:
    with live_read(path) as conn:
        row = conn.execute("SELECT id, entry, roll, side, value, by, done FROM bytes "
                           "WHERE id = ?", (request,)).fetchone()
    return None if row is None else _bytes(row)


def well_formed_bytes(value: str) -> bool:
    """Random bytes as a phone sends them: 16 to 32 bytes in lower-case hex."""
    low, high = BYTES_HEX
    return (low <= len(value) <= high and len(value) % 2 == 0
            and all(c in "0123456789abcdef" for c in value))


def give_bytes(path: Path, request: int, side: str, value: str) -> bool:
    """The phone of ``side`` gives its bytes: taken only for an open request of that side
    that nobody answered or claimed (first come wins); whether they were taken."""
    if not well_formed_bytes(value):
        return False
    with live_write(path) as conn:
        cursor = conn.execute("UPDATE bytes SET value = ?, by = 'phone', given = ? "
                              "WHERE id = ? AND side = ? AND done = 0 AND by IS NULL",
                              (value, time.time(), request, side))
        return cursor.rowcount == 1


def claim_bytes(path: Path, request: int) -> bool:
    """The terminal takes the roll's contribution itself (a word typed there): only if the
    phone's bytes did not come first."""
    with live_write(path) as conn:
        cursor = conn.execute("UPDATE bytes SET by = 'terminal', given = ? "
                              "WHERE id = ? AND done = 0 AND by IS NULL",
                              (time.time(), request))
        return cursor.rowcount == 1


def close_bytes(path: Path, request: int) -> None:
    with live_write(path) as conn:
        conn.execute("UPDATE bytes SET done = 1 WHERE id = ?", (request,))
