"""``game follow``: the opponent's view of a game file, in a second terminal.

It only reads: one read-only SQLite connection, polled with ``PRAGMA data_version`` (which
changes whenever another connection commits), so another terminal's attack, undo or phase
shows within the polling interval with no server. At a terminal the view is redrawn in place
(rich ``Live``): the game, its last entries, the last entry's working, and each ruleset's state
(Blast markers, cards left, markers, units); elsewhere (a pipe, a file) each new entry is
printed as it comes. Ctrl-C ends it (exit code 0).
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.game import LogEntry

if TYPE_CHECKING:
    from referee.context import Environment

SHOWN_ENTRIES = 6  # the last entries the view shows


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


def frame(path: Path, conn: Any, width: int | None, color: bool) -> tuple[str, list[LogEntry]]:
    """The view as text (with colour codes when ``color``), and the entries it shows."""
    from referee.game import read_game
    from referee.game.history import check_history
    from referee.game.seed import game_info
    from referee.game.view import entry_lines, header_lines, state_tables
    from referee.render.console import make_console, print_lines, print_table

    buffer = io.StringIO()
    console = make_console(buffer, terminal=True, color=color, width=width)
    with read_game(path, conn) as tx:
        entries = check_history(tx).entries
        lines = header_lines(str(path), game_info(tx), entries)
        for entry in entries[-SHOWN_ENTRIES:]:
            lines += entry_lines(entry)
        print_lines(console, lines)
        standing = [e for e in entries if e.standing]
        if standing:
            print_table(console, _working(standing[-1]))
        for table in state_tables(tx):
            print_table(console, table)
    from referee.catalog import render

    console.print(render(Msg.of("game.follow.hint")), markup=False)
    return buffer.getvalue(), entries


def follow(path: Path, env: Environment, *, interval: float = 0.5,
           rounds: int | None = None) -> None:
    """Watch ``path`` until Ctrl-C (``rounds``: stop after that many polls, for tests)."""
    from referee.game import connect_read_only

    conn = connect_read_only(path)
    try:
        if env.stdout_isatty:
            _live(path, conn, env, interval, rounds)
        else:
            _tail(path, conn, env, interval, rounds)
    finally:
        conn.close()


def _changes(conn: Any, interval: float, rounds: int | None) -> Any:
    """Yields each time the file changed (and once at first)."""
    seen = None
    count = 0
    while rounds is None or count < rounds:
        (version,) = conn.execute("PRAGMA data_version").fetchone()
        if version != seen:
            seen = version
            yield
        count += 1
        time.sleep(interval)


def _live(path: Path, conn: Any, env: Environment, interval: float,
          rounds: int | None) -> None:
    from rich.live import Live
    from rich.text import Text

    from referee.render.console import make_console

    console = make_console(env.stdout, terminal=True, color=env.color)
    with Live(console=console, auto_refresh=False, screen=False,
              vertical_overflow="visible") as live:
        for _ in _changes(conn, interval, rounds):
            text, _entries = frame(path, conn, console.width, env.color)
            live.update(Text.from_ansi(text), refresh=True)


def _tail(path: Path, conn: Any, env: Environment, interval: float,
          rounds: int | None) -> None:
    from referee.game.view import entry_lines

    shown: dict[int, bool] = {}  # entry id: whether it was shown undone
    first = True
    for _ in _changes(conn, interval, rounds):
        text, entries = frame(path, conn, None, False)
        if first:
            env.stdout.write(text)
            shown = {e.id: not e.standing for e in entries}
            first = False
        else:
            for entry in entries:
                if shown.get(entry.id) != (not entry.standing):
                    env.stdout.write("\n".join(entry_lines(entry)) + "\n")
                    shown[entry.id] = not entry.standing
        env.stdout.flush()
