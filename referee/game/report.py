"""The battle report (``game report``): the story of the game, entry by entry, in plain words
(who attacked whom, what was destroyed, broken, suppressed: ``game.story``), with its outcome
and working in brief; each side's casualties; the turning points (the rarest rolls of the game,
with their chances); each side's luck: the mean percentile of its rolls (from the roller's
side: 50 is an average roll, more is luckier), how many were above and below the median, its
luckiest and unluckiest roll with their chances, and the units it destroyed against the odds'
expectation where the odds know them; and the state the game ended in. Markdown on standard
output; with ``--html``, one self-contained page drawn from the templates the served report
of ``game serve`` shares (``game.page``: Jinja2, an inline SVG chart of each side's luck by
pygal), loaded only then. Undone entries are left out (they are in ``game log``).

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.catalog import render
from referee.core.text import Msg, visible
from referee.game import LogEntry
from referee.game.history import message
from referee.game.story import Story


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
class Loss:
    """A unit an entry destroyed (``lost``) or marked (broken, suppressed...), on one side."""

    number: int
    unit: str
    what: str
    lost: bool


@dataclass
class Casualties:
    side: str  # its name, or the word for units whose side is not known
    losses: list[Loss] = field(default_factory=list)

    @property
    def lost(self) -> list[Loss]:
        return [x for x in self.losses if x.lost]

    @property
    def marked(self) -> list[Loss]:
        return [x for x in self.losses if not x.lost]


@dataclass(frozen=True)
class TurningPoint:
    """One of the rarest rolls of the game: where, whose, its dice, the chance of a roll this
    good or better (``lucky``) or this bad or worse, and its percentile for its roller."""

    number: int
    title: str
    side: str | None
    dice: str
    chance: float
    lucky: bool
    luck: float


TURNING_POINTS = 5  # the rarest rolls the report names
TURNING_CHANCE = 0.25  # ... among those at most this likely


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
    stories: list[Story] = field(default_factory=list)  # one an attack, in order
    casualties: list[Casualties] = field(default_factory=list)
    turning: list[TurningPoint] = field(default_factory=list)
    final: list[Any] = field(default_factory=list)  # each ruleset's state as tables
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
    from referee.game import read_game
    from referee.game.entry import shown_dice
    from referee.game.history import check_history
    from referee.game.luck import luck
    from referee.game.seed import game_info
    from referee.game.story import story
    from referee.game.view import (
        Context,
        context_lines,
        entry_outcome,
        entry_title,
        event_lines,
        state_tables,
    )

    with read_game(path) as tx:
        history, info = check_history(tx), game_info(tx)
        final = state_tables(tx)
    context = Context(info, history)
    entries = history.entries
    sides = tuple(info.sides) if info is not None else ()
    by_side: dict[str | None, SideLuck] = {s: SideLuck(s) for s in sides}
    unknown = render(Msg.of("game.report.side_unknown"))
    attacks = []
    stories = []
    turning: list[TurningPoint] = []
    counted = 0
    for entry in (e for e in entries if e.standing):
        about = entry.about
        stories.append(story(entry))
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
            chance = float((better if value >= 50 else worse) or 0)
            if 0 < chance <= TURNING_CHANCE:
                turning.append(TurningPoint(entry.number or 0, where[1],
                                            side if side else None, where[2], chance,
                                            value >= 50, value))
        expected, destroyed = about.get("expected"), about.get("destroyed")
        attacker = entry_sides.get("attacker")
        if isinstance(expected, dict) and isinstance(destroyed, int) and attacker:
            record = by_side.setdefault(attacker, SideLuck(attacker))
            record.expected += float(expected.get("value", 0))
            record.destroyed += destroyed
            record.known_losses += 1
    undone = sum(1 for e in entries if not e.standing)
    turning.sort(key=lambda t: (t.chance, t.number))
    revealed = None
    if would_have is not None and info is not None and info.revealed is not None:
        def revealed(event: Any) -> list[str]:
            return would_have(history, info, event)

    abandoned = [[line.strip() for line in event_lines(event, context, revealed)]
                 for _pending, event in history.abandoned()]
    return Report(str(path), info.name if info else path.stem, sides,
                  info.commitment if info else None,
                  info.seed if info is not None and info.revealed else None, attacks, undone,
                  list(by_side.values()), counted, stories,
                  casualties_of(stories, sides, unknown), turning[:TURNING_POINTS], final,
                  abandoned, info.holding if info is not None and info.holder_dice else None,
                  context)


def casualties_of(stories: list[Story], sides: tuple[str, ...],
                  unknown: str) -> list[Casualties]:
    """Each side's units lost and marked, entry by entry (a side not known: its own row)."""
    by_side = {s: Casualties(s) for s in sides}
    for told in stories:
        for effect in told.effects:
            side = told.side_of(effect.owner)
            record = by_side.setdefault(side if side else unknown,
                                        Casualties(side if side else unknown))
            record.losses.append(Loss(told.number, effect.unit, render(effect.what),
                                      effect.lost))
    return [c for c in by_side.values() if c.losses or c.side in sides]


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


