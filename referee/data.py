"""Where the per-ruleset data files live.

In a wheel they are packaged as ``referee/_rulesets/<id>/`` (see ``pyproject.toml``); in a
source checkout or an editable install they are the repository's top-level ``rulesets/``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from referee.tomlcache import load_toml


@functools.cache
def data_root() -> Path:
    here = Path(__file__).resolve().parent
    packaged = here / "_rulesets"
    if packaged.is_dir():
        return packaged
    return here.parent / "rulesets"


@functools.cache
def load(ruleset_id: str, name: str) -> dict[str, Any]:
    """The TOML file ``rulesets/<ruleset_id>/<name>.toml`` as a dict: parsed from the file
    itself each time, never from a cache (``referee.tomlcache``: no cache can change the
    rules applied)."""
    return load_toml(data_root() / ruleset_id / f"{name}.toml", cached=False)


def ruleset_ids() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in data_root().iterdir()
                        if (p / "ruleset.toml").is_file()))
