"""The JSON cache of parsed TOML data: used while the file's bytes are unchanged, never stale,
kept in the user's private cache folder, and checked like input (issue 17, item 10)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from referee.tomlcache import _key, load_toml

DATA = {"a": 1, "b": {"c": "x"}}


@pytest.fixture
def toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "data" / "t.toml"
    path.parent.mkdir()
    path.write_text('a = 1\n[b]\nc = "x"\n', encoding="utf-8")
    return path


def entry(path: Path) -> Path:
    key = _key(path.read_bytes())
    return path.parent.parent / "cache" / "referee" / f"{path.stem}-{key[:32]}.json"


def test_cache_is_written_used_and_refreshed(toml: Path, tmp_path: Path) -> None:
    assert load_toml(toml) == DATA
    cache = entry(toml)
    assert cache.is_file() and cache.is_relative_to(tmp_path / "cache" / "referee")
    assert not (toml.parent / "__pycache__").exists()  # nothing beside the data
    assert load_toml(toml) == DATA
    toml.write_text("a = 22\n", encoding="utf-8")
    assert load_toml(toml) == {"a": 22}


def test_the_cache_is_used_read_back(toml: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    load_toml(toml)
    monkeypatch.setattr(tomllib, "loads", lambda text: {"parsed": "again"})
    assert load_toml(toml) == DATA  # (so the tests below test a cache that is read)


def test_an_edit_of_the_same_size_and_time_is_seen(toml: Path) -> None:
    """``cp -p`` and ``rsync -t`` keep size and modification time: the content decides."""
    assert load_toml(toml) == DATA
    before = os.stat(toml)
    toml.write_text('a = 7\n[b]\nc = "x"\n', encoding="utf-8")
    os.utime(toml, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(toml).st_size == before.st_size
    assert load_toml(toml) == {"a": 7, "b": {"c": "x"}}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"key": "k", "data": [1]}',
                                     '{"data": {"a": 9}}', "null", "[" * 100000])
def test_an_unreadable_or_ill_typed_entry_is_a_miss(toml: Path, content: str) -> None:
    load_toml(toml)
    entry(toml).write_text(content, encoding="utf-8")
    assert load_toml(toml) == DATA


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_a_folder_at_the_entry_is_a_miss_without_blocking(toml: Path) -> None:
    cache = entry(toml)
    cache.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(cache)
    assert load_toml(toml) == DATA
    assert cache.is_file()  # replaced by a real entry
    cache.unlink()
    cache.mkdir()
    assert load_toml(toml) == DATA


def test_a_planted_symlink_is_never_written_through(toml: Path, tmp_path: Path) -> None:
    cache = entry(toml)
    cache.parent.mkdir(parents=True, mode=0o700)
    target = tmp_path / "victim.txt"
    target.write_text("keep me", encoding="utf-8")
    cache.symlink_to(target)
    assert load_toml(toml) == DATA
    assert target.read_text(encoding="utf-8") == "keep me"
    assert not cache.is_symlink()  # the entry replaced the link; the target untouched


def test_the_folder_is_private(toml: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "referee"
    folder.mkdir(parents=True, mode=0o755)
    os.chmod(folder, 0o755)  # as an older version made it
    load_toml(toml)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(entry(toml)).st_mode) == 0o600


def test_a_folder_that_is_a_symlink_is_not_used(toml: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "referee").symlink_to(elsewhere)
    assert load_toml(toml) == DATA
    assert not list(elsewhere.iterdir())


def test_an_unwritable_cache_folder_still_loads(toml: Path, tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the folder would be", encoding="utf-8")
    assert load_toml(toml) == DATA