@dataclass(frozen=True)
class EntryView:
    """An entry as the report and the pages show it, every text in the reader's language:
    who attacked whom, what it did, its outcome; folded behind it, its facts, title, rolls
    and working with their clauses."""

    number: int
    anchor: str
    headline: str
    effects: list[str]
    outcome: str
    facts: str
    title: str
    rolls: list[str]
    working: list[tuple[str, str]]  # (clause, what happened)
    brief: list[str]  # the working in brief: its rolls and what each decided
    undone: bool = False
    notes: list[str] = field(default_factory=list)  # its word, overrides, check code


def entry_view(told: Story, notes: Sequence[str] = ()) -> EntryView:
    from referee.game.entry import shown_dice
    from referee.game.story import effect_lines, headline
    from referee.game.view import source_word

    entry = told.entry
    facts = render(Msg.of("game.report.facts", ruleset=entry.ruleset, command=entry.command,
                          at=entry.at[:16].replace("T", " ")))
    if told.attacker_side:
        facts += "; " + render(Msg.of("game.report.by", attacker=told.attacker_side,
                                      defender=told.defender_side or "?"))
    rolls = []
    for roll in entry.rolls:
        pct, higher = roll.get("percentile"), roll.get("higher_is_better")
        better = (roll.get("at_least" if higher else "at_most")
                  if isinstance(higher, bool) else None)
        rolls.append(render(Msg.of(
            "game.report.roll", title=_roll_title(roll), dice=shown_dice(roll),
            source=source_word(roll),
            chance=_pct(float(better)) if isinstance(better, (int, float)) else "-",
            percentile=f"{pct:.0f}" if isinstance(pct, (int, float)) else "-")))
    working = [(str(step.get("clause") or ""), render(message(step.get("text"))))
               for step in entry.result.get("steps", []) if isinstance(step, dict)]
    return EntryView(told.number, f"e{entry.id}", render(headline(told)),
                     [render(m) for m in effect_lines(told)], told.outcome, facts, told.title,
                     rolls, working, _working(entry), not entry.standing, list(notes))


def entry_views(report: Report) -> list[EntryView]:
    """Each standing entry as the report shows it, with its notes (the opponent's word of
    its dice, the overrides agreed, its check code)."""
    return [entry_view(told, attack.notes)
            for told, attack in zip(report.stories, report.attacks, strict=True)]


def casualty_rows(casualties: list[Casualties]) -> tuple[list[str], list[list[str]]]:
    """The casualty table: a row a side, its units lost and those broken or marked."""
    headers = [render(Msg.of(f"game.report.col.{c}")) for c in ("side", "lost", "marked")]

    def listed(losses: list[Loss]) -> str:
        return "; ".join(render(Msg.of("game.story.loss", unit=x.unit, what=x.what,
                                       number=x.number)) for x in losses) or "-"

    rows = [[c.side, f"{len(c.lost)}: {listed(c.lost)}" if c.lost else "0", listed(c.marked)]
            for c in casualties]
    return headers, rows


def turning_lines(report: Report) -> list[str]:
    unknown = render(Msg.of("game.report.side_unknown"))
    return [render(Msg.of("game.report.turning_lucky" if t.lucky else
                          "game.report.turning_unlucky", number=t.number, title=t.title,
                          dice=t.dice, side=t.side or unknown, chance=_pct(t.chance)))
            for t in report.turning]


