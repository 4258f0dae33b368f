"""Shared fixtures and options for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import ROOT


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-transcripts", action="store_true",
                     help="rewrite the outputs recorded in transcripts/, README.md and docs/")


def pytest_sessionstart(session: pytest.Session) -> None:
    """``--update-transcripts``: the outputs recorded in transcripts/, README.md and docs/ are
    rewritten once, before any test runs (by the controller alone under pytest-xdist), and
    the transcript tests then check the files as rewritten."""
    if session.config.getoption("--update-transcripts") and not hasattr(
            session.config, "workerinput"):
        from tests.support.transcripts import transcript_files, update

        changed = [path.name for path in transcript_files(ROOT) if update(path)]
        print(f"\n--update-transcripts: {len(changed)} rewritten {changed}")


@pytest.fixture(scope="session", autouse=True)
def _transcript_folders(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The transcripts' replays keep their files under this run's temporary folder (each
    replay in a folder of its own: ``tests/support/transcripts.py``)."""
    from tests.support import transcripts

    transcripts.use_temp_root(tmp_path_factory.mktemp("transcripts"))


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
    # Hypothesis checks what it is told to, never the clock: no deadline per example and no
    # health check of slow data generation (on a loaded machine one draw took 11 s and
    # failed a test); the example counts stay as each test sets them.
    from hypothesis import HealthCheck, settings

    settings.register_profile("referee", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("referee")
    # Typer's click command built once per app, as the console script does, not at every
    # CliRunner.invoke (most of an in-process command's time): tests/support/commands.py.
    from tests.support.commands import build_once

    build_once()


@pytest.fixture
def spawn():
    """``spawn(*args)`` starts ``python -m referee ARGS`` in a pseudo-terminal; every child
    is closed when the test ends (helpers in ``tests/support/pty.py``)."""
    from tests.support.pty import start

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
    from tests.support.game import FIXED_SEED, fixed_seed

    fixed_seed(monkeypatch)
    return FIXED_SEED


@pytest.fixture
def game(tmp_path: Path, game_seed: str) -> Path:
    """A new game file: sides Grey and Red (Grey holds it; Red gives the words)."""
    from tests.support.game import new_game

    path = tmp_path / "night.sqlite"
    new_game(path)
    return path

