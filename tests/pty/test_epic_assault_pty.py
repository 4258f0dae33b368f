"""An Epic assault and an Epic turn driven through a real pseudo-terminal (pexpect): the
roster's formations with a line for where their units stand, a wrong die refused with its
reason and asked again, the game file keeping what the assault did; a turn's strategy roll
and activation a step at a time; Ctrl-C keeping what was answered and what was recorded."""

from __future__ import annotations

import json
import sqlite3
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.pty import CTRL_C, ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

ROSTER = str(ROOT / "transcripts" / "rosters" / "epic-assault.toml")
GREY, RED = "Grey Company (invented)", "Red Company (invented)"


def answer(s: Session, *steps: tuple[str, str | None]) -> None:
    """Each prompt awaited, then its answer typed (``""``: Enter; ``None``: nothing, the
    text is only awaited)."""
    for prompt, typed in steps:
        s.expect(prompt)
        if typed:
            s.child.sendline(typed)
        elif typed is not None:
            s.child.send(ENTER)


def formations(game: Path) -> dict[str, dict[str, Any]]:
    """The Epic formations the game file keeps."""
    with sqlite3.connect(game) as db:
        row = db.execute("SELECT value FROM state WHERE ruleset = 'epic-armageddon' "
                         "AND key = 'formations'").fetchone()
    return {} if row is None else dict(json.loads(row[0]))


@pytest.mark.clause("E-A9")
@pytest.mark.clause("E-A11")
def test_an_assault_from_a_roster_at_a_terminal(spawn, tmp_path) -> None:
    game = tmp_path / "game.sqlite"
    s = Session(spawn("epic-assault", GREY, RED, "--roster", ROSTER, "--game", str(game),
                      "--seed", "3"))
    answer(s, (f"{GREY}: where do its units stand", "3 contact, 10"),
           (f"{RED}: where do its units stand", "2 contact, 2 12, 14"),
           (f"How many Blast markers are on {GREY}?", ""),
           (f"How many Blast markers are on {RED}?", "1"),
           (f"Is {RED} broken already", ""),
           # a 7 on a six-sided die: refused with its reason, asked again
           (f"{GREY} attacks: 3×CC4+, 2×FF5+", "4 1 4 2 7"),
           ("7 is not a face of a d6", None),
           (f"{GREY} attacks: 3×CC4+, 2×FF5+", "4 1 4 2 6"),
           (f"{RED} attacks: 2×CC5+, 2×FF4+, 1×FF5+", "1 5 6 4 2"),
           ("Save for Rifleman 1 to Rifleman 2", "4 2"), ("Save for Rifleman 3", "3"),
           ("Save for Trooper 1 to Trooper 3", "3 1 6"),
           ("Other formations within 15 cm of the fight?", ""),
           (f"Result roll of {GREY}", "2 1"), (f"Result roll of {RED}", "2 3"))
    s.expect(f"Outcome: {GREY} won the assault (by 4)")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    kept = formations(game)
    assert kept[RED]["broken"] is True and len(kept[RED]["destroyed"]) == 5
    assert kept[GREY]["blast_markers"] == 2


def test_ctrl_c_in_an_assault_keeps_the_answers_given(spawn, tmp_path) -> None:
    record = tmp_path / "assault.toml"
    s = Session(spawn("epic-assault", GREY, RED, "--roster", ROSTER, "--seed", "3",
                      "--record", str(record)))
    s.expect(f"{GREY}: where do its units stand")
    s.child.sendline("3 contact, 10")
    s.expect(f"{RED}: where do its units stand")
    s.child.send(CTRL_C)
    code = s.finish()
    assert code != 0 and "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["situation.grey-company-invented"] == "3 contact, 10"


@pytest.mark.clause("E-T1")
@pytest.mark.clause("E-T3")
def test_a_turn_step_by_step_and_ctrl_c_keeps_the_steps_recorded(spawn, tmp_path) -> None:
    game = tmp_path / "game.sqlite"
    turn = ("epic-turn", "--game", str(game), "--roster", ROSTER, "--seed", "2")
    s = Session(spawn(*turn))
    answer(s, ("Strategy rating of Blue?", "3"), ("Strategy roll of Blue (rating 3)", "0"),
           ("0 is not a face of a d6", None),  # no face 0: refused, asked again
           ("Strategy roll of Blue (rating 3)", "4"), ("Strategy rating of Red?", "2"),
           ("Strategy roll of Red (rating 2)", "6"),
           ("Red won the strategy roll: act first or second?", ""))
    s.expect("Outcome: Turn 1: Red acts first")
    assert s.finish() == 0
    s = Session(spawn(*turn))
    s.expect(f"What action does {RED} declare?")
    s.child.send(CTRL_C)  # the activation is not played: the strategy roll stays
    code = s.finish()
    assert code != 0 and "Traceback" not in s.text
    s = Session(spawn(*turn))
    s.expect(f"What action does {RED} declare?")  # the strategy roll is not asked again
    s.child.send(ENTER)  # advance
    s.expect(f"Test of {RED}: 1 die, 3+ passes")
    s.child.sendline("2")
    s.expect(f"Outcome: {RED}: action test failed, hold")
    assert s.finish() == 0
    assert formations(game)[RED]["blast_markers"] == 1
