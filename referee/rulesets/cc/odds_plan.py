"""The plan of one hex's defence rolls for the Combat Commander odds: its units, the rules
they roll under and the deck they draw from, and a unit's result from the cards. Shared by
``odds`` (the end states, and the simulation) and ``odds_walk`` (the exact walk)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.core.text import Msg
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc.odds_draws import DeckRun

Result = ar.Result


@dataclass(frozen=True)
class Unit:
    key: str
    name: Msg | str
    kind: str
    morale: int
    broken_morale: int | None
    command: int
    broken: bool
    suppressed: bool
    moving: bool


@dataclass(frozen=True)
class Rules:
    cover: int
    suppressed_tie: str
    command_from: str
    leader_commands_self: bool


@dataclass(frozen=True)
class Plan:
    units: Mapping[str, Unit]
    order: tuple[str, ...]
    rules: Rules
    deck: DeckRun  # the defence rolls' deck
    same: bool  # the defence deck is the attacker's (C-X6), drawn after his cards
    leaders: tuple[tuple[str, int], ...] = ()  # (key, printed Command) of the hex's leaders
    index: Mapping[str, int] = field(default_factory=dict)  # a leader's place in ``leaders``
    initial: Mapping[str, tuple[bool, bool]] = field(default_factory=dict)  # (broken, supp.)
    # a unit's Morale by its state and the leaders' (broken or not), computed once
    morale: dict[tuple[str, tuple[bool, ...], bool, bool], int] = field(
        default_factory=dict, compare=False)


def unit_result(plan: Plan, state: tuple[bool, bool], unit: Unit, attack: int,
                defence: int) -> Result:
    """C-4, C-5: the unit's result for an attack total against its defence total."""
    return ar.defence_result(attack, defence, moving=unit.moving, broken=state[0],
                             suppressed=state[1], suppressed_tie=plan.rules.suppressed_tie)


def possible(unit: Unit, rules: Rules) -> list[Result]:
    """The results a unit can get, worst first (the end states shown for it)."""
    out = [Result.ELIMINATED if unit.broken else Result.BROKEN]
    if not unit.moving and not (unit.suppressed and rules.suppressed_tie == "breaks"):
        out.append(Result.SUPPRESSED)
    return out
