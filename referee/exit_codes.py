"""Exit codes of the ``referee`` command (documented in docs/promises.md)."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    ERROR = 1  # an unexpected failure (a bug: please report it)
    USAGE = 2  # a bad argument: unknown ruleset, table or option; a bad option value
    SCRIPT = 3  # a script, declaration or transcript file that cannot be used
    NO_TERMINAL = 4  # a question to ask and no terminal to ask it on
    GAME_FILE = 5  # a game file that cannot be opened or used
    INTERRUPTED = 130  # Ctrl-C
