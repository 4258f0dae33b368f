"""The eight attacks of issue 24 on a game's dice, each stopped: one test per attack, named
after it. Each was first run against the referee before the issue and failed there (the
attack worked); the protocol that stops them is described in docs/dice.md.

The player who holds the game file (the laptop) is the attacker of these tests: they can read
and rewrite the file, type any name, undo, go back, interrupt and edit a record. The opponent
types a word for each attack's dice and notes the check code the terminal shows.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.game import (
    CHAINED_COLUMNS,
    EPIC_PROGRAM,
    documented_head,
    invoke,
    log_json,
    new_game,
    script,
)

DECLARATION = str(ROOT / "transcripts/scripts/epic-grey-company.toml")
CODE = re.compile(r"Check code after #\d+: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})")


@pytest.fixture
def trusted(tmp_path: Path, game_seed: str) -> Path:
    """A game made by ``game new`` (Grey holds the file, Red types the words), no attack yet."""
    path = tmp_path / "night.sqlite"
    new_game(path)
    return path


def run_with_word(game: Path, path: Path, word: str, *extra: str) -> tuple[int, str, str]:
    """``referee run --game``: the opponent's word typed at the terminal it asks at."""
    return invoke(["run", str(path), "--game", str(game), *extra], answers=[word], tty=True)


def program_dice(game: Path) -> list[list[list[int]]]:
    """Each entry's program rolls, as faces, in the order rolled (the question ids left out)."""
    return [[r["dice"] for r in e["rolls"] if r["by_program"]] for e in log_json(game)["entries"]]


def at_table(game: Path, answers: list[str], *extra: str) -> tuple[int, str, str]:
    return invoke(["attack", "epic", "--declaration", DECLARATION, "--game", str(game),
                   "--odds", "none", *extra], answers=answers)


# --- 1. Foreseen ------------------------------------------------------------------------------

def test_foreseen_the_file_alone_does_not_fix_the_next_attacks_dice(trusted: Path,
                                                                     tmp_path: Path) -> None:
    """Everything in the file before an attack (the seed included) does not give its dice:
    two copies of the same file, two words, two different sets of dice. The holder's few
    lines of Python (the dice key of the file as it was) predict nothing that is rolled."""
    copy = tmp_path / "copy.sqlite"
    shutil.copy(trusted, copy)
    with sqlite3.connect(trusted) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    assert run_with_word(trusted, program, "owls")[0] == 0
    assert run_with_word(copy, program, "larks")[0] == 0
    first, second = program_dice(trusted)[0], program_dice(copy)[0]
    assert first != second  # the word, given after the file was read, decides the dice
    from referee.core.dice import KeyedDice

    foreseen = KeyedDice(meta["seed"], attack=1).stream("to-hit.heavy-cannon")
    assert [foreseen.roll_die(6) for _ in first[0]] != first[0]
    assert meta["seed"] not in json.dumps(log_json(trusted))  # and the seed stays unshown


# --- 2. Steered -------------------------------------------------------------------------------

def _spellings() -> list[tuple[str, bool]]:
    """64 ways to write "Autogun": a zero-width space at each of 8 places, a Cyrillic о or
    not, capitals or not, and a hidden name behind ``number = 1`` (shown as "weapon 1")."""
    out = []
    for at in range(8):
        for cyrillic in (False, True):
            for upper in (False, True):
                for hidden in (False, True):
                    name = "Autоgun" if cyrillic else "Autogun"
                    name = name.upper() if upper else name
                    out.append((name[:at] + "\u200b" + name[at:], hidden))
    return out


def test_steered_64_look_alike_weapon_names_give_identical_dice(trusted: Path,
                                                                 tmp_path: Path) -> None:
    spellings = _spellings()
    assert len(set(spellings)) == 64
    seen = set()
    for i, (name, hidden) in enumerate(spellings):
        game = tmp_path / f"g{i}.sqlite"
        shutil.copy(trusted, game)
        weapon = f'name = "{name}"\nnumber = 1\n' if hidden else f'name = "{name}"\n'
        text = EPIC_PROGRAM.replace('name = "Autogun"\n', weapon)
        code, _, err = run_with_word(game, script(tmp_path, f"s{i}.toml", text), "owls")
        assert code == 0, err
        seen.add(json.dumps(program_dice(game)))
    assert len(seen) == 1, seen


# --- 3. Re-rolled by undo ---------------------------------------------------------------------

