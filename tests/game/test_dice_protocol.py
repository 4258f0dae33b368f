"""The protocol of a game's dice (issue 24) beyond the eight reproductions: the scheme and the
check codes as docs/dice.md states them, the pending entry before the word, abandoned attacks
and burned numbers, a live attack left alone, resuming, overrides, ``--holder-dice``, the
opponent's phone designed in (per-roll contributions), scripts checked before the first write,
and game files of format 2 read, migrated and verified."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.core.dice import DiceSpec, EntryDice, roll
from referee.game import read_game
from tests.support import ROOT
from tests.support.game import (
    CC_PROGRAM,
    CHAINED_COLUMNS,
    EPIC_PROGRAM,
    FIXED_SEED,
    documented_head,
    invoke,
    log_json,
    new_game,
    run_in,
    script,
)

pytestmark = pytest.mark.usefixtures("game_seed")

DECLARATION = str(ROOT / "transcripts/scripts/epic-grey-company.toml")
WORD_Q = "Red: type a word for this attack's dice"


def at_table(game: Path, answers: list[str], *extra: str) -> tuple[int, str, str]:
    return invoke(["attack", "epic", "--declaration", DECLARATION, "--game", str(game),
                   "--odds", "none", *extra], answers=answers)


def events(game: Path) -> list[tuple[str, int | None]]:
    with read_game(game) as tx:
        return [(e.kind, e.number) for e in tx.events()]


# --- the scheme, as docs/dice.md states it ------------------------------------------------

def documented_faces(seed: str, entry: int, roll_number: int, contribution: str,
                     count: int, sides: int = 6) -> list[int]:
    """docs/dice.md: HMAC-SHA256(seed, referee-dice/2|i|j|contribution|block), bytes below
    256 - 256 mod sides, each 1 + b mod sides."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        message = f"referee-dice/2|{entry}|{roll_number}|{contribution}|{block}".encode()
        for byte in hmac.new(seed.encode(), message, hashlib.sha256).digest():
            if byte < 256 - 256 % sides and len(faces) < count:
                faces.append(1 + byte % sides)
        block += 1
    return faces


def test_scheme_2_is_the_documented_formula_and_names_no_question() -> None:
    dice = EntryDice(FIXED_SEED, 7, contribute=lambda: lambda j: "owls")
    first = roll(DiceSpec(count=40), dice.stream("to-hit.autogun")).faces
    second = roll(DiceSpec(count=5), dice.stream("anything.at.all")).faces
    assert list(first or ()) == documented_faces(FIXED_SEED, 7, 0, "owls", 40)
    assert list(second or ()) == documented_faces(FIXED_SEED, 7, 1, "owls", 5)
    again = EntryDice(FIXED_SEED, 7, contribute=lambda: lambda j: "owls")
    assert roll(DiceSpec(count=40), again.stream("a.different.id")).faces == first


def test_scheme_2_faces_are_uniform() -> None:
    counts: Counter[int] = Counter()
    for entry in range(1, 101):
        dice = EntryDice(FIXED_SEED, entry, contribute=lambda: lambda j: f"w{j}")
        for _ in range(10):
            counts.update(roll(DiceSpec(count=60), dice.stream("q")).faces or ())
    expected = sum(counts.values()) / 6
    statistic = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert statistic < 20.515  # chi-squared, 5 degrees of freedom, p = 0.001


def test_the_contribution_is_asked_once_just_before_the_first_program_die() -> None:
    asked: list[int] = []

    def contribute() -> Any:
        asked.append(1)
        return lambda j: "w"

    dice = EntryDice(FIXED_SEED, 1, contribute=contribute)
    assert asked == []
    dice.stream("a")
    dice.stream("b")
    assert asked == [1]


# --- check codes -------------------------------------------------------------------------

def documented_code(head: str) -> str:
    """docs/dice.md: 12 characters of the head in Crockford's base32, grouped by four."""
    rfc = base64.b32encode(bytes.fromhex(head))[:12].decode()
    text = rfc.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
                                       "0123456789ABCDEFGHJKMNPQRSTVWXYZ"))
    return "-".join(text[i:i + 4] for i in (0, 4, 8))


