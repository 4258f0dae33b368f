"""Combat Commander at a real pseudo-terminal (pexpect): the excerpt's examples C and D typed
card by card, a refused card re-asked, a drawn card recorded and replayed exactly."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.pty_support import ENTER, ROOT, TIMEOUT, Session, child_env

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

DECL = "transcripts/scripts/declarations/cc-example-c-d.toml"
Q_BASE = "Which piece is the base of the fire group?"
Q_FIRE = "Fire roll: draw from the German Fate deck (FP 11)"
Q_DEFENCE = "Defence roll for US squad (invented) (Morale 5)"
CARD_HINT = "or Enter to draw"


def _replay(record: object) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "referee", "run", str(record), "--json"],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                          timeout=TIMEOUT, env=child_env())
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


@pytest.mark.clause("C-8")
@pytest.mark.clause("C-10")
def test_C8_C10_examples_C_D_typed_at_a_terminal_with_a_refused_card(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "cc", "--declaration", DECL, "--seed", "3",
                      "--record", str(record)))
    s.expect(Q_BASE)
    s.expect("Rifle squad L8 (FP 6)")  # the highest, offered first and the default
    s.child.send(ENTER)
    s.expect(Q_FIRE)
    s.expect(CARD_HINT)
    s.child.sendline("4 1 boom")
    s.expect("unknown trigger 'boom'")
    s.expect(Q_FIRE)
    assert "Outcome:" not in s.text
    s.child.sendline("4 1")
    s.expect(Q_DEFENCE)
    s.child.sendline("6-4")
    s.expect("Outcome: Attack total 16. US squad (invented): broken")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"] == {"base": "rifle-squad-l8", "fire": [4, 1],
                                 "defence.us-squad-invented": [6, 4]}
    data = _replay(record)
    assert data["outcome"]["data"]["attack_total"] == 16  # type: ignore[index]


@pytest.mark.clause("C-X8")
def test_CX8_a_drawn_card_is_recorded_as_its_values_and_replays(spawn, tmp_path):
    record = tmp_path / "drawn.toml"
    s = Session(spawn("attack", "cc", "--declaration",
                      "transcripts/scripts/declarations/cc-example-j.toml",
                      "--seed", "5", "--record", str(record)))
    s.expect("Outcome: Attack not allowed")  # FP -1: no card is asked at all
    assert s.finish() == 0
    s = Session(spawn("attack", "cc", "--declaration", DECL, "--seed", "5",
                      "--record", str(record)))
    s.expect(Q_BASE)
    s.child.send(ENTER)
    s.expect(Q_FIRE)
    s.child.send(ENTER)  # draw from the virtual German deck
    s.expect("(rolled)")
    while True:  # an Event! card asks what the event did; a draw answers the defence
        index = s.child.expect_exact(["what did the event do", Q_DEFENCE, "Outcome:"])
        if index == 2:
            break
        s.child.send(ENTER)
    assert s.finish() == 0
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    drawn = script["answers"]["fire"]
    assert isinstance(drawn, dict) and set(drawn) == {"rolled"}
    data = _replay(record)
    steps = data["steps"]
    fire_step = next(st for st in steps if st["clause"] == "C-3")  # type: ignore[union-attr]
    assert fire_step["data"]["source"] == "rolled"
    assert fire_step["data"]["card"].startswith(f"{drawn['rolled'][0]}-{drawn['rolled'][1]}")
