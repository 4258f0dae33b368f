"""Compact lines of a Combat Commander fire attack at the table: one answer says a piece (or
several identical pieces) with everything the rules need of it.

* a firing piece: ``[2x] [NAME] FP RANGE HEXES [h2] [@B4] [broken] [weapon] [white]
  [with NAME FP RANGE [white]]...``; a leader ``[NAME] leader 1`` (Command only) or
  ``[NAME] leader 1 FP RANGE HEXES`` (he fires too);
* a unit of the target hex: ``[2x] [NAME] MORALE[/BROKEN-SIDE MORALE] [broken] [suppressed]
  [moving] [leader 1] [vp 2]``;
* the situation: ``[@D5] [cover 1] [hill 1] [sustained 2] [crossfire 2] [marksmanship 1]
  [+1]``.

Words before the first number are the name (quote it, ``"Squad 5"`` or «Отделение 5», when it
holds a number or a keyword); the words after the numbers say what the piece is. Keywords come
in both languages (``words.toml``); ``-`` (or Enter where offered) ends a list. Every line is
read by ``parse`` (typed and scripted alike) and refused with a one-line reason naming the part
that is wrong; a piece that cannot join the group is refused when it is entered, by the very
check the resolver makes of a whole declaration (``legality.group_refusal``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from referee.core.errors import AnswerError
from referee.core.options import Options
from referee.core.questions import ChoiceQuestion, LineQuestion
from referee.core.text import Msg
from referee.rulesets import compact
from referee.rulesets.cc.declaration import FiringPiece
from referee.rulesets.cc.legality import best_fp, group_refusal
from referee.rulesets.cc.words import bonus_of, fold, keyword, nation_of

DONE = "-"  # the answer that ends a list of pieces or units
MAX_PIECES = 20  # the declaration's limits
MAX_UNITS = 12

_COUNT = compact.COUNT
_GLUED_H = re.compile(r"^[hп](\d+)$", re.I)
_INT = compact.INT
_MORALE = compact.SLASHED
_NUMBER_KEYS = {"leader", "hindrance", "vp", "cover"}
WORDS = compact.Vocabulary(keyword, frozenset(_NUMBER_KEYS), "cc.entry",
                           glued=(_GLUED_H, "hindrance"))
"""The compact lines' words and refusals, read by the reader the rulesets share."""

Kind = Literal["unit", "weapon", "leader"]


def _error(key: str, **params: Any) -> AnswerError:
    return WORDS.error(key, **params)


def _tokens(text: str) -> list[str]:
    return compact.tokens(text, WORDS)




