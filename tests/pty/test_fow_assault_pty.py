"""The whole Flames of War assault driven through a real pseudo-terminal (pexpect): Enter
takes the whole assault, each side is one line (a wrong line is refused at once and asked
again), the dice are typed as they fall, and Ctrl-C with --record keeps what was answered."""

from __future__ import annotations

import sys
import tomllib

import pytest

from tests.support.pty import CTRL_C, ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


@pytest.mark.clause("F-A18")
def test_the_whole_assault_typed_at_a_terminal(spawn, tmp_path) -> None:
    record = tmp_path / "assault.toml"
    s = Session(spawn("attack", "fow", "--seed", "1", "--record", str(record), "--working"))
    s.expect("What do you resolve?")
    s.child.send(ENTER)  # the default: the whole assault
    s.expect("Defending side: teams and ratings")
    s.child.sendline("3 inf rof 2, gun rof 1")
    s.expect("say the platoon's Skill")  # refused at once; asked again
    s.child.sendline("3 inf rof 2, gun rof 1, trained confident")
    s.expect("Names of the defending teams, in order")
    s.child.send(ENTER)
    s.expect("Charging side: teams and ratings")
    s.child.sendline("3 inf, veteran fearless")
    s.expect("Names of the charging teams, in order")
    s.child.send(ENTER)
    s.expect("Defensive fire: 7 dice, each hitting on 4+")
    s.child.sendline("1 4 6 2 3 1 2")
    s.expect("which charging teams are destroyed or bailed out?")
    s.child.sendline("a3 bailed")
    s.expect("only tanks bail out")
    s.child.sendline("a3 destroyed")
    s.expect("Attacker, roll to hit: one die for each of 2 teams (3+)")
    s.child.sendline("5 6")
    s.expect("Defender: accept the referee's allocation of 2 hits shown above?")
    s.child.send(ENTER)
    s.expect("Defender, the counterattack test: one die")
    s.child.sendline("2")
    s.expect("Outcome: Attacker wins the assault after 1 round")
    assert s.finish() == 0
    flat = " ".join(s.text.split())
    assert "Traceback" not in flat
    assert "the defending platoon (Confident, 4+) fails" in flat
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["defensive-fire.results"] == "a3 destroyed"
    assert script["answers"]["round.1.motivation"] == [2]


def test_ctrl_c_in_an_assault_keeps_the_answers_given(spawn, tmp_path) -> None:
    record = tmp_path / "assault.toml"
    s = Session(spawn("attack", "fow", "--seed", "1", "--record", str(record), "--working"))
    s.expect("What do you resolve?")
    s.child.send(ENTER)
    s.expect("Defending side: teams and ratings")
    s.child.sendline("2 inf rof 1, veteran confident")
    s.expect("Names of the defending teams, in order")
    s.child.send(CTRL_C)
    code = s.finish()
    assert code != 0 and "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["assault.defending"] == "2 inf rof 1, veteran confident"
