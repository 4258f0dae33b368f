"""The interactive `referee attack` driven through a real pseudo-terminal (pexpect).

These tests type at questionary prompts the way a player does: lines at text prompts, arrow
keys and Enter at select prompts, a single key at confirm prompts, Ctrl-C to interrupt.

The helpers are in ``tests/support/pty.py``; the ``spawn`` fixture in ``tests/conftest.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib

import pytest

from tests.support.pty import (
    CTRL_C,
    ROOT,
    TIMEOUT,
    Session,
    child_env,
    choose,
    squash,
)

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


# question texts from referee/locale/en.toml (stable substrings)
Q_KIND = "What is to be resolved?"
KINDS = ["whole", "to-hit"]
Q_WEAPONS = "How many kinds of weapon fire?"
Q_SHOTS = "Weapon {n}: how many shots?"
Q_AP = "Weapon {n}: AP to-hit value?"
Q_AT = "Weapon {n}: AT to-hit value?"
Q_ACTION = "What action is"
Q_COVER = "in cover?"
Q_ROLL = "Roll to hit for weapon 1"
DICE_HINT = "or Enter to roll"  # only in the dice prompt's hint, never in an answered line

AP_CHOICES = ["none", "2+", "3+", "4+", "5+", "6+"]  # default: none
ACTIONS = ["Advance", "Double", "Marshal", "Sustained Fire", "Overwatch", "March"]

def answer_declaration(s: Session, shots: int, ap: str) -> None:
    """Only the roll to hit; one weapon with ``shots`` shots, AP ``ap``, AT none."""
    choose(s, Q_KIND, KINDS, "whole", "to-hit")
    s.expect(Q_WEAPONS)
    s.child.sendline("1")
    s.expect(Q_SHOTS.format(n=1))
    s.child.sendline(str(shots))
    choose(s, Q_AP.format(n=1), AP_CHOICES, "none", ap)
    choose(s, Q_AT.format(n=1), AP_CHOICES, "none", "none")


def test_typed_attack_refuses_a_bad_roll_and_records_a_replayable_script(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(record), "--working"))
    s.expect("Seed 11")
    answer_declaration(s, shots=4, ap="5+")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Double")
    s.expect(Q_COVER)
    s.child.send("n")  # a confirm prompt takes one key, no Enter
    # AP5+ with Double (-1) needs 6+
    s.expect(Q_ROLL + ": 4 dice, 6+ hits")
    s.expect(DICE_HINT)

    s.child.sendline("5 6 9 1")
    s.expect("9 is not a face of a d6")  # dice.error.face
    # the same question is asked again, on a clean line; nothing was resolved
    s.expect(Q_ROLL + ": 4 dice, 6+ hits")
    assert s.child.isalive()
    assert "Outcome:" not in s.text and "Working" not in s.text

    s.child.sendline("5 6 2 1")  # 5: miss, 6: hit, 2: miss, 1: natural 1 misses
    s.expect("Outcome: 1 AP hit and 0 AT hits")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "5 6 2 1 (typed) → 1" in shown

    # the recording holds the accepted answers only, in script form
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["seed"] == 11
    assert script["answers"] == {
        "attack-kind": "to-hit", "weapons": 1, "weapon.1.shots": 4, "weapon.1.ap": "5",
        "weapon.1.at": "none",
        "action": "double", "cover": False, "to-hit.weapon-1": [5, 6, 2, 1],
    }

    # `referee run` replays it to the same working and outcome
    replay = subprocess.run([sys.executable, "-m", "referee", "run", str(record), "--json"],
                            cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                            timeout=TIMEOUT, env=child_env())
    assert replay.returncode == 0, replay.stderr
    data = json.loads(replay.stdout)
    assert data["seed"] == 11
    assert data["outcome"]["data"]["hits"] == {"ap": 1, "at": 0}
    assert data["outcome"]["text"] == "1 AP hit and 0 AT hits"
    rolls = [st for st in data["steps"] if st["kind"] == "roll"]
    assert len(rolls) == 1
    assert rolls[0]["data"]["faces"] == [5, 6, 2, 1]
    assert rolls[0]["data"]["source"] == "typed"
    assert rolls[0]["data"]["successes"] == 1
    # every step the replay logs is the step the interactive run showed, word for word
    flat = squash(shown.replace("│", " "))
    for st in data["steps"]:
        assert squash(st["text"]) in flat, st["text"]


def test_ctrl_c_exits_130_and_records_the_answers_so_far(spawn, tmp_path):
    record = tmp_path / "partial.toml"
    s = Session(spawn("attack", "epic", "--seed", "3", "--record", str(record)))
    answer_declaration(s, shots=3, ap="3+")
    s.expect(Q_ACTION)
    s.child.send(CTRL_C)
    assert s.finish() == 130
    shown = s.text
    assert "Traceback" not in shown
    assert "Interrupted." in shown
    assert "Outcome:" not in shown

    assert record.exists()
    text = record.read_text(encoding="utf-8")
    assert "interrupted" in text  # the partial-recording header
    script = tomllib.loads(text)
    assert "roll_missing_dice" not in script  # strict: a replay stops where the player stopped
    assert script["ruleset"] == "epic-armageddon"
    assert script["seed"] == 3
    assert script["answers"] == {"attack-kind": "to-hit", "weapons": 1, "weapon.1.shots": 3,
                                 "weapon.1.ap": "3", "weapon.1.at": "none"}


def test_ctrl_c_at_a_dice_prompt_keeps_the_half_typed_roll_out_of_the_record(spawn, tmp_path):
    record = tmp_path / "partial.toml"
    s = Session(spawn("attack", "epic", "--seed", "3", "--record", str(record)))
    answer_declaration(s, shots=3, ap="4+")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Advance")
    s.expect(Q_COVER)
    s.child.send("y")
    s.expect(DICE_HINT)
    s.child.send("5 6")  # typed, not entered
    s.child.send(CTRL_C)
    assert s.finish() == 130
    assert "Traceback" not in s.text
    answers = tomllib.loads(record.read_text(encoding="utf-8"))["answers"]
    assert answers["action"] == "advance"
    assert answers["cover"] is True
    assert "to-hit.weapon-1" not in answers


def _auto_attack(spawn) -> tuple[str, str]:
    s = Session(spawn("attack", "epic", "--seed", "5", "--dice", "auto"))
    s.expect("Seed 5 (repeat this run with --seed 5)")
    answer_declaration(s, shots=6, ap="4+")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Advance")
    s.expect(Q_COVER)
    s.child.send("n")
    # the next thing is the result: a dice prompt here would time out
    s.expect("Outcome:")
    assert s.finish() == 0
    shown = s.text
    outcome = re.findall(r"^Outcome: .*$", shown, re.MULTILINE)
    assert len(outcome) == 1
    return shown, outcome[0].strip()


def test_auto_dice_rolls_every_die_and_repeats_with_the_seed(spawn):
    first, outcome = _auto_attack(spawn)
    assert "Traceback" not in first
    assert DICE_HINT not in first  # no dice prompt was shown
    rolled = re.findall(r"Roll to hit for weapon 1: 6 dice, 4\+ hits\s+([1-6](?: [1-6]){5}) "
                        r"\(rolled\)", first)
    assert len(rolled) == 1, first
    hits = sum(1 for f in map(int, rolled[0].split()) if f >= 4)
    assert outcome == f"Outcome: {hits} AP {'hit' if hits == 1 else 'hits'} and 0 AT hits"

    second, outcome_again = _auto_attack(spawn)
    assert outcome_again == outcome
    assert rolled[0] + " (rolled)" in second