def test_codes_and_heads_follow_the_documented_chain(game: Path, tmp_path: Path) -> None:
    shown = run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))["game"]["check_code"]
    with sqlite3.connect(game) as conn:
        columns = ", ".join(CHAINED_COLUMNS)
        rows = conn.execute(f"SELECT {columns}, digest FROM log ORDER BY id")
        previous = ""
        for values in rows:
            row = dict(zip(CHAINED_COLUMNS, values[:-1], strict=True))
            previous = documented_head(previous, row)
            assert previous == values[-1]
        (head,) = conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
    assert head == previous and documented_code(head) == shown
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){2}", shown)


def test_a_code_is_read_as_typed() -> None:
    from referee.game.chain import read_code

    assert read_code("k7qf 2mxa 9rtd") == "K7QF-2MXA-9RTD"
    assert read_code("K7QF2MXA9RTD") == "K7QF-2MXA-9RTD"
    assert read_code("K7QF-2MXA-9RTO") == "K7QF-2MXA-9RT0"  # O read as 0
    assert read_code("K7QF-2MXA-9RTU") is None  # U is not a Crockford digit
    assert read_code("K7QF-2MXA") is None


def test_verify_check_refuses_a_code_that_is_not_one(game: Path) -> None:
    code, _, err = invoke(["game", "verify", str(game), "--check", "12-34"])
    assert code == 2 and "12 letters and digits" in err and err.count("\n") == 1
    code, _, err = invoke(["game", "verify", str(game), "--check", "0000-0000-0000"])
    assert code == 5 and "matches no event" in err and err.count("\n") == 1


# --- P1: the declaration is in the file before the word -------------------------------------

def test_the_pending_entry_is_written_before_the_word_is_asked(game: Path,
                                                               tmp_path: Path) -> None:
    from referee import api

    seen: list[Any] = []

    class Opponent:
        def contribution(self, number: int, side: str | None) -> Any:
            with read_game(game) as tx:
                pending = tx.open_pending()
                seen.append((side, pending.number if pending else None,
                             (pending.body or {}).get("answers") if pending else None))
            from referee.game.contribution import Word

            return Word("owls")

    plan, port = api.plan_script(script(tmp_path, "a.toml", EPIC_PROGRAM), game=game)
    api.play(plan, port, game=game, command="run", contribution=Opponent())
    assert seen == [("Red", 1, [["action", "double"], ["cover", True],
                                ["fire-type.heavy-cannon", "at"]])]
    assert [k for k, _ in events(game)] == ["game", "pending", "contribution", "entry"]


def test_an_attack_of_typed_dice_takes_no_word_and_writes_no_pending(game: Path,
                                                                    tmp_path: Path) -> None:
    code, out, err = at_table(game, ["Grey", "sustained-fire", "no", "at", "6 5 1", "1 2 3 4 5 6"])
    assert code == 0, err
    assert WORD_Q not in out and "Check code after #1" in out
    # the sides said at the table (Grey Company's, then Red Hill Battery's after it)
    assert [k for k, _ in events(game)] == ["game", "side", "side", "entry"]


def test_a_word_is_visible_text_of_at_most_40_characters(game: Path, tmp_path: Path) -> None:
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    for bad in ("", "   ", "x" * 41, "ow\u200bls", "o\x1bwls"):
        code, _, err = invoke(["run", str(program), "--game", str(game), "--word", bad])
        assert code == 2 and "--word" in err and err.count("\n") == 1, (bad, err)
    assert events(game) == [("game", None)]
    from referee.core.errors import AnswerError
    from referee.game.contribution import word_question

    question = word_question("Red")
    assert question.accept("  owls   at dusk ") == "owls at dusk"
    with pytest.raises(AnswerError):
        question.accept("ow\u200bls")


# --- scripts: checked before the first write, the word's flag -------------------------------

def test_a_run_without_word_or_terminal_names_the_flag_and_writes_nothing(
        game: Path, tmp_path: Path) -> None:
    before = game.read_bytes()
    code, _, err = invoke(["run", str(script(tmp_path, "a.toml", EPIC_PROGRAM)), "--game",
                           str(game)])
    assert code == 2 and "--word" in err and err.count("\n") == 1
    assert game.read_bytes() == before
    typed = EPIC_PROGRAM.replace("roll_missing_dice = true", "") + (
        '"to-hit.heavy-cannon" = [6, 5, 1]\n"to-hit.autogun" = [1, 2, 3, 4, 5, 5]\n')
    code, _, err = invoke(["run", str(script(tmp_path, "t.toml", typed)), "--game",
                           str(game)])
    assert code == 0, err  # all dice typed: no word needed


