"""Lock 'n Load Tactical lookups: what Ops Complete changes (L-11 to L-14), and when the
operations phase ends (L-2, L-X1). Light: no pydantic, no phase engine."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.errors import UnknownIdError, UsageError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets.base import LookupFlag, LookupTable
from referee.rulesets.lnlt.tables import half_up, tables

OPS_ROWS = ("ifp", "mg", "flamethrower", "oft", "vehicle-mg", "vehicle-gun", "spotted-hex",
            "leader-lm", "other")
FP_ROWS = ("ifp", "mg", "flamethrower", "vehicle-mg")


def lookup_tables() -> tuple[LookupTable, ...]:
    return (
        LookupTable("ops-complete", Msg.of("lnlt.lookup.ops.title"),
                    Msg.of("lnlt.lookup.ops.key", rows=", ".join(OPS_ROWS)),
                    (LookupFlag("fp", Msg.of("lnlt.flag.fp"), value=True),
                     LookupFlag("moved", Msg.of("lnlt.flag.moved")))),
        LookupTable("phase-end", Msg.of("lnlt.lookup.end.title"),
                    Msg.of("lnlt.lookup.end.key")),
    )


def lookup(table: str, key: str | None, args: Sequence[str]) -> Table:
    if table == "ops-complete":
        return ops_complete(key, args)
    if table == "phase-end":
        return phase_end(key, args)
    raise UnknownIdError("table", table, [lt.id for lt in lookup_tables()])


def _ops_columns() -> tuple[Msg, ...]:
    return tuple(Msg.of(f"lnlt.lookup.ops.col.{c}") for c in ("row", "normal", "ops", "clause"))


CLAUSES = {"ifp": "L-12", "mg": "L-13", "flamethrower": "L-13", "oft": "L-13",
           "vehicle-mg": "L-13", "vehicle-gun": "L-13", "spotted-hex": "L-14",
           "leader-lm": "L-14", "other": "L-11"}


def _row(row: str) -> tuple[object, ...]:
    t = tables()
    return (Shown(row, Msg.of(f"lnlt.lookup.ops.row.{row}")),
            Msg.of(f"lnlt.lookup.ops.normal.{row}"),
            Msg.of(f"lnlt.lookup.ops.ops.{row}", ifp=f"{t.ops_mmc_ifp:+d}",
                   drm=f"{t.ops_oft_drm:+d}"), CLAUSES[row])


def _parse_args(args: Sequence[str]) -> tuple[int | None, bool]:
    fp: int | None = None
    moved = False
    words = list(args)
    while words:
        word = words.pop(0)
        if word == "--moved":
            moved = True
        elif word == "--fp" or word.startswith("--fp="):
            value = word.partition("=")[2] if "=" in word else (words.pop(0) if words else "")
            fp = whole_number(value.strip())
            if fp is None or not 0 <= fp <= 20:
                raise UsageError(Msg.of("lnlt.error.fp_value", given=value))
        elif word.startswith("--"):
            raise UnknownIdError("flag", word, ["--fp", "--moved"])
        else:
            raise UsageError(Msg.of("error.stray_args", args=word))
    return fp, moved


def ops_complete(key: str | None, args: Sequence[str]) -> Table:
    fp, moved = _parse_args(args)
    if key is None:
        if fp is not None or moved:
            raise UsageError(Msg.of("lnlt.error.flags_need_row", rows=", ".join(FP_ROWS)))
        return Table(Msg.of("lnlt.lookup.ops.title"), _ops_columns(),
                     tuple(_row(r) for r in OPS_ROWS), "L-11")
    if key not in OPS_ROWS:
        raise UnknownIdError("table", key, list(OPS_ROWS))
    if fp is None:
        if moved:
            raise UsageError(Msg.of("lnlt.error.moved_needs_fp"))
        return Table(Msg.of("lnlt.lookup.ops.title"), _ops_columns(), (_row(key),),
                     CLAUSES[key])
    if key not in FP_ROWS:
        raise UsageError(Msg.of("lnlt.error.fp_rows", rows=", ".join(FP_ROWS)))
    return _fp_row(key, fp, moved)


def _fp_row(key: str, fp: int, moved: bool) -> Table:
    t = tables()
    if key == "ifp":
        value = fp + t.ops_mmc_ifp
        steps = [Msg.of("lnlt.fp.ops_minus", value=f"{t.ops_mmc_ifp:+d}", fp=value)]
    else:
        value = half_up(fp)
        steps = [Msg.of("lnlt.fp.sw_half", fp=value)]
    if moved:
        value += t.moved_target
        steps.append(Msg.of("lnlt.fp.moved_step", value=f"+{t.moved_target}", fp=value))
    columns = tuple(Msg.of(f"lnlt.lookup.ops.col.{c}") for c in ("row", "fp", "steps",
                                                                  "result"))
    return Table(Msg.of("lnlt.lookup.ops.fp_title", row=Msg.of(f"lnlt.lookup.ops.row.{key}"),
                        fp=fp, result=value),
                 columns, ((Shown(key, Msg.of(f"lnlt.lookup.ops.row.{key}")), fp, tuple(steps),
                            value),),
                 CLAUSES[key])


def phase_end(key: str | None, args: Sequence[str]) -> Table:
    if args:
        raise UsageError(Msg.of("error.flags_not_taken", table="phase-end"))
    columns = tuple(Msg.of(f"lnlt.lookup.end.col.{c}") for c in ("when", "then", "clause"))
    need = tables().consecutive_passes
    if key is None:
        rows = tuple((Shown(r, Msg.of(f"lnlt.lookup.end.row.{r}.when", need=need)),
                      Msg.of(f"lnlt.lookup.end.row.{r}.then", need=need), clause)
                     for r, clause in (("all-used", "L-2"), ("passes", "L-2"),
                                       ("reset", "L-X1"), ("alternate", "L-1")))
        return Table(Msg.of("lnlt.lookup.end.title"), columns, rows, "L-2")
    passes = whole_number(key.strip())
    if passes is None or not 0 <= passes <= 99:
        raise UsageError(Msg.of("lnlt.error.passes_key", given=key))
    ends = passes >= need
    row = (Shown(passes, Msg.of("lnlt.lookup.end.passes_when", passes=passes)),
           Shown(ends, Msg.of("lnlt.lookup.end.ends" if ends else "lnlt.lookup.end.goes_on",
                              left=need - passes)), "L-2")
    return Table(Msg.of("lnlt.lookup.end.title"), columns, (row,), "L-2")
