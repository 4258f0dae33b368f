"""What-if: the odds of two variants of an attack side by side (a different action, another
piece in the fire group, another option), one table per roll they share."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from referee.core.table import Table
from referee.core.text import Msg
from referee.odds.report import Kind, OddsRecord

MOST_THRESHOLDS = 8  # "k or more" rows per roll, around the likeliest results


def _thresholds(a: OddsRecord, b: OddsRecord) -> list[int]:
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


def _cell(value: Fraction | None, kind: Kind, exact: bool) -> str:
    from referee.render.odds import number, pct

    if value is None:
        return "-"
    shown = pct(value) if kind is Kind.CHANCE else number(value)
    return shown if exact else "≈" + shown


def _diff(a: Fraction | None, b: Fraction | None, kind: Kind) -> str:
    if a is None or b is None:
        return "-"
    d = float(b - a)
    return f"{d * 100:+.1f}" if kind is Kind.CHANCE else f"{d:+.2f}"


def compare(a: Sequence[OddsRecord], b: Sequence[OddsRecord], label_a: Msg,
            label_b: Msg) -> list[Table]:
    """One table per roll of ``a`` (matched in ``b`` by question id): the mean, the chance
    of k or more, and every end state, for both variants and B minus A (in percentage points
    for chances)."""
    by_id = {r.question: r for r in b}
    tables = []
    for ra in a:
        rb = by_id.get(ra.question)
        if rb is None:
            continue
        unit = ra.report.unit
        rows: list[tuple[Msg | str, str, str, str]] = []
        # the same roll may count different things in the two variants (Epic: the 6s of a
        # 7+ roll against the hits of a direct roll): then only the end states compare
        same = ra.report.unit == rb.report.unit
        ma, mb = ra.report.dist.mean(), rb.report.dist.mean()
        if same:
            rows.append((Msg.of("odds.whatif.mean", unit=unit),
                         _cell(ma, Kind.EXPECTED, ra.report.dist.exact),
                         _cell(mb, Kind.EXPECTED, rb.report.dist.exact),
                         _diff(ma, mb, Kind.EXPECTED)))
        if same and not ra.report.labels:
            for k in _thresholds(ra, rb):
                pa, pb = ra.report.dist.at_least(k), rb.report.dist.at_least(k)
                rows.append((Msg.of("odds.whatif.at_least", k=k, unit=unit),
                             _cell(pa, Kind.CHANCE, ra.report.dist.exact),
                             _cell(pb, Kind.CHANCE, rb.report.dist.exact),
                             _diff(pa, pb, Kind.CHANCE)))
        ends_b = {e.label: e for e in rb.report.end_states}
        labels = [e.label for e in ra.report.end_states]
        labels += [e.label for e in rb.report.end_states if e.label not in labels]
        ends_a = {e.label: e for e in ra.report.end_states}
        for label in labels:
            ea, eb = ends_a.get(label), ends_b.get(label)
            kind = (ea or eb).kind  # type: ignore[union-attr]
            va = ea.value if ea else None
            vb = eb.value if eb else None
            rows.append((label, _cell(va, kind, ea.exact if ea else True),
                         _cell(vb, kind, eb.exact if eb else True), _diff(va, vb, kind)))
        title = (Msg.of("odds.whatif.title", title=ra.report.title)
                 if ra.report.title == rb.report.title else
                 Msg.of("odds.whatif.title_two", a=ra.report.title, b=rb.report.title))
        tables.append(Table(title, (Msg.of("odds.whatif.col.what"), label_a, label_b,
                                    Msg.of("odds.whatif.col.diff")), tuple(rows), ra.clause))
    return tables
