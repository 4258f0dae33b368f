"""Plain tables written without rich's layout work are exactly what rich prints, and every table
the fast path cannot copy (something wraps, a control character, colour) is left to rich."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from referee.core.result import Result, StepLog
from referee.core.table import Table
from referee.core.text import Msg
from referee.render import console as render_console
from referee.render import plain_table
from referee.render.console import make_console, print_steps, print_table

# letters, spaces (leading, trailing, doubled), Cyrillic, arrows, brackets (never markup),
# wide characters (two cells each) and a combining accent (none)
ALPHABET = st.sampled_from(list("ab Z 19") + list("Бласт→[]/") + ["漢", "字", "e\u0301"])
CELL = st.lists(ALPHABET, max_size=14).map("".join)


def rich_lines(console: Console, boxed: box.Box, title: str, headers: list[str],
               justify: list[plain_table.Justify], rows: list[list[str]],
               wraps: list[bool]) -> str:
    """The table as rich lays it out, as referee builds its rich tables."""
    table = RichTable(title=Text(title), box=boxed, title_justify="left")
    for head, how, wrap in zip(headers, justify, wraps, strict=True):
        table.add_column(Text(head), justify=how, no_wrap=not wrap)
    for row in rows:
        table.add_row(*(Text(c) for c in row))
    console.print(table)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def plain_console(width: int) -> Console:
    return Console(file=io.StringIO(), force_terminal=False, color_system=None, width=width,
                   highlight=False, soft_wrap=False, emoji=False)


Drawn = tuple[str, list[str], list[plain_table.Justify], list[list[str]], list[bool]]


@st.composite
def tables(draw: st.DrawFn) -> Drawn:
    """A table of short cells, or with one column of long ones (which wrap)."""
    columns = draw(st.integers(1, 6))
    headers = draw(st.lists(CELL, min_size=columns, max_size=columns))
    justify = draw(st.lists(st.sampled_from(["left", "right"]), min_size=columns,
                            max_size=columns))
    wraps = draw(st.lists(st.booleans(), min_size=columns, max_size=columns))
    long = draw(st.none() | st.integers(0, columns - 1))
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        row = draw(st.lists(CELL, min_size=columns, max_size=columns))
        if long is not None:
            row[long] = " ".join(draw(st.lists(CELL, max_size=25)))
        rows.append(row)
    title = draw(CELL | st.lists(CELL, max_size=12).map(" ".join))
    return title, headers, justify, rows, wraps


@settings(max_examples=400, deadline=None)
@given(table=tables(), width=st.integers(20, 120),
       boxed=st.sampled_from([box.ASCII, box.ROUNDED, box.SQUARE]))
def test_a_plain_table_is_written_exactly_as_rich_writes_it(table: Drawn, width: int,
                                                            boxed: box.Box) -> None:
    title, headers, justify, rows, wraps = table
    found = plain_table.lines(plain_console(width), boxed, title, headers, justify, rows,
                              wraps)
    if found is not None:
        assert "".join(line + "\n" for line in found) == rich_lines(
            plain_console(width), boxed, title, headers, justify, rows, wraps)


def test_the_fast_path_takes_a_long_table_that_fits() -> None:
    rows = [[f"Unit {i}", "Grey", f"G{i}", "→ Shaken"] for i in range(300)]
    args = ("Units [L-8]", ["Unit", "Side", "Hex", "Status"], ["left"] * 4, rows,
            [False, True, True, True])
    found = plain_table.lines(plain_console(120), box.ASCII, *args)
    assert found is not None and len(found) == 300 + 5
    assert "".join(line + "\n" for line in found) == rich_lines(plain_console(120), box.ASCII,
                                                                *args)


def test_the_fast_path_wraps_the_one_long_column_as_rich_does() -> None:
    rows = [[str(i), "E-8", "roll", "Gun: 200d6: " + " ".join("3" for _ in range(i * 20))]
            for i in range(12)]
    args = ("Working", ["#", "Clause", "Step", "What happened"],
            ["right", "left", "left", "left"], rows, [True] * 4)
    found = plain_table.lines(plain_console(120), box.ASCII, *args)
    assert found is not None and len(found) > 12 + 5  # some rows take several lines
    assert "".join(line + "\n" for line in found) == rich_lines(plain_console(120), box.ASCII,
                                                                *args)


@pytest.mark.parametrize(("why", "title", "cell", "width", "colour"), [
    ("two columns wrap", "T", "word " * 30, 80, False),
    ("a newline", "T", "two\nlines", 120, False),
    ("a tab", "T", "a\tb", 120, False),
    ("colours show", "T", "x", 120, True),
])
def test_what_the_fast_path_cannot_copy_is_left_to_rich(why: str, title: str, cell: str,
                                                        width: int, colour: bool) -> None:
    console = Console(file=io.StringIO(), force_terminal=colour, width=width,
                      color_system="truecolor" if colour else None)
    assert plain_table.lines(console, box.ASCII, title, ["A", "B"], ["left", "left"],
                             [[cell, cell]]) is None, why


def _result(steps: int) -> Result:
    log = StepLog()
    for i in range(steps):
        log.input(Msg.of("lnlt.step.impulse", n=i, side="Grey"), "L-1")
        if i % 50 == 7:  # a long line: the steps table wraps, so rich lays it out
            log.note(Msg.of("lnlt.step.impulse", n=i, side="Grey " * 30), "L-1")
    rows = tuple((f"Unit {i}", "Grey", f"G{i}", Msg.of("lnlt.kind.mmc"), 3 + i)
                 for i in range(steps))
    table = Table(Msg.of("lnlt.table.roster"),
                  tuple(Msg.of(f"lnlt.col.{c}") for c in ("unit", "side", "hex", "kind",
                                                           "status")), rows, clause="L-8")
    return Result(ruleset="lnlt", steps=log.steps, tables=[table],
                  outcome=Msg.of("lnlt.outcome.in_progress", side="Grey", n=1, passes=0))


@pytest.mark.parametrize("steps", [3, 200])
@pytest.mark.parametrize("terminal", [False, True])
def test_printed_tables_are_the_same_with_or_without_the_fast_path(
        monkeypatch: pytest.MonkeyPatch, steps: int, terminal: bool) -> None:
    result = _result(steps)

    def printed() -> str:
        out = io.StringIO()
        console = make_console(out, terminal=terminal, color=False)
        print_steps(console, result)
        print_table(console, result.tables[0])
        return out.getvalue()

    fast = printed()
    monkeypatch.setattr(render_console.plain_table, "lines", lambda *args: None)
    assert fast == printed()


@pytest.mark.parametrize("colour", [False, True])
def test_lines_printed_at_once_read_as_lines_printed_one_by_one(colour: bool) -> None:
    lines = ["  Autogun: 6d6 to hit on 5+ [E-8]", "    0..6 ▇█▅▂▁▁▁  hits (mean 2.00)",
             "a long line " * 15, "", "[bold]brackets stay[/bold]", "漢字 " * 50]

    def printed(one_by_one: bool) -> str:
        out = io.StringIO()
        console = make_console(out, terminal=colour, color=colour)
        if one_by_one:
            for line in lines:
                render_console.print_message(console, line)
        else:
            render_console.print_lines(console, lines)
        return out.getvalue()

    assert printed(False) == printed(True)
