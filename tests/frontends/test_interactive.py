"""The questionary front end, driven in-process through prompt_toolkit pipe input: every
question kind, a refused die asked again, Ctrl-C, and a whole attack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from referee import api
from referee.core.dice import DiceRoll, DiceSource, DiceSpec, KeyedDice
from referee.core.questions import (
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
)
from referee.core.text import Msg
from referee.frontends.interactive import InteractivePort

DOWN, ENTER, SPACE, CTRL_C = "\x1b[B", "\r", " ", "\x03"
TEXT = Msg.of("epic.q.weapons")


@pytest.fixture
def terminal() -> Iterator[tuple[InteractivePort, Any, list[str]]]:
    """A port reading keys from a pipe; ``said`` collects what it printed besides prompts.
    The keys of several prompts are queued at once: kept for the next prompt."""
    said: list[str] = []
    with create_pipe_input() as pipe:
        port = InteractivePort(KeyedDice(4), say=said.append, input=pipe, output=DummyOutput(),
                               keep_typed_ahead=True)
        yield port, pipe, said


def test_keys_typed_before_a_prompt_never_answer_it() -> None:
    """Issue 27: the keys read past an answer (typed ahead) are dropped when the next prompt
    starts, and the player is told so; only keys typed at the prompt answer it."""
    said: list[str] = []
    with create_pipe_input() as pipe:
        def say(text: str) -> None:
            said.append(text)
            if "not taken" in text:
                pipe.send_text("3" + ENTER)  # typed once the question is there

        port = InteractivePort(KeyedDice(4), say=say, input=pipe, output=DummyOutput())
        q = NumberQuestion(id="n", text=TEXT, minimum=1, maximum=5, default_value=2)
        pipe.send_text("9" + ENTER + "4" + ENTER)  # 4 typed ahead of the question asked again
        assert port.ask(q) == 3
    assert said == ["  ✗ 9 is above the most allowed, 5",
                    "  (keys typed before this question were not taken: answer it now)"]


def test_after_a_refused_answer_enter_alone_takes_no_default() -> None:
    """Issue 27: a refused answer never flips a default the player declined: Enter alone
    after it is refused too, and the question is answered again."""
    said: list[str] = []
    with create_pipe_input() as pipe:
        port = InteractivePort(KeyedDice(4), say=said.append, input=pipe, output=DummyOutput(),
                               keep_typed_ahead=True)
        q = NumberQuestion(id="n", text=TEXT, minimum=1, maximum=5, default_value=2)
        pipe.send_text("x" + ENTER + ENTER + "4" + ENTER)
        assert port.ask(q) == 4
    assert len(said) == 2 and "Enter alone does not take the default" in said[1]


def test_choice_is_picked_with_arrow_keys(terminal) -> None:
    port, pipe, _ = terminal
    q = ChoiceQuestion(id="a", text=TEXT, choices=(Choice("x", "X"), Choice("y", "Y"),
                                                    Choice("z", "Z")), default_value="x")
    pipe.send_text(DOWN + DOWN + ENTER)
    assert port.ask(q) == "z"


def test_multi_choice_with_space_and_enter(terminal) -> None:
    port, pipe, _ = terminal
    q = MultiChoiceQuestion(id="m", text=TEXT, choices=(Choice("x", "X"), Choice("y", "Y")))
    pipe.send_text(SPACE + DOWN + SPACE + ENTER)
    assert port.ask(q) == ("x", "y")


def test_number_default_and_refusal(terminal) -> None:
    port, pipe, said = terminal
    q = NumberQuestion(id="n", text=TEXT, minimum=1, maximum=5, default_value=2)
    pipe.send_text("9" + ENTER + "4" + ENTER)
    assert port.ask(q) == 4
    assert said == ["  ✗ 9 is above the most allowed, 5"]
    pipe.send_text(ENTER)
    assert port.ask(q) == 2


def test_confirm_takes_one_key(terminal) -> None:
    port, pipe, _ = terminal
    q = ConfirmQuestion(id="c", text=TEXT, default_value=False)
    pipe.send_text("y")
    assert port.ask(q) is True
    pipe.send_text(ENTER)
    assert port.ask(q) is False


def test_bad_die_is_refused_with_a_reason_and_asked_again(terminal) -> None:
    port, pipe, said = terminal
    q = DiceQuestion(id="d", text=TEXT, spec=DiceSpec(count=3, target=4, count_only=True))
    pipe.send_text("5 7 1" + ENTER + "5 6" + ENTER + "5 6 1" + ENTER)
    assert port.ask(q) == DiceRoll((5, 6, 1), 2, DiceSource.TYPED)
    assert said == ["  ✗ 7 is not a face of a d6", "  ✗ expected 3 dice, got 2"]


def test_enter_at_a_dice_prompt_rolls_from_the_seed_and_shows_the_faces(terminal) -> None:
    port, pipe, said = terminal
    q = DiceQuestion(id="d", text=TEXT, spec=DiceSpec(count=3, target=4))
    pipe.send_text(ENTER)
    got = port.ask(q)
    assert got.source is DiceSource.ROLLED
    from referee.core.dice import roll

    assert got == roll(q.spec, KeyedDice(4).stream("d"))
    assert said == [f"  {' '.join(map(str, got.faces))} (rolled)"]


def test_count_of_hits_is_accepted(terminal) -> None:
    port, pipe, _ = terminal
    q = DiceQuestion(id="d", text=TEXT, spec=DiceSpec(count=3, target=4, count_only=True))
    pipe.send_text("=2" + ENTER)
    assert port.ask(q) == DiceRoll(None, 2, DiceSource.TYPED)


def test_ctrl_c_reaches_the_caller(terminal) -> None:
    port, pipe, _ = terminal
    pipe.send_text(CTRL_C)
    with pytest.raises(KeyboardInterrupt):
        port.ask(NumberQuestion(id="n", text=TEXT))


def test_a_whole_attack_typed_at_the_prompts(terminal) -> None:
    port, pipe, _ = terminal
    keys = [DOWN + ENTER,  # only the roll to hit
            "1" + ENTER,  # kinds of weapon
            "4" + ENTER,  # shots
            DOWN * 4 + ENTER,  # AP 5+
            ENTER,  # AT none
            DOWN + ENTER,  # Double
            "n",  # not in cover
            "5 6 2 1" + ENTER]
    pipe.send_text("".join(keys))
    plan = api.plan_attack("epic", seed=4)
    result = api.play(plan, port)
    assert result.outcome_data["hits"] == {"ap": 1, "at": 0}


def test_typing_filters_a_list_and_enter_takes_the_first_left(terminal) -> None:
    port, pipe, _ = terminal
    q = ChoiceQuestion(id="ap", text=TEXT, default_value="none",
                       choices=tuple(Choice(v, v if v == "none" else f"{v}+")
                                     for v in ("none", "2", "3", "4", "5", "6")))
    pipe.send_text("5" + ENTER)  # a to-hit value typed as 5 means 5+
    assert port.ask(q) == "5"
    pipe.send_text("6x" + "\x7f" + ENTER)  # a mistyped letter taken back
    assert port.ask(q) == "6"


def test_typing_filters_a_list_of_russian_labels(terminal) -> None:
    port, pipe, _ = terminal
    q = ChoiceQuestion(id="ground", text=TEXT, default_value="open",
                       choices=(Choice("open", "открытая местность"), Choice("woods", "лес"),
                                Choice("ruins", "руины")))
    pipe.send_text("ру" + ENTER)
    assert port.ask(q) == "ruins"


def test_ctrl_d_at_any_prompt_ends_like_ctrl_c(terminal) -> None:
    port, pipe, _ = terminal
    for question in (NumberQuestion(id="n", text=TEXT),
                     ConfirmQuestion(id="c", text=TEXT),
                     ChoiceQuestion(id="a", text=TEXT, choices=(Choice("x", "X"),)),
                     DiceQuestion(id="d", text=TEXT, spec=DiceSpec(count=2))):
        pipe.send_text("\x04")
        with pytest.raises(KeyboardInterrupt):
            port.ask(question)



# --- names the game keeps, completed (issue 27) ---------------------------------------------

def _completions(names: tuple[str, ...], typed: str) -> list[str]:
    from prompt_toolkit.document import Document

    from referee.frontends.interactive import _completer

    return [c.text for c in _completer(names).get_completions(Document(typed), None)]


def test_a_kept_name_completes_from_the_start_of_the_line_or_of_the_word() -> None:
    names = ("Grey Company", "Grey Guard", "Red Company", "ag", "r1", "r2")
    assert _completions(names, "grey c") == ["Grey Company"]  # a name of several words
    assert _completions(names, "Gr") == ["Grey Company", "Grey Guard"]
    assert _completions(names, "p1 p2 vs a") == ["ag"]  # the word being typed
    assert _completions(names, "p1,r") == ["Red Company", "r1", "r2"]
    assert _completions(names, "ag") == []  # typed whole: nothing to add
    assert _completions(names, "") == []


def test_the_epic_formation_lines_offer_the_formations_the_game_keeps() -> None:
    """Issue 27: the firing and target lines complete the names of the formations the
    game keeps (a kept formation may be named alone: ``Grey Company:``)."""
    from referee.core.options import resolve_options
    from referee.rulesets import find_ruleset
    from referee.rulesets.base import AttackContext
    from referee.rulesets.epic.typed import ask_lines

    class Seen:
        def __init__(self) -> None:
            self.asked: list[Any] = []

        def ask(self, question: Any) -> Any:
            self.asked.append(question)
            return question.accept({"firing": "Grey Company:",
                                    "target": "Red Company:"}[question.id])

    army = {"side": "Grey", "weapons": [{"name": "AP4+", "shots": 4, "ap": 4}],
            "units": [{"name": "Shooter 1", "weapons": ["AP4+"]},
                      {"name": "Infantry 1", "type": "INF", "armour": 6}]}
    state = {"formations": {n: {"blast_markers": 0, "broken": False, "destroyed": [],
                                "army": army} for n in ("Grey Company", "Red Company")}}
    seen = Seen()
    info = find_ruleset("epic")
    ask_lines(AttackContext(seen, resolve_options(info.option_specs(), {}),  # type: ignore
                            state=state))
    assert [q.suggestions for q in seen.asked] == [("Grey Company", "Red Company")] * 2
