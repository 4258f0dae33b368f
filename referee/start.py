"""The ``referee`` console script: choose the language, then load the commands.

Help texts are rendered when ``referee.cli`` is imported (``t()`` in its decorators), so the
language is chosen before that import: ``--lang X`` or ``--lang=X`` anywhere before a ``--``
on the command line (taken out before Typer sees the arguments, so every command accepts it,
including commands added later), else the environment (LC_ALL, LC_MESSAGES, LANG), else
English. This module imports only the standard library and the catalogue, so start-up stays
light.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.catalog import (
    DEFAULT_LANG,
    available_languages,
    language_from_env,
    render,
    set_language,
    t,
)

if TYPE_CHECKING:
    import typer

LANG_FLAG = "--lang"


class LanguageError(ValueError):
    """``--lang`` without a value, or with a language that has no catalogue."""


def split_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """The language asked for with ``--lang`` (the last one wins) and the other arguments."""
    lang: str | None = None
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            rest.append(arg)
            rest.extend(args)
            break
        if arg == LANG_FLAG:
            value = next(args, None)
            if value is None:
                raise LanguageError("")
            lang = value
        elif arg.startswith(LANG_FLAG + "="):
            lang = arg.partition("=")[2]
        else:
            rest.append(arg)
    if lang is not None:
        lang = lang.strip().lower()
        if lang not in available_languages():
            raise LanguageError(lang)
    return lang, rest


def load_app(lang: str) -> typer.Typer:
    """The Typer app with its help texts in ``lang`` (the modules of ``referee.cli`` are
    loaded again when they were built in another language), and ``lang`` as the language of
    everything the commands show."""
    set_language(lang)
    chrome = sys.modules.get("referee.help_chrome")
    if lang != DEFAULT_LANG or (chrome is not None and chrome.applied):
        from referee import help_chrome

        help_chrome.translate()
    cli = sys.modules.get("referee.cli")
    if cli is None:
        cli = importlib.import_module("referee.cli")
    elif not str(cli.app.info.help).startswith(t("cli.help")):  # built in another language
        for name in cli.MODULES:  # the shared options first, then the app, then commands
            importlib.reload(sys.modules[name])
        cli = importlib.reload(cli)
    app: typer.Typer = cli.app
    note = t("cli.lang.note")
    if isinstance(app.info.help, str) and not app.info.help.endswith(note):
        app.info.help = f"{app.info.help}\n\n{note}"
    # the usage line's words ("[OPTIONS]", "COMMAND [ARGS]...") in the language too
    for info in (app.info, app.registered_callback):
        if info is not None:
            info.options_metavar = t("cli.chrome.options_metavar")
            info.subcommand_metavar = t("cli.chrome.command_metavar")
    for command in app.registered_commands:
        command.options_metavar = t("cli.chrome.options_metavar")
        if isinstance(command.help, str) and not command.help.endswith(note):
            command.help = f"{command.help}\n\n{note}"
    for group in app.registered_groups:  # referee game ...: the group and its commands
        group.options_metavar = t("cli.chrome.options_metavar")
        group.subcommand_metavar = t("cli.chrome.command_metavar")
        sub = group.typer_instance
        if sub is not None:
            for info in (sub.info, sub.registered_callback):
                if info is not None:
                    info.options_metavar = t("cli.chrome.options_metavar")
                    info.subcommand_metavar = t("cli.chrome.command_metavar")
            for command in sub.registered_commands:
                command.options_metavar = t("cli.chrome.options_metavar")
    return app


GC_YOUNG = 20_000  # allocations between two collections of the youngest generation


def _start(args: list[str]) -> list[str]:
    """The language chosen and the app loaded; the arguments left for the command."""
    try:
        lang, rest = split_lang(args)
    except LanguageError as error:
        from referee.core.text import Msg, visible
        from referee.exit_codes import ExitCode

        set_language(language_from_env())
        given = str(error)
        msg = (Msg.of("error.unknown_id", kind=Msg.of("kind.language"), given=given,
                      known=", ".join(available_languages()))
               if given else Msg.of("error.lang_value", flag=LANG_FLAG,
                                    known="|".join(available_languages())))
        from referee.cli.app import wants_json
        from referee.render.json_out import dumps, error_json

        if wants_json(args):
            sys.stderr.write(dumps(error_json(ExitCode.USAGE, msg)) + "\n")
        else:
            sys.stderr.write(visible(t("error.prefix", message=render(msg))) + "\n")
        raise SystemExit(ExitCode.USAGE) from None
    load_app(lang or language_from_env())
    return rest


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: ``referee [--lang ru|en] COMMAND ...``."""
    # Start-up allocates many objects and frees next to none: at the collector's default
    # pace (a collection every 700 allocations) a scripted run spent some 9 ms of its start
    # in ~85 collections that found nothing. No collection until what start-up loaded is
    # frozen; then one every GC_YOUNG allocations, which still keeps the cycles a long
    # command may leave in check (a few megabytes at most between two).
    gc.disable()
    try:
        rest = _start(sys.argv[1:] if argv is None else list(argv))
        # What is loaded so far (Typer, the commands, the catalogue) lives as long as the
        # process: out of the collector's way, so that the collections the command's own
        # imports trigger do not walk it again and again.
        gc.freeze()
    finally:
        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        gc.enable()
    from referee.cli import _app_for
    from referee.context import Environment

    _app_for(rest)(rest, obj=Environment.from_system())
