"""Odds as text: a compact bar chart of a roll's distribution, the attack's end states, and
the percentile of the roll that was made. Plain lines, the same on a terminal, in a transcript
and in a file (block characters; no colour needed to read them)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction

from referee.catalog import render
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport, RollOdds, first_predictions

BAR = 20  # width of the longest bar, in characters
ROWS = 11  # most outcomes shown one by one; the rest are grouped in two tail rows
_EIGHTHS = " ▏▎▍▌▋▊▉"


def pct(p: Fraction | float) -> str:
    """A chance as a percentage: ``37.5%``; below 0.1 % but possible: ``<0.1%``; exactly
    impossible or certain: ``0%``, ``100%``."""
    value = float(p) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100:
        return ">99.9%"
    if value in (0, 100):  # exactly impossible or certain: no decimals, unlike 0.04% or 99.96%
        return f"{value:.0f}%"
    return f"{value:.1f}%"


def number(x: Fraction | float) -> str:
    return f"{float(x):.2f}"


def bar(p: Fraction, biggest: Fraction) -> str:
    eighths = round(float(p / biggest) * BAR * 8) if biggest else 0
    if p and eighths == 0:
        eighths = 1  # a possible outcome always shows a sliver
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(BAR)


TINY = Fraction(1, 2000)  # rows under 0.05% at the ends of the chart join the tail rows


def window(dist: Dist) -> tuple[int, int]:
    """The ``ROWS`` consecutive outcomes holding the most probability, without end rows too
    small to show (they are grouped into the tails)."""
    values = dist.outcomes()
    if len(values) <= ROWS:
        return values[0], values[-1]
    # which rows to show is a display choice: floats suffice (the rows stay exact)
    p = dist.floats()
    mass = sum(p[:ROWS])
    best, start = mass, 0
    for i in range(1, len(values) - ROWS + 1):
        mass += p[i + ROWS - 1] - p[i - 1]
        if mass > best:
            best, start = mass, i
    shown = list(values[start:start + ROWS])
    while len(shown) > 1 and dist[shown[-1]] < TINY:
        shown.pop()
    while len(shown) > 1 and dist[shown[0]] < TINY:
        shown.pop(0)
    return shown[0], shown[-1]


def chart_rows(report: OddsReport) -> list[tuple[str, Fraction, Fraction]]:
    """(outcome shown, its chance, chance of it or more), tails grouped."""
    dist = report.dist
    if report.labels:
        return [(render(report.labels.get(k, Msg.of("odds.value", value=k))), p,
                 dist.at_least(k)) for k, p in dist.items()]
    low, high = window(dist)
    rows: list[tuple[str, Fraction, Fraction]] = []
    # a tail holding a single outcome is shown as that outcome ("0", not "≤0")
    if dist.low < low:
        rows.append((f"≤{low - 1}" if dist.low < low - 1 else str(dist.low),
                     dist.at_most(low - 1), Fraction(1)))
    # outcomes the roll cannot make (a product of two dice of 7) get no row
    rows += [(str(k), dist[k], dist.at_least(k)) for k in range(low, high + 1) if dist[k]]
    if dist.high > high:
        rows.append((f"≥{high + 1}" if dist.high > high + 1 else str(dist.high),
                     dist.at_least(high + 1), dist.at_least(high + 1)))
    return rows


def approx_text(runs: int | None) -> str:
    return "" if runs is None else " " + render(Msg.of("odds.approx", runs=runs))


def end_state_text(state: EndState) -> str:
    value = pct(state.value) if state.kind is Kind.CHANCE else number(state.value)
    interval = state.interval()
    if interval is not None:
        low, high = interval
        shown = (f"{pct(low)}–{pct(high)}" if state.kind is Kind.CHANCE
                 else f"{number(low)}–{number(high)}")
        value = "≈" + value + " " + render(Msg.of("odds.interval", interval=shown))
    return f"    {render(state.label)}: {value}"


def end_state_lines(report: OddsReport) -> list[str]:
    """The end states under their heading (worked out here where they are lazy), or the
    line saying that working them out failed."""
    lines = []
    if report.end_states:
        lines.append("  " + render(Msg.of("odds.end_states")))
        lines += [end_state_text(e) for e in report.end_states]
    failed = getattr(report.end_states, "failed", None)
    if failed:
        lines.append("  " + render(Msg.of("odds.end_states_unavailable", reason=failed)))
    return lines


def report_lines(report: OddsReport, clause: str | None = None) -> list[str]:
    """The odds shown before a roll."""
    head = render(Msg.of("odds.header", title=report.title))
    if clause:
        head += f" [{clause}]"
    lines = [head + approx_text(report.dist.runs)]
    rows = chart_rows(report)
    biggest = max(p for _, p, _ in rows)
    width = max(len(r[0]) for r in rows)
    left = (render(report.unit) if report.labels else
            render(Msg.of("odds.mean", mean=number(report.dist.mean()), unit=report.unit)))
    columns = render(Msg.of("odds.col.chance")).rjust(6)
    if not report.labels:
        columns += "  " + render(Msg.of("odds.col.at_least"))
    lines.append("  " + left.ljust(2 + width + 2 + BAR) + "  " + columns)
    for shown, p, ge in rows:
        tail = "" if report.labels else f"  {pct(ge).rjust(6)}"
        lines.append(f"    {shown.rjust(width)}  {bar(p, biggest)}  {pct(p).rjust(6)}{tail}"
                     .rstrip())
    lines += end_state_lines(report)
    lines += ["  " + render(n) for n in report.notes]
    return lines


WHATIF_WIDTH = 78  # what-if lines fold to fit an 80-column terminal
BRIEF_STATES = 3  # end states shown before a roll at the table, unless --odds full


def brief_lines(report: OddsReport, clause: str | None = None) -> list[str]:
    """The odds shown before a roll at the table, compact: the title, the chart in a line
    with its mean, and at most three lines of end states (``--odds full``: all of them, and
    the whole chart, as ``report_lines``)."""
    head = render(Msg.of("odds.header", title=report.title))
    if clause:
        head += f" [{clause}]"
    lines = [head + approx_text(report.dist.runs)]
    rows = chart_rows(report)
    spark = sparkline(rows)
    if report.labels:
        lines.append("  " + "  ".join(f"{shown} {pct(p)}" for shown, p, _ in rows))
    else:
        lines.append(f"  {rows[0][0]}..{rows[-1][0]} {spark}  " + render(Msg.of(
            "odds.mean", mean=number(report.dist.mean()), unit=report.unit)))
    states = end_state_lines(report)
    if len(states) > 1 + BRIEF_STATES:  # the heading, then the states
        more = len(states) - 1 - (BRIEF_STATES - 1)
        states = [*states[:BRIEF_STATES], "    " + render(Msg.of("odds.more_states", n=more))]
    return lines + states


def whatif_lines(rows: Sequence[tuple[str, Sequence[EndState]]], most: int) -> list[str]:
    """Each option of a choice with its end states on one line, before the choice: the
    ``most`` states the options change most (by how far apart their values are), the same
    states for every option."""
    values: dict[Msg, list[float]] = {}
    kinds: dict[Msg, EndState] = {}
    for _, states in rows:
        for state in states:
            values.setdefault(state.label, []).append(float(state.value))
            kinds.setdefault(state.label, state)
    spread = {label: max(v) - min(v) for label, v in values.items() if len(v) == len(rows)}
    # the states the options change, most first (a choice that changes none says nothing)
    chosen = sorted((label for label in spread if spread[label] > 0),
                    key=lambda label: -spread[label])[:most]
    if not chosen:
        return []
    # the states' common subject ("Green Platoon: ...") is said once, in the heading
    texts = {label: render(label) for label in chosen}
    subject = _common_subject(list(texts.values()))
    heading = render(Msg.of("odds.whatif.before_choice"))
    lines = ["  " + (f"{heading[:-1]} ({subject}):" if subject else heading)]
    for option, states in rows:
        by_label = {s.label: s for s in states}
        shown = " · ".join(end_state_text(by_label[label]).strip()[len(subject) + 2 if subject
                                                                  else 0:]
                           for label in chosen if label in by_label)
        # a long line goes on under itself, after the option (any terminal is this wide)
        lines += textwrap.wrap(f"    {option}: {shown}", WHATIF_WIDTH,
                               subsequent_indent=" " * 8,
                               break_long_words=False, break_on_hyphens=False)
    return lines


def _common_subject(labels: Sequence[str]) -> str:
    """The part before ": " that every label starts with ("" when they differ)."""
    subjects = {label.partition(": ")[0] for label in labels if ": " in label}
    if len(subjects) == 1 and all(": " in label for label in labels):
        return subjects.pop()
    return ""


def after_line(roll: RollOdds) -> str:
    """How lucky the roll was."""
    report, actual = roll.report, roll.actual
    assert actual is not None
    dist = report.dist
    if report.labels:
        return "  " + render(Msg.of("odds.after_label", value=render(
            report.labels.get(actual, Msg.of("odds.value", value=actual))),
            chance=pct(dist[actual])))
    pctl = roll.percentile
    assert pctl is not None
    return "  " + render(Msg.of("odds.after", value=actual, unit=report.unit,
                                percentile=f"{float(pctl):.0f}", ge=pct(dist.at_least(actual)),
                                le=pct(dist.at_most(actual))))


_SPARK = "▁▂▃▄▅▆▇█"


def sparkline(rows: Sequence[tuple[str, Fraction, Fraction]]) -> str:
    """One character a row, its height the row's chance (the chart in a line)."""
    biggest = max(p for _, p, _ in rows)
    return "".join(_SPARK[min(7, int(float(p / biggest) * 8))] if p else " "
                   for _, p, _ in rows)


