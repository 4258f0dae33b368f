"""A later fire attack of a game file from the pieces the game keeps (issue 27): offered by
name, so that nothing the game was told is typed again.

The first question of a typed attack ("Which side fires?", id ``attacker``) in a game that
keeps pieces offers first each kept firing hex at each kept enemy hex by the pieces' names
("German unit 1, German unit 2 at American unit 1, American unit 2"), then the nations to
type a new attack (its default, as before: recorded attacks replay); the choice list filters
as one types a name. A
kept piece that was eliminated is never offered; a broken unit or weapon does not fire from
the list (its broken side's FP is not kept), a broken leader gives no Command (C-14); a
white-band weapon fires alone (C-7), so it is offered on its own. The sides are the game's
(the pieces' nations).

Then only what the game cannot know or what may have changed: a target unit's Morale when no
attack gave it (it only fired), a broken unit's broken-side Morale when not known (C-4), and
one line for the situation, whose default is what the game keeps (the distance and hindrance
the pieces last fired over, the cover of the hex they were last fired at in): ``[DISTANCE]
[hN] [cover N] [bonuses] [moving [NAMES]] [without NAMES]``: ``without`` leaves kept pieces
out of the group (C-8: the owner forms it). A piece that cannot reach that far is left out
with the clause (C-6), as the roster path does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.errors import AnswerError
from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import EITHER, Choice, LineQuestion, NumberQuestion
from referee.core.text import Msg
from referee.rulesets.cc.army import UNNAMED_HEX
from referee.rulesets.cc.ask import Asked
from referee.rulesets.cc.declaration import FireDeclaration, FiringPiece
from referee.rulesets.cc.labels import joined
from referee.rulesets.cc.legality import best_fp, group_refusal, hex_command
from referee.rulesets.cc.line import WORDS, parse_situation
from referee.rulesets.cc.words import fold, keyword, piece_key
from referee.rulesets.compact import INT, SLASHED


@dataclass(frozen=True)
class Pair:
    """Kept pieces of one hex firing at the kept units of an enemy hex."""

    value: str
    attacker: str
    firing_hex: str | None
    firing: tuple[Mapping[str, Any], ...]  # those that fire, then leaders giving Command
    defender: str
    target_hex: str | None
    target: tuple[Mapping[str, Any], ...]

    @property
    def group(self) -> list[FiringPiece]:
        hex_name = UNNAMED_HEX if _unnamed(self.firing_hex) else str(self.firing_hex)
        return [_piece(p, hex_name) for p in self.firing]

    @property
    def situation(self) -> str | None:
        """The situation line as the game keeps it (``None``: no distance kept)."""
        return _default(self.group, self.firing, self.target)

    def label(self, situation: str | None) -> Msg:
        """Offered as the game keeps it (``situation``: its line), or with a new line."""
        firing = _names(self.firing, self.firing_hex)
        target = _names(self.target, self.target_hex, states=True)
        if situation is None:
            return Msg.of("cc.kept.choice_changed", firing=firing, target=target)
        line = KeptSituationQuestion(id="-", text=Msg.of("cc.kept.q.situation"),
                                     group=tuple(self.group)).parse(situation)
        distance = line.distance or 1
        where = Msg.of("cc.kept.where", distance=distance, cover=line.cover,
                       hindrance=line.hindrance or 0)
        return Msg.of("cc.kept.choice", firing=firing, target=target, situation=where)


def _names(pieces: Sequence[Mapping[str, Any]], hex_name: str | None, *,
           states: bool = False) -> Msg | str:
    labels: list[Msg | str] = []
    for p in pieces:
        state = "broken" if p.get("broken") else "suppressed" if p.get("suppressed") else None
        labels.append(Msg.of("cc.kept.unit_state", unit=p["name"],
                             state=Msg.of(f"cc.result.{state}"))
                      if states and state else p["name"])
    names = joined(labels)
    return names if _unnamed(hex_name) else Msg.of("cc.kept.at_hex", pieces=names,
                                                   hex=hex_name)


def _unnamed(hex_name: str | None) -> bool:
    return hex_name is None or hex_name == UNNAMED_HEX


def _fires(p: Mapping[str, Any]) -> bool:
    """A kept piece that may fire from the list: on the map, not broken, its FP and Range
    known (a leader only with FP of his own)."""
    return (not p.get("eliminated") and not p.get("broken") and p.get("fp") is not None
            and p.get("range") is not None and (p.get("kind") != "leader" or p["fp"] > 0))


def _commands(p: Mapping[str, Any]) -> bool:
    """A kept leader who gives his Command without firing (unbroken, C-14)."""
    return (p.get("kind") == "leader" and not p.get("eliminated") and not p.get("broken")
            and bool(p.get("command")) and not _fires(p))


def _target(p: Mapping[str, Any]) -> bool:
    return not p.get("eliminated") and p.get("kind", "unit") in ("unit", "leader")


def pairs(state: Mapping[str, Any]) -> list[Pair]:
    """What a later attack may resolve from the kept pieces: each kept hex with pieces that
    may fire at each kept hex of another side with units on the map (a white-band weapon
    on its own: it fires alone, C-7)."""
    hexes: dict[tuple[str, str | None], list[Mapping[str, Any]]] = {}
    for p in state.get("units", ()):
        hexes.setdefault((p["side"], p.get("hex")), []).append(p)
    out: list[Pair] = []
    for (side, where), pieces in hexes.items():
        firing = [p for p in pieces if _fires(p) and not p.get("white_band")]
        leaders = [p for p in pieces if _commands(p)]
        groups = [tuple(firing + leaders)] if firing else []
        groups += [(p, *leaders) for p in pieces if _fires(p) and p.get("white_band")]
        for group in groups:
            for (other, there), units in hexes.items():
                targets = tuple(u for u in units if _target(u))
                if other == side or not targets:
                    continue
                alone = ":" + group[0]["name"] if group[0].get("white_band") else ""
                value = f"kept:{side}:{where or '-'}:{other}:{there or '-'}{alone}"
                out.append(Pair(value, side, where, group, other, there, targets))
    return out


def choices(state: Mapping[str, Any]) -> tuple[Choice, ...]:
    """The first question's kept choices (empty: the game keeps nothing to fire)."""
    found = pairs(state)
    if not found:
        return ()
    out: list[Choice] = []
    for p in found:
        line = p.situation
        if line is not None:  # nothing changed: not one more question
            out.append(Choice(p.value, p.label(line)))
        out.append(Choice(p.value + CHANGED, p.label(None)))
    return tuple(out)


