"""``game follow``: the opponent's view of a game file, in a second terminal.

It only reads: one read-only SQLite connection, polled with ``PRAGMA data_version`` (which
changes whenever another connection commits), so another terminal's attack, undo or phase
shows within the polling interval with no server. At a terminal the view is redrawn in place
(rich ``Live``): the game, its last entries, the last entry's working, and each ruleset's state
(Blast markers, cards left, markers, units); elsewhere (a pipe, a file) each new entry is
printed as it comes. Ctrl-C ends it (exit code 0).

The file is watched, not only its content: a file replaced under its name (a copy put in its
place, another game), one that goes back to an earlier revision (an older copy: entries gone
that the opponent saw), or one deleted or moved away is said in one line (``referee.notices``),
and the view goes on with the new file, or waits for the file to come back. What a command
killed inside its write left is rolled back (``recover``); a file locked for a moment is
waited for. Only a file that is not a readable game file ends the view (exit code 5).
"""

from __future__ import annotations

import io
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.game import LogEntry

if TYPE_CHECKING:
    from referee.context import Environment

SHOWN_ENTRIES = 6  # the last entries the view shows
SQLITE_BUSY, SQLITE_LOCKED = 5, 6  # another connection writes now: wait for it


def _working(entry: LogEntry) -> Table:
    from referee.game.history import message
    from referee.game.view import entry_title

    rows = []
    for i, step in enumerate(entry.result.get("steps", []), 1):
        if isinstance(step, dict):
            rows.append((str(i), step.get("clause") or "",
                         Msg.of(f"step.kind.{step.get('kind')}"), message(step.get("text"))))
    return Table(Msg.of("game.follow.working", number=entry.number or "?",
                        title=entry_title(entry)),
                 tuple(Msg.of(f"result.col.{c}") for c in ("step", "clause", "kind", "what")),
                 tuple(rows))


def frame(path: Path, conn: Any, width: int | None, color: bool,
          watch: Watch | None = None) -> tuple[str, list[LogEntry]]:
    """The view as text (with colour codes when ``color``), and the entries it shows
    (``watch``: told the revision and game read, to notice a file that went back)."""
    from referee.game import read_game
    from referee.game.history import check_history
    from referee.game.seed import game_info
    from referee.game.view import Context, entry_lines, header_lines, state_tables
    from referee.render.console import make_console, print_lines, print_table

    buffer = io.StringIO()
    console = make_console(buffer, terminal=True, color=color, width=width)
    with read_game(path, conn) as tx:
        history = check_history(tx)
        entries = history.entries
        info = game_info(tx)
        context = Context(info, history)
        if watch is not None:
            watch.seen(tx.revision, info.commitment if info is not None else None)
            watch.context = context
        lines = header_lines(str(path), info, entries)
        for entry in entries[-SHOWN_ENTRIES:]:
            lines += entry_lines(entry, context)
        lines += _last_event(history, context)
        print_lines(console, lines)
        standing = [e for e in entries if e.standing]
        if standing:
            print_table(console, _working(standing[-1]))
        for table in state_tables(tx):
            print_table(console, table)
    from referee.catalog import render

    console.print(render(Msg.of("game.follow.hint")), markup=False)
    return buffer.getvalue(), entries


def _last_event(history: Any, context: Any) -> list[str]:
    """The last event when it is not an entry (an undo, an abandoned attack, the reveal:
    with its check code), or the attack being played now."""
    from referee.catalog import render
    from referee.game.view import event_lines

    out: list[str] = []
    if history.events and history.events[-1].entry is None:
        out += event_lines(history.events[-1], context)
    if history.pending is not None:
        out.append(render(Msg.of("game.log.pending", number=history.pending.number,
                                 at=history.pending.at[:16].replace("T", " "),
                                 command=history.pending.command)))
    return out


def follow(path: Path, env: Environment, *, interval: float = 0.5,
           rounds: int | None = None) -> None:
    """Watch ``path`` until Ctrl-C (``rounds``: stop after that many polls, for tests)."""
    watch = Watch(path)
    try:
        if env.stdout_isatty:
            _live(watch, env, interval, rounds)
        else:
            _tail(watch, env, interval, rounds)
    finally:
        watch.close()


