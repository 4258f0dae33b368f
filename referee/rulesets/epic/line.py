"""Compact lines at the table (issue 14): a group of alike units in one answer.

Three kinds of line, each read by its question (a ``LineQuestion``: the one validation path
for typed and scripted answers) and refused with a one-line reason naming the part that is
wrong:

* a group of target units: ``3 inf 6+ woods 30`` (three infantry units, save 6+, in woods,
  30 cm from the nearest attacker); ``2 av 4+ 25``; ``inf - 15 ra`` (one unit, no armour save,
  reinforced); ``2 same 40`` (two more like the line before, 40 cm away); ``out`` for units
  out of range or line of fire (they need no distance), ``clear`` for units a barrage's
  templates miss;
* a group of firing units (or weapons): ``4 ap4`` (four AP4+ shots), ``2 at4 mw``,
  ``3 2x ap5 + at6/ap5 20`` (three units, each with two AP5+ weapons and one AP5+/AT6+
  weapon, 20 cm from the target: the distance is needed when Blast markers suppress the
  farthest units, E-4), ``bp3`` (a barrage weapon of 3 barrage points);
* where a formation's units stand, in the order of its roster: ``4 20, 2 woods 25`` (four
  units 20 cm away, then two in woods 25 cm away); a last group without a count takes every
  unit left; ``1 out`` for a unit with no line of fire, ``@90`` for a bearing.

A number first, with more after it, is how many units the group holds; any other number is a
distance in cm (``30`` or ``30cm``). Commas or semicolons put several groups on one line. The
words are read in English and Russian alike (``rulesets/epic-armageddon/words.toml``: ``3 пех
6+ лес 30``); a line is shown back, and kept in scripts, in full (``same`` spelled out), in
the words of the language it was typed in.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets import lines
from referee.rulesets.epic.tables import RULESET_ID
from referee.rulesets.lines import fold

MAX_UNITS = 60  # units of a formation (the declaration's limit)
MAX_WEAPONS = 30  # weapon profiles of an attack (the declaration's limit)
MAX_CM = 500
MAX_TIMES = 20  # like weapons on one unit (2x ap4)
TO_HIT = range(2, 7)  # to-hit values typed at the table, 2+ to 6+
SAVES = range(2, 7)
MAX_BARRAGE = 40

_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)(cm|см)?$")
_COUNT = re.compile(r"^\d+$")
_SAVE = re.compile(r"^(\d+)\+$")
_BEARING = re.compile(r"^(?:@(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)°)$")


@functools.cache
def words() -> dict[str, dict[str, tuple[str, ...]]]:
    """Each section of the words file: each thing with its words in both languages, folded."""
    vocabulary = lines.words(RULESET_ID)
    return {section: vocabulary.of(section) for section in vocabulary.listed}


def _named(token: str, *sections: str) -> tuple[str, str] | None:
    """The (section, thing) ``token`` names among ``sections``: one of its words, else the
    start (3 letters or more) of the words of one thing only; None: nothing. A start that
    fits two things is refused, naming both."""
    table = words()
    exact = [(s, thing) for s in sections for thing, ws in table[s].items() if token in ws]
    if exact:
        return exact[0]
    if len(token) < 3:
        return None
    starts = list(dict.fromkeys((s, thing) for s in sections for thing, ws in table[s].items()
                                if any(w.startswith(token) for w in ws)))
    if len(starts) > 1:
        raise AnswerError(Msg.of("epic.entry.ambiguous", part=token,
                                 first=_word(*starts[0]), second=_word(*starts[1])))
    return starts[0] if starts else None


def _word(section: str, thing: str, ru: bool = False) -> str:
    """The word a line is shown back with: the thing's first English word, or its first
    Russian word for a line typed in Russian."""
    return fold(lines.words(RULESET_ID).shown(section, thing, "ru" if ru else "en"))


def _cyrillic(text: str) -> bool:
    return any("а" <= ch <= "я" for ch in fold(text))


def _prefixed(token: str, section: str) -> tuple[str, str] | None:
    """``ap4+`` as (ap, 4): a word of ``section`` followed by a number."""
    for thing, ws in words()[section].items():
        for w in ws:
            rest = token[len(w):]
            if token.startswith(w) and re.fullmatch(r"\d+\+?", rest):
                return thing, rest.rstrip("+")
    return None


def _groups(text: str, *, plus: bool = False) -> list[list[str]]:
    """The line's groups (split at commas and semicolons), each as its words."""
    t = fold(text)
    t = re.sub(r"\b(так|то)\s+же\b", "тоже", t)
    t = re.sub(r"(\d)\s+(cm|см)\b", r"\1\2", t)  # 30 cm: one word
    if plus:  # a line of weapons
        values = "|".join(w for ws in words()["value"].values() for w in ws)
        t = re.sub(rf"(?<!\w)({values})\s+(\d)", r"\1\2", t)  # ap 4+: one word
        t = re.sub(rf"(\d)\s+([{lines.TIMES}])(?!\w)", r"\1\2", t)  # 2 x: one word
        t = re.sub(r"\+(?=[^\W\d_])", "+ + ", t)  # ap5+at6, ap5 + at6: two weapons
    return lines.groups(t, blanks="/", names=False)


