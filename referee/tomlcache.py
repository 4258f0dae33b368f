"""TOML data files read through a JSON cache, as Python reads modules through ``.pyc`` files.

Ruleset data and message catalogues are TOML for people to edit; parsing TOML on every start
costs more than the rest of a lookup. The parsed value is kept in the user's cache folder
(``$XDG_CACHE_HOME/referee`` or ``~/.cache/referee``; never inside the installed package),
under a name made from a hash of the file's bytes: an edited table is a new entry whatever its
size and modification time say (``cp -p`` and ``rsync -t`` keep both), so a house rule is
never silently left out.

The cache is checked like any input: an entry that cannot be read, is not a regular file, or
does not hold what was stored is a miss, never an error, and is written again. What was stored
is checked, not only its name: an entry holds the key (the hash of the source's bytes) and a
digest of the parsed data written beside it, which the data read back must match; an entry
of empty data is refused (no source parses to nothing). Entries are written in a folder of
mode 0700 that belongs to the user, through a new file created with ``O_EXCL`` and renamed
into place, so a planted symlink or FIFO is never written through or read. A cache that
cannot be written is simply not kept.

The rules' data (``referee.data``: the tables the resolvers apply) is not cached at all: it
is small, its parsing costs little of a start (``benchmarks/startup.py``), and a cache of it
would be one more place where the rules applied could differ from the files installed. The
message catalogues, which decide no rule and cost most of a start to parse, are cached.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

FORMAT = b"referee-tomlcache-3\0"  # part of every key: a new format never reads an old entry
MAX_ENTRY = 32 * 1024 * 1024  # far beyond any parsed table; a larger entry is not ours
_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _cache_dir() -> Path | None:
    """The cache folder, created with mode 0700; None when it is not the user's own
    private folder (and cannot be made so)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "referee"
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return None
        if info.st_mode & 0o077:  # a folder an older version made with the default mode
            os.chmod(folder, 0o700)
    except OSError:
        return None
    return folder


def _key(source: bytes) -> str:
    import hashlib

    return hashlib.sha256(FORMAT + source).hexdigest()


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(FORMAT + data).hexdigest()


def _read_entry(entry: Path, key: str) -> dict[str, Any] | None:
    """The data an entry holds: its first line the key and the digest of the data, the data
    (JSON) after it; None when anything does not match."""
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_NONBLOCK | _FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_ENTRY + 1)
        head, _, body = raw.partition(b"\n")
        stamp = json.loads(head)
        if (not isinstance(stamp, dict) or stamp.get("key") != key
                or stamp.get("digest") != _digest(body)):
            return None
        data = json.loads(body)
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    return data if isinstance(data, dict) and data else None


def _write_entry(folder: Path, entry: Path, key: str, data: dict[str, Any]) -> None:
    tmp = folder / f".{entry.name}.{os.urandom(8).hex()}.tmp"
    try:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        head = json.dumps({"key": key, "digest": _digest(body)}).encode("utf-8")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FLAGS, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(head + b"\n" + body)
        os.replace(tmp, entry)
    except (OSError, TypeError, ValueError, RecursionError):
        try:
            os.unlink(tmp)
        except OSError:
            pass  # no cache this time: the data is right all the same


def load_toml(path: Path, *, cached: bool = True) -> dict[str, Any]:
    """The TOML file ``path`` parsed: read back from the cache while the file is unchanged
    (``cached``; without it, parsed every time and no cache kept)."""
    with path.open("rb") as f:
        source = f.read()
    folder = _cache_dir() if cached else None
    key = _key(source)
    entry = folder / f"{path.stem}-{key[:32]}.json" if folder is not None else None
    if entry is not None:
        found = _read_entry(entry, key)
        if found is not None:
            return found
    import tomllib

    data = tomllib.loads(source.decode("utf-8"))
    if folder is not None and entry is not None:
        _write_entry(folder, entry, key, data)  # a missing or refused entry written again
    return data
