"""The battle report (``game report``): each attack with its outcome and working in brief, and
each side's luck: the mean percentile of its rolls (from the roller's side: 50 is an average
roll, more is luckier), how many were above and below the median, its luckiest and unluckiest
roll with their chances, and the units it destroyed against the odds' expectation where the
odds know them. Markdown on standard output; with ``--html``, one self-contained page (inline
CSS, an inline SVG chart of each side's luck over the game drawn by pygal, the page by
Jinja2), both loaded only then. Undone entries are left out (they are in ``game log``).

In a game made by ``game new`` each attack also shows the opponent's word of its dice (or
that the holder could foresee them, ``--holder-dice``), the overrides of the program's rolls
the players agreed (whose entries' rolls the luck leaves out) and its check code; the attacks
abandoned after their pending entry are listed, after the reveal with the dice they would
have had.

Names come from the players' files: every text of the Markdown and of the page passes through
the one escaping rule (``core.text.visible``: a right-to-left override, a zero-width space, an
escape sequence shown as ``\\u202e``, ``\\u200b``, ``\\x1b``), before the chart library
sees it too. The page runs nothing (a strict Content-Security-Policy) and wraps long words;
it is the same page whether or not lxml is installed (pygal would use it: the standard
library's ElementTree is asked for).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.catalog import render
from referee.core.text import Msg, visible
from referee.game import LogEntry
from referee.game.history import message


@dataclass(frozen=True)
class NotableRoll:
    """A roll picked out of a side's rolls: where it was, its dice and its chance (of a roll
    this good or better for the luckiest, this bad or worse for the unluckiest); ``roll``:
    the roll as the log keeps it."""

    number: int
    title: str
    dice: str
    luck: float
    chance: float
    roll: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass
class SideLuck:
    side: str  # its name, or the word for rolls whose side is not known (``known`` False)
    lucks: list[float] = field(default_factory=list)  # each roll's percentile for its roller
    luckiest: NotableRoll | None = None
    unluckiest: NotableRoll | None = None
    expected: float = 0.0  # units the odds expected this side's attacks to destroy
    destroyed: int = 0  # ... and the units they destroyed
    known_losses: int = 0  # attacks where both are known
    series: list[tuple[int, float]] = field(default_factory=list)  # (roll in the game, mean)
    known: bool = True

    @property
    def mean(self) -> float | None:
        return sum(self.lucks) / len(self.lucks) if self.lucks else None

    @property
    def above(self) -> int:
        return sum(1 for x in self.lucks if x > 50)

    @property
    def below(self) -> int:
        return sum(1 for x in self.lucks if x < 50)


@dataclass(frozen=True)
class Attack:
    number: int
    at: str
    ruleset: str
    command: str
    title: str
    attacker: str | None
    defender: str | None
    working: list[str]
    outcome: str
    entry: LogEntry = field(compare=False, repr=False)
    notes: list[str] = field(default_factory=list)  # its word, overrides, check code


@dataclass(frozen=True)
class Report:
    file: str
    name: str
    sides: tuple[str, ...]
    commitment: str | None
    seed: str | None
    attacks: list[Attack]
    undone: int
    luck: list[SideLuck]
    rolls: int  # program and typed rolls counted for a side
    abandoned: list[list[str]] = field(default_factory=list)  # each abandoned attack's lines
    holder_dice: str | None = None  # the holder who could foresee the dice (--holder-dice)
    context: Any = field(default=None, compare=False, repr=False)  # ``view.Context``


def _brief(entry: LogEntry) -> list[Mapping[str, Any]]:
    """The working in brief: the steps that rolled and what each decided (as logged)."""
    return [step for step in entry.result.get("steps", [])
            if isinstance(step, dict) and step.get("kind") in ("roll", "outcome")]


def _working(entry: LogEntry) -> list[str]:
    out = []
    for step in _brief(entry):
        clause = f"[{step['clause']}] " if step.get("clause") else ""
        out.append(clause + render(message(step.get("text"))))
    return out


def _roll_title(roll: Mapping[str, Any]) -> str:
    title = roll.get("title")
    return render(message(title)) if title is not None else str(roll.get("question"))


def build_report(path: Path,
                 would_have: Callable[[Any, Any, Any], list[str]] | None = None) -> Report:
    """The report of the game file ``path``; ``would_have``: the dice an abandoned attack
    would have had, as lines (``play.replay.would_have_lines``), shown after the reveal."""
    from referee.game.entry import shown_dice
    from referee.game.history import read_history
    from referee.game.luck import luck
    from referee.game.view import Context, context_lines, entry_outcome, entry_title, event_lines

    history, info = read_history(path)
    context = Context(info, history)
    sides = tuple(info.sides) if info is not None else ()
    by_side: dict[str | None, SideLuck] = {s: SideLuck(s) for s in sides}
    unknown = render(Msg.of("game.report.side_unknown"))
    attacks = []
    counted = 0
    for entry in history.standing:
        about = entry.about
        entry_sides: Mapping[str, Any] = about.get("sides") or {}
        attacks.append(Attack(entry.number or 0, entry.at, entry.ruleset, entry.command,
                              entry_title(entry), entry_sides.get("attacker"),
                              entry_sides.get("defender"), _working(entry),
                              entry_outcome(entry), entry,
                              [line.strip() for line in context_lines(entry, context)]))
        for roll in entry.rolls if not entry.overrides else ():  # overridden: not luck
            pct, higher, by = roll.get("percentile"), roll.get("higher_is_better"), roll.get("by")
            if not isinstance(pct, (int, float)) or not isinstance(higher, bool) or by is None:
                continue
            side = entry_sides.get(by)
            record = (by_side.setdefault(side, SideLuck(side)) if side else
                      by_side.setdefault(None, SideLuck(unknown, known=False)))
            value = luck(float(pct), higher)
            record.lucks.append(value)
            counted += 1
            record.series.append((counted, sum(record.lucks) / len(record.lucks)))
            better = roll.get("at_least" if higher else "at_most")
            worse = roll.get("at_most" if higher else "at_least")
            where = (entry.number or 0, _roll_title(roll), shown_dice(roll))
            if record.luckiest is None or value > record.luckiest.luck:
                record.luckiest = NotableRoll(*where, value, float(better or 0), roll)
            if record.unluckiest is None or value < record.unluckiest.luck:
                record.unluckiest = NotableRoll(*where, value, float(worse or 0), roll)
        expected, destroyed = about.get("expected"), about.get("destroyed")
        attacker = entry_sides.get("attacker")
        if isinstance(expected, dict) and isinstance(destroyed, int) and attacker:
            record = by_side.setdefault(attacker, SideLuck(attacker))
            record.expected += float(expected.get("value", 0))
            record.destroyed += destroyed
            record.known_losses += 1
    undone = sum(1 for e in history.entries if not e.standing)
    revealed = None
    if would_have is not None and info is not None and info.revealed is not None:
        def revealed(event: Any) -> list[str]:
            return would_have(history, info, event)

    abandoned = [[line.strip() for line in event_lines(event, context, revealed)]
                 for _pending, event in history.abandoned()]
    return Report(str(path), info.name if info else path.stem, sides,
                  info.commitment if info else None,
                  info.seed if info is not None and info.revealed else None, attacks, undone,
                  list(by_side.values()), counted, abandoned,
                  info.holding if info is not None and info.holder_dice else None, context)


# --- text ------------------------------------------------------------------------------------

def _pct(p: float) -> str:
    value = p * 100
    return "<0.1%" if 0 < value < 0.05 else f"{value:.1f}%"


def _notable(roll: NotableRoll | None) -> str:
    if roll is None:
        return "-"
    return render(Msg.of("game.report.notable", number=roll.number, title=roll.title,
                         dice=roll.dice, luck=f"{roll.luck:.0f}", chance=_pct(roll.chance)))


def luck_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    """The luck table: its headers and one row a side."""
    headers = [render(Msg.of(f"game.report.col.{c}")) for c in
               ("side", "rolls", "mean", "above", "below", "luckiest", "unluckiest",
                "destroyed")]
    rows = []
    for side in report.luck:
        mean = side.mean
        destroyed = (render(Msg.of("game.report.destroyed", expected=f"{side.expected:.2f}",
                                   actual=side.destroyed, attacks=side.known_losses))
                     if side.known_losses else "-")
        rows.append([side.side, str(len(side.lucks)), f"{mean:.0f}" if mean is not None else "-",
                     str(side.above), str(side.below), _notable(side.luckiest),
                     _notable(side.unluckiest), destroyed])
    return headers, rows


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def header_lines(report: Report) -> list[str]:
    out = [render(Msg.of("game.report.sides", first=report.sides[0], second=report.sides[1]))
           if len(report.sides) == 2 else render(Msg.of("game.report.no_sides"))]
    out.append(render(Msg.of("game.report.counts", file=report.file,
                             attacks=len(report.attacks), undone=report.undone)))
    if report.commitment is not None:
        out.append(render(Msg.of("game.report.seed", commitment=report.commitment,
                                 seed=report.seed or render(Msg.of("game.report.unrevealed")))))
    if report.holder_dice is not None:
        out.append(render(Msg.of("game.report.holder_dice", holder=report.holder_dice)))
    return out


def attack_heading(attack: Attack) -> str:
    return render(Msg.of("game.report.attack", number=attack.number, title=attack.title))


def attack_facts(attack: Attack) -> str:
    facts = render(Msg.of("game.report.facts", ruleset=attack.ruleset, command=attack.command,
                          at=attack.at[:16].replace("T", " ")))
    if attack.attacker:
        facts += "; " + render(Msg.of("game.report.by", attacker=attack.attacker,
                                      defender=attack.defender or "?"))
    return facts


def markdown(report: Report) -> str:
    lines = [f"# {render(Msg.of('game.report.title', name=report.name))}", ""]
    lines += [" ".join(header_lines(report)), ""]
    lines += [f"## {render(Msg.of('game.report.attacks'))}", ""]
    for attack in report.attacks:
        lines += [f"### {attack_heading(attack)}", "", f"*{attack_facts(attack)}*", ""]
        lines += [f"- {w}" for w in attack.working]
        lines += ["", render(Msg.of("game.report.outcome", outcome=attack.outcome)), ""]
        if attack.notes:
            lines += [f"{note}  " for note in attack.notes[:-1]] + [attack.notes[-1], ""]
    if report.abandoned:
        lines += [f"## {render(Msg.of('game.report.abandoned'))}", ""]
        for abandoned in report.abandoned:
            lines += [f"- {abandoned[0]}", *(f"  - {line}" for line in abandoned[1:])]
        lines.append("")
    lines += [f"## {render(Msg.of('game.report.luck'))}", ""]
    headers, rows = luck_rows(report)
    if rows:
        lines.append("| " + " | ".join(headers) + " |")
        lines.append("|" + "|".join(" --- " for _ in headers) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
        lines.append("")
    lines.append(render(Msg.of("game.report.luck_note" if rows else "game.report.no_luck")))
    return visible("\n".join(lines) + "\n")  # names from files are data, never controls


# --- JSON -------------------------------------------------------------------------------------

def _rounded(value: float | None) -> float | None:
    from referee.render.json_out import FLOAT_DIGITS

    return None if value is None else round(value, FLOAT_DIGITS)


def _notable_json(roll: NotableRoll | None) -> dict[str, Any] | None:
    from referee.game.view import stored_message

    if roll is None:
        return None
    return {"number": roll.number, "question": roll.roll.get("question"),
            "title": stored_message(roll.roll.get("title")), "dice": roll.roll.get("dice"),
            "dice_text": roll.dice, "luck": _rounded(roll.luck), "chance": _rounded(roll.chance)}


def _side_json(side: SideLuck) -> dict[str, Any]:
    known = side.known_losses > 0
    return {"side": side.side if side.known else None, "side_text": side.side,
            "rolls": len(side.lucks), "mean": _rounded(side.mean), "above": side.above,
            "below": side.below, "luckiest": _notable_json(side.luckiest),
            "unluckiest": _notable_json(side.unluckiest),
            "expected_destroyed": _rounded(side.expected) if known else None,
            "destroyed": side.destroyed if known else None, "attacks_known": side.known_losses}


def report_json(report: Report) -> dict[str, Any]:
    """The fields of the report's document (kind ``game-report``): the game, each attack
    that stands (its log entry with its working in brief) and each side's luck."""
    from referee.game.view import entry_json, stored_message

    attacks = [{**entry_json(a.entry, report.context),
                "working": [{"kind": step.get("kind"), "clause": step.get("clause"), **shown}
                            for step in _brief(a.entry)
                            if (shown := stored_message(step.get("text"))) is not None]}
               for a in report.attacks]
    return {"file": report.file, "name": report.name, "sides": list(report.sides),
            "commitment": report.commitment, "seed": report.seed, "undone": report.undone,
            "rolls": report.rolls, "attacks": attacks,
            "luck": [_side_json(side) for side in report.luck]}


