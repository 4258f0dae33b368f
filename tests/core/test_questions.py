"""Questions validate typed and scripted answers by one path, and carry their clause."""

from __future__ import annotations

import pytest

from referee.catalog import render
from referee.core.dice import DiceRoll, DiceSource, DiceSpec
from referee.core.errors import AnswerError
from referee.core.questions import (
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
)
from referee.core.text import Msg

TEXT = Msg.of("epic.q.cover", target="X")
ACTION = ChoiceQuestion(id="action", text=TEXT, clause="E-8",
                        choices=(Choice("advance", Msg.of("epic.action.advance")),
                                 Choice("double", Msg.of("epic.action.double"))),
                        default_value="advance")


def test_choice_accepts_its_values_in_any_case_and_the_default() -> None:
    assert ACTION.accept("double") == "double"
    assert ACTION.accept("DOUBLE") == "double"
    assert ACTION.accept("") == "advance"
    with pytest.raises(AnswerError):
        ACTION.accept("2")  # a position in the list is not an answer


def test_choice_reads_numbers_as_their_text() -> None:
    q = ChoiceQuestion(id="ap", text=TEXT, choices=(Choice("none", "none"), Choice("5", "5+")))
    assert q.accept(5) == "5"
    assert q.accept("5") == "5"
    with pytest.raises(AnswerError) as err:
        q.accept(1)
    assert render(err.value.msg) == "'1' is not one of: none, 5"


def test_choice_refuses_what_is_not_offered_and_names_the_legal_values() -> None:
    for raw in ("charge", 3, None):
        with pytest.raises(AnswerError) as err:
            ACTION.accept(raw)
        assert "advance, double" in render(err.value.msg)


def test_question_carries_id_clause_and_default() -> None:
    assert (ACTION.id, ACTION.clause, ACTION.default, ACTION.kind) == \
        ("action", "E-8", "advance", "choice")


def test_multi_choice_keeps_question_order_and_checks_counts() -> None:
    q = MultiChoiceQuestion(id="units", text=TEXT, min_count=1, max_count=2,
                            choices=(Choice("a", "A"), Choice("b", "B"), Choice("c", "C")))
    assert q.accept("c a") == ("a", "c")
    assert q.accept(["b"]) == ("b",)
    for bad in ("", "a b c", "a a", "d", 5):
        with pytest.raises(AnswerError):
            q.accept(bad)
    assert q.to_script(("a", "c")) == ["a", "c"]


def test_number_bounds_and_types() -> None:
    q = NumberQuestion(id="shots", text=TEXT, minimum=1, maximum=10, default_value=2)
    assert q.accept("7") == 7
    assert q.accept(7) == 7
    assert q.accept("") == 2
    for bad, reason in (("0", "below the least allowed, 1"), (11, "above the most allowed, 10"),
                        ("x", "not a whole number"), (True, "not a whole number"),
                        (2.5, "not a whole number")):
        with pytest.raises(AnswerError) as err:
            q.accept(bad)
        assert reason in render(err.value.msg)


def test_confirm_accepts_words_in_english_and_russian() -> None:
    q = ConfirmQuestion(id="cover", text=TEXT, default_value=False)
    assert [q.accept(x) for x in ("y", "Yes", "да", True)] == [True] * 4
    assert [q.accept(x) for x in ("n", "NO", "нет", False, "")] == [False] * 5
    with pytest.raises(AnswerError):
        q.accept("maybe")


def test_dice_question_typed_and_scripted_fail_alike() -> None:
    q = DiceQuestion(id="to-hit.x", text=TEXT, spec=DiceSpec(count=2, target=4))
    with pytest.raises(AnswerError) as typed:
        q.accept("4 7")
    with pytest.raises(AnswerError) as scripted:
        q.accept([4, 7])
    assert render(typed.value.msg) == render(scripted.value.msg)
    value = q.accept([4, 2])
    assert value == DiceRoll((4, 2), 1, DiceSource.TYPED)
    assert q.accept(value) == value
    assert q.to_script(value) == [4, 2]


# --- a compact line (LineQuestion) ----------------------------------------------------------

def test_an_entry_question_reads_typed_and_scripted_lines_the_same_way() -> None:
    from dataclasses import dataclass

    from referee.core.questions import LineQuestion
    from referee.render.display import answer_text, hint, typed_text

    @dataclass(frozen=True, kw_only=True)
    class Pairs(LineQuestion):
        def parse(self, text: str) -> tuple[tuple[int, str], ...]:
            out = []
            for part in text.split(","):
                count, _, name = part.strip().partition(" ")
                if not count.isdigit() or not name:
                    raise AnswerError(Msg.of("answer.error.number", given=part.strip()))
                out.append((int(count), name))
            return tuple(out)

        def format(self, value: tuple[tuple[int, str], ...]) -> str:
            return ", ".join(f"{n} {name}" for n, name in value)

    q = Pairs(id="units", text=Msg.of("epic.q.weapons"), default_value="1 inf")
    assert q.accept("3  inf,  2 av") == ((3, "inf"), (2, "av"))
    assert q.accept("") == ((1, "inf"),)  # Enter takes the default line
    assert q.accept(q.to_script(((3, "inf"),))) == ((3, "inf"),)  # a script replays it
    with pytest.raises(AnswerError):
        q.accept("three inf")
    with pytest.raises(AnswerError):
        q.accept(["3 inf"])
    assert answer_text(q, ((2, "av"),)) == "2 av"
    assert typed_text(q, q.default) == "1 inf"
    assert "1 inf" in hint(q)


def test_a_count_of_successes_is_offered_only_where_it_is_meant() -> None:
    """'=N' is offered where the rule needs only how many dice made the target (C-/E-/W-
    rolls to hit, saves, cancellations), and says what N counts; never for a sum."""
    from referee.render.display import hint

    count = DiceQuestion(id="save", text=Msg.of("epic.q.weapons"),
                         spec=DiceSpec(count=3, target=4, count_only=True))
    faces = DiceQuestion(id="sum", text=Msg.of("epic.q.weapons"), spec=DiceSpec(count=2))
    assert "=N" in hint(count) and "4+" in hint(count) and "hits" not in hint(count)
    assert "=N" not in hint(faces)
