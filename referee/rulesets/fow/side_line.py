"""A side of a whole assault typed in one line: its groups of identical teams, separated by
commas, and its platoon's ratings (docs/rules/flames-of-war-assault.md).

Defending: ``3 inf rof 2, gun rof 2, tank top 1 bailed, veteran confident`` (``rof N``: the
dice of a team's defensive fire, F-A3). Charging: ``4 inf, tank top 2 fa, trained fearless
reroll concealed`` (``concealed``: from defensive fire, F-A4). Either side: ``at N`` and ``fp N``
(a card's anti-tank and firepower in assault, F-A12, F-A13), ``N+`` (a card's own assault score,
F-A9), ``reroll`` (a re-roll of a failed Motivation test, F-A20). A charging group may name the
defending teams it reaches (``d1 d2``; none named: every one), where it fights from at a
building (``door``, ``through``, ``inside``) and a priority type (``priority gun``, F-8).

A typed line and a scripted one are read by the same ``parse``; a wrong line is refused with one
line naming the part that is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets import lines
from referee.rulesets.fow.fight_line import span
from referee.rulesets.fow.line import tokens, vocabulary

MAX_TEAMS = 60
MAX_TOP = 20
VEHICLES = ("tank", "transport")
_SCORE = re.compile(r"^([2-6])\+$")
_GLUED = re.compile(r"^([^\W\d_]+)([0-9]{1,2})$")  # a word and its number: top1, rof2


def _refuse(key: str, **params: Any) -> AnswerError:
    return AnswerError(Msg.of(f"fow.side_entry.{key}", **params))


def _word(group: str, value: str) -> str:
    return vocabulary().show(group, value)


@dataclass(frozen=True)
class Group:
    """``count`` identical teams of one side."""

    count: int
    type: str
    status: str = "active"
    top: int | None = None
    building: bool = False
    fires: int = 0
    fully_armoured: bool = False
    priority: str | None = None
    reach: tuple[str, ...] | None = None  # None: every defending team
    situation: str | None = None
    anti_tank: int | None = None
    firepower: int | None = None
    hits_on: int | None = None


@dataclass(frozen=True)
class Side:
    """A side's line: its groups and its platoon's ratings."""

    groups: tuple[Group, ...]
    skill: str
    motivation: str
    reroll: bool = False
    concealed: bool = False
    name: str | None = None  # the platoon's, typed before a colon (``Grey Rifles: 4 inf, ...``)

    @property
    def teams(self) -> int:
        return sum(g.count for g in self.groups)


def _rating(ratings: dict[str, str], group: str, value: str, word: str) -> bool:
    """Take a Skill or Motivation word (once each); ``False``: the word is neither."""
    if group not in ("skill", "motivation"):
        return False
    if group in ratings:
        raise _refuse(f"two_{group}", part=word)
    ratings[group] = value
    return True


def _rated(ratings: dict[str, str]) -> None:
    """A platoon's line says both its ratings (F-A9, F-A18)."""
    for kind in ("skill", "motivation"):
        if kind not in ratings:
            raise _refuse(f"no_{kind}")


# the number a keyword takes: (its largest value, its smallest)
_NUMBERED = {"top": (MAX_TOP, 0), "rof": (20, 1), "anti-tank": (20, 0), "firepower": (6, 1)}