def compact_lines(roll: RollOdds, *, end_states: bool) -> list[str]:
    """A roll's odds in two or three lines (a scripted run shows every roll): the title, the
    chart as a sparkline from its first to its last outcome with the mean, how lucky the
    roll was; the end states when asked for."""
    report = roll.report
    head = "  " + render(report.title) + (f" [{roll.clause}]" if roll.clause else "")
    lines = [head + approx_text(report.dist.runs)]
    rows = chart_rows(report)
    spark = sparkline(rows)
    if report.labels:
        lines.append(f"    {spark}")
    else:
        lines.append(f"    {rows[0][0]}..{rows[-1][0]} {spark}  " + render(Msg.of(
            "odds.mean", mean=number(report.dist.mean()), unit=report.unit)))
    if roll.actual is not None:
        lines.append("  " + after_line(roll))
    if end_states:
        lines += ["  " + line for line in end_state_lines(report)]
    return lines


def rolls_lines(rolls: Sequence[RollOdds], *, full: bool = False) -> list[str]:
    """Every roll's odds for a scripted run (shown after the result): compact, with the end
    states where a roll first predicts them (``first_predictions``; ``referee odds`` and the
    table show every roll's in full); with ``full``, each roll's whole chart and every end
    state (``--odds full``)."""
    lines = ["", render(Msg.of("odds.section"))]
    if full:
        for roll in rolls:
            lines += ["  " + line for line in report_lines(roll.report, roll.clause)]
            if roll.actual is not None:
                lines.append("  " + after_line(roll))
        return lines
    for roll, fresh in zip(rolls, first_predictions(rolls), strict=True):
        lines += compact_lines(roll, end_states=fresh)
    return lines
