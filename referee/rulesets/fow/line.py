"""Compact lines: a defending team or a group of identical ones (``3 inf``,
``tank bailed top 1``), a hitting team or a group (``3 hits``, ``2 hits tank fa priority
inf d1 d2``), the names of a side's teams, and the exceptions of a roster's teams (``k1
bailed, r2 building``).

Each is a ``LineQuestion``: a typed line and a scripted one are read by the same ``parse``,
and a wrong line is refused with one line naming the part that is wrong. The words are read
in every language (``rulesets/flames-of-war/words.toml``, read by ``referee.rulesets.lines``); a
value is shown in the session's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets import lines

RULESET_ID = "flames-of-war"

VEHICLES = ("tank", "transport")
MAX_TEAMS = 60  # a side's teams in one assault (the declaration's limit)
MAX_HITS = 60
MAX_TOP = 20
_GROUP = re.compile(rf"^([0-9]{{1,3}})[{lines.TIMES}]([0-9]{{1,3}})$")  # 2x3: teams, hits
_GLUED = re.compile(r"^([^\W\d_]+)([0-9]{1,3})$")  # a word and its number: top1


def vocabulary() -> lines.Words:
    """The words of the lines (``rulesets/flames-of-war/words.toml``)."""
    return lines.words(RULESET_ID)


def tokens(text: str) -> list[str]:
    """A line's parts: split at blanks, commas and semicolons."""
    return lines.tokens(text, blanks=",;", names=False)


def _refuse(key: str, **params: Any) -> AnswerError:
    return AnswerError(Msg.of(f"fow.entry.{key}", **params))


def _once(before: str | None, value: str, key: str, word: str) -> str:
    """``value``, said once: a second word of its kind is refused (``key``)."""
    if before is not None:
        raise _refuse(key, part=word)
    return value


def _number(token: str) -> int | None:
    return whole_number(token) if token.isascii() else None


def _word(group: str, value: str) -> str:
    return vocabulary().show(group, value)


def done_line() -> str:
    """The line that ends a list of teams (what Enter takes), in the session's language."""
    return _word("word", "done")


def none_line() -> str:
    """The line that says "none" (what Enter takes for a roster's exceptions)."""
    return _word("word", "none")


def all_line() -> str:
    """The line that says "all" (what Enter takes for a roster's defending teams)."""
    return _word("word", "all")


def _done(text: str) -> bool:
    return vocabulary().lookup([text], 0) in (("word", "done", 1), ("word", "none", 1))


# --- defending teams -----------------------------------------------------------------------

@dataclass(frozen=True)
class DefenderLine:
    """One line of defending teams: ``count`` identical teams."""

    count: int
    type: str
    status: str = "active"
    top: int | None = None
    building: bool = False


