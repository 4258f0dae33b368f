"""The plain odds of a dice question from its ``DiceSpec`` alone: the number of successes
when a face is needed, else the total of the faces. Resolvers whose rolls mean more (a
two-stage roll, a card drawn from a deck, the end states of the attack) name their own odds
function through ``OddsRef``; every other dice question gets these."""

from __future__ import annotations

from fractions import Fraction

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import OddsReport, successes, total


def success_chance(spec: DiceSpec) -> tuple[int, int]:
    """Faces that succeed, out of the die's sides."""
    return sum(1 for f in range(1, spec.sides + 1) if spec.is_success(f)), spec.sides


def successes_dist(spec: DiceSpec, count: int | None = None) -> Dist:
    """Successes among ``count`` (default: the spec's) dice: the binomial closed form in
    integers (exact, and fast for thousands of dice)."""
    good, sides = success_chance(spec)
    return Dist.binomial(spec.count if count is None else count, Fraction(good, sides))


def total_dist(count: int, sides: int) -> Dist:
    """The total of ``count`` dice of ``sides`` sides."""
    return Dist.die(sides).sum_of(count)


def plain(question: DiceQuestion) -> OddsReport:
    spec = question.spec
    if spec.target is not None:
        return OddsReport(spec.describe(), Msg.of("odds.unit.successes"),
                          successes_dist(spec), successes)
    return OddsReport(spec.describe(), Msg.of("odds.unit.total"),
                      total_dist(spec.count, spec.sides), total)


def report_for(question: DiceQuestion) -> OddsReport:
    """The odds of ``question``: its own odds function, or the plain odds of its dice."""
    if question.odds is not None:
        report = question.odds.compute(question)
        assert isinstance(report, OddsReport)
        return report
    return plain(question)
