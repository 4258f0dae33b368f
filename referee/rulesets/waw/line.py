"""The compact lines of a World at War mission at the table (issue 14): a question that says
several things in one answer, read by the question itself (typed lines and scripts alike).

* ``HexQuestion`` (id ``hex``): the target hex, and for an HE mission the hex's infantry
  defence bonus (or a terrain of the data file) when the player knows it: ``0712``,
  ``0712 1``, ``0712 woods``.
* ``UnitsQuestion`` (id ``units``): the hex's units, identical ones counted once:
  ``2 inf, cv dis, "Alpha" inf weak``.
* ``RatingQuestion`` (id ``firepower``): the mission's firepower and hit number, ``5 4+``.
* ``MoraleQuestion`` (id ``morale``): a chemical strike's morale checks, one yes or no a unit
  in the order the prompt lists them, ``y n y`` (issue 27: a strike on a hex as the game
  keeps it, a path no earlier script took).

Each keeps the id and the meaning of the question it replaces: a script written before holds
``hex = 712``, ``units = 3`` and ``firepower = 5`` and replays unchanged (a bare count asks each
unit as before, a bare firepower asks the hit number). The words of the lines are data
(``rulesets/world-at-war/words.toml``, read by ``referee.rulesets.lines``), in English and
Russian; a line is written back in the language it was typed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets import lines
from referee.rulesets.waw.declaration import DEFAULT_ID, Unit, default_id, unit_key
from referee.rulesets.waw.tables import RULESET_ID


def vocabulary() -> lines.Words:
    """The words of the lines (``rulesets/world-at-war/words.toml``)."""
    return lines.words(RULESET_ID)


@dataclass(frozen=True, kw_only=True)
class Line(LineQuestion):
    """A compact line that also reads a script's whole number as its text (``hex = 712``,
    ``units = 3``, ``firepower = 5``: the answers of before)."""

    def accept(self, raw: Any) -> Any:
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = str(raw)
        return super().accept(raw)


# --- the target hex -------------------------------------------------------------------------

HEX_LABEL = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")


@dataclass(frozen=True)
class HexLine:
    hex: str
    defence: int | None = None  # the infantry defence bonus of its terrain (HE)
    terrain: str | None = None  # or a terrain id of the data file (HE)


def hex_label(word: str) -> str:
    """Hex numbers as printed on the map: ``712`` is ``0712``; other labels as typed."""
    return f"{int(word):04d}" if word.isdigit() and len(word) <= 4 else word


@dataclass(frozen=True, kw_only=True)
class HexQuestion(Line):
    """The target hex; with ``defence_most`` (an HE mission whose terrain is not declared)
    it may name the hex's infantry defence bonus, or one of ``terrains`` (data file ids)."""

    defence_most: int | None = None
    terrains: tuple[str, ...] = ()

    def parse(self, text: str) -> HexLine:
        words = lines.tokens(text, names=False)
        if not HEX_LABEL.match(words[0]):
            raise AnswerError(Msg.of("waw.entry.error.hex", word=words[0]))
        line = HexLine(hex_label(words[0]))
        if len(words) == 1:
            return line
        if len(words) > 2:
            raise AnswerError(Msg.of("waw.entry.error.hex_extra", word=words[2]))
        word = words[1]
        if self.defence_most is None:
            raise AnswerError(Msg.of("waw.entry.error.hex_no_defence", word=word))
        found = next((t for t in self.terrains if t.casefold() == word.casefold()), None)
        if found is not None:
            return HexLine(line.hex, terrain=found)
        if not word.isdigit() or int(word) > self.defence_most:
            key = "hex_terrain" if self.terrains else "hex_defence"
            raise AnswerError(Msg.of(f"waw.entry.error.{key}", word=word,
                                     most=self.defence_most, known=", ".join(self.terrains)))
        return HexLine(line.hex, defence=int(word))

    def format(self, value: HexLine) -> str:
        extra = value.terrain if value.terrain is not None else value.defence
        return value.hex if extra is None else f"{value.hex} {extra}"


# --- the mission's ratings ------------------------------------------------------------------

@dataclass(frozen=True)
class RatingLine:
    firepower: int
    hit_number: int | None = None  # None: asked next, as before


