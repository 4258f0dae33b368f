"""A seeded fuzzer of input files (issue 17): the bundled scripts and rosters of each ruleset,
mutated (values of the wrong type, out of range, blank, hostile text, huge numbers, deep
nesting, dropped and unknown keys, duplicated units, broken bytes), run through the real
commands in-process. Every run must end with an exit code of docs/promises.md (0, 2, 3, 4
or 5), no traceback and no raw control character in what it printed, within its budget of
time and memory (``run_bounded``: each case in a child process under resource limits, so a
run that would hang or eat memory is a finding rather than the fuzzer's end); anything else
is a finding. Besides mutations of the files' content, a script may be asked to take every
default (``use_defaults``) under the ruleset's other options (house rules): the walks that
only the defaults decide (an LnLT phase of empty activations) are fuzzed too.

``tests/cli/test_fuzz.py`` runs a few hundred cases per ruleset within the suite's time;
``benchmarks/fuzz.py`` runs many more and reports the figures. Same seed, same cases.
"""

from __future__ import annotations

import io
import json
import random
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.text import UNSHOWABLE
from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"
ALLOWED = frozenset({0, 2, 3, 4, 5})
# what the referee shows as escapes (core.text.UNSHOWABLE), found raw in an output
_RAW_CONTROL = re.compile(f"[{UNSHOWABLE}]")
# the bundled scripts each ruleset's mutations start from (valid ones: every mutation is
# a small step away from something the referee accepts, so it reaches deep)
SEEDS: dict[str, tuple[Path, ...]] = {
    rid: tuple(p for p in sorted(SCRIPTS.glob(f"{prefix}-*.toml")))
    for rid, prefix in (("epic", "epic"), ("cc", "cc"), ("lnlt", "lnlt"), ("waw", "waw"),
                        ("fow", "fow"))
}
RULESETS = tuple(SEEDS)
# the other files each ruleset reads, with a command that reads the mutated file as that
AUX: dict[str, tuple[Path, tuple[str, ...]]] = {
    "epic": (SCRIPTS / "epic-roster.toml",
             ("epic-shoot", "Grey Company (invented)", "Red Hill Battery (invented)",
              "--roster", "FILE", "--dice", "auto")),
    "cc": (SCRIPTS / "decks" / "my-2006-germany.toml",
           ("run", str(SCRIPTS / "cc-example-e-g.toml"), "-o", "deck-edition=cce_2006",
            "-o", "deck-file=FILE", "--no-odds")),
    "lnlt": (ROOT / "transcripts" / "rosters" / "lnlt-stand-in-dct.toml",
             ("phase", "lnlt", "--game", "GAME", "--roster",
              str(ROOT / "transcripts" / "rosters" / "lnlt-crossroads.toml"), "--dct", "FILE",
              "--dice", "auto", "--impulses", "2")),
    "waw": (ROOT / "rulesets" / "world-at-war" / "example-data.toml",
            ("run", str(SCRIPTS / "waw-he-data-file.toml"), "-o", "data-file=FILE",
             "--no-odds")),
    "fow": (SCRIPTS / "declarations" / "fow-odds.toml",
            ("odds", "fow", "--declaration", "FILE")),
}

HOSTILE_TEXT = ["", "   ", "\x1b]0;x\x07", "\x9b2J", "\x00", "\u202e", "a" * 300, "é",
                "[b]bold[/b]", "{id}", "{0}", "%s", "..", "/dev/zero", "\\", "\"'",
                "١٢", "３", "1_0", "-1", "1e9", "nan", "inf", "true", "roll", "=3", "=99",
                "6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6", "1,2;3", "7", "0"]
NUMBERS = [0, 1, -1, 2, 3, 5, 6, 7, 12, 99, 200, 201, 10 ** 6, 2 ** 63, -(2 ** 63),
           10 ** 30]
FLOATS = [0.0, -0.5, 3.0, 2.5, 1e308, float("inf"), float("-inf"), float("nan")]


