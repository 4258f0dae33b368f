"""Files: one reader for every file a player gives the referee (scripts, declarations,
rosters, damage tables, deck files, data files), where in such a file a field is, and the
pydantic check of its content; and one writer for every file the referee writes for the player
(a ``--record``, a report), which never replaces what the command reads nor a game file.

Everything wrong with a file is a ``ScriptError`` naming it, never a traceback or a hang:
only a regular file is read (a FIFO would block, a device never end), at most ``MAX_BYTES``
of it, as UTF-8 (a byte-order mark is skipped); TOML nested deeper than ``MAX_DEPTH`` is
refused. This module sits below the rulesets: it imports the core, the standard library and
(inside ``validate``) pydantic, never a ruleset, a front end or a command.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.core.errors import ScriptError
from referee.core.text import Msg

GAME_APPLICATION_ID = 0x52454652  # "REFR": the SQLite application id of a referee game file
MAX_BYTES = 4 * 1024 * 1024  # far beyond any real script, roster or deck file
MAX_DEPTH = 32  # tables and arrays within one another; a real file needs fewer than 8


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_BYTES``. The file is opened without
    blocking (a FIFO opened for reading waits for a writer) and checked after opening, so
    what is read is what was checked."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ScriptError(name, "", Msg.of("script.expected.exists")) from None
    except IsADirectoryError:
        raise ScriptError(name, "", Msg.of("script.expected.not_folder")) from None
    except OSError as err:
        raise ScriptError(name, "", Msg.of("script.expected.readable",
                                            reason=err.strerror or "")) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ScriptError(name, "", Msg.of("script.expected.not_folder"))
        if not stat.S_ISREG(info.st_mode):
            raise ScriptError(name, "", Msg.of("script.expected.regular"))
        too_big = ScriptError(name, "", Msg.of("script.expected.size",
                                               most=MAX_BYTES // (1024 * 1024)))
        if info.st_size > MAX_BYTES:
            raise too_big
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:  # the size may change while reading: count what comes
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise too_big
        return b"".join(chunks)
    except OSError as err:
        raise ScriptError(name, "", Msg.of("script.expected.readable",
                                            reason=err.strerror or "")) from None
    finally:
        os.close(fd)


def read_text(path: str | Path) -> str:
    """The text of an input file: UTF-8, with or without a byte-order mark."""
    try:
        return read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScriptError(str(path), "", Msg.of("script.expected.utf8")) from None


def read_toml(path: str | Path) -> tuple[str, dict[str, Any]]:
    """An input file's text and its TOML content."""
    text = read_text(path)
    return text, parse_toml(str(path), text)


def parse_toml(name: str, text: str) -> dict[str, Any]:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        at: Msg | str = (Msg.of("where.line_column", line=int(m.group(1)),
                                column=int(m.group(2))) if m else "")
        reason = re.sub(r"\s*\(at line.*\)$", "", str(err))
        raise ScriptError(name, at, Msg.of("script.expected.toml", reason=reason)) from None
    except RecursionError:
        raise ScriptError(name, "", Msg.of("script.expected.depth", most=MAX_DEPTH)) from None
    except ValueError as err:  # e.g. an integer too long to read
        raise ScriptError(name, "", Msg.of("script.expected.toml", reason=str(err))) from None
    deepest = _deepest(data)
    if deepest is not None:
        raise ScriptError(name, field_path(tuple(deepest[1:]), str(deepest[0])),
                          Msg.of("script.expected.depth", most=MAX_DEPTH))
    return data


