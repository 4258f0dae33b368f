"""Who is writing a pending entry, and whether it may still be playing it.

A pending entry keeps beside it (outside the chain: not a fact of the game) who wrote it: the
process, its machine, when the process started and when the entry was written
(``writer_id``). A command that opens the game file to write and finds a pending entry of
another command (``meet_pending``) leaves a live one alone, and is refused; one whose command
is gone (no such process on this machine, or the process of that id started at another time,
or written on another machine more than ``STALE_ELSEWHERE`` ago) it marks abandoned. Kept apart
from ``referee.game`` (which calls it when a file is opened) and ``game.pending`` (which writes
the pending entries), which both import it.
"""

from __future__ import annotations

import json
import os
import socket
import time
from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg

STALE_ELSEWHERE = 12 * 3600  # seconds after which a pending entry of another machine is stale
LIVE: set[tuple[str, int]] = set()  # (file, pending id) this process is playing now


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (Linux's /proc), to tell a reused process id."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def writer_id() -> str:
    """Who writes a pending entry: this process, its machine, when it started (kept beside
    the event, outside the chain)."""
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                       "start": _start_time(os.getpid()), "since": time.time()})


def alive(tx: Any, pending: Any) -> bool:
    """Whether the command that wrote ``pending`` may still be playing it."""
    try:
        writer = json.loads(pending.writer or "")
        pid, host = int(writer["pid"]), str(writer["host"])
        since = float(writer.get("since") or 0)
    except (ValueError, KeyError, TypeError):
        return False
    if host != socket.gethostname():
        return time.time() - since < STALE_ELSEWHERE
    if pid == os.getpid():
        return (str(tx.name), pending.id) in LIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: alive
    except OSError:
        return False
    started = writer.get("start")
    return started is None or _start_time(pid) in (None, started)


def meet_pending(tx: Any, pending: Any) -> None:
    """A writing command found ``pending`` open: refused while its command plays it, else
    marked abandoned (in this command's transaction)."""
    if alive(tx, pending):
        try:
            pid: Any = json.loads(pending.writer or "{}").get("pid", "?")
        except ValueError:
            pid = "?"
        raise GameFileError(Msg.of("game.error.in_play", file=tx.name, number=pending.number,
                                   pid=pid))
    tx.append_event("abandon", {"pending": pending.id, "reason": "left", "answers": None},
                    number=pending.number, ruleset=pending.ruleset, command=pending.command)
