"""One prompt for the dice of one roll step (issue 27): every roll to hit of an attack typed at
the table, or every first save roll of one allocation, typed in one line, the groups in the
order the prompt lists them (commas may part them: ``5 5 5 5, 4 1``).

The groups of a step do not depend on each other (which weapon's dice come first changes no
chance), so the step's dice are asked once, then each group's own question (``to-hit.ap4``,
``save.normal.infantry-1..infantry-2``) is answered from its part of the faces by
``Prefilled``: the resolver goes on as if each had been asked, and its working shows every
group as before. What depends on a roll (the second die of a 7+ roll, a re-roll, an
invulnerable save) is asked afterwards, as before. A script answers the step by its id
(``to-hit``, ``save.normal``) with every face in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core.dice import (
    ROLL,
    DiceRoll,
    DiceSource,
    DiceSpec,
    DieStream,
    check_faces,
    parse_dice_value,
    roll,
)
from referee.core.errors import AnswerError
from referee.core.oddsref import OddsRef
from referee.core.port import Port
from referee.core.questions import DiceQuestion, Question
from referee.core.table import Table, as_need
from referee.core.text import Msg
from referee.core.words import whole_number


@dataclass(frozen=True)
class DiceGroup:
    """One group of a step: the question it stands for, what a player reads of it, its
    dice (count, target, the natural fail), and its odds (the group's own: its end states
    are those of the whole step)."""

    qid: str
    label: Msg | str
    spec: DiceSpec
    odds: OddsRef | None = None


@dataclass(frozen=True, kw_only=True)
class StepDiceQuestion(DiceQuestion):
    """The dice of every group, in order. ``spec``: all the faces (no target: each group
    counts its own successes); ``successes``: the groups' successes added up."""

    groups: tuple[DiceGroup, ...] = ()

    def roll(self, dice: DieStream) -> DiceRoll:
        rolled = roll(self.spec, dice)
        assert rolled.faces is not None
        return self._counted(rolled.faces, rolled.source)

    def accept(self, raw: Any) -> DiceRoll | str:
        if isinstance(raw, DiceRoll):
            raw = raw.to_script()
        if not isinstance(raw, str):  # a script's list or {rolled = [...]}: as any roll's
            given = parse_dice_value(self.spec, raw)
            assert isinstance(given, DiceRoll) and given.faces is not None
            return self._counted(given.faces, given.source)
        source = DiceSource.TYPED
        text = raw.strip()
        if text == "" or text.lower() == ROLL:
            return ROLL
        parts = [p for p in re.split(r"[,;]", text) if p.strip()]
        faces: list[int] = []
        for i, part in enumerate(parts):
            numbers = [whole_number(p) for p in part.split()]
            if any(n is None for n in numbers):
                raise AnswerError(Msg.of("epic.step_dice.syntax", text=text))
            if len(parts) == len(self.groups) and len(numbers) != self.groups[i].spec.count:
                group = self.groups[i]
                raise AnswerError(Msg.of("epic.step_dice.group_count", n=i + 1,
                                         group=group.label, expected=group.spec.count,
                                         got=len(numbers)))
            faces += [n for n in numbers if n is not None]
        return self._counted(self._checked(tuple(faces)), source)

    def _checked(self, faces: tuple[int, ...]) -> tuple[int, ...]:
        if len(faces) != self.spec.count:
            raise AnswerError(Msg.of("epic.step_dice.count", expected=self.spec.count,
                                     got=len(faces), groups=listed(self.groups)))
        check_faces(self.spec, faces)
        return faces

    def _counted(self, faces: tuple[int, ...], source: DiceSource) -> DiceRoll:
        return DiceRoll(faces, sum(g.spec.successes(f) for g, f in
                                   zip(self.groups, split(self.groups, faces), strict=True)),
                        source)


def _table(groups: Sequence[DiceGroup], kind: str, clause: str) -> Table:
    """The step's groups in the order their dice are typed: how many dice, what succeeds,
    the chance of a die."""
    return Table(Msg.of(f"epic.step_dice.table.{kind}"),
                 tuple(Msg.of(f"epic.step_dice.col.{c}") for c in ("n", "group", "dice", "need",
                                                                   "chance")),
                 tuple((i, g.label, g.spec.count, as_need(g.spec.target or 0), _percent(g.spec))
                       for i, g in enumerate(groups, 1)), clause=clause)


def listed(groups: Sequence[DiceGroup]) -> Msg:
    """The groups in order, each with its dice and what succeeds: ``AP4+: 4 dice, 5+``."""
    out = Msg.of("epic.step_dice.group", group=groups[0].label, count=groups[0].spec.count,
                 target=groups[0].spec.target or 0, chance=_percent(groups[0].spec))
    for g in groups[1:]:
        out = Msg.of("epic.list.pair", first=out, then=Msg.of(
            "epic.step_dice.group", group=g.label, count=g.spec.count, target=g.spec.target or 0,
            chance=_percent(g.spec)))
    return out


def _percent(spec: DiceSpec) -> str:
    return f"{float(_chance(spec)) * 100:.0f}%"


def _chance(spec: DiceSpec) -> Fraction:
    """The chance one die of the group succeeds."""
    return Fraction(sum(1 for f in range(1, spec.sides + 1) if spec.is_success(f)), spec.sides)


def split(groups: Sequence[DiceGroup], faces: Sequence[int]) -> list[tuple[int, ...]]:
    """Each group's faces, in order."""
    out: list[tuple[int, ...]] = []
    at = 0
    for g in groups:
        out.append(tuple(faces[at:at + g.spec.count]))
        at += g.spec.count
    return out


class Prefilled:
    """A port that answers each group's question from the step's roll (the faces of its
    part, with the step's source), and passes every other question on."""

    def __init__(self, inner: Port, answers: dict[str, DiceRoll]) -> None:
        self.inner = inner
        self.answers = answers

    def ask(self, question: Question) -> Any:
        given = self.answers.pop(question.id, None)
        if given is None or not isinstance(question, DiceQuestion):
            return self.inner.ask(question)
        assert given.faces is not None
        return DiceRoll(given.faces, question.spec.successes(given.faces), given.source)


def ask_step(port: Port, qid: str, groups: Sequence[DiceGroup], *, clause: str,
             answered_by: Any = None, kind: str = "to_hit") -> Port:
    """Asks the step's dice at once when it has two groups or more, and returns the port the
    resolver goes on with (the groups' questions answered from the step's roll); one group
    or none: ``port`` itself (its question asked as before)."""
    if len(groups) < 2:
        return port
    total = sum(g.spec.count for g in groups)
    extra = {} if answered_by is None else {"answered_by": answered_by}
    got = port.ask(StepDiceQuestion(
        id=qid, clause=clause, groups=tuple(groups), spec=DiceSpec(count=total),
        text=Msg.of(f"epic.step_dice.q.{kind}", count=total, groups=len(groups)),
        hint_msg=Msg.of("epic.step_dice.hint"), shows=(_table(groups, kind, clause),),
        odds=OddsRef.to("referee.rulesets.epic.odds:step", kind=kind,
                        groups=tuple((g.label, g.spec.count, _chance(g.spec)) for g in groups),
                        first=groups[0].odds, first_spec=groups[0].spec,
                        first_qid=groups[0].qid), **extra))
    assert got.faces is not None
    return Prefilled(port, {g.qid: DiceRoll(f, 0, got.source)
                            for g, f in zip(groups, split(groups, got.faces), strict=True)})
