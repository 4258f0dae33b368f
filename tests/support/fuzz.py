"""A seeded fuzzer of input files (issue 17): the bundled scripts and rosters of each ruleset,
mutated (values of the wrong type, out of range, blank, hostile text, huge numbers, deep
nesting, dropped and unknown keys, duplicated units, broken bytes), run through the real
commands in-process. Every run must end with an exit code of the README's table (0, 2, 3, 4
or 5), no traceback and no raw control character in what it printed; anything else is a
finding.

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

from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"
ALLOWED = frozenset({0, 2, 3, 4, 5})
_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
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
        if rng.random() < 0.12:
            content = break_bytes(rng, raw)
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