def test_a_word_given_with_the_command_is_shown_where_the_opponent_sees_it(
        game: Path, tmp_path: Path) -> None:
    """The holder types ``--word``: the terminal shows the word the dice came from (and the
    log keeps it), for the opponent to see it is the word given."""
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    code, out, err = invoke(["run", str(program), "--game", str(game), "--word", "owls"])
    assert code == 0, err
    assert 'The word given with --word: "owls" (Red\'s, for this entry\'s dice)' in out
    assert log_json(game)["entries"][0]["word"] == "owls"
    code, out, err = invoke(["run", str(program), "--game", str(game), "--word", "larks",
                             "--json"])
    assert code == 0 and json.loads(out)["game"]["number"] == 2, err  # JSON only


def test_a_missing_answer_is_found_before_the_first_write(game: Path, tmp_path: Path) -> None:
    before = game.read_bytes()
    broken = EPIC_PROGRAM.replace('cover = true\n', '')
    code, _, err = invoke(["run", str(script(tmp_path, "b.toml", broken)), "--game",
                           str(game), "--word", "owls"])
    assert code == 3 and "cover" in err
    assert game.read_bytes() == before


# --- P3: abandoned attacks, burned numbers, a live attack left alone ------------------------

def test_an_attack_interrupted_after_its_word_is_abandoned_and_its_number_burned(
        game: Path) -> None:
    # the side first, then the heavy cannon's program roll takes the word; ^C at the autogun
    code, _, _ = at_table(game, ["Grey", "sustained-fire", "no", "at", "", "owls", "^C"])
    assert code == 130
    # the side is kept as soon as it is said (issue 27), before the pending entry
    assert [k for k, _ in events(game)] == ["game", "side", "pending", "contribution",
                                           "abandon"]
    # the abandoned attack kept nothing but the side: it is not asked again
    code, out, err = at_table(game, ["sustained-fire", "no", "at", "6 5 1", "", "larks"])
    assert code == 0, err
    assert "Game entry 2" in out  # number 1 is never taken again
    entries = log_json(game)["entries"]
    assert [(e["number"], e["word"]) for e in entries] == [(2, "larks")]
    code, text, _ = invoke(["game", "log", str(game)])
    assert "#1" in text and "abandoned (interrupted after its pending entry" in text
    # undone: the next is #2 again (its word), never #1
    invoke(["game", "undo", str(game)])
    code, out, err = at_table(game, ["sustained-fire", "no", "at", "6 5 1", ""])  # side kept
    assert code == 0 and "Game entry 2" in out and WORD_Q not in out, err


def test_after_the_reveal_the_log_shows_the_dice_an_abandoned_attack_would_have_had(
        game: Path) -> None:
    at_table(game, ["Grey", "sustained-fire", "no", "at", "", "owls", "^C"])
    code, text, _ = invoke(["game", "log", str(game)])
    assert "would have rolled" not in text
    invoke(["game", "reveal", str(game)])
    code, text, _ = invoke(["game", "log", str(game)])
    would = re.search(r"would have rolled for to-hit\.heavy-cannon: ([1-6 ]+) \(rolled\)",
                      text)
    assert code == 0 and would is not None, text
    expected = documented_faces(FIXED_SEED, 1, 0, "owls", 3)
    assert would.group(1).split() == [str(f) for f in expected]
    code, report, _ = invoke(["game", "report", str(game)])
    assert "## Abandoned attacks" in report and would.group(0) in report
    code, out, _ = invoke(["game", "verify", str(game)])
    assert code == 0 and "1 attack abandoned" in out


def test_a_redo_abandoned_does_not_burn_its_number(game: Path, tmp_path: Path) -> None:
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    invoke(["game", "undo", str(game)])
    # the redo, its word kept
    code, _, _ = at_table(game, ["Grey", "double", "yes", "at", "", "^C"])
    assert code == 130
    again = run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM), word="another")
    assert again["game"]["number"] == 1
    dice = [[r["dice"] for r in e["rolls"]] for e in log_json(game)["entries"]]
    assert dice[0] == dice[1] and log_json(game)["entries"][1]["word"] == "owls"


