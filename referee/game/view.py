"""A game file's log as players read it (``game log``, ``game follow``): each entry's number,
time, ruleset, command, title, outcome line, sides, and each roll with its dice, typed or
rolled by the program, and its percentile; undone entries marked as such. Since format 3 also
the opponent's word of each entry, what a redo changed from the entry it redoes, the
overrides the players agreed, the undo events, the attacks abandoned (after the reveal, with
the dice they would have had), and each event's check code. As JSON (the parts of the
documents of kind ``game-log`` and ``game-undo``: messages as their id and their text in the
chosen language) and as lines of text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.catalog import render
from referee.core.text import Msg
from referee.game import Event, LogEntry
from referee.game.history import History, message


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


@dataclass(frozen=True)
class Context:
    """What an entry's lines need from the rest of the log: the game (``None``: a file made
    by ``--game`` alone) and its checked history."""

    info: Any
    history: History

    def word(self, entry: LogEntry) -> str | None:
        """The opponent's word of the entry's dice (``None``: none was given)."""
        if entry.body is None or entry.number is None:
            return None
        given = self.history.contribution(entry.number)
        first = given[0] if given else None
        return str(first.get("value")) if first and first.get("roll") is None else None

    def parts(self, entry: LogEntry) -> list[tuple[int, str]]:
        """The part of each program roll the opponent's phone gave (``game serve``): (the
        roll, its bytes), in order; empty when a word was given instead."""
        if entry.body is None or entry.number is None:
            return []
        return [(int(b["roll"]), str(b.get("value", "")))
                for b in self.history.contribution(entry.number)
                if isinstance(b.get("roll"), int)]

    def redoes(self, entry: LogEntry) -> LogEntry | None:
        """The undone entry of the same number this one redoes (the last before it)."""
        found = None
        for other in self.history.entries:
            if other.id >= entry.id:
                break
            if other.number == entry.number and other.undone is not None:
                found = other
        return found


def redo_changes(entry: LogEntry, undone: LogEntry) -> list[str]:
    """What a redo changed from the entry it redoes: ``options``, ``declaration`` and the
    ids of the answers that differ, in order."""
    a, b = undone.replay or {}, entry.replay or {}
    changed = [part for part in ("options", "declaration") if a.get(part) != b.get(part)]
    before = {str(q): v for q, v in a.get("answers", [])}
    after = {str(q): v for q, v in b.get("answers", [])}
    changed += [q for q in [*after, *(q for q in before if q not in after)]
                if before.get(q) != after.get(q)]
    return changed


def _code(entry: LogEntry) -> str | None:
    from referee.game.chain import check_code

    return check_code(entry.digest) if entry.digest and entry.body is not None else None


def entry_json(entry: LogEntry, context: Context | None = None) -> dict[str, Any]:
    """A log entry as JSON: its title and outcome as messages (``null`` where the log keeps
    none), the sides, the time it was undone (``null``: it stands), its rolls; its check
    code, the scheme of its dice, the opponent's word, the overrides agreed, and the entry
    it redoes with what changed (``null`` where the log keeps none)."""
    sides = entry.about.get("sides") or {}
    outcome = entry.result.get("outcome")
    redone = context.redoes(entry) if context is not None else None
    return {"number": entry.number, "id": entry.id, "at": entry.at, "ruleset": entry.ruleset,
            "command": entry.command, "title": stored_message(_title_message(entry)),
            "outcome": stored_message(outcome.get("text")) if isinstance(outcome, dict)
            else None, "undone": entry.undone,
            "attacker_side": sides.get("attacker"), "defender_side": sides.get("defender"),
            "history": entry.has_history,
            "rolls": [roll_json(r) for r in entry.rolls],
            "check_code": _code(entry), "scheme": entry.scheme,
            "word": context.word(entry) if context is not None else None,
            "overrides": [override_json(o) for o in entry.overrides],
            "redoes": {"id": redone.id, "changed": redo_changes(entry, redone)}
            if redone is not None else None}


def override_json(override: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": override.get("kind"), "question": override.get("question"),
            "roll": override.get("roll"), "program": override.get("program"),
            "typed": override.get("typed")}


def event_json(event: Event) -> dict[str, Any]:
    """An event of the chain as JSON: its kind, row, entry number, time, check code and
    what it says (an entry's body; the seed only in the reveal's)."""
    return {"id": event.id, "kind": event.kind, "number": event.number, "at": event.at,
            "check_code": event.code or None,
            "body": event.body if event.kind != "entry" else None}


def _time(at: str) -> str:
    """``2025-01-03T19:02:11+00:00`` as ``2025-01-03 19:02``."""
    return at[:16].replace("T", " ")


def _faces(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else "-"


def context_lines(entry: LogEntry, context: Context | None) -> list[str]:
    """An entry's lines about its dice: the word, the redo, the overrides, its code."""
    out = []
    if context is not None and context.info is not None and entry.body is not None:
        word = context.word(entry)
        if context.info.holder_dice:
            out.append(render(Msg.of("game.log.holder_dice", holder=context.info.holding)))
        elif word is not None:
            out.append(render(Msg.of("game.log.word", word=word,
                                     side=context.info.opponent_side)))
        elif parts := context.parts(entry):
            out.append(render(Msg.of("game.log.parts", side=context.info.opponent_side,
                                     parts=", ".join(f"{roll}: {value[:8]}"
                                                     for roll, value in parts))))
        redone = context.redoes(entry)
        if redone is not None:
            changed = redo_changes(entry, redone)
            out.append(render(Msg.of("game.log.redo", number=entry.number, changed=", ".join(
                changed) or render(Msg.of("game.log.nothing_changed")))))
    for override in entry.overrides:
        out.append(render(Msg.of(f"game.log.override.{override.get('kind')}",
                                 question=override.get("question"),
                                 program=_faces(override.get("program")),
                                 typed=_faces(override.get("typed")))))
    code = _code(entry)
    if code:
        out.append(render(Msg.of("game.log.code", code=code)))
    return ["    " + line for line in out]


