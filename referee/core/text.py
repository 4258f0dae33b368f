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


# Characters that act instead of showing, or show as nothing: the C0 controls but the line
# break and the tab, DEL, the C1 controls (0x9b is CSI, 0x9d OSC on many terminals), the line
# and paragraph separators, every format character (Unicode category Cf: the bidirectional
# marks, embeddings, overrides and isolates that reorder what is shown around them, U+200E/F,
# U+061C, U+202A-202E, U+2066-2069; the zero-width space, joiners and word joiner U+200B-200D,
# U+2060; the byte-order mark U+FEFF; the soft hyphen U+00AD; the tag characters...), the
# Hangul fillers that are letters drawn as nothing, and lone surrogates (a file name that is
# not UTF-8), which no terminal can print. Generated from ``unicodedata`` (Unicode 14, with
# the format characters of 15 too); tests/test_escaping.py checks it against the running
# Python's tables.
UNSHOWABLE = (  # as a regular expression's class: the escapes are read by re
    r"\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891"
    r"\u08e2\u115f-\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    r"\u3164\ud800-\udfff\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd"
    r"\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    r"\U000e0020-\U000e007f")
_UNSHOWABLE = re.compile(f"[{UNSHOWABLE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` safe to show to a person: every character that would act instead of showing
    (a control, a bidirectional override) or show as nothing (a zero-width space, a soft
    hyphen) written as a visible escape (``\\x1b``, ``\\x9b``, ``\\u202e``, ``\\u200b``),
    so that names and titles from files are shown as data and never change the screen, the
    window title, the order of what is shown around them, or hide inside a word. The one
    rule of every human output: the terminal's renderers, prompts and error messages, the
    Markdown report and the HTML page all pass their text through it; ``--json`` keeps the
    exact text (escaped as JSON). The line break and the tab are kept."""
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