@dataclass(frozen=True, kw_only=True)
class DefenderQuestion(LineQuestion):
    """A defending team or a group of identical ones; with ``optional``, the answer ``done``
    (Enter) ends the list (``None``)."""

    room: int = MAX_TEAMS  # how many more teams the side may have
    optional: bool = False

    def parse(self, text: str) -> DefenderLine | None:
        if self.optional and _done(text):
            return None
        parts = tokens(text)
        count: int | None = None
        kind: str | None = None
        status: str | None = None
        top: int | None = None
        building = False
        said: dict[str, str] = {}  # the words as typed, to name in a refusal
        i = 0
        while i < len(parts):
            part = parts[i]
            number = _number(part)
            counted = lines.count(part, before=True, digits=3)
            if number is not None or counted is not None:
                value = number if number is not None else counted
                assert value is not None
                if kind is None and count is None:
                    count = value
                elif kind is None or counted is not None:
                    raise _refuse("two_counts", part=part)
                else:
                    top = self._top(part, value, kind, top)
                i += 1
                continue
            glued = _GLUED.match(part)
            if glued and vocabulary().lookup([glued.group(1)], 0) == ("word", "top", 1):
                top = self._top(part, int(glued.group(2)), kind, top)
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_defender", part=part)
            group, value_id, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if group == "type":
                if value_id == "tank-escort":
                    raise _refuse("escort_defends", part=word)
                kind = _once(kind, value_id, "two_types", word)
            elif group == "status":
                status, said["status"] = _once(status, value_id, "two_statuses", word), word
            elif (group, value_id) == ("word", "top"):
                if i >= len(parts) or _number(parts[i]) is None:
                    raise _refuse("top_number", part=word)
                top = self._top(f"{word} {parts[i]}", int(parts[i]), kind, top)
                i += 1
            elif (group, value_id) == ("word", "building"):
                building, said["building"] = True, word
            else:
                raise _refuse("unknown_defender", part=word)
        if kind is None:
            raise _refuse("no_type")
        count = 1 if count is None else count
        if count < 1:
            raise _refuse("count_zero", part=str(count))
        if count > self.room:
            raise _refuse("too_many", count=count, most=MAX_TEAMS, room=self.room)
        vehicle = kind in VEHICLES
        if status is not None and status != "active" and not vehicle:
            raise _refuse("status_not_vehicle", part=said["status"])
        if top is not None and not vehicle:
            raise _refuse("top_not_vehicle", part=str(top))
        if building and vehicle:
            raise _refuse("vehicle_in_building", part=said["building"])
        return DefenderLine(count, kind, status or "active", top, building)

    @staticmethod
    def _top(part: str, value: int, kind: str | None, before: int | None) -> int:
        if kind is not None and kind not in VEHICLES:
            raise _refuse("top_not_vehicle", part=part)
        if before is not None:
            raise _refuse("two_tops", part=part)
        if not 0 <= value <= MAX_TOP:
            raise _refuse("top_range", part=part, most=MAX_TOP)
        return value

    def format(self, value: DefenderLine | None) -> str:
        if value is None:
            return _word("word", "done")
        parts = [str(value.count)] if value.count > 1 else []
        parts.append(_word("type", value.type))
        if value.status != "active":
            parts.append(_word("status", value.status))
        if value.top is not None:
            parts += [_word("word", "top"), str(value.top)]
        if value.building:
            parts.append(_word("word", "building"))
        return " ".join(parts)


# --- hitting teams -------------------------------------------------------------------------

@dataclass(frozen=True)
class HitterLine:
    """One line of hitting teams: ``count`` identical teams with ``hits`` hits each.
    ``reach`` ``None``: every defending team; ``situation`` ``None``: not said."""

    count: int
    hits: int
    type: str = "infantry"
    fully_armoured: bool = False
    priority: str | None = None
    reach: tuple[str, ...] | None = None
    situation: str | None = None