# --- writing TOML (inline, so that any shape a mutation makes can be written) -----------

def dump(data: dict[str, Any]) -> str:
    """TOML of ``data``: scalars first, then each table as ``[name]`` of inline values."""
    from referee.script import toml_key, toml_value

    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in data.items()
             if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"[{toml_key(k)}]")
            lines += [f"{toml_key(str(ik))} = {toml_value(iv)}" for ik, iv in v.items()]
    return "\n".join(lines) + "\n"


# --- mutations ----------------------------------------------------------------------------

def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if len(path) > 12:  # what a mutation nested deep is not mutated again
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _random_value(rng: random.Random, like: Any, pool: list[Any]) -> Any:
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(NUMBERS)
    if roll < 0.4:
        return rng.choice(HOSTILE_TEXT)
    if roll < 0.5:
        return rng.choice(FLOATS)
    if roll < 0.6:
        return rng.choice([True, False])
    if roll < 0.7 and pool:
        return rng.choice(pool)  # a value from elsewhere in the file: a plausible slip
    if roll < 0.8:
        depth = rng.choice([1, 2, 5, 40])  # deeper: written as text (``break_bytes``)
        nested: Any = rng.choice([1, "x"])
        for _ in range(depth):
            nested = [nested] if rng.random() < 0.5 else {"k": nested}
        return nested
    if roll < 0.9:
        return [] if rng.random() < 0.5 else {}
    if isinstance(like, int) and not isinstance(like, bool):
        return like + rng.choice([-2, -1, 1, 2, 10])
    if isinstance(like, list) and like:
        return like + like  # duplicates: two units with one id, repeated dice
    return rng.choice(HOSTILE_TEXT)


def house_rules(rng: random.Random, ruleset: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a script, a copy) taking every default, under some of the ruleset's other
    options: the defaults then decide the attack (or the phase) from where its answers end."""
    from referee.rulesets import find_ruleset

    data = json.loads(json.dumps(data))
    data["use_defaults"] = True
    if rng.random() < 0.5 and isinstance(data.get("answers"), dict):
        answers = list(data["answers"])  # the answers end early: the defaults go on
        data["answers"] = {k: data["answers"][k] for k in answers[:rng.randrange(
            len(answers) + 1)]}
    specs = [s for s in find_ruleset(ruleset).option_specs() if len(s.choices) > 1]
    options = dict(data["options"]) if isinstance(data.get("options"), dict) else {}
    for spec in rng.sample(specs, rng.randint(0, len(specs))):
        options[spec.name] = rng.choice([c for c in spec.choices if c != spec.default])
    if options:
        data["options"] = options
    return data


def mutate(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a script's TOML, a copy) with one to three mutations (mostly one, so that
    the run goes deep)."""
    data = json.loads(json.dumps(data))
    pool = [v for p in _paths(data) if p and not isinstance(v := _get(data, p), (dict, list))]
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent, key = _get(data, path[:-1]), path[-1]
        action = rng.random()
        if action < 0.15:
            del parent[key]
        elif action < 0.25 and isinstance(parent, dict):
            parent[rng.choice(["extra", "id", "name", "\x1b[2J", "ruleset", "seed"])] = \
                _random_value(rng, None, pool)
        elif action < 0.35 and isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[key])))  # a duplicated entry
        else:
            parent[key] = _random_value(rng, parent[key], pool)
    return data


def break_bytes(rng: random.Random, text: bytes) -> bytes:
    """The file's bytes damaged as a disk, an editor or a transfer may damage them."""
    how = rng.randrange(7)
    if how == 6:  # nesting far deeper than any file needs, as text
        depth = rng.choice([33, 490, 2000])
        opening, closing = rng.choice([("[", "]"), ("{ a = ", " }")])
        return text + b"\ndeep = " + (opening * depth + "1" + closing * depth).encode() + b"\n"
    if how == 0:
        return text[:rng.randrange(len(text) + 1)]  # truncated
    if how == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + text[i:]
    if how == 2:
        return b"\xef\xbb\xbf" + text  # a byte-order mark
    if how == 3:
        return text.decode("utf-8").encode("utf-16")
    if how == 4:
        return text.replace(b"\n", b"\r\n")
    return text.replace(b"=", b"= " + rng.choice([b"[", b"{", b'"', b"'''"]), 1)


