"""What-if at the moment of choice: before a choice whose options change how the attack may
end (a question marked ``whatif``: take -1 for cover or not, AP or AT, the base piece of a
fire group, accepting an allocation), each option's end states side by side.

Each option is walked on from the answers given so far, with that option and every later
question at its default, to the next roll, by the probe behind ``referee odds`` (no second
odds engine): that roll's end states are the option's. A fault here never stops the attack:
the question is asked without them."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.core.questions import ChoiceQuestion, ConfirmQuestion, Question

MOST_STATES = 3  # end states shown per option: those the options change most


class WhatIf:
    """``probe(answers)`` walks the attack with ``answers`` (by question id, script form)
    and returns its odds (``api.OddsRun``); ``show`` prints lines."""

    def __init__(self, probe: Callable[[Mapping[str, Any]], Any],
                 show: Callable[[list[str]], None]) -> None:
        self.probe = probe
        self.show = show

    def __call__(self, question: Question, given: Sequence[tuple[str, Any]]) -> None:
        if not getattr(question, "whatif", False):
            return
        try:
            lines = self.lines(question, given)
        except Exception:  # the odds must never stop an attack
            if os.environ.get("REFEREE_STRICT_ODDS"):
                raise
            return
        if lines:
            self.show(lines)

    def options(self, question: Question) -> list[Any]:
        if isinstance(question, ChoiceQuestion):
            return list(question.values)
        if isinstance(question, ConfirmQuestion):
            return [True, False]
        return []

    def lines(self, question: Question, given: Sequence[tuple[str, Any]]) -> list[str]:
        from referee.core.errors import RefereeError
        from referee.render.display import answer_text
        from referee.render.odds import whatif_lines

        answered = dict(given)
        rows = []
        for value in self.options(question):
            try:
                run = self.probe({**answered, question.id: question.to_script(value)})
            except RefereeError:  # an option the walk cannot follow without the player
                continue          # (a question after it has no default): left out alone
            if run.rolls:
                rows.append((answer_text(question, value), run.rolls[0].report.end_states))
        if len(rows) < 2:
            return []
        return whatif_lines(rows, MOST_STATES)
