"""A fire attack without a script: the declaration typed at the table, one line a piece.

The sides; then the fire group, a line for each piece (or identical pieces): a unit with the
weapons it carries, a leader, a white-band weapon, in one hex or several (``@B4``), each new
hex linked to one entered before it (C-6); a piece that cannot join the group is refused as it
is entered (``entry.PieceQuestion``). Then the attack's FP bonuses and the target hex's cover
(one line), and the target hex's units, a line each. ``-`` or Enter ends a list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from referee.core.options import Options
from referee.core.port import Port
from referee.core.questions import EITHER, Choice, ChoiceQuestion
from referee.core.text import Msg
from referee.rulesets.cc.army import UNNAMED_HEX  # the firing hex before the first ``@HEX``
from referee.rulesets.cc.deck import NATIONS
from referee.rulesets.cc.declaration import FireDeclaration, FiringPiece
from referee.rulesets.cc.line import (
    DONE,
    NationQuestion,
    PieceLine,
    PieceQuestion,
    Situation,
    SituationQuestion,
    UnitLine,
    UnitQuestion,
    format_situation,
    line_pieces,
    line_units,
)

NOT_NEXT = "-"  # the answer: the new hex touches none of the hexes before it


class Asked(NamedTuple):
    """The declaration the table gave, and what was inferred on the way (message, clause),
    for the working."""

    declaration: FireDeclaration
    inferred: list[tuple[Msg, str]]


def hex_label(hex_name: str) -> Msg | str:
    return Msg.of("cc.label.firing_hex") if hex_name == UNNAMED_HEX else hex_name


def ask_sides(port: Port, offered: Sequence[Choice] = ()) -> tuple[str, str]:
    """The attacker and the defender; ``offered``: the kept attacks a game file offers
    first (issue 27), whose value is returned as the attacker with an empty defender."""
    nations = tuple(Choice(n, Msg.of(f"cc.nation.{n}")) for n in NATIONS)
    attacker: str = port.ask(NationQuestion(
        id="attacker", text=Msg.of("cc.kept.q.which" if offered else "cc.q.attacker"),
        choices=(*offered, *nations), default_value="germany"))
    if attacker not in NATIONS:
        return attacker, ""
    defenders = tuple(c for c in nations if c.value != attacker)
    defender: str = port.ask(NationQuestion(id="defender", text=Msg.of("cc.q.defender"),
                                            choices=defenders,
                                            default_value=defenders[0].value))
    return attacker, defender


def ask_link(port: Port, qid: str, new: str, before: list[str],
             label: Any = hex_label) -> str | None:
    """C-6: which hex already in the group the new hex ``new`` is next to (``None``: none,
    its pieces do not join). Hexes are entered so that each touches one before it: any
    chain of hexes can be entered so."""
    choices = tuple(Choice(h, Msg.of("cc.choice.next_to", hex=label(h))) for h in before)
    answer: str = port.ask(ChoiceQuestion(
        id=qid, clause="C-6", text=Msg.of("cc.q.next_to", hex=label(new)),
        choices=(*choices, Choice(NOT_NEXT, Msg.of("cc.choice.not_next_to"))),
        default_value=before[-1]))
    return None if answer == NOT_NEXT else answer


def ask_declaration(port: Port, options: Options,
                    kept: Sequence[Mapping[str, Any]] | None = None,
                    offered: Sequence[Choice] = (),
                    from_kept: Callable[[str], Asked] | None = None) -> Asked:
    """The declaration typed at the table. ``kept``: in a game file, the pieces it keeps
    (issue 27): a piece typed without a name gets a default name its side does not use yet
    (``army.named``), so that the game keeps it and a later attack offers it by name;
    ``offered``: the kept attacks offered before the nations, each declared by
    ``from_kept``."""
    attacker, defender = ask_sides(port, offered)
    if not defender and from_kept is not None:
        return from_kept(attacker)
    inferred: list[tuple[Msg, str]] = []
    firing: list[dict[str, Any]] = []
    adjacent: list[list[str]] = []
    hexes: list[str] = []
    current = UNNAMED_HEX
    line = 0
    while True:
        line += 1
        number = len(firing) + 1
        piece = port.ask(PieceQuestion(
            id=f"piece.{line}", clause="C-6", number=number, hex=current,
            text=Msg.of("cc.q.piece", n=line),  # lines, not pieces: a carried weapon is one
            group=tuple(FiringPiece.model_validate(p) for p in firing), rules=options,
            default_value=None if line == 1 else DONE,
            hint_msg=Msg.of("cc.hint.piece" if line == 1 else "cc.hint.piece_more")))
        if not isinstance(piece, PieceLine):
            break
        where = piece.hex or current
        if where not in hexes and hexes:
            link = ask_link(port, f"next-to.{line}", where, hexes)
            if link is None:
                inferred.append((Msg.of("cc.step.not_linked", hex=hex_label(where)), "C-6"))
                continue
            adjacent.append([link, where])
        if where not in hexes:
            hexes.append(where)
        current = where
        firing += line_pieces(piece, number, where)
    situation: Situation = port.ask(SituationQuestion(
        id="situation", clause="C-9", text=Msg.of("cc.q.situation"),
        group=tuple(FiringPiece.model_validate(p) for p in firing), rules=options,
        default_value=format_situation(Situation()), hint_msg=Msg.of("cc.hint.situation"),
        answered_by=EITHER))
    target: list[dict[str, Any]] = []
    line = 0
    while True:
        line += 1
        number = len(target) + 1
        unit = port.ask(UnitQuestion(
            id=f"unit.{line}", clause="C-4", number=number,
            text=Msg.of("cc.q.unit", n=line),
            default_value=None if line == 1 else DONE,
            hint_msg=Msg.of("cc.hint.unit" if line == 1 else "cc.hint.unit_more")))
        if not isinstance(unit, UnitLine):
            break
        target += line_units(unit, number)
    # issue 27: a piece typed without a name gets its side's name for its kind, numbered
    # without gaps (``German weapon 1`` beside ``German unit 1``), in a game or not
    from referee.rulesets.cc.army import named

    firing, target = named(firing, attacker, kept or ()), named(target, defender, kept or ())
    return Asked(FireDeclaration.model_validate({
        "attacker": attacker, "defender": defender, "target_hex": situation.target_hex,
        "cover": situation.cover, "firing": firing, "adjacent": adjacent, "target": target,
        "bonuses": [{"source": s, "fp": fp} for s, fp in situation.bonuses]}), inferred)
