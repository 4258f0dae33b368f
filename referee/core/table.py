"""A table of the working (shots, hits, allocation...) or of a rule lookup, as data."""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.core.text import Msg, jsonable


class Summary(NamedTuple):
    """How a table of one row per item (an allocation's hits) is shown at the table when it
    is long (``render.console.SUMMARY_ROWS``): its rows counted by the value of the column
    ``by`` (``total`` names the count), in a column per value of the column ``split`` (none:
    the count alone). ``--json`` keeps every row."""

    by: int
    total: Msg
    split: int | None = None


class Table(NamedTuple):
    title: Msg
    columns: tuple[Msg, ...]
    rows: tuple[tuple[Any, ...], ...]
    clause: str | None = None
    summary: Summary | None = None

    def to_json(self) -> dict[str, Any]:
        return {"title": jsonable(self.title), "clause": self.clause,
                "columns": jsonable(self.columns), "rows": jsonable(self.rows)}

