"""Messages as values.

Resolvers never hold user-facing English: they return ``Msg`` values (a catalogue id and its
parameters) that an edge renders through the catalogue in ``referee.catalog``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A catalogue message id with its parameters (which may themselves be ``Msg``)."""

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, id: str, /, **params: Any) -> Msg:
        """``id`` is positional-only, so that any parameter name (``id`` too: a validation
        error's context may carry one) is a parameter."""
        return cls(id, tuple(sorted(params.items())))

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)


# Characters a terminal acts on instead of showing: C0 controls but the line break and the
# tab, DEL, the C1 controls (0x9b is CSI, 0x9d OSC on many terminals) and the bidirectional
# overrides and isolates (they reorder what is shown around them).
_UNSHOWABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` safe to write to a terminal: every control character (but the line break and
    the tab) shown as an escape (``\\x1b``, ``\\x9b``, ``\\u202e``), so that names and
    titles from files are shown as data and never change the screen, the window title or
    what else is shown. Every human output goes through it: the renderers, the prompts and
    the error messages (``--json`` keeps the exact text, escaped as JSON)."""
    return _UNSHOWABLE.sub(_escape, text)


def jsonable(value: Any) -> Any:
    """A JSON-friendly copy of a value that may contain ``Msg`` objects."""
    if isinstance(value, Msg):
        return {"msg": value.id, "params": {k: jsonable(v) for k, v in value.params}}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
