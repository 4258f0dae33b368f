"""An entry of the game told as a player would tell it: who shot at whom, and what it did to
each unit (destroyed, broken, suppressed, Blast markers...), each side named.

These are readings of what the rulesets already log (an outcome's data, the steps that name
a unit and its result, a table of results), kept here as data, as ``luck`` keeps who rolled
each roll, so that the rulesets need not know about the story of the game. An entry this
module cannot read is told by its title and outcome alone.

Used by the battle report (``game report``) and the pages of ``game serve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.questions import ATTACKER, DEFENDER
from referee.core.text import Msg
from referee.game import LogEntry
from referee.game.history import message


@dataclass(frozen=True)
class Effect:
    """What an entry did to one unit (or to a whole formation): ``what`` as a message, whose
    unit it was (``attacker`` or ``defender``, as the entry's sides say), and whether the
    unit is lost to its side (destroyed, eliminated, removed)."""

    unit: str
    what: Msg
    owner: str = DEFENDER
    lost: bool = False
    formation: bool = False  # the whole formation (broken, its Blast markers)


@dataclass(frozen=True)
class Story:
    """One standing entry as the story of the game tells it (its texts in the language of
    the reader, worked out when first read)."""

    entry: LogEntry
    attacker: str | None  # the attacking formation (or side, or nation) as named
    defender: str | None
    attacker_side: str | None  # the game's side, where known
    defender_side: str | None
    effects: list[Effect] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.entry.number or 0

    @property
    def title(self) -> str:
        """The entry's own title (its declaring step)."""
        from referee.game.view import entry_title

        return entry_title(self.entry)

    @property
    def outcome(self) -> str:
        from referee.game.view import entry_outcome

        return entry_outcome(self.entry)

    def side_of(self, owner: str) -> str | None:
        return self.attacker_side if owner == ATTACKER else self.defender_side

    @property
    def losses(self) -> list[Effect]:
        return [e for e in self.effects if e.lost]


def _text(value: Any) -> str:
    from referee.catalog import render

    shown = message(value)
    if shown is None:
        return ""
    return render(shown) if isinstance(shown, Msg) else str(shown)


def _steps(entry: LogEntry) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each logged step: its message id, its message's parameters, its data."""
    for step in entry.result.get("steps", []):
        if not isinstance(step, dict):
            continue
        text = step.get("text")
        if isinstance(text, dict) and isinstance(text.get("msg"), str):
            params, data = text.get("params"), step.get("data")
            yield (text["msg"], params if isinstance(params, dict) else {},
                   data if isinstance(data, dict) else {})


def _outcome_data(entry: LogEntry) -> Mapping[str, Any]:
    outcome = entry.result.get("outcome")
    data = outcome.get("data") if isinstance(outcome, dict) else None
    return data if isinstance(data, dict) else {}


def _markers(count: Any) -> Msg:
    return Msg.of("game.effect.markers", count=count)


def _formation_effects(name: str, data: Mapping[str, Any], owner: str = DEFENDER,
                       ) -> list[Effect]:
    """An Epic formation's losses and Blast markers after it was shot at (E-13, E-14)."""
    out = [Effect(str(unit), Msg.of("game.effect.destroyed"), owner, lost=True)
           for unit in data.get("casualties") or [] if isinstance(unit, str)]
    markers = data.get("blast_markers")
    if isinstance(markers, int) and not isinstance(markers, bool) and markers:
        out.append(Effect(name, _markers(markers), owner, formation=True))
    if data.get("broken") is True:
        out.append(Effect(name, Msg.of("game.effect.broken"), owner, formation=True))
    return out


def _epic(entry: LogEntry, defender: str | None) -> list[Effect]:
    data = _outcome_data(entry)
    formations = data.get("formations")
    if isinstance(formations, dict):  # a barrage: each formation under its templates
        return [e for name, each in formations.items() if isinstance(each, dict)
                for e in _formation_effects(str(name), each)]
    if data.get("shot") is False or defender is None:
        return []
    return _formation_effects(defender, data)


def _cc(entry: LogEntry, _defender: str | None) -> list[Effect]:
    results = _outcome_data(entry).get("results")
    if not isinstance(results, dict):
        return []
    return [Effect(str(unit), Msg.of(f"cc.result.{result}"), lost=result == "eliminated")
            for unit, result in results.items()
            if result in ("suppressed", "broken", "eliminated")]


def _fow(entry: LogEntry, _defender: str | None) -> list[Effect]:
    """The results table (F-7): each team hit and what happened to it; of a whole assault,
    the teams' table after it (F-A16): each team whose state changed, on its platoon's
    side."""
    out = _fow_after(entry)
    for table in entry.result.get("tables", []):
        if not (isinstance(table, dict) and isinstance(table.get("title"), dict)
                and table["title"].get("msg") == "fow.table.results"):
            continue
        for row in table.get("rows", []):
            if not (isinstance(row, list) and len(row) > 2 and isinstance(row[2], dict)):
                continue
            outcomes = row[2].get("outcomes")
            if not isinstance(outcomes, list):
                continue
            for outcome in ("destroyed", "bailed-out"):
                if outcome in outcomes:
                    out.append(Effect(_text(row[0]), Msg.of(f"fow.result.{outcome}"),
                                      lost=outcome == "destroyed"))
                    break
    return out


def _lnlt(entry: LogEntry, _defender: str | None) -> list[Effect]:
    """Each damage check with an effect (L-5), the unit's owner read from the roster the
    entry began from (an Op Fire's targets are the side whose impulse it is)."""
    sides = _lnlt_sides(entry.before or {})
    impulse_side = (entry.about.get("attacker") if isinstance(entry.about.get("attacker"), str)
                    else None)
    out: list[Effect] = []
    for msg, params, data in _steps(entry):
        if msg != "lnlt.step.dc":
            continue
        result = data.get("result")
        if not isinstance(result, str) or result in ("no-effect", "good-order"):
            continue
        owner = (ATTACKER if impulse_side is not None
                 and sides.get(str(data.get("unit"))) == impulse_side else DEFENDER)
        out.append(Effect(_text(params.get("unit")), Msg.of(f"lnlt.result.{result}"), owner,
                          lost=result in ("eliminated", "destroyed")))
    return out


def _lnlt_sides(state: Mapping[str, Any]) -> dict[str, str]:
    phase = state.get("phase")
    roster = phase.get("roster") if isinstance(phase, dict) else None
    units = roster.get("units") if isinstance(roster, dict) else None
    return {str(u.get("id")): str(u.get("side")) for u in units or []
            if isinstance(u, dict)}


def _waw(entry: LogEntry, _defender: str | None) -> list[Effect]:
    out: list[Effect] = []
    for msg, params, _data in _steps(entry):
        if msg not in ("waw.step.effect", "waw.step.chem_effect"):
            continue
        after, before = params.get("after"), params.get("before")
        if not isinstance(after, dict) or not isinstance(after.get("msg"), str):
            continue
        if isinstance(before, dict) and before.get("msg") == after["msg"]:
            continue  # no change
        out.append(Effect(_text(params.get("unit")), Msg.of(after["msg"]),
                          lost=after["msg"] == "waw.status.eliminated"))
    return out


def _fow_after(entry: LogEntry) -> list[Effect]:
    declaration = (entry.replay or {}).get("declaration") or {}
    platoons = declaration.get("platoons") if isinstance(declaration, dict) else None
    sides = {str(p.get("name")): str(p.get("side")) for p in platoons or []
             if isinstance(p, dict)}
    out: list[Effect] = []
    for table in entry.result.get("tables", []):
        if not (isinstance(table, dict) and isinstance(table.get("title"), dict)
                and table["title"].get("msg") == "fow.table.after"):
            continue
        for row in table.get("rows", []):
            if not (isinstance(row, list) and len(row) > 4) or row[3] == row[4]:
                continue
            after = str(row[4])
            owner = ATTACKER if sides.get(str(row[1])) == "attacker" else DEFENDER
            out.append(Effect(_text(row[0]), Msg.of(f"fow.state.{after}"), owner,
                              lost=after == "destroyed"))
    return out


READERS: Mapping[str, Callable[[LogEntry, str | None], list[Effect]]] = {
    "epic-armageddon": _epic,
    "combat-commander": _cc,
    "flames-of-war": _fow,
    "lnl-tactical": _lnlt,
    "world-at-war": _waw,
}


def story(entry: LogEntry) -> Story:
    """An entry of the log told as the story of the game."""
    about = entry.about
    sides: Mapping[str, Any] = about.get("sides") or {}
    attacker = _text(about.get("attacker")) or None
    defender = _text(about.get("defender")) or None
    reader = READERS.get(entry.ruleset)
    effects = reader(entry, defender) if reader is not None else []
    return Story(entry, attacker, defender,
                 sides.get("attacker") if isinstance(sides.get("attacker"), str) else None,
                 sides.get("defender") if isinstance(sides.get("defender"), str) else None,
                 effects)


# How the story tells an attack, by the message of its declaring step (else "attacked").
VERBS: Mapping[str, str] = {
    "epic.step.declared": "shot",
    "epic.step.declared_full": "shot",
    "epic.step.declared_barrage": "barrage",
    "fow.step.declared": "assaulted",
    "fow.assault.declared": "assaulted",
}


def headline(told: Story) -> Msg:
    """Who attacked whom, each with its side where known (``Grey's Grey Company shot at Red's
    Red Hill Battery``); when the entry names no defending formation (a Combat Commander
    fire, a Lock 'n Load impulse, a World at War mission), its own title with the sides."""
    if told.attacker is None or told.defender is None:
        if told.attacker_side and told.defender_side:
            return Msg.of("game.story.sides", title=told.title, attacker=told.attacker_side,
                          defender=told.defender_side)
        return Msg.of("game.story.title", title=told.title)
    title = told.entry.about.get("title")
    declared = title.get("msg") if isinstance(title, dict) else None
    verb = VERBS.get(declared, "attacked") if isinstance(declared, str) else "attacked"
    return Msg.of(f"game.story.{verb}", attacker=_named(told.attacker, told.attacker_side),
                  defender=_named(told.defender, told.defender_side))


def _named(name: str, side: str | None) -> Msg | str:
    if side is None or side.casefold() == name.casefold():
        return name
    return Msg.of("game.story.named", name=name, side=side)


def effect_lines(told: Story) -> list[Msg]:
    """What the entry did, unit by unit, grouped by what happened: ``destroyed: Crew 1,
    Tractor``; ``Red Hill Battery: 3 Blast markers, broken``."""
    grouped: dict[str, tuple[Msg, list[str]]] = {}
    formations: dict[str, list[Msg]] = {}
    for effect in told.effects:
        if effect.formation:
            formations.setdefault(effect.unit, []).append(effect.what)
            continue
        key = repr((effect.what.id, effect.what.kwargs))
        grouped.setdefault(key, (effect.what, []))[1].append(effect.unit)
    out = [Msg.of("game.story.units", what=what, units=", ".join(units), count=len(units))
           for what, units in grouped.values()]
    out += [Msg.of("game.story.formation", formation=name, what=_joined(whats))
            for name, whats in formations.items()]
    return out


def _joined(whats: Sequence[Msg]) -> Msg | str:
    from referee.catalog import render

    return ", ".join(render(w) for w in whats)
