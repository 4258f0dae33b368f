"""The distribution value the odds are built from (``referee.odds.dist.Dist``) against an
independent dice library, dyce, as the oracle: the referee itself no longer uses dyce
(issue 25, item 3: ``benchmarks/dist_vs_dyce.py`` measured the two; ``Dist`` was kept), so
these check that its closed forms give dyce's exact counts, beyond what enumerating every
face can reach."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dyce import H
from dyce.h import aggregate_weighted
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.odds.dist import Dist


def same(dist: Dist, h: H[int]) -> bool:
    """The same outcomes with the same exact chances (dyce keeps zero counts; Dist not)."""
    return dict(dist.items()) == {k: p for k, p in h.probability_items() if p}


chances = st.builds(Fraction, st.integers(0, 12), st.integers(1, 12)).filter(
    lambda p: 0 <= p <= 1)


@given(st.integers(0, 250), chances)
@settings(max_examples=60, deadline=None)
def test_a_binomial_is_dyces_count_of_successes(n: int, p: Fraction) -> None:
    expected = n @ H({1: p.numerator, 0: p.denominator - p.numerator}) if n else H({0: 1})
    assert same(Dist.binomial(n, p), expected)


@given(st.integers(0, 40), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20]))
@settings(max_examples=40, deadline=None)
def test_the_total_of_n_dice_is_dyces(n: int, sides: int) -> None:
    expected = n @ H(sides) if n else H({0: 1})
    assert same(Dist.die(sides).sum_of(n), expected)
    assert Dist.die(sides).sum_of(n).mean() == Fraction(n * (sides + 1), 2)


def test_the_total_of_rolls_is_the_repeated_sum() -> None:
    d = Dist.from_counts({0: 2, 3: 1, 5: 4})
    total = Dist.point(0)
    for n in range(9):
        assert d.sum_of(n) == total
        total = total + d
    with pytest.raises(ValueError, match="negative"):
        d.sum_of(-1)


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 8), chances), min_size=1,
                max_size=4))
@settings(max_examples=40, deadline=None)
def test_a_mixture_and_a_two_stage_roll_are_dyces(parts: list[tuple[int, int, Fraction]]
                                                   ) -> None:
    weights = [Fraction(w) for w, _, _ in parts]
    weights = [w / sum(weights) for w in weights]
    dists = [Dist.binomial(n, p) for _, n, p in parts]
    den = max(w.denominator for w in weights) * 720720
    expected = aggregate_weighted(
        (n @ H({1: p.numerator, 0: p.denominator - p.numerator}) if n else H({0: 1}),
         int(w * den)) for w, (_, n, p) in zip(weights, parts, strict=True))
    assert same(Dist.mixture(zip(weights, dists, strict=True)), expected)
    sixes = Dist.binomial(5, Fraction(1, 6))
    then = sixes.then(lambda k: Dist.binomial(k, Fraction(1, 2)))
    assert then == Dist.binomial(5, Fraction(1, 12))  # 7+ as 6 then 4+


def test_sums_differences_and_mapped_outcomes_are_dyces() -> None:
    d6 = Dist.die(6)
    assert same(d6 + d6.map(lambda f: -f), H(6) - H(6))
    assert same((d6 + d6).map(lambda t: max(t - 7, 0)), (2 @ H(6)).apply(lambda t: max(t - 7, 0)))
    ge4 = H(6).ge(4)
    assert d6.at_least(4) == dict(ge4.probability_items())[True]
