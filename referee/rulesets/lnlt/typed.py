"""Lock 'n Load Tactical typed at the table (issue 27): a phase with no roster file asks its
units in compact lines, as the other rulesets do, and keeps them in the game (the phase's
state holds its roster).

* the two sides (only when the game file does not name them): ``Grey, Red``;
* each side's units in one line, the units parted by commas:
  ``[2x] [NAME] FP [MORALE] [leader LM] [hero] [vehicle armor AF] [mg FP] [flamethrower FP]
  [dft FP] [oft] [bunker | entrance] [level N] [shaken | wounded | damaged] [@HEX]``, e.g.
  ``Able 2 6 @C4, "Lt. Baker" 0 8 leader 1, Panzer 4 vehicle armor 3 mg 2 @E5``; a unit
  without ``@HEX`` stands in the hex of the one before it; a unit without a name is named
  after its side and its number (``Grey 2``), numbered without gaps;
* which hexes are adjacent, as the players read them off the map (geometry stays at the
  table): ``C4-D4, C4-E5`` (Enter: none); asked only when a leader may reach an adjacent hex
  (L-3, L-4), the one rule that reads it.

The lines are read by the reader the rulesets share (``referee.rulesets.compact``) with this
ruleset's words (``rulesets/lnl-tactical/words.toml``, both languages), by the question
itself, so typed and scripted lines fail the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.core.errors import AnswerError
from referee.core.port import Port
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets import compact, lines
from referee.rulesets.lnlt.roster import ID, Roster
from referee.rulesets.lnlt.tables import RULESET_ID

MAX_UNITS = 100  # a side's units (the roster holds 200 at the most)
NUMBER_KEYS = frozenset({"leader", "armor", "mg", "flamethrower", "dft", "level"})
SW_KINDS = ("mg", "flamethrower", "dft")
HEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


fold = lines.fold


def keyword(word: str) -> str | None:
    """The keyword (``leader``, ``mg``, ``shaken``...) a word is, or ``None``."""
    return lines.words(RULESET_ID).thing(word, "entry")


WORDS = compact.Vocabulary(keyword, NUMBER_KEYS, "lnlt.entry")


def _error(key: str, **params: Any) -> AnswerError:
    return WORDS.error(key, **params)


def _bounded(value: int, part: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise _error("bounds", part=Msg.of(f"lnlt.entry.part.{part}"), given=value, low=low,
                     high=high)
    return value


@dataclass(frozen=True)
class UnitLine:
    """A unit (or ``count`` identical ones) as typed."""

    count: int = 1
    name: str | None = None
    kind: str = "mmc"  # mmc, smc, vehicle
    fp: int = 0
    morale: int | None = None
    lm: int = 0
    armor: int | None = None
    sws: tuple[tuple[str, int], ...] = ()  # (kind, FP)
    position: str = "open"
    level: int | None = None
    status: str = "good-order"
    hex: str | None = None

    def text(self) -> str:
        """The unit as a line says it (written back in the words of ``words.toml``)."""
        out = [f"{self.count}x"] if self.count > 1 else []
        if self.name:
            out.append(_name_text(self.name))
        out.append(str(self.fp))
        if self.morale is not None:
            out.append(str(self.morale))
        if self.lm:
            out += ["leader", str(self.lm)]
        elif self.kind == "smc":
            out.append("hero")
        if self.kind == "vehicle":
            out.append("vehicle")
            if self.armor is not None:
                out += ["armor", str(self.armor)]
        for kind, fp in self.sws:
            out += [kind] if kind == "oft" else [kind, str(fp)]
        if self.position != "open":
            out.append("bunker" if self.position == "inside" else "entrance")
        if self.level is not None:
            out += ["level", str(self.level)]
        if self.status != "good-order":
            out.append(self.status)
        if self.hex:
            out.append(f"@{self.hex}")
        return " ".join(out)


def _name_text(name: str) -> str:
    """A name as a line writes it: quoted when a word of it would read as a number, a
    keyword, a count or a hex."""
    plain = all(not (compact.INT.match(w) or compact.COUNT.match(w) or w.startswith("@")
                     or keyword(w) is not None or '"' in w or "«" in w)
                for w in name.split())
    if plain:
        return name
    return f"«{name}»" if '"' in name else f'"{name}"'


def parse_unit(text_tokens: Sequence[str]) -> UnitLine:
    """One unit of a side's line (its tokens)."""
    count, tokens = compact.counted(text_tokens, WORDS, MAX_UNITS, _bounded)
    flags = {"hero", "vehicle", "oft", "bunker", "entrance", "shaken", "wounded", "damaged"}
    seg = compact.read(tokens, WORDS, flags, set(NUMBER_KEYS) | {"hex"}, "unit")
    if not seg.numbers:
        raise _error("unit_numbers", given="-")
    if len(seg.numbers) > 2 or any(compact.SLASHED.match(n) for n in seg.numbers):
        raise _error("unit_numbers", given=" ".join(seg.numbers))
    numbers = [int(n) for n in seg.numbers]
    kind = "vehicle" if "vehicle" in seg.flags else \
        "smc" if ("leader" in seg.valued or "hero" in seg.flags) else "mmc"
    if kind == "vehicle" and "leader" in seg.valued:
        raise _error("vehicle_leader")
    statuses = [s for s in ("shaken", "wounded", "damaged") if s in seg.flags]
    if len(statuses) > 1:
        raise _error("two_statuses", first=statuses[0], second=statuses[1])
    if statuses and statuses[0] == "damaged" and kind != "vehicle":
        raise _error("status_kind", given=statuses[0])
    if statuses and statuses[0] != "damaged" and kind == "vehicle":
        raise _error("status_kind", given=statuses[0])
    if "bunker" in seg.flags and "entrance" in seg.flags:
        raise _error("two_positions")
    if seg.hex is not None and not HEX.match(seg.hex):
        raise _error("bad_hex", given=seg.hex)
    sws = tuple((k, _bounded(seg.valued[k], "sw_fp", 0, 20)) for k in SW_KINDS
                if k in seg.valued) + ((("oft", 0),) if "oft" in seg.flags else ())
    return UnitLine(
        count=count, name=seg.name, kind=kind, fp=_bounded(numbers[0], "fp", 0, 20),
        morale=_bounded(numbers[1], "morale", 0, 12) if len(numbers) > 1 else None,
        lm=_bounded(seg.valued.get("leader", 0), "lm", 1 if "leader" in seg.valued else 0, 5),
        armor=_bounded(seg.valued["armor"], "armor", 0, 20) if "armor" in seg.valued
        else None, sws=sws,
        position="inside" if "bunker" in seg.flags else
        "entrance" if "entrance" in seg.flags else "open",
        level=_bounded(seg.valued["level"], "level", -1, 10) if "level" in seg.valued
        else None, status=statuses[0] if statuses else "good-order", hex=seg.hex)