def _distance(token: str) -> float | None:
    m = _NUMBER.match(token)
    if m is None:
        return None
    value = float(m.group(1))
    if value > MAX_CM:
        raise AnswerError(Msg.of("epic.entry.far", part=token, most=MAX_CM))
    return value


def _count(tokens: list[str], most: int) -> tuple[int | None, list[str]]:
    """A number first, with more words after it, is how many units the group holds."""
    if len(tokens) > 1 and _COUNT.match(tokens[0]):
        n = int(tokens[0])
        if not 1 <= n <= most:
            raise AnswerError(Msg.of("epic.entry.count", part=tokens[0], most=most))
        return n, tokens[1:]
    return None, tokens


def _cm(value: float) -> str:
    return f"{value:g}"


def _unknown(token: str, what: str) -> AnswerError:
    return AnswerError(Msg.of("epic.entry.unknown", part=token,
                              expected=Msg.of(f"epic.entry.expected.{what}")))


def _twice(token: str, what: str) -> AnswerError:
    return AnswerError(Msg.of("epic.entry.twice", part=token,
                              what=Msg.of(f"epic.entry.what.{what}")))


@dataclass(frozen=True, kw_only=True)
class NameQuestion(LineQuestion):
    """A formation's name, or ``-`` (what Enter takes) for the label it is given."""

    max_length: int = 60

    def parse(self, text: str) -> str | None:
        return None if text == "-" else text

    def format(self, value: str | None) -> str:
        return "-" if value is None else value


@dataclass(frozen=True, kw_only=True)
class GroupQuestion(LineQuestion):
    """A line of groups of alike units (several if commas part them); ``-`` once at least
    one unit is entered: no more. ``previous``: the group before, for ``same``."""

    previous: Any = None
    units_before: int = 0
    # room for the line a --record file writes back (``format``), which spells out every
    # weapon and flag: 200 refused the --record line of three groups of three weapons (as
    # FoW's lines)
    max_length: int = 4000
    plus: ClassVar[bool] = False  # weapons: + parts two weapons of one unit

    def group(self, tokens: list[str], previous: Any, ru: bool) -> Any:
        raise NotImplementedError

    def parse(self, text: str) -> tuple[Any, ...]:
        groups = _groups(text, plus=self.plus)
        if self.units_before and len(groups) == 1 and groups[0] in (["-"], ["нет"]):
            return ()
        out: list[Any] = []
        previous = self.previous
        for tokens in groups:
            previous = self.group(tokens, previous, _cyrillic(text))
            out.append(previous)
        total = self.units_before + sum(g.count for g in out)
        if total > MAX_UNITS:
            raise AnswerError(Msg.of("epic.entry.too_many_units", count=total, most=MAX_UNITS))
        return tuple(out)

    def format(self, value: tuple[Any, ...]) -> str:
        return ", ".join(g.line() for g in value) or "-"


class _Fields(dict[str, Any]):
    """What the words of a group gave, each once: a second time is refused."""

    def put(self, key: str, value: Any, token: str, what: str) -> None:
        if key in self:
            raise _twice(token, what)
        self[key] = value


