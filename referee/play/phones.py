"""The opponent's seat at the terminal: while ``game serve`` serves the game file, an attack's
questions owned by a side whose phone is connected are put to that phone, and the attack's
progress is published for every phone to follow.

This port is the answerer of the port stack (``play.stack``: the port that picks who answers
each question), over the terminal's prompts, below the odds, the automatic dice and the
rewind port; ``opponents`` puts it there when a server serves the game file. For each
question:

* it publishes the question being asked, then its answer, into the game file's ``progress``
  table (``game.live.Progress``), which the server pushes to the phones; going back drops
  the answers after the question asked again; the attack's end clears it;
* when the question is the attacker's or the defender's (``Question.answered_by``) and that
  side has a phone connected now, it writes the question into ``pending`` and waits for the
  first answer from either the phone (through the file) or the keyboard: the terminal shows
  "waiting for Red's phone (Enter: answer here)", and Enter claims the question for the
  terminal, in one transaction that fails if the phone answered first. A phone's answer is
  checked with the question's own ``accept`` (the one validation path): refused, its reason
  goes back to the phone and the question stays open; ``<`` goes back as at the terminal;
  "roll" rolls the program's dice for the question, and the phone's random bytes for the roll
  are kept with the question in the file. The answer is shown at the terminal as a line of
  the scrollback, marked as the phone's.

Which game side attacks is read from the declaration (a formation whose side the game knows)
or, in a phase, from whose impulse it is; else asked at the terminal once an attack (once an
impulse), the first time a question needs it. A phone that disconnects finds the question
again when it comes back; a server that stops (Ctrl-C, kill -9) leaves the question to the
terminal.
"""

from __future__ import annotations

import select
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from referee.core.dice import ROLL, KeyedDice
from referee.core.errors import AnswerError, GameFileError
from referee.core.port import BACK_KEY, GoBack, Port, settle_dice
from referee.core.questions import ATTACKER, DEFENDER, Choice, ChoiceQuestion, Question
from referee.core.text import Msg, jsonable

if TYPE_CHECKING:
    from referee.frontends.rewind import Answered
    from referee.game.contribution import AskedWord, Contribution
    from referee.play.stack import Seat

POLL_SECONDS = 0.1  # how often the terminal looks for the phone's answer


class Keyboard(Protocol):
    def enter(self, timeout: float) -> bool:
        """Whether Enter was pressed within ``timeout`` seconds (the line is consumed)."""
        ...


