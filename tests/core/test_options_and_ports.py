"""Ruleset options (named readings of ambiguous rules) and the non-interactive ports."""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalog import render
from referee.core.dice import DiceSource, DiceSpec, KeyedDice
from referee.core.errors import (
    MissingAnswerError,
    ScriptError,
    UnknownIdError,
    UnusedAnswerError,
    UsageError,
)
from referee.core.options import OptionSpec, OptionValueError, parse_assignments, resolve_options
from referee.core.questions import ConfirmQuestion, DiceQuestion, NumberQuestion
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort, SequencePort
from referee.frontends.wrappers import AutoDicePort, EchoPort, ScriptingPort
from referee.rulesets import find_ruleset, option_specs

SPECS = (OptionSpec("allocation-by", "defender", "E-X2", Msg.of("kind.option"),
                    ("defender", "attacker")),
         OptionSpec("overwatch-open-ground-cover", False, "E-X9", Msg.of("kind.option")),
         OptionSpec("limit", 18, None, Msg.of("kind.option")))


def test_defaults_and_overrides_from_text_or_values() -> None:
    opts = resolve_options(SPECS, {})
    assert dict(opts.values) == {"allocation-by": "defender",
                                 "overwatch-open-ground-cover": False, "limit": 18}
    assert opts.non_default == ()
    opts = resolve_options(SPECS, {"allocation-by": "attacker",
                                   "overwatch-open-ground-cover": "yes", "limit": 20})
    assert opts["overwatch-open-ground-cover"] is True
    assert opts.non_default == ("allocation-by", "overwatch-open-ground-cover", "limit")


def test_bad_option_values_and_names() -> None:
    for overrides in ({"allocation-by": "nobody"}, {"overwatch-open-ground-cover": "maybe"},
                      {"limit": "lots"}, {"limit": True}):
        with pytest.raises(OptionValueError):
            resolve_options(SPECS, overrides)
    with pytest.raises(UnknownIdError) as err:
        resolve_options(SPECS, {"alocation-by": "x"})
    assert err.value.suggestions[0] == "allocation-by"
    with pytest.raises(UsageError):
        parse_assignments(["allocation-by"])
    assert parse_assignments([" a = b ", "c=d=e"]) == {"a": "b", "c": "d=e"}


@pytest.mark.clause("E-X1")
@pytest.mark.clause("E-X10")
def test_epic_options_default_to_the_briefs_handling() -> None:
    """Each ambiguity of the Epic brief is a named option whose default is its handling."""
    specs = {s.clause: s for s in option_specs(find_ruleset("epic").id)}
    assert specs["E-X1"].default == "under-fire"
    assert specs["E-X2"].default == "defender"
    assert specs["E-X3"].default is False
    assert specs["E-X4"].default == "forbidden"
    assert specs["E-X5"].default == "clamp"
    assert specs["E-X6"].default == "defender-chooses"
    assert specs["E-X7"].default == "ask-defender"
    assert specs["E-X8"].default == "target-formation"
    assert specs["E-X9"].default is False
    assert specs["E-X10"].default == "table"


NUMBER = NumberQuestion(id="n", text=Msg.of("epic.q.weapons"), minimum=1, default_value=2)
COVER = ConfirmQuestion(id="cover", text=Msg.of("epic.q.cover", target="T"))
DICE = DiceQuestion(id="d", text=Msg.of("epic.q.weapons"), spec=DiceSpec(count=2, target=4))


def test_answer_port_is_strict() -> None:
    port = AnswerPort({"n": 3, "extra": 1}, KeyedDice(1), file="f.toml")
    assert port.ask(NUMBER) == 3
    with pytest.raises(MissingAnswerError) as missing:
        port.ask(COVER)
    assert render(missing.value.msg) == "f.toml: no answer for question 'cover'"
    with pytest.raises(UnusedAnswerError) as unused:
        port.finish()
    assert render(unused.value.msg) == "f.toml: answers that no question asked for: extra"


def test_answer_port_defaults_and_rolls_only_when_allowed() -> None:
    port = AnswerPort({}, KeyedDice(1), use_defaults=True, roll_missing_dice=True)
    assert port.ask(NUMBER) == 2
    assert port.ask(DICE).source is DiceSource.ROLLED
    with pytest.raises(MissingAnswerError):
        AnswerPort({}, KeyedDice(1)).ask(DICE)


def test_answer_port_names_the_field_of_a_refused_answer() -> None:
    text = 'ruleset = "epic"\n[answers]\nn = 0\n'
    with pytest.raises(ScriptError) as err:
        AnswerPort({"n": 0}, KeyedDice(1), file="f.toml", text=text).ask(NUMBER)
    assert render(err.value.msg) == "f.toml, line 3 (answers.n): 0 is below the least allowed, 1"


def test_sequence_port_takes_answers_in_order_and_refuses_leftovers() -> None:
    port = SequencePort(["4", "yes", "extra"], KeyedDice(1))
    assert (port.ask(NUMBER), port.ask(COVER)) == (4, True)
    with pytest.raises(UnusedAnswerError) as err:
        port.finish()
    assert err.value.question_ids == ("#3",)


def test_wrappers_compose_auto_dice_recording_and_echo() -> None:
    shown: list[tuple[str, Any]] = []
    inner = AnswerPort({"n": 5}, KeyedDice(1))
    port = ScriptingPort(EchoPort(AutoDicePort(inner, KeyedDice(9)),
                                  lambda q, v: shown.append((q.id, v))))
    assert port.ask(NUMBER) == 5
    rolled = port.ask(DICE)
    assert rolled.source is DiceSource.ROLLED
    assert port.answers == {"n": 5, "d": {"rolled": list(rolled.faces)}}
    assert [i for i, _ in shown] == ["n", "d"]