# -- target units ----------------------------------------------------------------------------
@dataclass(frozen=True)
class UnitGroup:
    """Alike target units: how many, their type and armour save, where they stand."""

    count: int
    type: str  # INF, LV, AV
    armour: int | None
    terrain: str = "open"
    distance: float | None = None  # cm to the nearest attacker (None: out, not needed)
    in_range: bool = True
    under: bool = True  # under a barrage template
    reinforced: bool = False
    invulnerable: bool = False
    in_mw: bool = True  # within reach of the macro-weapons that fire (E-12)
    dc: int | None = None  # a war engine's damage capacity (E-W1)
    shields: int = 0  # its void shields (E-W9)
    ru: bool = field(default=False, compare=False)  # typed in Russian: shown back so

    def line(self) -> str:
        parts = [str(self.count), _word("type", self.type, self.ru),
                 "-" if self.armour is None else f"{self.armour}+"]
        if self.dc is not None:
            parts.append(f"{_word('assault_value', 'dc', self.ru)}{self.dc}")
        if self.shields:
            parts.append(f"{_word('assault_value', 'shields', self.ru)}{self.shields}")
        if self.terrain != "open":
            parts.append(_word("terrain", self.terrain, self.ru))
        if self.distance is not None:
            parts.append(_cm(self.distance))
        parts += [_word("flag", f, self.ru) for f, on in (("reinforced", self.reinforced),
                                                  ("invulnerable", self.invulnerable),
                                                  ("out", not self.in_range),
                                                  ("clear", self.in_range and not self.under),
                                                  ("no_mw", self.in_range and not self.in_mw))
                  if on]
        return " ".join(parts)


def unit_group(tokens: list[str], previous: UnitGroup | None, barrage: bool,
               ru: bool = False, macro: bool = False) -> UnitGroup:
    count, rest = _count(tokens, MAX_UNITS)
    got = _Fields()
    base: UnitGroup | None = None

    for token in rest:
        save = _SAVE.match(token)
        if save is not None:
            if int(save.group(1)) not in SAVES:
                raise AnswerError(Msg.of("epic.entry.bad_save", part=token))
            got.put("armour", int(save.group(1)), token, "save")
            continue
        engine = _prefixed(token, "assault_value")
        if engine is not None and engine[0] in ("dc", "shields"):  # a war engine's (E-W1)
            if not 1 <= int(engine[1]) <= 20:
                raise AnswerError(Msg.of("epic.assault.entry.bad_dc", part=token))
            got.put(engine[0], int(engine[1]), token, "value")
            continue
        distance = _distance(token)
        if distance is not None:
            if "distance" in got and "armour" not in got and got["distance"] in SAVES:
                # 3 inf 6 woods 30: the 6 was meant as the save
                raise AnswerError(Msg.of("epic.entry.save_plus",
                                         part=f"{got['distance']:g}"))
            got.put("distance", distance, token, "distance")
            continue
        named = _named(token, "type", "terrain", "flag")
        if named is None or named[1] in ("all", "in", "macro", "disrupt", "ignore_cover"):
            raise _unknown(token, "unit")
        section, thing = named
        if section == "type":
            got.put("type", thing, token, "type")
        elif section == "terrain":
            got.put("terrain", thing, token, "terrain")
        elif thing == "same":
            if previous is None:
                raise AnswerError(Msg.of("epic.entry.same_first", part=token))
            base = previous
        elif thing == "none":
            got.put("armour", None, token, "save")
        elif thing == "out":
            got.put("in_range", False, token, "flag")
        elif thing == "clear":
            if not barrage:
                raise AnswerError(Msg.of("epic.entry.clear_not_barrage", part=token))
            got.put("under", False, token, "flag")
        elif thing == "no_mw":
            if not macro:
                raise AnswerError(Msg.of("epic.entry.no_mw_without_mw", part=token))
            got.put("in_mw", False, token, "flag")
        else:
            got.put(thing, True, token, "flag")
    if base is None:
        if "type" not in got:
            raise AnswerError(Msg.of("epic.entry.no_type"))
        if "armour" not in got:
            raise AnswerError(Msg.of("epic.entry.no_save"))
        base = UnitGroup(1, got["type"], got["armour"])
    group = replace(base, count=count or 1, ru=ru, **got)
    if (group.type == "WE") != (group.dc is not None) or (group.shields and group.dc is None):
        raise AnswerError(Msg.of("epic.assault.entry.we_needs_dc" if group.type == "WE" else
                                 "epic.assault.entry.dc_not_we"))
    if group.in_range and group.distance is None:
        raise AnswerError(Msg.of("epic.entry.no_distance_target"))
    if not group.in_range:
        group = replace(group, under=False, in_mw=True)
    return group