class TerminalKeyboard:
    """Enter on the terminal's standard input, between two prompts (the line is read)."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = sys.stdin if stream is None else stream

    def enter(self, timeout: float) -> bool:
        try:
            ready, _, _ = select.select([self.stream], [], [], timeout)
        except (OSError, ValueError):
            time.sleep(timeout)
            return False
        if ready:
            line = self.stream.readline()
            if line == "":
                raise KeyboardInterrupt  # the terminal closed, as Ctrl-D at a prompt
            return True
        return False


def _or_false(write: Callable[..., bool], *args: Any) -> bool:
    from referee.game.live import LiveBusy

    try:
        return write(*args)
    except (LiveBusy, GameFileError, sqlite3.Error):
        return False


class GoingBack(Protocol):
    def can_go_back(self) -> bool: ...

    def offered(self, question: Question) -> Any: ...


class SeatPort:
    """See the module. ``sides``: the game's two sides; ``known``: each formation's side as
    the game file knows it; ``attackers``: the attacking formation's names the declaration
    gives (looked up in ``known``)."""

    def __init__(self, inner: Port, path: Path, *, entry: int | None, ruleset: str,
                 dice: KeyedDice, sides: tuple[str, ...], known: dict[str, str],
                 attackers: tuple[str, ...] = (), say: Callable[[Any], None],
                 keyboard: Keyboard | None = None) -> None:
        from referee.game.live import Progress

        self.inner = inner
        self.path = path
        self.entry = entry
        self.dice = dice
        self.sides = sides
        self.known = known
        self.attackers = attackers
        self.say = say
        self.keyboard = keyboard if keyboard is not None else TerminalKeyboard()
        self.progress = Progress(path, entry, ruleset)
        self.table: GoingBack | None = None
        self.attacking: str | None = None

    # --- who answers ----------------------------------------------------------------------

    def new_attack(self, entry: int | None, attacking: str | None = None) -> None:
        """The next impulse of a phase: its entry, and the side whose impulse it is (when
        the phase's state says; else asked again at its first question of a side's)."""
        self.entry = self.progress.entry = entry
        self.attacking = attacking if attacking in self.sides else None
        self.progress.steps, self.progress.asking = [], None

    def _attacking(self) -> str | None:
        if self.attacking is None:
            for name in self.attackers:
                if self.known.get(name) in self.sides:
                    self.attacking = self.known[name]
                    break
        if self.attacking is None and len(self.sides) == 2:
            question = ChoiceQuestion(id="game.attacking-side",
                                      text=Msg.of("game.serve.q.attacking"),
                                      choices=tuple(Choice(s, s) for s in self.sides))
            while True:
                try:
                    self.attacking = str(self.inner.ask(question))
                    break
                except GoBack:
                    continue  # nothing before it to go back to: asked again
        return self.attacking

    def attacking_side(self) -> str | None:
        """The side attacking now, for the game's log entry: once a phone has joined, the
        seat's own question decides it (asked here if not yet), so that a formation's side is
        not asked a second time; without a phone, only what is already known."""
        if self.attacking is None and len(self.sides) == 2:
            from referee.game.live import phones

            if phones(self.path):
                return self._attacking()
        return self.attacking

    def owner(self, question: Question) -> str | None:
        """The side whose phone answers ``question`` now (``None``: the terminal)."""
        if question.answered_by not in (ATTACKER, DEFENDER) or len(self.sides) != 2:
            return None
        from referee.game.live import phones

        joined = phones(self.path)
        if not joined:
            return None
        attacking = self._attacking()
        if attacking is None:
            return None
        side = attacking if question.answered_by == ATTACKER else next(
            s for s in self.sides if s != attacking)
        return side if side in joined else None

    # --- asking ---------------------------------------------------------------------------

    def ask(self, question: Question) -> Any:
        from referee.render.display import answer_text

        ids = [s["id"] for s in self.progress.steps]
        if question.id in ids:  # asked again after going back: what came after it is gone
            self.progress.back_to(ids[:ids.index(question.id)])
        side = self.owner(question)
        self.progress.ask(question, side)
        value = self.inner.ask(question) if side is None else self._at_phone(question, side)
        self.progress.answered(question, answer_text(question, value), side)
        return value

    def _at_phone(self, question: Question, side: str) -> Any:
        from referee.catalog import render
        from referee.game import live
        from referee.game.asked import question_json

        can_back = self.table is not None and self.table.can_go_back()
        offered = self.table.offered(question) if self.table is not None else None
        asked = question_json(question, can_back=can_back, default=offered)
        try:
            qid = live.put_question(self.path, self.entry, side, asked)
        except (live.LiveBusy, GameFileError, sqlite3.Error):
            return self.inner.ask(question)  # the file stays busy: asked here
        self.say(render(Msg.of("game.serve.waiting", side=side)))
        try:
            while True:
                if self.keyboard.enter(POLL_SECONDS) and _or_false(live.claim, self.path, qid):
                    return self.inner.ask(question)
                try:
                    found = live.read_question(self.path, qid)
                except (GameFileError, sqlite3.Error):
                    continue  # busy for a moment: looked at again
                if found is None or live.serving(self.path) is None:
                    self.say(render(Msg.of("game.serve.gone", side=side)))
                    return self.inner.ask(question)
                if found.by == "terminal":
                    return self.inner.ask(question)
                if found.by == "phone" and found.answer is not None:
                    try:
                        taken, value = self._check(question, qid, found.answer, can_back)
                    except (live.LiveBusy, GameFileError, sqlite3.Error):
                        continue  # the refusal could not be written yet: checked again
                    if taken:
                        from referee.render.display import answer_text

                        shown = BACK_KEY if value is GoBack else answer_text(question, value)
                        self.say(render(Msg.of("game.serve.answered", question=question.text,
                                               answer=shown, side=side)))
                        if value is GoBack:
                            raise GoBack
                        return value
        finally:
            try:
                live.close(self.path, qid)
            except (live.LiveBusy, GameFileError, sqlite3.Error):
                pass  # the next question put closes it

    def _check(self, question: Question, qid: int, raw: str,
               can_back: bool) -> tuple[bool, Any]:
        """The phone's answer through the question's own ``accept``: taken (the value, or
        ``GoBack``), or refused back to the phone with its reason."""
        from referee.game import live

        text = raw.strip()
        if text == BACK_KEY:
            if can_back:
                return True, GoBack
            live.refuse(self.path, qid, jsonable(Msg.of("game.serve.error.no_back")))
            return False, None
        try:
            if text.casefold() == ROLL and question.kind == "dice":
                value: Any = ROLL
            else:
                value = question.accept(text)
        except AnswerError as err:
            live.refuse(self.path, qid, jsonable(err.msg))
            return False, None
        if question.kind == "dice":
            value = settle_dice(question, value, self.dice)  # type: ignore[arg-type]
        return True, value

    def finish(self) -> None:
        """The attack is over (written, abandoned or refused): the phones stop showing it."""
        self.progress.clear()


def opponents(seat: Seat, game: Any, ruleset: str, declaration: Any
              ) -> tuple[Seat, list[SeatPort]]:
    """``seat`` with its answerer behind a ``SeatPort`` when ``game serve`` serves the game
    file of ``game`` (a ``GamePlay``), and the ports made (to finish when the attack ends);
    else ``seat`` as it is: nothing changes at the table."""
    import dataclasses

    from referee.game.live import serving

    if game is None or seat.quiet or serving(game.file) is None:
        return seat, []
    from referee.game import read_game
    from referee.game.entry import roster_sides
    from referee.game.seed import game_info

    with read_game(game.file) as tx:
        info = game_info(tx)
        known = tx.sides()
    known.update(roster_sides(ruleset, declaration) if declaration is not None else {})
    named = [getattr(declaration, f, None) for f in ("firing", "attacker")]
    attackers = tuple(n for n in named if isinstance(n, str))
    attackers += tuple(f"cc.nation.{n}" for n in attackers)  # a Combat Commander nation
    made: list[SeatPort] = []
    inner = seat.answerer

    def answerer(dice: KeyedDice, answered: Answered) -> Port:
        port = SeatPort(inner(dice, answered), game.file, entry=game.number, ruleset=ruleset,
                        dice=dice, sides=tuple(info.sides) if info is not None else (),
                        known=known, attackers=attackers, say=seat.screen.say)
        port.table = answered
        made.append(port)
        return port

    return dataclasses.replace(seat, answerer=answerer), made


class PhoneBytes:
    """The opponent's part of each program roll of an entry, from the opponent's phone (the
    trusted dice' contribution, one value a roll): for roll ``j`` a request is written to the
    game file once the entry's declaration is written pending, the phone's page answers it
    at once with random bytes of its own, and those are roll ``j``'s contribution. The
    terminal says it waits; Enter there (or the phone gone, or the server stopped) takes a
    word typed at the terminal instead (``ask_word``: the opponent's word question, asked at
    the table), in one transaction that fails if the phone's bytes came first."""

    def __init__(self, path: Path, side: str, entry: int | None, *,
                 ask_word: Callable[[], str], say: Callable[[Any], None],
                 keyboard: Keyboard | None = None) -> None:
        self.path = path
        self.side = side
        self.entry = entry
        self.ask_word = ask_word
        self.say = say
        self.keyboard = keyboard if keyboard is not None else TerminalKeyboard()

    def fetch(self, roll: int) -> str:
        from referee.catalog import render
        from referee.game import live

        if self.side not in live.phones(self.path):
            return self.ask_word()
        try:
            request = live.ask_bytes(self.path, self.entry, roll, self.side)
        except (live.LiveBusy, GameFileError, sqlite3.Error):
            return self.ask_word()  # the file stays busy: the word asked here
        self.say(render(Msg.of("game.serve.waiting_bytes", side=self.side, roll=roll,
                               number=self.entry if self.entry is not None else "?")))
        try:
            while True:
                if self.keyboard.enter(POLL_SECONDS) and _or_false(live.claim_bytes,
                                                                    self.path, request):
                    return self.ask_word()
                try:
                    found = live.read_bytes(self.path, request)
                except (GameFileError, sqlite3.Error):
                    continue  # busy for a moment: looked at again
                if found is not None and found.by == "phone" and found.value is not None:
                    self.say(render(Msg.of("game.serve.gave_bytes", side=self.side, roll=roll,
                                           number=self.entry if self.entry is not None
                                           else "?", value=found.value)))
                    return found.value
                if found is None or found.by == "terminal" or live.serving(self.path) is None:
                    self.say(render(Msg.of("game.serve.gone", side=self.side)))
                    return self.ask_word()
        finally:
            try:
                live.close_bytes(self.path, request)
            except (live.LiveBusy, GameFileError, sqlite3.Error):
                pass  # the next request closes it


class PhoneSource:
    """Where an entry's contribution comes from while ``game serve`` serves the game file:
    the opponent's phone, a part for each program roll (``PhoneBytes``), when the opponent's
    side has a phone joined as the entry's first program die is drawn; else the word asked
    at the terminal (``asked``), as without a server."""

    def __init__(self, asked: AskedWord, path: Path, say: Callable[[Any], None],
                 keyboard: Keyboard | None = None) -> None:
        self.asked = asked
        self.path = path
        self.say = say
        self.keyboard = keyboard

    def contribution(self, number: int, side: str | None) -> Contribution:
        from referee.game.contribution import PerRoll, word_question
        from referee.game.live import phones

        if side is None or side not in phones(self.path):
            return self.asked.contribution(number, side)
        question = word_question(side)
        bytes_of = PhoneBytes(self.path, side, number, say=self.say, keyboard=self.keyboard,
                              ask_word=lambda: str(self.asked.ask(question)))
        return PerRoll(fetch=bytes_of.fetch)


def phone_source(asked: AskedWord, path: Path, say: Callable[[Any], None]
                 ) -> AskedWord | PhoneSource:
    """``asked`` (the opponent's word at the terminal), or the opponent's phone first while
    ``game serve`` serves ``path``."""
    from referee.game.live import serving

    return PhoneSource(asked, path, say) if serving(path) is not None else asked
