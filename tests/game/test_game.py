"""Game files: one transaction per command, rolled back on any failure or Ctrl-C."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee.core.errors import GameFileError
from referee.game import SCHEMA_VERSION, open_game


def test_state_and_log_persist_between_commands(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with open_game(path) as tx:
        tx.update_state("epic-armageddon", {"blast_markers": {"Grey": 2}})
        tx.append_log("epic-armageddon", "attack", {"outcome": 1}, seed=5)
    with open_game(path) as tx:
        assert tx.state("epic-armageddon") == {"blast_markers": {"Grey": 2}}
        assert tx.state("other") == {}
        tx.update_state("epic-armageddon", {"blast_markers": {"Grey": 3}})
        tx.append_log("epic-armageddon", "run", {"outcome": 2})
    with open_game(path) as tx:
        assert tx.state("epic-armageddon")["blast_markers"] == {"Grey": 3}
        assert [(e.command, e.seed, e.result) for e in tx.log()] == \
            [("attack", 5, {"outcome": 1}), ("run", None, {"outcome": 2})]


@pytest.mark.parametrize("interruption", [KeyboardInterrupt, RuntimeError])
def test_a_failed_command_leaves_the_file_as_it_was(tmp_path: Path,
                                                    interruption: type) -> None:
    path = tmp_path / "g.sqlite"
    with open_game(path) as tx:
        tx.update_state("epic-armageddon", {"n": 1})
        tx.append_log("epic-armageddon", "attack", {})
    with pytest.raises(interruption), open_game(path) as tx:
        tx.update_state("epic-armageddon", {"n": 2})
        tx.append_log("epic-armageddon", "attack", {})
        raise interruption
    with open_game(path) as tx:
        assert tx.state("epic-armageddon") == {"n": 1}
        assert len(tx.log()) == 1


def test_a_file_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with open_game(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(GameFileError), open_game(path):
        pass
    assert SCHEMA_VERSION == 3


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    path.write_bytes(b"not a database at all, just some bytes" * 20)
    with pytest.raises(GameFileError), open_game(path):
        pass


def test_a_foreign_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE log (x)")
    with pytest.raises(GameFileError), open_game(path):
        pass
    with sqlite3.connect(path) as conn:
        names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
    assert names == {"log"}


def test_sqlite_failures_inside_a_command_become_game_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with open_game(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE log")
        conn.execute("CREATE TABLE log (x)")
    with pytest.raises(GameFileError), open_game(path) as tx:
        tx.append_log("epic-armageddon", "attack", {})


def test_every_write_bumps_the_revision(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with open_game(path) as tx:
        assert tx.revision == 0
        tx.update_state("x", {"a": 1})
        tx.append_log("x", "attack", {})
        assert tx.revision == 2
