"""Human output: rich tables in a terminal; plain text (no colour, ASCII-free of escapes)
when NO_COLOR is set or the output is not a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment, Segments
from rich.table import Table as RichTable
from rich.text import Text

from referee.catalog import render
from referee.core.table import Table
from referee.core.text import Msg, visible
from referee.render import fast_table, stacked
from referee.render.fast_table import Column
from referee.render.json_out import cell_text

if TYPE_CHECKING:
    from referee.core.result import Result

PLAIN_WIDTH = 120
SUMMARY_ROWS = 250
"""A table of one row per item (``Table.summary``: an allocation's hits) longer than this is
shown as its summary: no player reads thousands of rows at the table (``--json`` has them)."""

# by StepKind value (kept as text so that a lookup does not load the result module)
KIND_STYLE = {"input": "cyan", "modifier": "yellow", "roll": "magenta", "outcome": "bold green",
              "note": "blue", "warning": "bold red"}


def make_console(file: IO[str], *, terminal: bool, color: bool = True,
                 width: int | None = None) -> Console:
    """Colour and rounded boxes on a terminal; plain text (no escape codes) with NO_COLOR or
    when not writing to a terminal: at the terminal's width, or a fixed width for files
    (``width``: the width of the terminal the player sits at, when the output is piped from
    an attack asked there)."""
    if terminal and color:
        return Console(file=file, force_terminal=True, highlight=False, soft_wrap=False)
    return Console(file=file, force_terminal=False, color_system=None,
                   width=width or (None if terminal else PLAIN_WIDTH), highlight=False,
                   soft_wrap=False, emoji=False)


def _box(console: Console) -> box.Box:
    return box.ROUNDED if console.is_terminal else box.ASCII


def _text(value: object) -> Text:
    """Players' names may hold brackets and control characters: everything shown is literal
    text, never markup, with its control characters made visible."""
    return Text(visible(str(value)))


def _print(console: Console, text: str, style: str | None = None) -> None:
    """One line of text, literal and with its control characters made visible; too wide for
    the terminal, it continues under its own indent (``stacked.hanging``)."""
    width = console.options.max_width
    text = "\n".join(part for line in visible(text).split("\n")
                     for part in stacked.hanging(line, width))
    console.print(text, markup=False, style=style if console.is_terminal else None)


LABEL_WIDTH = 24  # a wrapping first column keeps at least this much room (or its widest)
HEAD_WIDTH = 14  # the other columns' headers get this much room before the labels get more


def _label_widths(width: int, headers: list[str], rows: list[list[str]]) -> list[int]:
    """Column widths for a table of long labels and short values: every value column as wide
    as its widest value and its header's widest word; the labels at least their widest word
    and up to ``LABEL_WIDTH`` as the room allows; then the room left goes to the value
    columns' headers (up to ``HEAD_WIDTH``), then to the labels (up to their widest), then
    to the headers' whole length."""
    cells = [[row[i] for row in rows] for i in range(len(headers))]
    need = [max([1, *map(cell_len, column)]) for column in cells]
    want = [max(need[i], cell_len(headers[i])) for i in range(len(headers))]
    want[0] = need[0]
    for i in range(1, len(headers)):
        need[i] = max(need[i], fast_table.widest_word(headers[i]))
    room = width - (3 * len(headers) + 1) - sum(need[1:])
    least = max([fast_table.widest_word(headers[0]), *map(fast_table.widest_word, cells[0])])
    need[0] = max(least, min(need[0], LABEL_WIDTH, room))
    left = room - need[0]
    # the headers a readable width first, then the labels, then the headers' whole length
    for i, cap in [*((i, HEAD_WIDTH) for i in range(1, len(headers))), (0, want[0]),
                   *((i, want[i]) for i in range(1, len(headers)))]:
        more = max(0, min(left, min(cap, want[i]) - need[i]))
        need[i] += more
        left -= more
    return need


def _print_fast(console: Console, title: str, columns: list[Column], rows: list[list[str]],
                row_styles: list[str | None] | None = None,
                widths: list[int] | None = None) -> bool:
    """Print the table without rich's layout work (the same characters and styles: see
    ``fast_table``; ``widths``: the columns' widths with padding, when worked out already);
    False when rich must lay it out. The text is made visible by the caller (``_shown``)."""
    if console.color_system is None:
        found = fast_table.lines(console, _box(console), title, columns, rows, widths)
        if found is None:
            return False
        console.out("\n".join(found), highlight=False)
        return True
    segments = fast_table.segments(console, _box(console), title, columns, rows,
                                   row_styles if console.is_terminal else None, widths)
    if segments is None:
        return False
    console.print(Segments(segments))
    return True


def _first_keeps_room(width: int, headers: list[str], rows: list[list[str]]) -> bool:
    """Whether the first column, unwrapped, leaves every other column room for its widest
    word (the least rich gives a column that wraps). Rich otherwise squeezes those columns
    to nothing when the first does not wrap: a long reason in the first column of a Blast
    markers table hid its markers in an 80-column terminal."""
    cells = [headers, *rows]
    natural = [max(cell_len(row[i]) for row in cells) for i in range(len(headers))]
    edges = 3 * len(headers) + 1  # the padding of each cell, the dividers, the two edges
    if sum(natural) + edges <= width:
        return True  # the whole table fits: nothing wraps
    words = [max((cell_len(w) for row in cells for w in row[i].split()), default=0)
             for i in range(1, len(headers))]
    return natural[0] + sum(words) + edges <= width


def _stacks(console: Console, title: str, headers: list[str], rows: list[list[str]],
            wraps: list[bool], row_styles: list[str | None] | None = None) -> bool:
    """When the table cannot be drawn at the console's width without cutting words, print it
    stacked (``stacked``: a block of lines per row) and answer True."""
    width = console.width
    if not stacked.needs_stacking(width, headers, rows, wraps):
        return False
    found = stacked.lines(width, title, headers, rows, "─" if console.is_terminal else "-")
    if console.color_system is None:
        console.out("\n".join("".join(p.text for p in line) for line in found),
                    highlight=False)
        return True
    header = console.get_style("table.header")
    out: list[Segment] = []
    for line in found:  # (the title and the rules unstyled, as a grid's are)
        for part in line:
            if part.kind == "header":
                style = header
            elif part.row is not None and row_styles and row_styles[part.row]:
                style = console.get_style(row_styles[part.row] or "")
            else:
                style = None
            out.append(Segment(part.text, style))
        out.append(Segment.line())
    console.print(Segments(out), end="")
    return True


def _grid_widths(console: Console, columns: list[Column],
                 rows: list[list[str]]) -> tuple[list[int], list[int] | None]:
    """The columns' widths (padding included) for a grid that fits the console, and, when
    rich's own would cut a word (its share of the room shrinks every wrapping column in
    proportion, and cut a column of long flags while its neighbours had room to spare), the
    fixed widths of their text that cut none (``stacked.grid_widths``), else ``None``.
    Worked out once: the fast path is given them, rich the fixed ones."""
    headers = [c.header for c in columns]
    wraps = [c.wraps for c in columns]
    natural = [max([cell_len(h), *(cell_len(row[i]) for row in rows)])
               for i, h in enumerate(headers)]
    padded = [w + 2 * fast_table.PAD for w in natural]
    room = console.width - (len(columns) + 1)
    widths = fast_table.column_widths(padded, wraps, room)
    if widths is None:
        widths = fast_table.rich_widths(console, columns, rows)
    measure = [fast_table.widest_word if wraps[i] else cell_len for i in range(len(columns))]
    if all(max([measure[i](h), *(measure[i](row[i]) for row in rows)]) <= w - 2 * fast_table.PAD
           for i, (h, w) in enumerate(zip(headers, widths, strict=True))):
        return widths, None
    fitted = stacked.grid_widths(console.width, headers, rows, wraps)
    if fitted is None:
        return widths, None
    return [w + 2 * fast_table.PAD for w in fitted], fitted


def _shown(title: str, headers: list[str], rows: list[list[str]]
           ) -> tuple[str, list[str], list[list[str]]]:
    """What a table shows, control characters made visible (``visible``), measured and
    laid out as printed."""
    return visible(title), [visible(h) for h in headers], [[visible(c) for c in row]
                                                           for row in rows]


def print_table(console: Console, table: Table, *, label_wraps: bool = False,
                titled: bool = True) -> None:
    """``label_wraps``: the first column holds long labels (a what-if's rows), so it wraps
    and every other column keeps room for its widest value (numbers are never cut).
    ``titled``: off, the table is drawn without its title (printed apart)."""
    title = render(table.title) if titled else ""
    if table.clause and titled:
        title += f" [{table.clause}]"
    title, headers, rows = _shown(title, [render(col) for col in table.columns],
                                  [[str(cell_text(c)) for c in row] for row in table.rows])
    widths: list[int] | None = None  # the grid's, with padding, when worked out here
    if label_wraps:  # (the values whole, the labels and the headers wrap between words)
        wraps = [i == 0 for i in range(len(headers))]
        if stacked.needs_stacking(console.width, headers, rows, wraps):
            # a header naming what was typed may wrap after its = and , too
            headers = [headers[0], *map(stacked.breakable, headers[1:])]
        if _stacks(console, title, headers, rows, wraps):
            return
        fixed = _label_widths(console.width, headers, rows)
        columns = [Column(head, width=fixed[i], overflow="fold")
                   for i, head in enumerate(headers)]
    else:  # the first column holds ids and names: never cut or wrap it, unless it leaves
        # the other columns no room for their words (rich would then draw them empty)
        first = _first_keeps_room(console.width, headers, rows)
        wraps = [i != 0 or not first for i in range(len(headers))]
        if _stacks(console, title, headers, rows, wraps):
            return
        columns = [Column(head, wraps=wraps[i]) for i, head in enumerate(headers)]
        widths, fitted = _grid_widths(console, columns, rows)
        if fitted:
            columns = [Column(head, wraps=wraps[i], width=fitted[i])
                       for i, head in enumerate(headers)]
    if _print_fast(console, title, columns, rows, widths=widths):
        return
    rich_table = RichTable(title=_text(title), box=_box(console), title_justify="left",
                           show_lines=False)
    for column in columns:
        rich_table.add_column(_text(column.header), no_wrap=not column.wraps,
                              width=column.width, overflow=column.overflow)
    for row in rows:
        rich_table.add_row(*(_text(c) for c in row))
    console.print(rich_table)


def print_steps(console: Console, result: Result) -> None:
    title, headers, rows = _shown(
        render(Msg.of("result.steps_title")),
        [render(Msg.of(f"result.col.{col}")) for col in ("step", "clause", "kind", "what")],
        [[str(i), step.clause or "", render(Msg.of(f"step.kind.{step.kind.value}")),
          render(step.text)] for i, step in enumerate(result.steps, 1)])
    styles: list[str | None] = [KIND_STYLE[step.kind.value] for step in result.steps]
    wraps = [True] * len(headers)
    if _stacks(console, title, headers, rows, wraps, styles):
        return
    columns = [Column(headers[0], justify="right"), *(Column(h) for h in headers[1:])]
    widths, fitted = _grid_widths(console, columns, rows)
    if fitted:
        columns = [Column(headers[0], justify="right", width=fitted[0]),
                   *(Column(h, width=w) for h, w in zip(headers[1:], fitted[1:], strict=True))]
    if _print_fast(console, title, columns, rows, styles, widths):
        return
    rich_table = RichTable(title=_text(title), box=_box(console), title_justify="left")
    for column in columns:
        rich_table.add_column(_text(column.header), justify=column.justify,
                              width=column.width)
    for row, style in zip(rows, styles, strict=True):
        rich_table.add_row(*(_text(c) for c in row),
                           style=style if console.is_terminal else None)
    console.print(rich_table)


def print_result(console: Console, result: Result, *, outcome: bool = True,
                 steps: bool = True) -> None:
    """House rules in force, the working, its tables and (unless ``outcome`` is off: a
    phase's impulse, whose outcome is its log) the outcome line; ``steps`` off: the house
    rules alone (the outcome screen's first line)."""
    if result.non_default_options:
        values = ", ".join(f"{n}={result.options[n]}" for n in result.non_default_options)
        _print(console, render(Msg.of("result.house_rules", options=values)))
    if not steps:
        return
    print_steps(console, result)
    for table in result.tables:
        summary = summary_table(table)
        if summary is None:
            print_table(console, table)
            continue
        # its title on a line of its own: as the narrow table's title it would wrap
        _print(console, render(summary.title) + (f" [{table.clause}]" if table.clause else ""))
        print_table(console, summary, titled=False)
        _print(console, render(Msg.of("result.summary.note", rows=len(table.rows))))
    if outcome:
        _print(console, render(Msg.of("result.outcome", outcome=result.outcome)), "bold")


def summary_table(table: Table) -> Table | None:
    """The summary a long table of one row per item is shown as (``Table.summary``), or
    ``None`` when it is short or has none: its rows counted by the value of one column, in
    the order they first come, with a column per value of another (in the order they first
    come) when it has one."""
    how = table.summary
    if how is None or len(table.rows) <= SUMMARY_ROWS:
        return None
    counts: dict[str, dict[str, int]] = {}
    splits: dict[str, None] = {}
    for row in table.rows:
        key = str(cell_text(row[how.by]))
        split = "" if how.split is None else str(cell_text(row[how.split]))
        splits[split] = None
        by_split = counts.setdefault(key, {})
        by_split[split] = by_split.get(split, 0) + 1
    columns: tuple[Any, ...] = (table.columns[how.by], how.total)
    if how.split is not None:
        columns += tuple(splits)
    rows = tuple((key, sum(by_split.values()),
                  *((by_split.get(s, 0) for s in splits) if how.split is not None else ()))
                 for key, by_split in counts.items())
    return Table(Msg.of("result.summary.title", title=table.title,
                        column=table.columns[how.by]), columns, rows, table.clause)


def print_message(console: Console, msg: Msg | str, style: str | None = None) -> None:
    _print(console, render(msg), style)


def print_lines(console: Console, lines: Sequence[str]) -> None:
    """Lines of text, as ``print_message`` prints each (control characters made visible, a
    long line continued under its indent), in one go: as they are when no style shows and
    each fits the width, else through rich at once."""
    if not lines:
        return
    width = console.options.max_width
    lines = [part for line in lines for part in stacked.hanging(visible(line), width)]
    text = "\n".join(lines)
    if console.color_system is None and all(
            line.isprintable() and cell_len(line) <= width for line in lines):
        console.out(text, highlight=False)
    else:
        console.print(text, markup=False)


def show_answer(console: Console, question: Any, value: Any) -> None:
    """One answered question as the player saw it: ``? text  answer``."""
    from referee.render.display import answer_text

    _print(console, f"? {render(question.text)}  {answer_text(question, value)}")


def show_under(console: Console, question: Any, value: Any) -> None:
    """The answer of a question shown before it was answered (a program roll after the
    opponent's word): under it, as the terminal shows the dice."""
    from referee.render.display import answer_text

    _print(console, f"  {answer_text(question, value)}")
