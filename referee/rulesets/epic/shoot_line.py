"""A shooting attack's formations typed at the table in one line each (issue 27), as an
assault's are (``assault_line``): the formation's name before a colon (optional), its Blast
markers (``bm1``; left out: none), for the target its crossfire (``xf1``: how many other
friendly formations have it in crossfire, E-11 and E-13; left out: none), then its groups,
parts apart by commas.

* the firing formation: ``Grey Company: 4 ap4, Lascannon 2 at4`` (a group of alike units and
  their weapons, as ``line.firing_group`` reads it; with Blast markers each group also gives
  its distance, E-4);
* the target formation: ``Red Company: xf1, Rifles 2 inf 6+ woods 15, 4 inf 6+ 20, 2 av 4+
  25`` (as ``line.unit_group`` reads it).

A group may be named by words before its count (``Rifles 2 inf 6+ woods 15``): its units are
``Rifles 1`` and ``Rifles 2``, and, in the firing line, its weapon is ``Lascannon``. Without a
name a unit is numbered by its type (``Infantry 1``, ``Armoured vehicle 1``: ``common.shown``)
and a weapon is named by its profile (``AP4+``). A formation the game keeps may be named alone
(``Grey Company``): its units and weapons are the kept ones.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets.epic.line import (
    MAX_UNITS,
    MAX_WEAPONS,
    FiringGroup,
    Place,
    Profile,
    SituationQuestion,
    UnitGroup,
    firing_group,
    prefixed_value,
    shown_word,
    split_groups,
    typed_in_russian,
    unit_group,
    words,
)
from referee.rulesets.lines import fold

MAX_MARKERS, MAX_CROSSFIRE = 99, 9
_COUNT_WORD = re.compile(r"^\d+$")


@dataclass(frozen=True)
class ShootLine:
    """A formation's line: its name (None: the label), Blast markers and crossfire (None:
    not given), its groups (``FiringGroup`` or ``UnitGroup``), each with its name (None:
    the default)."""

    name: str | None
    markers: int | None
    crossfire: int | None
    groups: tuple[Any, ...]
    names: tuple[str | None, ...]

    def line(self) -> str:
        ru = any(g.ru for g in self.groups)
        parts = [f"{shown_word(section, key, ru)}{value}"
                 for section, key, value in (("assault_value", "markers", self.markers),
                                             ("formation_value", "crossfire", self.crossfire))
                 if value is not None]
        parts += [f"{n} {g.line()}" if n else g.line()
                  for n, g in zip(self.names, self.groups, strict=True)]
        body = ", ".join(parts)
        return f"{self.name}: {body}" if self.name else body


@functools.cache
def _joined() -> re.Pattern[str]:
    """``bm 1``, ``xf 1``: the word and its number as one."""
    ws = "|".join(re.escape(w) for ws in (words()["formation_value"]["crossfire"],
                                          words()["assault_value"]["markers"]) for w in ws)
    return re.compile(rf"(?<!\w)({ws})\s+(\d)")


def _value(tokens: list[str]) -> tuple[str, str] | None:
    """A part that is the formation's Blast markers (``bm1``) or crossfire (``xf1``)."""
    if len(tokens) != 1:
        return None
    markers = prefixed_value(tokens[0], "assault_value")
    if markers is not None and markers[0] == "markers":
        return markers
    return prefixed_value(tokens[0], "formation_value")


