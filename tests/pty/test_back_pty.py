"""Going back, resuming, and output that can be piped, at a real pseudo-terminal (pexpect).

``<`` goes back one question: typed alone on the line at a text, number or dice prompt, the
key itself at a list or yes/no prompt. The helpers are in ``tests/support/pty.py``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pexpect
import pytest

from referee.script import load_script
from tests.support.pty import (
    CTRL_C,
    DOWN,
    ENTER,
    ROOT,
    TIMEOUT,
    Session,
    at_a_terminal,
    child_env,
    choose,
    strip_ansi,
)

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

CTRL_D = "\x04"
BACK_HINT = "< goes back one question"

# Epic, only the roll to hit (question texts from referee/locale/en/epic.toml)
Q_KIND = "What is to be resolved?"
Q_WEAPONS = "How many kinds of weapon fire?"
Q_SHOTS = "Weapon 1: how many shots?"
Q_AP = "Weapon 1: AP to-hit value?"
Q_AT = "Weapon 1: AT to-hit value?"
Q_ACTION = "What action is"
Q_COVER = "in cover?"
Q_ROLL = "Roll to hit for weapon 1"
Q_AGAIN = "roll the "  # the second roll of a 7+ need
AP = ["none", "2+", "3+", "4+", "5+", "6+"]
ACTIONS = ["Advance", "Double", "Marshal", "Sustained Fire", "Overwatch", "March"]


def _run_json(record: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "referee", "run", str(record), "--json"],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                          timeout=TIMEOUT, env=child_env())
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


def _epic_to_the_roll(s: Session, cover: str = "n") -> None:
    choose(s, Q_KIND, ["whole", "to-hit"], "whole", "to-hit")
    s.expect(Q_WEAPONS)
    s.child.sendline("1")
    s.expect(Q_SHOTS)
    s.child.sendline("4")
    _epic_after_the_shots(s, cover)


def _epic_after_the_shots(s: Session, cover: str = "n") -> None:
    choose(s, Q_AP, AP, "none", "5+")
    choose(s, Q_AT, AP, "none", "none")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Double")
    s.expect(Q_COVER)
    s.child.send(cover)


# --- back, in each ruleset ------------------------------------------------------------------

def test_epic_back_from_the_second_question_and_from_a_dice_prompt(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(record), "--working"))
    choose(s, Q_KIND, ["whole", "to-hit"], "whole", "to-hit")
    s.expect(Q_WEAPONS)
    s.expect(BACK_HINT)  # said once, at the first question one can go back from
    s.child.sendline("<")
    s.expect(Q_KIND)  # asked again, the previous answer under the pointer
    s.child.send(ENTER)
    s.expect(Q_WEAPONS)
    s.child.sendline("1")
    s.expect(Q_SHOTS)
    s.child.sendline("4")
    _epic_after_the_shots(s)
    s.expect(Q_ROLL)
    s.child.sendline("<")  # from the dice prompt back to the yes/no question before it
    s.expect(Q_COVER)
    s.child.send("<")  # and on, the key alone at a yes/no prompt
    s.expect(Q_ACTION)
    s.child.send(ENTER)  # Double, as before
    s.expect(Q_COVER)
    s.child.send("n")
    s.expect(Q_ROLL)
    s.child.sendline("5 6 2 1")
    s.expect("Outcome: 1 AP hit and 0 AT hits")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    # the hint only at the first question one can go back from, even when asked again
    assert {Q_WEAPONS in line for line in shown.splitlines() if BACK_HINT in line} == {True}
    assert shown.count("Working") == 1  # nothing of a replay is shown
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"] == {
        "attack-kind": "to-hit", "weapons": 1, "weapon.1.shots": 4, "weapon.1.ap": "5",
        "weapon.1.at": "none", "action": "double", "cover": False,
        "to-hit.weapon-1": [5, 6, 2, 1]}


def test_epic_back_past_a_program_roll_and_forward_shows_the_same_dice(spawn):
    s = Session(spawn("attack", "epic", "--seed", "11"))
    _epic_to_the_roll(s, cover="y")  # 5+ with Double and cover needs 7: a second roll
    s.expect(Q_ROLL)
    s.child.sendline("")  # the program rolls
    s.expect("(rolled)")
    first = s.child.before.splitlines()[-1].strip()
    s.expect(Q_AGAIN)
    s.child.sendline("<")  # back over the roll the program made
    s.expect(Q_ROLL)
    s.child.sendline("")
    s.expect("(rolled)")
    again = s.child.before.splitlines()[-1].strip()
    assert again == first and first
    s.expect(Q_AGAIN)
    s.child.sendline("")
    s.expect("Outcome:")
    assert s.finish() == 0
    assert "rolled again after a change" not in s.text


def test_epic_a_changed_answer_rolls_again_with_the_same_first_dice(spawn):
    s = Session(spawn("attack", "epic", "--seed", "11", "--dice", "auto"))
    _epic_to_the_roll(s)
    s.expect("(rolled)")
    shots4 = s.child.before.splitlines()[-1].split()[-4:]
    s.expect("Outcome:")
    assert s.finish() == 0
    s = Session(spawn("attack", "epic", "--seed", "11", "--dice", "auto"))
    choose(s, Q_KIND, ["whole", "to-hit"], "whole", "to-hit")
    s.expect(Q_WEAPONS)
    s.child.sendline("1")
    s.expect(Q_SHOTS)
    s.child.sendline("6")
    s.expect(Q_AP)
    s.child.send("<")  # six shots was wrong: back, and four
    s.expect(Q_SHOTS)
    s.child.send("\x7f" * 3)  # nothing pre-filled to delete: the default is in the hint
    s.child.sendline("4")
    _epic_after_the_shots(s)
    s.expect("(rolled)")
    assert s.child.before.splitlines()[-1].split()[-4:] == shots4
    assert s.finish() == 0


def test_cc_back_from_the_fire_card_to_the_base_piece(spawn):
    s = Session(spawn("attack", "cc", "--declaration",
                      "transcripts/scripts/declarations/cc-example-c-d.toml", "--seed", "3"))
    s.expect("Which piece is the base of the fire group?")
    s.child.send(ENTER)
    s.expect("Fire roll: draw from the German Fate deck (FP 11)")
    s.expect(BACK_HINT)
    s.child.sendline("<")
    s.expect("Which piece is the base of the fire group?")
    s.child.send(ENTER)
    s.expect("Fire roll: draw from the German Fate deck (FP 11)")
    s.child.sendline("4 1")
    s.expect("Defence roll for US squad (invented) (Morale 5)")
    s.child.sendline("<")  # from a card back to the card before it
    s.expect("Fire roll: draw from the German Fate deck (FP 11)")
    s.expect("Enter for 4 1 as before")
    s.child.sendline("")  # the typed card is the default
    s.expect("Defence roll for US squad (invented) (Morale 5)")
    s.child.sendline("6-4")
    s.expect("Outcome: Attack total 16.")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    assert "US squad (invented): broken" in " ".join(s.text.split())


def test_fow_back_from_a_save_to_the_results_question(spawn):
    s = Session(spawn("attack", "fow", "--declaration",
                      "transcripts/scripts/declarations/fow-odds.toml", "--seed", "4"))
    s.expect("Defender: accept the referee's allocation of 4 hits shown above?")
    s.child.send(ENTER)  # the referee's proposal
    s.expect("Every hit is allocated. Results?")
    s.child.send("<")  # back to the first question
    s.expect("Defender: accept the referee's allocation of 4 hits shown above?")
    s.child.send(ENTER)
    s.expect("Every hit is allocated. Results?")
    s.child.send(DOWN + ENTER)  # apply the unverified V3 reading
    s.expect("Top armour save for Armoured car")
    s.child.sendline("<")
    s.expect("Every hit is allocated. Results?")
    s.child.send(ENTER)  # as before: the V3 reading
    while s.child.expect_exact(["(type the faces", "Outcome:"]) == 0:
        s.child.sendline("6")  # every die bounces
    assert s.finish() == 0
    assert "Traceback" not in s.text


def test_waw_back_from_the_target_hex_and_from_the_attack_dice(spawn):
    s = Session(spawn("attack", "waw", "--seed", "4"))
    s.expect("Which artillery mission?")
    s.child.send(ENTER)  # HE
    s.expect("Target hex")
    s.child.sendline("<")
    s.expect("Which artillery mission?")
    s.child.send(ENTER)
    s.expect("Target hex")
    s.child.sendline("712")
    s.expect("Units in the target hex")
    s.child.sendline("1")
    s.expect("Unit 1: what kind of unit?")
    s.child.send(ENTER)  # infantry
    s.expect("Unit 1: its state before the mission?")
    s.child.send(ENTER)
    s.expect("Mission firepower")
    s.child.sendline("3")
    s.expect("Mission hit number")
    s.child.sendline("4")
    s.expect("Roll the HE attack: 3 dice, 4+ hits")
    s.child.sendline("<")
    s.expect("Mission hit number")
    s.expect("Enter for 4")
    s.child.sendline("5")
    s.expect("Roll the HE attack: 3 dice, 5+ hits")
    s.child.sendline("1 2 3")
    s.expect("Outcome:")
    assert s.finish() == 0
    assert "Traceback" not in s.text


@pytest.mark.parametrize(("lang", "question"), [("en", Q_WEAPONS),
                                                ("ru", "Сколько видов оружия стреляет?")])
def test_an_answer_taken_with_enter_is_written_in_the_answered_line(spawn, lang, question):
    s = Session(spawn("--lang", lang, "attack", "epic", "--seed", "11"))
    s.expect("[E-1]")  # the first question drawn (keys typed before it would be dropped)
    s.child.send(DOWN + ENTER)  # only the roll to hit
    s.expect(question)
    s.child.send(ENTER)  # the default, 1
    s.expect(Q_SHOTS if lang == "en" else "Оружие 1")
    s.child.send(CTRL_C)
    s.finish()
    answered = [line for line in s.text.splitlines() if question in line][-1]
    assert answered.rstrip().endswith(") 1"), answered


# --- interrupted, then resumed --------------------------------------------------------------

@pytest.mark.parametrize("key", [CTRL_C, CTRL_D], ids=["ctrl-c", "ctrl-d"])
def test_interrupt_then_resume_asks_the_first_unanswered_question(spawn, tmp_path, key):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(record)))
    choose(s, Q_KIND, ["whole", "to-hit"], "whole", "to-hit")
    s.expect(Q_WEAPONS)
    s.child.sendline("1")
    s.expect(Q_SHOTS)
    s.child.sendline("4")
    s.expect(Q_AP)
    s.child.send(key)
    assert s.finish() == 130
    shown = s.text
    assert "Interrupted." in shown and "Aborted" not in shown and "Traceback" not in shown
    assert f"referee attack epic-armageddon --resume {record}" in " ".join(shown.split())
    assert len(tomllib.loads(record.read_text(encoding="utf-8"))["answers"]) == 3

    s = Session(spawn("attack", "epic", "--resume", str(record)))
    s.expect("3 recorded answers replayed")
    s.expect(Q_AP)  # the first question left unanswered
    assert Q_WEAPONS not in s.text
    s.child.send(DOWN * 4 + ENTER)
    choose(s, Q_AT, AP, "none", "none")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Double")
    s.expect(Q_COVER)
    s.child.send("n")
    s.expect(Q_ROLL)
    s.child.sendline("5 6 2 1")
    s.expect("Outcome: 1 AP hit and 0 AT hits")
    assert s.finish() == 0

    whole = tmp_path / "whole.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(whole)))
    _epic_to_the_roll(s)
    s.expect(Q_ROLL)
    s.child.sendline("5 6 2 1")
    s.expect("Outcome:")
    assert s.finish() == 0
    assert _run_json(record) == _run_json(whole)


def test_ctrl_d_at_a_dice_prompt_ends_like_ctrl_c(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(record)))
    _epic_to_the_roll(s)
    s.expect(Q_ROLL)
    s.child.send(CTRL_D)
    assert s.finish() == 130
    assert "Aborted" not in s.text
    assert len(tomllib.loads(record.read_text(encoding="utf-8"))["answers"]) == 7


def test_a_record_killed_at_any_moment_still_parses(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    for delay in (0.0, 0.002, 0.01, 0.03):
        s = Session(spawn("attack", "epic", "--seed", "11", "--record", str(record)))
        choose(s, Q_KIND, ["whole", "to-hit"], "whole", "to-hit")
        s.expect(Q_WEAPONS)
        s.child.sendline("1")
        s.expect(Q_SHOTS)
        s.child.sendline("4")  # the record is being rewritten now
        time.sleep(delay)
        os.kill(s.child.pid, signal.SIGKILL)
        s.child.expect(pexpect.EOF)
        s.child.close()
        script = load_script(record)  # a whole record, before or after the last answer
        assert len(script.answers) in (2, 3)


# --- prompts to the terminal, the result to standard output ---------------------------------

def _shell(command: str, tmp_path: Path) -> pexpect.spawn:
    return pexpect.spawn("/bin/sh", ["-c", command], cwd=str(ROOT), env=child_env(),
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 120),
                         preexec_fn=at_a_terminal)


def test_json_redirected_to_a_file_is_valid_json(tmp_path):
    out = tmp_path / "out.json"
    child = _shell(f"{sys.executable} -m referee attack epic --declaration "
                   f"transcripts/scripts/epic-grey-company.toml --seed 11 --json > {out}",
                   tmp_path)
    s = Session(child)
    s.expect(Q_ACTION)  # the questions still come to the terminal
    s.child.send(ENTER)
    s.expect(Q_COVER)
    s.child.send("n")
    while True:  # defaults everywhere, and the program rolls
        index = s.child.expect_exact(["(Use arrow keys", "(faces", "(type", "(y/n, Enter for no",
                                      pexpect.EOF])
        if index == 4:
            break
        s.child.send("n" if index == 3 else ENTER)
    s.child.close()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["seed"] == 11 and data["ruleset"] == "epic-armageddon"
    assert data["odds"]  # the odds are in the JSON, and were shown at the terminal too


def test_text_piped_to_tee_is_a_clean_log(tmp_path):
    log = tmp_path / "log.txt"
    child = _shell(f"{sys.executable} -m referee attack epic --seed 11 --working | tee {log}",
                   tmp_path)
    s = Session(child)
    _epic_to_the_roll(s)
    s.expect(Q_ROLL)
    s.child.sendline("5 6 2 1")
    s.child.expect(pexpect.EOF)
    s.child.close()
    text = log.read_text(encoding="utf-8")
    assert "\r" not in text and "\x1b" not in text
    assert "Outcome: 1 AP hit and 0 AT hits" in text
    assert "Seed 11" in text
    assert "?" not in "".join(line[:1] for line in text.splitlines())  # no question in it
    assert "+---" in text  # plain tables, no box drawing
    shown = strip_ansi(s.child.before or "")
    assert "Traceback" not in shown


def test_lnlt_back_in_an_impulse_from_the_second_question_and_from_the_dice(spawn, tmp_path):
    game = tmp_path / "g.sqlite"
    s = Session(spawn("phase", "lnlt", "--game", str(game), "--roster",
                      "benchmarks/questions/lnlt-fire.toml", "--seed", "3", "--impulses", "1"))
    s.expect("Impulse 1, Grey: activate units or pass?")
    s.expect("Fire from C4")
    s.child.send("Fire" + ENTER)  # typed to filter the list: fire from C4
    s.expect("Direct Fire Table modifiers")
    s.expect(BACK_HINT)
    s.child.sendline("<")  # back to the impulse's first question
    s.expect("Impulse 1, Grey: activate units or pass?")
    s.child.send(ENTER)  # the previous answer is under the pointer
    s.expect("Direct Fire Table modifiers")
    s.child.sendline("1 0")
    s.expect("Opposed roll")
    s.child.sendline("<")  # from the dice back to the modifiers
    s.expect("Direct Fire Table modifiers")
    s.expect("Enter for +1 0")  # the line as given, written back
    s.child.sendline("0 0")
    s.expect("Opposed roll")
    s.child.sendline("5 1")
    while s.child.expect_exact(["Damage-check die", "Damage Check Table?", "Outcome:"]) != 2:
        s.child.sendline("4" if "die" in (s.child.after or "") else "")
    assert s.finish() == 0
    assert "Traceback" not in s.text