def _pending_left_by(game: Path, writer: dict[str, Any]) -> None:
    """An attack whose command ended without a word: its pending entry, by ``writer``."""
    from referee.game import open_game

    with open_game(game) as tx:
        tx.append_event("pending", {"options": {}, "declaration": None, "answers": []},
                        number=tx.next_number(), ruleset="epic-armageddon", command="attack",
                        writer=json.dumps(writer))


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_pending_entry_left_by_a_killed_command_is_marked_abandoned_by_the_next(
        game: Path, tmp_path: Path) -> None:
    import socket

    _pending_left_by(game, {"pid": _dead_pid(), "host": socket.gethostname(), "start": None,
                            "since": 0})
    code, text, _ = invoke(["game", "log", str(game)])  # reading: shown, not touched
    assert code == 0 and "#1" in text and "pending" in text
    data = run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    assert data["game"]["number"] == 2
    assert [k for k, _ in events(game)] == ["game", "pending", "abandon", "pending",
                                            "contribution", "entry"]
    code, text, _ = invoke(["game", "log", str(game)])
    assert "abandoned (its command ended without writing it" in text


def test_a_live_attack_is_not_disturbed(game: Path, tmp_path: Path) -> None:
    import os
    import socket

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _pending_left_by(game, {"pid": sleeper.pid, "host": socket.gethostname(),
                                "start": None, "since": 0})
        before = game.read_bytes()
        for args in (["run", str(script(tmp_path, "a.toml", EPIC_PROGRAM)), "--game",
                      str(game), "--word", "w"], ["game", "reveal", str(game)],
                     ["waw-markers", "--game", str(game), "--clear"]):
            code, _, err = invoke(args)
            assert code == 5 and "being played by another command" in err, (args, err)
            assert err.count("\n") == 1 and f"process {sleeper.pid}" in err
        assert game.read_bytes() == before
        assert invoke(["game", "log", str(game)])[0] == 0  # reading is fine
    finally:
        sleeper.kill()
        sleeper.wait()
    assert os.getpid() != sleeper.pid
    assert run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))["game"]["number"] == 2


# --- resuming in a game ------------------------------------------------------------------------

def test_an_interrupted_attack_resumes_with_its_number_and_word(game: Path,
                                                                tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite"
    shutil.copy(game, fresh)
    record = tmp_path / "attack.toml"
    code, _, _ = at_table(game, ["Grey", "double", "yes", "at", "", "owls", "^C"], "--record",
                          str(record))
    assert code == 130
    code, out, err = invoke(["attack", "epic", "--resume", str(record), "--no-odds"],
                            answers=["", ""])  # the side was kept when said (issue 27)
    assert code == 0, err
    assert WORD_Q not in out and "Check code after #1" in out
    code, _, err = at_table(fresh, ["Grey", "double", "yes", "at", "", "owls", "", ""])
    assert code == 0, err
    dice = [[r["dice"] for r in e["rolls"]] for e in log_json(game)["entries"]]
    assert dice == [[r["dice"] for r in e["rolls"]] for e in log_json(fresh)["entries"]]
    assert [e["number"] for e in log_json(game)["entries"]] == [1]
    assert invoke(["game", "verify", str(game)])[0] == 0


def test_a_resume_after_the_game_moved_on_is_refused(game: Path, tmp_path: Path) -> None:
    record = tmp_path / "attack.toml"
    at_table(game, ["Grey", "double", "yes", "at", "", "owls", "^C"], "--record", str(record))
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM), word="larks")
    code, _, err = invoke(["attack", "epic", "--resume", str(record)], answers=["Grey", ""])
    assert code == 5 and "moved on" in err


def test_a_resume_with_other_answers_before_the_word_is_refused(game: Path,
                                                                tmp_path: Path) -> None:
    record = tmp_path / "attack.toml"
    at_table(game, ["Grey", "double", "yes", "at", "", "owls", "^C"], "--record", str(record))
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace('action = "double"', 'action = "sustained-fire"'),
                      encoding="utf-8")
    code, _, err = invoke(["attack", "epic", "--resume", str(record)], answers=["Grey", ""])
    assert code == 3 and "kept for attack #1" in err and err.count("\n") == 1


# --- going back over a program roll, overrides ----------------------------------------------

def test_typed_dice_over_a_program_roll_with_an_override_are_shown_everywhere(
        game: Path) -> None:
    # typed, the heavy cannon's dice are no program roll: the autogun takes roll 0
    code, out, err = at_table(game, ["Grey", "double", "yes", "at", "", "owls", "<", "6 6 6", "yes",
                                     "", ""])
    assert code == 0, err
    entry = log_json(game)["entries"][0]
    override = entry["overrides"][0]
    assert override["kind"] == "typed" and override["typed"] == [6, 6, 6]
    assert entry["rolls"][0]["dice"] == [6, 6, 6] and not entry["rolls"][0]["by_program"]
    assert override["program"] == documented_faces(FIXED_SEED, 1, 0, "owls", 3)
    code, text, _ = invoke(["game", "log", str(game)])
    assert "Override agreed by both players: to-hit.heavy-cannon" in text
    code, report, _ = invoke(["game", "report", str(game)])
    assert "Override agreed by both players" in report
    assert "| Grey | 0 |" in report  # the luck leaves the entry's rolls out
    code, out, _ = invoke(["game", "verify", str(game)])
    assert code == 0 and "1 override of the program's rolls agreed" in out


