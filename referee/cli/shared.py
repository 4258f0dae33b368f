"""What every command of ``referee`` shares: the options (dice, odds, seed, game file, JSON),
the environment a command runs in, and the consoles results and prompts are written to."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.catalog import t
from referee.cli import complete
from referee.context import Environment

if TYPE_CHECKING:
    from rich.console import Console


class DiceMode(StrEnum):
    typed = "typed"
    auto = "auto"


class OddsMode(StrEnum):
    """How much of a roll's odds the table shows before it (``--no-odds``: ``none``)."""

    compact = "compact"
    full = "full"
    none = "none"


def helped(command: str) -> str:
    """A command's help with its example (``cli.<command>.help`` and ``.example``)."""
    return (t(f"cli.{command}.help") + "\n\n"
            + t("cli.example.line", command=t(f"cli.{command}.example")))


JsonFlag = Annotated[bool, typer.Option("--json", help=t("cli.opt.json"))]
SeedOpt = Annotated[int | None, typer.Option("--seed", help=t("cli.opt.seed"), metavar="N")]
# Files are read by the referee itself (referee.files, referee.game), which refuses what it
# cannot use with a one-line message and the file's exit code: Typer does not check them.
GameOpt = Annotated[Path | None, typer.Option("--game", help=t("cli.opt.game"), readable=False,
                                              metavar="FILE")]
NoOddsFlag = Annotated[bool, typer.Option("--no-odds", help=t("cli.opt.no_odds"))]
OddsOpt = Annotated[OddsMode, typer.Option("--odds", help=t("cli.opt.odds"))]
RulesetArg = Annotated[str, typer.Argument(help=t("cli.arg.ruleset"), metavar="RULESET",
                                           autocompletion=complete.rulesets)]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help=t("cli.opt.option"), metavar="NAME=VALUE",
    autocompletion=complete.options)]


def file_option(name: str, help_id: str) -> Any:
    """A ``--name FILE`` option (read by the referee's own reader, not checked by Typer)."""
    return typer.Option(name, help=t(help_id), readable=False, metavar="FILE")


RecordOpt = Annotated[Path | None, file_option("--record", "cli.opt.record")]
DeclarationOpt = Annotated[Path | None, file_option("--declaration", "cli.opt.declaration")]


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


def _print_json(env: Environment, data: Any) -> None:
    from referee.render.json_out import dumps

    env.stdout.write(dumps(data) + "\n")




def ask_terminal(env: Environment, question: Any, flag: str) -> Any:
    """Ask one question at the terminal (a test's port in tests and transcripts: one port a
    command, so that its answers come in order); with no terminal, a message naming the flag
    that gives the answer instead."""
    from referee.core.dice import KeyedDice
    from referee.core.errors import NoTerminalError
    from referee.core.text import Msg
    from referee.frontends.wrappers import EchoPort
    from referee.render.console import print_message, show_answer

    port: Any = getattr(env, "_game_port", None)
    if port is None:
        console = _prompt_console(env)
        if env.port_factory is not None:
            port = EchoPort(env.port_factory(KeyedDice(0)),
                            lambda q, v: show_answer(console, q, v))
        elif env.stdin_isatty:
            from referee.frontends.interactive import InteractivePort

            port = InteractivePort(KeyedDice(0), say=lambda text: print_message(console, text))
        else:
            raise NoTerminalError(Msg.of("game.error.no_terminal", flag=flag))
        env._game_port = port  # type: ignore[attr-defined]
    return port.ask(question)