def _md_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(_md_cell(h) for h in headers) + " |",
             "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def markdown(report: Report) -> str:
    """The report as Markdown, every text made visible (``core.text.visible``: a name's
    control and invisible characters shown as escapes, never written to the terminal raw)."""

    lines = [f"# {render(Msg.of('game.report.title', name=report.name))}", ""]
    lines += [" ".join(header_lines(report)), ""]
    lines += [f"## {render(Msg.of('game.report.story'))}", ""]
    for view in entry_views(report):
        lines += [f"### {view.number}. {view.headline}", "", f"*{view.facts}*", ""]
        lines += [f"- {e}" for e in view.effects]
        if view.effects:
            lines.append("")
        lines += [render(Msg.of("game.report.outcome", outcome=view.outcome)), ""]
        lines += [render(Msg.of("game.report.working", title=view.title)), ""]
        lines += [f"- {w}" for w in view.brief]
        lines.append("")
        if view.notes:
            lines += [f"{note}  " for note in view.notes[:-1]] + [view.notes[-1], ""]
    lines += [f"## {render(Msg.of('game.report.casualties'))}", ""]
    headers, rows = casualty_rows(report.casualties)
    if any(c.losses for c in report.casualties):
        lines += _md_table(headers, rows)
    else:
        lines += [render(Msg.of("game.report.no_casualties")), ""]
    lines += [f"## {render(Msg.of('game.report.turning'))}", ""]
    turning = turning_lines(report)
    lines += [f"- {t}" for t in turning] or [render(Msg.of("game.report.no_turning"))]
    lines.append("")
    if report.abandoned:
        lines += [f"## {render(Msg.of('game.report.abandoned'))}", ""]
        for abandoned in report.abandoned:
            lines += [f"- {abandoned[0]}", *(f"  - {line}" for line in abandoned[1:])]
        lines.append("")
    lines += [f"## {render(Msg.of('game.report.luck'))}", ""]
    headers, rows = luck_rows(report)
    if rows:
        lines += _md_table(headers, rows)
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
    from pygal.style import Style

    # readable on a light and a dark page alike: no background of its own, mid-grey text
    style = Style(background="transparent", plot_background="transparent",
                  foreground="#888", foreground_strong="#888", foreground_subtle="#8884",
                  colors=("#3b7dd8", "#d8563b", "#2e9e5b", "#b38b00", "#888"))

    etree.to_etree()  # the same page with lxml installed or not (lxml refuses controls)
    config = pygal.Config(js=[], disable_xml_declaration=True, width=800, height=360,
                          range=(0, 100), show_dots=True, dots_size=3, explicit_size=True,
                          style=style, tooltip_fancy_mode=False,
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
    # pygal always writes its settings as a script for its tooltips, and a tooltip hidden
    # by a style attribute: the page runs nothing, and its policy allows no style attribute
    svg = re.sub(r"<script\b[^>]*>.*?</script>", "", svg, flags=re.S)
    svg = re.sub(r'<g [^>]*class="plot tooltip-overlay">.*?</g></g>', "", svg, flags=re.S)
    svg = re.sub(r'\sstyle="[^"]*"', "", svg)
    return re.sub(r"<svg\b", '<svg role="img" class="luck-chart"', svg, count=1)


def html(report: Report) -> str:
    """The report as one self-contained page: the templates the served report shares
    (``game.page``), its CSS inline under a Content-Security-Policy that lets nothing else
    load or run."""
    from referee.game.page import render_page

    return render_page("report.html.j2", standalone=True, **report_context(report))


def report_context(report: Report) -> dict[str, Any]:
    """What the report's template shows: every text in the reader's language."""
    from markupsafe import Markup

    headers, rows = luck_rows(report)
    casualty_headers, casualties = casualty_rows(report.casualties)
    svg = chart_svg(report)
    return {
        "title": render(Msg.of("game.report.title", name=report.name)),
        "header": header_lines(report),
        "entries": entry_views(report),
        "abandoned": report.abandoned,
        "casualty_headers": casualty_headers, "casualties": casualties,
        "any_casualties": any(c.losses for c in report.casualties),
        "turning": turning_lines(report),
        "luck_headers": headers, "luck_rows": rows,
        "chart": Markup(svg) if svg else None,
        "note": render(Msg.of("game.report.luck_note" if rows else "game.report.no_luck")),
        "final": [table_view(t) for t in report.final]}


def table_view(table: Any) -> dict[str, Any]:
    """A table of the referee's (``core.table.Table``) as the page shows it: its title,
    headers and rows as text."""
    from referee.render.json_out import cell_text

    def text(cell: Any) -> str:
        shown = cell_text(cell)
        if isinstance(shown, (list, tuple)):
            return "; ".join(str(x) for x in shown)
        return "" if shown is None else str(shown)

    return {"title": render(table.title), "clause": table.clause,
            "headers": [render(c) if isinstance(c, Msg) else str(c) for c in table.columns],
            "rows": [[text(c) for c in row] for row in table.rows]}


def write_html(report: Report, path: Path) -> None:
    from referee.core.errors import UsageError
    from referee.files import write_atomic

    text = html(report)
    try:
        write_atomic(path, text)  # a full disk leaves no half page, nor an empty file
    except OSError as err:
        raise UsageError(Msg.of("game.error.html", file=str(path),
                                reason=err.strerror or str(err))) from None

