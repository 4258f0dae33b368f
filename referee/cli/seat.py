"""Where an attack at the board is asked and shown: the ``Seat`` the application layer plays
it at (the terminal's prompts or a test's port, the prompt console), the seed announced, and
the result, for ``attack``, ``epic-shoot`` and ``phase``; in a game made by ``game new``, the
opponent's word asked at the board and the check code shown after each entry. ``Questions``:
the questions a command asks at the terminal outside an attack (``game new``'s sides, the
word of ``run``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

from referee.cli.shared import OddsMode
from referee.core.errors import NoTerminalError
from referee.core.text import Msg

if TYPE_CHECKING:
    from rich.console import Console

    from referee.cli.shared import Out
    from referee.core.dice import KeyedDice
    from referee.core.port import Port
    from referee.core.questions import Question
    from referee.core.table import Table
    from referee.frontends.rewind import Answered
    from referee.play.attack import Played
    from referee.play.stack import Seat


class Questions:
    """The questions one command asks at the terminal (a test's port in tests and
    transcripts: one port a command, so that its answers come in order); with no terminal,
    a message naming the flag that gives the answer instead."""

    def __init__(self, out: Out) -> None:
        self.out = out
        self.port: Any = None

    def ask(self, question: Question, flag: str) -> Any:
        if self.port is None:
            self.port = self._port(flag)
        return self.port.ask(question)

    def _port(self, flag: str) -> Any:
        from referee.core.dice import KeyedDice
        from referee.render.console import print_message, show_answer

        env, console = self.out.env, self.out.prompts
        if env.port_factory is not None:
            from referee.frontends.wrappers import EchoPort

            return EchoPort(env.port_factory(KeyedDice(0)),
                            lambda q, v: show_answer(console, q, v))
        if env.stdin_isatty:
            from referee.frontends.interactive import InteractivePort

            return InteractivePort(KeyedDice(0), say=lambda text: print_message(console, text))
        raise NoTerminalError(Msg.of("game.error.no_terminal", flag=flag))


class _Screen:
    """The prompt console (``stack.Screen``): questions, hints, the odds before a roll and
    echoes go there."""

    def __init__(self, console: Console, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet  # JSON on the same screen: the prompts only

    def say(self, msg: Msg | str) -> None:
        from referee.render.console import print_message

        if not self.quiet:
            print_message(self.console, msg)

    def tables(self, tables: Sequence[Table]) -> None:
        from referee.render.console import print_table

        for table in tables:
            print_table(self.console, table)

    def answer(self, question: Question, value: Any) -> None:
        from referee.render.console import show_answer

        show_answer(self.console, question, value)

    def under(self, question: Question, value: Any) -> None:
        """A program roll's dice under its question, shown before the opponent's word."""
        from referee.render.console import show_under

        show_under(self.console, question, value)

    def lines(self, lines: list[str]) -> None:
        from referee.render.console import print_message

        for line in lines:
            print_message(self.console, line, style="dim")


def _seat(out: Out, *, auto_dice: bool, odds: OddsMode = OddsMode.compact) -> Seat:
    """Where an attack at the board is asked: the terminal's prompts (or a test's port, each
    answer echoed as the player would have seen it), and what is shown beside them
    (nothing but the prompts with JSON on their screen). No terminal: refused now, before
    anything is shown."""
    from referee.play.stack import Seat

    env = out.env
    # JSON on the screen the questions are asked on: nothing besides the prompts
    quiet = out.json and not env.prompts_apart
    screen = _Screen(out.prompts, quiet)
    factory = env.port_factory
    answerer: Callable[[KeyedDice, Answered], Port]
    if factory is not None:
        def from_test(dice: KeyedDice, _answered: Answered) -> Port:
            port: Port = factory(dice)
            if quiet:
                return port
            from referee.frontends.wrappers import EchoPort

            return EchoPort(port, screen.answer, screen.under)

        answerer = from_test
    elif env.stdin_isatty:
        output = None
        if env.prompts_apart:
            from prompt_toolkit.output import create_output

            output = create_output(stdout=cast("TextIO", env.prompt_stream))

        def at_terminal(dice: KeyedDice, answered: Answered) -> Port:
            from referee.frontends.interactive import InteractivePort

            return InteractivePort(dice, say=screen.say, output=output, going_back=answered)

        answerer = at_terminal
    else:
        raise NoTerminalError(Msg.of("error.no_terminal"))
    # by value: the ruleset commands' modules may hold an OddsMode of another load of this one
    return Seat(answerer, screen, quiet=quiet, auto_dice=auto_dice,
                odds=odds != OddsMode.none, full_odds=odds == OddsMode.full)


def _announce(out: Out, seed: int | None, game: Any = None) -> None:
    """The seed to repeat the run with; in a game made by ``game new``, the entry whose
    dice the game's secret seed and the opponent's word roll."""
    if not out.json:
        from referee.render.console import print_message

        if game is not None and game.committed:
            msg = Msg.of("game.announce_holder" if game.info.holder_dice else "game.announce",
                         number=game.number, commitment=game.info.commitment[:16],
                         opponent=game.info.opponent_side)
        else:
            msg = Msg.of("run.seed", seed=seed)
        print_message(out.console, msg, style="dim")


def show_code(out: Out, game: Any) -> None:
    """After an entry of a game made by ``game new``: its check code, for the opponent to
    note (``game verify --check CODE`` proves the log up to it later)."""
    if out.json or game is None or not game.committed or not game.code:
        return
    from referee.render.console import print_message

    print_message(out.console, Msg.of("game.code_after", number=game.number,
                                      code=game.code), style="bold")


def game_json(game: Any) -> dict[str, Any] | None:
    """The entry of a game made by ``game new`` a result was written as (``null``: none)."""
    if game is None or not game.committed or game.code is None:
        return None
    return {"file": str(game.file), "number": game.number, "check_code": game.code}


def asked_word(out: Out) -> Any:
    """The opponent's word for an entry's dice asked at the terminal (``run``, outside the
    attack's stack: a script answers the rest)."""
    from referee.game.contribution import AskedWord

    questions = Questions(out)
    return AskedWord(lambda question: questions.ask(question, "--word"))


def _show_result(out: Out, played: Played, seed: int | None, *,
                 odds_after: bool = False, full_odds: bool = False,
                 game: Any = None, working: bool = True) -> None:
    """The result (the odds of each roll with it: in JSON, or after it with ``odds_after``):
    the whole working (``working``: a scripted run, ``--working``), else the outcome screen
    (``render.outcome``: what happened to each unit by name, the rolls and how lucky they
    were, the outcome line; issue 27). A roll's end states are given where it first predicts
    them, or at every roll with ``full_odds`` (``--odds full``); ``game``: the game entry it
    was written as."""
    if out.json:
        from referee.render.json_out import result_json

        body = result_json(played.result, played.odds, every_end_state=full_odds)
        out.document("result", ruleset=body.pop("ruleset"), seed=seed, game=game_json(game),
                     **body)
        return
    from referee.render.console import print_lines, print_result

    if not working:
        from referee.render.outcome import outcome_lines

        if played.result.non_default_options:
            print_result(out.console, played.result, steps=False, outcome=False)
        print_lines(out.console, outcome_lines(played.result, played.odds or []))
        return
    print_result(out.console, played.result)
    if odds_after and played.odds:
        from referee.render.odds import rolls_lines

        print_lines(out.console, rolls_lines(played.odds, full=full_odds))


def _play(out: Out, plan: Any, seat: Seat, *, working: bool = False, **how: Any) -> None:
    """Play at the seat and show the result (also when the record could not be written at
    the end: the outcome first, then the error): the outcome screen, or with ``working``
    the whole working."""
    from referee.play.attack import RecordWriteError, at_seat

    try:
        played = at_seat(plan, seat, **how)
    except RecordWriteError as err:
        _show_result(out, err.played, plan.seed, full_odds=seat.full_odds, game=plan.game,
                     working=working)
        show_code(out, plan.game)
        raise
    _show_result(out, played, plan.seed, full_odds=seat.full_odds, game=plan.game,
                 working=working)
    show_code(out, plan.game)