@dataclass(frozen=True, kw_only=True)
class HitterQuestion(LineQuestion):
    """A hitting team or a group of identical ones. ``team_ids``: the defending teams a
    reach may name; ``buildings``: whether a defending team is in a building (F-10);
    ``known_type``: the type a roster gives (then no type, Fully-Armoured or count is
    typed)."""

    team_ids: tuple[str, ...]
    room: int = MAX_TEAMS
    optional: bool = False
    buildings: bool = False
    transport_priority: bool = False
    known_type: str | None = None
    known_fa: bool = field(default=False)

    def parse(self, text: str) -> HitterLine | None:
        if self.optional and _done(text):
            return None
        parts = tokens(text)
        count: int | None = None
        hits: int | None = None
        kind: str | None = None
        fa = False
        priority: str | None = None
        reach: list[str] = []
        every = False
        situation: str | None = None
        said: dict[str, str] = {}  # the words as typed, to name in a refusal
        ids = {t.casefold(): t for t in self.team_ids}
        i = 0
        while i < len(parts):
            part = parts[i]
            folded = part.casefold()
            named = (ids[folded],) if folded in ids else self._span(folded, ids)
            if named is not None:
                for team in named:
                    if team in reach:
                        raise _refuse("team_twice", part=part)
                    reach.append(team)
                i += 1
                continue
            number = _number(part)
            group_match = _GROUP.match(folded)
            counted = lines.count(folded, before=True, digits=3)
            if group_match or counted is not None:
                if self.known_type is not None:
                    raise _refuse("roster_count", part=part)
                if count is not None:
                    raise _refuse("two_counts", part=part)
                if group_match:
                    count, number = int(group_match.group(1)), int(group_match.group(2))
                else:
                    count = counted
                    i += 1
                    continue
            if number is not None:
                if hits is not None:
                    raise _refuse("two_hits", part=part)
                if not 0 <= number <= MAX_HITS:
                    raise _refuse("hits_range", part=part, most=MAX_HITS)
                hits = number
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_hitter", part=part, ids=_ids(self.team_ids))
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if group == "type":
                if self.known_type is not None:
                    raise _refuse("roster_type", part=word)
                if value == "transport":
                    raise _refuse("transport_hits", part=word)
                kind = _once(kind, value, "two_types", word)
            elif group == "situation":
                situation = _once(situation, value, "two_situations", word)
                said["situation"] = word
            elif (group, value) == ("word", "priority"):
                priority = self._priority(parts, i, word, priority)
                i += 1
            elif (group, value) == ("word", "fully-armoured"):
                if self.known_type is not None:
                    raise _refuse("roster_type", part=word)
                fa, said["fa"] = True, word
            elif (group, value) == ("word", "all"):
                every, said["all"] = True, word
            elif group == "word" and value in ("hits", "hit"):
                continue  # "3 hits": the word only says what the number is
            else:
                raise _refuse("unknown_hitter", part=word, ids=_ids(self.team_ids))
        return self._checked(count, hits, kind, fa, priority, reach, every, situation, said)

    def _priority(self, parts: list[str], i: int, said: str, before: str | None) -> str:
        found = vocabulary().lookup(parts, i) if i < len(parts) else None
        if found is None or found[0] != "type" or found[1] == "tank-escort" or found[2] != 1:
            raise _refuse("priority_type", part=said)
        if before is not None:
            raise _refuse("two_priorities", part=f"{said} {parts[i]}")
        if found[1] == "transport" and not self.transport_priority:
            raise _refuse("transport_priority", part=f"{said} {parts[i]}")
        return found[1]

    @staticmethod
    def _span(folded: str, ids: dict[str, str]) -> tuple[str, ...] | None:
        """``d1-d3``: the teams from the first to the last, in the order declared."""
        first, sep, last = folded.partition("-")
        if not sep or first not in ids or last not in ids:
            return None
        order = list(ids)
        a, b = order.index(first), order.index(last)
        return tuple(ids[t] for t in order[min(a, b):max(a, b) + 1])

    def _checked(self, count: int | None, hits: int | None, kind: str | None, fa: bool,
                 priority: str | None, reach: list[str], every: bool,
                 situation: str | None, said: dict[str, str]) -> HitterLine:
        kind = self.known_type or kind or "infantry"
        fa = fa or self.known_fa
        count = 1 if count is None else count
        if hits is None:
            raise _refuse("no_hits")
        if count < 1:
            raise _refuse("count_zero", part=str(count))
        if count > self.room:
            raise _refuse("too_many", count=count, most=MAX_TEAMS, room=self.room)
        if fa and kind not in ("tank", "tank-escort"):
            raise _refuse("fa_not_tank", part=said["fa"])
        if every and reach:
            raise _refuse("all_and_teams", part=said["all"])
        if kind == "tank" and situation not in (None, "open"):
            raise _refuse("tank_situation", part=said["situation"])
        if situation in ("outside-at-opening", "inside"):
            if not self.buildings:
                raise _refuse("no_building", part=said["situation"])
            if reach:
                raise _refuse("building_decides", part=" ".join(reach))
        ordered = tuple(t for t in self.team_ids if t in reach)
        return HitterLine(count, hits, kind, fa, priority,
                          ordered if reach and len(ordered) < len(self.team_ids) else None,
                          situation)

    def format(self, value: HitterLine | None) -> str:
        if value is None:
            return _word("word", "done")
        parts = [f"{value.count}×"] if value.count > 1 else []
        parts += [str(value.hits), _word("word", "hit" if value.hits == 1 else "hits")]
        if self.known_type is None and value.type != "infantry":
            parts.append(_word("type", value.type))
        if self.known_type is None and value.fully_armoured:
            parts.append(_word("word", "fully-armoured"))
        if value.priority is not None:
            parts += [_word("word", "priority"), _word("type", value.priority)]
        if value.situation is not None:
            parts.append(_word("situation", value.situation))
        if value.situation not in ("outside-at-opening", "inside"):
            parts += list(value.reach) if value.reach is not None else [_word("word", "all")]
        return " ".join(parts)


def _ids(ids: tuple[str, ...]) -> str:
    return ", ".join(ids) if len(ids) <= 6 else f"{ids[0]}-{ids[-1]}"


