"""A plain table, written line by line: exactly rich's characters, without its layout work.

rich lays every table out cell by cell (measure, wrap, pad, crop, join segments), about 50 µs a
cell: most of the time of a long scripted run (a phase of 200 units prints some 200 tables and
a few thousand lines). In the common cases that work decides little. When no style can show
(no colour system: a file, a pipe, NO_COLOR), every header fits on one line, and either the
whole table fits at its natural widths (each column as wide as its widest cell plus the cell
padding: rich's own measure) or it fits once its one widest wrapping column gives up the
excess (what rich's collapse does when that column stays the widest), the layout is known:
``lines`` writes it with rich's own box characters, width function and word wrap
(``Text.wrap``, for the cells and the title that wrap). In every other case it answers
``None`` and rich lays the table out as before. Tests compare the two on generated tables
(tests/test_render.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from rich.box import Box
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

Justify = Literal["left", "right"]
PAD = 1  # rich's default cell padding, left and right
OVERFLOW: Final = "ellipsis"  # rich's default for a column


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
    if wrapping.count(top) > 1 or top - second < excess or top - excess <= 2 * PAD:
        return None  # (rich lays a column with no room left its own way)
    widths[next(i for i, w in enumerate(widths) if w == top and wraps[i])] -= excess
    return widths


def lines(console: Console, box: Box, title: str, headers: Sequence[str],
          justify: Sequence[Justify], rows: Sequence[Sequence[str]],
          wraps: Sequence[bool] | None = None) -> list[str] | None:
    """The lines rich prints for a table with these (plain-text) cells, a left-justified
    title and a header row (``wraps``: which columns may wrap, by default all), when the
    layout is one of the simple ones above; ``None`` otherwise."""
    if console.color_system is not None or console.record:
        return None
    texts = [title, *headers, *(cell for row in rows for cell in row)]
    if not all(text.isprintable() for text in texts):
        return None  # rich would strip or expand control characters, or break the line
    natural = [cell_len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            natural[i] = max(natural[i], cell_len(cell))
    edges = 2 + (len(headers) - 1)  # the two edges and the column dividers
    widths = column_widths([w + 2 * PAD for w in natural],
                           [True] * len(headers) if wraps is None else wraps,
                           console.options.max_width - edges)
    if widths is None:
        return None
    table_width = sum(widths) + edges
    if any(cell_len(h) > w - 2 * PAD for h, w in zip(headers, widths, strict=True)):
        return None
    box = box.substitute(console.options, safe=console.safe_box)

    def cell_lines(cell: str, width: int, how: Justify) -> list[str]:
        room = width - 2 * PAD
        if cell_len(cell) > room:
            wrapped = Text(cell).wrap(console, room, justify=how, overflow=OVERFLOW)
            return [" " * PAD + line.plain + " " * PAD for line in wrapped]
        if how == "right":
            cell = cell.rstrip()  # as rich justifies right
            return [" " * (PAD + room - cell_len(cell)) + cell + " " * PAD]
        return [" " * PAD + cell + " " * (PAD + room - cell_len(cell))]

    def row_lines(cells: Sequence[str], left: str, divider: str, right: str) -> list[str]:
        parts = [cell_lines(c, w, how) for c, w, how in zip(cells, widths, justify,
                                                              strict=True)]
        height = max(len(p) for p in parts)
        for part, width in zip(parts, widths, strict=True):
            part += [" " * width] * (height - len(part))  # rich aligns cells to the top
        return [left + divider.join(p[n] for p in parts) + right for n in range(height)]

    out = []
    if title:  # as wide as the table: a longer title wraps (rich folds a word too long)
        out += [line.plain for line in Text(title).wrap(console, table_width, justify="left",
                                                        overflow="fold")]
    out.append(box.get_top(widths))
    out += row_lines(headers, box.head_left, box.head_vertical, box.head_right)
    out.append(box.get_row(widths, "head"))
    for n, row in enumerate(rows):
        if n == len(rows) - 1:
            out += row_lines(row, box.foot_left, box.foot_vertical, box.foot_right)
        else:
            out += row_lines(row, box.mid_left, box.mid_vertical, box.mid_right)
    out.append(box.get_bottom(widths))
    return out
