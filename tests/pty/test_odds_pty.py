"""Odds at the table, through a real pseudo-terminal: the chart before the roll prompt, the
percentile after the roll; ``--no-odds`` shows neither."""

from __future__ import annotations

import sys

import pytest

from tests.pty.test_pty import (
    ACTIONS,
    DICE_HINT,
    Q_ACTION,
    Q_COVER,
    Q_ROLL,
    answer_declaration,
    choose,
)
from tests.support.pty import Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


def _to_the_roll(s: Session) -> None:
    answer_declaration(s, shots=4, ap="5+")
    choose(s, Q_ACTION, ACTIONS, "Advance", "Double")
    s.expect(Q_COVER)
    s.child.send("n")


def test_odds_come_before_the_roll_and_the_percentile_after_it(spawn) -> None:
    s = Session(spawn("attack", "epic", "--seed", "11"))
    _to_the_roll(s)
    s.expect("Odds: ")  # the chart in brief, before the prompt asks for the dice
    s.expect("hits (mean 0.67)")
    s.expect(Q_ROLL)
    s.expect(DICE_HINT)
    before_roll = s.text
    assert before_roll.index("Odds: ") < before_roll.rindex(Q_ROLL)
    s.child.sendline("5 6 2 1")
    s.expect("percentile")
    s.expect("Outcome: 1 AP hit")
    assert s.finish() == 0
    assert "Traceback" not in s.text


def test_no_odds_shows_neither_chart_nor_percentile(spawn) -> None:
    s = Session(spawn("attack", "epic", "--seed", "11", "--no-odds"))
    _to_the_roll(s)
    s.expect(Q_ROLL)
    s.expect(DICE_HINT)
    s.child.sendline("5 6 2 1")
    s.expect("Outcome: 1 AP hit")
    assert s.finish() == 0
    assert "Odds" not in s.text and "percentile" not in s.text