@dataclass(frozen=True)
class SideUnits:
    """A side's line: its units, each with the hex it stands in."""

    units: tuple[UnitLine, ...]

    def count(self) -> int:
        return sum(u.count for u in self.units)


@dataclass(frozen=True, kw_only=True)
class UnitsQuestion(LineQuestion):
    """A side's units in one line, parted by commas: ``Able 2 6 @C4, Baker 1 5``."""

    side: str = ""
    max_length: int = 4000

    def parse(self, text: str) -> SideUnits:
        units: list[UnitLine] = []
        where: str | None = None
        for part in text.split(","):
            tokens = compact.tokens(part, WORDS)
            if not tokens:
                continue
            if len(tokens) == 1 and keyword(tokens[0]) == "done":
                continue
            unit = parse_unit(tokens)
            where = unit.hex or where
            if where is None:
                raise _error("no_hex", given=" ".join(tokens))
            units.append(replace(unit, hex=where))
        if not units:
            raise _error("no_units", side=self.side)
        line = SideUnits(tuple(units))
        if line.count() > MAX_UNITS:
            raise _error("too_many", most=MAX_UNITS)
        return line

    def format(self, value: SideUnits) -> str:
        out: list[str] = []
        where = None
        for unit in value.units:
            shown = unit if unit.hex != where else replace(unit, hex=None)
            where = unit.hex
            out.append(shown.text())
        return ", ".join(out)


@dataclass(frozen=True, kw_only=True)
class SidesQuestion(LineQuestion):
    """The two sides' names: ``Grey, Red`` (two words need no comma)."""

    def parse(self, text: str) -> tuple[str, str]:
        parts = [p.strip() for p in text.split(",")] if "," in text else text.split()
        parts = [p for p in parts if p]
        if len(parts) != 2 or fold(parts[0]) == fold(parts[1]):
            raise _error("sides", given=text)
        return parts[0], parts[1]

    def format(self, value: tuple[str, str]) -> str:
        return ", ".join(value)