# --- cases and runs -----------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    ruleset: str
    number: int
    content: bytes
    args: tuple[str, ...]  # the command, FILE standing for the mutated file


def cases(ruleset: str, count: int, seed: int = 17) -> Iterator[Case]:
    """``count`` cases for ``ruleset``, the same for the same seed."""
    rng = random.Random(f"{seed}:{ruleset}")
    sources = [p.read_bytes() for p in SEEDS[ruleset]]
    aux_path, aux_args = AUX[ruleset]
    aux = aux_path.read_bytes()
    for n in range(count):
        if rng.random() < 0.2:  # another file the ruleset reads
            raw, args = aux, aux_args
        else:
            raw = rng.choice(sources)
            args = _command(rng, ruleset)
        roll = rng.random()
        if roll < 0.12:
            content = break_bytes(rng, raw)
        elif roll < 0.22 and args[0] == "run":
            content = dump(house_rules(rng, ruleset, tomllib.loads(raw.decode("utf-8")))
                           ).encode("utf-8")
        else:
            content = dump(mutate(rng, tomllib.loads(raw.decode("utf-8")))).encode("utf-8")
        yield Case(ruleset, n, content, args)


def _command(rng: random.Random, ruleset: str) -> tuple[str, ...]:
    roll = rng.random()
    if roll < 0.08:
        return ("attack", ruleset, "--declaration", "FILE", "--dice", "auto")
    if roll < 0.16 and ruleset != "lnlt":
        return ("odds", ruleset, "--script", "FILE")
    if roll < 0.24 and ruleset == "lnlt":
        return ("phase", "lnlt", "--game", "GAME", "--roster", "FILE", "--dice", "auto")
    extra: tuple[str, ...] = ()
    if rng.random() < 0.3:
        extra += ("--dice", "auto")
    if rng.random() < 0.2:
        extra += ("--json",)
    if rng.random() < 0.2:
        extra += ("--game", "GAME")
    if rng.random() < 0.7:
        extra += ("--no-odds",)
    return ("run", "FILE", *extra)


@dataclass
class Outcome:
    code: int | None  # None: an exception escaped (a bug)
    error: str = ""


def run_case(case: Case, folder: Path) -> Outcome:
    """One case in-process, through the real command line; a game file of its own."""
    from typer.testing import CliRunner

    from referee.cli import _app_for
    from referee.context import Environment

    file = folder / f"{case.ruleset}-{case.number}.toml"
    file.write_bytes(case.content)
    game = folder / f"{case.ruleset}-{case.number}.sqlite"
    args = [a.replace("FILE", str(file)) if "FILE" in a else str(game) if a == "GAME" else a
            for a in case.args]
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, color=False)
    try:
        # the app holding the one command, as the console script builds it (much faster)
        result = CliRunner().invoke(_app_for(args), args, obj=env, catch_exceptions=False)
    except Exception as error:  # a bug: reported, not raised
        return Outcome(None, f"{type(error).__name__}: {error}"[:300])
    finally:
        file.unlink()
        game.unlink(missing_ok=True)
    text = out.getvalue() + err.getvalue() + result.output
    if "Traceback" in text:
        return Outcome(None, "a traceback in the output")
    raw = sorted({f"{ord(c):#x}" for c in text if _RAW_CONTROL.match(c)})
    if raw:  # names from files reach the screen as visible escapes, never raw
        return Outcome(None, f"raw control characters in the output: {', '.join(raw)}")
    return Outcome(result.exit_code, err.getvalue().strip()[:300])


