"""Flames of War allocation driven through a real pseudo-terminal (pexpect): the defender
types a complete allocation that breaks F-3, is told why and asked again; then chooses hit by
hit with the arrow keys among the legal teams only (F-1)."""

from __future__ import annotations

import sys

import pytest

from tests.pty_support import DOWN, ENTER, Session, choose

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


DECLARATION = "transcripts/scripts/fow-example-1.toml"
MODES = ["accept the referee's proposal", "choose hit by hit", "type a complete allocation"]
Q_MODE = "The defender allocates 3 hit(s): how?"
Q_TEAMS = "Type the team for each of the 3 hit(s)"
Q_RESULTS = "Every hit is allocated. Results?"


@pytest.mark.clause("F-1")
def test_F1_complete_allocation_refused_with_its_clause_then_accepted(spawn) -> None:
    s = Session(spawn("attack", "fow", "--declaration", DECLARATION, "--seed", "3"))
    choose(s, Q_MODE, MODES, MODES[0], "type a complete allocation")
    s.expect(Q_TEAMS)
    s.child.sendline("a a b")
    s.expect("breaks F-3")
    s.expect(Q_TEAMS)  # asked again; nothing resolved yet
    assert "Outcome:" not in s.text
    s.child.sendline("t a b")
    s.expect(Q_RESULTS)
    s.child.send(ENTER)  # default: stop after the allocation
    s.expect("Outcome: 3 hit(s) allocated to 3 team(s); 0 ignored")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "the defender's allocation (t a b) is legal" in " ".join(shown.split())


@pytest.mark.clause("F-1")
def test_F1_hit_by_hit_offers_only_legal_teams(spawn) -> None:
    s = Session(spawn("attack", "fow", "--declaration", DECLARATION, "--seed", "3"))
    choose(s, Q_MODE, MODES, MODES[0], "choose hit by hit")
    s.expect("Hit 1 (from Rifle team X): which team takes it?")
    s.child.send(DOWN * 2 + ENTER)  # Infantry A, Infantry B, Transport T: the transport
    s.expect("Hit 2 (from Rifle team X): which team takes it?")
    s.expect("Infantry B (Infantry, holds 0)")
    s.child.send(ENTER)  # the default: the referee's plan
    s.expect(Q_RESULTS)
    prompt = s.text.split("Hit 2 (from Rifle team X)")[-1]
    assert "Transport T" not in prompt  # a second hit on T would break F-3: not offered
    s.child.send(ENTER)
    s.expect("Outcome:")
    assert s.finish() == 0
    flat = " ".join(s.text.split())
    assert "hit 3: only Infantry B keeps a legal allocation possible" in flat
