"""The chain of a game file's events and the check codes the opponent notes.

Every event of a game file of format 3 (the game made, an entry pending, the opponent's word,
an entry, an undo, an abandoned attack, the reveal) is a row of the log. Its *head* is
SHA-256 over the canonical JSON of ``[previous head, the event]``, the event being its columns
(``EVENT_COLUMNS``, the JSON ones parsed), so every head covers every event before it. The
*check code* of an event is the first 12 characters of its head in Crockford's base32 (the
head's bytes in RFC 4648 base32, each character read in the other alphabet), shown grouped:
``K7QF-2MXA-9RTD``. A code noted at the table and found in the log later proves the log up to
that event is what was shown then: anyone can recompute a chain, but not one whose heads
match codes already noted (the head is 256 bits; a code, 60).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

EVENT_COLUMNS = ("id", "kind", "number", "at", "ruleset", "command", "seed", "entry",
                 "before", "after", "rolls", "replay", "about", "body")
JSON_COLUMNS = ("entry", "before", "after", "rolls", "replay", "about", "body")
CODE_LENGTH = 12
_RFC = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_CROCKFORD = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_TO_CROCKFORD = bytes.maketrans(_RFC, _CROCKFORD)
# what a player may type for a Crockford character: lower case, I and L for 1, O for 0
_READ = str.maketrans("ILO", "110")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def event_digest(previous: str, event: Mapping[str, Any]) -> str:
    """The head after ``event`` (its columns, JSON ones as values), ``previous`` the head
    before it (``""`` for the first event)."""
    shown = {name: event.get(name) for name in EVENT_COLUMNS}
    return hashlib.sha256(canonical([previous, shown]).encode("utf-8")).hexdigest()


_KEYS = tuple((name, json.dumps(name) + ":", name in JSON_COLUMNS)
              for name in sorted(EVENT_COLUMNS))


def spliced_digest(previous: str, stored: Mapping[str, Any]) -> str:
    """``event_digest`` from the row as stored: its JSON columns are the canonical JSON of
    their values (``referee.game`` writes them so), so the event's canonical JSON is put
    together from them without reading them (a long log is checked in a fraction of the
    time). A column stored otherwise than canonically gives another head: a file the
    referee did not write so does not hold together."""
    parts = []
    for name, key, is_json in _KEYS:
        value = stored.get(name)
        if value is None:
            text = "null"
        elif is_json:
            text = str(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        else:
            text = json.dumps(value, ensure_ascii=False)
        parts.append(key + text)
    whole = "[" + json.dumps(previous, ensure_ascii=False) + ",{" + ",".join(parts) + "}]"
    return hashlib.sha256(whole.encode("utf-8")).hexdigest()


def check_code(head: str) -> str:
    """The check code of a head: 12 Crockford base32 characters, grouped by four."""
    raw = base64.b32encode(bytes.fromhex(head))[:CODE_LENGTH].translate(_TO_CROCKFORD)
    text = raw.decode("ascii")
    return "-".join(text[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def read_code(text: str) -> str | None:
    """A check code as typed (any case, with or without dashes or spaces, I/L for 1 and O for
    0) in its shown form; ``None`` when it is not one."""
    plain = "".join(c for c in text.upper() if c not in "- ").translate(_READ)
    if len(plain) != CODE_LENGTH or any(c.encode() not in _CROCKFORD for c in plain):
        return None
    return "-".join(plain[i:i + 4] for i in range(0, CODE_LENGTH, 4))
