"""No user-facing string bypasses the message catalogue.

Every Python file under ``referee/`` is read as a syntax tree and these are refused:

* text literals printed or written (``print``, ``echo``, ``.write``, ``.print``, ``say``,
  ``print_message``) when they hold a word;
* ``help=`` given as a literal instead of ``t("...")`` (Typer help texts);
* ``Msg.of`` (and ``PydanticCustomError``) given a first argument that is not a message id;
* a choice label (``Choice(value, label)``) written as a literal word;
* English prose in any other literal: two words in a row in a string, or a word and a space
  in the text of an f-string (``f"weapon {i}"`` builds a name a player reads).

Allowed, because no player reads them: docstrings and bare strings, the messages of
programming errors (``raise ValueError(...)``, ``assert x, ...``), pydantic
``Field(description=...)`` (schema documentation), SQL, the TOML key lines the script
writer emits, rich style names, regular expressions, HTML or SVG markup and the pages'
Content-Security-Policy (the words a page shows come from the catalogue). What is left is
listed in ``KNOWN`` with the reason it stays.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.support import ROOT

WORD = re.compile(r"[A-Za-z]{2,}")
PHRASE = re.compile(r"[A-Za-z]{2,}[,:;]?\s+[A-Za-z]{2,}")
WORD_AND_SPACE = re.compile(r"[A-Za-z]{2,} ")
MESSAGE_ID = re.compile(r"^[a-z0-9_.-]+$")
OUTPUT_CALLS = {"print", "echo", "secho", "write", "say", "print_message"}
PROGRAMMING_ERRORS = {"ValueError", "KeyError", "TypeError", "RuntimeError", "AssertionError",
                      "NotImplementedError", "LookupError"}
SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|CREATE|PRAGMA|BEGIN|DELETE)\b")
TOML_KEY_LINE = re.compile(r"^[a-z_]+ = $")
RICH_STYLE = re.compile(r"^(bold |dim |italic )?(red|green|blue|cyan|yellow|magenta)$")
REGEX = re.compile(r"\\[(sdw]")
MARKUP = re.compile(r"^\s*</?[a-z][a-z0-9-]*[\s>/]")
CSP = re.compile(r"^(default-src|script-src|style-src) ")

# (file, the offending literal text) -> why it stays. Each is a finding for its owner.
KNOWN: dict[tuple[str, str], str] = {}


def python_files() -> list[Path]:
    return sorted((ROOT / "referee").rglob("*.py"))


def _text(node: ast.AST) -> str | None:
    """The literal text of a string or of an f-string's fixed parts."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _exempt_nodes(tree: ast.AST) -> set[int]:
    """Literals no player reads: docstrings and bare strings, programming-error messages,
    schema descriptions, and everything under them."""
    out: set[int] = set()

    def under(node: ast.AST) -> None:
        out.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            under(node)
        elif isinstance(node, ast.Assert) and node.msg is not None:
            under(node.msg)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and _name(node.exc.func) in PROGRAMMING_ERRORS:
            under(node.exc)
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "description":
                    under(kw.value)
            if _name(node.func) == "PydanticCustomError" and len(node.args) > 1:
                under(node.args[1])  # an English fallback; the error type is the message id
    return out


def findings(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, rule, literal text) for every literal in ``path`` that bypasses the catalogue."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = _exempt_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in OUTPUT_CALLS:
                for arg in node.args:
                    text = _text(arg)
                    if text and WORD.search(text):
                        yield node.lineno, "printed literal", text
            for kw in node.keywords:
                if kw.arg == "help" and _text(kw.value) is not None:
                    yield node.lineno, "help= literal", _text(kw.value) or ""
            if name in ("of", "PydanticCustomError") and node.args:
                first = node.args[0]
                if (name == "PydanticCustomError" or ast.unparse(node.func) == "Msg.of") \
                        and isinstance(first, ast.Constant) \
                        and not MESSAGE_ID.match(str(first.value)):
                    yield node.lineno, "not a message id", str(first.value)
            if name == "Choice":
                labels = node.args[1:2] + [k.value for k in node.keywords if k.arg == "label"]
                for label in labels:
                    text = _text(label)
                    if text and WORD.search(text):
                        yield node.lineno, "literal choice label", text
        if id(node) in exempt:
            continue
        text = _text(node)
        if text is None or SQL.match(text) or TOML_KEY_LINE.match(text) \
                or RICH_STYLE.match(text) or REGEX.search(text) or MARKUP.match(text) \
                or CSP.match(text):
            continue
        if isinstance(node, ast.Constant) and PHRASE.search(text):
            yield node.lineno, "English prose", text
        elif isinstance(node, ast.JoinedStr) and WORD_AND_SPACE.search(text):
            yield node.lineno, "English words in an f-string", text


def test_no_user_facing_string_bypasses_the_catalogue() -> None:
    found = []
    for path in python_files():
        rel = path.relative_to(ROOT).as_posix()
        for line, rule, text in findings(path):
            # an f-string's fixed parts are also walked as constants: judge the f-string
            if (rel, text) not in KNOWN and (rel, text.strip()) not in KNOWN:
                found.append(f"{rel}:{line}: {rule}: {text!r}")
    assert not sorted(set(found)), "\n".join(sorted(set(found)))


def test_every_known_exception_is_still_there() -> None:
    """An allowance whose literal is gone (fixed) must leave KNOWN too."""
    seen = {(p.relative_to(ROOT).as_posix(), text) for p in python_files()
            for _, _, text in findings(p)}
    assert set(KNOWN) <= seen


def test_the_scan_catches_what_it_is_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('''
import typer
from referee.core.text import Msg
from referee.core.questions import Choice

def f(console, env, i):
    print("Hello there")
    env.stdout.write(f"Rolled {i} dice")
    console.print("Done")
    typer.Option("--x", help="Say it")
    Msg.of("Not an id")
    Choice("x", "Extra")
    name = f"unit {i}"
    title = "Shots fired"
    raise ValueError("a bug, not for players")
''', encoding="utf-8")
    rules = sorted({rule for _, rule, _ in findings(sample)})
    assert rules == ["English prose", "English words in an f-string", "help= literal",
                     "literal choice label", "not a message id", "printed literal"]
    lines = {line for line, _, _ in findings(sample)}
    assert 15 not in lines  # the programming error
