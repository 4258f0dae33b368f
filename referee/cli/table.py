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
                          ask_sides=True, **play)
    except api.RecordWriteError as err:
        _show_result(env, err.result, plan.seed, json_, port)
        raise
    finally:
        _seat_done(port)
    _show_result(env, result, plan.seed, json_, port)


def _seat_done(port: Any) -> None:
    """The attack is over (written, abandoned, refused): the phones stop showing it."""
    from referee.core.port import below

    seat = below(port, "progress")
    if seat is not None:
        seat.finish()


def _announce(env: Environment, seed: int | None, json_: bool, game: Any = None) -> None:
    """The seed to repeat the run with; in a game made by ``game new``, the entry whose
    dice the game's secret seed rolls."""
    if not json_:
        from referee.render.console import print_message

        msg = (Msg.of("game.announce", number=game.number,
                      commitment=game.info.commitment[:16])
               if game is not None and game.committed else Msg.of("run.seed", seed=seed))
        print_message(_console(env), msg, style="dim")


def _terminal_port(env: Environment, dice: KeyedDice, *, auto_dice: bool,
                   json_: bool, odds: OddsMode = OddsMode.compact, game: Any = None,
                   ruleset: str = "", declaration: Any = None) -> Any:
    """The port an attack at the table asks: the terminal's prompts (or a test's port), the
    automatic dice, the odds before each roll, and going back (``RewindPort``, outermost).
    In a game (``game``: a ``GamePlay``), the dice typed in the undone attack this one
    redoes are shown again before their question; while ``game serve`` serves the game
    file, the questions of a side whose phone is connected are put to that phone
    (``frontends.seat``, right above the prompts)."""
    from referee.frontends.rewind import RewindPort
    from referee.frontends.wrappers import AutoDicePort, EchoPort, ShowPort
    from referee.render.console import print_message, print_table, show_answer

    console = _prompt_console(env)
    # JSON on the screen the questions are asked on: nothing besides the prompts
    quiet = json_ and not env.prompts_apart
    interactive = None
    port: Any
    if env.port_factory is not None:
        port = env.port_factory(dice)
        if not quiet:
            port = EchoPort(port, lambda q, v: show_answer(console, q, v))
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
    seat = None
    if game is not None and not quiet:
        seat = _seat(env, game, dice, port, ruleset, declaration)
        if seat is not None:
            port = seat
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
                        checkpoints=checkpoints)
    if interactive is not None:
        interactive.table = rewind
    if seat is not None:
        seat.table = rewind
    return rewind


def _seat(env: Environment, game: Any, dice: Any, port: Any, ruleset: str,
          declaration: Any) -> Any:
    """The seat port over the prompts, when a server serves the game file (``None``: none
    serves it: nothing changes at the table)."""
    from referee.game.live import serving

    if serving(game.file) is None:
        return None
    from referee.frontends.seat import SeatPort
    from referee.game import read_game
    from referee.game.record import roster_sides
    from referee.game.seed import game_info
    from referee.render.console import print_message

    with read_game(game.file) as tx:
        info = game_info(tx)
        known = tx.sides()
    known.update(roster_sides(ruleset, declaration) if declaration is not None else {})
    named = [getattr(declaration, f, None) for f in ("firing", "attacker")]
    attackers = tuple(n for n in named if isinstance(n, str))
    attackers += tuple(f"cc.nation.{n}" for n in attackers)  # a Combat Commander nation
    console = _prompt_console(env)
    return SeatPort(port, game.file, entry=game.number, ruleset=ruleset, dice=dice,
                    sides=tuple(info.sides) if info is not None else (), known=known,
                    attackers=attackers, say=lambda text: print_message(console, text))


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
                 *, odds_after: bool = False) -> None:
    records = _odds_records(port)
    if json_:
        from referee.render.json_out import document, result_json

        body = result_json(result, records if _odds_port(port) is not None else None)
        _print_json(env, document("result", ruleset=body.pop("ruleset"), seed=seed, **body))
        return
    from referee.render.console import print_lines, print_result

    console = _console(env)
    print_result(console, result)
    if odds_after and records:
        from referee.render.odds import records_lines

        print_lines(console, records_lines(records))


