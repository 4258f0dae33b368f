"""The JSON cache of parsed TOML data: used while the file is unchanged, never stale, kept
in the user's cache folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.tomlcache import _cache_path, load_toml


@pytest.fixture
def toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "data" / "t.toml"
    path.parent.mkdir()
    path.write_text('a = 1\n[b]\nc = "x"\n', encoding="utf-8")
    return path


def test_cache_is_written_used_and_refreshed(toml: Path, tmp_path: Path) -> None:
    assert load_toml(toml) == {"a": 1, "b": {"c": "x"}}
    cache = _cache_path(toml)
    assert cache.is_file() and cache.is_relative_to(tmp_path / "cache" / "referee")
    assert not (toml.parent / "__pycache__").exists()  # nothing beside the data
    assert load_toml(toml) == {"a": 1, "b": {"c": "x"}}
    toml.write_text("a = 22\n", encoding="utf-8")
    os.utime(toml, ns=(1, 1))  # a different stamp even within the clock's resolution
    assert load_toml(toml) == {"a": 22}


def test_a_corrupt_cache_is_ignored(toml: Path) -> None:
    load_toml(toml)
    _cache_path(toml).write_text("{not json", encoding="utf-8")
    assert load_toml(toml) == {"a": 1, "b": {"c": "x"}}


def test_an_unwritable_cache_folder_still_loads(toml: Path, tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the folder would be", encoding="utf-8")
    assert load_toml(toml) == {"a": 1, "b": {"c": "x"}}
