"""``game follow`` at a real pseudo-terminal: the opponent's view updates while a second
process plays an attack in the same game file, and Ctrl-C ends it with exit code 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.game import EPIC_PROGRAM, new_game, script
from tests.support.pty import CTRL_C, ROOT, Session, child_env

pytestmark = pytest.mark.pty


def test_follow_updates_while_another_process_attacks(spawn, tmp_path: Path) -> None:
    game = tmp_path / "night.sqlite"
    new_game(game)
    s = Session(spawn("game", "follow", str(game), "--interval", "0.1"))
    s.expect("; 0 entries, 0 undone")
    s.expect("Ctrl-C ends")
    attack = script(tmp_path, "a.toml", EPIC_PROGRAM)
    proc = subprocess.run([sys.executable, "-m", "referee", "run", str(attack), "--game",
                           str(game), "--no-odds", "--word", "owls"], capture_output=True,
                          text=True,
                          cwd=ROOT, env=child_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    s.expect("; 1 entry, 0 undone")
    s.expect("to-hit.heavy-cannon")
    s.expect("Working of #1")
    undo = subprocess.run([sys.executable, "-m", "referee", "game", "undo", str(game)],
                          capture_output=True, text=True, cwd=ROOT, env=child_env(),
                          timeout=60)
    assert undo.returncode == 0, undo.stderr
    s.expect("; 1 entry, 1 undone")
    s.child.send(CTRL_C)
    assert s.finish() == 0
    assert "Traceback" not in s.text
