"""The ``referee`` command: thin Typer commands over the documented Python API.

This module imports only Typer, the standard library and referee's light modules; rich
rendering, questionary, pydantic and the resolvers load inside the commands that need them,
so ``referee --help`` and ``referee lookup`` start fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO, cast

import typer

from referee import __version__
from referee.catalog import render, t
from referee.context import Environment
from referee.core.errors import (
    GameFileError,
    NoTerminalError,
    RefereeError,
    ScriptError,
    UsageError,
)
from referee.core.text import Msg, visible
from referee.exit_codes import ExitCode

if TYPE_CHECKING:
    from rich.console import Console

    from referee.core.dice import KeyedDice

def _new_app() -> typer.Typer:
    return typer.Typer(help=t("cli.help"), no_args_is_help=True, add_completion=False,
                       context_settings={"help_option_names": ["-h", "--help"]})


app = _new_app()


class DiceMode(StrEnum):
    typed = "typed"
    auto = "auto"


class OddsMode(StrEnum):
    """How much of a roll's odds the table shows before it (``--no-odds``: ``none``)."""

    compact = "compact"
    full = "full"
    none = "none"


JsonFlag = Annotated[bool, typer.Option("--json", help=t("cli.opt.json"))]
SeedOpt = Annotated[int | None, typer.Option("--seed", help=t("cli.opt.seed"))]
# Files are read by the referee itself (referee.files, referee.game), which refuses what it
# cannot use with a one-line message and the file's exit code: Typer does not check them.
GameOpt = Annotated[Path | None, typer.Option("--game", help=t("cli.opt.game"), readable=False)]
NoOddsFlag = Annotated[bool, typer.Option("--no-odds", help=t("cli.opt.no_odds"))]
OddsOpt = Annotated[OddsMode, typer.Option("--odds", help=t("cli.opt.odds"))]


def _odds_mode(odds: OddsMode, no_odds: bool) -> OddsMode:
    return OddsMode.none if no_odds else OddsMode(odds)


def _env(ctx: typer.Context) -> Environment:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, Environment) else Environment.from_system()


def _console(env: Environment) -> Console:
    """Where results go: standard output (NO_COLOR or no terminal: plain text, no escapes at
    all; piped from an attack at the terminal: at that terminal's width)."""
    from referee.render.console import make_console

    return make_console(env.stdout, terminal=env.stdout_isatty, color=env.color,
                        width=env.terminal_width())


def _prompt_console(env: Environment) -> Console:
    """Where questions, hints, the odds before a roll and echoes go: the terminal (standard
    error when standard output is a file or a pipe)."""
    from referee.render.console import make_console

    return make_console(env.prompt_stream, terminal=env.prompt_isatty, color=env.color)


def _exit_code(error: RefereeError) -> ExitCode:
    if isinstance(error, ScriptError):
        return ExitCode.SCRIPT
    if isinstance(error, UsageError):
        return ExitCode.USAGE
    if isinstance(error, NoTerminalError):
        return ExitCode.NO_TERMINAL
    if isinstance(error, GameFileError):
        return ExitCode.GAME_FILE
    return ExitCode.SCRIPT  # a scripted run whose answers do not fit its questions


