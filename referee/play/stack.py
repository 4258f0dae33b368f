"""The ports one attack asks through, put together in one place, each layer named.

From the player outwards (each layer wraps the one before it)::

    answerer    who answers: the terminal's prompts, a script's answers, a test's port
    fixed       in a game made by ``game new``: a program roll once shown is fixed (typed dice
                over it refused unless both players override it: ``frontends.fixed``)
    show        shows what a question proposes (an allocation to accept) before asking it
    auto_dice   rolls every die from ``dice`` (--dice auto): the player is asked the rest
    typed_then  before a die typed in the undone game entry this one redoes, says what it was
    odds        the odds before each roll and how lucky it was after (kept in ``rolls``)
    rewind      outermost: going back, resuming a record, the record written after each answer

``dice`` is the dice source every layer that rolls rolls from (``plan.attack_dice``). A layer
that is off is ``None``. Nothing here finds a layer by looking for an attribute: whoever
needs one reads its field.

Seams: to let another party answer some questions (the opponent's phone, issue 26), the
``answerer`` becomes a port that picks who answers each question. A game's dice (issue 24:
``core.dice.EntryDice``) wait for the opponent's contribution, asked beside the stack
(``under_rewind``) when the entry's first program die is drawn (``referee.game.pending``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from referee.core.dice import KeyedDice
from referee.core.port import GoBack, Port, Strict
from referee.core.questions import Question
from referee.core.table import Table
from referee.core.text import Msg
from referee.frontends.rewind import Answered, RewindPort

if TYPE_CHECKING:  # the layers a scripted run does not use load when a stack uses them
    from referee.frontends.fixed import FixedRolls
    from referee.frontends.odds import OddsPort
    from referee.frontends.wrappers import AutoDicePort, ShowPort, TypedThenPort


class Screen(Protocol):
    """Where the player sits: what an attack at the board shows beside its questions (the
    command gives it: the terminal, or standard error when the result goes elsewhere)."""

    def say(self, msg: Msg | str) -> None:
        """One line to the player (going back at the first question, a stale record)."""

    def tables(self, tables: Sequence[Table]) -> None:
        """Tables: what a question proposes; the game's state before the first question."""

    def answer(self, question: Question, value: Any) -> None:
        """An answer the player did not type (a roll of the automatic dice)."""

    def lines(self, lines: list[str]) -> None:
        """The odds around a roll; the what-if before a choice."""


@dataclass(frozen=True)
class Seat:
    """What a command gives an attack at the board: ``answerer`` makes the port that asks
    the player (from the attack's dice, and the answers so far that its prompts read to go
    back); ``screen`` shows the rest, unless ``quiet`` (JSON on the screen of the questions:
    nothing but the prompts and the one-line messages). ``odds``: shown before each roll
    (``full_odds``: the whole chart and every end state)."""

    answerer: Callable[[KeyedDice, Answered], Port]
    screen: Screen
    quiet: bool = False
    auto_dice: bool = False
    odds: bool = True
    full_odds: bool = False


@dataclass
class PortStack:
    """The layers of one attack's ports (see the module)."""

    answerer: Port
    dice: KeyedDice
    rewind: RewindPort
    show: ShowPort | None = None
    auto_dice: AutoDicePort | None = None
    typed_then: TypedThenPort | None = None
    odds: OddsPort | None = None
    strict: Strict | None = None  # the answerer that refuses unused answers at the end
    answered: Answered = field(default_factory=Answered)
    fixed: FixedRolls | None = None

    @classmethod
    def at_seat(cls, dice: KeyedDice, seat: Seat, *,
                typed_then: Mapping[str, str] | None = None,
                fixed_rolls: bool = False) -> PortStack:
        """The stack of an attack at the board (``attack``, ``epic-shoot``, ``phase``),
        every layer rolling from ``dice``; ``fixed_rolls``: a game's (``game new``)."""
        from referee.frontends.odds import OddsPort
        from referee.frontends.wrappers import AutoDicePort, ShowPort, TypedThenPort

        answered = Answered()
        answerer = seat.answerer(dice, answered)
        screen = None if seat.quiet else seat.screen
        top = answerer
        show = auto = then = odds = fixed = None
        if fixed_rolls:  # right above the prompts: a refused answer reaches no layer
            from referee.frontends.fixed import FixedRolls

            top = fixed = FixedRolls(top, seat.screen.say, answered)
        if screen is not None:
            top = show = ShowPort(top, screen.tables)  # the proposal a question asks about
        if seat.auto_dice:
            top = auto = AutoDicePort(top, dice, on_roll=screen.answer if screen else None)
        if typed_then:
            top = then = TypedThenPort(top, typed_then, screen.say if screen else None)
        if seat.odds:  # outside the auto dice, so that the odds come before the roll is shown
            top = odds = OddsPort(top, show=screen.lines if screen else None,
                                  full=seat.full_odds)
        rewind = RewindPort(top, dice, say=seat.screen.say,
                            checkpoints=[odds] if odds is not None else [],
                            answered=answered,
                            answered_below=auto.answers_itself if auto is not None else None,
                            fixed=fixed)
        return cls(answerer, dice, rewind, show, auto, then, odds, answered=answered,
                   fixed=fixed)

    @classmethod
    def scripted(cls, answerer: Port, dice: KeyedDice, *, odds: bool) -> PortStack:
        """The stack of a scripted run: the script's answers, the odds recorded (shown after
        the result), and the rewind port (which only counts the answers here)."""
        from referee.frontends.odds import OddsPort

        top = odds_port = OddsPort(answerer, show=None) if odds else None
        rewind = RewindPort(top or answerer, dice)
        return cls(answerer, dice, rewind, odds=odds_port,
                   strict=answerer if isinstance(answerer, Strict) else None,
                   answered=rewind.answered)

    @classmethod
    def around(cls, port: Port, dice: KeyedDice) -> PortStack:
        """The stack around a port a program gives (the Python API, tests): the port is the
        answerer (an ``OddsPort`` given is the odds layer over its answerer; a ``RewindPort``
        given is the rewind layer), a ``Strict`` answerer is finished at the end."""
        from referee.frontends.odds import OddsPort

        rewind = port if isinstance(port, RewindPort) else RewindPort(port, dice)
        answerer = rewind.inner
        odds = answerer if isinstance(answerer, OddsPort) else None
        if odds is not None:
            answerer = odds.inner
        return cls(answerer, dice, rewind, odds=odds,
                   strict=answerer if isinstance(answerer, Strict) else None,
                   answered=rewind.answered)

    @property
    def under_rewind(self) -> Port:
        """The port the rewind layer wraps: where a question outside the attack is asked (a
        formation's side), with nothing to go back to."""
        return self.rewind.inner

    @property
    def shows_odds(self) -> bool:
        """Whether the odds are shown as the attack goes (not only recorded)."""
        return self.odds is not None and self.odds.show is not None

    def odds_so_far(self) -> list[Any] | None:
        """The odds of each roll so far (``None``: no odds layer, as with ``--no-odds``)."""
        return list(self.odds.rolls) if self.odds is not None else None

    def finish(self) -> None:
        """The attack is resolved: a strict answerer refuses the answers nobody asked for."""
        if self.strict is not None:
            self.strict.finish()


def ask_beside(port: Port) -> Callable[[Question], Any]:
    """Ask one question of the game's own (a formation's side) through ``port`` (the ports
    under the rewind layer): nothing to go back to, so ``<`` asks it again."""

    def ask(question: Question) -> Any:
        while True:
            try:
                return port.ask(question)
            except GoBack:
                continue

    return ask
