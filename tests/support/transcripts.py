"""Golden transcripts: Markdown files whose ``console`` blocks are replayed as tests.

A block holds one or more commands (lines starting with ``$ referee``), each followed by the
exact output. Lines of the form ``? question  answer`` are the questions as the player saw
them: replay feeds those answers back in order (``SequencePort``), so an interactive attack is
documented and tested at once. A non-zero exit shows as a last line ``[exit N]``.
``--lang X`` on a command line is handled as the console script does (``referee.start``): the
commands are loaded with their help in that language, and English is restored afterwards.
Comparison ignores trailing spaces. ``pytest --update-transcripts`` rewrites the outputs.

Every replay is independent of the others. A file that a transcript keeps across its commands
is shown as ``/tmp/referee-<name>``; a replay maps ``/tmp/referee-`` to a new, empty folder of
its own, ``/tmp/referee-transcripts-XXXXXXXX/referee-``, and back in what the commands print
(a line that names such a file wraps where the real path makes it wrap, so the folder's path
has the length the transcripts were recorded with; the copies of a replay's state are kept
under the test run's temporary folder). The game's clock (a minute a call from a fixed
evening) and the secret seeds that ``game new`` draws (a fixed sequence) start again with each
replay and are set only while a command of it runs.

``transcript(path)`` replays a whole transcript once per test process and keeps each
command's output and the state before it (its folder's files, clock and seeds): a check of
one command runs alone, in any order, in any process. ``Replayed.variant`` runs one command
again, as written or changed (``--json``, another language, a test's own terminal width),
from the state the transcript had before it, without replaying the commands before it.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import functools
import hashlib
import io
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from referee.catalog import DEFAULT_LANG
from referee.context import Environment
from referee.frontends.answers import SequencePort
from referee.start import load_app, split_lang
from tests.support import ROOT

BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
PROMPT = re.compile(r"^\? (.*?)  (.*)$")
SHOWN = "/tmp/referee-"
"""How a transcript names the files it keeps between its commands."""


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


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines())


def transcript_files(root: Path = ROOT) -> list[Path]:
    """The transcripts, the README and every page of ``docs/`` that shows a console block."""
    docs = [path for path in sorted((root / "docs").glob("**/*.md"))
            if "```console" in path.read_text(encoding="utf-8")]
    return [*sorted((root / "transcripts").glob("**/*.md")), root / "README.md", *docs]


# --- one replay's state: its folder, its clock and its seeds ----------------------------------

@dataclass
class Clocks:
    """The game's clock and secret seeds in a replay: how many of each were drawn."""

    time: int = 0
    seeds: int = 0

    def now(self) -> str:
        start = datetime.datetime(2025, 3, 14, 19, 0, tzinfo=datetime.UTC)
        self.time += 1
        return (start + datetime.timedelta(minutes=self.time)).isoformat(timespec="seconds")

    def secret(self) -> str:
        self.seeds += 1
        return hashlib.sha256(f"transcript game {self.seeds}".encode()).hexdigest()[:32]


@contextlib.contextmanager
def _replaying(clocks: Clocks) -> Iterator[None]:
    """The game's clock and secret seeds of the replay, and the repository root as the
    working directory (transcripts name files from there), while a command runs."""
    import referee.game
    import referee.game.seed

    clock, draw, cwd = referee.game.clock, referee.game.seed.draw_secret, os.getcwd()
    referee.game.clock, referee.game.seed.draw_secret = clocks.now, clocks.secret
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(cwd)
        referee.game.clock, referee.game.seed.draw_secret = clock, draw


@dataclass(frozen=True)
class Output:
    """What one command printed: standard output and error apart, both as the transcript
    shows them (interleaved, then ``[exit N]``), and its exit code."""

    stdout: str
    stderr: str
    shown: str
    code: int


class _Both(io.StringIO):
    """One of a command's two streams, also written into the interleaved stream of both."""

    def __init__(self, both: io.StringIO) -> None:
        super().__init__()
        self.both = both

    def write(self, text: str) -> int:
        self.both.write(text)
        return super().write(text)


def run(command: Command, folder: Path, clocks: Clocks, *, line: str | None = None,
        lang: str | None = None) -> Output:
    """Run one transcript command in-process, its files in ``folder`` (``line``: this
    command line instead of the transcript's, with the same answers; ``lang``: in that
    language instead of the command line's)."""
    line = command.line if line is None else line
    argv = [a.replace(SHOWN, f"{folder}/referee-") for a in shlex.split(line)]
    assert argv[0] == "referee", f"transcripts run referee only, not {argv[0]!r}"
    given, args = split_lang(argv[1:])
    lang = lang or given or DEFAULT_LANG
    try:
        with _replaying(clocks):
            return _run(command, args, lang, folder)
    finally:
        if lang != DEFAULT_LANG:
            load_app(DEFAULT_LANG)


