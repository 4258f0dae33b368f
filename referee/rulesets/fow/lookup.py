"""Flames of War lookups: ``allocation-rules``, the order in which the referee applies the
allocation constraints (read from ``rulesets/flames-of-war/allocation-rules.toml``)."""

from __future__ import annotations

from collections.abc import Sequence

from referee import data
from referee.core.errors import UnknownIdError, UsageError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.rulesets.base import LookupTable

RULESET_ID = "flames-of-war"


def lookup_tables() -> tuple[LookupTable, ...]:
    return (LookupTable("allocation-rules", Msg.of("fow.lookup.rules.title"),
                        Msg.of("fow.lookup.rules.key")),)


def allocation_rules(key: str | None) -> Table:
    steps = data.load(RULESET_ID, "allocation-rules")["step"]
    columns = tuple(Msg.of(f"fow.col.{c}") for c in ("order", "clause", "kind", "applies"))
    rows = tuple((s["order"], s["clause"],
                  Shown(s["kind"], Msg.of(f"fow.lookup.kind.{s['kind']}")),
                  Shown(s["id"], Msg.of(f"fow.lookup.step.{s['id']}"))) for s in steps)
    if key is None:
        return Table(Msg.of("fow.lookup.rules.title"), columns, rows)
    wanted = key.strip().upper()
    picked = tuple(r for r in rows if r[1] == wanted)
    if not picked:
        raise UsageError(Msg.of("fow.error.lookup_clause", given=key,
                                known=", ".join(dict.fromkeys(s["clause"] for s in steps))))
    return Table(Msg.of("fow.lookup.rules.title"), columns, picked)


def lookup(table: str, key: str | None, args: Sequence[str]) -> Table:
    if table != "allocation-rules":
        raise UnknownIdError("table", table, [t.id for t in lookup_tables()])
    if args:
        raise UsageError(Msg.of("error.stray_args", args=" ".join(args)))
    return allocation_rules(key)
