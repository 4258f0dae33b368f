"""Going back at the table, and resuming an interrupted attack.

Resolvers are pure and ask everything through the port, so going back is a replay: when the
player presses ``<`` the attack is resolved again from its first question, the answers before
the question to change are given silently (nothing shown again, no prompt, no odds, no roll),
and that question is asked again with its previous answer offered as the default.

Dice never change by going back: the program's dice are bound to their question
(``KeyedDice``), and a replayed roll is the very roll given before. When a changed answer
changes a roll the program made (more dice, another target), the roll is drawn again from the
same key, so its first dice are the same, and it is marked as taken again after a change
(``KeyedDice.rolled_for``, ``DiceSource.RETAKEN``). Typed dice are the player's: going back
offers them as the default.

Resuming is the same replay, with the answers read from a ``--record`` file.

The answers so far are kept in an ``Answered`` made before the ports: the prompts at the bottom
of the stack read it (whether ``<`` can go back, what Enter offers) while the rewind port at the
top writes it, so neither has to find the other (``referee.play.stack`` builds them).

In a game made by ``game new`` a program roll once shown is fixed (``fixed``: a
``referee.frontends.fixed.FixedRolls``, which also sits under the odds to refuse typed dice
over it): going back over it brings it back, but going back past it to change an earlier
answer is refused unless both players record an override. A program roll given again counts
as rolled (``KeyedDice.replayed``: a game's rolls are numbered in the order the entry makes
them), and one read from a resumed record is recomputed, never taken from the record
(``KeyedDice.confirm``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from referee.core.dice import ROLL, DiceRoll, KeyedDice
from referee.core.errors import AnswerError
from referee.core.port import GoBack, Port, settle_dice
from referee.core.questions import DiceQuestion, Question
from referee.core.text import Msg

R = TypeVar("R")
_UNSET: Any = object()


class Checkpointed(Protocol):
    """A port under the rewind port that keeps something per question (the odds of each
    roll): it is put back as it was before the question the player went back to."""

    def checkpoint(self) -> Any: ...

    def restore(self, mark: Any) -> None: ...


@dataclass
class Given:
    """One answer, in the order asked: the question's id, the value the port returned (unset
    for an answer read from a record and not replayed yet), and its script form."""

    question_id: str
    script: Any
    value: Any = _UNSET
    asked: bool = True  # False: a port below answered it without the player (auto dice)


class Answered:
    """The answers of one attack so far, in the order asked, and the answers taken back
    (offered again as defaults): kept by the rewind port, read by the prompts below it."""

    def __init__(self) -> None:
        self.given: list[Given] = []
        self.previous: dict[str, Any] = {}  # answers taken back, by question id
        self.position = 0  # how many questions this pass has asked so far

    def can_go_back(self) -> bool:
        """Whether a question the player answered comes before this one."""
        return any(g.asked for g in self.given[:self.position])

    def offered(self, question: Question) -> Any:
        """The answer to offer as the default when ``question`` is asked again after going
        back (``None``: nothing to offer). A program's roll is not offered: asked again, the
        question's own dice roll the same faces."""
        value = self.previous.get(question.id, _UNSET)
        if value is _UNSET:
            return None
        if isinstance(value, DiceRoll) and value.source.by_program:
            return None
        script = value.value if isinstance(value, _Script) else question.to_script(value)
        try:
            from referee.render.display import value_from_label

            accepted = question.accept(value_from_label(question, script))
        except (AnswerError, TypeError, ValueError):
            return None  # the question changed (fewer dice, other choices): nothing fits
        if isinstance(accepted, DiceRoll) and accepted.source.by_program:
            return None
        return None if accepted == ROLL else accepted

    def answers(self) -> list[tuple[str, Any]]:
        """The answers given so far, in order, in script form."""
        return [(g.question_id, g.script) for g in self.given]


