"""An attack at the table: the port it asks through (the terminal's prompts, automatic dice,
the odds, going back), what it shows before and after (the game's state, the what-if, the
result), for ``attack``, ``epic-shoot`` and ``phase``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO, cast

from referee.cli.shared import OddsMode, _console, _print_json, _prompt_console
from referee.context import Environment
from referee.core.errors import NoTerminalError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.dice import KeyedDice


def _play(env: Environment, plan: Any, port: Any, json_: bool, **play: Any) -> None:
    """Resolve at the table and show the result (also when the record could not be written
    at the end: the outcome first, then the error). With a game file, its state comes first,
    where the questions are asked."""
    from referee import api

    def show_state(tables: Any) -> None:
        from referee.render.console import print_table

        if not json_ or env.prompts_apart:
            for table in tables:
                print_table(_prompt_console(env), table)

    try:
        result = api.play(plan, port, show_state=show_state, whatif=_whatif_show(env, port),
                          ask_sides=True, contribution=_asked_word(port), **play)
    except api.RecordWriteError as err:
        _show_result(env, err.result, plan.seed, json_, port, game=plan.game)
        show_code(env, plan.game, json_)
        raise
    _show_result(env, result, plan.seed, json_, port, game=plan.game)
    show_code(env, plan.game, json_)


def _asked_word(port: Any) -> Any:
    """The opponent's word for an entry's dice, typed at the table (the prompts under the
    rewind port: going back does not reach it)."""
    from referee.game.contribution import AskedWord
    from referee.game.record import ask_at_table

    return AskedWord(ask_at_table(port.inner))


def show_code(env: Environment, game: Any, json_: bool) -> None:
    """After an entry of a game made by ``game new``: its check code, for the opponent to
    note (``game verify --check CODE`` proves the log up to it later)."""
    if json_ or game is None or not game.committed or not game.code:
        return
    from referee.render.console import print_message

    print_message(_console(env), Msg.of("game.code_after", number=game.number,
                                        code=game.code), style="bold")


def game_json(game: Any) -> dict[str, Any] | None:
    """The entry of a game made by ``game new`` a result was written as (``null``: none)."""
    if game is None or not game.committed or game.code is None:
        return None
    return {"file": str(game.file), "number": game.number, "check_code": game.code}


def _announce(env: Environment, seed: int | None, json_: bool, game: Any = None) -> None:
    """The seed to repeat the run with; in a game made by ``game new``, the entry whose
    dice the game's secret seed and the opponent's word roll."""
    if not json_:
        from referee.render.console import print_message

        if game is not None and game.committed:
            msg = Msg.of("game.announce_holder" if game.info.holder_dice else "game.announce",
                         number=game.number, commitment=game.info.commitment[:16],
                         opponent=game.info.opponent_side)
        else:
            msg = Msg.of("run.seed", seed=seed)
        print_message(_console(env), msg, style="dim")


def _terminal_port(env: Environment, dice: KeyedDice, *, auto_dice: bool,
                   json_: bool, odds: OddsMode = OddsMode.compact, game: Any = None) -> Any:
    """The port an attack at the table asks: the terminal's prompts (or a test's port), the
    automatic dice, the odds before each roll, and going back (``RewindPort``, outermost).
    In a game (``game``: a ``GamePlay``), the dice typed in the undone attack this one
    redoes are shown again before their question."""
    from referee.frontends.rewind import RewindPort
    from referee.frontends.wrappers import AutoDicePort, EchoPort, ShowPort
    from referee.render.console import print_message, print_table, show_answer, show_under

    console = _prompt_console(env)
    # JSON on the screen the questions are asked on: nothing besides the prompts
    quiet = json_ and not env.prompts_apart
    interactive = None
    port: Any
    if env.port_factory is not None:
        port = env.port_factory(dice)
        if not quiet:
            port = EchoPort(port, lambda q, v: show_answer(console, q, v),
                            lambda q, v: show_under(console, q, v))
    elif env.stdin_isatty:
        from referee.frontends.interactive import InteractivePort

        output = None
        if env.prompts_apart:
            from prompt_toolkit.output import create_output

            output = create_output(stdout=cast("TextIO", env.prompt_stream))
        port = interactive = InteractivePort(dice, say=lambda text: print_message(console, text),
                                             output=output)
    else:
        raise NoTerminalError(Msg.of("error.no_terminal"))
    fixed = None
    if game is not None and game.committed:  # the program's rolls, once shown, are fixed
        from referee.frontends.fixed import FixedRolls

        port = fixed = FixedRolls(port, lambda msg: print_message(console, msg))
    if not quiet:
        def show_tables(tables: Any) -> None:
            for table in tables:
                print_table(console, table)

        port = ShowPort(port, show_tables)  # the proposal a question asks about, first
    if auto_dice:
        def on_roll(question: Any, value: Any) -> None:
            if not quiet:
                show_answer(console, question, value)

        port = AutoDicePort(port, dice, on_roll=on_roll)
    checkpoints = []
    if game is not None and game.typed_then:
        from referee.game.record import TypedThenPort

        port = TypedThenPort(port, game.typed_then,
                             None if quiet else lambda msg: print_message(console, msg))
    # by value: the ruleset commands' modules may hold an OddsMode of another load of this one
    if odds != OddsMode.none:
        from referee.frontends.odds import OddsPort

        def show(lines: list[str]) -> None:
            for line in lines:
                print_message(console, line, style="dim")

        # outside the auto dice, so that the odds come before the roll is shown
        port = OddsPort(port, show=None if quiet else show, full=odds == OddsMode.full)
        checkpoints.append(port)
    rewind = RewindPort(port, dice, say=lambda msg: print_message(console, msg),
                        checkpoints=checkpoints, fixed=fixed)
    if interactive is not None:
        interactive.table = rewind
    if fixed is not None:
        fixed.table = rewind
    return rewind


def _whatif_show(env: Environment, port: Any) -> Any:
    """Where each option's end states are shown before a choice: where the odds are shown
    (none with --odds none, nor with JSON on the screen of the questions)."""
    if not _shows_odds(port):
        return None
    from referee.render.console import print_message

    def show(lines: list[str]) -> None:
        for line in lines:
            print_message(_prompt_console(env), line, style="dim")

    return show


def _shows_odds(port: Any) -> bool:
    """Whether the table shows odds (an ``OddsPort`` that shows them, under the rewind)."""
    return getattr(_odds_port(port), "show", None) is not None


def _odds_port(port: Any) -> Any:
    """The ``OddsPort`` under any recording wrapper (``None``: the odds are not worked out,
    as with ``--no-odds``)."""
    from referee.core.port import below

    return below(port, "records")


def _odds_records(port: Any) -> list[Any]:
    """The odds a port recorded (an ``OddsPort`` under any recording wrapper), else none
    (without loading the game file's code, which a run without a game file does not need)."""
    found = _odds_port(port)
    return list(found.records) if found is not None else []


def _show_result(env: Environment, result: Any, seed: int | None, json_: bool,
                 port: Any = None,
                 *, odds_after: bool = False, game: Any = None) -> None:
    records = _odds_records(port)
    if json_:
        from referee.render.json_out import document, result_json

        body = result_json(result, records if _odds_port(port) is not None else None)
        _print_json(env, document("result", ruleset=body.pop("ruleset"), seed=seed,
                                  game=game_json(game), **body))
        return
    from referee.render.console import print_lines, print_result

    console = _console(env)
    print_result(console, result)
    if odds_after and records:
        from referee.render.odds import records_lines

        print_lines(console, records_lines(records))


