"""The command line's conventions (issue 19): flags anywhere in a lookup, the options of a
ruleset, the command line as a package whose imports point one way."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment

ROOT = Path(__file__).resolve().parents[2]


def invoke(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False,
                                prog_name="referee")
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


@pytest.mark.parametrize(("moved", "usual"), [
    ("lookup epic to-hit --cover 5", "lookup epic to-hit 5 --cover"),
    ("lookup epic to-hit --cover --double 6", "lookup epic to-hit 6 --cover --double"),
    ("lookup cc targeting --hindrance 2 5", "lookup cc targeting 5 --hindrance 2"),
    ("lookup cc targeting --hindrance=2 5", "lookup cc targeting 5 --hindrance 2"),
    ("lookup waw he-odds --defence 1 5 4", "lookup waw he-odds 5 4 --defence 1"),
    ("lookup lnlt ops-complete --fp 3 --moved ifp", "lookup lnlt ops-complete ifp --fp 3 --moved"),
    ("lookup lnlt ops-complete --fp=3 ifp", "lookup lnlt ops-complete ifp --fp 3"),
])
def test_a_lookups_flags_may_come_before_its_key(moved: str, usual: str) -> None:
    got, want = invoke(moved.split()), invoke(usual.split())
    assert got == want and want[0] == 0, (got, want)


def test_a_flag_with_no_table_says_to_name_one() -> None:
    code, _, err = invoke(["lookup", "epic", "--cover"])
    assert code == 2 and "--cover: name a table first" in err


@pytest.mark.parametrize("ruleset", ["epic", "cc", "lnlt", "waw", "fow"])
def test_options_lists_every_named_reading_with_its_default_and_clause(ruleset: str) -> None:
    from referee.rulesets import find_ruleset

    specs = find_ruleset(ruleset).option_specs()
    code, out, _ = invoke(["options", ruleset, "--json"])
    data = json.loads(out)
    assert code == 0 and data["schema_version"] == 2
    assert [o["name"] for o in data["options"]] == [s.name for s in specs]
    for option, spec in zip(data["options"], specs, strict=True):
        assert option["default"] == spec.default and option["clause"] == spec.clause
        assert option["reason_text"] and "option." not in option["reason_text"]
        if spec.choices:
            assert option["values"] == list(spec.choices)
    code, table, _ = invoke(["options", ruleset])
    assert code == 0
    for spec in specs:
        assert spec.name in table


def test_options_speak_the_users_language() -> None:
    from referee.start import load_app

    try:
        russian = load_app("ru")
        out = io.StringIO()
        env = Environment(stdin=io.StringIO(), stdout=out, stderr=io.StringIO())
        CliRunner().invoke(russian, ["options", "epic"], obj=env, catch_exceptions=False)
        assert "Опции набора" in out.getvalue() and "По умолчанию" in out.getvalue()
    finally:
        load_app("en")


def test_the_command_line_imports_point_one_way() -> None:
    """app and shared import no command module; seat imports neither app nor a command;
    no command module imports another; nothing outside imports a command module."""
    package = ROOT / "referee" / "cli"
    commands = {p.stem for p in package.glob("*.py")} - {"__init__", "app", "shared", "seat"}

    def imported(path: Path) -> set[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        return {n.removeprefix("referee.cli.") for n in names if n.startswith("referee.cli.")}

    assert not imported(package / "app.py") & (commands | {"seat"})
    assert not imported(package / "shared.py") & (commands | {"seat", "app"})
    assert not imported(package / "seat.py") & (commands | {"app"})
    for name in commands:
        assert not imported(package / f"{name}.py") & (commands - {name}), name
    outside = [p for p in (ROOT / "referee").rglob("*.py") if package not in p.parents]
    for path in outside:
        assert not imported(path) & commands, path


# --- completion ------------------------------------------------------------------------------

def _complete(words: str) -> list[str]:
    import os
    import subprocess
    import sys

    script = Path(sys.executable).parent / "referee"  # the console script a shell runs
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    env = {**os.environ, "COMP_WORDS": words, "COMP_CWORD": str(cword),
           "_REFEREE_COMPLETE": "complete_bash"}
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize(("words", "expected"), [
    ("referee at", ["attack"]),
    ("referee lookup ep", ["epic-armageddon", "epic"]),
    ("referee lookup epic t", ["to-hit"]),
    ("referee options c", ["combat-commander", "cc", "cce"]),
    ("referee attack epic -o all", ["allocation-by=", "allocation-tie="]),
    ("referee attack epic -o allocation-by=", ["allocation-by=defender",
                                               "allocation-by=attacker"]),
    ("referee attack epic --odds f", ["full"]),
])
def test_the_shell_completes_commands_rulesets_tables_and_options(words: str,
                                                                  expected: list[str]) -> None:
    assert _complete(words) == expected


def test_the_completion_script_is_typers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--show-completion`` is Typer's flag: it shows the script of the shell it detects
    from the processes above it (a test run started from sh, or from no shell, detects sh or
    nothing, and Typer has no script for those), so the test says which shell runs it."""
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    code, out, _ = invoke(["--show-completion", "bash"])
    assert code == 0 and "_REFEREE_COMPLETE" in out and "complete_bash" in out


# --- help -----------------------------------------------------------------------------------

PYTHON_TYPES = ("<bool>", "<str>", "<int>", "<path>", "<list[str]>", "<float>")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_commands_help_reads_as_words_with_an_example(lang: str) -> None:
    from referee.reference import command_paths, helps

    try:
        shown = dict(helps(lang))
    finally:
        from referee.start import load_app

        load_app("en")
    assert len(shown) == len(command_paths())
    example = {"en": "Example: referee", "ru": "Пример: referee"}[lang]
    for command, text in shown.items():
        for python_type in PYTHON_TYPES:
            assert python_type not in text, (command, python_type)
        if command != "referee":
            assert example in text, command
    assert "--lang" in shown["referee"] and "ru|en" in shown["referee"]
    assert "NAME=VALUE" in shown["referee attack"] and "FILE" in shown["referee attack"]
    assert "N " in shown["referee attack"]  # --seed N
    if lang == "ru":
        assert "[OPTIONS]" not in "".join(shown.values())


def test_the_cli_reference_is_generated_from_the_help_and_not_stale() -> None:
    from referee.reference import document

    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == document(), (
        "docs/cli.md is stale: python -m referee.reference")
