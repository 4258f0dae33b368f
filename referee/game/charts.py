"""``game charts``: the answers the players read off their own charts, kept for the game
(``referee.core.charts``), listed, corrected, exported to a chart file and imported from one.

The charts live in each ruleset's state (``charts``), so the log's chain covers them: a
change is an entry of the game (command ``game charts``), numbered, logged with what it
changed, undone like an attack, and replayed by ``game verify``; a chart edited in the file
outside the referee is found as any edited state is. Every answer is checked against what its
chart may answer (an HE hit's effects, a Damage Check's results, a number of VP).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.core.charts import STATE_KEY, ChartKey, Kept, as_state, kept_charts
from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg, jsonable

# the ruleset of a chart, by the start of its id
RULESETS = {"waw": "world-at-war", "lnlt": "lnl-tactical", "cc": "combat-commander"}
COMMAND = "game-charts"


@dataclass(frozen=True)
class ChartRow:
    """One kept answer as ``game charts`` lists it: its number in the list, its ruleset."""

    number: int
    ruleset: str
    key: ChartKey
    answer: Any
    at: int | None


@dataclass(frozen=True)
class Change:
    """An answer set, changed or removed (``after`` ``None``) by ``game charts``."""

    ruleset: str
    key: ChartKey
    before: Any
    after: Any


def ruleset_of(chart: str) -> str:
    ruleset = RULESETS.get(chart.split(".", 1)[0])
    if ruleset is None:
        raise UsageError(Msg.of("kept.chart.error.unknown_chart", chart=chart,
                                known=", ".join(sorted(CHARTS))))
    return ruleset


CHARTS = ("cc.vp", "lnlt.dct", "waw.chemical-outcome", "waw.he-effect")


def legal(key: ChartKey) -> tuple[str, ...] | range:
    """What the chart ``key`` reads may answer."""
    if key.chart in ("waw.he-effect", "waw.chemical-outcome"):
        from referee.rulesets.waw.tables import EFFECTS

        if key.chart == "waw.he-effect" and key.column != "first":
            return tuple(e for e in EFFECTS if e != "weaken")
        return EFFECTS
    if key.chart == "lnlt.dct":
        from referee.rulesets.lnlt.tables import tables

        t = tables()
        return t.vehicle_results if key.row.startswith("vehicle/") else t.leg_results
    if key.chart == "cc.vp":
        return range(0, 21)
    raise UsageError(Msg.of("kept.chart.error.unknown_chart", chart=key.chart,
                            known=", ".join(CHARTS)))


def checked(key: ChartKey, answer: Any) -> Any:
    """``answer`` as the chart ``key`` keeps it (a number for VP), or a ``UsageError``
    naming what it may answer."""
    values = legal(key)
    if isinstance(values, range):
        text = str(answer).strip()
        if text.isascii() and text.isdigit() and int(text) in values:
            return int(text)
        shown = f"{values.start}-{values.stop - 1}"
    else:
        for value in values:
            if str(answer).strip().casefold() == value.casefold():
                return value
        shown = ", ".join(values)
    raise UsageError(Msg.of("kept.chart.error.answer", answer=str(answer), chart=key.text(),
                            legal=shown))


def answer_text(key: ChartKey, answer: Any) -> Msg | str:
    """An answer as a player reads it (an effect's, a result's name; a number)."""
    if key.chart in ("waw.he-effect", "waw.chemical-outcome"):
        return Msg.of(f"waw.effect.{answer}")
    if key.chart == "lnlt.dct":
        return Msg.of(f"lnlt.result.{answer}")
    return str(answer)


def describe(key: ChartKey) -> Msg:
    """What a chart reads, as a player reads it."""
    if key.chart == "waw.he-effect":
        return Msg.of("kept.chart.what.waw_he", cell=Msg.of(
            f"waw.cell.{key.column.replace('-', '_')}"))
    if key.chart == "waw.chemical-outcome":
        return Msg.of("kept.chart.what.waw_chemical", kind=Msg.of(f"waw.kind.{key.row}"))
    if key.chart == "lnlt.dct":
        kind, _, value = key.row.partition("/")
        which = "vehicle" if kind == "vehicle" else "leg"
        return Msg.of(f"kept.chart.what.lnlt_dct_{which}", kind=Msg.of(f"lnlt.kind.{kind}"),
                      value=value, total=key.column)
    nation, _, unit = key.row.partition("/")
    return Msg.of("kept.chart.what.cc_vp", unit=unit, nation=Msg.of(f"cc.nation.{nation}"))


def _rows(states: Mapping[str, Mapping[str, Any]]) -> list[ChartRow]:
    rows: list[ChartRow] = []
    for ruleset in sorted(states):
        for key, kept in sorted(kept_charts(states[ruleset]).items()):
            rows.append(ChartRow(len(rows) + 1, ruleset, key, kept.answer, kept.at))
    return rows


def read_charts(path: Path) -> list[ChartRow]:
    """Every answer the game file ``path`` keeps, in order (its log checked first)."""
    from referee.game import read_game
    from referee.game.history import check_history

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with read_game(path) as tx:
        check_history(tx)
        return _rows(tx.all_state())


def _state_model(ruleset: str) -> Any:
    from referee.rulesets import find_ruleset

    return find_ruleset(ruleset).implementation().state_model()


def change(path: Path, *, set_: Mapping[int, str] | None = None, remove: Sequence[int] = (),
           add: Sequence[tuple[ChartKey, Any]] = ()) -> list[Change]:
    """Set answers (by their number in the list), remove them, add new ones (an imported
    chart file): each ruleset touched gets one entry in the log, which keeps what changed.
    Returns the changes (none: nothing was written)."""
    from referee.game.history import changing

    with changing(path) as (tx, _history):
        set_ = dict(set_ or {})
        rows = _rows(tx.all_state())
        by_number = {r.number: r for r in rows}
        for number in [*set_, *remove]:
            if number not in by_number:
                raise UsageError(Msg.of("kept.chart.error.number", number=number,
                                        count=len(rows)))
        changes: list[Change] = []
        kept: dict[str, dict[ChartKey, Kept]] = {}

        def charts_of(ruleset: str) -> dict[ChartKey, Kept]:
            if ruleset not in kept:
                kept[ruleset] = kept_charts(tx.state(ruleset, _state_model(ruleset)))
            return kept[ruleset]

        for number, raw in set_.items():
            row = by_number[number]
            answer = checked(row.key, raw)
            if answer != row.answer:
                charts_of(row.ruleset)[row.key] = Kept(answer, None)
                changes.append(Change(row.ruleset, row.key, row.answer, answer))
        for number in remove:
            row = by_number[number]
            if row.key in charts_of(row.ruleset):
                del charts_of(row.ruleset)[row.key]
                changes.append(Change(row.ruleset, row.key, row.answer, None))
        for key, raw in add:
            ruleset = ruleset_of(key.chart)
            answer = checked(key, raw)
            before = charts_of(ruleset).get(key)
            if before is None or before.answer != answer:
                charts_of(ruleset)[key] = Kept(answer, None)
                changes.append(Change(ruleset, key, before.answer if before else None,
                                      answer))
        for ruleset in sorted({c.ruleset for c in changes}):
            mine = [c for c in changes if c.ruleset == ruleset]
            at = tx.next_number()  # the entry that sets them
            for c in mine:
                if c.after is not None:
                    kept[ruleset][c.key] = Kept(c.after, at)
            tx.update_state(ruleset, {STATE_KEY: as_state(kept[ruleset])})
            text = Msg.of("kept.chart.entry", count=len(mine))
            outcome = change_text(mine[0]) if len(mine) == 1 else text
            tx.append_log(ruleset, COMMAND,
                          {"outcome": {"text": jsonable(outcome),
                                       "data": {"changes": [change_json(c) for c in mine]}}},
                          replay={"kind": "charts", "charts": as_state(kept[ruleset])},
                          about={"title": jsonable(text)})
        return changes


def change_text(c: Change) -> Msg:
    """A change as a player reads it: what the chart reads, the answer before and after."""
    what = describe(c.key)
    if c.after is None:
        return Msg.of("kept.chart.removed", what=what, before=answer_text(c.key, c.before))
    before = answer_text(c.key, c.before) if c.before is not None else "-"
    return Msg.of("kept.chart.changed", what=what, before=before,
                  after=answer_text(c.key, c.after))


def change_json(c: Change) -> dict[str, Any]:
    return {"chart": c.key.chart, "row": c.key.row, "column": c.key.column,
            "before": c.before, "after": c.after}


def read_chart_file(path: Path) -> list[tuple[ChartKey, Any]]:
    """The answers of a chart file (``[[chart]]`` tables: ``chart``, ``row``, ``column``,
    ``answer``), each checked against its chart; a mistake names the file, line and field."""
    from pydantic import BaseModel, ConfigDict, Field

    from referee.core.errors import ScriptError
    from referee.files import read_toml, validate, where
    from referee.rulesets.fields import Name

    class Entry(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

        chart: Name = Field(max_length=60)
        row: str = Field(max_length=200)
        column: str = Field(max_length=60)
        answer: str | int

    class ChartFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

        chart: list[Entry] = Field(default_factory=list, max_length=2000)

    text, raw = read_toml(path)
    found: ChartFile = validate(ChartFile, raw, str(path), text)
    out = []
    for i, entry in enumerate(found.chart):
        key = ChartKey(entry.chart, entry.row, entry.column)
        try:
            ruleset_of(key.chart)
            out.append((key, checked(key, entry.answer)))
        except UsageError as err:
            raise ScriptError(str(path), where(text, ["chart", i, "answer"]), err.msg) from None
    return out


def chart_file(rows: Sequence[ChartRow], file: str) -> str:
    """The answers as a chart file that ``game charts --import`` reads."""
    from referee.catalog import render
    from referee.script import toml_key, toml_value

    lines = [f"# {render(Msg.of('kept.chart.file_header', file=file))}"]
    for row in rows:
        lines.append("")
        lines.append("[[chart]]")
        lines.append(f"# {render(describe(row.key))}")
        for name, value in (("chart", row.key.chart), ("row", row.key.row),
                            ("column", row.key.column), ("answer", row.answer)):
            lines.append(f"{toml_key(name)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def row_json(row: ChartRow) -> dict[str, Any]:
    from referee.catalog import render

    return {"number": row.number, "ruleset": row.ruleset, "chart": row.key.chart,
            "row": row.key.row, "column": row.key.column, "answer": row.answer,
            "answer_text": render(answer_text(row.key, row.answer)),
            "what_text": render(describe(row.key)), "at": row.at}