@dataclass(frozen=True, kw_only=True)
class ShootLineQuestion(LineQuestion):
    """A formation's whole line (the module's docstring). ``side``: ``firing`` or
    ``target``; ``barrage``, ``macro``: what the firing line named (a target's ``clear``,
    ``nomw``); ``nearest``: unused here (the hint says which distance); ``kept``: the
    folded names of the formations the game keeps (a name alone is enough);
    ``known_markers``: the Blast markers the game file keeps, by folded name (the line's
    own count, if it gives another, is refused); ``taken``: a folded name already in the
    attack; ``named``: a name before a colon is read (not when the formation is named
    already)."""

    side: str = "firing"
    barrage: bool = False
    macro: bool = False
    kept: frozenset[str] = frozenset()
    known_markers: tuple[tuple[str, int], ...] = ()
    taken: str | None = None
    named: bool = True
    formation: str | None = None  # the formation's name when the line gives none (named)
    max_length: int = 4000

    def parse(self, text: str) -> ShootLine:
        name: str | None = None
        body = text
        if self.named and ":" in text:
            name, _, body = text.partition(":")
            name = " ".join(name.split()) or None
        key = fold(name) if name else (fold(self.formation) if self.formation else None)
        if key is not None and key == self.taken:
            raise AnswerError(Msg.of("epic.entry.name_taken", name=name))
        values: dict[str, int] = {}
        parts: list[str] = []
        for part in re.split(r"[,;]", body):
            tokens = _joined().sub(r"\1\2", fold(part)).split()
            value = _value(tokens)
            if value is None:
                if tokens:
                    parts.append(part)
                continue
            thing, number = value[0], int(value[1])
            if thing in values:
                raise AnswerError(Msg.of("epic.shoot.entry.twice", part=tokens[0]))
            if thing == "crossfire" and self.side != "target":
                raise AnswerError(Msg.of("epic.shoot.entry.crossfire_firing", part=tokens[0]))
            most = MAX_MARKERS if thing == "markers" else MAX_CROSSFIRE
            if number > most:
                raise AnswerError(Msg.of(f"epic.shoot.entry.bad_{thing}", part=tokens[0],
                                         most=most))
            values[thing] = number
        known = dict(self.known_markers).get(key) if key is not None else None
        if known is not None and values.get("markers", known) != known:
            raise AnswerError(Msg.of("epic.shoot.entry.markers_kept",
                                     name=name or self.formation, markers=known))
        if not parts:
            if key is not None and key in self.kept:
                return ShootLine(name, values.get("markers"), values.get("crossfire"), (), ())
            raise AnswerError(Msg.of("epic.shoot.entry.no_units"))
        markers = known if known is not None else values.get("markers", 0)
        groups: list[Any] = []
        names: list[str | None] = []
        for part in parts:
            previous = groups[-1] if groups else None
            group_name, group = self._group(part, previous, markers > 0,
                                            typed_in_russian(body))
            groups.append(group)
            names.append(group_name)
        self._check(groups)
        return ShootLine(name, values.get("markers"), values.get("crossfire"), tuple(groups),
                         tuple(names))

    def _group(self, part: str, previous: Any, suppression: bool,
               ru: bool) -> tuple[str | None, Any]:
        """A group, first read as it stands; if that fails, with the words before one of
        its numbers as its name (``Rifles 2 inf 6+ 15``)."""
        raw = part.split()
        try:
            return None, self._read(" ".join(raw), previous, suppression, ru)
        except AnswerError as first:
            named: AnswerError | None = None  # the first named reading's reason
            for k in range(1, len(raw)):
                if _COUNT_WORD.match(raw[k]) and len(raw) > k + 1 and \
                        any(ch.isalpha() for ch in " ".join(raw[:k])):
                    try:
                        return " ".join(raw[:k]), self._read(" ".join(raw[k:]), previous,
                                                             suppression, ru)
                    except AnswerError as err:
                        named = named or err
            # a first word not understood was a name: what is wrong is after it
            unknown = first.msg.id == "epic.entry.unknown" and \
                dict(first.msg.params).get("part") == fold(raw[0])
            raise (named if named is not None and unknown else first) from None

    def _read(self, text: str, previous: Any, suppression: bool, ru: bool) -> Any:
        tokens = [t for g in split_groups(text, plus=self.side == "firing") for t in g]
        if self.side == "firing":
            return firing_group(tokens, previous, suppression, ru)
        return unit_group(tokens, previous, self.barrage, ru, self.macro)

    def _check(self, groups: list[Any]) -> None:
        if self.side == "firing":
            if len({g.barrage for g in groups}) > 1:
                raise AnswerError(Msg.of("epic.entry.barrage_mix"))
            if len({p for g in groups for _, p in g.weapons}) > MAX_WEAPONS:
                raise AnswerError(Msg.of("epic.entry.too_many_weapons", most=MAX_WEAPONS))
        total = sum(g.count for g in groups)
        if total > MAX_UNITS:
            raise AnswerError(Msg.of("epic.entry.too_many_units", count=total, most=MAX_UNITS))

    def format(self, value: ShootLine) -> str:
        return value.line()


@dataclass(frozen=True)
class Standing:
    """Where a target formation's units stand, and how many other friendly formations have
    it in crossfire (E-11, E-13)."""

    places: tuple[Place, ...]
    crossfire: int


@dataclass(frozen=True, kw_only=True)
class CrossfireSituationQuestion(SituationQuestion):
    """Where a target formation's units stand (``SituationQuestion``), with its crossfire
    as a part of its own (``4 20, 2 woods 25, xf1``; left out: none): asked once, with what
    changes from one attack to the next (issue 27)."""

    def parse(self, text: str) -> Standing:  # type: ignore[override]
        crossfire: int | None = None
        rest: list[str] = []
        for part in re.split(r"[,;]", text):
            tokens = _joined().sub(r"\1\2", fold(part)).split()
            value = _value(tokens)
            if value is None or value[0] != "crossfire":
                if tokens:
                    rest.append(part)
                continue
            if crossfire is not None:
                raise AnswerError(Msg.of("epic.shoot.entry.twice", part=tokens[0]))
            crossfire = int(value[1])
            if crossfire > MAX_CROSSFIRE:
                raise AnswerError(Msg.of("epic.shoot.entry.bad_crossfire", part=tokens[0],
                                         most=MAX_CROSSFIRE))
        line = ", ".join(rest) or self.default_value
        if not line:
            raise AnswerError(Msg.of("answer.error.text_empty"))
        return Standing(super().parse(line), crossfire or 0)

    def format(self, value: Standing) -> str:  # type: ignore[override]
        places = super().format(value.places)
        if not value.crossfire:
            return places
        ru = any(p.ru for p in value.places)
        return f"{places}, {shown_word('formation_value', 'crossfire', ru)}{value.crossfire}"


def profile_name(profile: Profile) -> str:
    """A weapon typed without a name, named by its profile: ``AP4+``, ``AP5+/AT6+ MW``,
    ``BP3``."""
    values = [f"{k}{v}+" for k, v in (("AP", profile.ap), ("AT", profile.at)) if v is not None]
    if profile.barrage is not None:
        values.append(f"BP{profile.barrage}")
    flags = [f for f, on in (("MW", profile.macro), ("disrupt", profile.disrupt),
                             ("IC", profile.ignore_cover)) if on]
    return " ".join(["/".join(values), *flags])


def firing_groups(line: ShootLine) -> list[FiringGroup]:
    out: list[FiringGroup] = list(line.groups)
    return out


def unit_groups(line: ShootLine) -> list[UnitGroup]:
    out: list[UnitGroup] = list(line.groups)
    return out
