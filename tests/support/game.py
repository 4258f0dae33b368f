"""Shared by the game tests: a game file, attacks played in it, and the CLI in-process."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment
from referee.frontends.answers import SequencePort
from tests.support import ROOT

# An Epic attack whose to-hit dice the program rolls (the script gives the situation only).
EPIC_PROGRAM = """ruleset = "epic"
roll_missing_dice = true

[declaration]
firing = "Grey Company (invented)"
target = "Red Hill Battery (invented)"

[[declaration.weapons]]
name = "Heavy cannon"
shots = 3
ap = 5
at = 4

[[declaration.weapons]]
name = "Autogun"
shots = 6
ap = 5

[answers]
action = "double"
cover = true
"fire-type.heavy-cannon" = "at"
"""

# A Combat Commander fire attack whose Fate cards the program draws: the decks change.
CC_PROGRAM = "roll_missing_dice = true\nuse_defaults = true\n" + "\n".join(
    line for line in (ROOT / "transcripts/scripts/cc-moving-tie.toml").read_text(
        encoding="utf-8").splitlines()
    if not line.startswith(("fire =", '"defence.moving', '"defence.dug'))) + "\n"


FIXED_SEED = "5eed" * 8  # a game's secret seed in these tests (else drawn by ``secrets``)


def fixed_seed(monkeypatch: Any) -> None:
    import referee.game.seed

    monkeypatch.setattr(referee.game.seed, "draw_secret", lambda: FIXED_SEED)


def script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def invoke(args: list[str], *, answers: list[str] | None = None,
           tty: bool = False, lang: str = "en") -> tuple[int, str, str]:
    """The command line in-process; ``lang``: the language it speaks (English after)."""
    from referee.start import load_app

    out, err = io.StringIO(), io.StringIO()
    factory = (lambda dice: SequencePort(answers, dice)) if answers is not None else None
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=tty,
                      stdout_isatty=False, color=False, port_factory=factory)
    try:
        result = CliRunner().invoke(load_app(lang) if lang != "en" else app, args, obj=env,
                                    catch_exceptions=False)
    finally:
        if lang != "en":
            load_app("en")
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


def new_game(path: Path, *extra: str) -> dict[str, Any]:
    code, out, err = invoke(["game", "new", str(path), "--side", "Grey", "--side", "Red",
                             "--json", *extra])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def run_in(game: Path, path: Path, *extra: str, word: str = "owls") -> dict[str, Any]:
    """``referee run --game --json``; in a game made by ``game new`` the opponent's word is
    given with ``--word`` (taken only where the program rolls a die of a new entry)."""
    code, out, err = invoke(["run", str(path), "--game", str(game), "--json", "--word", word,
                             *extra])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def log_json(game: Path) -> dict[str, Any]:
    code, out, err = invoke(["game", "log", str(game), "--json"])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def rolls(result: dict[str, Any]) -> list[str]:
    """The roll steps of a result, as text (their dice and source)."""
    return [s["text"] for s in result["steps"] if s["kind"] == "roll"]


# --- the chain of a game file, as the README states it (written out apart from the code) ----

def documented_head(previous: str, row: dict[str, Any]) -> str:
    """The chain as the README states it, written out independently of the code: SHA-256 of
    the canonical JSON of [previous head, the event's columns]."""
    event = dict(row)
    for name in ("entry", "before", "after", "rolls", "replay", "about", "body"):
        if event[name] is not None:
            event[name] = json.loads(event[name])
    text = json.dumps([previous, event], sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


CHAINED_COLUMNS = ("id", "kind", "number", "at", "ruleset", "command", "seed", "entry",
                   "before", "after", "rolls", "replay", "about", "body")