@dataclass(frozen=True, kw_only=True)
class RatingQuestion(Line):
    """The mission's firepower and hit number (``5 4+``; ``5/4``); the firepower alone (as
    scripts wrote it before) leaves the hit number to its own question."""

    max_firepower: int = 40
    lowest_hit: int = 1
    highest_hit: int = 6

    def parse(self, text: str) -> RatingLine:
        words = lines.tokens(text, blanks="/", names=False)
        fp_word = words[0]
        if not fp_word.isdigit() or not 1 <= int(fp_word) <= self.max_firepower:
            raise AnswerError(Msg.of("waw.entry.error.firepower", word=fp_word,
                                     most=self.max_firepower))
        if len(words) == 1:
            return RatingLine(int(fp_word))
        if len(words) > 2:
            raise AnswerError(Msg.of("waw.entry.error.rating_extra", word=words[2]))
        hit_word = words[1].removesuffix("+")
        if not hit_word.isdigit() or not self.lowest_hit <= int(hit_word) <= self.highest_hit:
            raise AnswerError(Msg.of("waw.entry.error.hit_number", word=words[1],
                                     least=self.lowest_hit, most=self.highest_hit))
        return RatingLine(int(fp_word), int(hit_word))

    def format(self, value: RatingLine) -> str:
        if value.hit_number is None:
            return str(value.firepower)
        return f"{value.firepower} {value.hit_number}+"


# --- a chemical strike's morale checks -----------------------------------------------------

@dataclass(frozen=True)
class MoraleLine:
    """Each unit's morale check, passed or not, in the prompt's order, and the language its
    words were typed in (written back in it)."""

    passed: tuple[bool, ...]
    lang: str = "en"


RUSSIAN_YES_NO = frozenset({"да", "д", "нет", "н"})


@dataclass(frozen=True, kw_only=True)
class MoraleQuestion(Line):
    """W-8: whether each unit passed its morale check, in the order of ``units`` (their
    labels): ``y n y`` (``д н д``); Enter: every unit passed (the default of each check's
    own question)."""

    units: tuple[Msg | str, ...] = ()

    def parse(self, text: str) -> MoraleLine:
        from referee.core.fates import joined
        from referee.core.words import NO_WORDS, YES_WORDS

        words = text.replace(",", " ").casefold().split()
        for word in words:
            if word not in YES_WORDS | NO_WORDS:
                raise AnswerError(Msg.of("waw.entry.error.morale_word", word=word,
                                         units=joined(list(self.units))))
        if len(words) != len(self.units):
            raise AnswerError(Msg.of("waw.entry.error.morale_count", got=len(words),
                                     count=len(self.units), units=joined(list(self.units))))
        lang = "ru" if set(words) <= RUSSIAN_YES_NO else "en"
        return MoraleLine(tuple(w in YES_WORDS for w in words), lang)

    def format(self, value: MoraleLine) -> str:
        yes, no = ("д", "н") if value.lang == "ru" else ("y", "n")
        return " ".join(yes if ok else no for ok in value.passed)


# --- the units of the hex -------------------------------------------------------------------

@dataclass(frozen=True)
class UnitsLine:
    """The units of one line, in order, and the language its words were typed in."""

    units: tuple[Unit, ...]
    lang: str = "en"
    # W-8: the infantry the line says is on foot (by key); those riding have ``mounted_in``
    foot: frozenset[str] = frozenset()

    @property
    def settled(self) -> dict[str, str | None]:
        """Each infantry unit whose ride the line says: the key of its vehicle, ``None`` on
        foot."""
        vehicles = [v for v in self.units if v.kind == "combat-vehicle"]
        out: dict[str, str | None] = {k: None for k in self.foot}
        for u in self.units:
            ride = next((v.key for v in vehicles if u.rides_in(v)), None)
            if ride is not None:
                out[u.key] = ride
        return out


COUNT = re.compile(r"^[0-9]+$")  # a bare number counts too; 2x, x2: lines.count
NUMBER = re.compile(r"^#([0-9]+)$")  # "#3": the unit typed before as unit 3


def _groups(text: str) -> list[list[tuple[str, str]]]:
    """The line's parts (between commas), each a list of (``word`` or ``name``, text)."""
    try:
        found = lines.groups(text)
    except lines.Unclosed:
        raise AnswerError(Msg.of("waw.entry.error.quote")) from None
    groups: list[list[tuple[str, str]]] = []
    for words in found:
        groups.append([])
        for word in words:
            if word[:1] not in ('"', "«"):
                groups[-1].append(("word", word))
                continue
            name = lines.quoted(word)
            if name is None:
                raise AnswerError(Msg.of("waw.entry.error.empty_name"))
            groups[-1].append(("name", name))
    return groups


