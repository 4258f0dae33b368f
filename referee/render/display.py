"""How a question and its answer read on screen, and back: a label typed or scripted becomes
its value. Shared by the terminal, the scripted ports and transcripts."""

from __future__ import annotations

from typing import Any

from referee.catalog import available_languages, current_language, render
from referee.core.dice import ROLL, DiceRoll, DiceSource
from referee.core.port import BACK_KEY, INTERRUPT_KEY
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    LineQuestion,
    MultiChoiceQuestion,
    Question,
)
from referee.core.text import Msg


class _Key:
    """An answer that is a key, not a value: ``<`` (back one question), ``^C``."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __repr__(self) -> str:
        return self.key


BACK: Any = _Key(BACK_KEY)
INTERRUPT: Any = _Key(INTERRUPT_KEY)
ROLLING: Any = _Key(ROLL)  # a dice prompt answered with Enter, shown before its dice


def labels(question: ChoiceQuestion | MultiChoiceQuestion) -> dict[str, str]:
    return {c.value: render(c.label) for c in question.choices}


def dice_text(roll: DiceRoll) -> str:
    """A roll as the echo of its prompt shows it: the dice as a table shows them, the roll's
    label, and whether the program rolled them (or rolled them again after a change)."""
    from referee.core.table import dice_text as faces_text

    shown = faces_text(roll)
    label = roll.label()
    if label is not None:
        shown = f"{shown} {render(label)}"
    if roll.source is DiceSource.ROLLED:
        shown = render(Msg.of("dice.shown_rolled", faces=shown))
    elif roll.source is DiceSource.RETAKEN:
        shown = render(Msg.of("dice.shown_retaken", faces=shown))
    return shown


def answer_text(question: Question, value: Any) -> str:
    if isinstance(value, _Key):
        return value.key
    if isinstance(question, ChoiceQuestion):
        return labels(question)[value]
    if isinstance(question, MultiChoiceQuestion):
        names = labels(question)
        return ", ".join(names[v] for v in value) or "-"
    if isinstance(question, ConfirmQuestion):
        return render(Msg.of("word.yes" if value else "word.no"))
    if isinstance(question, DiceQuestion):
        return dice_text(value)
    if isinstance(question, LineQuestion):
        return question.format(value)
    return str(value)


def _by_label(question: ChoiceQuestion | MultiChoiceQuestion) -> dict[str, str]:
    """Every label of the question's choices, in every language (the current one first, so
    that it wins a clash), case-folded, to its value."""
    out: dict[str, str] = {}
    langs = [current_language(), *(x for x in available_languages() if x != current_language())]
    for lang in langs:
        for c in question.choices:
            out.setdefault(render(c.label, lang).strip().casefold(), c.value)
    return out


def value_from_label(question: Question, raw: Any) -> Any:
    """A choice named by its label (in any language, any case) becomes the choice's value,
    so that a Russian player may type or script «Дымовая завеса» as well as ``smoke``; anything
    else is returned unchanged for ``Question.accept`` to judge. Values stay the stored
    answer, so recordings replay in every language."""
    if not isinstance(question, (ChoiceQuestion, MultiChoiceQuestion)):
        return raw
    values = {v.casefold() for v in question.values}

    def one(item: Any) -> Any:
        if not isinstance(item, str) or item.strip().casefold() in values:
            return item
        return _by_label(question).get(item.strip().casefold(), item)

    if isinstance(question, ChoiceQuestion):
        return one(raw)
    if isinstance(raw, (list, tuple)):
        return [one(item) for item in raw]
    if isinstance(raw, str):
        whole = one(raw)
        if whole is not raw or raw.strip().casefold() in values:
            return [whole] if raw.strip() else raw
        if "," in raw:  # labels may hold spaces: a list of labels is split on commas
            return [one(item) for item in raw.split(",") if item.strip()]
    return raw


def typed_from_shown(question: Question, shown: str) -> str:
    """What a player typed to get ``shown`` (the inverse of ``answer_text``), for replaying
    a transcript: rolled dice become an empty line, so the seed rolls them again."""
    if isinstance(question, DiceQuestion):
        for how in ("dice.shown_rolled", "dice.shown_retaken"):
            rolled = render(Msg.of(how, faces="\0")).split("\0")
            if shown.startswith(rolled[0]) and shown.endswith(rolled[1]):
                return ""
        return shown
    if isinstance(question, ChoiceQuestion):
        by_label = {label: value for value, label in labels(question).items()}
        return by_label.get(shown, shown)
    if isinstance(question, MultiChoiceQuestion):
        by_label = _by_label(question)  # labels of any language, so a transcript may mix
        return " ".join(by_label.get(s.strip().casefold(), s.strip()) for s in shown.split(",")
                        if s.strip() not in ("", "-"))
    return shown


def typed_text(question: Question, value: Any) -> str:
    """What a player types at a text prompt to give ``value`` (``""`` for nothing, or for a
    program roll): shown in the answered line when Enter takes a default."""
    if value is None or value == ROLL:
        return ""
    if isinstance(question, DiceQuestion):
        if isinstance(value, DiceRoll) and value.source.by_program:
            return ""
        script = question.to_script(value)
        if isinstance(script, list):
            return " ".join(map(str, script))
        return str(script)
    if isinstance(question, LineQuestion):  # its default is a line, an answer a value
        return value if isinstance(value, str) else question.format(value)
    if isinstance(question, ConfirmQuestion):
        return answer_text(question, value)
    if isinstance(question, MultiChoiceQuestion):
        return " ".join(value)
    return str(value)


def hint(question: Question, default: Any = None) -> str:
    """The short hint beside a typed prompt: how to answer, and what Enter takes
    (``default``: the question's own default, or the answer given before going back)."""
    parts = []
    if default is None:
        default = question.default
    shown = typed_text(question, default)
    if isinstance(question, DiceQuestion) and shown:
        parts.append(render(Msg.of("dice.hint.previous", faces=shown)))
    elif isinstance(question, DiceQuestion) and question.hint_msg is not None:
        parts.append(render(question.hint_msg))
    elif isinstance(question, DiceQuestion):
        spec = question.spec
        if spec.count_only and spec.target is not None:  # a count of successes is meant
            parts.append(render(Msg.of("dice.hint.count_ok", target=spec.target)))
        else:
            parts.append(render(Msg.of("dice.hint.faces")))
    elif isinstance(question, LineQuestion) and question.hint_msg is not None:
        parts.append(render(question.hint_msg))
    if shown and not isinstance(question, DiceQuestion):
        parts.append(render(Msg.of("answer.hint.default", default=shown)))
    return " · ".join(parts)