@dataclass(frozen=True, kw_only=True)
class TargetQuestion(GroupQuestion):
    """A line of target units: ``3 inf 6+ woods 30``. ``barrage``: ``clear`` is allowed;
    ``macro``: macro-weapons fire, so ``nomw`` marks units beyond their reach (E-12)."""

    barrage: bool = False
    macro: bool = False

    def group(self, tokens: list[str], previous: Any, ru: bool) -> UnitGroup:
        return unit_group(tokens, previous, self.barrage, ru, self.macro)


# -- firing units and their weapons ----------------------------------------------------------
@dataclass(frozen=True)
class Profile:
    """A weapon as the line gives it: its to-hit values or barrage points, its rules."""

    ap: int | None = None
    at: int | None = None
    barrage: int | None = None
    macro: bool = False
    disrupt: bool = False
    ignore_cover: bool = False

    def text(self, ru: bool = False) -> str:
        values = [f"{k}{v}" for k, v in (("ap", self.ap), ("at", self.at), ("bp", self.barrage))
                  if v is not None]
        rules = [_word("flag", r, ru) for r in ("macro", "disrupt", "ignore_cover")
                 if getattr(self, r)]
        return " ".join(["/".join(values), *rules])


@dataclass(frozen=True)
class FiringGroup:
    """Alike firing units: how many, the weapons each carries (how many of each), and how
    far from the target formation they stand (when it matters)."""

    count: int
    weapons: tuple[tuple[int, Profile], ...]
    distance: float | None = None
    in_range: bool = True
    ru: bool = field(default=False, compare=False)  # typed in Russian: shown back so

    @property
    def barrage(self) -> bool:
        return any(p.barrage is not None for _, p in self.weapons)

    def line(self) -> str:
        weapons = " + ".join(f"{k}x {p.text(self.ru)}" if k > 1 else p.text(self.ru)
                             for k, p in self.weapons)
        parts = [str(self.count), weapons]
        if self.distance is not None:
            parts.append(_cm(self.distance))
        if not self.in_range:
            parts.append(_word("flag", "out", self.ru))
        return " ".join(parts)


def _weapon(tokens: list[str]) -> tuple[int, Profile | None, dict[str, Any]]:
    """One weapon of a unit (``2x ap5/at6 mw``): how many, the profile; and the group's
    distance or flags when they stand among its words."""
    times = 1
    got = _Fields()
    extra: dict[str, Any] = {}
    for token in tokens:
        counted = lines.count(token, before=True)
        if counted is not None:
            times = counted
            if not 1 <= times <= MAX_TIMES:
                raise AnswerError(Msg.of("epic.entry.times", part=token, most=MAX_TIMES))
            continue
        value = _prefixed(token, "value")
        if value is not None:
            thing, number = value
            if thing in got:
                raise _twice(token, thing)
            n = int(number)
            if thing == "barrage" and not 1 <= n <= MAX_BARRAGE:
                raise AnswerError(Msg.of("epic.entry.bad_barrage", part=token,
                                         most=MAX_BARRAGE))
            if thing != "barrage" and n not in TO_HIT:
                raise AnswerError(Msg.of("epic.entry.bad_to_hit", part=token))
            got[thing] = n
            continue
        distance = _distance(token)
        if distance is not None:
            if "distance" in extra:
                raise _twice(token, "distance")
            extra["distance"] = distance
            continue
        named = _named(token, "flag")
        if named is None or named[1] not in ("macro", "disrupt", "ignore_cover", "out",
                                             "same"):
            raise _unknown(token, "weapon")
        if named[1] == "out":
            extra["in_range"] = False
        elif named[1] == "same":
            extra["same"] = token
        else:
            got[named[1]] = True
    if not any(k in got for k in ("ap", "at", "barrage")):
        if got or times > 1:
            raise AnswerError(Msg.of("epic.entry.no_value", part=" ".join(tokens)))
        return times, None, extra
    if "barrage" in got and ("ap" in got or "at" in got):
        raise AnswerError(Msg.of("epic.entry.barrage_and_value", part=" ".join(tokens)))
    return times, Profile(**got), extra


