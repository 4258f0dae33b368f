"""Notices: a line the player should read that is neither the command's output nor an error
(the game file's last command was interrupted and is rolled back; the file ``game follow``
watches was replaced). Code below the commands says one with ``say``; the command that runs
listens (``referee.cli.app._guarded`` writes each to standard error, made visible). With
nobody listening (a test, another program using the API), a notice is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from referee.core.text import Msg

_listeners: list[Callable[[Msg], None]] = []


def say(msg: Msg) -> None:
    """Tell the player ``msg`` (each listener hears it once)."""
    for listener in list(_listeners):
        listener(msg)


@contextmanager
def listening(listener: Callable[[Msg], None]) -> Iterator[None]:
    """``listener`` hears every notice said inside the block."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)
