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
                 stdout_isatty: bool = False, color: bool = True,
                 port_factory: Callable[[Any], Any] | None = None) -> None:
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr
        self.stdin_isatty = stdin_isatty
        self.stdout_isatty = stdout_isatty
        self.color = color
        # Tests inject a factory (rng) -> Port used in place of the terminal prompts.
        self.port_factory = port_factory

    @classmethod
    def from_system(cls) -> Environment:
        return cls(stdin_isatty=_isatty(sys.stdin), stdout_isatty=_isatty(sys.stdout),
                   color=not os.environ.get("NO_COLOR"))  # set and non-empty: no colour


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