def test_going_back_past_a_program_roll_is_refused_unless_overridden(game: Path) -> None:
    # at the autogun, back to the heavy cannon's roll, and back again: refused
    code, out, err = at_table(game, ["Grey", "double", "yes", "at", "", "owls", "<", "<", "no", "",
                                     "", ""])
    assert code == 0, err
    assert "the answers before it are fixed" in out
    assert log_json(game)["entries"][0]["overrides"] == []
    # with an override the earlier answer is asked again; the roll is drawn from the same
    # dice (it is roll 0 of the entry whatever it rolls for)
    code, out, err = at_table(game, ["sustained-fire", "no", "at", "", "larks", "<", "<", "yes",
                                     "ap", "", ""])
    assert code == 0, err
    entry = log_json(game)["entries"][1]
    assert entry["overrides"][0]["kind"] == "back"
    assert entry["rolls"][0]["dice"] == documented_faces(FIXED_SEED, 2, 0, "larks", 3)


# --- --holder-dice ------------------------------------------------------------------------------

def test_holder_dice_take_no_word_and_every_reader_says_so(tmp_path: Path) -> None:
    game = tmp_path / "holder.sqlite"
    new_game(game, "--holder-dice")
    code, out, err = at_table(game, ["Grey", "double", "yes", "at", "", "", ""])
    assert code == 0, err
    assert WORD_Q not in out and "can foresee these dice" in " ".join(out.split())
    entry = log_json(game)["entries"][0]
    assert entry["rolls"][0]["dice"] == documented_faces(FIXED_SEED, 1, 0, "", 3)
    assert "Holder's dice: Grey could foresee them" in invoke(["game", "log", str(game)])[1]
    assert "rolled alone (--holder-dice)" in invoke(["game", "report", str(game)])[1]
    assert "The holder rolled alone" in invoke(["game", "verify", str(game)])[1]
    invoke(["game", "reveal", str(game)])
    assert invoke(["game", "verify", str(game)])[0] == 0


def test_the_holder_is_a_side_of_the_game(tmp_path: Path) -> None:
    code, _, err = invoke(["game", "new", str(tmp_path / "g.sqlite"), "--side", "Grey",
                           "--side", "Red", "--holder", "Blue"])
    assert code == 2 and "Grey or Red" in err
    data = new_game(tmp_path / "h.sqlite", "--holder", "Red")
    assert data["game"]["holder"] == "Red"
    game = tmp_path / "h.sqlite"
    code, out, err = at_table(game, ["Grey", "double", "yes", "at", "", "owls", "", ""])
    assert code == 0, err
    assert "Grey: type a word for this attack's dice" in out  # Red holds: Grey types


def test_opponent_seed_is_refused_with_the_reason(tmp_path: Path) -> None:
    code, _, err = invoke(["game", "new", str(tmp_path / "g.sqlite"), "--side", "A",
                           "--side", "B", "--opponent-seed", "owls"])
    assert code == 2 and "no longer taken" in err and err.count("\n") == 1
    assert not (tmp_path / "g.sqlite").exists()


# --- the opponent's phone, designed in: a contribution for each roll ------------------------

def test_per_roll_contributions_are_kept_before_each_die_and_verified(
        game: Path, tmp_path: Path) -> None:
    from referee import api
    from referee.game.contribution import PerRoll

    sent: list[int] = []

    class Phone:
        def contribution(self, number: int, side: str | None) -> Any:
            def fetch(j: int) -> str:
                sent.append(j)
                with read_game(game) as tx:  # every earlier roll is in the file already
                    assert [b["roll"] for b in tx.contributions(number)] == list(range(j))
                return hashlib.sha256(f"phone {j}".encode()).hexdigest()[:32]

            return PerRoll(fetch=fetch)

    plan, port = api.plan_script(script(tmp_path, "a.toml", EPIC_PROGRAM), game=game)
    api.play(plan, port, game=game, command="run", contribution=Phone())
    rolls = log_json(game)["entries"][0]["rolls"]
    assert sent == list(range(len(rolls)))
    for j, logged in enumerate(rolls):
        value = hashlib.sha256(f"phone {j}".encode()).hexdigest()[:32]
        assert logged["dice"] == documented_faces(FIXED_SEED, 1, j, value, len(logged["dice"]))
    invoke(["game", "reveal", str(game)])
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and f"the {len(rolls)} program rolls match" in out, err


