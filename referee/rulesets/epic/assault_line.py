"""An assault's formations typed at the table in one line each (issue 29): the formation's
name before a colon (optional), its Blast markers (``bm1``), then a group of alike units a
part, parts apart by commas: ``Grey Company: bm1, 4 inf 4+ cc4 ff5 contact, 2 inf 5+ cc5
ff4 10`` (four infantry in base contact, two more 10 cm from the nearest enemy).

A group: how many, the type (``inf``, ``lv``, ``av``, ``we``), the armour save (``4+`` or
``-``), the close combat and firefight values (``cc4``, ``ff5``; left out: none), where it
stands after the charges (``contact``; a distance in cm within 15 with a line of fire; ``out``
for neither), the ground (a defender's cover save), and its abilities: ``ra``, ``inv``,
``fearless``, ``insp``, ``exp`` (expendable), ``leader``, ``fs`` (first strike), extra attacks
``+1cc`` / ``+d3ff`` (``mw`` and ``fs`` then apply to the extra attacks alone, E-A15), a war
engine's ``dc3`` and void shields ``vs2``, and ``reach`` for units that may reach base contact
(the charging player is asked whether they do, with the odds of each). ``same`` repeats the
group before. The words are read in English and Russian alike (``words.toml``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets.epic.line import (
    SAVE_TOKEN,
    Fields,
    distance_of,
    given_twice,
    group_count,
    named_thing,
    prefixed_value,
    shown_word,
    split_groups,
    typed_in_russian,
    unknown_part,
    words,
)
from referee.rulesets.lines import fold

MAX_UNITS = 60
ENGAGED_CM = 15  # E-A3: firefight reaches 15 cm
FLAGS = ("reinforced", "invulnerable", "fearless", "inspiring", "expendable", "leader")
_EXTRA = re.compile(r"^\+(\d|d3|d6|д3|д6)(.+)$")


@dataclass(frozen=True)
class Extra:
    """Extra attacks (E-A15): how many (a number, or ``d3``/``d6``), close combat or
    firefight, and whether they are macro-weapon or first strike attacks."""

    count: int | str
    kind: str  # cc, ff
    macro: bool = False
    first_strike: bool = False

    def text(self, ru: bool) -> str:
        kind = shown_word("assault_value", self.kind, ru)
        flags = [shown_word(s, f, ru) for s, f, on in
                 (("flag", "macro", self.macro), ("assault", "first_strike", self.first_strike))
                 if on]
        return " ".join([f"+{self.count}{kind}", *flags])


@dataclass(frozen=True)
class FightGroup:
    """Alike units of an assault: their values, saves, abilities and where they stand."""

    count: int
    type: str
    armour: int | None
    cc: int | None = None
    ff: int | None = None
    contact: bool = False
    distance: float | None = None  # cm to the nearest enemy, within 15 (None: contact/out)
    engaged: bool = True  # within 15 cm with a line of fire (contact: yes)
    reach: bool = False  # may reach base contact: the charging player is asked
    terrain: str = "open"
    reinforced: bool = False
    invulnerable: bool = False
    fearless: bool = False
    inspiring: bool = False
    expendable: bool = False
    leader: bool = False
    first_strike: bool = False
    extras: tuple[Extra, ...] = ()
    dc: int | None = None
    shields: int = 0
    ru: bool = field(default=False, compare=False)

    def line(self) -> str:
        ru = self.ru
        parts = [str(self.count), shown_word("type", self.type, ru),
                 "-" if self.armour is None else f"{self.armour}+"]
        for key, value in (("cc", self.cc), ("ff", self.ff), ("dc", self.dc),
                           ("shields", self.shields or None)):
            if value is not None:
                parts.append(f"{shown_word('assault_value', key, ru)}{value}")
        if self.terrain != "open":
            parts.append(shown_word("terrain", self.terrain, ru))
        if self.contact:
            parts.append(shown_word("assault", "contact", ru))
        elif not self.engaged:
            parts.append(shown_word("flag", "out", ru))
        else:
            if self.reach:
                parts.append(shown_word("assault", "reach", ru))
            parts.append(f"{self.distance:g}")
        for flag in FLAGS:
            if getattr(self, flag):
                section = "flag" if flag in ("reinforced", "invulnerable") else "assault"
                parts.append(shown_word(section, flag, ru))
        if self.first_strike:
            parts.append(shown_word("assault", "first_strike", ru))
        parts += [e.text(ru) for e in self.extras]
        return " ".join(parts)


@dataclass(frozen=True)
class AssaultLine:
    """A formation's line: its name (None: the label), its Blast markers (None: not
    given), its groups."""

    name: str | None
    markers: int | None
    groups: tuple[FightGroup, ...]

    def line(self) -> str:
        ru = any(g.ru for g in self.groups)
        parts = ([f"{shown_word('assault_value', 'markers', ru)}{self.markers}"]
                 if self.markers is not None else [])
        parts += [g.line() for g in self.groups]
        body = ", ".join(parts)
        return f"{self.name}: {body}" if self.name else body


def _extra(token: str) -> Extra | None:
    m = _EXTRA.match(token)
    if m is None:
        return None
    count_text, kind_word = m.group(1), m.group(2)
    kind = next((k for k, ws in words()["assault_value"].items()
                 if k in ("cc", "ff") and kind_word in ws), None)
    if kind is None:
        return None
    count: int | str = int(count_text) if count_text.isdigit() else "d" + count_text[1:]
    if count == 0:
        raise AnswerError(Msg.of("epic.assault.entry.extra_zero", part=token))
    return Extra(count, kind)


def fight_group(tokens: list[str], previous: FightGroup | None, ru: bool,
                charging: bool) -> FightGroup:
    """One group of an assault line (``charging``: of the side that engages: ``reach`` is
    allowed, and its infantry take no cover save, so the ground is refused: E-A5)."""
    count, rest = group_count(tokens, MAX_UNITS)
    got = Fields()
    extras: list[Extra] = []
    base: FightGroup | None = None
    flags_after: list[tuple[str, str]] = []  # mw, fs: on the extra attacks, if any
    for token in rest:
        save = SAVE_TOKEN.match(token)
        if save is not None:
            if not 2 <= int(save.group(1)) <= 6:
                raise AnswerError(Msg.of("epic.entry.bad_save", part=token))
            got.put("armour", int(save.group(1)), token, "save")
            continue
        value = prefixed_value(token, "assault_value")
        if value is not None:
            thing, number = value[0], int(value[1])
            if thing in ("cc", "ff") and not 2 <= number <= 6:
                raise AnswerError(Msg.of("epic.assault.entry.bad_value", part=token))
            if thing == "dc" and not 1 <= number <= 20:
                raise AnswerError(Msg.of("epic.assault.entry.bad_dc", part=token))
            if thing == "markers":
                raise AnswerError(Msg.of("epic.assault.entry.markers_first", part=token))
            got.put(thing, number, token, "value")
            continue
        extra = _extra(token)
        if extra is not None:
            extras.append(extra)
            continue
        distance = distance_of(token)
        if distance is not None:
            if distance > ENGAGED_CM:
                raise AnswerError(Msg.of("epic.assault.entry.beyond_15", part=token))
            got.put("distance", distance, token, "distance")
            continue
        named = named_thing(token, "type", "terrain", "flag", "assault")
        if named is None:
            raise unknown_part(token, "assault")
        section, thing = named
        if section == "type":
            got.put("type", thing, token, "type")
        elif section == "terrain":
            if charging:
                raise AnswerError(Msg.of("epic.assault.entry.charging_cover", part=token))
            got.put("terrain", thing, token, "terrain")
        elif thing == "same":
            if previous is None:
                raise AnswerError(Msg.of("epic.entry.same_first", part=token))
            base = previous
        elif thing == "none":
            got.put("armour", None, token, "save")
        elif thing == "out":
            got.put("engaged", False, token, "flag")
        elif thing == "contact":
            got.put("contact", True, token, "flag")
        elif thing == "reach":
            if not charging:
                raise AnswerError(Msg.of("epic.assault.entry.reach_defender", part=token))
            got.put("reach", True, token, "flag")
        elif thing in ("macro", "first_strike"):
            flags_after.append((thing, token))
        elif thing in FLAGS:
            got.put(thing, True, token, "flag")
        else:
            raise unknown_part(token, "assault")
    for thing, token in flags_after:
        if extras and thing == "macro":
            extras[-1] = replace(extras[-1], macro=True)
        elif extras:
            extras[-1] = replace(extras[-1], first_strike=True)
        elif thing == "first_strike":
            got.put("first_strike", True, token, "flag")
        else:  # a macro-weapon in an assault is a weapon with extra attacks (E-A15)
            raise AnswerError(Msg.of("epic.assault.entry.macro_without_extra", part=token))
    if base is None:
        if "type" not in got:
            raise AnswerError(Msg.of("epic.entry.no_type"))
        if "armour" not in got:
            raise AnswerError(Msg.of("epic.entry.no_save"))
        base = FightGroup(1, got["type"], got["armour"])
    else:
        base = replace(base, contact=False, distance=None, engaged=True, reach=False)
    if extras:
        got["extras"] = tuple(extras)
    group = replace(base, count=count or 1, ru=ru, **got)
    if group.type == "WE" and group.dc is None:
        raise AnswerError(Msg.of("epic.assault.entry.we_needs_dc"))
    if group.type != "WE" and (group.dc is not None or group.shields):
        raise AnswerError(Msg.of("epic.assault.entry.dc_not_we"))
    if group.contact and (group.distance is not None or not group.engaged):
        raise AnswerError(Msg.of("epic.assault.entry.contact_and_distance"))
    if not group.contact and group.engaged and group.distance is None:
        raise AnswerError(Msg.of("epic.assault.entry.where"))
    if group.reach and not (group.engaged and not group.contact):
        raise AnswerError(Msg.of("epic.assault.entry.reach_where"))
    return group


@dataclass(frozen=True, kw_only=True)
class AssaultQuestion(LineQuestion):
    """A formation's whole line (see the module's docstring). ``charging``: the side that
    engages; ``named``: a name before a colon is allowed (typed without a roster)."""

    charging: bool = False
    named: bool = True
    max_length: int = 4000

    def parse(self, text: str) -> AssaultLine:
        name: str | None = None
        body = text
        if self.named and ":" in text:
            name, _, body = text.partition(":")
            name = name.strip() or None
        ru = typed_in_russian(body)
        body = re.sub(r"(?<!\w)(cc|ff|dc|vs|bm|бб|пр|зп|пщ|бл)\s+(\d)", r"\1\2", fold(body))
        markers: int | None = None
        groups: list[FightGroup] = []
        previous: FightGroup | None = None
        for tokens in split_groups(body):
            value = prefixed_value(tokens[0], "assault_value") if len(tokens) == 1 else None
            if value is not None and value[0] == "markers":
                if markers is not None:
                    raise given_twice(tokens[0], "markers")
                if groups:
                    raise AnswerError(Msg.of("epic.assault.entry.markers_first",
                                             part=tokens[0]))
                markers = int(value[1])
                if markers > 99:
                    raise AnswerError(Msg.of("epic.assault.entry.bad_markers", part=tokens[0]))
                continue
            previous = fight_group(tokens, previous, ru, self.charging)
            groups.append(previous)
        if not groups:
            raise AnswerError(Msg.of("epic.assault.entry.no_units"))
        total = sum(g.count for g in groups)
        if total > MAX_UNITS:
            raise AnswerError(Msg.of("epic.entry.too_many_units", count=total, most=MAX_UNITS))
        return AssaultLine(name, markers, tuple(groups))

    def format(self, value: AssaultLine) -> str:
        return value.line()


def to_units(line: AssaultLine, prefix: str = "unit") -> list[dict[str, Any]]:
    """The line's units as a declaration's (``AssaultUnit``), numbered ``unit-1``... and
    grouped by the part of the line they came from."""
    units: list[dict[str, Any]] = []
    for i, g in enumerate(line.groups, 1):
        for _ in range(g.count):
            n = len(units) + 1
            unit: dict[str, Any] = {
                "name": f"{prefix}-{n}", "number": n, "group": f"line-{i}", "type": g.type,
                "armour": g.armour, "cc": g.cc, "ff": g.ff, "contact": g.contact,
                "engaged": g.contact or g.engaged,
                "distance": 0.0 if g.contact else (g.distance if g.engaged else None),
                "terrain": g.terrain, "reach": g.reach,
                "extra": [{"kind": e.kind, "count": e.count, "macro": e.macro,
                           "first_strike": e.first_strike} for e in g.extras],
                **{f: getattr(g, f) for f in (*FLAGS, "first_strike")}}
            if g.type == "WE":
                unit.update(dc=g.dc, void_shields=g.shields)
            units.append(unit)
    return units
