"""How a question and its answer read on screen; shared by the terminal and transcripts."""

from __future__ import annotations

from typing import Any

from referee.catalog import render
from referee.core.dice import DiceRoll, DiceSource
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
    Question,
)
from referee.core.text import Msg


def labels(question: ChoiceQuestion | MultiChoiceQuestion) -> dict[str, str]:
    return {c.value: render(c.label) for c in question.choices}


def dice_text(roll: DiceRoll) -> str:
    shown = " ".join(map(str, roll.faces)) if roll.faces is not None else f"={roll.successes}"
    label = roll.label()
    if label is not None:
        shown = f"{shown} {render(label)}"
    if roll.source is DiceSource.ROLLED:
        shown = render(Msg.of("dice.shown_rolled", faces=shown))
    return shown


def answer_text(question: Question, value: Any) -> str:
    if isinstance(question, ChoiceQuestion):
        return labels(question)[value]
    if isinstance(question, MultiChoiceQuestion):
        names = labels(question)
        return ", ".join(names[v] for v in value) or "-"
    if isinstance(question, ConfirmQuestion):
        return render(Msg.of("word.yes" if value else "word.no"))
    if isinstance(question, DiceQuestion):
        return dice_text(value)
    return str(value)


def typed_from_shown(question: Question, shown: str) -> str:
    """What a player typed to get ``shown`` (the inverse of ``answer_text``), for replaying
    a transcript: rolled dice become an empty line, so the seed rolls them again."""
    if isinstance(question, DiceQuestion):
        rolled = render(Msg.of("dice.shown_rolled", faces="\0")).split("\0")
        if shown.startswith(rolled[0]) and shown.endswith(rolled[1]):
            return ""
        return shown
    if isinstance(question, ChoiceQuestion):
        by_label = {label: value for value, label in labels(question).items()}
        return by_label.get(shown, shown)
    if isinstance(question, MultiChoiceQuestion):
        by_label = {label: value for value, label in labels(question).items()}
        return " ".join(by_label.get(s.strip(), s.strip()) for s in shown.split(",")
                        if s.strip() not in ("", "-"))
    return shown


def hint(question: Question) -> str:
    """The short hint beside a typed prompt: how to answer."""
    parts = []
    if isinstance(question, NumberQuestion) and question.default is not None:
        parts.append(render(Msg.of("answer.hint.default", default=question.default)))
    if isinstance(question, DiceQuestion) and question.hint_msg is not None:
        parts.append(render(question.hint_msg))
    elif isinstance(question, DiceQuestion):
        key = "dice.hint.count_ok" if question.spec.count_only else "dice.hint.faces"
        parts.append(render(Msg.of(key)))
    return " · ".join(parts)
