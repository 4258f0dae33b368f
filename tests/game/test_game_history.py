"""Undo (the state as before, the same program dice on a redo), verify (a tampered die, seed,
state or a removed entry is caught), and game files of the older format."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from referee.game import SCHEMA_VERSION, event_head, read_game
from tests.support.game import (
    CC_PROGRAM,
    EPIC_PROGRAM,
    invoke,
    log_json,
    rolls,
    run_in,
    script,
)

pytestmark = pytest.mark.usefixtures("game_seed")


def _state(path: Path) -> dict[str, dict[str, object]]:
    with read_game(path) as tx:
        return tx.all_state()


def test_undo_puts_the_state_back_as_it_was_before_the_entry(game: Path,
                                                             tmp_path: Path) -> None:
    cc = script(tmp_path, "cc.toml", CC_PROGRAM)
    run_in(game, cc)
    before = _state(game)
    second = run_in(game, cc)
    assert _state(game) != before  # the second attack drew cards: the decks changed
    code, out, err = invoke(["game", "undo", str(game)])
    assert code == 0, err
    assert "#2" in out
    assert _state(game) == before
    log = log_json(game)
    assert [(e["number"], e["undone"] is not None) for e in log["entries"]] == \
        [(1, False), (2, True)]
    # redone with the same answers: the same cards, from the same key
    again = run_in(game, cc)
    assert rolls(again) == rolls(second)
    assert [(e["number"], e["undone"] is not None) for e in log_json(game)["entries"]] == \
        [(1, False), (2, True), (2, False)]


def test_a_redo_with_another_answer_keeps_the_program_dice(game: Path, tmp_path: Path) -> None:
    first = run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    invoke(["game", "undo", str(game)])
    other = run_in(game, script(tmp_path, "b.toml", EPIC_PROGRAM.replace(
        'action = "double"', 'action = "sustained-fire"')))
    dice = [[r["dice"] for r in e["rolls"]] for e in log_json(game)["entries"]]
    assert dice[0][:2] == dice[1][:2]  # the same faces, to-hit needing another number
    assert rolls(first)[:2] != rolls(other)[:2]  # ... read against other targets


def test_undo_to_takes_back_every_entry_after_it(game: Path, tmp_path: Path) -> None:
    cc = script(tmp_path, "cc.toml", CC_PROGRAM)
    start = _state(game)
    for _ in range(3):
        run_in(game, cc)
    code, out, err = invoke(["game", "undo", str(game), "--to", "0", "--yes", "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["kind"] == "game-undo" and doc["next_number"] == 1
    assert [e["number"] for e in doc["undone"]] == [3, 2, 1]
    assert all(e["undone"] is not None for e in doc["undone"])  # as the log has them now
    assert [e["undone"] for e in log_json(game)["entries"]] == [
        e["undone"] for e in reversed(doc["undone"])]
    assert _state(game) == start  # the decks as before the first
    code, _, err = invoke(["game", "undo", str(game)])
    assert code == 2 and "nothing to undo" in err


def test_undo_to_asks_for_a_confirmation(game: Path, tmp_path: Path) -> None:
    cc = script(tmp_path, "cc.toml", CC_PROGRAM)
    run_in(game, cc)
    run_in(game, cc)
    code, out, _ = invoke(["game", "undo", str(game), "--to", "1"], answers=["no"])
    assert code == 0 and "Nothing undone" in out
    assert all(e["undone"] is None for e in log_json(game)["entries"])
    code, out, _ = invoke(["game", "undo", str(game), "--to", "1", "--json"], answers=["no"])
    doc = json.loads(out[out.index("{"):])  # after the question, at the terminal
    assert code == 0 and (doc["undone"], doc["next_number"]) == ([], 3)
    code, _, err = invoke(["game", "undo", str(game), "--to", "1"])
    assert code == 4 and "--yes" in err  # no terminal: the flag to use instead
    code, out, _ = invoke(["game", "undo", str(game), "--to", "1"], answers=["yes"])
    assert code == 0 and "Undone: #2" in out


def _verify(path: Path) -> tuple[int, str, str]:
    return invoke(["game", "verify", str(path)])


def _played(game: Path, tmp_path: Path) -> None:
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    run_in(game, script(tmp_path, "cc.toml", CC_PROGRAM))
    invoke(["game", "undo", str(game)])
    run_in(game, script(tmp_path, "cc.toml", CC_PROGRAM))


def test_verify_before_and_after_the_reveal(game: Path, tmp_path: Path) -> None:
    _played(game, tmp_path)
    code, out, _ = _verify(game)
    assert code == 0 and "await the reveal" in out
    code, out, _ = invoke(["game", "reveal", str(game), "--json"])
    revealed = json.loads(out)
    assert code == 0 and revealed["kind"] == "game" and len(revealed["game"]["seed"]) == 32
    code, out, err = _verify(game)
    assert code == 0, err
    program = sum(1 for e in log_json(game)["entries"] for r in e["rolls"] if r["by_program"])
    assert f"the {program} program rolls match" in out
    # the game is over: no further program dice, no undo
    code, _, err = invoke(["run", str(tmp_path / "a.toml"), "--game", str(game)])
    assert code == 5 and "revealed" in err
    code, _, err = invoke(["game", "undo", str(game)])
    assert code == 5 and "revealed" in err


def _edit(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(sql, params)


def _rechain(path: Path) -> None:
    """Recompute every head, as someone who knows the format would after an edit (only the
    check codes the opponent noted can tell: tests/test_dice_trust.py)."""
    with read_game(path) as tx:
        events = tx.events()
    previous = ""
    with sqlite3.connect(path) as conn:
        for event in events:
            previous = event_head(previous, event)
            conn.execute("UPDATE log SET digest = ? WHERE id = ?", (previous, event.id))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (previous,))


def _first_program_roll(path: Path) -> tuple[int, list[dict[str, object]]]:
    with read_game(path) as tx:
        entry = tx.log()[0]
    return entry.id, entry.rolls


def test_a_changed_die_is_caught_by_the_chain_and_after_the_reveal_by_the_seed(
        game: Path, tmp_path: Path) -> None:
    _played(game, tmp_path)
    entry_id, entry_rolls = _first_program_roll(game)
    dice = entry_rolls[0]["dice"]
    assert isinstance(dice, list)
    entry_rolls[0]["dice"] = [6] * len(dice)
    _edit(game, "UPDATE log SET rolls = ? WHERE id = ?", json.dumps(entry_rolls), entry_id)
    code, _, err = _verify(game)
    assert code == 5 and "changed after it was written" in err and "entry #1" in err
    _rechain(game)  # the chain holds again: only the seed can tell
    assert _verify(game)[0] == 0
    invoke(["game", "reveal", str(game)])
    code, _, err = _verify(game)
    assert code == 5
    assert "entry #1, roll 1 (to-hit.heavy-cannon) does not match the seed" in err
    assert err.count("\n") == 1  # one line


def test_a_changed_seed_is_caught_by_the_commitment(game: Path, tmp_path: Path) -> None:
    _played(game, tmp_path)
    invoke(["game", "reveal", str(game)])
    _edit(game, "UPDATE meta SET value = ? WHERE key = 'seed'", "0" * 32)
    code, _, err = _verify(game)
    assert code == 5 and "the reveal the file names is not the one in its log" in err
    _edit(game, "UPDATE log SET body = ? WHERE kind = 'reveal'", json.dumps({"seed": "0" * 32}))
    _rechain(game)
    code, _, err = _verify(game)
    assert code == 5 and "not the commitment" in err


def test_a_changed_state_is_caught(game: Path, tmp_path: Path) -> None:
    _played(game, tmp_path)
    _edit(game, "UPDATE state SET value = '{}' WHERE ruleset = 'combat-commander' "
               "AND key = 'decks'")
    code, _, err = _verify(game)
    assert code == 5 and "state.combat-commander" in err
    for command in ("log", "report", "undo"):
        assert invoke(["game", command, str(game)])[0] == 5


def test_a_changed_state_in_the_log_is_caught_by_the_replay(game: Path,
                                                            tmp_path: Path) -> None:
    """The after-state of the last entry and the state table edited alike, the chain
    recomputed: only replaying the entry from the seed shows it."""
    _played(game, tmp_path)
    with read_game(game) as tx:
        last = tx.log()[-1]
    assert last.after is not None
    after = {**last.after, "decks": {}}
    _edit(game, "UPDATE log SET after = ? WHERE id = ?", json.dumps(after), last.id)
    _edit(game, "UPDATE state SET value = '{}' WHERE ruleset = 'combat-commander' "
               "AND key = 'decks'")
    _rechain(game)
    assert _verify(game)[0] == 0
    invoke(["game", "reveal", str(game)])
    code, _, err = _verify(game)
    assert code == 5 and "the state after entry #2" in err


@pytest.mark.parametrize("which", ["first", "last"])
def test_a_removed_entry_is_caught(game: Path, tmp_path: Path, which: str) -> None:
    _played(game, tmp_path)
    order = "ASC" if which == "first" else "DESC"
    _edit(game, f"DELETE FROM log WHERE id = (SELECT id FROM log ORDER BY id {order} LIMIT 1)")
    code, _, err = _verify(game)
    assert code == 5
    assert ("missing" in err or "changed after" in err) if which == "first" \
        else "last entry was taken out" in err


def test_an_undone_mark_taken_off_is_caught(game: Path, tmp_path: Path) -> None:
    _played(game, tmp_path)
    _edit(game, "UPDATE log SET undone = NULL")
    code, _, err = _verify(game)
    assert code == 5 and "does not hold together" in err


# --- files of the older format --------------------------------------------------------------

def _format_1(path: Path) -> None:
    """A game file as a referee of format 1 wrote it: one entry, some state."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1380271698")
        conn.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE state (ruleset TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                                PRIMARY KEY (ruleset, key));
            CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
                              ruleset TEXT NOT NULL, command TEXT NOT NULL, seed INTEGER,
                              entry TEXT NOT NULL);
            INSERT INTO meta VALUES ('schema', '1'), ('revision', '2');
            INSERT INTO state VALUES ('epic-armageddon', 'formations',
                                      '{"Red Hill Battery (invented)": {"blast_markers": 1}}');
        """)
        conn.execute("INSERT INTO log (at, ruleset, command, seed, entry) VALUES (?, ?, ?, ?, ?)",
                     ("2024-01-01T10:00:00+00:00", "epic-armageddon", "attack", 5,
                      json.dumps({"outcome": {"text": "old"}, "steps": []})))


def test_an_older_file_is_read_as_it_is_and_migrated_by_the_first_write(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _format_1(path)
    code, out, err = invoke(["game", "log", str(path)])
    assert code == 0, err
    assert "older referee" in out
    with sqlite3.connect(path) as conn:  # reading migrated nothing
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("1",)
    run_in(path, script(tmp_path, "a.toml", EPIC_PROGRAM), "--seed", "3")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == \
            (str(SCHEMA_VERSION),)
    entries = log_json(path)["entries"]
    assert [(e["number"], e["history"]) for e in entries] == [(1, False), (2, True)]
    assert _verify(path)[0] == 0
    invoke(["game", "undo", str(path)])
    assert _state(path) == {"epic-armageddon": {"formations": {
        "Red Hill Battery (invented)": {"blast_markers": 1}}}}
    code, _, err = invoke(["game", "undo", str(path)])
    assert code == 5 and "older referee" in err


def test_a_newer_file_is_refused_in_one_line(game: Path) -> None:
    _edit(game, "UPDATE meta SET value = '4' WHERE key = 'schema'")
    for args in (["game", "log", str(game)], ["game", "verify", str(game)],
                 ["run", "transcripts/scripts/epic-to-hit.toml", "--game", str(game)]):
        code, _, err = invoke(args)
        assert code == 5 and "format 4" in err and err.count("\n") == 1


def test_not_a_game_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE x (y)")
    for command in ("log", "verify", "report", "undo", "reveal"):
        code, _, err = invoke(["game", command, str(path)])
        assert code == 5 and "not a referee game file" in err
    code, _, err = invoke(["game", "log", str(tmp_path / "missing.sqlite")])
    assert code == 5 and "no game file" in err
