"""How a game file that does not hold together is reported: where (an entry by its number and
row, another event by its kind) and why, in one line (``game.error.tampered``). Kept apart from
the file's code so that the checks on both sides of it (``referee.game``, ``game.history``)
name places the same way without importing each other."""

from __future__ import annotations

from typing import Any

from referee.core.errors import GameFileError
from referee.core.text import Msg


def tampered(file: str, where: str, reason: Msg) -> GameFileError:
    return GameFileError(Msg.of("game.error.tampered", file=file, where=where, reason=reason))


def where_entry(entry: Any) -> str:
    from referee.catalog import render

    return render(Msg.of("game.where.entry", number=entry.number or "?", id=entry.id))


def where_event(event: Any) -> str:
    """Where an event is, as a message names it (an entry: its number and row)."""
    from referee.catalog import render

    if event.entry is not None:
        return where_entry(event.entry)
    kind = Msg.of(f"game.kind.{event.kind}")
    if event.number is None:
        return render(Msg.of("game.where.event_plain", kind=kind, id=event.id))
    return render(Msg.of("game.where.event", kind=kind, number=event.number, id=event.id))
