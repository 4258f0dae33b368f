"""The terminal front end: questionary prompts (``unsafe_ask``, so Ctrl-C reaches us).

Every typed answer is checked by ``Question.accept``; a refused answer shows its one-line
reason under the prompt and the question stays open. Imported only when a terminal is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import questionary
from prompt_toolkit.application import create_app_session

from referee.catalog import DEFAULT_LANG, current_language, render, t
from referee.core.dice import ROLL
from referee.core.errors import AnswerError
from referee.core.port import settle_dice
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    Question,
)
from referee.core.text import Msg, visible
from referee.frontends.display import dice_text, hint, labels


class InteractivePort:
    def __init__(self, rng: random.Random, *, say: Callable[[str], None],
                 input: Any = None, output: Any = None) -> None:
        self.rng = rng
        self.say = say
        self.input = input
        self.output = output

    def _prompt(self, question: Question) -> questionary.Question:
        text = visible(render(question.text))  # names from files are data, never controls
        if question.clause:
            text = f"{text} [{question.clause}]"
        if isinstance(question, ChoiceQuestion):
            names = {value: visible(label) for value, label in labels(question).items()}
            choices = [questionary.Choice(title=names[c.value], value=c.value)
                       for c in question.choices]
            return questionary.select(text, choices=choices, default=question.default,
                                      instruction=t("prompt.select"))
        if isinstance(question, MultiChoiceQuestion):
            names = {value: visible(label) for value, label in labels(question).items()}
            choices = [questionary.Choice(title=names[c.value], value=c.value,
                                          checked=c.value in question.default)
                       for c in question.choices]

            def check(values: list[str]) -> bool | str:
                try:
                    question.accept(list(values))
                except AnswerError as err:
                    return render(err.msg)
                return True

            return questionary.checkbox(text, choices=choices, validate=check,
                                        instruction=t("prompt.checkbox"))
        if isinstance(question, ConfirmQuestion):
            if current_language() == DEFAULT_LANG:
                return questionary.confirm(text, default=question.default)
            # questionary's confirm takes the Latin y/n keys only: in another language the
            # player types the word (да/нет, or y/n), checked by ConfirmQuestion.accept
            how = t("prompt.confirm_yes" if question.default else "prompt.confirm_no")
            return questionary.text(f"{text} ({how})")
        how = hint(question)
        return questionary.text(f"{text} ({how})" if how else text)

    def _ask_once(self, question: Question) -> Any:
        with create_app_session(input=self.input, output=self.output):
            return self._prompt(question).unsafe_ask()

    def ask(self, question: Question) -> Any:
        while True:
            raw = self._ask_once(question)
            if isinstance(question, ChoiceQuestion) or isinstance(raw, bool):
                return raw  # the prompt offered legal values only
            try:
                value = question.accept(list(raw) if isinstance(raw, list) else raw)
            except AnswerError as err:
                # refused: the one-line reason, then the same question again on a clean line
                self.say(render(Msg.of("answer.refused", reason=err.msg)))
                continue
            if isinstance(question, DiceQuestion):
                roll = settle_dice(question, value, self.rng)
                if value == ROLL:
                    self.say(f"  {dice_text(roll)}")
                return roll
            return value