class RewindPort:
    """The port a resolver asks at the table: remembers every answer in order (``answered``),
    replays them when the player goes back (``GoBack`` from the port below) or resumes, and
    hands each new answer to ``on_change`` (the ``--record`` file is written from it, after
    every answer). ``say`` shows a one-line message to the player. ``answered_below`` tells
    which questions a port below answers without the player (the automatic dice: going back
    steps over them)."""

    def __init__(self, inner: Port, dice: KeyedDice, *,
                 say: Callable[[Msg], None] | None = None,
                 checkpoints: Sequence[Checkpointed] = (),
                 answered: Answered | None = None,
                 answered_below: Callable[[Question], bool] | None = None,
                 fixed: Any = None) -> None:
        self.inner = inner
        self.fixed = fixed  # a game's program rolls, once shown (``frontends.fixed``)
        self.dice = dice
        self.say = say
        self.checkpoints = list(checkpoints)
        self.answered = Answered() if answered is None else answered
        self.answered_below = answered_below
        self.on_change: Callable[[list[Given]], None] | None = None
        # shown before a question is asked live, with the answers before it (the what-if)
        self.before_live: Callable[[Question, list[tuple[str, Any]]], None] | None = None
        self._marks: list[list[Any]] = []  # the checkpoints before each given answer
        self._replay = 0  # how many of ``given`` this pass of the resolver replays
        self.backs = 0  # how often the player went back (shown in no result; for tests)

    # --- what the prompts below may ask (``Answered``) --------------------------------------

    @property
    def given(self) -> list[Given]:
        return self.answered.given

    @property
    def previous(self) -> dict[str, Any]:
        return self.answered.previous

    @property
    def position(self) -> int:
        """How many questions this pass has asked so far (the next one's index)."""
        return self.answered.position

    def can_go_back(self) -> bool:
        return self.answered.can_go_back()

    def offered(self, question: Question) -> Any:
        return self.answered.offered(question)

    def answers(self) -> list[tuple[str, Any]]:
        """The answers given so far, in order, in script form."""
        return self.answered.answers()

    # --- resolving -----------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every answer: the next question is the first of a new attack (the next
        impulse of a phase), with nothing before it to go back to."""
        memory = self.answered
        memory.given, memory.previous, memory.position = [], {}, 0
        self._marks, self._replay = [], 0

    def preload(self, answers: Sequence[tuple[str, Any]]) -> None:
        """Answers to replay first, in order (a resumed record's, in script form)."""
        self.answered.given = [Given(qid, script) for qid, script in answers]
        self._marks = [[] for _ in self.given]
        self._replay = len(self.given)

    def resolve(self, attack: Callable[[Port], R]) -> R:
        """Resolve ``attack`` through this port, again from its start each time the player
        goes back, until it finishes."""
        while True:
            self.answered.position = 0
            self.dice.restart()
            try:
                return attack(self)
            except GoBack:
                self._back()

    def ask(self, question: Question) -> Any:
        memory = self.answered
        if memory.position < self._replay:
            value = self._replayed(question)
            if value is not _UNSET:
                # a resumed record does not say which answers the automatic dice gave
                memory.given[memory.position].asked = not self._answered_below(question)
                memory.position += 1
                return value
        marks = [c.checkpoint() for c in self.checkpoints]
        if self.before_live is not None:
            self.before_live(question, self.answers())
        while True:
            try:
                value = self.inner.ask(question)
                break
            except GoBack:
                if self.can_go_back():
                    if self.fixed is None or self.fixed.may_go_back(question,
                                                                    *self._passed(question)):
                        raise
                    continue
                if self.say is not None:  # nothing the player answered comes before it
                    self.say(Msg.of("back.at_first"))
        memory.given.append(Given(question.id, question.to_script(value), value,
                                  asked=not self._answered_below(question)))
        self._marks.append(marks)
        memory.position += 1
        self._replay = len(memory.given)
        self._changed()
        return value

    def _replayed(self, question: Question) -> Any:
        """The given answer to replay for ``question``; when it no longer fits (a record
        from another version, or the attack took another way), the answers from here on are
        kept as defaults and the question is asked."""
        memory = self.answered
        given = memory.given[memory.position]
        if given.question_id == question.id:
            if given.value is not _UNSET:
                self._replayed_roll(question, given.value)
                return given.value
            try:
                from referee.render.display import value_from_label

                value = question.accept(value_from_label(question, given.script))
                if isinstance(question, DiceQuestion):
                    fresh = value == ROLL  # rolled now: counted as it is drawn
                    value = settle_dice(question, value, self.dice)
                    if value.source.by_program and not fresh:
                        value = self.dice.confirm(question, value)  # a game's: never trusted
                        self._replayed_roll(question, value)
            except AnswerError:
                pass
            else:
                given.value = value
                return value
        stale = memory.given[memory.position:]
        if self.say is not None:
            self.say(Msg.of("back.record_stale", question=given.question_id, count=len(stale)))
        for old in stale:
            if old.value is not _UNSET:
                memory.previous[old.question_id] = old.value
            else:
                memory.previous.setdefault(old.question_id, _Script(old.script))
        del memory.given[memory.position:]
        del self._marks[memory.position:]
        self._replay = memory.position
        return _UNSET

    def _replayed_roll(self, question: Question, value: Any) -> None:
        """A program roll given again without rolling counts as rolled (``replayed``)."""
        if isinstance(value, DiceRoll) and value.source.by_program:
            assert isinstance(question, DiceQuestion)
            self.dice.replayed(question.id, question.roll_key())

    def _program_rolls(self, given: Sequence[Given]) -> int:
        """How many program rolls ``given`` holds."""
        return sum(1 for g in given
                   if isinstance(g.value, DiceRoll) and g.value.source.by_program)

    def _passed(self, question: Question) -> tuple[DiceRoll | None, int, str]:
        """The program roll that going back from ``question`` would pass (``None``: none),
        its number in the entry and its question: ``question`` itself when its program roll
        was shown before, else one the automatic dice rolled after the answer to ask again."""
        memory = self.answered
        before = memory.previous.get(question.id)
        if (isinstance(question, DiceQuestion) and isinstance(before, DiceRoll)
                and before.source.by_program):
            return before, self._program_rolls(memory.given), question.id
        for at in range(len(memory.given) - 1, -1, -1):
            given = memory.given[at]
            if given.asked:
                break  # asked again: a program roll there comes back the same
            if isinstance(given.value, DiceRoll) and given.value.source.by_program:
                return given.value, self._program_rolls(memory.given[:at]), given.question_id
        return None, 0, ""

    def _back(self) -> None:
        """Take back the last answer the player gave (and the automatic dice after it): the
        next pass replays the answers before it and asks it again."""
        self.backs += 1
        memory = self.answered
        while memory.given:
            last = memory.given.pop()
            marks = self._marks.pop()
            if last.value is not _UNSET:
                memory.previous[last.question_id] = last.value
            for port, mark in zip(self.checkpoints, marks, strict=False):
                port.restore(mark)
            if last.asked:
                break
        self._replay = len(memory.given)
        self._changed()

    def _answered_below(self, question: Question) -> bool:
        """Whether a port below answers ``question`` itself (the automatic dice)."""
        return self.answered_below is not None and self.answered_below(question)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.given)


@dataclass(frozen=True)
class _Script:
    """A recorded answer that could not be replayed, offered as a default in script form."""

    value: Any
