"""Shared fixtures and options for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-transcripts", action="store_true",
                     help="rewrite the outputs recorded in transcripts/ and README.md")


@pytest.fixture
def root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The repository root, as the working directory (transcripts name files from there)."""
    monkeypatch.chdir(ROOT)
    return ROOT


def pytest_configure(config: pytest.Config) -> None:
    # Every message rendered during the tests must exist in the catalogue: a missing id
    # raises instead of falling back to the id (see referee.catalog.render).
    import os

    os.environ["REFEREE_STRICT_MESSAGES"] = "1"
    # A fault in the odds code raises instead of being reported as "no odds for this roll".
    os.environ["REFEREE_STRICT_ODDS"] = "1"
    # A bug raises with its traceback instead of the one-line report users get.
    os.environ["REFEREE_DEBUG"] = "1"
    # The commands the tests start in subprocesses speak English whatever the developer's
    # locale (tests of another language set --lang or the locale themselves).
    from referee.catalog import language_from_env

    if language_from_env() != "en":
        os.environ["LC_ALL"] = "C.UTF-8"


def rng(seed: int = 1):
    from referee.core.dice import KeyedDice

    return KeyedDice(seed)


@pytest.fixture
def spawn():
    """``spawn(*args)`` starts ``python -m referee ARGS`` in a pseudo-terminal; every child
    is closed when the test ends (helpers in ``tests/pty_support.py``)."""
    from tests.pty_support import start

    children = []

    def launch(*args: str):
        child = start(*args)
        children.append(child)
        return child

    yield launch
    for child in children:
        if child.isalive():
            child.close(force=True)


@pytest.fixture
def game_seed(monkeypatch: pytest.MonkeyPatch) -> str:
    """Games made in the test draw this secret seed (else drawn by ``secrets``)."""
    from tests.game_helpers import FIXED_SEED, fixed_seed

    fixed_seed(monkeypatch)
    return FIXED_SEED


@pytest.fixture
def game(tmp_path: Path, game_seed: str) -> Path:
    """A new game file: sides Grey and Red (Grey holds it; Red gives the words)."""
    from tests.game_helpers import new_game

    path = tmp_path / "night.sqlite"
    new_game(path)
    return path


def values(row: tuple) -> tuple:
    """A table row's values (a cell with a value of its own, ``Shown``, as that value)."""
    from referee.core.table import Shown

    return tuple(c.value if isinstance(c, Shown) else c for c in row)


def texts(row: tuple) -> tuple[str, ...]:
    """A table row as the console shows it."""
    from referee.render.json_out import cell_text

    return tuple(str(cell_text(c)) for c in row)
