"""Script files: a ruleset, a declaration, answers by question id, and optionally a seed.

Scripts are TOML (read with the standard library). Everything wrong with one is reported as a
``ScriptError`` naming the file, the line or field path, and what was expected. ``dump_script``
writes the same format back (``--record``), restricted to the value types scripts use.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.errors import ScriptError
from referee.core.text import Msg

SCRIPT_KEYS = {"ruleset": "text", "title": "text", "seed": "int", "use_defaults": "bool",
               "roll_missing_dice": "bool",
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


def read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScriptError(name, "", Msg.of("script.expected.exists")) from None
    except IsADirectoryError:
        raise ScriptError(name, "", Msg.of("script.expected.not_folder")) from None
    except UnicodeDecodeError:
        raise ScriptError(name, "", Msg.of("script.expected.utf8")) from None
    except OSError as err:
        raise ScriptError(name, "", Msg.of("script.expected.readable",
                                            reason=err.strerror or "")) from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        at: Msg | str = (Msg.of("where.line_column", line=int(m.group(1)),
                                column=int(m.group(2))) if m else "")
        reason = re.sub(r"\s*\(at line.*\)$", "", str(err))
        raise ScriptError(name, at, Msg.of("script.expected.toml", reason=reason)) from None
    except ValueError as err:  # e.g. an integer too long to read
        raise ScriptError(name, "", Msg.of("script.expected.toml", reason=str(err))) from None


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
    if "ruleset" not in raw:
        raise ScriptError(name, "ruleset", Msg.of("script.expected.ruleset"))
    return Script(path=name, ruleset=raw["ruleset"], title=raw.get("title"),
                  seed=raw.get("seed"), use_defaults=raw.get("use_defaults", False),
                  roll_missing_dice=raw.get("roll_missing_dice", False),
                  options=raw.get("options", {}), declaration=raw.get("declaration"),
                  answers=raw.get("answers", {}), text=text)


def field_path(loc: tuple[Any, ...], prefix: str = "declaration") -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def where(text: str, path: list[str | int]) -> Msg | str:
    """``line N (field.path)`` when the field can be found in the text, else the path alone."""
    dotted = field_path(tuple(path[1:]), str(path[0])) if path else "-"
    line = locate(text, path)
    return Msg.of("where.line_field", line=line, field=dotted) if line else dotted


_HEADER = re.compile(r"^\s*\[(\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def locate(text: str, path: list[str | int]) -> int | None:
    """Best-effort line number of a field in a TOML file written with ``[table]`` and
    ``[[array.of.tables]]`` headers (nested arrays included) and ``key = value`` lines:
    ``["formation", 1, "units", 0, "name"]`` is the ``name`` line under the first
    ``[[formation.units]]`` of the second ``[[formation]]``. A key missing from its table
    gives the table's header line; what cannot be found gives ``None``."""
    levels: list[tuple[str, int | None]] = []  # (dotted table name, array index)
    dotted, k = "", 0
    while k < len(path) and isinstance(path[k], str):
        name = str(path[k])
        following = path[k + 1] if k + 1 < len(path) else None
        index = following if isinstance(following, int) else None
        levels.append((f"{dotted}.{name}" if dotted else name, index))
        dotted = levels[-1][0]
        k += 2 if index is not None else 1
    if not levels:
        return None
    key: str | None = None
    if levels[-1][1] is None:  # the path ends at a key of the table above it
        key = str(path[-1])
        levels.pop()
    counters = {name: -1 for name, _ in levels}
    inside, header_line = not levels, None
    for n, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            name = m.group(2)
            if not levels and name == key:
                return n  # the path names a whole table
            if m.group(1) and name in counters:
                counters[name] += 1
                for deeper in counters:
                    if deeper.startswith(name + "."):
                        counters[deeper] = -1
            inside = bool(levels) and name == levels[-1][0] and all(
                index is None or counters[table] == index for table, index in levels)
            if inside:
                header_line = n
                if key is None:
                    return n
            continue
        if inside and key is not None and re.match(rf'^\s*("?){re.escape(key)}\1\s*=', line):
            return n
    return header_line


# --- writing -------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
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


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to a script")


def _table(lines: list[str], name: str, table: Mapping[str, Any]) -> None:
    scalars = {k: v for k, v in table.items()
               if not (isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v))}
    arrays = {k: v for k, v in table.items() if k not in scalars}
    lines.append(f"\n[{name}]")
    lines += [f"{_key(k)} = {_value(v)}" for k, v in scalars.items()]
    for k, items in arrays.items():
        for item in items:
            lines.append(f"\n[[{name}.{_key(k)}]]")
            lines += [f"{_key(ik)} = {_value(iv)}" for ik, iv in item.items()]


def dump_script(script: Script, comment: str = "") -> str:
    lines = [f"# {line}" for line in comment.splitlines()]
    lines.append(f"ruleset = {_string(script.ruleset)}")
    if script.title:
        lines.append(f"title = {_string(script.title)}")
    if script.seed is not None:
        lines.append(f"seed = {script.seed}")
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