def firing_group(tokens: list[str], previous: FiringGroup | None,
                 need_distance: bool, ru: bool = False) -> FiringGroup:
    count, rest = _count(tokens, MAX_UNITS)
    chunks: list[list[str]] = [[]]
    for token in rest:
        if token == "+":
            chunks.append([])
        else:
            chunks[-1].append(token)
    weapons: list[tuple[int, Profile]] = []
    extra: dict[str, Any] = {}
    for chunk in chunks:
        if not chunk:
            raise AnswerError(Msg.of("epic.entry.empty_weapon"))
        times, profile, more = _weapon(chunk)
        for key, value in more.items():
            if key in extra:
                raise _twice(str(value), "distance" if key == "distance" else "flag")
            extra[key] = value
        if profile is not None:
            weapons.append((times, profile))
    same = extra.pop("same", None)
    if same is not None:
        if previous is None:
            raise AnswerError(Msg.of("epic.entry.same_first", part=same))
        base = previous
        if weapons:
            base = replace(base, weapons=tuple(weapons))
    elif not weapons:
        raise AnswerError(Msg.of("epic.entry.no_weapon"))
    else:
        base = FiringGroup(1, tuple(weapons))
    group = replace(base, count=count or 1, ru=ru, **extra)
    if len({p.barrage is not None for _, p in group.weapons}) > 1:
        raise AnswerError(Msg.of("epic.entry.barrage_mix"))
    if need_distance and group.in_range and group.distance is None:
        raise AnswerError(Msg.of("epic.entry.no_distance_firing"))
    return group


@dataclass(frozen=True, kw_only=True)
class FiringQuestion(GroupQuestion):
    """A line of firing units and their weapons: ``4 ap4``. ``need_distance``: the formation
    has Blast markers (E-4); ``barrage``: the kind of fire of the lines before (None: no
    line yet); ``profiles``: the weapons they named."""

    need_distance: bool = False
    barrage: bool | None = None
    profiles: frozenset[Profile] = frozenset()
    plus: ClassVar[bool] = True

    def group(self, tokens: list[str], previous: Any, ru: bool) -> FiringGroup:
        return firing_group(tokens, previous, self.need_distance, ru)

    def parse(self, text: str) -> tuple[FiringGroup, ...]:
        out: tuple[FiringGroup, ...] = super().parse(text)
        kinds = {g.barrage for g in out} | ({self.barrage} if self.barrage is not None else set())
        if len(kinds) > 1:
            raise AnswerError(Msg.of("epic.entry.barrage_mix"))
        named = self.profiles | {p for g in out for _, p in g.weapons}
        if len(named) > MAX_WEAPONS:
            raise AnswerError(Msg.of("epic.entry.too_many_weapons", most=MAX_WEAPONS))
        return out


# -- where a formation's units stand (a roster, a declaration without the situation) ---------
@dataclass(frozen=True)
class Place:
    """Where a run of a formation's units stands, in its listed order."""

    count: int
    distance: float | None = None
    terrain: str | None = None
    in_range: bool = True
    under: bool = True
    bearing: float | None = None
    in_mw: bool = True  # within reach of the macro-weapons that fire (E-12)
    contact: bool = False  # in base contact (an assault, E-A3)
    ru: bool = field(default=False, compare=False)  # typed in Russian: shown back so

    def line(self, counted: bool = True) -> str:
        """The group as typed; ``counted=False``: without its count (one unit, or the last
        group, which takes the units left)."""
        parts = [str(self.count)] if counted else []
        if self.terrain is not None and self.terrain != "open":
            parts.append(_word("terrain", self.terrain, self.ru))
        if self.distance is not None:
            parts.append(_cm(self.distance))
        if self.bearing is not None:
            parts.append(f"@{_cm(self.bearing)}")
        if self.contact:
            parts.append(_word("assault", "contact", self.ru))
        elif not self.in_range:
            parts.append(_word("flag", "out", self.ru))
        elif not self.under:
            parts.append(_word("flag", "clear", self.ru))
        if self.in_range and not self.in_mw:
            parts.append(_word("flag", "no_mw", self.ru))
        if len(parts) == int(counted):
            parts.append(_word("flag", "in", self.ru))
        return " ".join(parts)


@dataclass(frozen=True)
class Needs:
    """What a situation line must give for each unit in range: a distance, the ground, a
    bearing (weapons with fire arcs); ``barrage``: ``clear`` is allowed."""

    distance: bool = False
    terrain: bool = False
    bearing: bool = False
    barrage: bool = False
    macro: bool = False  # macro-weapons fire: ``nomw`` is allowed (E-12)
    contact: bool = False  # an assault: ``contact`` (base contact) is allowed (E-A3)


