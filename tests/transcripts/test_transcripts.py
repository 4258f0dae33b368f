"""Every console block of transcripts/*.md, README.md and docs/*.md replays exactly.

After an intended change of output:
``pytest tests/transcripts/test_transcripts.py --update-transcripts`` rewrites the recorded
outputs (before the tests run, in ``tests/conftest.py``); review the diff before committing it.
Each case is one command, checked against the transcript replayed once per test process in
a folder of its own (``tests/support/transcripts.py``): any case passes alone, in any order.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.transcripts import commands, normalise, transcript, transcript_files

CASES = [(path, i) for path in transcript_files(ROOT)
         for i, _ in enumerate(commands(path.read_text(encoding="utf-8")))]


@pytest.mark.parametrize(("path", "index"), CASES,
                         ids=[f"{p.relative_to(ROOT)}#{i + 1}" for p, i in CASES])
def test_transcript_replays(path: Path, index: int) -> None:
    replayed = transcript(path)
    cmd = replayed.commands[index]
    expected, actual = normalise(cmd.expected), normalise(replayed.output(index).shown)
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                              "transcript", "actual", lineterm=""))
        pytest.fail(f"{path.name}: '$ {cmd.line}' differs:\n{diff}")


def test_every_transcript_has_a_command() -> None:
    for path in transcript_files(ROOT):
        assert commands(path.read_text(encoding="utf-8")), f"{path} has no console block"