CHANGED = "|changed"  # a choice's suffix: the situation line is asked


def chosen(state: Mapping[str, Any], value: str) -> tuple[Pair, bool]:
    """The pair a choice names, and whether its situation line is asked."""
    bare = value.removesuffix(CHANGED)
    return next(p for p in pairs(state) if p.value == bare), bare != value


# --- what changed -------------------------------------------------------------------------


@dataclass(frozen=True)
class KeptSituation:
    distance: int | None = None  # None: as kept
    hindrance: int | None = None
    cover: int = 0
    bonuses: tuple[tuple[str, int], ...] = ()
    moving: tuple[str, ...] = ()  # target names
    without: tuple[str, ...] = ()  # firing pieces left out of the group


@dataclass(frozen=True, kw_only=True)
class KeptSituationQuestion(LineQuestion):
    """The situation of a kept attack: how far the target hex is and the hindrance on the
    line of sight (for every firing piece, left out: as kept), the FP bonuses and the
    target's cover, which target units are moving. Refused when no piece reaches (C-6) or
    the best FP would be 0 or less (C-9)."""

    group: tuple[FiringPiece, ...] = ()
    targets: tuple[str, ...] = ()
    rules: Options | None = field(default=None, compare=False)

    def parse(self, text: str) -> KeptSituation:
        words = text.split()
        cuts = [i for i, w in enumerate(words) if keyword(w) in ("moving", "without")]
        cut = cuts[0] if cuts else len(words)
        head = words[:cut]
        named: dict[str, str] = {}  # the names after each keyword
        for i, start in enumerate(cuts):
            end = cuts[i + 1] if i + 1 < len(cuts) else len(words)
            kind = str(keyword(words[start]))
            if kind in named:
                raise AnswerError(Msg.of("cc.kept.error.twice", word=words[start]))
            named[kind] = " ".join(words[start + 1:end])
        distance = hindrance = None
        if head and INT.match(head[0]) and head[0][0] not in "+-":
            distance = _bounded(int(head[0]), "distance", 1, 40)
            head = head[1:]
        if head and keyword(head[0]) == "hindrance" and len(head) > 1 and INT.match(head[1]):
            hindrance, head = _bounded(int(head[1]), "hindrance", 0, 20), head[2:]
        elif head and WORDS.glued is not None and WORDS.glued[0].match(head[0]):
            match = WORDS.glued[0].match(head[0])
            assert match is not None
            hindrance, head = _bounded(int(match.group(1)), "hindrance", 0, 20), head[1:]
        situation = parse_situation(" ".join(head) or "cover 0", hex_allowed=False)
        moving = self._moving(named["moving"]) if "moving" in named else ()
        without = self._without(named["without"]) if "without" in named else ()
        value = KeptSituation(distance, hindrance, situation.cover, situation.bonuses, moving,
                              without)
        group = placed(self.group, value)
        if not any(p.fires for p in group):
            raise AnswerError(Msg.of("cc.kept.error.none_fire"))
        if self.rules is not None:
            reach = reaching(group, self.rules)
            if not reach:
                far = max(p.range + hex_command(group, p, self.rules) for p in group
                          if p.fires)
                raise AnswerError(Msg.of("cc.entry.refused_hex", clause="C-6", reason=Msg.of(
                    "cc.kept.error.out_of_range", reach=far,
                    distance=max(p.distance for p in group if p.fires))))
            fp = best_fp(reach, [b for _, b in value.bonuses], self.rules)
            if fp <= 0:
                raise AnswerError(Msg.of("cc.entry.refused_fp", clause="C-9",
                                         reason=Msg.of("cc.refuse.fp_zero", fp=fp)))
        return value

    def _moving(self, text: str) -> tuple[str, ...]:
        """``moving`` alone: every target unit; else the names after it, by commas."""
        if not text.strip():
            return self.targets
        names = {fold(n): n for n in self.targets}
        out = []
        for part in text.split(","):
            found = names.get(fold(part.strip()))
            if found is None:
                raise AnswerError(Msg.of("cc.kept.error.not_a_target", given=part.strip(),
                                         names=", ".join(self.targets)))
            out.append(found)
        return tuple(dict.fromkeys(out))

    def _without(self, text: str) -> tuple[str, ...]:
        """The firing pieces named after ``without``, by commas: they do not fire (C-8: the
        group is the owner's to form)."""
        names = {fold(p.name): p.name for p in self.group if p.fires and p.name}
        out = []
        for part in text.split(","):
            found = names.get(fold(part.strip()))
            if found is None:
                raise AnswerError(Msg.of("cc.kept.error.not_firing", given=part.strip(),
                                         names=", ".join(names.values())))
            out.append(found)
        return tuple(dict.fromkeys(out))

    def format(self, value: Any) -> str:
        from referee.catalog import render
        from referee.rulesets.cc.line import Situation, format_situation

        out = [] if value.distance is None else [str(value.distance)]
        if value.hindrance:
            out.append(f"{render(Msg.of('cc.entry.kw.hindrance'))}{value.hindrance}")
        out.append(format_situation(Situation(None, value.cover, value.bonuses)))
        if value.moving:
            out += [render(Msg.of("cc.entry.kw.moving")), ", ".join(value.moving)]
        if value.without:
            out += [render(Msg.of("cc.entry.kw.without")), ", ".join(value.without)]
        return " ".join(out)


