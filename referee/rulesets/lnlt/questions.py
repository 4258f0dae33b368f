"""Choice questions that know why the options they leave out are illegal.

Only legal options are offered. An answer naming one that was left out (a script, a typed
value) is refused with the rule clause and the reason, not just "not one of the choices".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import ChoiceQuestion, MultiChoiceQuestion
from referee.core.text import Msg


@dataclass(frozen=True)
class Refusal:
    """Why ``value`` may not be chosen: the clause and a one-line reason."""

    value: str
    clause: str
    reason: Msg

    def error(self) -> AnswerError:
        return AnswerError(Msg.of("lnlt.refused", value=self.value, clause=self.clause,
                                  reason=self.reason))


def _refusal(refusals: tuple[Refusal, ...], given: str) -> Refusal | None:
    folded = given.strip().casefold()
    return next((r for r in refusals if r.value.casefold() == folded), None)


@dataclass(frozen=True, kw_only=True)
class RuledChoice(ChoiceQuestion):
    refusals: tuple[Refusal, ...] = ()

    def accept(self, raw: Any) -> str:
        if isinstance(raw, str):
            found = _refusal(self.refusals, raw)
            if found is not None and found.value not in self.values:
                raise found.error()
        return super().accept(raw)


@dataclass(frozen=True, kw_only=True)
class RuledMultiChoice(MultiChoiceQuestion):
    """``needs_one``: when set, an answer must pick at least one of these values, else it
    is refused with that refusal's clause and reason."""

    refusals: tuple[Refusal, ...] = ()
    needs_one: tuple[str, ...] = ()
    needs_one_refusal: Refusal | None = None

    def accept(self, raw: Any) -> tuple[str, ...]:
        items: list[str] = []
        if isinstance(raw, str):
            items = [p for p in raw.replace(",", " ").split() if p]
        elif isinstance(raw, (list, tuple)):
            items = [str(p) for p in raw]
        for item in items:
            found = _refusal(self.refusals, item)
            if found is not None and found.value not in self.values:
                raise found.error()
        picked = super().accept(raw)
        if self.needs_one and not set(picked) & set(self.needs_one):
            assert self.needs_one_refusal is not None
            raise self.needs_one_refusal.error()
        return picked
