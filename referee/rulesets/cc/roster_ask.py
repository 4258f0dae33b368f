"""A fire attack declared from a roster (``referee attack cc --roster FILE``): the pieces, their
numbers and states come from the file; the table asks only what the roster cannot know.

Which hexes fire (one side's, a chain of adjacent hexes: C-6) and at which hex; how far each
firing hex is and the hindrance on its line of sight; which pieces join the group (a piece that
cannot, out of range or a weapon of a broken unit, is left out with the clause, never asked; a
white-band weapon fires alone, C-7); the FP bonuses and, if the roster does not give it, the
target hex's cover; which target units are moving. Every join is a what-if choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import (
    EITHER,
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    MultiChoiceQuestion,
)
from referee.core.text import Msg
from referee.rulesets.cc.ask import Asked, ask_link
from referee.rulesets.cc.declaration import FireDeclaration, FiringPiece, RosterDeclaration
from referee.rulesets.cc.legality import connected, group_refusal, hex_command
from referee.rulesets.cc.line import (
    RangeQuestion,
    Situation,
    SituationQuestion,
    format_situation,
)
from referee.rulesets.cc.roster import Roster, RosterUnit
from referee.rulesets.cc.words import piece_key


@dataclass(frozen=True, kw_only=True)
class FiringHexesQuestion(MultiChoiceQuestion):
    """The hexes that fire: one side's, and (when the roster knows the map) a chain."""

    sides: tuple[tuple[str, str], ...]  # hex -> nation
    links: tuple[tuple[str, str], ...] | None = None

    def accept(self, raw: Any) -> tuple[str, ...]:
        chosen = super().accept(raw)
        side = dict(self.sides)
        if len({side[h] for h in chosen}) > 1:
            raise AnswerError(Msg.of("cc.roster.error.two_sides", hexes=", ".join(chosen)))
        if self.links is not None and not connected(set(chosen), self.links):
            raise AnswerError(Msg.of("cc.entry.refused_here", clause="C-6", reason=Msg.of(
                "cc.refuse.not_a_chain", hexes=", ".join(sorted(chosen)))))
        return chosen


def _by_hex(roster: Roster) -> dict[str, list[RosterUnit]]:
    out: dict[str, list[RosterUnit]] = {}
    for unit in roster.units:
        out.setdefault(unit.hex, []).append(unit)
    return out


def _pieces(units: Sequence[RosterUnit], distance: int, hindrance: int) -> list[FiringPiece]:
    """The hex's firing pieces from the roster: each unit or leader (on its current side),
    then the weapons it carries; leaders give their Command, firing or not."""
    out = []
    for u in units:
        out.append(FiringPiece(name=u.name, kind=u.kind, hex=u.hex, fp=u.current_fp,
                               range=u.current_range, distance=distance, hindrance=hindrance,
                               command=u.command, broken=u.broken,
                               fires=u.kind == "unit" or u.current_fp > 0))
        out += [FiringPiece(name=w.name, kind="weapon", hex=u.hex, fp=w.fp, range=w.range,
                            distance=distance, hindrance=hindrance, white_band=w.white_band,
                            carrier_broken=u.broken) for w in u.weapons]
    return out


def _reach(pieces: Sequence[FiringPiece], options: Options) -> int:
    """The longest Range with Command among the pieces that may fire (C-6, C-14)."""
    able = [p for p in pieces if p.fires and not p.carrier_broken]
    return max((p.range + hex_command(pieces, p, options) for p in able), default=0)


