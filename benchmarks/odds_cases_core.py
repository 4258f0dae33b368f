"""Odds cases of the shared machinery: the plain odds of a dice question (no ruleset)."""

from __future__ import annotations

from dyce import H
from odds_bench import Case

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.generic import plain


def _question(count: int, target: int | None, sides: int = 6) -> DiceQuestion:
    return DiceQuestion(id="bench", text=Msg.of("odds.value", value=count),
                        spec=DiceSpec(count=count, sides=sides, target=target))


CASES = [
    Case("plain: 30 dice needing 4+", True, lambda: plain(_question(30, 4)),
         lambda: 30 @ H(6).ge(4)),
    Case("plain: total of 2d6", True, lambda: plain(_question(2, None)),
         lambda: 2 @ H(6)),
    Case("plain: 60 dice needing 5+", False, lambda: plain(_question(60, 5)),
         lambda: 60 @ H(6).ge(5)),
]
