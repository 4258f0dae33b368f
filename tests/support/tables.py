"""A result table's rows as values and as the console shows them."""

from __future__ import annotations


def values(row: tuple) -> tuple:
    """A table row's values (a cell with a value of its own, ``Shown``, as that value)."""
    from referee.core.table import Shown

    return tuple(c.value if isinstance(c, Shown) else c for c in row)


def texts(row: tuple) -> tuple[str, ...]:
    """A table row as the console shows it."""
    from referee.render.json_out import cell_text

    return tuple(str(cell_text(c)) for c in row)
