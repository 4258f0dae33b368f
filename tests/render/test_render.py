"""Tables written without rich's layout work are exactly what rich prints (the same characters,
and in colour the same escape codes), and every table the fast path cannot copy (a control
character, a column with no room) is left to rich."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.console import Console
from rich.segment import Segments
from rich.table import Table as RichTable
from rich.text import Text

from referee.core.result import Result, StepLog, Summary
from referee.core.table import Table
from referee.core.text import Msg
from referee.render import console as render_console
from referee.render import fast_table
from referee.render.console import make_console, print_steps, print_table
from referee.render.fast_table import Column

# letters, spaces (leading, trailing, doubled), Cyrillic, arrows, brackets (never markup),
# wide characters (two cells each) and a combining accent (none)
ALPHABET = st.sampled_from(list("ab Z 19") + list("Бласт→[]/") + ["漢", "字", "e\u0301"])
CELL = st.lists(ALPHABET, max_size=14).map("".join)
STYLES = [None, "bold green", "cyan", "bold red"]


def rich_text(console: Console, boxed: box.Box, title: str, columns: list[Column],
              rows: list[list[str]], styles: list[str | None] | None = None) -> str:
    """The table as rich lays it out, as referee builds its rich tables."""
    table = RichTable(title=Text(title), box=boxed, title_justify="left")
    for column in columns:
        table.add_column(Text(column.header), justify=column.justify,
                         no_wrap=not column.wraps, width=column.width,
                         overflow=column.overflow)
    for row, style in zip(rows, styles or [None] * len(rows), strict=True):
        table.add_row(*(Text(c) for c in row), style=style)
    console.print(table)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def fast_text(console: Console, boxed: box.Box, title: str, columns: list[Column],
              rows: list[list[str]], styles: list[str | None] | None = None) -> str | None:
    """The table as the fast path writes it (None: left to rich)."""
    if console.color_system is None:
        found = fast_table.lines(console, boxed, title, columns, rows)
        return None if found is None else "".join(line + "\n" for line in found)
    segments = fast_table.segments(console, boxed, title, columns, rows, styles)
    if segments is None:
        return None
    console.print(Segments(segments))
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def plain_console(width: int) -> Console:
    return Console(file=io.StringIO(), force_terminal=False, color_system=None, width=width,
                   highlight=False, soft_wrap=False, emoji=False)


def colour_console(width: int) -> Console:
    return Console(file=io.StringIO(), force_terminal=True, color_system="truecolor",
                   width=width, highlight=False, soft_wrap=False)


Drawn = tuple[str, list[Column], list[list[str]], list[str | None]]


@st.composite
def tables(draw: st.DrawFn) -> Drawn:
    """A table of short cells, or with one or two columns of long ones (which wrap), columns
    that may not wrap or have a fixed width (and fold or cut what is too long), rows with
    styles."""
    count = draw(st.integers(1, 6))
    columns = [Column(draw(CELL | st.lists(CELL, max_size=4).map(" ".join)),
                      draw(st.sampled_from(["left", "right"])), draw(st.booleans()),
                      draw(st.none() | st.none() | st.integers(1, 30)),
                      draw(st.sampled_from(["ellipsis", "ellipsis", "fold", "crop"])))
               for _ in range(count)]
    long = draw(st.lists(st.integers(0, count - 1), max_size=2))
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        row = draw(st.lists(CELL, min_size=count, max_size=count))
        for i in long:
            row[i] = " ".join(draw(st.lists(CELL, max_size=25)))
        rows.append(row)
    title = draw(CELL | st.lists(CELL, max_size=12).map(" ".join))
    styles = [draw(st.sampled_from(STYLES)) for _ in rows]
    return title, columns, rows, styles


@settings(max_examples=600, deadline=None)
@given(table=tables(), width=st.integers(8, 120), colour=st.booleans(),
       boxed=st.sampled_from([box.ASCII, box.ROUNDED, box.SQUARE]))
def test_a_table_is_written_exactly_as_rich_writes_it(table: Drawn, width: int, colour: bool,
                                                      boxed: box.Box) -> None:
    title, columns, rows, styles = table
    make = colour_console if colour else plain_console
    found = fast_text(make(width), boxed, title, columns, rows, styles)
    if found is not None:
        assert found == rich_text(make(width), boxed, title, columns, rows,
                                  styles if colour else None)


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize(("case", "width", "columns", "rows"), [
    ("a long table that fits", 120,
     [Column("Unit", wraps=False), Column("Side"), Column("Hex"), Column("Status")],
     [[f"Unit {i}", "Grey", f"G{i}", "→ Shaken"] for i in range(300)]),
    ("one long column wraps", 120,
     [Column("#", "right"), Column("Clause"), Column("Step"), Column("What happened")],
     [[str(i), "E-8", "roll", "Gun: 200d6: " + " ".join("3" for _ in range(i * 20))]
      for i in range(12)]),
    ("two long columns wrap", 80,
     [Column("Unit", wraps=False), Column("Save"), Column("Dice"), Column("Result")],
     [[f"Unit {i}", "armour 5+ (4+, crossfire)", " ".join("6" for _ in range(i * 9)),
       "32 saved, 18 failed"] for i in range(40)]),
    ("fixed widths, a header that wraps", 60,
     [Column("What if the attack", width=24, overflow="fold"),
      Column("Chance it is broken", width=8, overflow="fold")],
     [["the formation keeps every unit it has " * 2, "12.5%"] for _ in range(20)]),
])
def test_large_tables_take_the_fast_path_and_read_as_rich_writes_them(
        case: str, width: int, columns: list[Column], rows: list[list[str]],
        colour: bool) -> None:
    make = colour_console if colour else plain_console
    styles: list[str | None] = [STYLES[i % len(STYLES)] for i in range(len(rows))]
    found = fast_text(make(width), box.ROUNDED if colour else box.ASCII, "T", columns, rows,
                      styles)
    assert found is not None, case
    assert found == rich_text(make(width), box.ROUNDED if colour else box.ASCII, "T",
                              columns, rows, styles if colour else None), case


@pytest.mark.parametrize(("why", "cell", "width", "colour"), [
    ("a newline", "two\nlines", 120, False),
    ("a tab", "a\tb", 120, True),
    ("a column with no room", "word " * 30, 6, False),
])
def test_what_the_fast_path_cannot_copy_is_left_to_rich(why: str, cell: str, width: int,
                                                        colour: bool) -> None:
    console = colour_console(width) if colour else plain_console(width)
    columns = [Column("A"), Column("B")]
    assert fast_text(console, box.ASCII, "T", columns, [[cell, cell]]) is None, why


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


@pytest.mark.parametrize("width", [100, 60])
@pytest.mark.parametrize("steps", [3, 200])
@pytest.mark.parametrize(("terminal", "colour"), [(False, False), (True, False), (True, True)])
def test_printed_tables_are_the_same_with_or_without_the_fast_path(
        monkeypatch: pytest.MonkeyPatch, steps: int, terminal: bool, colour: bool,
        width: int) -> None:
    """At 60 columns the roster's columns get the widths that cut no word, worked out once
    and handed to the fast path: rich, given the same fixed widths, draws the same."""
    result = _result(steps)
    if colour:
        monkeypatch.setenv("COLUMNS", str(width))  # a colour terminal's console takes it

    def printed() -> str:
        out = io.StringIO()
        console = make_console(out, terminal=terminal, color=colour, width=width)
        print_steps(console, result)
        print_table(console, result.tables[0])
        print_table(console, result.tables[0], label_wraps=True)
        return out.getvalue()

    fast = printed()
    monkeypatch.setattr(render_console.fast_table, "lines", lambda *args, **kwargs: None)
    monkeypatch.setattr(render_console.fast_table, "segments", lambda *args, **kwargs: None)
    assert fast == printed()


@pytest.mark.parametrize("colour", [False, True])
def test_lines_printed_at_once_show_control_characters_as_escapes(colour: bool) -> None:
    """The odds' lines name units from the player's files: a right-to-left override (or any
    control character) in a name is shown as its escape, never written raw (the fuzzer of
    issue 17 found one in World at War's end-state lines)."""
    out = io.StringIO()
    render_console.print_lines(make_console(out, terminal=colour, color=colour),
                               ["      \u202e: hit at least once: 33.3%", "bell\x07 here"])
    shown = out.getvalue()
    assert "\u202e" not in shown and "\x07" not in shown
    assert "\\u202e: hit at least once" in shown and "bell\\x07 here" in shown


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


@pytest.mark.parametrize("colour", [False, True])
def test_a_long_first_column_wraps_rather_than_hide_the_others(colour: bool) -> None:
    """A first column of long reasons (Epic's Blast markers) in an 80-column terminal: it
    wraps, so the markers and clauses stay in sight (unwrapped, rich drew them empty)."""
    reason = "crossfire: the first kill (Unit 0) gives one more per crossfiring formation (1)"
    table = Table(Msg.of("lnlt.table.roster"),
                  (Msg.of("lnlt.col.unit"), Msg.of("lnlt.col.side"), Msg.of("lnlt.col.hex")),
                  ((reason, "+1", "E-13"), ("under fire", "+1", "E-6")))
    out = io.StringIO()
    print_table(make_console(out, terminal=colour, color=colour, width=80), table)
    printed = Text.from_ansi(out.getvalue()).plain
    assert "+1" in printed and "E-13" in printed and "E-6" in printed
    assert max(map(len, printed.splitlines())) <= 80


def _allocation(hits: int) -> Result:
    """A result whose allocation table has a row per hit (as Epic's and Flames of War's
    have), over three units and two kinds of fire."""
    rows = tuple((n, "AP" if n % 2 else "MW", "Gun", f"Unit {n % 3}", Msg.of("lnlt.kind.mmc"))
                 for n in range(1, hits + 1))
    table = Table(Msg.of("lnlt.table.roster"),
                  tuple(Msg.of(f"lnlt.col.{c}") for c in ("unit", "side", "hex", "kind",
                                                           "status")), rows, "E-10",
                  summary=Summary(3, Msg.of("fow.col.hits"), 1))
    return Result(ruleset="lnlt", steps=(), tables=[table],
                  outcome=Msg.of("lnlt.outcome.in_progress", side="Grey", n=1, passes=0))


def test_a_long_table_of_hits_is_shown_as_its_summary_and_json_keeps_every_row() -> None:
    hits = render_console.SUMMARY_ROWS + 50
    result = _allocation(hits)
    out = io.StringIO()
    render_console.print_result(make_console(out, terminal=False), result)
    shown = out.getvalue()
    lines = [" ".join(line.split()) for line in shown.splitlines()]
    # counted by unit in the order they come, the total, then a column per kind of fire
    # in the order they come (hit 1 is AP on Unit 1)
    assert "| Kind | Hits | AP | MW |" in lines
    at = [lines.index(f"| Unit {u} | 100 | 50 | 50 |") for u in (1, 2, 0)]
    assert at == sorted(at)
    assert f"Rows in the whole table: {hits}; every one is in the output of --json." in shown
    assert f"| {hits} " not in shown  # no row of its own per hit
    from referee.render.json_out import result_json

    assert len(result_json(result)["tables"][0]["rows"]) == hits


def test_a_table_of_hits_of_ordinary_size_is_shown_whole() -> None:
    result = _allocation(render_console.SUMMARY_ROWS)
    out = io.StringIO()
    render_console.print_result(make_console(out, terminal=False), result)
    assert f"| {render_console.SUMMARY_ROWS} " in out.getvalue()
    assert "--json" not in out.getvalue()


@pytest.mark.parametrize("ruleset", ["epic", "fow"])
def test_the_largest_allocations_are_shown_as_summaries_with_every_hit_in_json(
        ruleset: str) -> None:
    """The largest declarations (Epic: 30 x 200 dice with a macro-weapon at 60 units; Flames
    of War: 3,600 hits over 60 teams): their allocation, a row per hit, is shown counted by
    unit and fire (Epic) or by reason (Flames of War); ``--json`` lists every hit."""
    from referee import api
    from referee.frontends.answers import AnswerPort
    from referee.render.json_out import result_json
    from tests.support.work import builders

    declaration = (builders.epic_largest() if ruleset == "epic"
                   else builders.fow_assault(3600, 60, 60))
    plan = api.plan_attack(ruleset, seed=1, declaration=declaration)
    result = api.play(plan, AnswerPort({}, plan.dice, roll_missing_dice=True,
                                       use_defaults=True))
    allocation = next(t for t in result.tables if t.clause in ("E-10", "F-3"))
    assert allocation.summary is not None and len(allocation.rows) > 3000
    out = io.StringIO()
    render_console.print_result(make_console(out, terminal=False), result)
    shown = out.getvalue()
    header = ("| Unit    | Hits | AP | MW  |" if ruleset == "epic"
              else "| Why there                                    | Hits |")
    assert header in shown and "every one is in the output of --json" in shown
    summary = render_console.summary_table(allocation)
    assert summary is not None
    assert sum(row[1] for row in summary.rows) == len(allocation.rows)  # every hit counted
    rows = next(t["rows"] for t in result_json(result)["tables"]
                if t["clause"] == allocation.clause)
    assert len(rows) == len(allocation.rows)