# --- the page ---------------------------------------------------------------------------------

def chart_svg(report: Report) -> str | None:
    """Each side's luck over the game: the mean percentile of its rolls so far, against the
    rolls of the game; an inline SVG with no script and nothing fetched (pygal)."""
    if not any(side.series for side in report.luck):
        return None
    import pygal
    from pygal.etree import etree

    etree.to_etree()  # the same page with lxml installed or not (lxml refuses controls)
    config = pygal.Config(js=[], disable_xml_declaration=True, width=800, height=360,
                          range=(0, 100), show_dots=True, dots_size=3, explicit_size=True,
                          title=render(Msg.of("game.report.chart_title")),
                          x_title=render(Msg.of("game.report.chart_x")),
                          y_title=render(Msg.of("game.report.chart_y")))
    chart = pygal.XY(config)
    chart.uuid = "luck"  # its id in the page (pygal draws a random one): the same page
    for side in report.luck:
        if side.series:
            chart.add(visible(side.side), [(float(x), round(y, 1)) for x, y in side.series])
    chart.add(render(Msg.of("game.report.chart_median")),
              [(1.0, 50.0), (float(max(report.rolls, 1)), 50.0)], stroke_style={"dasharray": "4"},
              show_dots=False)
    svg: str = chart.render(is_unicode=True)
    # pygal always writes its settings as a script for its tooltips: the page runs nothing
    return re.sub(r"<script\b[^>]*>.*?</script>", "", svg, flags=re.S)