def _bounded(value: int, part: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise WORDS.error("bounds", part=Msg.of(f"cc.entry.part.{part}"), given=value,
                          low=low, high=high)
    return value


def placed(group: Sequence[FiringPiece], value: KeptSituation) -> list[FiringPiece]:
    """The group at the line's distance and hindrance: a piece that cannot reach that far
    (Range with its hex's Command, C-6, C-14) no longer fires."""
    update: dict[str, Any] = {}
    if value.distance is not None:
        update["distance"] = value.distance
    if value.hindrance is not None:
        update["hindrance"] = value.hindrance
    left_out = {fold(n) for n in value.without}
    return [p.model_copy(update={**update, "fires": False} if p.name is not None
                         and fold(p.name) in left_out else update) for p in group]


def reaching(group: Sequence[FiringPiece], options: Options) -> list[FiringPiece]:
    """The pieces that reach the target (Range with their hex's Command, C-6, C-14), with
    the leaders giving Command."""
    return [p for p in group if not p.fires
            or p.distance <= p.range + hex_command(group, p, options)]


class MoraleQuestion(LineQuestion):
    """A kept unit's Morale that no attack gave (it only fired): ``7``, or ``7/8`` with its
    broken side."""

    def parse(self, text: str) -> tuple[int, int | None]:
        slash = SLASHED.match(text.strip())
        if slash:
            return (_bounded(int(slash.group(1)), "morale", 0, 15),
                    _bounded(int(slash.group(2)), "broken_morale", 0, 15))
        if not INT.match(text.strip()):
            raise WORDS.error("unit_numbers", given=text)
        return _bounded(int(text), "morale", 0, 15), None

    def format(self, value: Any) -> str:
        morale, broken = value
        return str(morale) if broken is None else f"{morale}/{broken}"


def _piece(p: Mapping[str, Any], hex_name: str) -> FiringPiece:
    kind = p.get("kind", "unit")
    fp = p.get("fp") or 0
    return FiringPiece(name=p["name"], kind=kind, hex=hex_name, fp=fp, range=p.get("range") or 0,
                       distance=p.get("distance") or 1, hindrance=p.get("hindrance") or 0,
                       command=p.get("command") or 0, white_band=bool(p.get("white_band")),
                       fires=_fires(p))


def _default(group: Sequence[FiringPiece], kept: Sequence[Mapping[str, Any]],
             target: Sequence[Mapping[str, Any]]) -> str | None:
    """The line Enter takes: what the game keeps (``None``: no distance kept, one is
    typed)."""
    from referee.catalog import render

    distances = {p.get("distance") for p, f in zip(kept, group, strict=True) if f.fires}
    if None in distances or len(distances) != 1:
        return None
    hindrances = {p.get("hindrance") or 0 for p, f in zip(kept, group, strict=True) if f.fires}
    hindrance = max(hindrances)
    cover = next((u["cover"] for u in target if u.get("cover") is not None), 0)
    out = [str(distances.pop())]
    if hindrance:
        out.append(f"{render(Msg.of('cc.entry.kw.hindrance'))}{hindrance}")
    return " ".join([*out, render(Msg.of("cc.entry.kw.cover")), str(cover)])


def ask_kept(port: Port, pair: Pair, changed: bool = True, *, options: Options) -> Asked:
    """The declaration of a kept attack: the kept pieces, what changed asked (see above);
    ``changed`` ``False``: the situation is the one the game keeps, not asked."""
    inferred: list[tuple[Msg, str]] = [(Msg.of("cc.kept.step", firing=_names(
        pair.firing, pair.firing_hex), target=_names(pair.target, pair.target_hex)), "C-2")]
    target_hex = None if _unnamed(pair.target_hex) else pair.target_hex
    targets = []
    for u in pair.target:
        morale, broken_morale = u.get("morale"), u.get("broken_morale")
        key = piece_key(u["name"])
        if morale is None:  # it only fired so far: its Morale was never given
            morale, given = port.ask(MoraleQuestion(
                id=f"morale.{key}", clause="C-4", text=Msg.of("cc.kept.q.morale",
                                                                unit=u["name"]),
                hint_msg=Msg.of("cc.kept.hint.morale"), answered_by=EITHER))
            broken_morale = given if given is not None else broken_morale
        if u.get("broken") and broken_morale is None:  # C-4: the broken side's Morale
            broken_morale = port.ask(NumberQuestion(
                id=f"broken-morale.{key}", clause="C-4", minimum=0, maximum=15,
                text=Msg.of("cc.kept.q.broken_morale", unit=u["name"]), answered_by=EITHER))
        targets.append({"name": u["name"], "kind": u.get("kind", "unit"), "morale": morale,
                        "broken_morale": broken_morale, "command": u.get("command") or 0,
                        "broken": bool(u.get("broken")),
                        "suppressed": bool(u.get("suppressed")), "vp": u.get("vp")})
    group = pair.group
    target_label: Msg | str = target_hex or Msg.of("cc.label.target")
    question = KeptSituationQuestion(
        id="kept-situation", clause="C-9", text=Msg.of("cc.kept.q.situation"),
        group=tuple(group), targets=tuple(u["name"] for u in targets), rules=options,
        default_value=pair.situation, hint_msg=Msg.of("cc.kept.hint.situation"),
        answered_by=EITHER,  # the names after "moving" and "without" complete with Tab
        suggestions=tuple(dict.fromkeys([*(u["name"] for u in targets),
                                         *(p.name for p in group if p.fires and p.name)])))
    situation: KeptSituation | None = None
    if not changed and question.default_value is not None:
        try:
            situation = question.accept(question.default_value)
            inferred.append((Msg.of("cc.kept.step_situation", line=question.default_value),
                             "C-9"))
        except AnswerError:  # no longer legal as kept (a rule in force changed): asked
            situation = None
    if situation is None:
        situation = port.ask(question)
    group = placed(group, situation)
    leaders = [p.model_copy(update={"fires": False}) for p in group if p.kind == "leader"]
    firing = []
    for p in group:
        if not p.fires:
            continue
        refused = group_refusal([*leaders, p], target_label, options)
        if refused is None:
            firing.append(p)
        else:  # out of range at the new distance: left out, as on the roster path
            inferred.append((Msg.of("cc.step.cannot_join", reason=refused[1]), refused[0]))
    chosen_keys = {p.key for p in firing}
    members = [*firing, *(p for p in leaders if p.key not in chosen_keys)]
    return Asked(FireDeclaration.model_validate({
        "attacker": pair.attacker, "defender": pair.defender, "target_hex": target_hex,
        "cover": situation.cover,
        "firing": [p.model_dump(exclude_defaults=True) for p in members],
        "bonuses": [{"source": s, "fp": fp} for s, fp in situation.bonuses],
        "target": [{**{k: v for k, v in u.items() if v is not None},
                    "moving": u["name"] in situation.moving} for u in targets]}), inferred)
