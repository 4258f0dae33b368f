"""A table of the working (shots, hits, allocation...) or of a rule lookup, as data."""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.core.text import Msg, jsonable


class Table(NamedTuple):
    title: Msg
    columns: tuple[Msg, ...]
    rows: tuple[tuple[Any, ...], ...]
    clause: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"title": jsonable(self.title), "clause": self.clause,
                "columns": jsonable(self.columns), "rows": jsonable(self.rows)}

