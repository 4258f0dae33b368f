"""What-if (``referee odds --vs``): the odds of two variants of an attack side by side (a
different action, another piece in the fire group, another option), one table per roll they
share."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, RollOdds
from referee.render.odds import number, pct

MOST_THRESHOLDS = 8  # "k or more" rows per roll, around the likeliest results


def _thresholds(a: RollOdds, b: RollOdds) -> list[int]:
    low = max(1, min(a.report.dist.low, b.report.dist.low))
    high = max(a.report.dist.high, b.report.dist.high)
    ks = list(range(low, high + 1))
    if len(ks) <= MOST_THRESHOLDS:
        return ks

    def mass(k: int) -> Fraction:  # keep the thresholds where either variant is undecided
        return min(a.report.dist.at_least(k), 1 - a.report.dist.at_least(k)) + \
            min(b.report.dist.at_least(k), 1 - b.report.dist.at_least(k))

    best = max(range(len(ks) - MOST_THRESHOLDS + 1),
               key=lambda i: sum(mass(k) for k in ks[i:i + MOST_THRESHOLDS]))
    return ks[best:best + MOST_THRESHOLDS]


def _cell(value: Fraction | None, kind: Kind, exact: bool) -> Shown:
    """A variant's value (``None``: the variant has no such roll or end state), shown as a
    percentage or a number, marked ``≈`` when it is an estimate."""
    if value is None:
        return Shown(None, "-")
    shown = pct(value) if kind is Kind.CHANCE else number(value)
    return Shown(value, shown if exact else "≈" + shown)


def _diff(a: Fraction | None, b: Fraction | None, kind: Kind, exact: bool = True) -> Shown:
    """B minus A (shown in percentage points for a chance); marked ``≈`` when either side
    is an estimate."""
    if a is None or b is None:
        return Shown(None, "-")
    d = float(b - a)
    shown = f"{d * 100:+.1f}" if kind is Kind.CHANCE else f"{d:+.2f}"
    return Shown(b - a, shown if exact else "≈" + shown)


def _exact(*values: Dist | EndState | None) -> bool:
    return all(v is None or v.exact for v in values)


def _keyed(states: Sequence[EndState]) -> dict[tuple[Msg, int], EndState]:
    """End states by label and occurrence: two units of one name each keep their own row (the
    n-th of a label in A beside the n-th in B)."""
    seen: dict[Msg, int] = {}
    out = {}
    for state in states:
        n = seen.get(state.label, 0)
        seen[state.label] = n + 1
        out[(state.label, n)] = state
    return out


def notes(ra: RollOdds | None, rb: RollOdds | None) -> list[Msg]:
    """What the odds of the two variants assume, each note once, marked with its variant
    when only one variant makes it."""
    a = list(ra.report.notes) if ra else []
    b = list(rb.report.notes) if rb else []
    out = [n if n in b else Msg.of("odds.whatif.note_a", note=n) for n in a]
    out += [Msg.of("odds.whatif.note_b", note=n) for n in b if n not in a]
    return out


def pairs(a: Sequence[RollOdds], b: Sequence[RollOdds]
          ) -> list[tuple[RollOdds | None, RollOdds | None]]:
    """The rolls of the two variants side by side: the same question id first; a roll of A
    with no such question in B goes beside B's next unmatched roll (another unit saving
    first, another piece firing); what is left stands alone."""
    by_id = {r.question: r for r in b}
    a_ids = {r.question for r in a}
    rest = [r for r in b if r.question not in a_ids]
    out: list[tuple[RollOdds | None, RollOdds | None]] = []
    for ra in a:
        if ra.question in by_id:
            out.append((ra, by_id[ra.question]))
        else:
            out.append((ra, rest.pop(0) if rest else None))
    out += [(None, rb) for rb in rest]
    return out


def _title(ra: RollOdds | None, rb: RollOdds | None) -> Msg:
    if ra is None or rb is None:
        only = ra or rb
        assert only is not None
        return Msg.of("odds.whatif.title_only_a" if rb is None else "odds.whatif.title_only_b",
                      title=only.report.title)
    if ra.report.title == rb.report.title:
        return Msg.of("odds.whatif.title", title=ra.report.title)
    return Msg.of("odds.whatif.title_two", a=ra.report.title, b=rb.report.title)


def compare(a: Sequence[RollOdds], b: Sequence[RollOdds], label_a: Msg,
            label_b: Msg) -> list[Table]:
    """One table per roll (see ``pairs``): the mean, the chance of k or more, and every end
    state, for both variants and B minus A (in percentage points for chances); "-" where a
    variant has no such roll or end state. Each cell has its value (the row: ``{"row":
    "at_least", "k": 3}``; a variant's: the exact number, or ``None``) and its text."""
    tables = []
    for ra, rb in pairs(a, b):
        either = ra or rb
        assert either is not None
        unit = either.report.unit
        rows: list[tuple[Shown, Shown, Shown, Shown]] = []
        # the same roll may count different things in the two variants (Epic: the 6s of a
        # 7+ roll against the hits of a direct roll): then only the end states compare
        same = ra is None or rb is None or ra.report.unit == rb.report.unit
        da = ra.report.dist if ra else None
        db = rb.report.dist if rb else None
        if same:
            ma, mb = (da.mean() if da else None), (db.mean() if db else None)
            rows.append((Shown({"row": "mean"}, Msg.of("odds.whatif.mean", unit=unit)),
                         _cell(ma, Kind.EXPECTED, da.exact if da else True),
                         _cell(mb, Kind.EXPECTED, db.exact if db else True),
                         _diff(ma, mb, Kind.EXPECTED, _exact(da, db))))
        if same and not either.report.labels:
            for k in _thresholds(ra or either, rb or either):
                pa = da.at_least(k) if da else None
                pb = db.at_least(k) if db else None
                rows.append((Shown({"row": "at_least", "k": k},
                                   Msg.of("odds.whatif.at_least", k=k, unit=unit)),
                             _cell(pa, Kind.CHANCE, da.exact if da else True),
                             _cell(pb, Kind.CHANCE, db.exact if db else True),
                             _diff(pa, pb, Kind.CHANCE, _exact(da, db))))
        ends_a = _keyed(ra.report.end_states) if ra else {}
        ends_b = _keyed(rb.report.end_states) if rb else {}
        keys = list(ends_a) + [key for key in ends_b if key not in ends_a]
        for key in keys:
            ea, eb = ends_a.get(key), ends_b.get(key)
            kind = (ea or eb).kind  # type: ignore[union-attr]
            va = ea.value if ea else None
            vb = eb.value if eb else None
            what = {"row": "end_state", "kind": kind.value, "label": key[0]}
            rows.append((Shown(what, key[0]), _cell(va, kind, ea.exact if ea else True),
                         _cell(vb, kind, eb.exact if eb else True),
                         _diff(va, vb, kind, _exact(ea, eb))))
        tables.append(Table(_title(ra, rb), (Msg.of("odds.whatif.col.what"), label_a, label_b,
                                             Msg.of("odds.whatif.col.diff")), tuple(rows),
                            either.clause))
    return tables
