"""Names the game keeps completed at a real terminal (issue 27): a prefix, Tab, the name.

A later Flames of War assault in a game file types who charges whom by the teams' ids: the
teams still in the fight complete with Tab; a World at War mission's target hex completes to
a hex the game keeps units of. Units invented."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.game import invoke
from tests.support.pty import CTRL_C, ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]
TAB = "\t"


def test_a_kept_team_completes_in_the_assault_line(spawn, tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    first = ROOT / "benchmarks" / "questions" / "fow-first-assault.toml"
    assert invoke(["run", str(first), "--game", str(game), "--seed", "1"])[0] == 0
    s = Session(spawn("attack", "fow", "--game", str(game), "--seed", "1", "--no-odds"))
    s.expect("Which teams charge")
    s.child.send("p1 p2 hq vs r1 r2 r3 a")
    s.child.send(TAB)  # the one team whose id begins with a: ag
    s.child.send(ENTER)
    s.expect("Defensive fire")  # the line was read: ag is a defending team
    s.child.send(CTRL_C)
    s.finish()
    # the answered line as typed and completed (the terminal may wrap it anywhere)
    assert "p1p2hqvsr1r2r3ag" in "".join(s.text.split())


def test_a_kept_hex_completes_at_the_hex_prompt(spawn, tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    first = ROOT / "benchmarks" / "questions" / "waw-first-mission.toml"
    assert invoke(["run", str(first), "--game", str(game), "--seed", "1"])[0] == 0
    s = Session(spawn("attack", "waw", "--game", str(game), "--seed", "1", "--no-odds",
                      "--lang", "ru"))
    s.expect("Какая артиллерийская задача")
    s.child.send("дым")  # filters the list to the smoke mission
    s.child.send(ENTER)
    s.expect("Гекс цели")
    s.child.send("07")
    s.child.send(TAB)
    s.child.send(ENTER)
    s.expect("Итог")
    s.finish()
    outcome = next(line for line in s.text.splitlines() if line.startswith("Итог"))
    assert "0712" in outcome  # not hex 0007, which "07" alone would have been