def test_rerolled_by_undo_a_redo_with_a_changed_hidden_key_rolls_the_same_dice(
        trusted: Path, tmp_path: Path) -> None:
    assert run_with_word(trusted, script(tmp_path, "a.toml", EPIC_PROGRAM), "owls")[0] == 0
    assert invoke(["game", "undo", str(trusted)])[0] == 0
    changed = EPIC_PROGRAM.replace('name = "Autogun"\n', 'name = "Autogun two"\nnumber = 1\n')
    # the redo asks no word: it keeps the undone entry's number and word
    code, _, err = invoke(["run", str(script(tmp_path, "b.toml", changed)), "--game",
                           str(trusted)], answers=[], tty=True)
    assert code == 0, err
    undone, redone = program_dice(trusted)
    assert undone == redone
    entries = log_json(trusted)["entries"]
    assert [e["number"] for e in entries] == [1, 1]
    assert entries[1]["redoes"]["changed"][0] == "declaration"  # shown to the opponent
    code, out, _ = invoke(["game", "log", str(trusted)])
    assert code == 0 and "changed: declaration" in out


# --- 4. Overwritten at the prompt -------------------------------------------------------------

def test_overwritten_at_the_prompt_typed_dice_over_a_program_roll_are_refused(
        trusted: Path) -> None:
    # the program rolls the heavy cannon; back from the autogun; sixes typed over the roll
    code, out, err = at_table(trusted, ["Grey", "Double", "Yes", "AT 4+", "", "owls", "<", "6 6 6",
                                        "no", "", "", ""])
    assert code == 0, err
    shown = re.search(r"Heavy cannon: 3 dice, 6\+ hits  (\d \d \d) \(rolled\)", out)
    assert shown is not None, out
    assert f"the program rolled this: {shown.group(1)}" in out
    cannon = log_json(trusted)["entries"][0]["rolls"][0]
    assert cannon["by_program"] and cannon["dice_text"] == shown.group(1)
    code, report, _ = invoke(["game", "report", str(trusted)])
    assert code == 0 and "6 6 6" not in report


# --- 5. Rewritten in the file -----------------------------------------------------------------

def _rechain(path: Path) -> None:
    """What a holder who knows the format does after an edit: every head recomputed."""
    with sqlite3.connect(path) as conn:
        columns = ", ".join(CHAINED_COLUMNS)
        rows = conn.execute(f"SELECT {columns} FROM log ORDER BY id").fetchall()
        previous = ""
        for values in rows:
            row = dict(zip(CHAINED_COLUMNS, values, strict=True))
            previous = documented_head(previous, row)
            conn.execute("UPDATE log SET digest = ? WHERE id = ?", (previous, row["id"]))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (previous,))


def _played_with_codes(game: Path, tmp_path: Path) -> list[str]:
    """#1, #2 undone, #2 redone, #3: the check codes the opponent noted from the terminal."""
    codes = []
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    for word in ("owls", "larks"):
        code, out, err = run_with_word(game, program, word)
        assert code == 0, err
        codes += CODE.findall(out)
    code, out, err = invoke(["game", "undo", str(game)])
    assert code == 0, err
    codes += re.findall(r"Check code after the undo: (\S+)", out)
    for word in ("", "wrens"):  # the redo asks no word
        code, out, err = run_with_word(game, program, word)
        assert code == 0, err
        codes += CODE.findall(out)
    assert len(codes) == 5
    return codes


def _delete_undone(conn: sqlite3.Connection) -> None:
    undone = conn.execute("SELECT id FROM log WHERE undone IS NOT NULL").fetchone()[0]
    conn.execute("DELETE FROM log WHERE kind = 'undo' OR id = ?", (undone,))


def _delete_last(conn: sqlite3.Connection) -> None:
    last = conn.execute("SELECT id, number, before, ruleset FROM log WHERE kind = 'entry' "
                        "ORDER BY id DESC LIMIT 1").fetchone()
    conn.execute("DELETE FROM log WHERE number = ? AND id >= (SELECT min(id) FROM log WHERE "
                 "number = ? AND kind = 'pending' AND id > (SELECT max(id) FROM log WHERE "
                 "kind = 'undo'))", (last[1], last[1]))
    for key, value in json.loads(last[2]).items():
        conn.execute("UPDATE state SET value = ? WHERE ruleset = ? AND key = ?",
                     (json.dumps(value), last[3], key))


def _typed_sixes(conn: sqlite3.Connection) -> None:
    row = conn.execute("SELECT id, rolls FROM log WHERE kind = 'entry' ORDER BY id "
                       "LIMIT 1").fetchone()
    rolls = json.loads(row[1])
    rolls[0].update(source="typed", dice=[6] * len(rolls[0]["dice"]))
    conn.execute("UPDATE log SET rolls = ? WHERE id = ?", (json.dumps(rolls), row[0]))


