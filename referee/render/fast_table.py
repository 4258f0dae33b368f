"""A table written line by line: exactly rich's characters and styles, without its layout work.

rich lays every table out cell by cell (measure, wrap, pad, crop, join segments), about 40 µs a
cell whatever the table: most of the time of a long run (the largest Epic declaration prints an
allocation of 3,000 rows; a phase of 200 units some 200 tables). Almost none of that work
decides anything for referee's tables, whose cells are plain text (no markup, no styles of
their own) in columns that are left or right justified, may wrap or not, and may have a fixed
width. For such a table ``segments`` (and, with no colour, ``lines``) writes what rich writes,
with work linear in the cells:

* **column widths**: when the whole table fits at its natural widths (each column as wide as
  its widest cell plus the cell padding: rich's own measure), or fits once its one widest
  wrapping column gives up the excess (what rich's collapse then does), they are known at once
  (``column_widths``). In every other case (two columns wrap, fixed widths, a narrow terminal)
  rich works them out, from a table of at most two rows per column that measures as the whole
  table does: the cell of each column with the widest text and the one with the widest word
  (rich's measure of a column is the largest of its cells' measures, and a cell's measure is
  its widest word and its whole width, so these two cells give the same measure);
* **cells**: a cell that fits is padded as rich pads it; one that does not is wrapped (or cut)
  by rich's own ``Text.wrap``, as rich's cell does; the header row aligned to the bottom, the
  others to the top, as rich aligns them;
* **styles** (a colour terminal): the header row in the theme's ``table.header`` style, each
  row in its own style, border and title unstyled, as rich styles them; the segments are cut
  where rich cuts them, so even the escape codes are the same.

It answers ``None`` where it cannot copy rich (a control character, which rich strips or
expands; a column left with no room; a console that records) and rich lays the table out as
before. Tests compare the two on generated tables, plain and in colour
(tests/render/test_render.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rich.box import ASCII2, Box
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

Justify = Literal["left", "right"]
Overflow = Literal["ellipsis", "fold", "crop"]
PAD = 1  # rich's default cell padding, left and right
OVERFLOW: Final = "ellipsis"  # rich's default for a column


@dataclass(frozen=True)
class Column:
    """A column as referee asks rich for it: its header, justification, whether its cells may
    wrap (rich's ``no_wrap`` is the opposite), a fixed width of its text (rich's ``width``)
    and what a cell too long for it does (rich's ``overflow``)."""

    header: str
    justify: Justify = "left"
    wraps: bool = True
    width: int | None = None
    overflow: Overflow = OVERFLOW


def column_widths(natural: Sequence[int], wraps: Sequence[bool],
                  room: int) -> list[int] | None:
    """The widths rich gives columns of these natural widths (padding included) in ``room``
    cells: the natural ones when they fit; when not, the one widest wrapping column less the
    excess, provided it stays at least as wide as every other wrapping column (rich's collapse
    then takes the excess from it alone); ``None`` in every other case."""
    widths = list(natural)
    excess = sum(widths) - room
    if excess <= 0:
        return widths
    wrapping = [w for w, ok in zip(widths, wraps, strict=True) if ok]
    if not wrapping:
        return None
    top = max(wrapping)
    second = max((w for w in wrapping if w != top), default=0)
    if wrapping.count(top) > 1 or top - second < excess:
        return None
    widths[next(i for i, w in enumerate(widths) if w == top and wraps[i])] -= excess
    return widths


def widest_word(cell: str) -> int:
    """The cells of the widest word of ``cell``: the least a column that wraps can be."""
    return max(map(cell_len, cell.split()), default=0)


def rich_widths(console: Console, columns: Sequence[Column],
                rows: Sequence[Sequence[str]]) -> list[int]:
    """The column widths (padding included) rich gives this table, worked out by rich from a
    table that measures as this one: per column, its header, its widest cell and the cell
    with its widest word. The widths do not depend on the box's characters, only on there
    being one: the small table is drawn with a box whose top line shows them."""
    from rich.table import Table as RichTable

    table = RichTable(box=ASCII2, show_header=True)
    for column in columns:
        table.add_column(Text(column.header), justify=column.justify,
                         no_wrap=not column.wraps, width=column.width,
                         overflow=column.overflow)
    if rows:
        cells = list(zip(*rows, strict=True))
        table.add_row(*(Text(max(c, key=cell_len)) for c in cells))
        table.add_row(*(Text(max(c, key=widest_word)) for c in cells))
    top = "".join(s.text for s in console.render_lines(table, pad=False)[0])
    return [len(part) for part in top[1:-1].split("+")]


def segments(console: Console, box: Box, title: str, columns: Sequence[Column],
             rows: Sequence[Sequence[str]],
             row_styles: Sequence[str | None] | None = None,
             widths: Sequence[int] | None = None) -> list[Segment] | None:
    """The segments rich yields for a table of these (plain-text) cells with a left-justified
    title, a header row and ``row_styles`` (a style for each row, or none), printed by
    ``console``; ``None`` where rich must lay it out itself. ``widths``: the columns' widths
    (padding included) when the caller has worked them out as rich would."""
    found = _layout(console, box, title, columns, rows, widths)
    if found is None:
        return None
    widths, title_lines, cell_lines, box = found
    plain = Style.null()
    header_style = console.get_style("table.header")
    styles = [plain if s is None else console.get_style(s) for s in
              (row_styles or [None] * len(rows))]
    out: list[Segment] = []
    for title_line in title_lines:
        out += [Segment(title_line), Segment.line()]
    out += [Segment(box.get_top(widths)), Segment.line()]
    for n, (cells, style) in enumerate(zip(cell_lines, [header_style, *styles], strict=True)):
        left, divider, right = _edges(box, n, len(rows))
        for line in _row(cells, widths, n == 0):
            if not style:  # no style: nothing shows where rich cuts, so one segment a line
                out.append(Segment(left + divider.join(text for text, _ in line) + right))
            else:
                out.append(Segment(left))
                for i, (text, filler) in enumerate(line):
                    if i:
                        out.append(Segment(divider))
                    if filler:  # a cell's blank line below (or above) its text
                        out.append(Segment(text, style))
                    else:  # the left padding, the text, the right padding
                        out += [Segment(text[:PAD], style), Segment(text[PAD:-PAD], style),
                                Segment(text[-PAD:], style)]
                out.append(Segment(right))
            out.append(Segment.line())
        if n == 0:
            out += [Segment(box.get_row(widths, "head")), Segment.line()]
    out += [Segment(box.get_bottom(widths)), Segment.line()]
    return out


def lines(console: Console, box: Box, title: str, columns: Sequence[Column],
          rows: Sequence[Sequence[str]],
          widths: Sequence[int] | None = None) -> list[str] | None:
    """The lines rich prints for this table when no style can show (no colour system: a
    file, a pipe, NO_COLOR); ``None`` where a style would show or rich must lay it out.
    ``widths`` as for ``segments``."""
    if console.color_system is not None:
        return None
    found = _layout(console, box, title, columns, rows, widths)
    if found is None:
        return None
    widths, out, cell_lines, box = found
    out.append(box.get_top(widths))
    for n, cells in enumerate(cell_lines):
        left, divider, right = _edges(box, n, len(rows))
        out += [left + divider.join(text for text, _ in line) + right
                for line in _row(cells, widths, n == 0)]
        if n == 0:
            out.append(box.get_row(widths, "head"))
    out.append(box.get_bottom(widths))
    return out


def _edges(box: Box, n: int, last: int) -> tuple[str, str, str]:
    """The left edge, the divider and the right edge of row ``n`` (0: the header row)."""
    if n == 0:
        return box.head_left, box.head_vertical, box.head_right
    if n == last:
        return box.foot_left, box.foot_vertical, box.foot_right
    return box.mid_left, box.mid_vertical, box.mid_right


Layout = tuple[list[int], list[str], list[list[list[str]]], Box]


def _layout(console: Console, box: Box, title: str, columns: Sequence[Column],
            rows: Sequence[Sequence[str]], known: Sequence[int] | None = None) -> Layout | None:
    """The column widths, the title's lines and every cell's lines (the header row first),
    or ``None`` where rich must lay the table out."""
    if console.record:
        return None
    headers = [c.header for c in columns]
    if not (title.isprintable() and all(h.isprintable() for h in headers)
            and all(cell.isprintable() for row in rows for cell in row)):
        return None  # rich would strip or expand control characters, or break the line
    edges = 2 + (len(columns) - 1)  # the two edges and the column dividers
    widths = list(known) if known is not None else None
    if widths is None and all(c.width is None for c in columns):
        natural = [cell_len(h) for h in headers]
        for row in rows:
            for i, cell in enumerate(row):
                natural[i] = max(natural[i], cell_len(cell))
        widths = column_widths([w + 2 * PAD for w in natural], [c.wraps for c in columns],
                               console.options.max_width - edges)
    if widths is None:
        widths = rich_widths(console, columns, rows)
    if len(widths) != len(columns) or min(widths) <= 2 * PAD:
        return None  # (rich lays a column with no room left its own way)
    table_width = sum(widths) + edges
    box = box.substitute(console.options, safe=console.safe_box)

    def cell_lines(cell: str, width: int, column: Column) -> list[str]:
        room = width - 2 * PAD
        if cell_len(cell) > room:
            wrapped = Text(cell).wrap(console, room, justify=column.justify,
                                      overflow=column.overflow, no_wrap=not column.wraps)
            return [" " * PAD + line.plain + " " * PAD for line in wrapped]
        if column.justify == "right":
            cell = cell.rstrip()  # as rich justifies right
            return [" " * (PAD + room - cell_len(cell)) + cell + " " * PAD]
        return [" " * PAD + cell + " " * (PAD + room - cell_len(cell))]

    title_lines = []
    if title:  # as wide as the table: a longer title wraps (rich folds a word too long)
        title_lines = [line.plain for line in Text(title).wrap(
            console, table_width, justify="left", overflow="fold")]
    cells = [[cell_lines(c, w, col) for c, w, col in zip(row, widths, columns, strict=True)]
             for row in (headers, *rows)]
    return widths, title_lines, cells, box


def _row(parts: list[list[str]], widths: Sequence[int],
         header: bool) -> list[list[tuple[str, bool]]]:
    """The lines of a row, cell by cell, each a cell's text and whether it is a blank line
    that fills the cell: every cell as tall as the tallest, its blank lines below it (above
    it in the header row, which rich aligns to the bottom)."""
    height = max(len(p) for p in parts)
    cells = []
    for part, width in zip(parts, widths, strict=True):
        lines = [(text, False) for text in part]
        blank = [(" " * width, True)] * (height - len(part))
        cells.append(blank + lines if header else lines + blank)
    return [[cell[n] for cell in cells] for n in range(height)]
