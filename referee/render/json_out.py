"""JSON output (``--json``): every document the referee prints, built as plain data by the
contract docs/json.md states (``--json``: the contract): each document carries
``schema_version`` and ``kind``; keys are English ids in every language; numbers are numbers
(an exact value as ``{"fraction": "1/18", "float": 0.055556}``); display text only in fields
named ``text`` or ``*_text``. The JSON Schemas of the documents (``referee/schemas/``) are
generated from pydantic models that only the tests and the generator load: nothing here
imports pydantic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.catalog import render
from referee.core.table import Shown, Table
from referee.core.text import UNSHOWABLE, Msg

if TYPE_CHECKING:
    from referee.core.errors import RefereeError
    from referee.core.result import Fate, Result
    from referee.odds.report import RollOdds

SCHEMA_VERSION = 2
"""The version of every document's shape: raised when a field changes meaning or goes away
(a new field does not raise it). 2 (issue 25): a result's roll gives ``end_states`` only
where it first predicts them (``null`` at the later rolls of the same attack) unless every
roll's are asked for (``--odds full``)."""

FLOAT_DIGITS = 6


def document(kind: str, /, **fields: Any) -> dict[str, Any]:
    """A document of ``kind`` (``lookup``, ``result``, ``error``...): its version and kind
    first, then ``fields``."""
    return {"schema_version": SCHEMA_VERSION, "kind": kind, **fields}


def message(msg: Msg) -> dict[str, Any]:
    """A message: its catalogue id (the same in every language) and its text (the user's)."""
    return {"msg": msg.id, "text": render(msg)}


def exact(number: Fraction | int) -> dict[str, Any]:
    """An exact number (a probability, a mean): as a fraction (``"1/18"``, ``"0"``) and a
    float rounded to six places."""
    number = Fraction(number)
    return {"fraction": str(number), "float": round(float(number), FLOAT_DIGITS)}


def value(item: Any) -> Any:
    """``item`` as JSON data: a message as ``message``, a Fraction as ``exact``, a cell with
    a value of its own as that value, containers item by item."""
    if isinstance(item, Shown):
        return value(item.value)
    if isinstance(item, Msg):
        return message(item)
    if isinstance(item, bool) or item is None or isinstance(item, (int, float, str)):
        return item
    if isinstance(item, Fraction):
        return exact(item)
    if isinstance(item, Mapping):
        return {str(k): value(v) for k, v in item.items()}
    if isinstance(item, (list, tuple)):
        return [value(v) for v in item]
    return str(item)


def cell_text(cell: Any) -> Any:
    """What a table cell shows (the console's text and JSON's ``rows_text``)."""
    if isinstance(cell, Shown):
        return cell_text(cell.text)
    if isinstance(cell, tuple):
        return ", ".join(render(c) for c in cell)
    if isinstance(cell, Msg):
        return render(cell)
    return cell


def table_json(table: Table) -> dict[str, Any]:
    """A table: its title, clause, columns (English key and header text), the rows as
    values by column key, and the rows as shown."""
    keys = table.column_keys()
    if len(set(keys)) != len(keys):
        raise ValueError(f"table {table.title.id} repeats a column key: {keys}")
    return {"title": message(table.title), "clause": table.clause,
            "columns": [{"key": k, "text": render(c)}
                        for k, c in zip(keys, table.columns, strict=True)],
            "rows": [{k: value(c) for k, c in zip(keys, row, strict=True)}
                     for row in table.rows],
            "rows_text": [[str(cell_text(c)) for c in row] for row in table.rows]}


def result_json(result: Result, odds: Sequence[RollOdds] | None = None, *,
                every_end_state: bool = False) -> dict[str, Any]:
    """A result (an attack, an impulse, a phase's summary): the options in force, the step
    log, the tables of the working and the outcome; ``odds`` when the odds were worked out
    (``None``: they were not, as with ``--no-odds``). A roll's end states are given where it
    first predicts them (``odds.report.first_predictions``, as a scripted run's text shows
    them), ``null`` at the later rolls of the same attack, whose prediction is the same one
    updated and is not worked out; ``every_end_state`` (``--odds full``): at every roll."""
    out: dict[str, Any] = {
        "ruleset": result.ruleset,
        "options": value(dict(result.options)),
        "non_default_options": list(result.non_default_options),
        "steps": [{"kind": s.kind.value, "clause": s.clause, **message(s.text),
                   "data": value(dict(s.data))} for s in result.steps],
        "tables": [table_json(t) for t in result.tables],
        "outcome": {**message(result.outcome), "data": value(dict(result.outcome_data))},
        "fates": [fate_json(f) for f in result.fates]}
    if odds is not None:
        from referee.odds.report import first_predictions

        given = [True] * len(odds) if every_end_state else first_predictions(odds)
        out["odds"] = [odds_json(r, end_states=g) for r, g in zip(odds, given, strict=True)]
    return out


