"""The cache cannot change the rules (issue 28, case 5).

A user-cache entry with the right stamp and edited data changed the table shown and applied
(Epic's to-hit: ``8+ -> a 6, then 2+`` instead of ``5+``); an entry with the right key and
empty data (``data = {}``) made every command end in a traceback. The rules' data is now read
from its files alone; the message catalogues' entries carry a digest of their data, checked
when read, and an entry that does not match (or holds nothing) is ignored and written again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.tomlcache import _key
from tests.support import ROOT


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "referee").glob("*.json"))


def _poison(entry: Path, data: dict) -> None:
    """The entry's data replaced, its stamp kept: in the old format (a JSON object of key and
    data) and in the new one (a first line of key and digest, the data after it)."""
    raw = entry.read_bytes()
    head, _, _ = raw.partition(b"\n")
    stamp = json.loads(head)
    if "data" in stamp:  # the old format
        entry.write_text(json.dumps({**stamp, "data": data}), encoding="utf-8")
    else:
        entry.write_bytes(head + b"\n" + json.dumps(data).encode("utf-8"))


def _lookup(cache: Path, key: str = "5") -> tuple[int, str, str]:
    import subprocess
    import sys

    from tests.support.pty import child_env

    done = subprocess.run([sys.executable, "-m", "referee", "lookup", "epic", "to-hit", key],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**child_env(), "XDG_CACHE_HOME": str(cache)}, timeout=120,
                          check=False)
    return done.returncode, done.stdout, done.stderr


def test_a_poisoned_cache_entry_of_the_rules_changes_nothing(tmp_path: Path) -> None:
    """Case 5: an entry with the Epic tables' stamp and a to-hit table edited (8+: a 6, then
    2+ instead of 5+) changed the table shown and applied. The rules are read from their file,
    never from a cache."""
    import tomllib

    from referee.data import data_root

    cache = tmp_path / "cache"
    code, honest, err = _lookup(cache, "8")
    assert code == 0, err
    assert "then 5+" in honest
    source = (data_root() / "epic-armageddon" / "tables.toml").read_bytes()
    poisoned = tomllib.loads(source.decode("utf-8"))
    poisoned["to_hit"]["seven_plus"][1]["then"] = 2
    key = _key(source)  # the stamp a cache entry of these tables carries
    folder = cache / "referee"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"tables-{key[:32]}.json").write_text(json.dumps({"key": key,
                                                                "data": poisoned}),
                                                    encoding="utf-8")
    code, out, err = _lookup(cache, "8")
    assert code == 0, err
    assert out == honest and "then 2+" not in out


@pytest.mark.parametrize("data", [{"error": {"prefix": "all is well: {message}"}}, {}],
                         ids=["edited", "empty"])
def test_an_edited_or_empty_catalogue_entry_is_ignored_and_written_again(
        tmp_path: Path, data: dict) -> None:
    """Case 5: the right stamp and edited data were used as they were; ``data = {}`` ended
    every command in a traceback."""
    cache = tmp_path / "cache"
    code, honest, err = _lookup(cache)
    assert code == 0, err
    entries = _entries(cache)
    assert entries  # the catalogues are cached
    for entry in entries:
        _poison(entry, data)
    code, out, err = _lookup(cache)
    assert code == 0, err
    assert out == honest and "Traceback" not in err
    for entry in _entries(cache):  # rewritten: read back as they should be
        _, _, body = entry.read_bytes().partition(b"\n")
        assert json.loads(body) != data


def test_an_entry_whose_digest_was_recomputed_for_empty_data_is_still_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No source parses to nothing: an entry of empty data is never used, even one whose
    digest matches it."""
    from referee import tomlcache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = tmp_path / "t.toml"
    source.write_text("a = 1\n", encoding="utf-8")
    assert tomlcache.load_toml(source) == {"a": 1}
    (entry,) = _entries(tmp_path / "cache")
    key = _key(source.read_bytes())
    entry.write_bytes(json.dumps({"key": key, "digest": tomlcache._digest(b"{}")}).encode()
                      + b"\n{}")
    assert tomlcache.load_toml(source) == {"a": 1}


def test_the_rules_data_is_read_without_the_cache(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from referee import data

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    data.load.cache_clear()
    try:
        assert data.load("epic-armageddon", "tables")
    finally:
        data.load.cache_clear()
    assert not (tmp_path / "cache" / "referee").exists() or not any(
        e.name.startswith("tables-") for e in _entries(tmp_path / "cache"))