def _reordered(conn: sqlite3.Connection) -> None:
    """The first two entries' places swapped (their ids kept in order)."""
    columns = [c for c in CHAINED_COLUMNS if c != "id"]
    first, second = (r[0] for r in conn.execute(
        "SELECT id FROM log WHERE kind = 'entry' ORDER BY id LIMIT 2").fetchall())
    rows = {i: conn.execute(f"SELECT {', '.join(columns)} FROM log WHERE id = ?",
                            (i,)).fetchone() for i in (first, second)}
    assign = ", ".join(f"{c} = ?" for c in columns)
    for target, source in ((first, second), (second, first)):
        conn.execute(f"UPDATE log SET {assign} WHERE id = ?", (*rows[source], target))


def _answer_changed(conn: sqlite3.Connection) -> None:
    """An answer of the first entry changed (no cover), its dice left as they were."""
    row = conn.execute("SELECT id, replay FROM log WHERE kind = 'entry' ORDER BY id "
                       "LIMIT 1").fetchone()
    replay = json.loads(row[1])
    replay["answers"] = [[q, False if q == "cover" else a] for q, a in replay["answers"]]
    conn.execute("UPDATE log SET replay = ? WHERE id = ?", (json.dumps(replay), row[0]))


def _program_die_changed(conn: sqlite3.Connection) -> None:
    """A program roll's first die made a six, still shown as the program's."""
    row = conn.execute("SELECT id, rolls FROM log WHERE kind = 'entry' ORDER BY id "
                       "LIMIT 1").fetchone()
    rolls = json.loads(row[1])
    rolls[0]["dice"][0] = 6
    conn.execute("UPDATE log SET rolls = ? WHERE id = ?", (json.dumps(rolls), row[0]))


@pytest.mark.parametrize("edit", [_delete_undone, _delete_last, _typed_sixes, _reordered,
                                  _answer_changed, _program_die_changed],
                         ids=["undone-entry-deleted", "last-attack-deleted",
                              "program-roll-turned-typed-sixes", "entries-reordered",
                              "answer-changed", "program-die-changed"])
@pytest.mark.parametrize("revealed", [False, True], ids=["before-reveal", "after-reveal"])
def test_rewritten_in_the_file_a_rechained_edit_fails_the_opponents_check_code(
        trusted: Path, tmp_path: Path, edit: Any, revealed: bool) -> None:
    codes = _played_with_codes(trusted, tmp_path)
    if revealed:
        reveal = invoke(["game", "reveal", str(trusted)])
        codes += re.findall(r"Check code after the reveal: (\S+)", reveal[1])
    args = ["game", "verify", str(trusted)] + [a for c in codes for a in ("--check", c)]
    code, out, err = invoke(args)
    assert code == 0, err  # as played, every code the opponent noted matches
    assert all(f"Check code {c}: the log up to" in out for c in codes)
    with sqlite3.connect(trusted) as conn:
        edit(conn)
    _rechain(trusted)
    code, _, err = invoke(args)
    assert code == 5 and err.count("\n") == 1, err
    assert "matches no event" in err or "does not hold together" in err


def test_sealed_before_the_word_the_code_shown_proves_the_attack_as_declared(
        trusted: Path) -> None:
    """Just before the opponent gives its part of the dice, the terminal shows the check code
    of the attack as declared so far (its pending entry): noted, it proves later that
    nothing declared or answered before the word was changed after it."""
    code, out, err = invoke(["attack", "cc", "--declaration",
                             str(ROOT / "transcripts/scripts/declarations/cc-moving-tie.toml"),
                             "--game", str(trusted), "--odds", "none"],
                            answers=["Red", "", "cold tea", "", ""])
    assert code == 0, err
    sealed = re.findall(r"Attack #1 sealed as declared so far, before the opponent's part "
                        r"of the dice: (\S+)", out)
    assert len(sealed) == 1 and sealed[0] not in CODE.findall(out)
    assert out.index(sealed[0]) < out.index("Check code after #1")
    code, out, err = invoke(["game", "verify", str(trusted), "--check", sealed[0]])
    assert code == 0, err
    assert f"Check code {sealed[0]}: the log up to pending entry #1" in out
    with sqlite3.connect(trusted) as conn:  # the pending declaration changed afterwards
        conn.execute("UPDATE log SET body = replace(body, 'Moving US', 'Still US') "
                     "WHERE kind = 'pending'")
    _rechain(trusted)
    code, _, err = invoke(["game", "verify", str(trusted), "--check", sealed[0]])
    assert code == 5 and "matches no event" in err, err


# --- 6. Forged through a record ---------------------------------------------------------------

