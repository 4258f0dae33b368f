"""TOML data files read through a JSON cache, as Python reads modules through ``.pyc`` files.

Ruleset data and message catalogues are TOML for people to edit; parsing TOML on every start
costs more than the rest of a lookup. The parsed value is kept in the user's cache folder
(``$XDG_CACHE_HOME/referee`` or ``~/.cache/referee``; never inside the installed package),
under a name made from the file's path, with the file's size and modification time; it is
used while they match. A cache that cannot be written is simply not kept.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def _cache_path(path: Path) -> Path:
    import hashlib

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()[:32]
    return Path(base) / "referee" / f"{path.stem}-{digest}.json"


def load_toml(path: Path) -> dict[str, Any]:
    stat = path.stat()
    stamp = [stat.st_mtime_ns, stat.st_size]
    cache = _cache_path(path)
    try:
        with cache.open(encoding="utf-8") as f:
            cached = json.load(f)
        if cached.get("stamp") == stamp:
            data: dict[str, Any] = cached["data"]
            return data
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    import tomllib

    with path.open("rb") as f:
        data = tomllib.load(f)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"stamp": stamp, "data": data}, ensure_ascii=False),
                       encoding="utf-8")
        tmp.replace(cache)
    except (OSError, TypeError, ValueError):
        pass  # no cache this time: the data is right all the same
    return data