def ask_from_roster(port: Port, decl: RosterDeclaration, options: Options) -> Asked:
    roster = decl.loaded
    hexes = _by_hex(roster)
    inferred: list[tuple[Msg, str]] = []
    firing_hexes = [h for h, units in hexes.items()
                    if _reach(_pieces(units, 1, 0), options) > 0]
    sides = tuple((h, hexes[h][0].side) for h in hexes)
    chosen: tuple[str, ...] = port.ask(FiringHexesQuestion(
        id="fire-from", clause="C-6", text=Msg.of("cc.q.fire_from"), min_count=1,
        choices=tuple(Choice(h, Msg.of("cc.choice.hex", hex=h,
                                       side=Msg.of(f"cc.nation.{hexes[h][0].side}")))
                      for h in firing_hexes),
        sides=sides, links=tuple((a, b) for a, b in roster.links())
        if roster.knows_adjacency() else None))
    attacker = dict(sides)[chosen[0]]
    enemy = [h for h, units in hexes.items() if any(u.side != attacker for u in units)]
    if len(enemy) == 1:
        target = enemy[0]
        inferred.append((Msg.of("cc.step.only_target", hex=target), "C-2"))
    else:
        target = port.ask(ChoiceQuestion(
            id="target", clause="C-2", text=Msg.of("cc.q.target_hex"),
            choices=tuple(Choice(h, Msg.of("cc.choice.target_hex", hex=h,
                                           side=Msg.of(f"cc.nation.{hexes[h][0].side}"),
                                           pieces="; ".join(u.name for u in hexes[h])))
                          for h in enemy), default_value=enemy[0]))
    targets = [u for u in hexes[target] if u.side != attacker]
    defender = targets[0].side
    adjacent = [list(link) for link in roster.links()]
    kept: list[str] = []
    for h in chosen:
        if kept and not roster.knows_adjacency():
            link = ask_link(port, f"next-to.{piece_key(h)}", h, kept, label=str)
            if link is None:
                inferred.append((Msg.of("cc.step.not_linked", hex=h), "C-6"))
                continue
            adjacent.append([link, h])
        kept.append(h)
    pieces: list[FiringPiece] = []
    for h in kept:
        reach = _reach(_pieces(hexes[h], 1, 0), options)
        distance, hindrance = port.ask(RangeQuestion(
            id=f"range.{piece_key(h)}", clause="C-9", hex=h, target=target, reach=reach,
            text=Msg.of("cc.q.range_from", hex=h, target=target),
            hint_msg=Msg.of("cc.hint.range"), answered_by=EITHER))
        pieces += _pieces(hexes[h], distance, hindrance)
    leaders = [p.model_copy(update={"fires": False}) for p in pieces if p.kind == "leader"]
    candidates = []
    for p in pieces:
        if not p.fires:
            continue
        refused = group_refusal([*leaders, p], target, options)
        if refused is None:
            candidates.append(p)
        else:
            inferred.append((Msg.of("cc.step.cannot_join", reason=refused[1]), refused[0]))
    firing = _joins(port, candidates, inferred)
    group = [*firing, *(p for p in leaders if p.key not in {f.key for f in firing})]
    situation: Situation = port.ask(SituationQuestion(
        id="situation", clause="C-9", text=Msg.of("cc.q.situation_roster"),
        group=tuple(group), rules=options, hex_allowed=False,
        default_value=format_situation(Situation(cover=roster.cover.get(target, 0))),
        hint_msg=Msg.of("cc.hint.situation_roster"), answered_by=EITHER))
    moving: tuple[str, ...] = port.ask(MultiChoiceQuestion(
        id="moving", clause="C-5", text=Msg.of("cc.q.moving", hex=target),
        choices=tuple(Choice(u.key, u.name) for u in targets), answered_by=EITHER))
    return Asked(FireDeclaration.model_validate({
        "attacker": attacker, "defender": defender, "target_hex": target,
        "cover": situation.cover, "adjacent": adjacent,
        "firing": [p.model_dump(exclude_defaults=True) for p in group],
        "bonuses": [{"source": s, "fp": fp} for s, fp in situation.bonuses],
        "target": [{"name": u.name, "kind": u.kind, "morale": u.morale,
                    "broken_morale": u.broken_morale, "command": u.command,
                    "broken": u.broken, "suppressed": u.suppressed,
                    "moving": u.key in moving, "vp": u.vp} for u in targets]}), inferred)


def _joins(port: Port, candidates: list[FiringPiece],
           inferred: list[tuple[Msg, str]]) -> list[FiringPiece]:
    """Which of the pieces that may fire join the group: each asked (a what-if choice),
    white-band weapons first, which fire alone (C-7); the last piece fires without asking
    when none joined before it (an attack needs a piece that fires)."""
    order = [p for p in candidates if p.white_band] + \
        [p for p in candidates if not p.white_band]
    joining: list[FiringPiece] = []
    for i, p in enumerate(order):
        if i == len(order) - 1 and not joining:
            if i:
                inferred.append((Msg.of("cc.step.last_fires", piece=p.label), "C-2"))
            joining.append(p)
            break
        heavy = p.white_band
        text = Msg.of("cc.q.join_alone" if heavy else "cc.q.join", piece=p.label, fp=p.fp)
        if port.ask(ConfirmQuestion(id=f"join.{p.key}", clause="C-7" if heavy else "C-6",
                                    text=text, default_value=not heavy, whatif=True)):
            joining.append(p)
            if heavy:
                for other in order[i + 1:]:
                    inferred.append((Msg.of("cc.step.heavy_alone", piece=other.label,
                                            heavy=p.label), "C-7"))
                break
    return joining
