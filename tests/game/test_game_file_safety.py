"""The game file is never lost or stuck (issue 28, cases 1, 2, 6 and 8).

* **Outputs never clobber inputs** (case 1): a ``--record`` or ``--html`` naming the game
  file, a file the command reads or another game file is refused before anything is asked or
  written (``--force`` replaces a file read or another game, never the game played in).
* **Recovery is automatic** (case 2): a writer killed inside its transaction leaves a hot
  journal; the next command that opens the file, reading or writing, rolls it back, says so
  in one line and goes on. A writer is killed at 20 points of its write and every command is
  run after each.
* **follow notices** (case 6) a file replaced, put back to an older copy, or deleted.
* **No leftovers** (case 8): a full disk leaves no empty game or report file behind.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.context import Environment
from tests.support import ROOT
from tests.support.game import CC_PROGRAM, EPIC_PROGRAM, invoke, log_json, new_game, script
from tests.support.pty import child_env

pytestmark = pytest.mark.usefixtures("game_seed")

DECLARATION = ROOT / "transcripts/scripts/epic-grey-company.toml"
PHASE = ROOT / "transcripts/scripts/lnlt-short-phase.toml"
AT_THE_TABLE = ["sustained-fire", "no", "at", "6 5 1", "", "Grey"]
RECOVERED = "was interrupted before it finished; its entry was not kept"


def standing(game: Path) -> list[int]:
    return [e["number"] for e in log_json(game)["entries"] if e["undone"] is None]


# --- case 1: outputs never clobber inputs -----------------------------------------------------

def test_record_given_the_game_files_own_path_is_refused(game: Path) -> None:
    """Case 1: ``--record`` given the game file's own path replaced the SQLite file (every
    entry and the secret seed gone, exit 0)."""
    before = game.read_bytes()
    code, out, err = invoke(["attack", "epic", "--declaration", str(DECLARATION), "--game",
                             str(game), "--record", str(game)], answers=AT_THE_TABLE)
    assert code == 2
    assert "is the game file this command plays in" in err and "?" not in out
    assert game.read_bytes() == before
    code, _, err = invoke(["attack", "epic", "--declaration", str(DECLARATION), "--game",
                           str(game), "--record", str(game), "--force"], answers=AT_THE_TABLE)
    assert code == 2 and game.read_bytes() == before  # never, --force or not


def test_report_html_given_the_game_file_is_refused(game: Path, tmp_path: Path) -> None:
    """Case 1: ``game report FILE --html FILE`` replaced the game with its own report."""
    assert invoke(["run", str(script(tmp_path, "a.toml", EPIC_PROGRAM)), "--game",
                   str(game), "--no-odds", "--word", "owls"])[0] == 0
    before = game.read_bytes()
    code, _, err = invoke(["game", "report", str(game), "--html", str(game)])
    assert code == 2 and "is a file this command reads" in err and "--force" in err
    assert game.read_bytes() == before
    link = tmp_path / "link.html"
    link.symlink_to(game)  # another name for it
    assert invoke(["game", "report", str(game), "--html", str(link)])[0] == 2
    assert game.read_bytes() == before and standing(game) == [1]


def test_an_output_over_another_game_file_needs_force(game: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    new_game(other)
    before = other.read_bytes()
    code, _, err = invoke(["game", "report", str(game), "--html", str(other)])
    assert code == 2 and "is a game file" in err and other.read_bytes() == before
    record = ["attack", "epic", "--declaration", str(DECLARATION), "--seed", "3",
              "--record", str(other)]
    assert invoke(record, answers=AT_THE_TABLE[:5])[0] == 2
    assert other.read_bytes() == before
    code, _, err = invoke(["game", "report", str(game), "--html", str(other), "--force"])
    assert code == 0, err
    assert other.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_record_over_a_file_the_attack_reads_needs_force(tmp_path: Path) -> None:
    declaration = tmp_path / "decl.toml"
    shutil.copy(DECLARATION, declaration)
    before = declaration.read_bytes()
    args = ["attack", "epic", "--declaration", str(declaration), "--seed", "3", "--record",
            str(declaration)]
    code, _, err = invoke(args, answers=AT_THE_TABLE[:5])
    assert code == 2 and "is a file this command reads" in err
    assert declaration.read_bytes() == before
    code, _, err = invoke([*args, "--force"], answers=AT_THE_TABLE[:5])
    assert code == 0, err
    assert "answers" in declaration.read_text(encoding="utf-8")  # replaced, as asked


def test_epic_shoot_records_over_neither_its_roster_nor_its_game(game: Path,
                                                                 tmp_path: Path) -> None:
    roster = tmp_path / "roster.toml"
    shutil.copy(ROOT / "transcripts/scripts/epic-roster.toml", roster)
    before = roster.read_bytes(), game.read_bytes()
    shoot = ["epic-shoot", "Grey Company (invented)", "Red Hill Battery (invented)",
             "--roster", str(roster), "--dice", "auto"]
    code, _, err = invoke([*shoot, "--record", str(roster)])
    assert code == 2 and "is a file this command reads" in err
    code, _, err = invoke([*shoot, "--game", str(game), "--record", str(game), "--force"])
    assert code == 2 and "is the game file this command plays in" in err
    assert (roster.read_bytes(), game.read_bytes()) == before


def test_epic_assault_records_over_neither_its_roster_nor_its_game(game: Path,
                                                                   tmp_path: Path) -> None:
    roster = tmp_path / "roster.toml"
    shutil.copy(ROOT / "transcripts/rosters/epic-assault.toml", roster)
    before = roster.read_bytes(), game.read_bytes()
    assault = ["epic-assault", "Grey Company (invented)", "Red Company (invented)",
               "--roster", str(roster), "--dice", "auto"]
    code, _, err = invoke([*assault, "--record", str(roster)])
    assert code == 2 and "is a file this command reads" in err
    code, _, err = invoke([*assault, "--game", str(game), "--record", str(game), "--force"])
    assert code == 2 and "is the game file this command plays in" in err
    assert (roster.read_bytes(), game.read_bytes()) == before


def test_a_record_goes_on_in_the_file_it_resumes(tmp_path: Path) -> None:
    """``--resume FILE`` writes the record back into FILE: the one output that is meant to
    be a file the command reads."""
    record = tmp_path / "rec.toml"
    assert invoke(["attack", "epic", "--seed", "11", "--record", str(record)],
                  answers=["Only the roll to hit", "1", "^C"])[0] == 130
    code, _, err = invoke(["attack", "epic", "--resume", str(record)],
                          answers=["4", "5+", "none", "Double", "No", "5 6 2 1"])
    assert code == 0, err
    assert "roll_missing_dice" in record.read_text(encoding="utf-8")


# --- case 8: no leftovers on a full disk -----------------------------------------------------

def _full_disk_connect(real: Callable[..., sqlite3.Connection]) -> Callable[..., Any]:
    """sqlite3.connect as on a full disk: a new database cannot grow past its first page
    (SQLite's own 'database or disk is full')."""
    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 1")
        return conn
    return connect


def test_a_full_disk_leaves_no_empty_game_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 8: a full disk left a 0-byte game file behind (``game new``, and a first
    ``--game`` write)."""
    monkeypatch.setattr(sqlite3, "connect", _full_disk_connect(sqlite3.connect))
    game = tmp_path / "night.sqlite"
    code, _, err = invoke(["game", "new", str(game), "--side", "Grey", "--side", "Red"])
    assert code == 5 and "disk is full" in err
    code, _, err = invoke(["run", str(script(tmp_path, "a.toml", EPIC_PROGRAM)), "--game",
                           str(game), "--no-odds", "--seed", "1"])
    assert code == 5 and "disk is full" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.toml"]  # no file, no temporary
    monkeypatch.undo()
    new_game(game)  # the name is free: the game can be made once there is room


def _enospc_after(count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.write`` as on a disk that fills up: the ``count``-th write and later fail."""
    real = os.write
    calls = {"n": 0}

    def write(fd: int, data: Any) -> int:
        calls["n"] += 1
        if calls["n"] >= count:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_a_full_disk_leaves_no_empty_report(game: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 8: a full disk left a 0-byte report behind; an old report stays as it was."""
    out = tmp_path / "out"
    out.mkdir()
    page = out / "report.html"
    _enospc_after(1, monkeypatch)
    code, _, err = invoke(["game", "report", str(game), "--html", str(page)])
    assert code == 2 and "No space left on device" in err
    assert list(out.iterdir()) == []
    monkeypatch.undo()
    page.write_text("the old report", encoding="utf-8")
    _enospc_after(1, monkeypatch)
    assert invoke(["game", "report", str(game), "--html", str(page)])[0] == 2
    assert [p.name for p in out.iterdir()] == ["report.html"]
    assert page.read_text(encoding="utf-8") == "the old report"


def test_a_full_disk_leaves_no_temporary_record(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    _enospc_after(2, monkeypatch)  # the empty record is written; the next write fails
    code, _, err = invoke(["attack", "epic", "--declaration", str(DECLARATION), "--seed", "3",
                           "--record", str(out / "rec.toml")], answers=AT_THE_TABLE[:5])
    assert code == 2 and "No space left on device" in err and "Outcome:" in _
    assert [p.name for p in out.iterdir()] == ["rec.toml"]  # the record as last written


# --- case 2: recovery is automatic ------------------------------------------------------------

# The writer: referee's main, every read-write SQLite connection with a page cache of one page
# (so that its changed pages spill into the file before the commit, as a large write's do,
# and the journal is hot), killed at its KILL_AT-th statement counted from its first write.
KILLER = """
import os, re, sqlite3, sys
KILL_AT = int(os.environ["KILL_AT"])
WRITE = re.compile(r"\\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP)\\b", re.I)
real, count = sqlite3.connect, [0]
def connect(*args, **kwargs):
    conn = real(*args, **kwargs)
    if "mode=ro" not in str(args[0] if args else ""):
        conn.execute("PRAGMA cache_size = 1")
        def trace(sql):
            if count[0] or (conn.in_transaction and WRITE.match(sql)):
                count[0] += 1
                if count[0] == KILL_AT:
                    os._exit(137)  # as kill -9: no rollback, no cleanup
        conn.set_trace_callback(trace)
    return conn
sqlite3.connect = connect
sys.argv[0] = "referee"
from referee.cli import main
main()
"""


def kill_writer(args: list[str], at: int) -> int:
    done = subprocess.run([sys.executable, "-c", KILLER, *args], capture_output=True,
                          text=True, cwd=ROOT, env={**child_env(), "KILL_AT": str(at)},
                          timeout=120, check=False)
    return done.returncode


def hot_journal(game: Path) -> bool:
    """Whether SQLite would refuse a read-only reader for a journal to roll back."""
    if not Path(f"{game}-journal").exists():
        return False
    conn = sqlite3.connect(f"file:{game}?mode=ro", uri=True)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return False
    except sqlite3.OperationalError as err:
        return "readonly" in str(err)
    finally:
        conn.close()


def follow_once(game: Path) -> tuple[int, str, str]:
    """``game follow`` as the command runs it (its one place for errors and exit codes),
    for one poll: the command itself never ends but by Ctrl-C."""
    import typer

    from referee.cli.app import _guarded
    from referee.game.follow import follow

    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdout=out, stderr=err, stdout_isatty=False, color=False)
    try:
        with _guarded(env):
            follow(game, env, interval=0.01, rounds=1)
    except typer.Exit as stop:
        return stop.exit_code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of three entries: an Epic attack, a Combat Commander attack, an LnLT phase."""
    from tests.support.game import fixed_seed

    folder = tmp_path_factory.mktemp("played")
    with pytest.MonkeyPatch.context() as patch:
        fixed_seed(patch)
        game = folder / "night.sqlite"
        new_game(game)
    for name, text in (("epic.toml", EPIC_PROGRAM), ("cc.toml", CC_PROGRAM)):
        assert invoke(["run", str(script(folder, name, text)), "--game", str(game),
                       "--no-odds", "--word", "owls"])[0] == 0
    assert invoke(["run", str(PHASE), "--game", str(game), "--no-odds",
                   "--word", "owls"])[0] == 0
    return game


def _commands(game: Path, folder: Path) -> dict[str, Callable[[], tuple[int, str, str]]]:
    """Every command that opens a game file, reading or writing."""
    epic = script(folder, "epic.toml", EPIC_PROGRAM)

    def cli(*args: str) -> Callable[[], tuple[int, str, str]]:
        return lambda: invoke(list(args))

    return {
        "game log": cli("game", "log", str(game)),
        "game verify": cli("game", "verify", str(game)),
        "game report": cli("game", "report", str(game)),
        "game report --html": cli("game", "report", str(game), "--html",
                                  str(folder / "report.html")),
        "game follow": lambda: follow_once(game),
        "phase --show": cli("phase", "lnlt", "--game", str(game), "--show"),
        "odds --game": cli("odds", "epic", "--script", str(epic), "--game", str(game)),
        "run --game": cli("run", str(epic), "--game", str(game), "--no-odds", "--word",
                          "owls"),
    }


@pytest.mark.parametrize("command", ["game log", "game verify", "game report",
                                     "game report --html", "game follow", "phase --show",
                                     "odds --game", "run --game"])
def test_a_hot_journal_is_rolled_back_by_whichever_command_comes_next(
        played: Path, tmp_path: Path, command: str) -> None:
    """Case 2: after a writer killed inside its write, ``game log``, ``verify``, ``report``,
    ``run --game`` and ``phase --show`` failed with "attempt to write a readonly database",
    ``follow`` exited 1 as an internal error; nothing told the player what to do."""
    game = tmp_path / "night.sqlite"
    shutil.copy(played, game)
    before = standing(game)
    assert kill_writer(["run", str(script(tmp_path, "e.toml", EPIC_PROGRAM)), "--game",
                        str(game), "--no-odds", "--word", "owls"], at=3) == 137
    assert hot_journal(game)
    code, out, err = _commands(game, tmp_path)[command]()
    assert code == 0, err
    assert err.count(RECOVERED) == 1 and "Traceback" not in out + err
    assert not hot_journal(game)
    after = standing(game)
    assert after == ([*before, len(before) + 1] if command == "run --game" else before)
    assert invoke(["game", "verify", str(game)])[0] == 0


# (writer, its arguments, the statements at which it is killed, counted from its first write)
KILL_POINTS: list[tuple[str, list[str], list[int]]] = [
    ("epic attack", ["run", "{epic}", "--game", "{game}", "--no-odds", "--word", "owls"],
     [1, 2, 3, 4]),
    ("cc attack", ["run", "{cc}", "--game", "{game}", "--no-odds", "--word", "owls"],
     [2, 4, 6, 8, 9, 10, 11]),
    ("lnlt phase", ["run", str(PHASE), "--game", "{game}", "--no-odds", "--word", "owls"],
     [2, 8, 10, 11]),
    ("game undo", ["game", "undo", "{game}"], [2, 4, 5, 6]),
    ("game reveal", ["game", "reveal", "{game}"], [3]),
]


def test_a_writer_killed_at_20_points_loses_only_its_entry_and_every_command_goes_on(
        played: Path, tmp_path: Path) -> None:
    """Case 2, at scale: a writer (an attack of each kind, an LnLT phase, undo, reveal) is
    killed at 20 points inside its transaction; after each kill every command that opens a
    game file is run, a different one first each time. The first rolls the journal back and
    says so in one line (the others say nothing); every one exits 0; the game is as it was
    before the killed command, its log holds together, and it takes new entries."""
    points = [(writer, args, at) for writer, args, ats in KILL_POINTS for at in ats]
    assert len(points) == 20
    epic = script(tmp_path, "epic.toml", EPIC_PROGRAM)
    cc = script(tmp_path, "cc.toml", CC_PROGRAM)
    tally: Counter[str] = Counter()
    names = list(_commands(played, tmp_path))
    for i, (writer, args, at) in enumerate(points):
        folder = tmp_path / f"kill-{i}"
        folder.mkdir()
        game = folder / "night.sqlite"
        shutil.copy(played, game)
        before = standing(game)
        code = kill_writer([a.format(epic=epic, cc=cc, game=game) for a in args], at)
        assert code == 137, f"{writer} at {at} was not killed"
        hot = hot_journal(game)
        tally["hot journal"] += hot
        commands = _commands(game, folder)
        order = names[i % len(names):] + names[:i % len(names)]  # another one first each time
        for n, name in enumerate(order):
            code, out, err = commands[name]()
            assert code == 0, f"{writer} killed at {at}: {name}: {err}"
            assert "Traceback" not in out + err
            said = err.count(RECOVERED)
            assert said == (1 if hot and n == 0 else 0), f"{writer} at {at}: {name}: {err}"
            tally[f"recovered by {name}"] += said
            tally["commands run"] += 1
        assert standing(game) == [*before, len(before) + 1]  # the killed entry not kept
        assert invoke(["game", "verify", str(game)])[0] == 0
        assert not Path(f"{game}-journal").exists()
    tally["kill points"] = len(points)
    print(json.dumps(dict(sorted(tally.items())), indent=1))  # (pytest -s shows the figures)
    assert tally["hot journal"] >= 15  # the kills after the first write leave one
    assert tally["commands run"] == 20 * len(names)


# --- case 6: follow notices a replaced or deleted file ---------------------------------------

class Heard:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, msg: Any) -> None:
        from referee.catalog import render

        self.lines.append(render(msg))


@contextmanager
def watching(game: Path) -> Iterator[tuple[Any, Heard]]:
    """``follow``'s watch of ``game``, its first view shown, and the notices it says."""
    from referee.game.follow import Watch, frame
    from referee.notices import listening

    heard = Heard()
    with listening(heard):
        watch = Watch(game)
        try:
            assert watch.poll()  # the first view
            assert watch.conn is not None
            frame(game, watch.conn, None, False, watch)
            yield watch, heard
        finally:
            watch.close()


def test_follow_says_when_the_file_is_deleted_and_when_it_comes_back(game: Path) -> None:
    """Case 6: ``game follow`` kept showing a game that was gone, with no notice."""
    with watching(game) as (watch, heard):
        kept = game.read_bytes()
        game.unlink()
        assert not watch.poll() and not watch.poll()
        assert len(heard.lines) == 1 and "is gone (deleted or moved)" in heard.lines[0]
        game.write_bytes(kept)
        assert watch.poll()  # shown again
        assert "was replaced" in heard.lines[1] or "is back" in heard.lines[1]


def test_follow_says_when_another_file_is_put_in_its_place(game: Path,
                                                          tmp_path: Path) -> None:
    from referee.game.follow import frame

    other = tmp_path / "other.sqlite"
    new_game(other, "--name", "another")
    with watching(game) as (watch, heard):
        os.replace(other, game)
        assert watch.poll()
        text, _ = frame(game, watch.conn, None, False, watch)
        assert "another" in text
        assert heard.lines == [f"note: {game} was replaced by another file; following the "
                               "new one"]  # said once


def test_follow_says_when_the_file_goes_back_to_an_older_copy(game: Path,
                                                             tmp_path: Path) -> None:
    """An older copy put back in place (an attack the opponent saw taken out) is said."""
    from referee.game.follow import frame

    older = tmp_path / "older.sqlite"
    shutil.copy(game, older)
    assert invoke(["run", str(script(tmp_path, "a.toml", EPIC_PROGRAM)), "--game",
                   str(game), "--no-odds", "--word", "owls"])[0] == 0
    with watching(game) as (watch, heard):
        shutil.copyfile(older, game)  # the same file (inode), its old content
        assert watch.poll()
        frame(game, watch.conn, None, False, watch)
        assert any("went back from revision" in line for line in heard.lines), heard.lines


class Following:
    """``referee game follow FILE`` in a child process, its output read as it comes."""

    def __init__(self, game: Path) -> None:
        import threading

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "game", "follow", str(game), "--interval",
             "0.05"], cwd=ROOT, env=child_env(), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=lambda s=stream, i=into: i.extend(iter(s.readline, "")),
                             daemon=True).start()

    def wait_for(self, text: str, where: str = "out", count: int = 1) -> None:
        import time

        lines = self.out if where == "out" else self.err
        deadline = time.monotonic() + 120
        while "".join(lines).count(text) < count:
            assert self.proc.poll() is None, "".join(self.err)
            assert time.monotonic() < deadline, f"no {text!r} in {''.join(lines)!r}"
            time.sleep(0.05)

    def stop(self) -> tuple[int, str, str]:
        import signal

        self.proc.send_signal(signal.SIGINT)  # Ctrl-C
        self.proc.wait(timeout=60)
        import time

        time.sleep(0.2)  # the last lines read
        return self.proc.returncode, "".join(self.out), "".join(self.err)