class Watch:
    """The file ``follow`` watches: one read-only connection to it, and what tells this file
    from another put under its name (its device and inode, the game's commitment) and from
    an older copy of itself (the revision, which every write raises)."""

    def __init__(self, path: Path) -> None:
        from referee.game import connect_read_only

        self.path = path
        self.conn: sqlite3.Connection | None = connect_read_only(path)
        self.identity = _identity(path)
        self.version: object = None  # PRAGMA data_version when last shown
        self.revision: int | None = None
        self.commitment: str | None = None
        self.gone = False
        self.waiting = False
        self.reopened = False  # another file (or the same, back): shown whole again
        self.said = False  # ... and said so already
        self.context: Any = None  # the log last shown (``game.view.Context``)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _reopen(self) -> None:
        from referee.game import connect_read_only

        self.close()
        self.conn = connect_read_only(self.path)
        self.identity = _identity(self.path)
        self.version = None
        self.reopened = True

    def poll(self) -> bool:
        """Whether there is something new to show (the file changed, or was replaced);
        says what happened to the file itself."""
        from referee.core.errors import GameFileError
        from referee.game import SQLITE_READONLY_ROLLBACK, recover
        from referee.notices import say

        name = str(self.path)
        now = _identity(self.path)
        if now is None:  # deleted or moved away: wait for it
            if not self.gone:
                self.gone = True
                say(Msg.of("game.follow.gone", file=name))
            return False
        if self.gone or now != self.identity:
            say(Msg.of("game.follow.back" if self.gone and now == self.identity else
                       "game.follow.replaced", file=name))
            self.gone, self.said = False, True
            self._reopen()
        assert self.conn is not None
        try:
            (version,) = self.conn.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error as err:
            code = getattr(err, "sqlite_errorcode", None)
            if code == SQLITE_READONLY_ROLLBACK:
                recover(self.path)  # a command killed inside its write: roll it back
            elif code in (SQLITE_BUSY, SQLITE_LOCKED):
                if not self.waiting:  # a write going on: the next poll sees it done
                    self.waiting = True
                    say(Msg.of("game.follow.waiting", file=name, reason=str(err)))
            else:
                raise GameFileError(Msg.of("error.game_open", file=name,
                                           reason=str(err))) from None
            return False
        self.waiting = False
        if version == self.version:
            return False
        self.version = version
        return True

    def seen(self, revision: int, commitment: str | None) -> None:
        """The frame just shown read ``revision`` of the game ``commitment``: a game that
        is another one, or went back, is said."""
        from referee.notices import say

        name = str(self.path)
        if self.revision is not None:
            if commitment != self.commitment:
                if not self.said:
                    say(Msg.of("game.follow.replaced", file=name))
            elif revision < self.revision:  # (an older copy, put back under a new inode too)
                say(Msg.of("game.follow.went_back", file=name, was=self.revision,
                           now=revision))
        self.revision, self.commitment, self.said = revision, commitment, False


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _changes(watch: Watch, interval: float, rounds: int | None) -> Any:
    """Yields each time the file changed (and once at first)."""
    count = 0
    while rounds is None or count < rounds:
        if watch.poll():
            yield
        count += 1
        time.sleep(interval)


def _frame(watch: Watch, width: int | None, color: bool) -> tuple[str, list[LogEntry]] | None:
    """The view now, or None when the file cannot be read this moment (it changed under
    the poll: killed inside a write, replaced); the next poll tries again."""
    from referee.core.errors import GameFileError
    from referee.game import recover

    assert watch.conn is not None
    try:
        return frame(watch.path, watch.conn, width, color, watch)
    except GameFileError as err:
        locked = err.sqlite_code in (SQLITE_BUSY, SQLITE_LOCKED)  # a long write: wait
        if locked or not watch.path.exists() or recover(watch.path) or _identity(
                watch.path) != watch.identity:
            watch.version = None  # shown again at the next poll
            return None
        raise


def _live(watch: Watch, env: Environment, interval: float, rounds: int | None) -> None:
    from rich.live import Live
    from rich.text import Text

    from referee.render.console import make_console

    console = make_console(env.stdout, terminal=True, color=env.color)
    with Live(console=console, auto_refresh=False, screen=False,
              vertical_overflow="visible") as live:
        for _ in _changes(watch, interval, rounds):
            shown = _frame(watch, console.width, env.color)
            if shown is not None:
                live.update(Text.from_ansi(shown[0]), refresh=True)


def _tail(watch: Watch, env: Environment, interval: float, rounds: int | None) -> None:
    from referee.core.text import visible
    from referee.game.view import entry_lines, event_lines

    shown: dict[int, bool] = {}  # entry id: whether it was shown undone
    seen: set[int] = set()  # events shown
    first = True
    for _ in _changes(watch, interval, rounds):
        found = _frame(watch, None, False)
        if found is None:
            continue
        text, _entries = found
        context = watch.context
        events = context.history.events
        if first or watch.reopened:
            watch.reopened = False
            env.stdout.write(text)
            shown = {e.entry.id: not e.entry.standing for e in events if e.entry is not None}
            seen = {e.id for e in events}
            first = False
        else:
            for event in events:  # an entry as it comes or is undone, an undo, an abandon
                entry = event.entry
                lines: list[str] = []
                if entry is not None and shown.get(entry.id) != (not entry.standing):
                    lines = entry_lines(entry, context)
                    shown[entry.id] = not entry.standing
                elif entry is None and event.id not in seen:
                    lines = event_lines(event, context)
                seen.add(event.id)
                if lines:
                    env.stdout.write(visible("\n".join(lines)) + "\n")
        env.stdout.flush()
