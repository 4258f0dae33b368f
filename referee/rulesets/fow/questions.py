"""The one question kind this ruleset adds: a complete allocation, one team per hit.

Typed at a prompt as team ids in hit order (``a b t``), or given in a script as a list. The
answer is checked by the same validator as every other allocation, so a typed answer and a
scripted one are refused with the same clause and reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import Question
from referee.core.text import Msg
from referee.rulesets.fow.validate import Violation


class AllocationAnswer(tuple[str, ...]):
    """Team ids in hit order; shown as the player types them."""

    def __str__(self) -> str:
        return " ".join(self)


@dataclass(frozen=True, kw_only=True)
class AllocationQuestion(Question):
    hit_numbers: tuple[int, ...]
    team_ids: tuple[str, ...]
    check: Callable[[dict[int, str]], Violation | None]
    default_value: tuple[str, ...] = ()
    kind = "allocation"

    @property
    def default(self) -> AllocationAnswer:
        return AllocationAnswer(self.default_value)

    def accept(self, raw: Any) -> AllocationAnswer:
        if isinstance(raw, str):
            items = [p for p in re.split(r"[\s,;]+", raw.strip()) if p]
        elif isinstance(raw, (list, tuple)) and all(isinstance(p, str) for p in raw):
            items = list(raw)
        else:
            raise AnswerError(Msg.of("fow.answer.allocation_type"))
        if len(items) != len(self.hit_numbers):
            raise AnswerError(Msg.of("fow.answer.allocation_count",
                                     expected=len(self.hit_numbers), got=len(items)))
        folded = {t.casefold(): t for t in self.team_ids}
        teams = []
        for item in items:
            if item.casefold() not in folded:
                raise AnswerError(Msg.of("answer.error.choice", given=item,
                                         legal=", ".join(self.team_ids)))
            teams.append(folded[item.casefold()])
        violation = self.check(dict(zip(self.hit_numbers, teams, strict=True)))
        if violation is not None:
            raise AnswerError(Msg.of("fow.answer.illegal", clause=violation.clause,
                                     reason=violation.msg))
        return AllocationAnswer(teams)

    def to_script(self, value: Any) -> Any:
        return list(value)
