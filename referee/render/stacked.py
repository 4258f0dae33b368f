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
    widths = list(lengths)
    while excess > 0:
        i = max((i for i in range(len(widths)) if widths[i] > least[i]),
                key=lambda i: widths[i])
        widths[i] -= 1
        excess -= 1
    return widths


def breakable(text: str) -> str:
    """``text`` with a space after each ``=`` and ``,`` inside a word, so that a header
    naming what a player typed (``action=sustained-fire``, ``with=ash,able``) can wrap
    there rather than be cut."""
    return re.sub(r"([=,])(?=\S)", r"\1 ", text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words; a word wider than
    ``width`` folded across lines; its own line breaks kept."""
    width = max(width, 1)
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while cell_len(word) > width:  # fold: nothing else can show it
                if line:
                    out.append(line)
                    line = ""
                cut = _fit(word, width)
                out.append(word[:cut])
                word = word[cut:]
            if not line:
                line = word
            elif cell_len(line) + 1 + cell_len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


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


def _fit(word: str, width: int) -> int:
    """How many characters of ``word`` fit in ``width`` cells (at least one)."""
    cells = 0
    for i, char in enumerate(word):
        cells += cell_len(char)
        if cells > width:
            return max(i, 1)
    return len(word)


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
