"""Names as the player reads them: a piece's name, or its default label (``piece 2``,
``фишка 2``) as a message; lists of them joined without rendering."""

from __future__ import annotations

from collections.abc import Iterable

from referee.core.text import Msg


def joined(labels: Iterable[Msg | str], empty: str = "") -> Msg | str:
    """``a, b, c``: plain text when every label is text, else a message of messages."""
    items = list(labels)
    if all(isinstance(i, str) for i in items):
        return ", ".join(str(i) for i in items) or empty
    out: Msg | str = items[0]
    for item in items[1:]:
        out = Msg.of("cc.label.list", a=out, b=item)
    return out
