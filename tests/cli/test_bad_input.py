"""Issue 17: every bad input found by the reliability review ends in a one-line error and an
exit code of docs/promises.md, never a traceback, a hang or raw control characters. One
test (or one parametrised test) per item of the issue, named after it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment
from referee.exit_codes import ExitCode
from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"
LNLT_PHASE = SCRIPTS / "lnlt-short-phase.toml"
EPIC_TO_HIT = SCRIPTS / "epic-to-hit.toml"


def invoke(args: list[str], *, tty: bool = False, color: bool = False,
           port_factory: Any = None) -> tuple[int, str, str]:
    """A command in-process: its exit code, standard output and standard error. A bug
    raises (the suite sets REFEREE_DEBUG), so a passing test saw no traceback."""
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=tty,
                      stdout_isatty=tty, color=color, port_factory=port_factory)
    result = CliRunner().invoke(app, [str(a) for a in args], obj=env,
                                catch_exceptions=False)
    stdout, stderr = out.getvalue() + result.output, err.getvalue()
    assert "Traceback" not in stdout + stderr
    return result.exit_code, stdout, stderr


def one_error(stderr: str) -> str:
    """The single line of a refusal."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


def referee(*args: str, timeout: float = 20, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The command in a fresh process (for what must not hang or fill the memory)."""
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("REFEREE_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


def edited(tmp_path: Path, source: Path, old: str, new: str, name: str = "s.toml") -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --- item 1: a validation error whose context carries an 'id' -----------------------------

@pytest.mark.parametrize("old, new, says", [
    ('id = "baker"', 'id = "able"', "two units with the id able"),
    ('side = "Red"\nhex = "D4"', 'side = "Blue"\nhex = "D4"',
     "unit red-2: side must be one of Grey, Red"),
], ids=["same-id", "unknown-side"])
def test_item1_lnlt_roster_errors_with_an_id_in_their_context(tmp_path: Path, old: str,
                                                               new: str, says: str) -> None:
    script = edited(tmp_path, LNLT_PHASE, old, new)
    code, _, err = invoke(["run", script])
    assert code == ExitCode.SCRIPT and says in one_error(err)
    code, _, err = invoke(["phase", "lnlt", "--game", tmp_path / "g.db", "--roster", script])
    assert code == ExitCode.SCRIPT and says in one_error(err)


def test_item1_any_context_key_is_a_message_parameter() -> None:
    from referee.core.text import Msg
    from referee.files import validation_message

    assert Msg.of("x", id="a").kwargs == {"id": "a"}
    # a catalogue message whose parameter the context lacks falls back to pydantic's text
    msg = validation_message({"type": "greater_than_equal", "ctx": {"id": 3}, "msg": "low"})
    assert msg == Msg.of("script.expected.declaration", reason="low")


# --- item 4: control characters in names, titles, keys and ids ----------------------------

HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\x9b2J\x9d0;t\x9c\x00\u202e"
CONTROL = [chr(c) for c in (*range(0x00, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0),
                            *range(0x202a, 0x202f), *range(0x2066, 0x206a))]


def _raw_controls(text: str, *, colour: bool = False) -> list[str]:
    import re

    if colour:  # the colour codes rich writes itself are the one escape allowed
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return sorted({c for c in text if c in CONTROL})


def _toml(s: str) -> str:
    return json.dumps(s)  # a JSON string is a TOML basic string (\uXXXX escapes)


@pytest.mark.parametrize("tty, color", [(False, False), (True, False), (True, True)],
                         ids=["file", "no-color", "colour"])
def test_item4_names_from_files_reach_the_screen_as_visible_escapes(
        tmp_path: Path, tty: bool, color: bool) -> None:
    script = edited(tmp_path, EPIC_TO_HIT, '"Grey Company (invented)"',
                    _toml(f"Grey{HOSTILE}Company"))
    script = edited(tmp_path, script, '"Red Hill Battery (invented)"', _toml(f"Red{HOSTILE}"))
    script = edited(tmp_path, script, 'title = "Double action into cover"',
                    f"title = {_toml('T' + HOSTILE)}")
    code, out, _ = invoke(["run", script], tty=tty, color=color)
    assert code == ExitCode.OK
    assert not _raw_controls(out, colour=color)
    assert "Grey\\x1b]0;PWNED\\x07\\x1b[2J\\x9b2J\\x9d0;t\\x9c\\x00\\u202eCompany" in out


def test_item4_json_keeps_the_exact_names_escaped(tmp_path: Path) -> None:
    script = edited(tmp_path, EPIC_TO_HIT, '"Grey Company (invented)"',
                    _toml(f"Grey{HOSTILE}Company"))
    code, out, _ = invoke(["run", script, "--json"])
    assert code == ExitCode.OK and not _raw_controls(out)
    assert json.loads(out)["steps"][0]["text"].startswith(f"Grey{HOSTILE}Company shoots")


@pytest.mark.parametrize("args", [
    ["lookup", f"ep{HOSTILE}ic"],
    ["lookup", "epic", f"to{HOSTILE}hit"],
    ["run", "{script}", "--option", f"no{HOSTILE}such=1"],
], ids=["ruleset", "table", "option"])
def test_item4_ids_given_are_shown_visibly_in_errors(tmp_path: Path, args: list[str]) -> None:
    args = [a.replace("{script}", str(EPIC_TO_HIT)) for a in args]
    code, _, err = invoke(args)
    assert code == ExitCode.USAGE and not _raw_controls(err) and "\\x1b]0;PWNED" in err


@pytest.mark.parametrize("what", ["unknown-key", "unused-answer", "ruleset"])
def test_item4_keys_and_ids_from_a_script_are_shown_visibly(tmp_path: Path, what: str) -> None:
    old, new = {"unknown-key": ("seed = 2024", f"{_toml('k' + HOSTILE)} = 1"),
                "unused-answer": ("[answers]", f"[answers]\n{_toml('a' + HOSTILE)} = 1"),
                "ruleset": ('ruleset = "epic"', f"ruleset = {_toml('e' + HOSTILE)}")}[what]
    script = edited(tmp_path, EPIC_TO_HIT, old, new)
    code, _, err = invoke(["run", script])
    assert code == ExitCode.SCRIPT and not _raw_controls(one_error(err))
    assert "\\x1b]0;PWNED" in err


def test_item4_one_function_makes_every_control_character_visible() -> None:
    from referee.core.text import visible

    shown = visible("".join(CONTROL) + "\n\tok")
    assert not _raw_controls(shown) and shown.endswith("\n\tok")
    assert visible("\x1b\x9b\x00\u202e") == "\\x1b\\x9b\\x00\\u202e"


def test_item4_prompts_show_names_visibly() -> None:
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from referee.core.dice import KeyedDice
    from referee.core.questions import Choice, ChoiceQuestion, NumberQuestion
    from referee.core.text import Msg
    from referee.frontends.interactive import InteractivePort

    screen = io.StringIO()
    with create_pipe_input() as pipe:
        output = Vt100_Output(screen, lambda: Size(rows=24, columns=200), term="xterm")
        port = InteractivePort(KeyedDice(1), say=lambda text: None, input=pipe, output=output)
        pipe.send_text("2\r")
        assert port.ask(NumberQuestion(id="n", text=Msg.of("epic.q.markers",
                                                           formation=f"F{HOSTILE}"))) == 2
        pipe.send_text("\r")
        assert port.ask(ChoiceQuestion(id="c", text=Msg.of("epic.q.weapons"),
                                       choices=(Choice("a", f"A{HOSTILE}"),),
                                       default_value="a")) == "a"
    shown = screen.getvalue()
    assert "\\x1b]0;PWNED" in shown
    assert "\x1b]0;PWNED" not in shown and "\x9b" not in shown and "\x00" not in shown


def test_a_bug_is_one_line_and_exit_1_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last guard: what no check foresaw is reported as a bug (exit code 1)."""
    import referee.play.lookup

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise TypeError("x" * 1000 + "\x1b[2J")

    monkeypatch.delenv("REFEREE_DEBUG")
    monkeypatch.setattr(referee.play.lookup, "lookup", broken)
    code, _, err = invoke(["lookup", "epic", "to-hit", "8"])
    line = one_error(err)
    assert code == ExitCode.ERROR and "a bug in the referee (TypeError: xxx" in line
    assert len(line) < 500 and "\x1b" not in line


# --- items 7, 8, 9: one reader for every input file ---------------------------------------

WAW_DATA = SCRIPTS / "waw-he-data-file.toml"
CC_SCRIPT = SCRIPTS / "cc-example-e-g.toml"
EPIC_ROSTER = SCRIPTS / "epic-roster.toml"


def _input_file_commands(bad: Path, tmp_path: Path) -> dict[str, list[str]]:
    """Every kind of input file, each given as ``bad``."""
    return {
        "script": ["run", str(bad)],
        "declaration": ["attack", "epic", "--declaration", str(bad)],
        "odds-declaration": ["odds", "epic", "--declaration", str(bad)],
        "epic-roster": ["epic-shoot", "A", "B", "--roster", str(bad)],
        "lnlt-roster": ["phase", "lnlt", "--game", str(tmp_path / "g.db"), "--roster", str(bad)],
        "lnlt-dct": ["phase", "lnlt", "--game", str(tmp_path / "g.db"), "--roster",
                     str(LNLT_PHASE), "--dct", str(bad)],
        "cc-deck": ["run", str(CC_SCRIPT), "-o", "deck-edition=cce_2006", "-o",
                    f"deck-file={bad}"],
        "waw-data": ["run", str(WAW_DATA), "-o", f"data-file={bad}"],
    }


KINDS = list(_input_file_commands(Path("x"), Path("y")))


@pytest.mark.parametrize("kind", KINDS)
def test_item7_every_input_file_is_read_by_the_one_reader(tmp_path: Path, kind: str) -> None:
    """A UTF-16 file (Notepad's 'Unicode'), a 5,000-digit number: a script error naming
    the file, whichever option named it."""
    utf16 = tmp_path / "utf16.toml"
    utf16.write_text('ruleset = "epic"\n', encoding="utf-16")
    huge = tmp_path / "huge.toml"
    huge.write_text('ruleset = "epic"\nseed = ' + "9" * 5000 + "\n", encoding="utf-8")
    for bad, says in ((utf16, "expected UTF-8 text"), (huge, "expected valid TOML")):
        code, _, err = invoke(_input_file_commands(bad, tmp_path)[kind])
        assert code == ExitCode.SCRIPT, err
        assert f"{bad}: {says}" in one_error(err)


@pytest.mark.parametrize("kind", KINDS)
def test_item8_deeply_nested_toml_is_refused(tmp_path: Path, kind: str) -> None:
    arrays = tmp_path / "arrays.toml"
    arrays.write_text("a = " + "[" * 490 + "]" * 490 + "\n", encoding="utf-8")
    tables = tmp_path / "tables.toml"
    tables.write_text("a = " + "{ b = " * 327 + "1" + " }" * 327 + "\n", encoding="utf-8")
    for bad in (arrays, tables):
        code, _, err = invoke(_input_file_commands(bad, tmp_path)[kind])
        assert code == ExitCode.SCRIPT, err
        assert "nested at most 32 deep" in one_error(err)


def test_item8_the_depth_check_names_the_field(tmp_path: Path) -> None:
    from referee.core.errors import ScriptError
    from referee.files import MAX_DEPTH, parse_toml

    assert parse_toml("f", "a = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(ScriptError) as err:
        parse_toml("f", "a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert err.value.where == "a" + "[0]" * MAX_DEPTH


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_item9_special_files_are_refused_without_blocking(tmp_path: Path) -> None:
    """A FIFO nobody writes to, /dev/zero and /dev/urandom, for every kind of input file.
    In-process, a writer waits at the FIFO so that a regression fails instead of hanging;
    once in a fresh process, as a player would meet it."""
    import threading

    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)

    def writer() -> None:  # unblocks a reader that opened the FIFO (a regression)
        fd = os.open(fifo, os.O_WRONLY)
        os.close(fd)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        for bad in (fifo, Path("/dev/zero"), Path("/dev/urandom")):
            for kind, args in _input_file_commands(bad, tmp_path).items():
                code, _, err = invoke(args)
                assert code == ExitCode.SCRIPT, (kind, err)
                assert f"{bad}: expected a regular file" in one_error(err), kind
    finally:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # lets the writer go
        thread.join(5)
    proc = referee("run", str(fifo), timeout=30)
    assert proc.returncode == ExitCode.SCRIPT and "expected a regular file" in proc.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_item9_a_special_file_as_a_game_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    for game in (fifo, Path("/dev/zero"), tmp_path):
        proc = referee("waw-markers", "--game", str(game), timeout=30)
        assert proc.returncode == ExitCode.GAME_FILE, proc.stderr
        assert f"cannot use game file {game}" in one_error(proc.stderr)


def test_item9_the_size_read_is_capped(tmp_path: Path) -> None:
    """A 1 GiB file (sparse: no disk used) is refused before it is read, for every kind of
    input file; the cap is exact."""
    from referee.core.errors import ScriptError
    from referee.files import MAX_BYTES, read_bytes

    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(1024 ** 3)
    for kind, args in _input_file_commands(big, tmp_path).items():
        code, _, err = invoke(args)
        assert code == ExitCode.SCRIPT and "a file of at most 4 MiB" in one_error(err), kind
    edge = tmp_path / "edge.toml"
    edge.write_bytes(b"#" * MAX_BYTES)
    assert len(read_bytes(edge)) == MAX_BYTES
    edge.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(ScriptError):
        read_bytes(edge)


def test_item11_a_utf8_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    with_bom = tmp_path / "bom.toml"
    with_bom.write_bytes(b"\xef\xbb\xbf" + EPIC_TO_HIT.read_bytes())
    code, out, _ = invoke(["run", with_bom, "--no-odds"])
    assert code == ExitCode.OK and "Outcome: 1 AP hit and 1 AT hit" in out


# --- item 5: a damaged or tampered game file ----------------------------------------------

GAME_COMMANDS = {
    "epic-armageddon": [["run", str(SCRIPTS / "epic-under-fire.toml"), "--no-odds"],
                        ["odds", "epic", "--script", str(EPIC_TO_HIT)]],
    "combat-commander": [["run", str(CC_SCRIPT), "--no-odds"]],
    "lnl-tactical": [["phase", "lnlt", "--show"], ["run", str(LNLT_PHASE), "--no-odds"]],
    "world-at-war": [["waw-markers"], ["run", str(SCRIPTS / "waw-example-5-smoke.toml"),
                                       "--no-odds"]],
}
WRONG_SHAPES = {
    "epic-armageddon": [("formations", "[]"), ("formations", '{"A": {"blast_markers": "3"}}'),
                        ("formations", '{"A": {"blast_markers": -1}}'), ("blast", "1")],
    "combat-commander": [("decks", '{"cc_20th/germany": [1]}'),
                         ("decks", '{"cc_20th/germany": ["9-9"]}'), ("decks", '"all"')],
    "lnl-tactical": [("phase", '{"roster": 1}'), ("phase", "[]"),
                     ("options", '{"no-such-option": "x"}'), ("options", "3")],
    "world-at-war": [("markers", '[{"id": "a", "kind": "smoke", "hex": "1"}]'),
                     ("markers", '[{"id": 1, "kind": "fog", "hex": "1"}]'),
                     ("next_marker", '"x"'), ("phases", "1.5")],
}


def _game(tmp_path: Path) -> Path:
    from referee.game import open_game

    game = tmp_path / "game.sqlite"
    with open_game(game) as tx:  # a state is written with the entry that leaves it
        tx.update_state("epic-armageddon", {"formations": {}})
        tx.append_log("epic-armageddon", "run", {})
    return game


def _tamper(game: Path, sql: str, *args: Any) -> None:
    import sqlite3

    conn = sqlite3.connect(game)
    with conn:
        conn.execute(sql, args)
    conn.close()


def _refused_as_damaged(game: Path, ruleset: str) -> None:
    for args in GAME_COMMANDS[ruleset]:
        code, _, err = invoke([*args, "--game", str(game)])
        assert code == ExitCode.GAME_FILE, (args, err)
        assert f"game file {game} is damaged or was edited outside the referee" in \
            one_error(err)


@pytest.mark.parametrize("ruleset", list(GAME_COMMANDS))
def test_item5_state_that_is_not_json_is_refused(tmp_path: Path, ruleset: str) -> None:
    game = _game(tmp_path)
    _tamper(game, "INSERT INTO state VALUES (?, 'x', '{not json')", ruleset)
    _refused_as_damaged(game, ruleset)


@pytest.mark.parametrize("revision", ["abc", "", "-1", "١"])
def test_item5_a_revision_that_is_not_a_count_is_refused(tmp_path: Path, revision: str) -> None:
    game = _game(tmp_path)
    _tamper(game, "UPDATE meta SET value = ? WHERE key = 'revision'", revision)
    for ruleset in GAME_COMMANDS:
        _refused_as_damaged(game, ruleset)


@pytest.mark.parametrize("ruleset, key, value",
                         [(r, k, v) for r, shapes in WRONG_SHAPES.items() for k, v in shapes])
def test_item5_state_of_the_wrong_shape_is_refused(tmp_path: Path, ruleset: str, key: str,
                                                   value: str) -> None:
    game = _game(tmp_path)
    _tamper(game, "INSERT OR REPLACE INTO state VALUES (?, ?, ?)", ruleset, key, value)
    _refused_as_damaged(game, ruleset)
    with game.open("rb") as f:  # refused before anything was written
        assert b"formations" in f.read()


def test_item5_a_phase_naming_a_side_or_unit_it_does_not_have_is_refused(
        tmp_path: Path) -> None:
    game = tmp_path / "game.sqlite"
    code, _, _ = invoke(["run", LNLT_PHASE, "--no-odds", "--game", game])
    assert code == ExitCode.OK
    import sqlite3

    conn = sqlite3.connect(game)
    (raw,) = conn.execute("SELECT value FROM state WHERE key = 'phase'").fetchone()
    conn.close()
    for change in ({"current": "Blue"}, {"actions": [{"impulse": 1, "unit": "ghost",
                                                      "action": "fire"}]}):
        phase = {**json.loads(raw), **change, "ended": False}
        _tamper(game, "UPDATE state SET value = ? WHERE key = 'phase'", json.dumps(phase))
        _refused_as_damaged(game, "lnl-tactical")


def test_item5_a_log_entry_that_is_not_json_is_refused(tmp_path: Path) -> None:
    from referee.core.errors import GameFileError
    from referee.game import open_game

    game = _game(tmp_path)
    with open_game(game) as tx:
        tx.append_log("epic-armageddon", "run", {"ok": True})
    _tamper(game, "UPDATE log SET entry = '[1, 2'")
    with pytest.raises(GameFileError) as err, open_game(game) as tx:
        tx.log()
    assert err.value.msg.id == "error.game_damaged"


# --- item 6: `referee phase lnlt` asks with the game file unlocked -------------------------

LNLT_ROSTER = ROOT / "transcripts" / "rosters" / "lnlt-crossroads.toml"


class _Meanwhile:
    """A port that passes every impulse, and at its first question does ``then`` (what
    another command would do with the game file meanwhile)."""

    def __init__(self, rng: Any, then: Any) -> None:
        self.then = then
        self.done = False

    def ask(self, question: Any) -> Any:
        if not self.done:
            self.done = True
            self.then()
        return "pass"


def _phase(game: Path, then: Any) -> tuple[int, str, str]:
    return invoke(["phase", "lnlt", "--game", game, "--roster", LNLT_ROSTER, "--impulses",
                   "1", "--seed", "1"], port_factory=lambda rng: _Meanwhile(rng, then))


def test_item6_the_game_file_is_not_locked_while_a_phase_asks(tmp_path: Path) -> None:
    import sqlite3

    game = tmp_path / "g.sqlite"

    def no_wait_lock() -> None:  # a second command could take the file at once
        conn = sqlite3.connect(game, timeout=0, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        conn.close()

    code, _, err = _phase(game, no_wait_lock)
    assert code == ExitCode.OK, err


def test_item6_a_write_meanwhile_is_kept_and_the_impulse_refused(tmp_path: Path) -> None:
    from referee.game import open_game

    game = tmp_path / "g.sqlite"

    def other_command() -> None:
        code, _, _ = invoke(["waw-markers", "--game", game, "--phase"])
        assert code == ExitCode.OK

    code, _, err = _phase(game, other_command)
    assert code == ExitCode.GAME_FILE
    assert "was changed by another command during this impulse" in one_error(err)
    with open_game(game) as tx:
        assert tx.state("world-at-war")["phases"] == 1  # the other command's write
        assert "phase" not in tx.state("lnl-tactical")  # the impulse, not merged into it


# --- item 11: the smaller ones ------------------------------------------------------------

def test_item11_a_long_list_of_unused_answers_is_capped(tmp_path: Path) -> None:
    extra = "".join(f'"unused-{i}" = 1\n' for i in range(100_000))
    script = edited(tmp_path, EPIC_TO_HIT, "[answers]\n", "[answers]\n" + extra)
    code, _, err = invoke(["run", script])
    line = one_error(err)
    assert code == ExitCode.SCRIPT and len(line) < 400
    assert "unused-0, unused-1" in line and "unused-9 and 99990 more" in line


@pytest.mark.parametrize("old, new", [
    ("shots = 3", 'shots = "3"'), ("shots = 3", "shots = 3.0"), ("shots = 3", "shots = true"),
    ("at = 4", "at = 4.5"),
    ('"to-hit.heavy-cannon" = [6, 5, 1]', '"to-hit.heavy-cannon" = "٦ ٥ ١"'),
    ('"to-hit.heavy-cannon" = [6, 5, 1]', '"to-hit.heavy-cannon" = "６ ５ １"'),
    ('"to-hit.heavy-cannon" = [6, 5, 1]', '"to-hit.heavy-cannon" = "=١"'),
    ('"to-hit.heavy-cannon" = [6, 5, 1]', '"to-hit.heavy-cannon" = [6.0, 5, 1]'),
    ('name = "Heavy cannon"', 'name = "   "'),
    ('action = "double"', 'action = ""'), ('cover = true', 'cover = "  "'),
    ('cover = true', 'cover = 1'),
], ids=["text-number", "float-number", "bool-number", "float-value", "arabic-indic-dice",
        "full-width-dice", "arabic-indic-count", "float-die", "blank-name", "empty-choice",
        "blank-confirm", "number-confirm"])
def test_item11_loose_types_are_refused(tmp_path: Path, old: str, new: str) -> None:
    script = edited(tmp_path, EPIC_TO_HIT, old, new)
    code, _, err = invoke(["run", script])
    assert code == ExitCode.SCRIPT, err
    assert f"{script}, line" in one_error(err)


def test_item11_an_infinite_distance_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "inf.toml"
    script.write_text('ruleset = "epic"\n[declaration]\nfiring = "A"\ntarget = "B"\n'
                      '[[declaration.weapons]]\nname = "Gun"\nap = 4\n'
                      '[[declaration.firing_units]]\nname = "u"\nweapons = ["Gun"]\n'
                      "distance = inf\n[[declaration.target_units]]\nname = \"t\"\n"
                      'type = "INF"\n', encoding="utf-8")
    code, _, err = invoke(["run", script])
    assert code == ExitCode.SCRIPT and "expected a finite number" in one_error(err)


def test_a_seed_a_game_file_cannot_keep_is_refused(tmp_path: Path) -> None:
    """Found by the fuzzer: a 31-digit seed crashed the game file's log (SQLite integers
    hold 64 bits)."""
    script = edited(tmp_path, EPIC_TO_HIT, "seed = 2024", "seed = " + "1" * 31)
    code, _, err = invoke(["run", script, "--game", tmp_path / "g.sqlite"])
    assert code == ExitCode.SCRIPT and "expected a seed between" in one_error(err)
    code, _, err = invoke(["run", EPIC_TO_HIT, "--seed", "1" * 31, "--game",
                           tmp_path / "g.sqlite"])
    assert code == ExitCode.USAGE and "Traceback" not in err
    code, _, _ = invoke(["run", EPIC_TO_HIT, "--seed", str(2 ** 63 - 1), "--game",
                         tmp_path / "g.sqlite", "--no-odds"])
    assert code == ExitCode.OK


def test_a_fate_card_table_without_rolled_is_refused(tmp_path: Path) -> None:
    """Found by the fuzzer (cc case 395 of 10,000): ``fire = { k = 1 }`` crashed."""
    script = edited(tmp_path, CC_SCRIPT, 'fire = [1, 6, "event"]', "fire = { k = 1 }")
    code, _, err = invoke(["run", script])
    assert code == ExitCode.SCRIPT and f"{script}, line" in one_error(err)


def test_item11_digits_other_than_0_to_9_are_not_numbers() -> None:
    from referee.core.errors import AnswerError
    from referee.core.questions import NumberQuestion
    from referee.core.text import Msg

    question = NumberQuestion(id="n", text=Msg.of("epic.q.weapons"))
    assert question.accept(" 12 ") == 12
    for text in ("١٢", "１２", "1_2", "²"):
        with pytest.raises(AnswerError):
            question.accept(text)
    code, _, err = invoke(["lookup", "epic", "barrage", "²"])
    assert code == ExitCode.USAGE and "²" in one_error(err)


def test_item11_an_unreadable_file_is_a_script_error_not_a_usage_box(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.files

    locked = tmp_path / "locked.toml"
    locked.write_text('ruleset = "epic"\n', encoding="utf-8")
    locked.chmod(0)
    if os.access(locked, os.R_OK):  # root reads anything: deny it as the system would
        real_open, real_access = os.open, os.access

        def denied_open(path: Any, *args: Any) -> int:
            if Path(path) == locked:
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args)

        monkeypatch.setattr(referee.files.os, "open", denied_open)
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != locked
                            and real_access(path, mode, **kw))
    for kind, args in _input_file_commands(locked, tmp_path).items():
        code, _, err = invoke(args)
        assert code == ExitCode.SCRIPT, (kind, err)
        assert f"{locked}: expected a readable file (Permission denied)" in one_error(err)


def test_item11_paths_in_a_script_start_at_the_scripts_folder(tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "ours.toml").write_bytes(
        (ROOT / "rulesets" / "world-at-war" / "example-data.toml").read_bytes())
    script = edited(folder, WAW_DATA, '"../../rulesets/world-at-war/example-data.toml"',
                    '"ours.toml"')
    code, out, err = invoke(["run", script, "--no-odds"])
    assert code == ExitCode.OK, err
    # (in the JSON document: a table's cell wraps a long path where the test's folder puts it)
    code, out, err = invoke(["run", script, "--no-odds", "--json"])
    assert code == ExitCode.OK, err
    assert f"Data file: {folder / 'ours.toml'}" in out
    # on the command line a path starts at the current folder, as a shell user expects
    code, _, err = invoke(["run", script, "--no-odds", "-o", "data-file=ours.toml"])
    assert code == ExitCode.SCRIPT and "ours.toml: expected an existing file" in err


def test_item11_a_record_names_an_options_file_from_its_own_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--record`` writes a script: a file an option names (given from the current folder)
    is written relative to the record's folder, where ``run`` and ``--resume`` look."""
    import tomllib

    from referee import api
    from referee.play.record import Recorder

    monkeypatch.chdir(ROOT)
    data = "rulesets/world-at-war/example-data.toml"
    plan = api.plan_attack("waw", seed=1, options=[f"data-file={data}"])
    record = tmp_path / "kept" / "r.toml"
    record.parent.mkdir()
    Recorder(record, plan).write([], complete=False)
    written = tomllib.loads(record.read_text(encoding="utf-8"))["options"]["data-file"]
    assert (record.parent / written).resolve() == (ROOT / data).resolve()
    resumed, _ = api.plan_resume("waw", record)
    assert Path(resumed.options["data-file"]).resolve() == (ROOT / data).resolve()


def test_item11_an_epic_roster_named_in_a_script_starts_at_its_folder(tmp_path: Path) -> None:
    from referee import api

    (tmp_path / "army.toml").write_bytes(EPIC_ROSTER.read_bytes())
    script = tmp_path / "attack.toml"
    script.write_text('ruleset = "epic"\n[declaration]\nfiring = "Grey Company (invented)"\n'
                      'target = "Red Hill Battery (invented)"\nroster = "army.toml"\n',
                      encoding="utf-8")
    plan, _ = api.plan_script(script)
    assert plan.declaration.roster == str(tmp_path / "army.toml")


@pytest.mark.parametrize("content", [
    "edition = 3\n", '[edition]\ncce_2006 = "x"\n', '[edition.cce_2006]\nnation = "x"\n',
    "[edition.cce_2006.nation]\ngermany = 1\n",
    "[edition.cce_2006]\ncards_per_pair = 1000000000\n[edition.cce_2006.nation.germany]\n"
    "counts = {}\n",
    '[edition.cce_2006]\ncards_per_pair = "2"\n',
    "[edition.cce_2006.nation.germany]\ncounts = { jammed = 0 }\n"
    'unverified_blank = { trigger = "sniper", option = "no-such-option" }\n',
    "[edition.cce_2006.nation.germany]\ncounts = { jammed = 0 }\n"
    'sniper = 3\nunverified_blank = { trigger = "sniper", option = "italy-sniper-blank" }\n',
], ids=["edition-number", "edition-text", "nations-text", "deck-number", "huge-per-pair",
        "text-per-pair", "unknown-option", "trigger-not-a-list"])
def test_item7_a_deck_file_of_the_wrong_shape_is_refused(tmp_path: Path, content: str) -> None:
    """Found by the fuzzer: a deck file's tables of the wrong type crashed the attack."""
    deck = tmp_path / "deck.toml"
    deck.write_text(content, encoding="utf-8")
    code, _, err = invoke(_input_file_commands(deck, tmp_path)["cc-deck"])
    assert code == ExitCode.SCRIPT and str(deck) in one_error(err)


# --- the README's promises that no single item pins ---------------------------------------

KILLED_WRITER = """
import sys
from referee.cli import _app_for
from referee.context import Environment
args = ["run", sys.argv[1], "--game", sys.argv[2], "--no-odds"]
print("ready", flush=True)
while True:
    try:
        _app_for(args)(args, obj=Environment.from_system(), standalone_mode=False)
    except SystemExit:
        pass
"""


@pytest.mark.skipif(not hasattr(os, "kill"), reason="POSIX signals")
def test_a_game_file_is_intact_after_kill_9_at_any_moment(tmp_path: Path) -> None:
    """A writer killed with SIGKILL while it writes attack after attack: the file opens,
    SQLite finds it sound, and every attack is whole (the marker it placed and its log
    entry, both or neither)."""
    import random
    import signal
    import sqlite3
    import time

    from referee.game import open_game

    game = tmp_path / "game.sqlite"
    script = str(SCRIPTS / "waw-example-5-smoke.toml")
    rng = random.Random(9)
    def written() -> int | None:
        if not game.exists():
            return 0
        try:
            with sqlite3.connect(game, timeout=0.05) as probe:
                return int(probe.execute("SELECT count(*) FROM log").fetchone()[0])
        except sqlite3.Error:
            return None  # the writer holds the file: not known yet

    for _ in range(3):
        before = written()  # no writer is running: known
        child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, script, str(game)],
                                 cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        # a loaded machine writes slowly: let this writer write once, then kill it at a
        # random moment of its next attacks (so that the kill meets it writing)
        deadline = time.monotonic() + 30
        while written() in (None, before) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.3))
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        conn = sqlite3.connect(game)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
        with open_game(game) as tx:
            state, log = tx.state("world-at-war"), tx.log()
            placed = state.get("next_marker", 1) - 1  # each attack places one marker
            assert placed == len(log) and tx.revision == 2 * len(log)
    assert len(log) >= 3  # the writer wrote between kills, so kills met it writing



