"""The environment a command runs in: streams, terminal flags, colour, and (for tests) the
port to use instead of a terminal. One value, injected, so tests can replace all of it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any


@dataclass
class Environment:
    stdin: IO[str] = field(default_factory=lambda: sys.stdin)
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    stdin_isatty: bool = False
    stdout_isatty: bool = False
    color: bool = True
    # Tests inject a factory (rng) -> Port used in place of the terminal prompts.
    port_factory: Callable[[Any], Any] | None = None

    @classmethod
    def from_system(cls) -> Environment:
        return cls(stdin_isatty=_isatty(sys.stdin), stdout_isatty=_isatty(sys.stdout),
                   color="NO_COLOR" not in os.environ)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
