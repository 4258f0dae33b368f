"""Script files: a ruleset, a declaration, answers by question id, and optionally a seed.

Scripts are TOML, read by ``referee.files`` like every input file. Everything wrong with one
is reported as a ``ScriptError`` naming the file, the line or field path, and what was
expected. ``dump_script`` writes the same format back (``--record``), restricted to the value
types scripts use.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.dice import SEED_LIMIT
from referee.core.errors import ScriptError
from referee.core.text import Msg
from referee.files import read_toml, where

SCRIPT_KEYS = {"ruleset": "text", "title": "text", "seed": "int", "use_defaults": "bool",
               "roll_missing_dice": "bool", "game": "text", "attack": "int",
               "options": "table", "declaration": "table", "answers": "table"}


@dataclass(frozen=True)
class Script:
    path: str
    ruleset: str
    title: str | None = None
    seed: int | None = None
    use_defaults: bool = False
    roll_missing_dice: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    declaration: Mapping[str, Any] | None = None
    answers: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""
    # a record of an attack in a game made by ``game new``: the game file (from the record's
    # folder) and the attack's number there, which key its dice (the seed stays secret)
    game: str | None = None
    attack: int | None = None


def load_script(path: str | Path) -> Script:
    path = Path(path)
    text, raw = read_toml(path)
    name = str(path)
    for key, value in raw.items():
        kind = SCRIPT_KEYS.get(key)
        if kind is None:
            raise ScriptError(name, where(text, [key]),
                              Msg.of("script.expected.key", given=key,
                                     known=", ".join(SCRIPT_KEYS)))
        ok = {"text": isinstance(value, str), "bool": isinstance(value, bool),
              "int": isinstance(value, int) and not isinstance(value, bool),
              "table": isinstance(value, dict)}[kind]
        if not ok:
            raise ScriptError(name, where(text, [key]), Msg.of(f"script.expected.{kind}",
                                                               key=key))
    if "seed" in raw and not -SEED_LIMIT < raw["seed"] < SEED_LIMIT:
        raise ScriptError(name, where(text, ["seed"]), Msg.of("script.expected.seed",
                                                              most=SEED_LIMIT - 1))
    if "ruleset" not in raw:
        raise ScriptError(name, "ruleset", Msg.of("script.expected.ruleset"))
    return Script(path=name, ruleset=raw["ruleset"], title=raw.get("title"),
                  seed=raw.get("seed"), use_defaults=raw.get("use_defaults", False),
                  roll_missing_dice=raw.get("roll_missing_dice", False),
                  options=raw.get("options", {}), declaration=raw.get("declaration"),
                  answers=raw.get("answers", {}), text=text, game=raw.get("game"),
                  attack=raw.get("attack"))


# --- writing -------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_key(k: str) -> str:
    """A TOML key: bare when it can be, else a quoted string."""
    return k if _BARE.match(k) else _string(k)


def _string(s: str) -> str:
    """A TOML basic string: backslash, quote and control characters escaped."""
    out = []
    for ch in s:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(v: Any) -> str:
    """A TOML value written inline (tables as inline tables), of the types scripts use."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to a script")


def _table(lines: list[str], name: str, table: Mapping[str, Any]) -> None:
    scalars = {k: v for k, v in table.items()
               if not (isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v))}
    arrays = {k: v for k, v in table.items() if k not in scalars}
    lines.append(f"\n[{name}]")
    lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in scalars.items()]
    for k, items in arrays.items():
        for item in items:
            lines.append(f"\n[[{name}.{toml_key(k)}]]")
            lines += [f"{toml_key(ik)} = {toml_value(iv)}" for ik, iv in item.items()]


def dump_script(script: Script, comment: str = "") -> str:
    lines = [f"# {line}" for line in comment.splitlines()]
    lines.append(f"ruleset = {_string(script.ruleset)}")
    if script.title:
        lines.append(f"title = {_string(script.title)}")
    if script.seed is not None:
        lines.append(f"seed = {script.seed}")
    if script.game is not None:
        lines.append(f"game = {_string(script.game)}")
        lines.append(f"attack = {script.attack}")
    if script.use_defaults:
        lines.append("use_defaults = true")
    if script.roll_missing_dice:
        lines.append("roll_missing_dice = true")
    if script.options:
        _table(lines, "options", script.options)
    if script.declaration is not None:
        _table(lines, "declaration", script.declaration)
    _table(lines, "answers", script.answers)
    return "\n".join(lines) + "\n"
