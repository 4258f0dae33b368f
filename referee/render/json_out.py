"""JSON output (``--json``): result values with every message rendered to text."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from referee.catalog import render
from referee.core.table import Table
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.result import Result


def _plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, dict):
        if set(value) == {"msg", "params"}:
            return value  # already a jsonable Msg: left as structured data
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def table_json(table: Table) -> dict[str, Any]:
    return {"title": render(table.title), "clause": table.clause,
            "columns": [render(c) for c in table.columns],
            "rows": [[cell_text(c) for c in row] for row in table.rows]}


def cell_text(cell: Any) -> Any:
    if isinstance(cell, tuple):
        return ", ".join(render(c) for c in cell)
    if isinstance(cell, Msg):
        return render(cell)
    return cell


def result_json(result: Result, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"ruleset": result.ruleset}
    out.update(extra or {})
    out["options"] = dict(result.options)
    out["non_default_options"] = list(result.non_default_options)
    out["steps"] = [{"kind": s.kind.value, "clause": s.clause, "msg": s.text.id,
                     "text": render(s.text), "data": _plain(dict(s.data))} for s in result.steps]
    out["tables"] = [table_json(t) for t in result.tables]
    out["outcome"] = {"msg": result.outcome.id, "text": render(result.outcome),
                      "data": _plain(dict(result.outcome_data))}
    return out


# json.dumps escapes the C0 controls; these it writes raw: DEL, the C1 controls, the
# bidirectional overrides and isolates. They can only occur inside strings.
_RAW = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def dumps(data: Any) -> str:
    """JSON of ``data``: every string exact once parsed, and no control character raw in the
    text (a JSON escape instead), so that printing it to a terminal is safe too."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False)
    return _RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