@pytest.mark.clause("E-17")
@pytest.mark.parametrize("command", [["run"], ["odds", "epic", "--script"]])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_barrage_without_the_targets_units_is_refused_not_a_bug(
        tmp_path: Path, command: list[str], lang: str) -> None:
    """A barrage weapon in a declaration without the target's units (the fuzzer's seed 7,
    Epic case 3693: ``odds`` stopped on an internal assertion): refused as the script's
    mistake, exit 3, naming the file, the line and what it needs, in both languages."""
    script = tmp_path / "barrage.toml"
    script.write_text('ruleset = "epic"\ntitle = "A barrage without its target units"\n'
                      '[declaration]\nfiring = "Thunder Battery (invented)"\n'
                      'target = "Red Hill Battery (invented)"\n'
                      'weapons = [{ name = "Howitzer", barrage = 7 }]\n'
                      '[answers]\naction = "advance"\n', encoding="utf-8")
    from referee.catalog import DEFAULT_LANG, set_language

    set_language(lang)  # (what --lang sets; the commands' help is not read here)
    try:
        code, _, err = invoke([*command, script])
    finally:
        set_language(DEFAULT_LANG)
    assert code == 3, err
    assert "Traceback" not in err and str(script) in err
    assert ("строка 3" if lang == "ru" else "line 3") in err
    assert "target_units" in err
    assert ("юниты формации-цели" if lang == "ru" else "the target formation's units") in err
