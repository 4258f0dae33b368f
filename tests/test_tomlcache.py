"""The JSON cache of parsed TOML data: used while the file is unchanged, never stale."""

from __future__ import annotations

import os
from pathlib import Path

from referee.tomlcache import load_toml


def test_cache_is_written_used_and_refreshed(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('a = 1\n[b]\nc = "x"\n', encoding="utf-8")
    assert load_toml(path) == {"a": 1, "b": {"c": "x"}}
    cache = tmp_path / "__pycache__" / "t.toml.json"
    assert cache.is_file()
    assert load_toml(path) == {"a": 1, "b": {"c": "x"}}  # from the cache
    path.write_text("a = 22\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a different stamp even within the clock's resolution
    assert load_toml(path) == {"a": 22}


def test_a_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    load_toml(path)
    (tmp_path / "__pycache__" / "t.toml.json").write_text("{not json", encoding="utf-8")
    assert load_toml(path) == {"a": 1}


def test_an_unwritable_place_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    (tmp_path / "__pycache__").write_text("a file where the folder would be", encoding="utf-8")
    assert load_toml(path) == {"a": 1}