def _place_count(tokens: list[str], needs: Needs, most: int) -> tuple[int | None, list[str]]:
    """How many units a group of a situation line holds: a number first, when another
    number (the distance) follows, or when no distance is needed (``2 out``, ``2 woods``
    where only the ground is asked); ``2x`` always. Else a first number is the distance
    (``20``, ``20 @90``)."""
    marked = lines.count(tokens[0]) if tokens else None
    if marked is not None:
        return _count([str(marked), *tokens[1:]] if len(tokens) > 1
                      else [str(marked), "in"], most)
    rest = tokens[1:]
    out = any(_named(t, "flag", *(("assault",) if needs.contact else ()))
              in (("flag", "out"), ("assault", "contact")) for t in rest)
    if any(_NUMBER.match(t) for t in rest) or not needs.distance or out:
        return _count(tokens, most)
    return None, tokens


def place(tokens: list[str], needs: Needs, most: int, ru: bool = False) -> tuple[Place, bool]:
    """One group of a situation line; True when its count was given."""
    count, rest = _place_count(tokens, needs, most)
    got = _Fields()

    for token in rest:
        bearing = _BEARING.match(token)
        if bearing is not None:
            value = float(bearing.group(1) or bearing.group(2))
            if value >= 360:
                raise AnswerError(Msg.of("epic.entry.bad_bearing", part=token))
            got.put("bearing", value, token, "bearing")
            continue
        distance = _distance(token)
        if distance is not None:
            got.put("distance", distance, token, "distance")
            continue
        named = _named(token, "terrain", "flag", *(("assault",) if needs.contact else ()))
        if named is None or named[1] not in ({"out", "in", "all"} | set(words()["terrain"])
                                             | ({"clear"} if needs.barrage else set())
                                             | ({"no_mw"} if needs.macro else set())
                                             | ({"contact"} if needs.contact else set())):
            raise _unknown(token, "place")
        section, thing = named
        if section == "terrain":
            got.put("terrain", thing, token, "terrain")
        elif thing == "out":
            got.put("in_range", False, token, "flag")
        elif thing == "clear":
            got.put("under", False, token, "flag")
        elif thing == "no_mw":
            got.put("in_mw", False, token, "flag")
        elif thing == "contact":
            got.put("contact", True, token, "flag")
    group = Place(count or 1, ru=ru, **got)
    if group.in_range and not group.contact:
        if needs.distance and group.distance is None:
            raise AnswerError(Msg.of("epic.entry.no_distance_place", part=" ".join(tokens)))
        if needs.bearing and group.bearing is None:
            raise AnswerError(Msg.of("epic.entry.no_bearing", part=" ".join(tokens)))
    if needs.terrain and group.terrain is None:
        group = replace(group, terrain="open")
    return group, count is not None


@dataclass(frozen=True, kw_only=True)
class SituationQuestion(LineQuestion):
    """Where each of ``count`` units (a formation's units whose situation is not declared,
    in their order) stands: runs of units, the last without a count taking the rest."""

    count: int = 1
    needs: Needs = field(default_factory=Needs)

    def parse(self, text: str) -> tuple[Place, ...]:
        groups = _groups(text)
        out: list[Place] = []
        left = self.count
        for i, tokens in enumerate(groups):
            group, counted = place(tokens, self.needs, MAX_UNITS, _cyrillic(text))
            if not counted and i == len(groups) - 1:
                group = replace(group, count=left)
            left -= group.count
            if left < 0 or group.count == 0:
                raise AnswerError(Msg.of("epic.entry.too_many_places",
                                         given=self.count - left, count=self.count))
            out.append(group)
        if left:
            raise AnswerError(Msg.of("epic.entry.too_few_places", given=self.count - left,
                                     count=self.count))
        return tuple(out)

    def format(self, value: tuple[Place, ...]) -> str:
        return ", ".join(p.line(counted=p.count > 1 and i < len(value) - 1)
                         for i, p in enumerate(value))


def each_unit(places: Sequence[Place]) -> list[tuple[int, Place]]:
    """The places of a situation line unit by unit: (the run it is in, its place)."""
    return [(i, p) for i, p in enumerate(places) for _ in range(p.count)]


# the line reader's parts, shared with the assault's lines (``assault_line``), which import
# them one way: nothing here knows the assault
split_groups, named_thing, shown_word, group_count, distance_of = (
    _groups, _named, _word, _count, _distance)
Fields, unknown_part, given_twice, typed_in_russian = _Fields, _unknown, _twice, _cyrillic
prefixed_value, SAVE_TOKEN = _prefixed, _SAVE
