"""The environment a command runs in: streams, terminal flags, colour, and (for tests) the
port to use instead of a terminal. One value, injected, so tests can replace all of it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import IO, Any


class Environment:
    def __init__(self, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 stderr: IO[str] | None = None, stdin_isatty: bool = False,
                 stdout_isatty: bool = False, stderr_isatty: bool = False, color: bool = True,
                 port_factory: Callable[[Any], Any] | None = None) -> None:
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr
        self.stdin_isatty = stdin_isatty
        self.stdout_isatty = stdout_isatty
        self.stderr_isatty = stderr_isatty
        self.color = color
        # Tests inject a factory (dice) -> Port used in place of the terminal prompts.
        self.port_factory = port_factory

    @classmethod
    def from_system(cls) -> Environment:
        return cls(stdin_isatty=_isatty(sys.stdin), stdout_isatty=_isatty(sys.stdout),
                   stderr_isatty=_isatty(sys.stderr),
                   color=not os.environ.get("NO_COLOR"))  # set and non-empty: no colour

    @property
    def prompts_apart(self) -> bool:
        """Questions are asked at a terminal while the result goes elsewhere (a file, a pipe):
        the questions, hints, odds before a roll and echoes then go to standard error, so
        that standard output holds the result alone (``--json > out.json``, ``| tee``)."""
        return self.stdin_isatty and not self.stdout_isatty

    @property
    def prompt_stream(self) -> IO[str]:
        return self.stderr if self.prompts_apart else self.stdout

    @property
    def prompt_isatty(self) -> bool:
        return self.stderr_isatty if self.prompts_apart else self.stdout_isatty

    def terminal_width(self) -> int | None:
        """The width of the terminal the player sits at, when the result goes elsewhere."""
        if not self.prompts_apart or not self.stderr_isatty:
            return None
        try:
            return os.get_terminal_size(self.stderr.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return None


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
