"""Dice specs, typed and scripted dice answers, and seeded rolls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.catalog import render
from referee.core.dice import (
    ROLL,
    DiceRoll,
    DiceSource,
    DiceSpec,
    KeyedDice,
    parse_dice_text,
    parse_dice_value,
    roll,
)
from referee.core.errors import AnswerError

FOUR_UP = DiceSpec(count=4, target=4, auto_fail=(1,), count_only=True)


def reason(excinfo: pytest.ExceptionInfo[AnswerError]) -> str:
    return render(excinfo.value.msg)


@pytest.mark.parametrize("text", ["5 6 2 1", "5,6,2,1", "5, 6, 2, 1", " 5 6  2 1 ", "5;6;2;1"])
def test_faces_typed_with_spaces_or_commas(text: str) -> None:
    got = parse_dice_text(FOUR_UP, text)
    assert got == DiceRoll((5, 6, 2, 1), 2, DiceSource.TYPED)


@pytest.mark.parametrize("text", ["=3", "= 3", "3 hits", "3 successes"])
def test_number_of_successes_where_the_rule_needs_only_that(text: str) -> None:
    assert parse_dice_text(FOUR_UP, text) == DiceRoll(None, 3, DiceSource.TYPED)


@pytest.mark.parametrize("text", ["", "   ", "roll", "ROLL"])
def test_empty_answer_asks_the_program_to_roll(text: str) -> None:
    assert parse_dice_text(FOUR_UP, text) == ROLL


def test_wrong_number_of_dice_is_refused_with_a_reason() -> None:
    with pytest.raises(AnswerError) as err:
        parse_dice_text(FOUR_UP, "5 6 2")
    assert reason(err) == "expected 4 dice, got 3"


def test_face_outside_the_die_is_refused_with_a_reason() -> None:
    with pytest.raises(AnswerError) as err:
        parse_dice_text(FOUR_UP, "5 6 9 1")
    assert reason(err) == "9 is not a face of a d6"
    with pytest.raises(AnswerError):
        parse_dice_text(FOUR_UP, "0 6 2 1")


def test_count_of_successes_refused_where_faces_matter() -> None:
    spec = DiceSpec(count=2, target=4)  # count_only=False
    with pytest.raises(AnswerError) as err:
        parse_dice_text(spec, "=1")
    assert "type every face" in reason(err)


def test_more_successes_than_dice_is_refused() -> None:
    with pytest.raises(AnswerError) as err:
        parse_dice_text(FOUR_UP, "=5")
    assert reason(err) == "5 successes from 4 dice is impossible"


def test_unreadable_text_is_refused() -> None:
    with pytest.raises(AnswerError) as err:
        parse_dice_text(FOUR_UP, "five six")
    assert "cannot read 'five six'" in reason(err)


def test_natural_fail_face_never_succeeds() -> None:
    spec = DiceSpec(count=3, target=1, auto_fail=(1,))
    assert spec.successes((1, 1, 2)) == 1


def test_script_values_take_the_same_path_as_typed_ones() -> None:
    assert parse_dice_value(FOUR_UP, [5, 6, 2, 1]).successes == 2
    assert parse_dice_value(FOUR_UP, "=2") == DiceRoll(None, 2, DiceSource.TYPED)
    rolled = parse_dice_value(FOUR_UP, {"rolled": [4, 4, 1, 1]})
    assert rolled == DiceRoll((4, 4, 1, 1), 2, DiceSource.ROLLED)
    with pytest.raises(AnswerError) as err:
        parse_dice_value(FOUR_UP, [5, 6, 9, 1])
    assert reason(err) == "9 is not a face of a d6"  # the same reason as at the prompt
    for bad in (3, [5, "6", 2, 1], {"faces": [1, 2, 3, 4]}, True):
        with pytest.raises(AnswerError):
            parse_dice_value(FOUR_UP, bad)


def test_to_script_round_trips() -> None:
    for value in (DiceRoll((5, 6, 2, 1), 2, DiceSource.TYPED),
                  DiceRoll(None, 3, DiceSource.TYPED),
                  DiceRoll((4, 4, 1, 1), 2, DiceSource.ROLLED)):
        assert parse_dice_value(FOUR_UP, value.to_script()) == value


def test_describe_states_what_is_rolled() -> None:
    assert render(FOUR_UP.describe()) == "4d6, success on 4+ (a natural 1 always fails)"
    assert render(DiceSpec(count=8, target=4).describe()) == "8d6, success on 4+"
    assert render(DiceSpec(count=2).describe()) == "2d6"


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=1, max_value=7),
       st.integers(min_value=0, max_value=2**32))
def test_rolls_are_deterministic_for_a_seed_and_never_exceed_the_dice(
        count: int, target: int, seed: int) -> None:
    spec = DiceSpec(count=count, target=target, auto_fail=(1,))
    first, second = roll(spec, KeyedDice(seed).stream("q")), roll(spec, KeyedDice(seed).stream("q"))
    assert first == second
    assert first.faces is not None and len(first.faces) == count
    assert all(1 <= f <= 6 for f in first.faces)
    assert 0 <= first.successes <= count
    assert first.successes == sum(1 for f in first.faces if f != 1 and f >= target)


def test_seeded_dice_count_what_they_rolled() -> None:
    dice = KeyedDice(5)
    roll(DiceSpec(count=3), dice.stream("a"))
    roll(DiceSpec(count=2), dice.stream("b"))
    assert dice.rolled == 5