@dataclass(frozen=True, kw_only=True)
class SideQuestion(LineQuestion):
    """One side of a whole assault (``charging``: the assaulting side) in one line.
    ``team_ids``: the defending teams a charging group may name; ``buildings``: whether a
    defending team is in a building (F-10)."""

    charging: bool
    team_ids: tuple[str, ...] = ()
    buildings: bool = False
    transport_priority: bool = False
    max_length: int = 600
    taken: str | None = None  # the other platoon's name: not this one's too
    # the platoons the game keeps (case-folded): a new platoon is never given one's name,
    # which would put its teams on that platoon's side without asking
    kept: frozenset[str] = frozenset()

    def parse(self, text: str) -> Side:
        ratings: dict[str, str] = {}
        flags: set[str] = set()
        groups: list[Group] = []
        name, colon, rest = text.partition(":")
        name = " ".join(name.split())
        if colon and "," not in name and name:  # the platoon's name (issue 27)
            if len(name) > 80:
                raise _refuse("long_name", most=80)
            if self.taken is not None and name.casefold() == self.taken.casefold():
                raise _refuse("same_name", name=self.taken)
            if name.casefold() in self.kept:
                raise _refuse("kept_name", name=name)
            text = rest
        else:
            name = ""
        for segment in re.split(r"[,;]", text):
            parts = tokens(segment)
            if parts:
                group = self._segment(parts, ratings, flags)
                if group is not None:
                    groups.append(group)
        if not groups:
            raise _refuse("no_team")
        _rated(ratings)
        side = Side(tuple(groups), ratings["skill"], ratings["motivation"],
                    "reroll" in flags, "concealed" in flags, name or None)
        if side.teams > MAX_TEAMS:
            raise _refuse("too_many", count=side.teams, most=MAX_TEAMS)
        return side

    def _segment(self, parts: list[str], ratings: dict[str, str],
                 flags: set[str]) -> Group | None:
        said: dict[str, Any] = {}
        ids = {t.casefold(): t for t in self.team_ids}
        reach: list[str] = []
        i = 0
        while i < len(parts):
            part = parts[i]
            folded = part.casefold()
            named = span(folded, ids) if self.charging else None
            if named is not None:
                reach += [t for t in named if t not in reach]
                i += 1
                continue
            counted = lines.count(folded, before=True, digits=2)
            number = whole_number(part) if part.isascii() else None
            if counted is not None or (number is not None and "type" not in said):
                count = counted if counted is not None else number
                if "count" in said or ("type" in said and counted is None):
                    raise _refuse("two_counts", part=part)
                said["count"] = count
                i += 1
                continue
            if number is not None:
                raise _refuse("number_without_word", part=part)
            score = _SCORE.match(part)
            if score:
                said["hits_on"] = self._once(said, "hits_on", int(score.group(1)), part)
                i += 1
                continue
            glued = _GLUED.match(part)
            keyword = vocabulary().lookup([glued.group(1)], 0) if glued else None
            if glued and keyword is not None and keyword[0] == "word" and \
                    keyword[1] in _NUMBERED:
                said[keyword[1]] = self._number(said, keyword[1], part, int(glued.group(2)))
                said[f"{keyword[1]}_said"] = part
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown", part=part)
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if _rating(ratings, group, value, word):
                pass
            elif group == "word" and value in ("reroll", "concealed"):
                if value == "concealed" and not self.charging:
                    raise _refuse("concealed_defender", part=word)
                flags.add(value)
            elif group == "word" and value in _NUMBERED:
                if i >= len(parts) or not parts[i].isascii() or whole_number(parts[i]) is None:
                    raise _refuse("needs_number", part=word)
                said[f"{value}_said"] = f"{word} {parts[i]}"
                said[value] = self._number(said, value, said[f"{value}_said"], int(parts[i]))
                i += 1
            else:
                i = self._word(parts, i, group, value, word, said)
        if reach:
            said["reach"] = tuple(t for t in self.team_ids if t in reach)
        return self._group(said)

    def _word(self, parts: list[str], i: int, group: str, value: str, word: str,
              said: dict[str, Any]) -> int:
        """A word of a group (its type, status, building, Fully-Armoured, where it fights
        from, its priority type); the index of the part after it."""
        if group == "type":
            if value == "tank-escort" and not self.charging:
                raise _refuse("escort_defends", part=word)
            if value == "transport" and self.charging:
                raise _refuse("transport_charges", part=word)
            said["type"] = self._once(said, "type", value, word)
        elif group == "status" and not self.charging:
            said["status"] = self._once(said, "status", value, word)
            said["status_word"] = word
        elif (group, value) == ("word", "building") and not self.charging:
            said["building"] = word
        elif (group, value) == ("word", "fully-armoured") and self.charging:
            said["fa"] = word
        elif group == "situation" and self.charging:
            said["situation"] = self._once(said, "situation", value, word)
            said["situation_word"] = word
        elif (group, value) == ("word", "priority") and self.charging:
            found = vocabulary().lookup(parts, i) if i < len(parts) else None
            if found is None or found[0] != "type" or found[1] == "tank-escort":
                raise _refuse("priority_type", part=word)
            if found[1] == "transport" and not self.transport_priority:
                raise _refuse("transport_priority", part=f"{word} {parts[i]}")
            said["priority"] = self._once(said, "priority", found[1], word)
            return i + found[2]
        else:
            raise _refuse("unknown", part=word)
        return i

    @staticmethod
    def _once(said: dict[str, Any], key: str, value: Any, part: str) -> Any:
        if key in said:
            raise _refuse("twice", part=part)
        return value

    def _number(self, said: dict[str, Any], key: str, part: str, value: int) -> int:
        if key in said:
            raise _refuse("twice", part=part)
        if key == "rof" and self.charging:
            raise _refuse("rof_charging", part=part)
        most, least = _NUMBERED[key]
        if not least <= value <= most:
            raise _refuse("range", part=part, least=least, most=most)
        return value

    def _group(self, said: dict[str, Any]) -> Group | None:
        if "type" not in said:
            extra = [k for k in said if k not in ("reach",)]
            if extra:
                raise _refuse("no_type")
            return None  # a segment of ratings only
        kind = said["type"]
        vehicle = kind in VEHICLES
        count = said.get("count", 1)
        if count < 1:
            raise _refuse("count_zero", part=str(count))
        if "top" in said and kind != "tank" and not (kind == "transport" and not
                                                      self.charging):
            raise _refuse("top_not_vehicle", part=said["top_said"])
        if said.get("status", "active") != "active" and not vehicle:
            raise _refuse("status_not_vehicle", part=said["status_word"])
        if "building" in said and vehicle:
            raise _refuse("vehicle_in_building", part=said["building"])
        if "fa" in said and kind not in ("tank", "tank-escort"):
            raise _refuse("fa_not_tank", part=said["fa"])
        if "rof" in said and (kind == "transport" or said.get("status") == "bailed-out"):
            raise _refuse("cannot_fire", part=said["rof_said"])
        situation = said.get("situation")
        if situation is not None and kind == "tank":
            raise _refuse("tank_situation", part=said["situation_word"])
        if situation in ("outside-at-opening", "inside") and not self.buildings:
            raise _refuse("no_building", part=said["situation_word"])
        return Group(count, kind, said.get("status", "active"), said.get("top"),
                     "building" in said, said.get("rof", 0), "fa" in said,
                     said.get("priority"), said.get("reach"), situation,
                     said.get("anti-tank"), said.get("firepower"), said.get("hits_on"))

    def format(self, value: Side) -> str:
        line = ", ".join([*(self._format_group(g) for g in value.groups),
                          self._format_ratings(value)])
        return f"{value.name}: {line}" if value.name else line

    def _format_ratings(self, value: Side) -> str:
        words = [_word("skill", value.skill), _word("motivation", value.motivation)]
        if value.reroll:
            words.append(_word("word", "reroll"))
        if value.concealed:
            words.append(_word("word", "concealed"))
        return " ".join(words)

    @staticmethod
    def _format_group(g: Group) -> str:
        parts = [str(g.count)] if g.count > 1 else []
        parts.append(_word("type", g.type))
        if g.status != "active":
            parts.append(_word("status", g.status))
        if g.top is not None:
            parts += [_word("word", "top"), str(g.top)]
        if g.fully_armoured:
            parts.append(_word("word", "fully-armoured"))
        if g.building:
            parts.append(_word("word", "building"))
        if g.fires:
            parts += [_word("word", "rof"), str(g.fires)]
        if g.priority is not None:
            parts += [_word("word", "priority"), _word("type", g.priority)]
        if g.situation is not None:
            parts.append(_word("situation", g.situation))
        if g.anti_tank is not None:
            parts += [_word("word", "anti-tank"), str(g.anti_tank)]
        if g.firepower is not None:
            parts += [_word("word", "firepower"), str(g.firepower)]
        if g.hits_on is not None:
            parts.append(f"{g.hits_on}+")
        if g.reach is not None:
            parts += list(g.reach)
        return " ".join(parts)


@dataclass(frozen=True, kw_only=True)
class RatingsQuestion(LineQuestion):
    """A platoon's ratings when its roster gives none: ``trained confident``, with
    ``reroll`` where a commander or special rule allows a re-roll of a failed test."""

    def parse(self, text: str) -> tuple[str, str, bool]:
        ratings: dict[str, str] = {}
        reroll = False
        parts = tokens(text)
        i = 0
        while i < len(parts):
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_rating", part=parts[i])
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if _rating(ratings, group, value, word):
                continue
            if (group, value) != ("word", "reroll"):
                raise _refuse("unknown_rating", part=word)
            reroll = True
        _rated(ratings)
        return ratings["skill"], ratings["motivation"], reroll

    def format(self, value: tuple[str, str, bool]) -> str:
        words = [_word("skill", value[0]), _word("motivation", value[1])]
        if value[2]:
            words.append(_word("word", "reroll"))
        return " ".join(words)
