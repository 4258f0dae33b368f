"""The Typer app of ``referee``, the frame of every command (``framed``: its output, errors
and exit codes, in one place), and the app of one command that keeps start-up fast. The
command modules of this package register on ``app``; this module imports none of them
(imports point one way: commands to app, shared, seat; app and seat to shared)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn

import typer
from typer._click.exceptions import ClickException
from typer.core import TyperGroup

from referee import __version__
from referee.catalog import render, t
from referee.cli.shared import Out
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


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asks for JSON (``--json`` before any ``--``)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


class _Group(TyperGroup):
    """The app's group: with ``--json`` on the command line, a command line Typer cannot
    parse (an unknown option, a missing argument, a bad value) is reported as a JSON error
    document too, with Typer's exit code (2)."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Any = None, **extra: Any) -> Any:
        as_json = wants_json(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except ClickException as error:
            if not as_json:
                raise
            self._json_usage_error(extra.get("obj"), error)
        ctx.meta["referee.json"] = as_json
        return ctx

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ClickException as error:
            if not ctx.meta.get("referee.json"):
                raise
            self._json_usage_error(ctx.find_root().obj, error)

    @staticmethod
    def _json_usage_error(obj: Any, error: ClickException) -> NoReturn:
        from referee.help_chrome import usage_message

        env = obj if isinstance(obj, Environment) else Environment.from_system()
        _report(env, True, error.exit_code, usage_message(error.format_message()))
        raise typer.Exit(error.exit_code)


def _new_app(*, completion: bool = False) -> typer.Typer:
    """The whole app offers Typer's --install-completion and --show-completion; the app of
    one command does not (Typer's completion code would load at every start)."""
    return typer.Typer(help=t("cli.help"), no_args_is_help=True, add_completion=completion,
                       cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})


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
def _guarded(env: Environment, json_: bool = False) -> Iterator[None]:
    """One place for errors and exit codes: a message and a code, never a traceback. A
    failure the referee did not foresee is a bug: one line and exit code 1 (with
    ``REFEREE_DEBUG`` set, the traceback instead). With ``json_`` (the command's ``--json``)
    the error is one JSON document on standard error instead of the ``error: ...`` line
    (the exit code is the same). A notice said meanwhile (``referee.notices``) is a line on
    standard error."""
    from referee.notices import listening

    def note(msg: Msg) -> None:
        env.stderr.write(visible(render(msg)) + "\n")

    try:
        with listening(note):
            yield
    except RefereeError as error:
        code = _exit_code(error)
        _report(env, json_, code, error.msg, error=error)
        raise typer.Exit(code) from None
    except KeyboardInterrupt as interrupt:
        hint = interrupt.hint if isinstance(interrupt, Interrupted) else None
        if json_:
            _report(env, json_, ExitCode.INTERRUPTED, Msg.of("error.interrupted"), hint=hint)
        else:
            env.stderr.write("\n" + t("error.interrupted") + "\n")
            if hint is not None:
                env.stderr.write(visible(render(hint)) + "\n")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except (typer.Exit, typer.Abort, EOFError):
        raise
    except Exception as error:
        import os

        if os.environ.get("REFEREE_DEBUG"):
            raise
        detail = str(error)
        detail = detail if len(detail) <= 200 else detail[:200] + "…"
        _report(env, json_, ExitCode.ERROR,
                Msg.of("error.bug", kind=type(error).__name__, detail=detail))
        raise typer.Exit(ExitCode.ERROR) from None


@contextmanager
def framed(ctx: typer.Context, json_: bool = False) -> Iterator[Out]:
    """The frame of every command, written once: its environment, its output (JSON or text,
    ``Out``), and its errors and exit code (``_guarded``)."""
    obj = ctx.find_root().obj
    env = obj if isinstance(obj, Environment) else Environment.from_system()
    with _guarded(env, json_):
        yield Out(env, json_)


def _report(env: Environment, json_: bool, code: int, msg: Msg,
            error: RefereeError | None = None, hint: Msg | None = None) -> None:
    """An error on standard error: ``error: MESSAGE``, or with ``json_`` its JSON
    document (``referee.render.json_out.error_json``)."""
    if json_:
        from referee.render.json_out import dumps, error_json

        env.stderr.write(dumps(error_json(code, msg, error, hint)) + "\n")
    else:
        env.stderr.write(visible(t("error.prefix", message=render(msg))) + "\n")


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
    read before Typer, by ``referee.start``, anywhere on the command line: here it is
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




_app_for = app_for  # the name tests and the fuzzer know


def main() -> None:
    """Console-script entry point."""
    import sys

    app_for(sys.argv[1:])(obj=Environment.from_system())
