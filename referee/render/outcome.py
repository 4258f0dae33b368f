"""Outcome first (issue 27): what an attack did, on one screen, after the last answer.

Each group (the formation, the hex) with its own effects (Blast markers, broken), then its
units by name, alike ones on one line (``destroyed: Unit 1, Unit 2``); the rolls, each with
how lucky it was (its percentile and the chance of as good or better); the outcome line; and
where the full working is (``--working``). At most ``MOST`` lines: the rolls are cut first,
saying how many more there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.catalog import render
from referee.core.fates import grouped, joined
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.result import Result

MOST = 20
"""Lines of the outcome screen at the most (the issue's goal for the reference attacks)."""


def fate_lines(result: Result) -> list[str]:
    """Each group and its units, as the outcome screen shows them."""
    lines: list[str] = []
    for group, own, units in grouped(result.fates):
        lines.append(render(Msg.of("kept.fate.head", group=group, what=joined(own)))
                     if own else f"{render(group)}:")
        for effects, names in units:
            what = joined(effects) if effects else Msg.of("kept.fate.unharmed")
            lines.append("  " + render(Msg.of("kept.fate.line", effects=what,
                                              units=joined(names))))
    return lines


def roll_line(record: Any) -> str | None:
    """A roll, how lucky: its value, percentile and the chance of this or better."""
    from referee.render.odds import pct

    report, actual = record.report, record.actual
    if actual is None:
        return None
    if report.labels:
        value = report.labels.get(actual, Msg.of("odds.value", value=actual))
        return render(Msg.of("kept.fate.roll_label", title=report.title, value=value,
                             chance=pct(report.dist[actual])))
    percentile = record.percentile
    return render(Msg.of("kept.fate.roll", title=report.title, value=actual, unit=report.unit,
                         percentile=f"{float(percentile):.0f}",
                         ge=pct(report.dist.at_least(actual))))


def outcome_lines(result: Result, records: Sequence[Any] = (), *,
                  key: bool = False) -> list[str]:
    """The outcome screen: the fates, the rolls, the outcome line, where the working is
    (``key``: a key at the end prompt shows it too)."""
    fates = fate_lines(result)
    rolls = [line for line in map(roll_line, records) if line is not None]
    tail = [render(Msg.of("result.outcome", outcome=result.outcome)),
            render(Msg.of("kept.fate.working", key=Msg.of("kept.fate.working_key")
                          if key else ""))]
    room = MOST - len(fates) - len(tail) - 1  # the rolls' heading
    lines = list(fates)
    if rolls:
        lines.append(render(Msg.of("kept.fate.rolls")))
        if len(rolls) > max(room, 2):
            keep = max(room - 1, 1)
            lines += ["  " + r for r in rolls[:keep]]
            lines.append("  " + render(Msg.of("kept.fate.more_rolls",
                                              count=len(rolls) - keep)))
        else:
            lines += ["  " + r for r in rolls]
    return lines + tail
