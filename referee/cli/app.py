"""The Typer app of ``referee``, the one place for errors and exit codes, and the app of one
command that keeps start-up fast. The command modules of this package register on ``app``;
this module imports none of them (imports point one way: commands to app, shared, table)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

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


def _new_app(*, completion: bool = False) -> typer.Typer:
    """The whole app offers Typer's --install-completion and --show-completion; the app of
    one command does not (Typer's completion code would load at every start)."""
    return typer.Typer(help=t("cli.help"), no_args_is_help=True, add_completion=completion,
                       context_settings={"help_option_names": ["-h", "--help"]})


def _types_as_words() -> None:
    """Typer's help shows a parameter's Python type (``<bool>``, ``<list[str]>``, ``<str>``);
    ours show words: a flag nothing, an argument its name (``RULESET``), an option its
    metavar (``N``, ``FILE``, ``NAME=VALUE``) or its choices (``typed|auto``). Guarded: a Typer
    without these methods keeps its own."""
    from typer import core

    option = getattr(core.TyperOption, "display_type_rich", None)
    if option is None or getattr(option, "referee", False):
        return

    def option_type(self: core.TyperOption, ctx: Any) -> str | None:
        if self.is_flag and self.metavar is None:
            return None
        shown = option(self, ctx)
        return str(shown).removeprefix("<").removesuffix(">") if shown else None

    option_type.referee = True  # type: ignore[attr-defined]
    core.TyperOption.display_type_rich = option_type  # type: ignore[method-assign]
    if hasattr(core.TyperArgument, "display_type_rich"):
        core.TyperArgument.display_type_rich = (  # type: ignore[method-assign]
            lambda self, ctx: None)


_types_as_words()
app = _new_app(completion=True)


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


def _version(value: bool) -> None:
    if value:
        typer.echo(t("cli.version.line", version=__version__))
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version,
                                                is_eager=True,
                                                help=t("cli.opt.version"))] = False,
          lang: Annotated[str | None, typer.Option(
              "--lang", metavar="ru|en", help=t("cli.opt.lang"))] = None) -> None:
    """Referee: guided attacks, rule-table lookups and scripted dry runs. (``--lang`` is
    read before Typer, by ``referee.entry``, anywhere on the command line: here it is
    listed in the help, and taken and ignored when a caller passes it through.)"""


def app_for(argv: list[str]) -> typer.Typer:
    """The app to run for ``argv``: when it names a command, an app holding that command
    alone (Typer converts every registered command on each start; converting one keeps
    ``referee lookup`` fast); otherwise, for ``--help``, mistakes and the shell's completion
    (``_REFEREE_COMPLETE`` set), the whole app."""
    import os

    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return app
    name = next((a for a in argv if not a.startswith("-")), None)
    for info in app.registered_commands:
        callback_name = info.callback.__name__ if info.callback else ""
        if name is not None and name == (info.name or callback_name.replace("_", "-")):
            single = _new_app()
            single.registered_callback = app.registered_callback
            single.registered_commands = [info]
            return single
    return app




_app_for = app_for  # the name tests and the fuzzer know


def main() -> None:
    """Console-script entry point."""
    import sys

    app_for(sys.argv[1:])(obj=Environment.from_system())
