"""Narrow terminals (issue 19, item 6): no table cuts a word a player reads or types.

A grid that cannot fit without cutting a word is stacked (a block of lines a row); one that
can is given widths that keep every word whole. Every transcript's commands are replayed at
60, 80 and 120 columns and checked: no ellipsis, no line wider than the terminal, and the
words of each table still there.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import IO

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

import referee.render.console as render_console
from referee.core.table import Table
from referee.core.text import Msg
from referee.render import stacked
from referee.render.console import make_console, print_table
from tests.support import ROOT
from tests.support.pty import ENTER, TIMEOUT, Session
from tests.support.transcripts import replay, transcript, transcript_files

WIDTHS = (60, 80, 120)
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzМодификатор-+", min_size=1, max_size=18)
CELLS = st.lists(WORDS, min_size=0, max_size=6).map(" ".join)


def _at_width(monkeypatch: pytest.MonkeyPatch, width: int, *, colour: bool = False) -> None:
    """Every console the commands make is a terminal of ``width`` columns (the help's too:
    rich reads the terminal's width from ``COLUMNS``)."""
    monkeypatch.setenv("COLUMNS", str(width))
    made = render_console.make_console

    def narrow(file: IO[str], *, terminal: bool, color: bool = True,
               width_: int | None = None, **_: object) -> object:
        return made(file, terminal=colour, color=colour, width=width)

    monkeypatch.setattr(render_console, "make_console", narrow)


def _plain(text: str) -> str:
    return Text.from_ansi(text).plain


CASES = [(path, width) for path in transcript_files(ROOT) for width in WIDTHS]


@pytest.mark.parametrize(("path", "width"), CASES,
                         ids=[f"{p.relative_to(ROOT)}@{w}" for p, w in CASES])
def test_every_transcript_at_a_narrow_terminal_cuts_no_word(
        path: Path, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each transcript's commands, each from the state the commands before it left, at a
    terminal of ``width`` columns: nothing is cut with an ellipsis, no line is wider than
    the terminal (the terminal would wrap it through the table's borders), and every word
    of every table is shown whole (not folded across lines), unless it is wider than the
    terminal itself."""
    replayed = transcript(path)  # the state before each command, as the transcript left it
    _at_width(monkeypatch, width)
    words = _table_words(monkeypatch)
    for i, cmd in enumerate(replayed.commands):
        words.clear()
        shown = replayed.variant(i).shown
        assert "…" not in shown, f"{path.name} '$ {cmd.line}' at {width}: a cut word"
        tokens = set(_pieces(shown))
        cut = sorted(w for w in words if cell_len(w) <= width - 8 and w not in tokens)
        assert not cut, f"{path.name} '$ {cmd.line}' at {width}: {cut[:5]} not shown whole"
        if " game report" in cmd.line:
            continue  # a Markdown document, for a file or a page, not the terminal's
        wide = [line for line in shown.splitlines() if len(line.rstrip()) > width
                and _is_table_line(line)]
        assert not wide, f"{path.name} '$ {cmd.line}' at {width}: {wide[0]!r}"


def _pieces(text: str) -> list[str]:
    """Words, between spaces and table borders, and split after a ``=`` or ``,`` (where a
    header naming what was typed may wrap)."""
    return [piece for word in re.split(r"[\s|│]+", text)
            for piece in re.split(r"(?<=[=,])", word) if piece]


def _table_words(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The words of every table the commands print: their headers and cells, and the
    working's steps."""
    from referee.catalog import render
    from referee.render.json_out import cell_text

    words: set[str] = set()
    table_printer, steps_printer = render_console.print_table, render_console.print_steps

    def note(text: object) -> None:
        words.update(_pieces(str(text)))

    def table(console: object, table: Table, **kwargs: object) -> None:
        for column in table.columns:
            note(render(column))
        for row in table.rows:
            for cell in row:
                note(cell_text(cell))
        table_printer(console, table, **kwargs)  # type: ignore[arg-type]

    def steps(console: object, result: object) -> None:
        for step in result.steps:  # type: ignore[attr-defined]
            note(render(step.text))
            note(step.clause or "")
        steps_printer(console, result)  # type: ignore[arg-type]

    monkeypatch.setattr(render_console, "print_table", table)
    monkeypatch.setattr(render_console, "print_steps", steps)
    return words


def _is_table_line(line: str) -> bool:
    """A line of a grid or a stacked table (the lines a program prints itself, the usage
    lines of an error, are the terminal's to wrap)."""
    return bool(re.match(r"^([|+╭╰│├]|-+$|─+$)", line))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", WIDTHS)
def test_lookup_flags_stay_whole_to_type(width: int, lang: str, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``lookup epic`` lists the flags a player types (``--sustained-fire``): at every width
    each flag is on the screen whole, on one line."""
    from tests.support.transcripts import Command

    _at_width(monkeypatch, width)
    line = ("referee --lang ru lookup epic" if lang == "ru" else "referee lookup epic")
    shown = replay(Command(line, "", 0, 0))
    for flag in ("--cover", "--double", "--marshal", "--sustained-fire"):
        assert re.search(rf"(^|\s){re.escape(flag)}(\s|$)", shown, re.M), (flag, shown)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_table_too_wide_for_its_words_is_stacked(width: int) -> None:
    """``options``' table at 60 columns cannot keep its words whole in a grid: each option
    is a block of lines, header then value; at 120 it is a grid."""
    from referee import api

    table = api.options_table("epic")
    out = io.StringIO()
    print_table(make_console(out, terminal=False, width=width), table)
    shown = out.getvalue()
    lines = shown.splitlines()
    assert "…" not in shown
    assert max(len(line.rstrip()) for line in lines) <= width
    names = [str(row[0]) for row in table.rows]
    grid = any(line.startswith("|") for line in lines)
    if grid:
        assert all(any(f"| {name} " in line for line in lines) for name in names)
    else:  # stacked: the first column's header and each name on a line of their own
        assert all(any(re.match(rf"^\S.*\s{re.escape(name)}$", line) for line in lines)
                   for name in names)
    assert grid == (width >= 120), (width, shown)


def test_a_stacked_table_in_colour_keeps_its_header_style_and_width(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a colour terminal's console takes the terminal's
    table = Table(Msg.of("rulesets.title"), (Msg.of("rulesets.col.id"),
                                              Msg.of("rulesets.col.covers")),
                  (("world-at-war-with-a-long-identifier-to-type", "a b c d " * 12),))
    out = io.StringIO()
    print_table(make_console(out, terminal=True, color=True, width=40), table)
    raw = out.getvalue()
    plain = _plain(raw)
    styled = Text.from_ansi(raw)
    header = styled.plain.index("Covers")
    # the headers styled as a grid's are (bold), the values not
    assert any(span.start <= header < span.end and "bold" in str(span.style)
               for span in styled.spans)
    value = styled.plain.index("a b c d")
    assert not any(span.start <= value < span.end for span in styled.spans)
    assert all(len(line) <= 40 for line in plain.splitlines())
    # a word wider than the whole terminal is the one thing folded, and nothing is lost
    assert "".join(plain.split()).count("world-at-war-with-a-long-identifier-to-type") == 1


@given(st.integers(min_value=20, max_value=140), st.lists(CELLS, min_size=1, max_size=5),
       st.lists(st.lists(CELLS, min_size=5, max_size=5), min_size=0, max_size=6))
def test_stacked_lines_fit_and_keep_every_word(width: int, heads: list[str],
                                               cells: list[list[str]]) -> None:
    """Invariant: the stacked form is never wider than the terminal, keeps every word of
    every cell in order, and cuts a word only when it is wider than the terminal."""
    heads = [h or "h" for h in heads]
    rows = [row[:len(heads)] for row in cells]
    found = stacked.lines(width, "Title", heads, rows)
    text = ["".join(p.text for p in line) for line in found]
    assert all(cell_len(line) <= width for line in text)
    words = [w for row in rows for cell in row for w in cell.split()]
    short = [w for w in words if len(w) <= width - stacked.INDENT]
    body = " ".join(text).split()
    for word in short:
        assert word in body, (word, text)


@given(st.integers(min_value=30, max_value=140),
       st.lists(st.tuples(CELLS, st.booleans()), min_size=1, max_size=6),
       st.lists(st.lists(CELLS, min_size=6, max_size=6), min_size=1, max_size=5))
def test_grid_widths_never_go_below_a_word(width: int, columns: list[tuple[str, bool]],
                                           cells: list[list[str]]) -> None:
    """Invariant: widths for a grid that must wrap fill the terminal exactly and leave each
    column its widest word (the whole cell when it does not wrap); none when nothing fits."""
    heads = [h for h, _ in columns]
    wraps = [w for _, w in columns]
    rows = [row[:len(heads)] for row in cells]
    widths = stacked.grid_widths(width, heads, rows, wraps)
    if widths is None:
        return
    assert sum(widths) + 3 * len(heads) + 1 == width
    for i, w in enumerate(widths):
        measure = stacked.widest_word if wraps[i] else cell_len
        assert w >= max(measure(c) for c in [heads[i], *(row[i] for row in rows)])
    assert not stacked.needs_stacking(width, heads, rows, wraps)


def test_wrap_breaks_between_words_and_folds_only_a_word_too_wide() -> None:
    assert stacked.wrap("--cover --sustained-fire", 17) == ["--cover", "--sustained-fire"]
    assert stacked.wrap("Модификатор попадания", 12) == ["Модификатор", "попадания"]
    assert stacked.wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]


# --- at a real terminal of 60 columns --------------------------------------------------------

def _start_narrow(*args: str, cols: int) -> pexpect.spawn:
    from tests.support.pty import at_a_terminal, child_env

    return pexpect.spawn(sys.executable, ["-m", "referee", *args], cwd=str(ROOT),
                         env=child_env(), encoding="utf-8", timeout=TIMEOUT,
                         dimensions=(50, cols), preexec_fn=at_a_terminal)


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if _is_table_line(line)]


@pytest.mark.pty
@pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty")
@pytest.mark.parametrize("args", [("options", "epic"), ("--lang", "ru", "lookup", "epic",
                                                        "modifiers"), ("lookup", "epic"),
                                  ("rulesets",)])
def test_tables_at_a_60_column_terminal(args: tuple[str, ...]) -> None:
    """In colour, at a terminal 60 columns wide: no ellipsis, no table line wider than it."""
    s = Session(_start_narrow(*args, cols=60))
    assert s.finish() == 0
    assert "…" not in s.text
    lines = _table_lines(s.text)
    assert lines and max(len(line.rstrip()) for line in lines) <= 60, s.text


@pytest.mark.pty
@pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty")
def test_an_attack_at_a_60_column_terminal() -> None:
    """The key flow, an Epic attack from a declaration answered with its defaults and the
    program's dice, at a 60-column terminal: its working and tables cut no word."""
    s = Session(_start_narrow("attack", "epic", "--declaration",
                              "transcripts/scripts/epic-grey-company.toml", "--seed", "11",
                              "--working", cols=60))
    while True:  # defaults everywhere, and the program rolls
        # the hints' first words (a hint wraps at 60 columns)
        index = s.child.expect([r"\(Use", r"Enter to roll\)", r"\(type", r"\(y/n",
                                pexpect.EOF])
        s.seen.append(s.child.before + (s.child.after if index < 4 else ""))
        if index == 4:
            break
        s.child.send("n" if index == 3 else ENTER)
    s.child.close()
    assert "Outcome" in s.text
    assert "…" not in s.text
    lines = _table_lines(s.text)
    assert lines and max(len(line.rstrip()) for line in lines) <= 60, s.text


@given(st.integers(min_value=20, max_value=140), st.integers(min_value=0, max_value=8),
       st.lists(st.text(alphabet="abcdefghij→%().,:-", min_size=1, max_size=12),
                min_size=1, max_size=30))
def test_a_long_line_hangs_under_its_indent(width: int, indent: int, words: list[str]) -> None:
    """Invariant: a line of the odds too wide for the terminal breaks between words; the
    lines after the first are indented two more than it; no word is lost, split or
    moved; nothing is wider than the terminal unless one word alone is."""
    line = " " * indent + "  ".join(words[:2]) + (" " + " ".join(words[2:]) if
                                                    words[2:] else "")
    parts = stacked.hanging(line, width)
    if cell_len(line) <= width or indent + stacked.INDENT >= width // 2:
        assert parts == [line]  # it fits, or there is no room to indent: the terminal wraps it
        return
    assert " ".join(" ".join(parts).split()) == " ".join(line.split())
    assert all(p.startswith(" " * (indent + stacked.INDENT)) for p in parts[1:])
    assert all(cell_len(p) <= width or len(p.split()) == 1 for p in parts)


def test_the_odds_lines_at_60_columns_hang_under_their_indent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A scripted run's odds at 60 columns: a percentile line that wraps continues under its
    own indent (before, it ran back to the left edge, out of its roll's block)."""
    from tests.support.transcripts import Command

    _at_width(monkeypatch, 60)
    shown = replay(Command("referee run transcripts/scripts/epic-allocation.toml", "", 0, 0))
    lines = shown.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    → hits:"))
    assert len(lines[at]) <= 60 and lines[at + 1].startswith("      ")