def _run(command: Command, args: list[str], lang: str, folder: Path) -> Output:
    app = load_app(lang)
    answers = [m.group(2) for m in map(PROMPT.match, command.expected.splitlines()) if m]
    both = io.StringIO()
    stdout, stderr = _Both(both), _Both(both)
    # a command whose transcript shows no questions runs as with no terminal at all
    factory = (lambda rng: SequencePort(answers, rng, shown=True)) if answers else None
    env = Environment(stdin=io.StringIO(), stdout=stdout, stderr=stderr, stdin_isatty=False,
                      stdout_isatty=False, color=False, port_factory=factory)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False, prog_name="referee")

    def shown(text: str) -> str:
        return text.replace(f"{folder}/referee-", SHOWN)

    text = shown(both.getvalue() + result.output)
    if result.exit_code:
        text += f"[exit {result.exit_code}]\n"
    return Output(shown(stdout.getvalue() + result.stdout),
                  shown(stderr.getvalue() + result.stderr), text, result.exit_code)


def replay(command: Command) -> str:
    """One command on its own (no state before it), as the transcript would show it."""
    with _folder() as folder:
        return run(command, folder, Clocks()).shown


@contextlib.contextmanager
def _folder() -> Iterator[Path]:
    """A new, empty folder for a replay's files (``/tmp/referee-transcripts-XXXXXXXX``)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-transcripts-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- a whole transcript, replayed once --------------------------------------------------------

@dataclass
class _Before:
    """The state of a replay just before one of its commands."""

    files: Path | None  # a copy of the replay's folder (None: the folder was empty)
    clocks: Clocks


@dataclass
class Replayed:
    """A transcript replayed command by command from an empty folder: what each command
    printed (or the error it raised) and the state before it."""

    path: Path
    commands: list[Command]
    outputs: list[Output | BaseException] = field(default_factory=list)
    before: list[_Before] = field(default_factory=list)
    _variants: dict[tuple[int, str, str | None], Output] = field(default_factory=dict)

    def output(self, index: int) -> Output:
        """Command ``index``'s output (its error raised again, if it raised one)."""
        out = self.outputs[index]
        if isinstance(out, BaseException):
            raise out
        return out

    def variant(self, index: int, line: str | None = None, lang: str | None = None) -> Output:
        """Command ``index`` run again from the state before it (``line``, ``lang``: as
        ``run``), in the process's state as the caller set it (a terminal's width): never
        kept, and nothing the replay keeps is changed by it."""
        before = self.before[index]
        with _folder() as folder:
            if before.files is not None:
                shutil.copytree(before.files, folder, dirs_exist_ok=True)
            return run(self.commands[index], folder, Clocks(**vars(before.clocks)),
                       line=line, lang=lang)

    def variant_kept(self, index: int, line: str | None = None,
                     lang: str | None = None) -> Output:
        """``variant``, run once per process for the same ``line`` and ``lang`` (for checks
        that read the same output; the caller sets nothing around it)."""
        key = (index, self.commands[index].line if line is None else line, lang)
        if key not in self._variants:
            self._variants[key] = self.variant(index, line, lang)
        return self._variants[key]


_TEMP: list[Path] = []


def _temp_root() -> Path:
    """The folder the replays of this process keep their files in: the pytest run's own
    temporary folder when there is one (set by ``use_temp_root``), else a new one."""
    if not _TEMP:
        _TEMP.append(Path(tempfile.mkdtemp(prefix="referee-transcripts-")))
        atexit.register(shutil.rmtree, _TEMP[0], True)
    return _TEMP[0]


def use_temp_root(folder: Path) -> None:
    """Keep the replays' files under ``folder`` (the test session's temporary folder)."""
    _TEMP[:] = [folder]


def replay_all(path: Path, text: str | None = None) -> Replayed:
    """Replay every command of the transcript at ``path`` (``text``: its text, if not the
    file's) from an empty folder of its own."""
    text = path.read_text(encoding="utf-8") if text is None else text
    replayed = Replayed(path, commands(text))
    kept = Path(tempfile.mkdtemp(prefix=f"{path.stem}-", dir=_temp_root()))
    clocks = Clocks()
    with _folder() as folder:
        for i, command in enumerate(replayed.commands):
            files = None
            if any(folder.iterdir()):
                files = kept / f"before-{i}"
                shutil.copytree(folder, files)
            replayed.before.append(_Before(files, Clocks(**vars(clocks))))
            try:
                replayed.outputs.append(run(command, folder, clocks))
            except Exception as error:  # kept for the command's own check to raise
                replayed.outputs.append(error)
    return replayed


@functools.cache
def _replayed(path: Path, digest: str) -> Replayed:
    return replay_all(path)


def transcript(path: Path) -> Replayed:
    """The transcript at ``path`` replayed, once per test process for its present text."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return _replayed(path, digest)


def update(path: Path) -> bool:
    """Rewrite the recorded outputs of ``path``; True when something changed."""
    text = path.read_text(encoding="utf-8")
    replayed = replay_all(path, text)
    pieces, last = [], 0
    for i, cmd in enumerate(replayed.commands):
        pieces.append(text[last:cmd.start])
        pieces.append(f"$ {cmd.line}\n{normalise(replayed.output(i).shown)}\n")
        last = cmd.end
    pieces.append(text[last:])
    new = "".join(pieces)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
