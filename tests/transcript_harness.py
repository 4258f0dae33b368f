"""Golden transcripts: Markdown files whose ``console`` blocks are replayed as tests.

A block holds one or more commands (lines starting with ``$ referee``), each followed by the
exact output. Lines of the form ``? question  answer`` are the questions as the player saw
them: replay feeds those answers back in order (``SequencePort``), so an interactive attack is
documented and tested at once. A non-zero exit shows as a last line ``[exit N]``.
``--lang X`` on a command line is handled as the console script does (``referee.start``): the
commands are loaded with their help in that language, and English is restored afterwards.
Comparison ignores trailing spaces. ``pytest --update-transcripts`` rewrites the outputs.
A game file kept across the commands of one transcript is named ``/tmp/referee-<name>`` and
removed before the transcript's first command, so every replay starts from the same state.
"""

from __future__ import annotations

import atexit
import io
import re
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from referee.catalog import DEFAULT_LANG
from referee.context import Environment
from referee.frontends.answers import SequencePort
from referee.start import load_app, split_lang

BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
PROMPT = re.compile(r"^\? (.*?)  (.*)$")


@dataclass
class Command:
    line: str  # without the "$ "
    expected: str  # the output recorded in the transcript
    start: int  # offset of the command line in the file
    end: int  # offset just after the recorded output


def commands(text: str) -> list[Command]:
    out = []
    for block in BLOCK.finditer(text):
        body, base = block.group(1), block.start(1)
        starts = [m.start() for m in re.finditer(r"^\$ ", body, re.M)]
        for i, s in enumerate(starts):
            e = starts[i + 1] if i + 1 < len(starts) else len(body)
            chunk = body[s:e]
            first, _, rest = chunk.partition("\n")
            out.append(Command(first[2:], rest, base + s, base + e))
    return out


def replay(command: Command) -> str:
    """Run one transcript command in-process and return its output as the transcript shows it."""
    stdout, stderr, code = replay_apart(command, apart=False)
    text = stdout + stderr
    if code:
        text += f"[exit {code}]\n"
    return text


def replay_apart(command: Command, *, apart: bool = True,
                 lang: str | None = None) -> tuple[str, str, int]:
    """Run one transcript command in-process: its standard output, its standard error (with
    ``apart`` off, both in the first, as the transcript shows them) and its exit code;
    ``lang``: in that language instead of the command line's."""
    argv = [a.replace(f"{SHOWN_GAME_DIR}referee-", f"{GAME_DIR}/referee-")
            for a in shlex.split(command.line)]
    assert argv[0] == "referee", f"transcripts run referee only, not {argv[0]!r}"
    given, args = split_lang(argv[1:])
    lang = lang or given or DEFAULT_LANG
    try:
        return _replay(command, args, lang, apart)
    finally:
        if lang != DEFAULT_LANG:
            load_app(DEFAULT_LANG)


def _replay(command: Command, args: list[str], lang: str,
            apart: bool) -> tuple[str, str, int]:
    app = load_app(lang)
    answers = [m.group(2) for m in map(PROMPT.match, command.expected.splitlines()) if m]
    stream = io.StringIO()
    errors = io.StringIO() if apart else stream
    # a command whose transcript shows no questions runs as with no terminal at all
    factory = (lambda rng: SequencePort(answers, rng, shown=True)) if answers else None
    env = Environment(stdin=io.StringIO(), stdout=stream, stderr=errors, stdin_isatty=False,
                      stdout_isatty=False, color=False, port_factory=factory)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False, prog_name="referee")

    def shown(text: str) -> str:
        return text.replace(f"{GAME_DIR}/referee-", f"{SHOWN_GAME_DIR}referee-")

    if not apart:
        return shown(stream.getvalue() + result.output), "", result.exit_code
    return (shown(stream.getvalue() + result.stdout), shown(errors.getvalue() + result.stderr),
            result.exit_code)


GAME_FILE = re.compile(r"--game /tmp/(referee-[\w.-]+)|/tmp/(referee-[\w.-]+\.sqlite)")
SHOWN_GAME_DIR = "/tmp/"
# Game files live in a folder of this test run's own, so that runs side by side (two
# checkouts, CI and a developer) never share one; transcripts show them under /tmp/.
GAME_DIR = Path(tempfile.mkdtemp(prefix="referee-transcripts-"))
atexit.register(shutil.rmtree, GAME_DIR, True)


def fresh_game_files(text: str) -> None:
    """Game files that a transcript keeps between its commands are named
    ``/tmp/referee-<name>``; each replay of the transcript starts without them, and with the
    transcripts' clock and game seeds at their start (so times and commitments repeat)."""
    for found in GAME_FILE.findall(text):
        for name in filter(None, found):
            (GAME_DIR / name).unlink(missing_ok=True)
    _TRANSCRIPT_TIME[0] = _TRANSCRIPT_SEED[0] = 0


# A game's log keeps the time of each entry and ``game new`` draws a secret seed: in
# transcripts, a clock that ticks one minute a call from a fixed evening and seeds drawn
# from a fixed sequence, both started again by ``fresh_game_files``.
_TRANSCRIPT_TIME = [0]
_TRANSCRIPT_SEED = [0]


def _transcript_clock() -> str:
    import datetime

    start = datetime.datetime(2025, 3, 14, 19, 0, tzinfo=datetime.UTC)
    _TRANSCRIPT_TIME[0] += 1
    return (start + datetime.timedelta(minutes=_TRANSCRIPT_TIME[0])).isoformat(
        timespec="seconds")


def _transcript_seed() -> str:
    import hashlib

    _TRANSCRIPT_SEED[0] += 1
    return hashlib.sha256(f"transcript game {_TRANSCRIPT_SEED[0]}".encode()).hexdigest()[:32]


def _fixed_game_time_and_seeds() -> None:
    import referee.game
    import referee.game.seed

    referee.game.clock = _transcript_clock
    referee.game.seed.draw_secret = _transcript_seed


_fixed_game_time_and_seeds()


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines())


def transcript_files(root: Path) -> list[Path]:
    return [*sorted((root / "transcripts").glob("**/*.md")), root / "README.md"]


def update(path: Path) -> bool:
    """Rewrite the recorded outputs of ``path``; True when something changed."""
    text = path.read_text(encoding="utf-8")
    fresh_game_files(text)
    pieces, last = [], 0
    for cmd in commands(text):
        pieces.append(text[last:cmd.start])
        pieces.append(f"$ {cmd.line}\n{normalise(replay(cmd))}\n")
        last = cmd.end
    pieces.append(text[last:])
    new = "".join(pieces)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
