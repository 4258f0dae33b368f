"""A table too wide for the terminal, stacked: each row as a block of lines, one a column
("Header  value"), so that no word a player has to read or type is cut.

A table is drawn as a grid when every column gets at least its widest word (a column that does
not wrap: its widest cell); past that rich would cut words with an ellipsis (``--sustained…``,
"Модифика…"). ``needs_stacking`` tells when, and ``lines`` writes the stacked form: the
headers in a column as wide as the widest of them (or a third of the width at most, a longer
header on a line of its own), the values wrapped at word boundaries after it (a value whose
widest word does not fit beside the headers starts on the next line, indented), a word wider
than the whole width folded (the one case where nothing else can show it), a rule between
rows. Pure text and cell widths: the console decides the styles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from rich.cells import cell_len

from referee.render.fast_table import widest_word

GAP = 2  # between a header and its value
INDENT = 2  # a value on the line after its header


class Part(NamedTuple):
    """A piece of a line: its text and whether it is a header (styled as the table's
    headers are) or a rule (unstyled, as a grid's border is)."""

    text: str
    kind: str = "value"  # "value", "header" or "rule"
    row: int | None = None  # the row a value is of (its style, when rows have styles)


def needs_stacking(width: int, headers: Sequence[str], rows: Sequence[Sequence[str]],
                   wraps: Sequence[bool]) -> bool:
    """Whether a grid of these columns, each as narrow as it can be without cutting a word
    (its widest word, or its widest cell when it does not wrap; a header always wraps), is
    wider than ``width``."""
    edges = 3 * len(headers) + 1  # the padding of each cell, the dividers, the two edges
    least = edges
    for i, header in enumerate(headers):
        measure = widest_word if wraps[i] else cell_len
        least += max([widest_word(header), *(measure(row[i]) for row in rows)])
        if least > width:
            return True
    return False


def grid_widths(width: int, headers: Sequence[str], rows: Sequence[Sequence[str]],
                wraps: Sequence[bool]) -> list[int] | None:
    """The columns' widths (their text, without padding) for a grid wider than ``width`` at
    its natural widths that fits once its wrapping columns wrap: the widest columns made
    narrower, a cell at a time, never below their widest word (rich's own share shrinks
    every wrapping column in proportion, and cut a column of long flags with an ellipsis
    while its neighbours had room). ``None`` when the grid fits as it is, or cannot fit
    (``needs_stacking``)."""
    cells = [list(headers), *map(list, rows)]
    lengths = [max(cell_len(line) for row in cells for line in (row[i].split("\n") or [""]))
               for i in range(len(headers))]
    least = [max(map(widest_word, (row[i] for row in cells))) if wraps[i] else lengths[i]
             for i in range(len(headers))]
    room = width - (3 * len(headers) + 1)
    excess = sum(lengths) - room
    if excess <= 0 or sum(least) > room:
        return None
    return _narrowed(lengths, least, excess)


def _narrowed(lengths: Sequence[int], least: Sequence[int], excess: int) -> list[int]:
    """``lengths`` less ``excess`` cells in all, a cell at a time from the widest column that
    is still wider than its ``least`` (the first such on a tie), worked out at once rather
    than a cell at a time (the excess of a long name is its length): every column is brought
    down to a common level (or its least), the lowest level that takes no more than the
    excess, and the cells left are taken from the columns at that level, first come first."""
    def taken(level: int) -> int:
        return sum(max(0, n - max(level, low)) for n, low in zip(lengths, least, strict=True))

    low, high = 0, max(lengths, default=0)  # taken(high) == 0 <= excess
    while low < high:  # the lowest level that takes at most the excess
        middle = (low + high) // 2
        if taken(middle) <= excess:
            high = middle
        else:
            low = middle + 1
    level = low
    widths = [min(n, max(level, least_i)) for n, least_i in zip(lengths, least, strict=True)]
    left = excess - taken(level)
    for i, width in enumerate(widths):
        if left <= 0:
            break
        if width == level and width > least[i]:
            widths[i] -= 1
            left -= 1
    return widths


def breakable(text: str) -> str:
    """``text`` with a space after each ``=`` and ``,`` inside a word, so that a header
    naming what a player typed (``action=sustained-fire``, ``with=ash,able``) can wrap
    there rather than be cut."""
    return re.sub(r"([=,])(?=\S)", r"\1 ", text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words; a word wider than
    ``width`` folded across lines; its own line breaks kept. Linear in the text: each word
    is measured once and a word too wide is folded in one pass (a name of a megabyte prints
    at once)."""
    width = max(width, 1)
    out: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in paragraph.split():
            size = cell_len(word)
            if size > width:  # fold: nothing else can show it
                if line:
                    out.append(line)
                pieces = fold(word, width)
                out.extend(pieces[:-1])
                word = pieces[-1]
                size = cell_len(word)
                line, used = "", 0
            if not line:
                line, used = word, size
            elif used + 1 + size <= width:
                line += " " + word
                used += 1 + size
            else:
                out.append(line)
                line, used = word, size
        out.append(line)
    return out


def fold(word: str, width: int) -> list[str]:
    """``word`` cut into pieces of at most ``width`` cells (at least one character each), in
    one pass over it."""
    width = max(width, 1)
    if word.isascii() and word.isprintable():  # one cell a character
        return [word[i:i + width] for i in range(0, len(word), width)] or [word]
    pieces: list[str] = []
    start = cells = 0
    for i, char in enumerate(word):
        size = cell_len(char)
        if cells + size > width and i > start:
            pieces.append(word[start:i])
            start, cells = i, 0
        cells += size
    pieces.append(word[start:])
    return pieces


def hanging(line: str, width: int) -> list[str]:
    """A line of text too wide for ``width``: broken between words (the spaces inside each
    piece kept as they are), each line after the first indented two cells more than the
    first, so that an indented line of the odds stays under its own indent rather than run
    back to the edge; a line that fits is left as it is."""
    if cell_len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    if indent + INDENT >= width // 2:
        return [line]  # no room for an indent: the terminal wraps it
    out: list[str] = []
    current = " " * indent
    gap = ""
    for token in re.split(r"( +)", line[indent:]):
        if not token:
            continue
        if token.startswith(" "):
            gap = token
            continue
        if current.strip() and cell_len(current) + len(gap) + cell_len(token) > width:
            out.append(current)
            current = " " * (indent + INDENT) + token
        else:
            current += (gap if current.strip() else "") + token
        gap = ""
    out.append(current)
    return out


def lines(width: int, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]],
          rule: str = "-") -> list[list[Part]]:
    """The stacked table: its title, then each row as a block between rules."""
    label = min(max((cell_len(h) for h in headers), default=0), max(width // 3, 1))
    room = width - label - GAP
    out: list[list[Part]] = []
    if title:
        out.extend([Part(line)] for line in wrap(title, width))
    line_rule = [Part(rule * width, "rule")]
    for n, row in enumerate(rows):
        out.append(line_rule)
        for header, cell in zip(headers, row, strict=True):
            out.extend(_field(header, cell, label, room, width, n))
    if rows:
        out.append(line_rule)
    return out


def _field(header: str, cell: str, label: int, room: int, width: int,
           row: int) -> list[list[Part]]:
    """One column of a row: the header and its value beside it, or the value below it when
    the header or the value's widest word does not fit beside the other."""
    cell = cell if cell.strip() else "-"  # (an empty cell reads as "none", as in a grid)
    if cell_len(header) <= label and widest_word(cell) <= room and room > 0:
        values = wrap(cell, room)
        pad = " " * (label - cell_len(header) + GAP)
        first = [Part(header, "header"), Part((pad + values[0]).rstrip(), row=row)]
        return [first, *([Part(" " * (label + GAP) + v, row=row)] for v in values[1:])]
    head = [[Part(line, "header")] for line in wrap(header, width)]
    return head + [[Part(" " * INDENT + v, row=row)] for v in wrap(cell, width - INDENT)]