def _bounded(value: int, part: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise _error("bounds", part=Msg.of(f"cc.entry.part.{part}"), given=value, low=low,
                     high=high)
    return value


def _kw(name: str) -> str:
    """A keyword as a line is written back: in the player's language (``broken``,
    ``сломлено``); ``parse`` reads either language, so a line keeps its meaning anywhere."""
    from referee.catalog import render

    return render(Msg.of(f"cc.entry.kw.{name}"))


def _plain_word(word: str) -> bool:
    """A word that reads back as a word of a name (not a number, a keyword or a marker)."""
    return not (_INT.match(word) or _COUNT.match(word) or _GLUED_H.match(word)
                or _MORALE.match(word) or word.startswith("@") or '"' in word
                or "«" in word or keyword(word) in (_NUMBER_KEYS | {"with", "done"}))


def _name_text(name: str) -> str:
    if all(_plain_word(w) for w in name.split()):
        return name
    return f"«{name}»" if '"' in name else f'"{name}"'


_Segment = compact.Segment


def _read(tokens: Sequence[str], flags: set[str], valued: set[str], what: str) -> _Segment:
    """The parts of ``tokens`` (``compact.read`` with Combat Commander's words)."""
    return compact.read(tokens, WORDS, flags, valued, what)


def _ints(seg: _Segment) -> list[int]:
    out = []
    for n in seg.numbers:
        if _MORALE.match(n):
            raise _error("slash", given=n)
        out.append(int(n))
    return out


def _start(text: str, most: int) -> tuple[int, list[str]] | None:
    """A list's line: ``None`` for the word that ends the list, else how many identical
    pieces it says (``2x``) and its other tokens."""
    tokens = _tokens(text)
    if len(tokens) == 1 and keyword(tokens[0]) == "done":
        return None
    return compact.counted(tokens, WORDS, most, _bounded)


# --- a firing piece ---------------------------------------------------------------------


@dataclass(frozen=True)
class CarriedWeapon:
    name: str | None
    fp: int
    range: int
    white_band: bool = False


@dataclass(frozen=True)
class PieceLine:
    """A firing piece (or ``count`` identical ones) as typed."""

    kind: Kind = "unit"
    count: int = 1
    name: str | None = None
    fp: int = 0
    range: int = 0
    distance: int = 1
    hindrance: int = 0
    hex: str | None = None  # None: the hex of the line before
    command: int = 0
    fires: bool = True
    broken: bool = False
    white_band: bool = False
    weapons: tuple[CarriedWeapon, ...] = ()

    @property
    def size(self) -> int:
        """How many pieces the line makes (its weapons included)."""
        return self.count * (1 + len(self.weapons))


def parse_piece(text: str) -> PieceLine | str:
    """A firing piece's line, or ``DONE``."""
    start = _start(text, MAX_PIECES)
    if start is None:
        return DONE
    count, tokens = start
    parts: list[list[str]] = [[]]
    for t in tokens:
        if keyword(t) == "with":
            parts.append([])
        else:
            parts[-1].append(t)
    seg = _read(parts[0], {"broken", "weapon", "white"}, {"leader", "hindrance", "hex"},
                "piece")
    numbers = _ints(seg)
    leader = "leader" in seg.valued
    if leader and seg.flags & {"weapon", "white"}:
        raise _error("leader_weapon")
    fires = not leader or bool(numbers)
    if fires and len(numbers) != 3:
        raise _error("leader_numbers" if leader else "piece_numbers",
                     given=" ".join(seg.numbers) or "-")
    fp, reach, distance = numbers if fires else (0, 0, 1)
    kind: Kind = "leader" if leader else \
        "weapon" if seg.flags & {"weapon", "white"} else "unit"
    line = PieceLine(
        kind=kind, count=count, name=seg.name, fp=_bounded(fp, "fp", 0, 30),
        range=_bounded(reach, "range", 0, 40), distance=_bounded(distance, "distance", 1, 40),
        hindrance=_bounded(seg.valued.get("hindrance", 0), "hindrance", 0, 20), hex=seg.hex,
        command=_bounded(seg.valued.get("leader", 0), "command", 0, 5), fires=fires,
        broken="broken" in seg.flags, white_band="white" in seg.flags,
        weapons=tuple(_weapon(part) for part in parts[1:]))
    if line.size > MAX_PIECES:
        raise _error("too_many", most=MAX_PIECES)
    return line


def _weapon(tokens: list[str]) -> CarriedWeapon:
    seg = _read(tokens, {"white"}, set(), "weapon")
    numbers = _ints(seg)
    if len(numbers) != 2:
        raise _error("weapon_numbers", given=" ".join(seg.numbers) or "-")
    return CarriedWeapon(seg.name, _bounded(numbers[0], "fp", 0, 30),
                         _bounded(numbers[1], "range", 0, 40), "white" in seg.flags)


def _head(count: int, name: str | None) -> list[str]:
    """How a line starts when written back: its count (``2x``) and its name."""
    return ([f"{count}x"] if count > 1 else []) + ([_name_text(name)] if name else [])


def format_piece(line: PieceLine | str) -> str:
    if isinstance(line, str):
        return DONE
    out = _head(line.count, line.name)
    if line.kind == "leader":
        out += [_kw("leader"), str(line.command)]
    if line.fires:
        out += [str(line.fp), str(line.range), str(line.distance)]
    if line.hindrance:
        out.append(_kw("hindrance") + str(line.hindrance))
    if line.hex:
        out.append("@" + line.hex)
    if line.broken:
        out.append(_kw("broken"))
    if line.kind == "weapon":
        out.append(_kw("white" if line.white_band else "weapon"))
    for w in line.weapons:
        out.append(_kw("with"))
        if w.name:
            out.append(_name_text(w.name))
        out += [str(w.fp), str(w.range)] + ([_kw("white")] if w.white_band else [])
    return " ".join(out)


def line_pieces(line: PieceLine, first: int, hex: str) -> list[dict[str, Any]]:
    """The declaration's pieces of one line, numbered from ``first``, in ``hex``: each piece
    followed by the weapons it carries."""
    out: list[dict[str, Any]] = []
    for i in range(1, line.count + 1):
        suffix = "" if line.count == 1 else f" {i}"
        out.append({
            "number": first + len(out), "name": line.name and line.name + suffix,
            "kind": line.kind, "hex": hex, "fp": line.fp, "range": line.range,
            "distance": line.distance, "hindrance": line.hindrance,
            "white_band": line.white_band, "command": line.command, "fires": line.fires,
            "broken": line.broken})
        for w in line.weapons:
            out.append({"number": first + len(out), "name": w.name and w.name + suffix,
                        "kind": "weapon", "hex": hex, "fp": w.fp, "range": w.range,
                        "distance": line.distance, "hindrance": line.hindrance,
                        "white_band": w.white_band, "carrier_broken": line.broken})
    return [{k: v for k, v in p.items() if v is not None} for p in out]


@dataclass(frozen=True, kw_only=True)
class ListQuestion(LineQuestion):
    """A line of a list (pieces, units): ``number`` is the next one's; the first line needs
    an answer (``default_value`` ``None``), the others take ``-`` (the end) on Enter."""

    number: int
    empty: ClassVar[str] = "first_piece"  # the refusal of an empty first line

    def accept(self, raw: Any) -> Any:
        if isinstance(raw, str) and not raw.strip() and self.default_value is None:
            raise _error(self.empty)
        return super().accept(raw)


@dataclass(frozen=True, kw_only=True)
class PieceQuestion(ListQuestion):
    """One line of the fire group. ``group`` holds the pieces entered before it, ``hex``
    the hex a line without ``@HEX`` stands in; a piece that cannot join them (out of range
    with its hex's Command, a weapon of a broken unit, a white-band weapon with others) is
    refused here, with the clause, and the player types another line or ends the list."""

    hex: str
    group: tuple[FiringPiece, ...] = ()
    rules: Options | None = field(default=None, compare=False)

    def parse(self, text: str) -> PieceLine | str:
        line = parse_piece(text)
        if isinstance(line, str):
            if not any(p.fires for p in self.group):
                raise _error("nobody_fires")
            return line
        if len(self.group) + line.size > MAX_PIECES:
            raise _error("too_many", most=MAX_PIECES)
        if self.rules is not None:
            pieces = [FiringPiece.model_validate(p) for p in
                      line_pieces(line, self.number, line.hex or self.hex)]
            refused = group_refusal([*self.group, *pieces], Msg.of("cc.label.target"),
                                    self.rules)
            if refused is not None:
                clause, reason = refused
                raise AnswerError(Msg.of("cc.entry.refused", reason=reason, clause=clause))
        return line

    def format(self, value: Any) -> str:
        return format_piece(value)


# --- a unit of the target hex -------------------------------------------------------------


@dataclass(frozen=True)
class UnitLine:
    count: int = 1
    name: str | None = None
    kind: Literal["unit", "leader"] = "unit"
    morale: int = 7
    broken_morale: int | None = None
    command: int = 0
    broken: bool = False
    suppressed: bool = False
    moving: bool = False
    vp: int | None = None


def parse_unit(text: str) -> UnitLine | str:
    start = _start(text, MAX_UNITS)
    if start is None:
        return DONE
    count, tokens = start
    seg = _read(tokens, {"broken", "suppressed", "moving"}, {"leader", "vp"}, "unit")
    if len(seg.numbers) != 1:
        raise _error("unit_numbers", given=" ".join(seg.numbers) or "-")
    slash = _MORALE.match(seg.numbers[0])
    broken = "broken" in seg.flags
    broken_morale: int | None
    if slash:
        morale, broken_morale = int(slash.group(1)), int(slash.group(2))
        _bounded(broken_morale, "broken_morale", 0, 15)
    else:
        morale = int(seg.numbers[0])
        broken_morale = morale if broken else None
    vp = seg.valued.get("vp")
    return UnitLine(count=count, name=seg.name,
                    kind="leader" if "leader" in seg.valued else "unit",
                    morale=_bounded(morale, "morale", 0, 15), broken_morale=broken_morale,
                    command=_bounded(seg.valued.get("leader", 0), "command", 0, 5),
                    broken=broken, suppressed="suppressed" in seg.flags,
                    moving="moving" in seg.flags,
                    vp=None if vp is None else _bounded(vp, "vp", 0, 20))


def format_unit(line: UnitLine | str) -> str:
    if isinstance(line, str):
        return DONE
    out = _head(line.count, line.name)
    same = line.broken_morale is None or (line.broken and line.broken_morale == line.morale)
    out.append(str(line.morale) if same else f"{line.morale}/{line.broken_morale}")
    out += [_kw(flag) for flag in ("broken", "suppressed", "moving") if getattr(line, flag)]
    if line.kind == "leader":
        out += [_kw("leader"), str(line.command)]
    if line.vp is not None:
        out += [_kw("vp"), str(line.vp)]
    return " ".join(out)


def line_units(line: UnitLine, first: int) -> list[dict[str, Any]]:
    out = []
    for i in range(line.count):
        unit: dict[str, Any] = {
            "number": first + i, "name": line.name if line.name is None or line.count == 1
            else f"{line.name} {i + 1}", "kind": line.kind, "morale": line.morale,
            "broken_morale": line.broken_morale, "command": line.command,
            "broken": line.broken, "suppressed": line.suppressed, "moving": line.moving,
            "vp": line.vp}
        out.append({k: v for k, v in unit.items() if v is not None})
    return out


@dataclass(frozen=True, kw_only=True)
class UnitQuestion(ListQuestion):
    empty: ClassVar[str] = "first_unit"

    def parse(self, text: str) -> UnitLine | str:
        line = parse_unit(text)
        if not isinstance(line, str) and self.number - 1 + line.count > MAX_UNITS:
            raise _error("too_many_units", most=MAX_UNITS)
        return line

    def format(self, value: Any) -> str:
        return format_unit(value)


# --- the situation ------------------------------------------------------------------------


@dataclass(frozen=True)
class Situation:
    target_hex: str | None = None
    cover: int = 0
    bonuses: tuple[tuple[str, int], ...] = ()  # (source, FP) in the order typed


def parse_situation(text: str, *, hex_allowed: bool = True) -> Situation:
    tokens = _tokens(text)
    if len(tokens) == 1 and keyword(tokens[0]) == "done":
        return Situation()
    target: str | None = None
    cover = 0
    bonuses: list[tuple[str, int]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if t.startswith("@") and len(t) > 1:
            if not hex_allowed:
                raise _error("target_chosen", given=t)
            target = t[1:].upper()
        elif t.startswith("@"):
            raise _error("hex_empty")
        elif _INT.match(t) and t[0] in "+-":
            bonuses.append(("other", _bounded(int(t), "bonus", -10, 10)))
        elif keyword(t) == "cover" or bonus_of(t) is not None:
            if not _INT.match(nxt):
                raise _error("needs_number", word=t, example=f"{t} 1")
            if keyword(t) == "cover":
                cover = _bounded(int(nxt), "cover", -5, 10)
            else:
                source = bonus_of(t)
                assert source is not None
                bonuses.append((source, _bounded(int(nxt), "bonus", -10, 10)))
            i += 1
        else:
            raise _error("situation_word", given=t)
        i += 1
    return Situation(target, cover, tuple(bonuses))


def format_situation(value: Situation) -> str:
    out = ["@" + value.target_hex] if value.target_hex else []
    out += [_kw("cover"), str(value.cover)]
    for source, fp in value.bonuses:
        out += [f"{fp:+d}"] if source == "other" else [_kw(source), f"{fp:+d}"]
    return " ".join(out)


@dataclass(frozen=True, kw_only=True)
class SituationQuestion(LineQuestion):
    """The attack's FP bonuses and the target hex's cover (and, typed in, its name). An
    attack whose FP would be 0 or less with the best base piece is refused here (C-9)."""

    group: tuple[FiringPiece, ...] = ()
    hex_allowed: bool = True
    rules: Options | None = field(default=None, compare=False)

    def parse(self, text: str) -> Situation:
        value = parse_situation(text, hex_allowed=self.hex_allowed)
        if value.target_hex is not None and \
                fold(value.target_hex) in {fold(p.hex) for p in self.group}:
            raise AnswerError(Msg.of("cc.entry.refused_here", clause="C-2", reason=Msg.of(
                "cc.entry.error.own_hex", hex=value.target_hex)))
        if self.rules is not None and any(p.fires for p in self.group):
            fp = best_fp(self.group, [b for _, b in value.bonuses], self.rules)
            if fp <= 0:
                raise AnswerError(Msg.of("cc.entry.refused_fp", clause="C-9",
                                         reason=Msg.of("cc.refuse.fp_zero", fp=fp)))
        return value

    def format(self, value: Any) -> str:
        return format_situation(value)


# --- a nation -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class NationQuestion(ChoiceQuestion):
    """A nation, also named by its adjective or the game's word for the side
    (``german``, ``germans``, ``немцы``)."""

    def accept(self, raw: Any) -> str:
        if isinstance(raw, str):
            raw = nation_of(raw) or raw
        return super().accept(raw)


# --- a firing hex's line of sight (roster) ------------------------------------------------


def parse_range(text: str) -> tuple[int, int]:
    """``3 h1``: hexes to the target and the hindrance on the line of sight."""
    seg = _read(_tokens(text), set(), {"hindrance"}, "range")
    if seg.name is not None or len(seg.numbers) != 1:
        raise _error("range_numbers", given=text)
    return (_bounded(_ints(seg)[0], "distance", 1, 40),
            _bounded(seg.valued.get("hindrance", 0), "hindrance", 0, 20))


@dataclass(frozen=True, kw_only=True)
class RangeQuestion(LineQuestion):
    """How far a firing hex is from the target, and the hindrance on its line of sight;
    refused when none of its pieces reaches that far (``reach``: the longest Range with
    Command of the hex's pieces that may fire, C-6, C-14)."""

    hex: str
    target: str
    reach: int

    def parse(self, text: str) -> tuple[int, int]:
        distance, hindrance = parse_range(text)
        if distance > self.reach:
            raise AnswerError(Msg.of("cc.entry.refused_hex", clause="C-6", reason=Msg.of(
                "cc.entry.error.hex_out_of_range", hex=self.hex, target=self.target,
                distance=distance, reach=self.reach)))
        return distance, hindrance

    def format(self, value: Any) -> str:
        distance, hindrance = value
        return f"{distance} {_kw('hindrance')}{hindrance}" if hindrance else str(distance)