# --- files of format 2 --------------------------------------------------------------------------

def _format_2_game(path: Path) -> None:
    """A game made by ``game new`` of format 2 (its dice of scheme 1, the opponent's text
    "owls at dusk"), with one Epic entry and one Combat Commander entry undone."""
    from referee.core.dice import KeyedDice
    from referee.game import LogEntry, entry_digest

    key = f"{FIXED_SEED}|owls at dusk"
    faces = [KeyedDice(key, attack=1).stream(q) for q in ("to-hit.heavy-cannon",)]
    heavy = [faces[0].roll_die(6) for _ in range(3)]
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1380271698")
        conn.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE state (ruleset TEXT NOT NULL, key TEXT NOT NULL,
                                value TEXT NOT NULL, PRIMARY KEY (ruleset, key));
            CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
                              ruleset TEXT NOT NULL, command TEXT NOT NULL, seed INTEGER,
                              entry TEXT NOT NULL, number INTEGER, undone TEXT, before TEXT,
                              after TEXT, rolls TEXT, replay TEXT, about TEXT, digest TEXT);
            CREATE TABLE sides (name TEXT PRIMARY KEY, side TEXT NOT NULL);
        """)
        game = {"name": "old", "sides": ["Grey", "Red"],
                "commitment": hashlib.sha256(FIXED_SEED.encode()).hexdigest(),
                "opponent": "owls at dusk", "created": "2024-01-01T10:00:00+00:00"}
        replay = {"kind": "attack", "options": {}, "declaration": {
            "firing": "F", "target": "T", "weapons": [{"name": "Heavy cannon", "shots": 3,
                                                       "ap": 5, "at": 4}]},
            "answers": [["action", "double"], ["cover", True],
                        ["fire-type.heavy-cannon", "at"],
                        ["to-hit.heavy-cannon", {"rolled": heavy}]], "files": {}}
        from referee import api

        result = api.attack("epic", {"action": "double", "cover": True,
                                     "fire-type.heavy-cannon": "at",
                                     "to-hit.heavy-cannon": list(heavy)},
                            declaration=replay["declaration"]).to_json()
        rolls = [{"question": "to-hit.heavy-cannon", "roll": 0, "source": "rolled",
                  "dice": heavy, "successes": sum(1 for f in heavy if f == 6),
                  "label": None}]
        entry = LogEntry(1, "2024-01-01T10:01:00+00:00", "epic-armageddon", "attack", None,
                         json.loads(json.dumps(result)), 1, None, {}, {}, rolls, replay, {})
        digest = entry_digest("", entry)
        conn.execute("INSERT INTO log VALUES (1, ?, 'epic-armageddon', 'attack', NULL, ?, 1, "
                     "NULL, '{}', '{}', ?, ?, '{}', ?)",
                     (entry.at, json.dumps(entry.result), json.dumps(rolls), json.dumps(replay),
                      digest))
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema", "2"), ("revision", "3"), ("game", json.dumps(game)),
            ("seed", FIXED_SEED), ("head", digest)])


def test_a_game_of_format_2_is_read_migrated_and_verified_with_both_schemes(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _format_2_game(path)
    code, out, err = invoke(["game", "verify", str(path)])
    assert code == 0, err  # read as it is
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
    data = run_in(path, script(tmp_path, "a.toml", EPIC_PROGRAM), word="owls")
    assert data["game"]["number"] == 2
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("3",)
    entries = log_json(path)["entries"]
    assert [(e["number"], e["scheme"], e["check_code"] is None) for e in entries] == [
        (1, 1, True), (2, 2, False)]
    assert [k for k, _ in events(path)] == ["entry", "migrated", "pending", "contribution",
                                            "entry"]
    invoke(["game", "reveal", str(path)])
    code, out, err = invoke(["game", "verify", str(path), "--check",
                             data["game"]["check_code"]])
    assert code == 0, err
    assert "program rolls match" in out


# --- the seed stays out of every output until the reveal -----------------------------------

def test_the_seed_is_in_no_output_before_the_reveal(game: Path, tmp_path: Path) -> None:
    outputs = []
    program = script(tmp_path, "a.toml", EPIC_PROGRAM)
    for args in (["run", str(program), "--game", str(game), "--word", "owls"],
                 ["run", str(program), "--game", str(game), "--word", "owls", "--json"],
                 ["game", "log", str(game)], ["game", "log", str(game), "--json"],
                 ["game", "report", str(game)], ["game", "report", str(game), "--json"],
                 ["game", "verify", str(game), "--json"], ["game", "undo", str(game)]):
        code, out, err = invoke(args)
        assert code == 0, (args, err)
        outputs.append(out + err)
    assert all(FIXED_SEED not in text for text in outputs)
    cc = run_in(game, script(tmp_path, "cc.toml", CC_PROGRAM))
    assert FIXED_SEED not in json.dumps(cc)


def test_answers_the_game_s_dice_left_unused_are_a_warning_once_the_entry_is_written(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check before the first write rolls stand-in dice; when the game's dice then take
    another way (here: no six to roll again), an answer left over is a warning, not a
    failure after the write."""
    import referee.play.attack

    monkeypatch.setattr(referee.play.attack, "check_script",
                        lambda *_args: True)  # a stand-in with a six
    text = EPIC_PROGRAM + '"to-hit.autogun.then" = [4]\n'
    code, out, err = invoke(["run", str(script(tmp_path, "a.toml", text)), "--game",
                             str(game), "--word", "pine", "--no-odds"])
    assert code == 0, err
    assert "warning: " in out + err and "to-hit.autogun.then" in out + err
    assert [e["number"] for e in log_json(game)["entries"]] == [1]