def _deepest(data: Any) -> list[str | int] | None:
    """The path of the first value nested deeper than ``MAX_DEPTH`` (None: none is).
    Iterative, so that the check itself cannot overflow the stack."""
    todo: list[tuple[Any, list[str | int]]] = [(data, [])]
    while todo:
        value, path = todo.pop()
        if len(path) > MAX_DEPTH:
            return path
        if isinstance(value, dict):
            todo.extend((v, [*path, str(k)]) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend((v, [*path, i]) for i, v in enumerate(value))
    return None


# --- where a field is ----------------------------------------------------------------------

def field_path(loc: tuple[Any, ...], prefix: str = "declaration") -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def where(text: str, path: Sequence[str | int]) -> Msg | str:
    """``line N (field.path)`` when the field can be found in the text, else the path alone."""
    path = list(path)
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


# --- the content checked against a model --------------------------------------------------

def validation_message(error: Mapping[str, Any]) -> Msg:
    """A pydantic error as a catalogue message: custom errors carry their message id as their
    type; pydantic's own types map to ``validation.<type>``; pydantic's English is the last
    resort (for types the catalogue does not know yet, or whose context lacks a parameter
    the message needs)."""
    import string

    from referee.catalog import catalogue

    kind = error["type"]
    params = {str(k): v if isinstance(v, int) and not isinstance(v, bool) else str(v)
              for k, v in (error.get("ctx") or {}).items()}  # numbers stay numbers: plurals
    messages = catalogue()
    for msg_id in (kind, f"validation.{kind}"):
        template = messages.get(msg_id)
        if template is None:
            continue
        needed = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        if needed <= set(params):
            return Msg.of(msg_id, **params)
    return Msg.of("script.expected.declaration", reason=str(error["msg"]))


def validate(model: type[Any], raw: Any, file: str, text: str = "",
             prefix: Sequence[str | int] = (), context: Mapping[str, Any] | None = None) -> Any:
    """``raw`` as ``model``, strictly: a number is a number (not ``"3"``, ``3.0`` or
    ``true``), a flag is true or false. The first mistake becomes a ``ScriptError`` naming
    the field path under ``prefix`` (and its line when found in ``text``). ``context``
    reaches the model's validators (``base``: the folder relative paths start from)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(raw, strict=True, context=dict(context or {}))
    except ValidationError as err:
        first = err.errors()[0]
        loc: list[str | int] = [*prefix, *(p if isinstance(p, int) else str(p)
                                           for p in first["loc"])]
        raise ScriptError(file, where(text, loc) if loc else "",
                          validation_message(first)) from None


# --- the files the referee writes ---------------------------------------------------------

_SQLITE_HEADER = b"SQLite format 3\0"


def is_game_file(path: str | Path) -> bool:
    """Whether ``path`` is a referee game file: an SQLite database whose header carries the
    game files' application id (read from the header, without opening the database)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        header = os.read(fd, 72)
    except OSError:
        return False
    finally:
        os.close(fd)
    return (header.startswith(_SQLITE_HEADER) and len(header) >= 72
            and int.from_bytes(header[68:72], "big") == GAME_APPLICATION_ID)


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file: the same file when both exist (a hard link, a
    symbolic link, another spelling of the path), else the same absolute path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def output_target(path: str | Path, *, game: str | Path | None = None,
                  reads: Sequence[str | Path | None] = (), force: bool = False,
                  unwritable: str = "error.output_unwritable") -> Path:
    """The file to write for an output the player named (``--record``, ``--html``): the file
    itself, or the file a symbolic link names. Refused (a ``UsageError``) before anything is
    asked or written when it is

    * the game file the command plays in (``game``): never, whatever ``force`` says;
    * a file the command reads (``reads``: its script, declaration, roster, the game file a
      report is made from...), or an existing game file: unless ``force``;
    * not a file that can be written: a folder, a pipe or a device, a missing folder, a
      folder or file the player may not write to, a symbolic link loop (``unwritable``:
      the message id that says so).
    """
    from referee.core.errors import UsageError

    path = Path(path)
    name = str(path)
    if game is not None and same_file(path, game):
        raise UsageError(Msg.of("error.output_is_game", file=name))
    if not force:
        for read in reads:
            if read is not None and same_file(path, read):
                raise UsageError(Msg.of("error.output_is_input", file=name))
        if is_game_file(path):
            raise UsageError(Msg.of("error.output_game_file", file=name))
    refused = UsageError(Msg.of(unwritable, file=name))
    try:
        target = path.resolve() if path.is_symlink() else path
        info = target.stat() if target.exists() else None
    except (OSError, RuntimeError):  # a symbolic link loop, a path too long
        raise refused from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise refused
    parent = target.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise refused
    if info is not None and not os.access(target, os.W_OK):
        raise refused
    return target


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) as the whole content of ``path``: into a new file in the
    same folder, flushed to the disk, then renamed over ``path``. A kill at any moment leaves
    the old file or the new one, never half of one; a write that fails (a full disk) leaves
    the old file as it was and no new file behind. The file keeps its permissions (a new one
    takes the umask's); an ``OSError`` is the caller's to report."""
    import tempfile

    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~umask()
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def umask() -> int:
    """The process's file mode creation mask (read by setting it, then back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
