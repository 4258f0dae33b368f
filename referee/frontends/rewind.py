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

In a game made by ``game new`` a program roll once shown is fixed (``fixed``: a
``referee.frontends.fixed.FixedRolls``, which also sits under the odds to refuse typed dice
over it): going back over it brings it back, but going back past it to change an earlier
answer is refused unless both players record an override.
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


class RewindPort:
    """The port a resolver asks at the table: remembers every answer in order, replays them
    when the player goes back (``GoBack`` from the port below) or resumes, and hands each
    new answer to ``on_change`` (the ``--record`` file is written from it, after every
    answer). ``say`` shows a one-line message to the player."""

    def __init__(self, inner: Port, dice: KeyedDice, *,
                 say: Callable[[Msg], None] | None = None,
                 checkpoints: Sequence[Checkpointed] = (), fixed: Any = None) -> None:
        self.inner = inner
        self.dice = dice
        self.say = say
        self.fixed = fixed  # a game's program rolls, once shown (``frontends.fixed``)
        self.checkpoints = list(checkpoints)
        self.on_change: Callable[[list[Given]], None] | None = None
        # shown before a question is asked live, with the answers before it (the what-if)
        self.before_live: Callable[[Question, list[tuple[str, Any]]], None] | None = None
        self.given: list[Given] = []
        self.previous: dict[str, Any] = {}  # answers taken back, by question id
        self._marks: list[list[Any]] = []  # the checkpoints before each given answer
        self._replay = 0  # how many of ``given`` this pass of the resolver replays
        self._position = 0
        self.backs = 0  # how often the player went back (shown in no result; for tests)

    # --- what the prompts below may ask --------------------------------------------------

    @property
    def position(self) -> int:
        """How many questions this pass has asked so far (the next one's index)."""
        return self._position

    def can_go_back(self) -> bool:
        """Whether a question the player answered comes before this one."""
        return any(g.asked for g in self.given[:self._position])

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
            from referee.frontends.display import value_from_label

            accepted = question.accept(value_from_label(question, script))
        except (AnswerError, TypeError, ValueError):
            return None  # the question changed (fewer dice, other choices): nothing fits
        if isinstance(accepted, DiceRoll) and accepted.source.by_program:
            return None
        return None if accepted == ROLL else accepted

    # --- resolving -----------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every answer: the next question is the first of a new attack (the next
        impulse of a phase), with nothing before it to go back to."""
        self.given, self._marks, self.previous = [], [], {}
        self._replay = self._position = 0

    def preload(self, answers: Sequence[tuple[str, Any]]) -> None:
        """Answers to replay first, in order (a resumed record's, in script form)."""
        self.given = [Given(qid, script) for qid, script in answers]
        self._marks = [[] for _ in self.given]
        self._replay = len(self.given)

    def resolve(self, attack: Callable[[Port], R]) -> R:
        """Resolve ``attack`` through this port, again from its start each time the player
        goes back, until it finishes."""
        while True:
            self._position = 0
            self.dice.restart()
            try:
                return attack(self)
            except GoBack:
                self._back()

    def ask(self, question: Question) -> Any:
        if self._position < self._replay:
            value = self._replayed(question)
            if value is not _UNSET:
                # a resumed record does not say which answers the automatic dice gave
                self.given[self._position].asked = not self._answered_below(question)
                self._position += 1
                return value
        marks = [c.checkpoint() for c in self.checkpoints]
        if self.before_live is not None:
            self.before_live(question, self.answers())
        while True:
            try:
                value = self.inner.ask(question)
            except GoBack:
                if self.can_go_back():
                    if self.fixed is None or self.fixed.may_go_back(question,
                                                                    *self._passed(question)):
                        raise
                    continue
                if self.say is not None:  # nothing the player answered comes before it
                    self.say(Msg.of("back.at_first"))
                continue
            break
        self.given.append(Given(question.id, question.to_script(value), value,
                                asked=not self._answered_below(question)))
        self._marks.append(marks)
        self._position += 1
        self._replay = len(self.given)
        self._changed()
        return value

    def _replayed_roll(self, question: Question, value: Any) -> None:
        """A program roll given again without rolling counts as rolled (``replayed``)."""
        if isinstance(value, DiceRoll) and value.source.by_program:
            assert isinstance(question, DiceQuestion)
            self.dice.replayed(question.id, question.roll_key())

    def program_rolls(self) -> int:
        """How many program rolls the answers of this pass hold so far."""
        return self._program_rolls()

    def _program_rolls(self, given: Sequence[Given] | None = None) -> int:
        """How many program rolls ``given`` holds (this pass's answers so far)."""
        return sum(1 for g in (self.given if given is None else given)
                   if isinstance(g.value, DiceRoll) and g.value.source.by_program)

    def _passed(self, question: Question) -> tuple[DiceRoll | None, int, str]:
        """The program roll that going back from ``question`` would pass (``None``: none),
        its number in the entry and its question: ``question`` itself when its program roll
        was shown before, else one the automatic dice rolled after the answer to ask again."""
        before = self.previous.get(question.id)
        if (isinstance(question, DiceQuestion) and isinstance(before, DiceRoll)
                and before.source.by_program):
            return before, self._program_rolls(), question.id
        for at in range(len(self.given) - 1, -1, -1):
            given = self.given[at]
            if given.asked:
                break  # asked again: a program roll there comes back the same
            if isinstance(given.value, DiceRoll) and given.value.source.by_program:
                return given.value, self._program_rolls(self.given[:at]), given.question_id
        return None, 0, ""

    def _replayed(self, question: Question) -> Any:
        """The given answer to replay for ``question``; when it no longer fits (a record
        from another version, or the attack took another way), the answers from here on are
        kept as defaults and the question is asked."""
        given = self.given[self._position]
        if given.question_id == question.id:
            if given.value is not _UNSET:
                self._replayed_roll(question, given.value)
                return given.value
            try:
                from referee.frontends.display import value_from_label

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
        stale = self.given[self._position:]
        if self.say is not None:
            self.say(Msg.of("back.record_stale", question=given.question_id, count=len(stale)))
        for old in stale:
            if old.value is not _UNSET:
                self.previous[old.question_id] = old.value
            else:
                self.previous.setdefault(old.question_id, _Script(old.script))
        del self.given[self._position:]
        del self._marks[self._position:]
        self._replay = self._position
        return _UNSET

    def _back(self) -> None:
        """Take back the last answer the player gave (and the automatic dice after it): the
        next pass replays the answers before it and asks it again."""
        self.backs += 1
        while self.given:
            last = self.given.pop()
            marks = self._marks.pop()
            if last.value is not _UNSET:
                self.previous[last.question_id] = last.value
            for port, mark in zip(self.checkpoints, marks, strict=False):
                port.restore(mark)
            if last.asked:
                break
        self._replay = len(self.given)
        self._changed()

    def _answered_below(self, question: Question) -> bool:
        """Whether a port below answers ``question`` itself (the automatic dice)."""
        port: Any = self.inner
        while port is not None:
            answers_itself = getattr(port, "answers_itself", None)
            if answers_itself is not None and answers_itself(question):
                return True
            port = getattr(port, "inner", None)
        return False

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.given)

    def answers(self) -> list[tuple[str, Any]]:
        """The answers given so far, in order, in script form."""
        return [(g.question_id, g.script) for g in self.given]


@dataclass(frozen=True)
class _Script:
    """A recorded answer that could not be replayed, offered as a default in script form."""

    value: Any
