"""Start-up: --help, rulesets and lookup never import the heavy front-end packages, and the
pure core never imports the edges."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

# (pydantic is not listed: Typer 0.29 itself imports it when an app runs)
HEAVY = ("questionary", "prompt_toolkit", "sqlite3", "dyce", "jinja2", "pygal", "starlette",
         "uvicorn", "segno")
PROBE = f"""
import sys
from referee.cli import app
from referee.context import Environment
try:
    app(sys.argv[1:], obj=Environment.from_system(), standalone_mode=False)
except SystemExit:
    pass
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))
print("HEAVY:" + ",".join(heavy))
"""


@pytest.mark.parametrize("argv", [["--help"], ["rulesets"], ["lookup", "epic", "to-hit", "8"],
                                  ["lookup", "epic"], ["lookup", "epic", "to-hit"]])
def test_light_commands_load_no_heavy_module(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marker = proc.stdout.strip().splitlines()[-1]
    assert marker == "HEAVY:", f"{argv} imported {marker[6:]}"


@pytest.mark.parametrize("argv", [["run", "transcripts/scripts/epic-to-hit.toml"],
                                  ["odds", "epic", "--script",
                                   "transcripts/scripts/epic-to-hit.toml"]])
def test_a_run_without_a_game_file_loads_no_prompt_game_or_dice_library(argv: list[str]) -> None:
    """The bundled example's run and odds (the start-up benchmark's commands): no prompt
    library, no game-file code (sqlite3), no dyce (the to-hit odds are binomial)."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marker = proc.stdout.strip().splitlines()[-1]
    assert marker == "HEAVY:", f"{argv} imported {marker[6:]}"


@pytest.mark.parametrize("argv", [["--help"], ["rulesets", "--json"],
                                  ["lookup", "epic", "to-hit", "8", "--json"],
                                  ["lookup", "epic", "--json"]])
def test_json_output_never_loads_the_schema_models(argv: list[str]) -> None:
    """The documents are plain data: the pydantic models of their schemas (and jsonschema)
    are for the schema generator and the tests only."""
    probe = PROBE.replace(repr(HEAVY), repr(("referee.schemas.models", "jsonschema")))
    probe = probe.replace("m.split('.')[0] for m in sys.modules",
                          "m if m.startswith('referee.') else m.split('.')[0] "
                          "for m in sys.modules")
    proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marker = proc.stdout.strip().splitlines()[-1]
    assert marker == "HEAVY:", f"{argv} imported {marker[6:]}"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("path", sorted((ROOT / "referee" / "core").glob("*.py")) +
                         sorted((ROOT / "referee" / "rulesets").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_core_and_resolvers_never_import_the_edges(path: Path) -> None:
    forbidden = ("typer", "rich", "questionary", "prompt_toolkit", "referee.cli",
                 "referee.render", "referee.frontends", "referee.api", "referee.script",
                 "referee.session")
    bad = {m for m in _imports(path) if m.split(".")[0] in forbidden[:4] or
           any(m.startswith(f) for f in forbidden[4:])}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((ROOT / "referee" / "core").glob("*.py")),
                         ids=lambda p: p.name)
def test_core_uses_the_standard_library_only(path: Path) -> None:
    third_party = {m for m in _imports(path)
                   if m.split(".")[0] not in sys.stdlib_module_names and
                   not m.startswith("referee")}
    assert not third_party, f"{path.name} imports {sorted(third_party)}"


def test_resolvers_never_print() -> None:
    for path in (ROOT / "referee" / "rulesets").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id in ("print", "input")]
        assert not calls, f"{path} calls print or input"


def test_the_file_reader_sits_below_the_rulesets() -> None:
    """Issue 17, item 7: one reader for every input file, importable by any ruleset
    without importing upward (no ruleset, front end, command or session module)."""
    imported = _imports(ROOT / "referee" / "files.py")
    upward = {m for m in imported if m.startswith(("referee.rulesets", "referee.frontends",
                                                   "referee.render", "referee.cli",
                                                   "referee.api", "referee.script",
                                                   "referee.session"))}
    assert not upward, f"files.py imports {sorted(upward)}"