def test_follow_says_so_when_the_file_is_deleted_and_shows_it_again_when_it_is_back(
        game: Path) -> None:
    """Case 6: ``game follow`` kept showing a game that was gone, with no notice. The
    command keeps watching (no exit, no traceback) while the file is gone, and shows it again
    when it is back: Ctrl-C is the only way out."""
    kept = game.read_bytes()
    following = Following(game)
    try:
        following.wait_for("Ctrl-C ends")
        game.unlink()
        following.wait_for("is gone (deleted or moved)", "err")
        game.write_bytes(kept)
        following.wait_for("Ctrl-C ends", count=2)  # shown whole again
    finally:
        code, out, err = following.stop()
    assert code == 0, err
    assert "Traceback" not in out + err


def test_follow_says_so_when_another_game_is_put_in_its_place(game: Path,
                                                              tmp_path: Path) -> None:
    """Case 6: another file under the game's name (a copy put in its place) was shown as if
    it were the game, with no notice."""
    other = tmp_path / "other.sqlite"
    new_game(other, "--name", "another evening")
    following = Following(game)
    try:
        following.wait_for("Ctrl-C ends")
        os.replace(other, game)
        following.wait_for("was replaced by another file", "err")
        following.wait_for("another evening")
    finally:
        code, out, err = following.stop()
    assert code == 0 and "Traceback" not in out + err


def test_follow_waits_for_a_file_locked_by_a_long_write(game: Path) -> None:
    """A write that holds the file longer than SQLite waits (five seconds) is waited for:
    the view is shown at a later poll, never an error."""
    from referee.game.follow import _frame

    with watching(game) as (watch, _heard):
        writer = sqlite3.connect(game, isolation_level=None)
        try:
            writer.execute("BEGIN EXCLUSIVE")
            assert _frame(watch, None, False) is None
            writer.execute("ROLLBACK")
        finally:
            writer.close()
        shown = _frame(watch, None, False)
        assert shown is not None and "Ctrl-C ends" in shown[0]
