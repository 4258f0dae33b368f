"""The Epic allocation question driven through a real pseudo-terminal (pexpect): the defender
is offered the legal units only, picks with the arrow keys, and the recording replays."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from tests.pty_support import DOWN, ENTER, ROOT, TIMEOUT, Session, child_env

pytestmark = [pytest.mark.pty,
              pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pty")]

DECLARATION = "transcripts/scripts/epic-legal-options.toml"  # a declaration only


@pytest.mark.clause("E-10")
def test_E10_defender_offered_only_legal_units_at_a_terminal(spawn, tmp_path) -> None:
    record = tmp_path / "alloc.toml"
    s = Session(spawn("attack", "epic", "--declaration", DECLARATION, "--seed", "4",
                      "--record", str(record)))
    s.expect("What action is Grey Company (invented) taking?")
    s.child.send(ENTER)  # Advance, the default
    s.expect("Roll to hit for Rifle: 1 dice, 5+ hits")
    s.child.sendline("6")
    s.expect("Hit 1 (AP): which unit takes it?")
    s.expect("Crew 2 (INF, 12 cm, 0 hit(s) so far)")
    # the tank is nearest, but AP hits cannot go to armour: it is not offered (E-10)
    assert "Tank" not in s.text
    s.child.send(DOWN + ENTER)
    s.expect("Save for Crew 2: 1 dice, 6+ saves")
    s.child.sendline("4")
    s.expect("Outcome: Red Hill Battery (invented): 1 unit(s) destroyed")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["allocate.normal.1"] == "crew-2"
    replay = subprocess.run([sys.executable, "-m", "referee", "run", str(record)], cwd=ROOT,
                            capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT,
                            env=child_env())
    assert replay.returncode == 0, replay.stderr
    assert "Crew 2 is destroyed" in replay.stdout
