"""A game file's log as players read it (``game log``, ``game follow``): each entry's number,
time, ruleset, command, title, outcome line, sides, and each roll with its dice, typed or
rolled by the program, and its percentile; undone entries marked as such. As JSON (the parts
of the documents of kind ``game-log`` and ``game-undo``: messages as their id and their text in
the chosen language) and as lines of text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.catalog import render
from referee.core.text import Msg
from referee.game import LogEntry
from referee.game.history import message


def _text(value: Any) -> str:
    return render(message(value)) if value is not None else ""


def _title_message(entry: LogEntry) -> Any:
    title = entry.about.get("title")
    if title is None:  # an entry of format 1: its first step
        steps = entry.result.get("steps")
        if isinstance(steps, list) and steps and isinstance(steps[0], dict):
            title = steps[0].get("text")
    return title


def entry_title(entry: LogEntry) -> str:
    return _text(_title_message(entry)) or entry.command


def entry_outcome(entry: LogEntry) -> str:
    outcome = entry.result.get("outcome")
    if isinstance(outcome, dict):
        return _text(outcome.get("text"))
    return ""


def source_word(roll: Mapping[str, Any]) -> str:
    return render(Msg.of("game.source.typed" if roll.get("source") == "typed"
                         else "game.source.program"))


def stored_message(value: Any) -> dict[str, Any] | None:
    """A message the log keeps, as JSON (its id, and its text in the chosen language);
    ``None`` when there is none."""
    from referee.render.json_out import message as message_json

    shown = message(value)
    return message_json(shown) if isinstance(shown, Msg) else None


def _number(value: Any) -> Any:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def roll_json(roll: Mapping[str, Any]) -> dict[str, Any]:
    """A logged roll as JSON: its dice (``null`` when only the count was typed), their
    count of successes, the card's trigger where there is one, the dice as shown, typed or
    rolled, and the odds the log keeps (rounded as kept; ``null`` when the odds were off)."""
    from referee.game.entry import shown_dice

    return {"question": roll.get("question"), "dice": roll.get("dice"),
            "successes": roll.get("successes"), "label": stored_message(roll.get("label")),
            "dice_text": shown_dice(roll), "source": roll.get("source"),
            "by_program": roll.get("source") != "typed",
            "title": stored_message(roll.get("title")), "unit": roll.get("unit"),
            "value": roll.get("value"), "percentile": _number(roll.get("percentile")),
            "at_least": _number(roll.get("at_least")), "at_most": _number(roll.get("at_most")),
            "by": roll.get("by"), "higher_is_better": roll.get("higher_is_better")}


def entry_json(entry: LogEntry) -> dict[str, Any]:
    """A log entry as JSON: its title and outcome as messages (``null`` where the log keeps
    none), the sides, the time it was undone (``null``: it stands), its rolls."""
    sides = entry.about.get("sides") or {}
    outcome = entry.result.get("outcome")
    return {"number": entry.number, "id": entry.id, "at": entry.at, "ruleset": entry.ruleset,
            "command": entry.command, "title": stored_message(_title_message(entry)),
            "outcome": stored_message(outcome.get("text")) if isinstance(outcome, dict)
            else None, "undone": entry.undone,
            "attacker_side": sides.get("attacker"), "defender_side": sides.get("defender"),
            "history": entry.has_history,
            "rolls": [roll_json(r) for r in entry.rolls]}


def _time(at: str) -> str:
    """``2025-01-03T19:02:11+00:00`` as ``2025-01-03 19:02``."""
    return at[:16].replace("T", " ")


def entry_lines(entry: LogEntry) -> list[str]:
    sides = entry.about.get("sides") or {}
    head = render(Msg.of("game.log.entry", number=entry.number or "?", at=_time(entry.at),
                         ruleset=entry.ruleset, command=entry.command,
                         title=entry_title(entry)))
    if sides.get("attacker"):
        head += " " + render(Msg.of("game.log.sides", attacker=sides["attacker"],
                                    defender=sides.get("defender") or "?"))
    if entry.undone is not None:
        head += " " + render(Msg.of("game.log.undone", at=_time(entry.undone)))
    lines = [head]
    if entry_outcome(entry):
        lines.append("    " + render(Msg.of("game.log.outcome", outcome=entry_outcome(entry))))
    if not entry.has_history:
        lines.append("    " + render(Msg.of("game.log.no_history")))
    for roll in entry.rolls:
        from referee.game.entry import shown_dice

        pct = roll.get("percentile")
        lines.append("    " + render(Msg.of(
            "game.log.roll", question=roll.get("question"), dice=shown_dice(roll),
            source=source_word(roll),
            percentile=f"{pct:.0f}" if isinstance(pct, (int, float)) else "-")))
    return lines


def header_lines(file: str, info: Any, entries: Sequence[LogEntry]) -> list[str]:
    undone = sum(1 for e in entries if not e.standing)
    if info is None:
        return [render(Msg.of("game.log.plain_header", file=file, entries=len(entries),
                              undone=undone))]
    out = [render(Msg.of("game.log.header", name=info.name, file=file, first=info.sides[0],
                         second=info.sides[1], entries=len(entries), undone=undone)),
           render(Msg.of("game.log.commitment", commitment=info.commitment))]
    if info.revealed is not None:
        out.append(render(Msg.of("game.log.revealed", seed=info.seed, at=_time(info.revealed))))
    return out


def state_tables(tx: Any) -> list[Any]:
    """Each ruleset's state as its tables (the board: formations, decks, markers, phase)."""
    from referee.core.errors import RefereeError
    from referee.rulesets import find_ruleset

    out: list[Any] = []
    for ruleset in tx.all_state():
        try:
            module = find_ruleset(ruleset).implementation()
            out += list(module.state_view(tx.state(ruleset, module.state_model())))
        except RefereeError:
            continue  # a ruleset this referee does not know: its state is not shown
    return out