@dataclass(frozen=True, kw_only=True)
class AdjacentQuestion(LineQuestion):
    """Pairs of adjacent hexes: ``C4-D4, C4-E5``; ``-`` (what Enter takes): none."""

    hexes: tuple[str, ...] = ()
    default_value: str | None = "-"
    max_length: int = 4000

    def parse(self, text: str) -> tuple[tuple[str, str], ...]:
        if keyword(text) == "done":
            return ()
        pairs: list[tuple[str, str]] = []
        for part in re.split(r"[,;]|\s+", text):
            if not part:
                continue
            ends = [h.upper() for h in re.split(r"[-–—]", part) if h]
            if len(ends) != 2 or not all(HEX.match(h) for h in ends) or ends[0] == ends[1]:
                raise _error("pair", given=part)
            for h in ends:
                if self.hexes and h not in self.hexes:
                    raise _error("unknown_hex", given=h, known=", ".join(self.hexes))
            pairs.append((ends[0], ends[1]))
        return tuple(dict.fromkeys(pairs))

    def format(self, value: tuple[tuple[str, str], ...]) -> str:
        return ", ".join(f"{a}-{b}" for a, b in value) or "-"


def _slug(text: str) -> str:
    """An id from a name: its ASCII letters and digits (a name in another script: ``unit``,
    numbered by ``_Ids``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")
    return slug if slug and ID.match(slug) else "unit"


@dataclass
class _Ids:
    taken: set[str] = field(default_factory=set)

    def of(self, text: str) -> str:
        base = _slug(text)
        out, n = base, 1
        while out in self.taken:
            n += 1
            out = f"{base}-{n}"
        self.taken.add(out)
        return out


def units_of(side: str, line: SideUnits, ids: _Ids, first: int = 1) -> list[dict[str, Any]]:
    """The roster's units of a side's line: a unit without a name is named after its side
    and its number among the side's unnamed units (``Grey 1``, ``Grey 2``: no gaps)."""
    out: list[dict[str, Any]] = []
    unnamed = first
    for unit in line.units:
        for i in range(unit.count):
            if unit.name is None:
                name = f"{side} {unnamed}"
                unnamed += 1
            else:
                name = unit.name if unit.count == 1 else f"{unit.name} {i + 1}"
            uid = ids.of(name)
            out.append({
                "id": uid, "name": name, "side": side, "hex": unit.hex,
                "kind": unit.kind, "ifp": unit.fp, "leader": unit.lm > 0, "lm": unit.lm,
                "armor": unit.armor, "morale": unit.morale, "position": unit.position,
                "level": unit.level, "status": unit.status,
                "sws": [{"id": ids.of(f"{uid}-{kind}"), "kind": kind, "fp": fp}
                        for kind, fp in unit.sws]})
    return out


def ask_roster(port: Port, sides: Sequence[str] | None = None) -> Roster:
    """The roster of a phase typed at the table (see the module): the sides (unless the game
    names them), each side's units, the adjacent hexes."""
    if sides is None or len(sides) != 2:
        sides = port.ask(SidesQuestion(id="typed.sides", text=Msg.of("lnlt.q.typed_sides"),
                                    hint_msg=Msg.of("lnlt.hint.typed_sides"), clause="L-1"))
    ids = _Ids()
    units: list[dict[str, Any]] = []
    for i, side in enumerate(sides, 1):
        line: SideUnits = port.ask(UnitsQuestion(
            id=f"typed.units.{i}", side=side, clause="L-1",
            text=Msg.of("lnlt.q.typed_units", side=side),
            hint_msg=Msg.of("lnlt.hint.typed_units")))
        units += units_of(side, line, ids)
    hexes = tuple(sorted({str(u["hex"]) for u in units}))
    adjacent: dict[str, list[str]] = {}
    # which hexes are adjacent matters to the rules only for a leader's reach (L-3, L-4)
    if len(hexes) > 1 and any(u["leader"] for u in units):
        pairs: tuple[tuple[str, str], ...] = port.ask(AdjacentQuestion(
            id="typed.adjacent", hexes=hexes, clause="L-3",
            text=Msg.of("lnlt.q.typed_adjacent", hexes=", ".join(hexes)),
            hint_msg=Msg.of("lnlt.hint.typed_adjacent")))
        for a, b in pairs:
            adjacent.setdefault(a, []).append(b)
    roster: Roster = Roster.model_validate({"sides": list(sides), "units": units,
                                            "adjacent": adjacent})
    return roster