def test_each_impulse_of_a_phase_in_a_game_takes_its_own_word_and_code(game: Path) -> None:
    args = ["phase", "lnlt", "--game", str(game), "--roster",
            str(ROOT / "transcripts/rosters/lnlt-crossroads.toml"), "--impulses", "1",
            "--no-odds"]
    fire = ["Activate", "C4: Lt. Ash / Able squad", "C5 via Lt. Ash: Baker squad",
            "Fire from C4", "Lt. Ash: directs the fire (LM 1), Able squad: IFP 2, light MG of "
            "Able squad: MG FP 2", "D4: Pawn half-squad", "0", "1", "", "owls", "^C"]
    code, out, _ = invoke(args, answers=fire)
    assert code == 130 and WORD_Q in out
    assert [k for k, _ in events(game)] == ["game", "pending", "contribution", "abandon"]
    code, out, err = invoke(args, answers=["Pass"])  # the same impulse, a number further on
    assert code == 0, err
    assert WORD_Q not in out and "Check code after #2" in out  # no die, no word
    assert [(k, n) for k, n in events(game)][-1] == ("entry", 2)


PHASE_ARGS = ["phase", "lnlt", "--roster", str(ROOT / "transcripts/rosters/lnlt-crossroads.toml"),
              "--impulses", "1", "--no-odds"]
FIRE = ["Activate", "C4: Lt. Ash / Able squad", "C5 via Lt. Ash: Baker squad", "Fire from C4",
        "Lt. Ash: directs the fire (LM 1), Able squad: IFP 2, light MG of Able squad: MG FP 2",
        "D4: Pawn half-squad", "0", "1"]  # then the terrain modifier and the attack die


def test_an_impulse_s_program_roll_once_shown_is_fixed_unless_overridden(game: Path) -> None:
    """``<`` over the attack die brings the same die back; typed dice there are refused
    unless both players override, which the log and ``verify`` show."""
    args = [*PHASE_ARGS, "--game", str(game)]
    code, out, err = invoke(args, answers=[*FIRE, "", "owls", "<", "6", "no", "6",
                                                   "yes", "", "", "", "", "done"])
    assert code == 0, err
    assert out.count("the program rolled this: 5") == 2
    entry = log_json(game)["entries"][0]
    attack = entry["rolls"][0]
    assert attack["dice"] == [6] and not attack["by_program"]
    assert entry["overrides"] == [{"kind": "typed", "question": "i1.fire.C4.attack", "roll": 0,
                                   "program": [5], "typed": [6]}]
    assert documented_faces(FIXED_SEED, 1, 0, "owls", 1) == [5]
    # the defence die takes roll 0, the program rolls being counted without the typed one
    assert entry["rolls"][1]["dice"] == documented_faces(FIXED_SEED, 1, 0, "owls", 1)
    invoke(["game", "reveal", str(game)])
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "1 override of the program's rolls agreed" in out, err