SECONDS = 20.0  # a case's budget of processor time (the slowest seen take under 3 s)
MEGABYTES = 768  # ... and of memory beyond what the fuzzer held when it started the case


def run_bounded(case: Case, folder: Path, *, seconds: float = SECONDS,
                megabytes: int = MEGABYTES) -> Outcome:
    """``run_case`` in a child process (forked: the imports are shared) under resource
    limits: ``seconds`` of processor time (and three times as much on the clock, for a
    loaded machine), ``megabytes`` of address space more than the fuzzer's. A case over its
    budget is a finding (``hang``, ``memory``), never a fuzzer that hangs or is killed."""
    import os
    import resource
    import signal
    import time

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the case, write its outcome, leave at once
        code = 0
        try:
            os.close(read)
            used = _address_space()
            if used:  # (known on Linux)
                limit = used + megabytes * 1024 * 1024
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            cpu = int(seconds) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            try:
                outcome = run_case(case, folder)
            except MemoryError:
                outcome = Outcome(None, f"memory: over {megabytes} MB")
            os.write(write, json.dumps([outcome.code, outcome.error]).encode("utf-8"))
        except BaseException:  # (nothing written: the parent reports what it knows)
            code = 70
        finally:
            os._exit(code)
    os.close(write)
    deadline = time.monotonic() + 3 * seconds
    status = None
    while status is None:
        done, found = os.waitpid(pid, os.WNOHANG)
        if done:
            status = found
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            _clean(case, folder)
            return Outcome(None, f"hang: over {3 * seconds:.0f} s on the clock")
        else:
            time.sleep(0.002)
    with os.fdopen(read, "rb") as pipe:
        written = pipe.read()
    if written:
        code, error = json.loads(written)
        return Outcome(code, error)
    _clean(case, folder)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return Outcome(None, f"hang: over {seconds:.0f} s of processor time")
    return Outcome(None, f"memory or crash: the child ended with status {status}")


class _OverTime(Exception):
    pass


def run_timed(case: Case, folder: Path, *, seconds: float = SECONDS) -> Outcome:
    """``run_case`` in this process with a clock (the suite's oracle of hangs, cheaper than
    a child a case): a case still running after ``seconds`` is stopped and is a finding."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise _OverTime

    before = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return run_case(case, folder)
    except _OverTime:
        _clean(case, folder)
        return Outcome(None, f"hang: over {seconds:.0f} s on the clock")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def warm_up(ruleset: str, folder: Path) -> None:
    """Run the ruleset's bundled scripts as they are, in this process (they end: the suite
    replays them), so that the modules a case needs are imported once here rather than in
    every child ``run_bounded`` forks."""
    for n, path in enumerate(SEEDS[ruleset]):
        for args in (("run", "FILE", "--dice", "auto"), ("run", "FILE", "--no-odds", "--json")):
            run_case(Case(ruleset, -1 - n, path.read_bytes(), args), folder)
    aux_path, aux_args = AUX[ruleset]
    run_case(Case(ruleset, -100, aux_path.read_bytes(), aux_args), folder)


def _address_space() -> int:
    """This process's address space now, in bytes (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _clean(case: Case, folder: Path) -> None:
    """What a child killed in the middle of a case left (its file, its game file)."""
    for name in (f"{case.ruleset}-{case.number}.toml", f"{case.ruleset}-{case.number}.sqlite"):
        (folder / name).unlink(missing_ok=True)


@dataclass
class Tally:
    runs: int = 0
    codes: Counter[int | None] = field(default_factory=Counter)
    findings: list[tuple[Case, Outcome]] = field(default_factory=list)

    def add(self, case: Case, outcome: Outcome) -> None:
        self.runs += 1
        self.codes[outcome.code] += 1
        if outcome.code not in ALLOWED:
            self.findings.append((case, outcome))