@dataclass
class _Part:
    text: str
    count: int = 1
    kind: str | None = None
    states: set[str] | None = None
    position: str = "centre"
    name: str | None = None
    counted: bool = False
    number: int | None = None  # "#3": the unit that was "unit 3"
    ride: str | None = None  # W-8: "" on foot, else the key of the vehicle it rides in


@dataclass(frozen=True, kw_only=True)
class UnitsQuestion(Line):
    """The units of the target hex in one line, or their count (as before: each unit is then
    asked on its own). ``positions``: a chemical strike, whose units may stand in the six
    hexes around (``adj``)."""

    max_units: int = 12
    positions: bool = False

    def parse(self, text: str) -> int | UnitsLine:
        if text.isdigit():
            if not 1 <= int(text) <= self.max_units:
                raise AnswerError(Msg.of("waw.entry.error.count", word=text,
                                         most=self.max_units))
            return int(text)
        vocab = vocabulary()
        langs: set[str] = set()
        parts = [self._part(group, vocab, langs) for group in _groups(text)]
        if not parts:
            raise AnswerError(Msg.of("waw.entry.error.no_units"))
        total = sum(p.count for p in parts)
        if total > self.max_units:
            raise AnswerError(Msg.of("waw.entry.error.too_many", count=total,
                                     most=self.max_units))
        units: list[Unit] = []
        foot: set[str] = set()
        seen: set[str] = set()
        claimed = {default_id(p.number) for p in parts if p.number is not None}
        for p in parts:
            for j in range(1, p.count + 1):
                name = p.name if p.name is None or p.count == 1 else f"{p.name} {j}"
                if name is not None:
                    key = unit_key(name)
                elif p.number is not None:
                    key = default_id(p.number)
                else:  # its place in the line, unless a "#n" or a name took that number
                    n = len(units) + 1
                    while default_id(n) in claimed | seen:
                        n += 1
                    key = default_id(n)
                if key in seen:
                    raise AnswerError(Msg.of("waw.entry.error.same_name", name=name or key))
                seen.add(key)
                states = p.states or set()
                if p.ride == "":
                    foot.add(key)
                units.append(Unit(id=None if name is not None else key, name=name,
                                  kind=p.kind, position=p.position,  # type: ignore[arg-type]
                                  disorganized="disorganized" in states,
                                  weakened="weakened" in states, mounted_in=p.ride or None))
        _check_rides(units, parts)
        return UnitsLine(tuple(units), "ru" if langs == {"ru"} else "en", frozenset(foot))

    def _part(self, group: list[tuple[str, str]], vocab: lines.Words,
              langs: set[str]) -> _Part:
        text = " ".join(f'"{w}"' if how == "name" else w for how, w in group)
        part = _Part(text)
        i = 0
        while i < len(group):
            how, word = group[i]
            if how == "name":
                if part.name is not None:
                    raise AnswerError(Msg.of("waw.entry.error.two_names", part=text))
                part.name = word
                i += 1
                continue
            number = NUMBER.match(word)
            if number is not None and part.number is None and int(number.group(1)) >= 1:
                part.number = int(number.group(1))
                i += 1
                continue
            count = lines.count(word, before=True)
            if count is None and COUNT.match(word):
                count = int(word)
            if count is not None:
                if part.kind is not None or part.states is not None or part.counted:
                    raise AnswerError(Msg.of("waw.entry.error.count_place", word=word,
                                             part=text))
                n = count
                if not 1 <= n <= self.max_units:
                    raise AnswerError(Msg.of("waw.entry.error.count", word=word,
                                             most=self.max_units))
                part.count, part.counted = n, True
                i += 1
                continue
            found, width = self._phrase(group, i, vocab)
            if found is None:
                raise AnswerError(Msg.of("waw.entry.error.word", word=word, part=text,
                                         kinds=Msg.of("waw.entry.kinds"),
                                         states=Msg.of("waw.entry.states")))
            kind_of, value, _ = found
            lang = vocab.language(" ".join(w for _, w in group[i:i + width]))
            assert lang is not None
            langs.add(lang)
            self._take(part, kind_of, value, word)
            i += width
            if kind_of == "ride" and value == "in":  # the vehicle follows: "#3" or a name
                ref = group[i] if i < len(group) else None
                number = NUMBER.match(ref[1]) if ref is not None and ref[0] == "word" else None
                if ref is None or (ref[0] != "name" and number is None):
                    raise AnswerError(Msg.of("waw.entry.error.ride_vehicle", word=word,
                                             part=text))
                part.ride = (unit_key(ref[1]) if ref[0] == "name"
                             else default_id(int(number.group(1))) if number else "")
                i += 1
        if part.kind is None:
            raise AnswerError(Msg.of("waw.entry.error.no_kind", part=text,
                                     kinds=Msg.of("waw.entry.kinds")))
        if part.number is not None and (part.count > 1 or part.name is not None):
            raise AnswerError(Msg.of("waw.entry.error.number", part=text))
        return part

    @staticmethod
    def _phrase(group: list[tuple[str, str]], i: int,
                vocab: lines.Words) -> tuple[tuple[str, str, int] | None, int]:
        """The longest vocabulary phrase starting at word ``i`` (its parts typed with blanks
        or hyphens)."""
        words = []
        for how, word in group[i:]:
            if how != "word":
                break
            words.append(word)
        found = vocab.lookup(words, 0)
        if found is None:
            return None, 1
        return found, found[2]

    def _take(self, part: _Part, kind_of: str, value: str, word: str) -> None:
        if kind_of == "kind":
            if part.kind is not None:
                raise AnswerError(Msg.of("waw.entry.error.two_kinds", part=part.text))
            part.kind = value
        elif kind_of == "state":
            states = part.states if part.states is not None else set()
            if (value == "good" and states - {"good"}) or (value != "good" and "good" in states):
                raise AnswerError(Msg.of("waw.entry.error.good_and", part=part.text))
            states.add(value)
            part.states = states
        elif kind_of == "position":
            if not self.positions:
                raise AnswerError(Msg.of("waw.entry.error.position", word=word))
            part.position = value
        elif kind_of == "ride":
            if not self.positions:  # W-8: only a chemical strike asks how infantry rides
                raise AnswerError(Msg.of("waw.entry.error.ride_chemical", word=word))
            if part.ride is not None:
                raise AnswerError(Msg.of("waw.entry.error.two_rides", part=part.text))
            part.ride = ""

    def format(self, value: int | UnitsLine) -> str:
        if isinstance(value, int):
            return str(value)
        vocab, lang = vocabulary(), value.lang
        parts: list[str] = []
        run: list[str] = []  # the words of the run of unnamed units being counted
        count = 0

        def flush() -> None:
            if count:
                parts.append(" ".join([str(count)] * (count > 1) + run))

        for position, u in enumerate(value.units, 1):
            words = [vocab.shown("kind", u.kind, lang)]
            words += [vocab.shown("state", s, lang) for s, on in
                      (("disorganized", u.disorganized), ("weakened", u.weakened)) if on]
            if u.position != "centre":
                words.append(vocab.shown("position", u.position, lang))
            ride = value.settled.get(u.key, "-") if u.kind == "infantry" else "-"
            if ride is None:
                words.append(vocab.shown("ride", "foot", lang))
            elif ride != "-":
                vehicle = next(v for v in value.units if v.key == ride)
                words += [vocab.shown("ride", "in", lang), _reference(vehicle)]
            number = DEFAULT_ID.match(u.key) if u.name is None else None
            first = (_quoted(u.name) if u.name is not None else
                     f"#{number.group(1)}" if number and int(number.group(1)) != position
                     else None)
            if first is not None:
                flush()
                count, run = 0, []
                parts.append(" ".join([first, *words]))
            elif words == run:
                count += 1
            else:
                flush()
                count, run = 1, words
        flush()
        return ", ".join(parts)


def _reference(vehicle: Unit) -> str:
    """How a line names the vehicle a unit rides in: its name, else ``#N``."""
    if vehicle.name is not None:
        return _quoted(vehicle.name)
    number = DEFAULT_ID.match(vehicle.key)
    return f"#{number.group(1)}" if number else vehicle.key


def _check_rides(units: list[Unit], parts: list[_Part]) -> None:
    """W-8: only infantry rides, and in a combat vehicle of the line."""
    vehicles = {u.key for u in units if u.kind == "combat-vehicle"}
    for p in parts:
        if p.ride is None:
            continue
        if p.kind != "infantry":
            raise AnswerError(Msg.of("waw.entry.error.ride_not_infantry", part=p.text))
        if p.ride and p.ride not in vehicles:
            raise AnswerError(Msg.of("waw.entry.error.ride_unknown", part=p.text))


def _quoted(name: str) -> str:
    return f"«{name}»" if '"' in name else f'"{name}"'
