"""Lists of names inside a message: a unit's label may be a ``Msg`` ("unit 2" in the
player's language), so a list of them is a message too, rendered at the edge."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.text import Msg


def join(items: Sequence[Msg | str]) -> Msg | str:
    """``a, b, c`` as one message (``waw.list.join``: "{head}, {tail}"), or ``""``."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg.of("waw.list.join", head=item, tail=out)
    return out
