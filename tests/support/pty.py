"""Driving referee through a real pseudo-terminal (pexpect): shared by the pty tests.

The child runs with ``PROMPT_TOOLKIT_NO_CPR=1``: prompt_toolkit asks the terminal where the
cursor is (``ESC[6n``) and, when nothing answers (pexpect does not emulate a terminal), waits
about a second per prompt before giving up. A real terminal answers at once. It starts with
Ctrl-C and Ctrl-\\ as at a terminal (``at_a_terminal``), whatever the test run inherited.
The ``spawn`` fixture that starts children is in ``tests/conftest.py``.
"""

from __future__ import annotations

import os
import re
import signal
import sys

import pexpect

from tests.support import ROOT

TIMEOUT = 15
ROWS, COLS = 50, 200  # wide enough that no table row of these attacks wraps

DOWN = "\x1b[B"
ENTER = "\r"
CTRL_C = "\x03"

_ANSI = re.compile(r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI: colours, cursor moves, modes
  | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)  # OSC: window title and the like
  | \x1b[()][0-9A-Za-z]                # character set selection
  | \x1b[=>78]                         # keypad modes, save/restore cursor
""", re.VERBOSE)


def strip_ansi(text: str) -> str:
    """Terminal output as plain text: escapes removed, line ends made ``\\n``."""
    text = _ANSI.sub("", text)
    text = re.sub(r"\r+\n", "\n", text)
    return text.replace("\r", "")


def squash(text: str) -> str:
    return " ".join(text.split())


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("COLUMNS", "LINES", "NO_COLOR"):  # let the pty size and colours decide
        env.pop(name, None)
    env.update(TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", PYTHONIOENCODING="utf-8")
    return env


def at_a_terminal() -> None:
    """Run in the child before it starts (pexpect's ``preexec_fn``): Ctrl-C and Ctrl-\\ act
    as at a terminal. A test run started in the background by a shell without job control
    (``pytest &`` in a script, some CI runners) has SIGINT and SIGQUIT ignored, and a child
    inherits that: Python then installs no KeyboardInterrupt handler, and the Ctrl-C a test
    types would not end ``game follow``."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def start(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "referee", *args], cwd=str(ROOT),
                         env=child_env(), encoding="utf-8", timeout=TIMEOUT,
                         dimensions=(ROWS, COLS), preexec_fn=at_a_terminal)


class Session:
    """A child plus everything it printed, for assertions after it ends."""

    def __init__(self, child) -> None:
        self.child = child
        self.seen: list[str] = []

    def expect(self, text: str) -> None:
        self.child.expect_exact(text)
        self.seen.append(self.child.before + self.child.after)

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.seen.append(self.child.before)
        self.child.close()
        assert self.child.signalstatus is None, f"killed by signal {self.child.signalstatus}"
        return self.child.exitstatus

    @property
    def text(self) -> str:
        return strip_ansi("".join(self.seen))


def choose(s: Session, question: str, choices: list[str], default: str, wanted: str) -> None:
    s.expect(question)
    s.child.send(DOWN * (choices.index(wanted) - choices.index(default)) + ENTER)