def test_an_undone_impulse_redone_rolls_the_same_dice_and_its_codes_verify(game: Path) -> None:
    args = [*PHASE_ARGS, "--game", str(game)]
    code, out, err = invoke([*args, "--json"], answers=[*FIRE, "", "owls", "", "", "", "",
                                                                "done"])
    assert code == 0, err
    first = json.loads(out)["check_codes"]
    logged = log_json(game)["entries"][0]
    assert first == [logged["check_code"]]
    assert [r["dice"] for r in logged["rolls"]] == [
        documented_faces(FIXED_SEED, 1, j, "owls", 1) for j in range(4)]
    assert invoke(["game", "undo", str(game)])[0] == 0
    # redone with another terrain modifier: no word asked, the same dice for the same rolls
    code, out, err = invoke(args, answers=[*FIRE[:-1], "2", "", "", "", "", "", "done"])
    assert code == 0, err
    assert WORD_Q not in out and "Check code after #1" in out
    redo = log_json(game)["entries"][1]
    assert redo["number"] == 1 and redo["word"] == "owls"
    assert [r["dice"] for r in redo["rolls"]] == [r["dice"] for r in logged["rolls"]]
    assert redo["redoes"]["changed"] == ["i1.fire.C4.tm"]
    invoke(["game", "reveal", str(game)])
    code, out, err = invoke(["game", "verify", str(game), "--check", first[0], "--check",
                             redo["check_code"]])
    assert code == 0 and "the 8 program rolls match" in out, err


def test_docs_dice_checks_dice_and_codes_by_hand(game: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """docs/dice.md's Python block gives the dice and every check code; its openssl line's
    bytes are the HMAC the scheme says."""
    page = (ROOT / "docs/dice.md").read_text(encoding="utf-8")
    section = page[page.index("## Checking a game by hand"):]
    start = section.index("```python\n") + len("```python\n")
    code_block = section[start:section.index("\n```", start)]
    namespace: dict[str, Any] = {}
    exec(compile(code_block, "docs/dice.md", "exec"), namespace)
    assert capsys.readouterr().out.strip() == "[1, 5, 5]"
    openssl = re.search(r"printf '(referee-dice/2\|[^']*)' \| openssl dgst -sha256 -hmac\s+"
                        r"([0-9a-f]{32})` gives `([0-9a-f]{8})\.\.\.`", section)
    assert openssl is not None
    message, seed, shown = openssl.groups()
    digest = hmac.new(seed.encode(), message.encode(), hashlib.sha256).hexdigest()
    assert digest.startswith(shown)
    assert documented_faces(seed, 1, 0, "owls at dusk", 3) == [1, 5, 5]
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    invoke(["game", "undo", str(game)])
    by_hand = {i: code for i, _kind, _n, code in namespace["codes"](str(game))}
    data = log_json(game)
    shown = {e["id"]: e["check_code"] for e in data["entries"]}
    shown.update({e["id"]: e["check_code"] for e in data["events"]})
    assert by_hand == shown


def test_game_follow_keeps_every_check_code_the_terminal_showed(game: Path,
                                                              tmp_path: Path) -> None:
    import io

    from referee.context import Environment
    from referee.game.follow import follow

    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    assert invoke(["game", "undo", str(game)])[0] == 0
    data = log_json(game)
    codes = [e["check_code"] for e in data["entries"]]
    codes += [e["check_code"] for e in data["events"] if e["kind"] == "undo"]
    assert len(codes) == 2
    out = io.StringIO()
    follow(game, Environment(stdout=out, stdout_isatty=False), interval=0.01, rounds=1)
    assert all(code in out.getvalue() for code in codes), out.getvalue()


def test_entries_without_dice_in_a_game_hold_together(game: Path, tmp_path: Path) -> None:
    smoke = ROOT / "transcripts/scripts/waw-example-5-smoke.toml"
    run_in(game, smoke)
    code, _, err = invoke(["waw-markers", "--game", str(game), "--phase"])
    assert code == 0, err
    code, out, err = invoke(["game", "log", str(game)])
    assert code == 0 and "Check code" in out, err
    assert invoke(["game", "undo", str(game)])[0] == 0
    invoke(["game", "reveal", str(game)])
    code, _, err = invoke(["game", "verify", str(game)])
    assert code == 0, err
