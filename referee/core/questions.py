"""Questions as values.

A resolver asks for everything it needs through a port with these values. Each question has a
stable ``id`` (scripts answer by it), its text, its legal values, a default, and the clause and
rule it serves. ``accept`` is the single validation path: a typed answer, a scripted answer and a
test answer are all checked by it, so they fail the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from referee.core.dice import (
    ROLL,
    DiceRoll,
    DiceSpec,
    DieStream,
    parse_dice_text,
    parse_dice_value,
    roll,
)
from referee.core.errors import AnswerError
from referee.core.oddsref import OddsRef
from referee.core.table import Table
from referee.core.text import Msg
from referee.core.words import NO_WORDS, YES_WORDS, whole_number

Answerer = Literal["attacker", "defender", "either"]
"""Who answers a question at the table: the attacking player (the one acting: the
declaration, the attacker's choices and dice), the defending player (the saves, defence rolls
and cards, the choices the rules give the defender), or either of them (facts both players
see on the table: cover, terrain, markers, a result read from a table)."""
ATTACKER: Answerer = "attacker"
DEFENDER: Answerer = "defender"
EITHER: Answerer = "either"
ANSWERERS: tuple[Answerer, ...] = (ATTACKER, DEFENDER, EITHER)


def other_player(who: Answerer) -> Answerer:
    """The attacker for the defender and the other way round (either stays either): a roll
    made by the side that does not act (a Lock 'n Load Op Fire's dice)."""
    return DEFENDER if who == ATTACKER else ATTACKER if who == DEFENDER else EITHER


@dataclass(frozen=True)
class Choice:
    """One legal value of a choice question, with the label a player sees."""

    value: str
    label: Msg | str


@dataclass(frozen=True, kw_only=True)
class Question:
    id: str
    text: Msg
    clause: str | None = None
    rule: Msg | None = None
    help: Msg | None = None
    # what the player reads before answering (the proposal a question asks about): the
    # table front end shows these tables first
    shows: tuple[Table, ...] = field(default=(), compare=False)
    # who answers it (the rules briefs' "who chooses"): the opponent's phone is given the
    # questions of its side (``referee.seat``); a question says so where it is not the
    # attacker's
    answered_by: Answerer = field(default=ATTACKER, compare=False)

    kind = "question"

    @property
    def default(self) -> Any:
        return None

    def accept(self, raw: Any) -> Any:
        """Validate an answer (typed text or a scripted value); return the answer value."""
        raise NotImplementedError

    def to_script(self, value: Any) -> Any:
        """The script value that ``accept`` turns back into ``value``."""
        return value


@dataclass(frozen=True, kw_only=True)
class ChoiceQuestion(Question):
    """Choose one of ``choices``; typed answers may give the value or the label."""

    choices: tuple[Choice, ...]
    default_value: str | None = None
    # the choice changes how the attack may end: at the table each option's end states are
    # shown side by side before it is made (worked out by the what-if of ``referee odds``)
    whatif: bool = field(default=False, compare=False)
    kind = "choice"

    def __post_init__(self) -> None:
        if not self.choices:
            raise ValueError(f"question {self.id} has no choices")

    @property
    def default(self) -> str | None:
        return self.default_value

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)

    def accept(self, raw: Any) -> str:
        """The value named by ``raw`` (case-insensitive; a number is read as its text, so a
        script may write ``5`` or ``"5"``); an empty answer takes the default."""
        if isinstance(raw, (str, int)) and not isinstance(raw, bool):
            text = str(raw).strip()
            if text == "" and self.default_value is not None:
                return self.default_value
            for c in self.choices:
                if text.casefold() == c.value.casefold():
                    return c.value
        raise AnswerError(Msg.of("answer.error.choice", given=str(raw),
                                 legal=", ".join(self.values)))


@dataclass(frozen=True, kw_only=True)
class MultiChoiceQuestion(Question):
    """Choose several of ``choices`` (between ``min_count`` and ``max_count``)."""

    choices: tuple[Choice, ...]
    default_values: tuple[str, ...] = ()
    min_count: int = 0
    max_count: int | None = None
    kind = "multi"

    @property
    def default(self) -> tuple[str, ...]:
        return self.default_values

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)

    def accept(self, raw: Any) -> tuple[str, ...]:
        if isinstance(raw, str):
            items = [p for p in raw.replace(",", " ").split() if p]
        elif isinstance(raw, (list, tuple)):
            items = [str(p) for p in raw]
        else:
            raise AnswerError(Msg.of("answer.error.multi_type"))
        picked: list[str] = []
        for item in items:
            match = next((c.value for c in self.choices if c.value.casefold() == item.casefold()),
                         None)
            if match is None:
                raise AnswerError(Msg.of("answer.error.choice", given=item,
                                         legal=", ".join(self.values)))
            if match in picked:
                raise AnswerError(Msg.of("answer.error.multi_repeat", given=item))
            picked.append(match)
        most = len(self.choices) if self.max_count is None else self.max_count
        if not self.min_count <= len(picked) <= most:
            raise AnswerError(Msg.of("answer.error.multi_count", least=self.min_count,
                                     most=most, got=len(picked)))
        # keep the question's order, so that the answer is a stable value
        return tuple(v for v in self.values if v in picked)

    def to_script(self, value: Any) -> Any:
        return list(value)


@dataclass(frozen=True, kw_only=True)
class NumberQuestion(Question):
    """A whole number between ``minimum`` and ``maximum`` (inclusive)."""

    minimum: int | None = None
    maximum: int | None = None
    default_value: int | None = None
    kind = "number"

    @property
    def default(self) -> int | None:
        return self.default_value

    def accept(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise AnswerError(Msg.of("answer.error.number", given=str(raw)))
        if isinstance(raw, str):
            text = raw.strip()
            if text == "" and self.default_value is not None:
                return self.default_value
            number = whole_number(text)
            if number is None:
                raise AnswerError(Msg.of("answer.error.number", given=text))
            raw = number
        if not isinstance(raw, int):
            raise AnswerError(Msg.of("answer.error.number", given=str(raw)))
        if self.minimum is not None and raw < self.minimum:
            raise AnswerError(Msg.of("answer.error.too_small", given=raw, least=self.minimum))
        if self.maximum is not None and raw > self.maximum:
            raise AnswerError(Msg.of("answer.error.too_large", given=raw, most=self.maximum))
        return raw


@dataclass(frozen=True, kw_only=True)
class TextQuestion(Question):
    """A short free text, such as the name of a formation (never a rule value: those are
    choices)."""

    max_length: int = 60
    default_value: str | None = None
    # names the game keeps that the answer may name (issue 27): a front end offers them by
    # completion as the player types (they are suggestions, never the only legal answers)
    suggestions: tuple[str, ...] = field(default=(), compare=False)
    kind = "text"

    @property
    def default(self) -> str | None:
        return self.default_value

    def accept(self, raw: Any) -> str:
        if not isinstance(raw, str):
            raise AnswerError(Msg.of("answer.error.text_type"))
        text = " ".join(raw.split())
        if not text and self.default_value is not None:
            return self.default_value
        if not text:
            raise AnswerError(Msg.of("answer.error.text_empty"))
        if len(text) > self.max_length:
            raise AnswerError(Msg.of("answer.error.text_long", most=self.max_length))
        return text


@dataclass(frozen=True, kw_only=True)
class LineQuestion(Question):
    """A compact line that says several things at once (``3 inf 6+ woods 30``: three
    infantry units, save 6+, in woods, 30 cm away). A ruleset subclasses it with ``parse``
    (the line to a value, or an ``AnswerError`` naming the part that is wrong) and ``format``
    (the value back to its line, which scripts hold and answered lines show). Typed and
    scripted lines are read by the same ``parse``: the one validation path."""

    default_value: str | None = None  # the line Enter takes (``None``: an answer is needed)
    hint_msg: Msg | None = None  # how to type the line, shown beside the prompt
    max_length: int = 200
    # names the game keeps that words of the line may name (issue 27): a front end offers
    # them by completion of the word being typed (suggestions: ``parse`` still decides)
    suggestions: tuple[str, ...] = field(default=(), compare=False)
    kind = "entry"

    @property
    def default(self) -> str | None:
        return self.default_value

    def parse(self, text: str) -> Any:
        raise NotImplementedError

    def format(self, value: Any) -> str:
        raise NotImplementedError

    def accept(self, raw: Any) -> Any:
        if not isinstance(raw, str):
            raise AnswerError(Msg.of("answer.error.text_type"))
        text = " ".join(raw.split())
        if not text and self.default_value is not None:
            text = self.default_value
        if not text:
            raise AnswerError(Msg.of("answer.error.text_empty"))
        if len(text) > self.max_length:
            raise AnswerError(Msg.of("answer.error.text_long", most=self.max_length))
        return self.parse(text)

    def to_script(self, value: Any) -> Any:
        return self.format(value)


@dataclass(frozen=True, kw_only=True)
class ConfirmQuestion(Question):
    """Yes or no."""

    default_value: bool = False
    whatif: bool = field(default=False, compare=False)  # as ``ChoiceQuestion.whatif``
    kind = "confirm"

    @property
    def default(self) -> bool:
        return self.default_value

    def accept(self, raw: Any) -> bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str):
            text = raw.strip().casefold()
            if text == "":
                return self.default_value
            if text in YES_WORDS:
                return True
            if text in NO_WORDS:
                return False
        raise AnswerError(Msg.of("answer.error.confirm", given=str(raw)))


@dataclass(frozen=True, kw_only=True)
class DiceQuestion(Question):
    """Roll dice. The answer is a ``DiceRoll``, or ``ROLL`` when the program is to roll."""

    spec: DiceSpec = field(default_factory=lambda: DiceSpec(count=1))
    hint_msg: Msg | None = None  # how to answer, when the generic dice hint does not fit
    # how to compute the roll's odds (None: the plain odds of ``spec``, see referee.odds)
    odds: OddsRef | None = field(default=None, compare=False)
    kind = "dice"

    def roll(self, dice: DieStream) -> DiceRoll:
        """What the program rolls for this question (a question kind may draw instead)."""
        return roll(self.spec, dice)

    def roll_key(self) -> object:
        """What the program's roll depends on besides its dice: two questions of one id with
        the same key roll the same (a question kind that draws adds what it draws from)."""
        return self.spec

    @property
    def default(self) -> str:
        return ROLL

    def accept(self, raw: Any) -> DiceRoll | str:
        if isinstance(raw, DiceRoll):
            raw = raw.to_script()
        if isinstance(raw, str):
            return parse_dice_text(self.spec, raw)
        return parse_dice_value(self.spec, raw)

    def to_script(self, value: Any) -> Any:
        return value.to_script() if isinstance(value, DiceRoll) else value

