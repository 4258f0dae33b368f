"""What every command of ``referee`` shares: the options (dice, odds, seed, game file, JSON),
the consoles results and prompts are written to, and where a command's output goes (``Out``,
which ``cli.app.framed`` gives each command with its error handling)."""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property
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
WorkingFlag = Annotated[bool, typer.Option("--working", help=t("cli.opt.working"))]
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


class Out:
    """Where a command's output goes: with ``json`` (its ``--json``), one document on standard
    output; else text on the results ``console``, and questions, hints and the odds before a
    roll on the ``prompts`` console (``cli.shared``)."""

    def __init__(self, env: Environment, json_: bool) -> None:
        self.env = env
        self.json = json_

    @cached_property
    def console(self) -> Console:
        return _console(self.env)

    @cached_property
    def prompts(self) -> Console:
        return _prompt_console(self.env)

    def document(self, kind: str, /, **fields: Any) -> None:
        """The command's JSON document of ``kind`` (``referee.render.json_out.document``)."""
        from referee.render.json_out import document, dumps

        self.env.stdout.write(dumps(document(kind, **fields)) + "\n")
