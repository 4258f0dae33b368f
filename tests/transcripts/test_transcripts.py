"""Every console block of transcripts/*.md and README.md replays exactly.

After an intended change of output:
``pytest tests/transcripts/test_transcripts.py --update-transcripts`` rewrites the recorded
outputs; review the diff before committing it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.transcripts import (
    commands,
    fresh_game_files,
    normalise,
    replay,
    transcript_files,
    update,
)

CASES = [(path, i) for path in transcript_files(ROOT)
         for i, _ in enumerate(commands(path.read_text(encoding="utf-8")))]


@pytest.mark.parametrize(("path", "index"), CASES,
                         ids=[f"{p.relative_to(ROOT)}#{i + 1}" for p, i in CASES])
def test_transcript_replays(path: Path, index: int, root: Path,
                            request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--update-transcripts") and index == 0:
        update(path)  # replays every command; the checks below start afresh again
    if index == 0:
        fresh_game_files(path.read_text(encoding="utf-8"))
    cmd = commands(path.read_text(encoding="utf-8"))[index]
    expected, actual = normalise(cmd.expected), normalise(replay(cmd))
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                              "transcript", "actual", lineterm=""))
        pytest.fail(f"{path.name}: '$ {cmd.line}' differs:\n{diff}")


def test_every_transcript_has_a_command() -> None:
    for path in transcript_files(ROOT):
        assert commands(path.read_text(encoding="utf-8")), f"{path} has no console block"