# --- names ---------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class NamesQuestion(LineQuestion):
    """The names of a side's teams, in order, separated by commas; ``-`` (or Enter for all)
    keeps a team's default label."""

    defaults: tuple[str, ...]
    max_length: int = 4000

    def parse(self, text: str) -> tuple[str, ...]:
        if text == self.format(self.defaults):
            return self.defaults
        items = [" ".join(item.split()) for item in text.split(",")]
        if len(items) != len(self.defaults):
            raise _refuse("names_count", expected=len(self.defaults), got=len(items))
        names = []
        for item, default in zip(items, self.defaults, strict=True):
            if not item:
                raise _refuse("name_empty")
            if len(item) > 60:
                raise _refuse("name_long", part=item[:20], most=60)
            names.append(default if item == "-" else item)
        if len(set(names)) < len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise _refuse("name_twice", part=twice)
        return tuple(names)

    def format(self, value: tuple[str, ...]) -> str:
        return ", ".join(value)


# --- a roster's teams -----------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class TeamsQuestion(LineQuestion):
    """Some of a roster's teams, by id (``p1 p2``, ``r1-r3``), or ``all`` where
    ``every`` allows it; with ``sides`` (each team's side), all of one side."""

    team_ids: tuple[str, ...]
    every: bool = False
    sides: tuple[tuple[str, str], ...] = ()

    def parse(self, text: str) -> tuple[str, ...]:
        parts = tokens(text)
        if self.every and len(parts) == 1 and vocabulary().lookup(parts, 0) == (
                "word", "all", 1):
            return self.team_ids
        ids = {t.casefold(): t for t in self.team_ids}
        picked: list[str] = []
        for part in parts:
            folded = part.casefold()
            named = (ids[folded],) if folded in ids else HitterQuestion._span(folded, ids)
            if named is None:
                raise _refuse("unknown_team", part=part, ids=_ids(self.team_ids))
            for team in named:
                if team in picked:
                    raise _refuse("team_twice", part=part)
                picked.append(team)
        side = dict(self.sides)
        found = list(dict.fromkeys(side[t] for t in picked if t in side))
        if len(found) > 1:
            raise _refuse("two_sides", sides=", ".join(found))
        return tuple(t for t in self.team_ids if t in picked)

    def format(self, value: tuple[str, ...]) -> str:
        if self.every and value == self.team_ids:
            return _word("word", "all")
        return " ".join(value)


# --- a roster's teams: what the roster cannot know -----------------------------------------

@dataclass(frozen=True, kw_only=True)
class ExceptionsQuestion(LineQuestion):
    """Which of a roster's defending teams are Bogged Down, Bailed Out or in a building in
    this assault (``k1 bailed, r2 building``); ``none`` (Enter) for none. The value: each
    team named, with its status and whether it is in the building."""

    team_ids: tuple[str, ...]
    vehicles: tuple[str, ...]  # the teams among them that are tanks or transports

    def parse(self, text: str) -> tuple[tuple[str, str, bool], ...]:
        if _done(text):
            return ()
        parts = tokens(text)
        ids = {t.casefold(): t for t in self.team_ids}
        said: dict[str, list[Any]] = {}
        current: str | None = None
        i = 0
        while i < len(parts):
            part = parts[i]
            if part.casefold() in ids:
                current = ids[part.casefold()]
                if current in said:
                    raise _refuse("team_twice", part=part)
                said[current] = ["active", False]
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_exception", part=part, ids=_ids(self.team_ids))
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if current is None:
                raise _refuse("exception_no_team", part=word)
            vehicle = current in self.vehicles
            if group == "status":
                if not vehicle and value != "active":
                    raise _refuse("status_not_vehicle", part=f"{current} {word}")
                said[current][0] = value
            elif (group, value) == ("word", "building"):
                if vehicle:
                    raise _refuse("vehicle_in_building", part=f"{current} {word}")
                said[current][1] = True
            else:
                raise _refuse("unknown_exception", part=word, ids=_ids(self.team_ids))
        for team, (status, building) in said.items():
            if status == "active" and not building:
                raise _refuse("exception_empty", part=team)
        return tuple((t, s, b) for t in self.team_ids if t in said for s, b in [said[t]])

    def format(self, value: tuple[tuple[str, str, bool], ...]) -> str:
        if not value:
            return _word("word", "none")
        out = []
        for team, status, building in value:
            words = [team]
            if status != "active":
                words.append(_word("status", status))
            if building:
                words.append(_word("word", "building"))
            out.append(" ".join(words))
        return ", ".join(out)
