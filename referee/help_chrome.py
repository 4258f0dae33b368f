"""Typer's own words in the chosen language: on the help screens (panel titles, ``Usage:``,
``[required]``, the ``--help`` line, "Try ... for help") and in its usage errors (a missing
argument, an unknown option, a bad value).

Typer renders the first from module constants (``typer.rich_utils``) and two literals of its
vendored click; ``translate`` replaces them with catalogue messages. Its usage errors are
English f-strings: they are matched against the English templates ``cli.usage.*`` and said
again in the current language. ``translate`` is called only for a language other than
English (or to switch back), so English start-up imports nothing more. Every step is
guarded: a Typer release that changes one of them leaves that text in English, never breaks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from referee.catalog import DEFAULT_LANG, catalogue, render, t
from referee.core.text import Msg

# typer.rich_utils constant -> catalogue id
CONSTANTS = {
    "ARGUMENTS_PANEL_TITLE": "cli.chrome.arguments",
    "OPTIONS_PANEL_TITLE": "cli.chrome.options",
    "COMMANDS_PANEL_TITLE": "cli.chrome.commands",
    "ERRORS_PANEL_TITLE": "cli.chrome.error",
    "REQUIRED_LONG_STRING": "cli.chrome.required",
    "ABORTED_TEXT": "cli.chrome.aborted",
}


_usage = "Usage: "  # the prefix the usage highlighter knows now
applied = False


def translate() -> None:
    """Typer's words in the current language (English included, to undo a translation)."""
    global applied
    applied = True
    try:
        from typer import rich_utils
        from typer._click import decorators, formatting
    except ImportError:  # pragma: no cover - a Typer without these modules
        return
    for name, msg_id in CONSTANTS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, t(msg_id))
    if hasattr(rich_utils, "RICH_HELP"):  # Typer formats its two fields itself
        rich_utils.RICH_HELP = t("cli.chrome.try_help", command_path="{command_path}",
                                 help_option="{help_option}")
    if hasattr(rich_utils, "DEFAULT_STRING"):
        # "[default: {}]" keeps its one positional field
        rich_utils.DEFAULT_STRING = t("cli.chrome.default", value="{}")
    global _usage
    usage = t("cli.chrome.usage") + " "
    write_usage = getattr(formatting.HelpFormatter, "write_usage", None)
    if write_usage is not None and len(write_usage.__defaults__ or ()) == 2:
        write_usage.__defaults__ = ("", usage)
        # the usage highlighter looks for the prefix to colour it
        highlighter = getattr(rich_utils, "highlighter", None)
        if highlighter is not None and hasattr(highlighter, "highlights"):
            highlighter.highlights = [h.replace(_usage, usage)
                                      for h in highlighter.highlights]
        _usage = usage
    formatter = getattr(rich_utils, "rich_format_error", None)
    if formatter is not None and not getattr(formatter, "referee_translated", False):
        setattr(rich_utils, "rich_format_error", _reworded_errors(formatter))  # noqa: B010
    original = getattr(decorators, "help_option", None)
    if original is not None and not getattr(original, "referee_translated", False):
        decorators.help_option = _translated_help_option(original)
    _completion_help()


def _completion_help() -> None:
    """The help of Typer's --install-completion and --show-completion: the defaults of the
    placeholder functions Typer reads them from."""
    try:
        from typer import completion
    except ImportError:  # pragma: no cover
        return
    ids = {"--install-completion": "cli.chrome.install_completion",
           "--show-completion": "cli.chrome.show_completion"}
    for name in ("_install_completion_placeholder_function",
                 "_install_completion_no_auto_placeholder_function"):
        function = getattr(completion, name, None)
        for default in getattr(function, "__defaults__", None) or ():
            decls = getattr(default, "param_decls", None) or ()
            key = next((d for d in decls if d in ids), None)
            if key is None and hasattr(default, "help"):
                key = ("--install-completion" if "install" in str(default.help).lower()
                       else "--show-completion")
            if key is not None and hasattr(default, "help"):
                default.help = t(ids[key])


def _translated_help_option(original: Callable[[list[str]], Any]) -> Callable[..., Any]:
    def help_option(param_decls: list[str]) -> Callable[[Any], Any]:
        decorate = original(param_decls)

        def apply(command: Any) -> Any:
            command = decorate(command)
            if getattr(command, "params", None):
                command.params[-1].help = t("cli.chrome.help")
            return command

        return apply

    help_option.referee_translated = True  # type: ignore[attr-defined]
    return help_option


# Typer's messages for a command line it cannot parse, longest first (a shorter one would
# swallow the rest of a longer one): matched against the English and said again in the
# current language; ``reason`` is itself re-worded.
USAGE_IDS = ("no_such_option_suggest", "no_such_option_possible", "no_such_option",
             "missing_argument", "missing_option", "extra_args", "needs_value",
             "invalid_value", "not_one_of", "not_integer")


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                              for i, p in enumerate(parts)) + r"\Z", re.S)


def usage_message(text: str) -> Msg:
    """A Typer usage message as a catalogue message: ``cli.usage.<kind>`` with the fields
    read from Typer's English (``reason`` itself re-worded), else ``cli.usage.other`` with
    the text as it is."""
    english = catalogue(DEFAULT_LANG)
    for key in USAGE_IDS:
        found = _pattern(english[f"cli.usage.{key}"]).match(text.strip())
        if found:
            fields = {k: reword_usage_error(v) if k == "reason" else v
                      for k, v in found.groupdict().items()}
            return Msg.of(f"cli.usage.{key}", **fields)
    return Msg.of("cli.usage.other", message=text)


def reword_usage_error(text: str) -> str:
    """A Typer usage message in the current language (unchanged when none matches)."""
    msg = usage_message(text)
    return text if msg.id == "cli.usage.other" else render(msg)


def _reworded_errors(original: Callable[[Any], None]) -> Callable[[Any], None]:
    def rich_format_error(error: Any) -> None:
        text = error.format_message()
        reworded = reword_usage_error(text)
        if reworded != text:
            error.format_message = lambda: reworded
        original(error)

    rich_format_error.referee_translated = True  # type: ignore[attr-defined]
    return rich_format_error