def event_lines(event: Event, context: Context, revealed: Any = None) -> list[str]:
    """The lines of an event other than an entry, in the log: an undo, an attack abandoned
    (after the reveal with the dice it would have had), the reveal; others show nothing."""
    at = _time(event.at)
    if event.kind == "undo":
        entry = next((e for e in context.history.entries
                      if e.id == (event.body or {}).get("entry")), None)
        title = entry_title(entry) if entry is not None else "?"
        return [render(Msg.of("game.log.undo", at=at, number=event.number or "?",
                              title=title, code=event.code))]
    if event.kind == "abandon":
        lines = [render(Msg.of(f"game.log.abandoned.{_reason(event)}", number=event.number,
                               at=at, command=event.command, code=event.code))]
        if revealed is not None:
            lines += ["    " + line for line in revealed(event)]
        return lines
    if event.kind == "reveal":
        return [render(Msg.of("game.log.reveal", at=at, code=event.code))]
    if event.kind == "side":  # issue 27: said at the table, a change shown with its side before
        from referee.catalog import as_label

        body = event.body or {}
        was, shown = body.get("was"), as_label(str(body.get("name")))
        return [render(Msg.of("game.log.side_changed" if was else "game.log.side", at=at,
                              name=shown, side=body.get("side"), was=was,
                              code=event.code))]
    return []


def _reason(event: Event) -> str:
    reason = (event.body or {}).get("reason")
    return reason if reason in ("interrupted", "failed", "left") else "left"


def log_lines(context: Context,
              would_have: Callable[[Any, Any, Event], list[str]] | None = None) -> list[str]:
    """Every entry and event of the log, in order, with the pending entry still open; after
    the reveal, under an abandoned attack, the dice it would have had (``would_have``:
    ``play.replay.would_have_lines``, which resolves it again)."""
    history = context.history
    out: list[str] = []
    info = context.info
    revealed = None
    if would_have is not None and info is not None and info.revealed is not None:
        def revealed(event: Event) -> list[str]:
            return would_have(history, info, event)
    if not history.events:
        for entry in history.entries:
            out += entry_lines(entry, context)
        return out
    for event in history.events:
        if event.entry is not None:
            out += entry_lines(event.entry, context)
        else:
            out += event_lines(event, context, revealed)
    if history.pending is not None:
        out.append(render(Msg.of("game.log.pending", number=history.pending.number,
                                 at=_time(history.pending.at),
                                 command=history.pending.command)))
    return out


def entry_lines(entry: LogEntry, context: Context | None = None) -> list[str]:
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
    return lines + context_lines(entry, context)


def header_lines(file: str, info: Any, entries: Sequence[LogEntry]) -> list[str]:
    undone = sum(1 for e in entries if not e.standing)
    if info is None:
        return [render(Msg.of("game.log.plain_header", file=file, entries=len(entries),
                              undone=undone))]
    out = [render(Msg.of("game.log.header", name=info.name, file=file, first=info.sides[0],
                         second=info.sides[1], entries=len(entries), undone=undone)),
           render(Msg.of("game.log.commitment", commitment=info.commitment)),
           render(Msg.of("game.log.holder_alone" if info.holder_dice else "game.log.holder",
                         holder=info.holding, opponent=info.opponent_side))]
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