def fate_json(fate: Fate) -> dict[str, Any]:
    """What an attack did to one unit (``unit_text`` null: to its formation as a whole): its
    group's and its own name as shown, the effects as messages (none: unharmed)."""
    return {"group_text": render(fate.group),
            "unit_text": None if fate.unit is None else render(fate.unit),
            "effects": [message(e) for e in fate.effects]}


def odds_json(roll: RollOdds, *, end_states: bool = True) -> dict[str, Any]:
    """A dice question's odds: the roll's distribution, the attack's end states, what the
    odds assume, and the roll that followed (``actual``; ``None`` when nothing was rolled).
    Without ``end_states``, a roll that has end states gives ``null`` for them (not worked
    out), and ``exact`` says whether its distribution is exact; a roll without any gives
    ``[]`` either way."""
    report = roll.report
    dist = report.dist
    actual = None
    if roll.actual is not None:
        percentile = roll.percentile
        assert percentile is not None
        actual = {"value": roll.actual, "percentile": exact(percentile),
                  "at_least": exact(dist.at_least(roll.actual)),
                  "at_most": exact(dist.at_most(roll.actual))}
    states: list[dict[str, Any]] | None = None
    if end_states or not report.end_labels:
        states = [{"label": message(e.label), "kind": e.kind.value,
                   "value": exact(e.value), "exact": e.exact, "runs": e.runs,
                   "interval": list(interval) if (interval := e.interval()) else None}
                  for e in report.end_states]
    return {
        "question": roll.question, "clause": roll.clause,
        "title": message(report.title), "unit": message(report.unit),
        "exact": report.exact if states is not None else dist.exact,
        "distribution_exact": dist.exact, "runs": dist.runs,
        "mean": exact(dist.mean()),
        "distribution": [{"value": k,
                          "label": message(report.labels[k]) if k in report.labels else None,
                          "p": exact(p), "at_least": exact(dist.at_least(k))}
                         for k, p in dist.items()],
        "end_states": states,
        "notes": [message(n) for n in report.notes],
        "actual": actual}


def error_json(exit_code: int, msg: Msg, error: RefereeError | None = None,
               hint: Msg | None = None) -> dict[str, Any]:
    """An error under ``--json`` (written to standard error instead of ``error: ...``): the
    exit code, the message (id and text), and for a file the file, line, column and field
    where the referee knows them, with the reason (what the field should hold)."""
    file = getattr(error, "file", None)
    if file is None and isinstance(msg.kwargs.get("file"), str):
        file = msg.kwargs["file"]
    where = getattr(error, "where", None)
    line = column = field = None
    if isinstance(where, Msg):
        line, column, field = (where.kwargs.get("line"), where.kwargs.get("column"),
                               where.kwargs.get("field"))
    elif isinstance(where, str) and where:
        field = where
    expected = getattr(error, "expected", None)
    return document("error", exit_code=int(exit_code), **message(msg),
                    file=None if file is None else str(file), line=line, column=column,
                    field=field, reason=message(expected) if isinstance(expected, Msg) else None,
                    hint=message(hint) if hint is not None else None)


# json.dumps escapes the C0 controls; the other characters that act or show as nothing
# (``core.text.UNSHOWABLE``: DEL, the C1 controls, the bidirectional and zero-width
# characters...) it writes raw. They can only occur inside strings: written as JSON escapes
# (a pair of surrogates beyond the BMP), the text is exact once parsed.
_RAW = re.compile(f"[{UNSHOWABLE}]")


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def dumps(data: Any) -> str:
    """JSON of ``data``: every string exact once parsed, and no control character raw in the
    text (a JSON escape instead), so that printing it to a terminal is safe too."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False)
    return _RAW.sub(_json_escape, text)