@contextmanager
def _guarded(env: Environment) -> Iterator[None]:
    """One place for errors and exit codes: a message and a code, never a traceback. A
    failure the referee did not foresee is a bug: one line and exit code 1 (with
    ``REFEREE_DEBUG`` set, the traceback instead)."""
    try:
        yield
    except RefereeError as error:
        env.stderr.write(visible(t("error.prefix", message=render(error.msg))) + "\n")
        raise typer.Exit(_exit_code(error)) from None
    except KeyboardInterrupt as interrupt:
        env.stderr.write("\n" + t("error.interrupted") + "\n")
        if isinstance(interrupt, Interrupted):
            env.stderr.write(visible(render(interrupt.hint)) + "\n")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except (typer.Exit, typer.Abort, EOFError):
        raise
    except Exception as error:
        import os

        if os.environ.get("REFEREE_DEBUG"):
            raise
        detail = str(error)
        detail = detail if len(detail) <= 200 else detail[:200] + "…"
        env.stderr.write(visible(t("error.prefix", message=t(
            "error.bug", kind=type(error).__name__, detail=detail))) + "\n")
        raise typer.Exit(ExitCode.ERROR) from None


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or Ctrl-D with something to tell the player (how to resume)."""

    def __init__(self, hint: Msg) -> None:
        super().__init__()
        self.hint = hint


def _print_json(env: Environment, data: Any) -> None:
    from referee.render.json_out import dumps

    env.stdout.write(dumps(data) + "\n")


def _version(value: bool) -> None:
    if value:
        typer.echo(t("cli.version.line", version=__version__))
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version,
                                                is_eager=True,
                                                help=t("cli.opt.version"))] = False) -> None:
    """Referee: guided attacks, rule-table lookups and scripted dry runs."""


@app.command(help=t("cli.rulesets.help"))
def rulesets(ctx: typer.Context, json_: JsonFlag = False) -> None:
    from referee.rulesets import all_rulesets

    env = _env(ctx)
    with _guarded(env):
        infos = all_rulesets()
        if json_:
            _print_json(env, [{"id": i.id, "aliases": list(i.aliases), "name": render(i.name),
                               "edition": render(i.edition), "covers": render(i.covers),
                               "available": list(i.available), "tables": list(i.tables)}
                              for i in infos])
            return
        from referee.core.table import Table
        from referee.render.console import print_table

        rows = tuple((i.id, ", ".join(i.aliases), i.name, i.edition, i.covers,
                      ", ".join(i.available) or Msg.of("rulesets.coming"))
                     for i in infos)
        print_table(_console(env), Table(Msg.of("rulesets.title"),
                                         tuple(Msg.of(f"rulesets.col.{c}") for c in
                                               ("id", "aliases", "game", "edition", "covers",
                                                "available")), rows))


@app.command(help=t("cli.lookup.help"),
             context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def lookup(ctx: typer.Context,
           ruleset: Annotated[str, typer.Argument(help=t("cli.arg.ruleset"))],
           table: Annotated[str | None, typer.Argument(help=t("cli.arg.table"))] = None,
           key: Annotated[str | None, typer.Argument(help=t("cli.arg.key"))] = None,
           json_: JsonFlag = False) -> None:
    from referee.api import lookup as do_lookup
    from referee.api import lookup_tables

    env = _env(ctx)
    with _guarded(env):
        # everything after KEY (flags such as --cover, --defence 2, more keys) is the
        # table's own to read: the ruleset checks it and refuses what it does not take
        args = list(ctx.args)
        if key is not None and key.startswith("--"):
            args.insert(0, key)
            key = None
        if table is None:
            result = lookup_tables(ruleset)
        else:
            result = do_lookup(ruleset, table, key, args)
        if json_:
            from referee.render.json_out import table_json

            _print_json(env, table_json(result))
            return
        from referee.render.console import print_table

        print_table(_console(env), result)


@app.command(help=t("cli.attack.help"))
def attack(ctx: typer.Context,
           ruleset: Annotated[str, typer.Argument(help=t("cli.arg.ruleset"))],
           dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
           DiceMode.typed,
           seed: SeedOpt = None,
           record: Annotated[Path | None,
                             typer.Option("--record", help=t("cli.opt.record"))] = None,
           resume: Annotated[Path | None,
                             typer.Option("--resume", help=t("cli.opt.resume"))] = None,
           option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                            help=t("cli.opt.option"))] = None,
           declaration: Annotated[Path | None, typer.Option(
               "--declaration", help=t("cli.opt.declaration"), readable=False)] = None,
           roster: Annotated[Path | None, typer.Option(
               "--roster", help=t("cli.opt.roster"), readable=False)] = None,
           game: GameOpt = None,
           odds: OddsOpt = OddsMode.compact,
           no_odds: NoOddsFlag = False,
           json_: JsonFlag = False) -> None:
    from referee import api

    env = _env(ctx)
    with _guarded(env):
        answers: list[tuple[str, Any]] = []
        if resume is not None:
            if seed is not None or option or declaration is not None or roster is not None:
                raise UsageError(Msg.of("error.resume_fixed"))
            plan, answers = api.plan_resume(ruleset, resume)
            record = record or resume  # the record goes on in the file it came from
            if plan.game is not None:  # an attack of a game: the record names its file
                game = plan.game.file
        elif roster is not None:
            if declaration is not None:
                raise UsageError(Msg.of("error.roster_or_declaration"))
            # the pieces come from the roster; the ruleset asks which of them take part
            plan = api.plan_attack(ruleset, seed=seed, options=option or [],
                                   declaration={"roster": str(roster)}, game=game)
        else:
            plan = api.plan_attack(ruleset, seed=seed, options=option or [],
                                   declaration_file=declaration, game=game)
        port = _terminal_port(env, plan.dice, auto_dice=dice is DiceMode.auto, json_=json_,
                              odds=_odds_mode(odds, no_odds), game=plan.game)
        _announce(env, plan.seed, json_, plan.game)
        if resume is not None:
            from referee.render.console import print_message

            print_message(_prompt_console(env), Msg.of("run.resumed", file=str(resume),
                                                       count=len(answers)), style="dim")
        try:
            _play(env, plan, port, json_, game=game, record=record, command="attack",
                  resume=answers)
        except KeyboardInterrupt:
            if record is None:
                raise
            raise Interrupted(Msg.of("error.resume_hint", file=str(record),
                                     ruleset=plan.info.id)) from None


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
        result = api.play(plan, port, show_state=show_state, ask_sides=True, **play)
    except api.RecordWriteError as err:
        _show_result(env, err.result, plan.seed, json_, port)
        raise
    _show_result(env, result, plan.seed, json_, port)


@app.command(help=t("cli.run.help"))
def run(ctx: typer.Context,
        file: Annotated[Path, typer.Argument(help=t("cli.arg.file"), readable=False)],
        seed: SeedOpt = None,
        dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.run_dice"))] =
        DiceMode.typed,
        option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                         help=t("cli.opt.option"))] = None,
        game: GameOpt = None,
        no_odds: NoOddsFlag = False,
        json_: JsonFlag = False) -> None:
    from referee import api

    env = _env(ctx)
    with _guarded(env):
        plan, port = api.plan_script(file, seed=seed, options=option or [],
                                     auto_dice=dice is DiceMode.auto, game=game)
        if not no_odds:
            from referee.frontends.odds import OddsPort

            port = OddsPort(port, show=None)  # a script's odds follow its result
        result = api.play(plan, port, game=game, command="run")
        _show_result(env, result, plan.seed, json_, port, odds_after=True)
        if plan.dice.rolled:  # the seed matters only when the program rolled dice
            _announce(env, plan.seed, json_, plan.game)


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
                   json_: bool, odds: OddsMode = OddsMode.compact, game: Any = None) -> Any:
    """The port an attack at the table asks: the terminal's prompts (or a test's port), the
    automatic dice, the odds before each roll, and going back (``RewindPort``, outermost).
    In a game (``game``: a ``GamePlay``), the dice typed in the undone attack this one
    redoes are shown again before their question."""
    from referee.frontends.rewind import RewindPort
    from referee.frontends.wrappers import AutoDicePort, EchoPort
    from referee.render.console import print_message, show_answer

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
    if auto_dice:
        def on_roll(question: Any, value: Any) -> None:
            if not quiet:
                show_answer(console, question, value)

        port = AutoDicePort(port, dice, on_roll=on_roll)
    checkpoints = []
    if game is not None and game.typed_then:
        from referee.game_record import TypedThenPort

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
    return rewind


def _odds_records(port: Any) -> list[Any]:
    """The odds a port recorded (an ``OddsPort`` under any recording wrapper), else none."""
    from referee.game_record import odds_records

    return odds_records(port)


def _show_result(env: Environment, result: Any, seed: int | None, json_: bool, port: Any = None,
                 *, odds_after: bool = False) -> None:
    records = _odds_records(port)
    if json_:
        from referee.render.json_out import result_json

        extra: dict[str, Any] = {"seed": seed}
        if records:
            extra["odds"] = [r.to_json(render) for r in records]
        _print_json(env, result_json(result, extra))
        return
    from referee.render.console import print_lines, print_result

    console = _console(env)
    print_result(console, result)
    if odds_after and records:
        from referee.render.odds import records_lines

        print_lines(console, records_lines(records))


def _app_for(argv: list[str]) -> typer.Typer:
    """The app to run for ``argv``: when it names a command, an app holding that command
    alone (Typer converts every registered command on each start; converting one keeps
    ``referee lookup`` fast); otherwise, for ``--help`` and mistakes, the whole app."""
    name = next((a for a in argv if not a.startswith("-")), None)
    for group in app.registered_groups:
        if name is not None and name == group.name:
            single = _new_app()
            single.registered_callback = app.registered_callback
            single.registered_groups = [group]
            return single
    for info in app.registered_commands:
        callback_name = info.callback.__name__ if info.callback else ""
        if name is not None and name == (info.name or callback_name.replace("_", "-")):
            single = _new_app()
            single.registered_callback = app.registered_callback
            single.registered_commands = [info]
            return single
    return app


def main() -> None:
    """Console-script entry point."""
    import sys

    _app_for(sys.argv[1:])(obj=Environment.from_system())


# Commands that belong to one ruleset live in their own modules (light at import too).
from referee.cli_epic import epic_shoot as _epic_shoot  # noqa: E402
from referee.cli_lnlt import phase as _lnlt_phase  # noqa: E402
from referee.cli_waw import markers as _waw_markers  # noqa: E402

app.command("epic-shoot", help=t("cli.epic_shoot.help"))(_epic_shoot)
app.command("waw-markers", help=t("cli.waw_markers.help"))(_waw_markers)
app.command("phase", help=t("cli.phase.help"))(_lnlt_phase)
from referee.cli_odds import odds as _odds  # noqa: E402

app.command("odds", help=t("cli.odds.help"))(_odds)
from referee.cli_game import game_app as _game_app  # noqa: E402

app.add_typer(_game_app, name="game", help=t("cli.game.help"))