def html(report: Report) -> str:
    import jinja2
    from markupsafe import Markup

    from referee.catalog import current_language

    def shown(value: Any) -> Any:  # every text of the page through the one rule
        return value if isinstance(value, Markup) or not isinstance(value, str) else \
            visible(value)

    env = jinja2.Environment(loader=jinja2.PackageLoader("referee", "templates"),
                             autoescape=True, keep_trailing_newline=True, finalize=shown)
    template = env.get_template("report.html.j2")
    headers, rows = luck_rows(report)
    svg = chart_svg(report)
    return template.render(
        lang=current_language(), report=report, header=header_lines(report),
        title=render(Msg.of("game.report.title", name=report.name)),
        attacks_title=render(Msg.of("game.report.attacks")),
        luck_title=render(Msg.of("game.report.luck")),
        attacks=[(attack_heading(a), attack_facts(a), a.working,
                  render(Msg.of("game.report.outcome", outcome=a.outcome)), a.notes)
                 for a in report.attacks],
        abandoned_title=render(Msg.of("game.report.abandoned")),
        abandoned=report.abandoned,
        headers=headers, rows=rows, chart=Markup(svg) if svg else None,
        note=render(Msg.of("game.report.luck_note" if rows else "game.report.no_luck")))


def write_html(report: Report, path: Path) -> None:
    from referee.core.errors import UsageError
    from referee.files import write_atomic

    text = html(report)
    try:
        write_atomic(path, text)  # a full disk leaves no half page, nor an empty file
    except OSError as err:
        raise UsageError(Msg.of("game.error.html", file=str(path),
                                reason=err.strerror or str(err))) from None