def test_forged_through_a_record_edited_program_dice_are_refused_on_resume(
        trusted: Path, tmp_path: Path) -> None:
    record = tmp_path / "attack.toml"
    code, out, _ = at_table(trusted, ["Grey", "Double", "Yes", "AT 4+", "", "owls", "^C"],
                            "--record", str(record))
    assert code == 130
    text = record.read_text(encoding="utf-8")
    rolled = re.search(r'"to-hit\.heavy-cannon" = \{ ?rolled = \[([0-9, ]+)\] ?\}', text)
    assert rolled is not None, text
    record.write_text(text.replace(rolled.group(1), "6, 6, 6"), encoding="utf-8")
    code, out, err = invoke(["attack", "epic", "--resume", str(record)],
                            answers=["Grey", "", ""])
    assert code == 3 and err.count("\n") == 1, (out, err)
    assert "the program rolled" in err
    assert all(r["dice"] != [6, 6, 6] for e in log_json(trusted)["entries"]
               for r in e["rolls"])


# --- 7. Spent by a failed script --------------------------------------------------------------

def test_spent_by_a_failed_script_a_script_error_writes_nothing(trusted: Path,
                                                                tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite"
    shutil.copy(trusted, fresh)
    before = trusted.read_bytes()
    broken = script(tmp_path, "broken.toml", EPIC_PROGRAM + '"to-hit.nothing" = [1, 2]\n')
    code, _, err = run_with_word(trusted, broken, "owls")
    assert code == 3 and "to-hit.nothing" in err
    assert trusted.read_bytes() == before  # no pending entry, no number taken, no word asked
    fixed = script(tmp_path, "fixed.toml", EPIC_PROGRAM)
    assert run_with_word(trusted, fixed, "owls")[0] == 0
    assert run_with_word(fresh, fixed, "owls")[0] == 0
    assert [e["number"] for e in log_json(trusted)["entries"]] == [1]
    assert program_dice(trusted) == program_dice(fresh)  # as if the failure never happened


# --- 8. Written into a broken file ------------------------------------------------------------

def _last_entry_deleted(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM log WHERE id = (SELECT max(id) FROM log)")


def _last_die_edited(conn: sqlite3.Connection) -> None:
    row = conn.execute("SELECT id, rolls FROM log WHERE kind = 'entry' ORDER BY id DESC "
                       "LIMIT 1").fetchone()
    rolls = json.loads(row[1])
    rolls[0]["dice"] = [6] * len(rolls[0]["dice"])
    conn.execute("UPDATE log SET rolls = ? WHERE id = ?", (json.dumps(rolls), row[0]))


def _head_edited(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", ("0" * 64,))


def _state_edited(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT OR REPLACE INTO state VALUES ('epic-armageddon', 'formations', ?)",
                 (json.dumps({"Red Hill Battery (invented)": {"blast_markers": 3}}),))


def _holder_dice_turned_on(conn: sqlite3.Connection) -> None:
    """The game's facts in ``meta`` say ``--holder-dice``: no word would be asked."""
    (raw,) = conn.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
    conn.execute("UPDATE meta SET value = ? WHERE key = 'game'",
                 (json.dumps({**json.loads(raw), "holder_dice": True}),))


@pytest.mark.parametrize("damage", [_last_entry_deleted, _last_die_edited, _head_edited,
                                    _state_edited, _holder_dice_turned_on],
                         ids=["last-event-deleted", "last-die-edited", "head-edited",
                              "state-edited", "holder-dice-turned-on"])
def test_written_into_a_broken_file_a_write_is_refused(trusted: Path, tmp_path: Path,
                                                       damage: Any) -> None:
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    assert run_with_word(trusted, program, "owls")[0] == 0
    with sqlite3.connect(trusted) as conn:
        damage(conn)
    assert invoke(["game", "log", str(trusted)])[0] == 5  # what the log refuses...
    before = trusted.read_bytes()
    code, _, err = run_with_word(trusted, program, "larks")
    assert code == 5 and err.count("\n") == 1, err  # ... takes no new attack
    assert trusted.read_bytes() == before


def test_written_into_a_revealed_game_whose_reveal_was_hidden_a_write_is_refused(
        trusted: Path, tmp_path: Path) -> None:
    """Once revealed, every die is known: taking the reveal out of ``meta`` (so that the
    game would take attacks again) is refused by the write, not only by a later read."""
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    assert run_with_word(trusted, program, "owls")[0] == 0
    assert invoke(["game", "reveal", str(trusted)])[0] == 0
    with sqlite3.connect(trusted) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'revealed'")
    before = trusted.read_bytes()
    code, _, err = run_with_word(trusted, program, "larks")
    assert code == 5 and "meta.revealed" in err and err.count("\n") == 1, err
    assert trusted.read_bytes() == before
