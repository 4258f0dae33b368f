"""The facts an Epic dice question hands to its odds (issue 8): what is known of the rest of
the attack when the question is asked, as plain frozen values.

Light on purpose: the resolvers build these values at every roll, odds shown or not, so this
module imports nothing of ``referee.odds`` or the dice library. The odds themselves are
computed in ``referee.rulesets.epic.odds_rest`` (loaded only when they are read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.core.text import Msg
from referee.rulesets.epic.damage import Hit
from referee.rulesets.epic.formations import Defender

if TYPE_CHECKING:
    from referee.odds.report import Kind


@dataclass(frozen=True)
class AttackFacts:
    """One target formation under one attack: its units alive when the attack began (in
    the declared order), its Blast markers before the attack, and the rules in force."""

    units: tuple[Defender, ...]
    markers_before: int
    broken_at_start: bool
    crossfire: int
    options: tuple[tuple[str, Any], ...] = ()
    barrage: bool = False
    disrupt_all: bool = False  # a barrage whose weapons all disrupt (E-17, E-13)
    name: Msg | str = ""  # the target formation, as the end states name it

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def end_labels(self) -> list[tuple[Msg, Kind]]:
        """The attack's three end states, labelled (known before they are worked out)."""
        from referee.odds.report import Kind

        name = self.name or Msg.of("epic.default.target")
        return [(Msg.of("epic.odds.end.destroyed", target=name), Kind.EXPECTED),
                (Msg.of("epic.odds.end.breaks", target=name), Kind.CHANCE),
                (Msg.of("epic.odds.end.wiped_out", target=name), Kind.CHANCE)]


@dataclass(frozen=True)
class PoolFacts:
    """The to-hit dice of one weapon profile: ``shots`` dice, each a hit with ``chance``;
    every hit is ``hit`` (its kind, disrupt, ignore cover)."""

    shots: int
    chance: Fraction
    hit: Hit


@dataclass(frozen=True)
class ShotsRest:
    """At a to-hit roll of a shooting attack: the hits of the pools already rolled (in
    order), the pool being rolled (its hit kind) and the pools still to roll; ``added`` is
    the markers the formation has received so far in this attack (the under-fire one)."""

    attack: AttackFacts
    known: tuple[Hit, ...]
    current: Hit
    later: tuple[PoolFacts, ...]
    added: int


@dataclass(frozen=True)
class BarrageGroup:
    """Units of one formation rolled together under a barrage (E-17): ``members`` nearest
    first, each hit with ``chance``; the first k members take the k hits."""

    members: tuple[str, ...]
    chance: Fraction
    hit: Hit


@dataclass(frozen=True)
class BarrageRest:
    """At a barrage to-hit roll: the units already hit by the groups rolled, the members of
    the group being rolled, the groups still to roll."""

    attack: AttackFacts
    known: tuple[tuple[str, Hit], ...]
    current: tuple[str, ...]
    current_hit: Hit
    later: tuple[BarrageGroup, ...]
    added: int


@dataclass(frozen=True)
class PhaseRest:
    """At a save roll: the chance each unit of this phase survives what is left of its saves
    (1 known alive, 0 known destroyed) with the markers its loss would add; the casualties of
    earlier phases; the macro-weapon hits still to allocate (E-12) and the normal hits each
    unit took (for the ``mw-spread`` option)."""

    attack: AttackFacts
    survive: tuple[tuple[str, Fraction, int], ...]
    dead_before: tuple[str, ...]
    added: int
    mw_hits: tuple[Hit, ...] = ()
    taken_normal: tuple[tuple[str, int], ...] = ()


def phase_survival(saves: tuple[Any, ...], stage: str) -> tuple[tuple[str, Fraction, int], ...]:
    """Each hit unit's chance to survive what is left of its saves, with the markers its loss
    adds, from the facts a save roll carries (``damage._SaveOdds.ref``): the phase's save
    groups per unit, the units done (1 survived, 0 destroyed), the unit rolling now with
    the saves it failed so far, the group it is at and the dice of this roll, and the
    invulnerable save's need. The unit rolling now is at ``stage`` of its current group."""
    groups, known_items, current, failed, index, count, invulnerable = saves
    known = dict(known_items)

    def left(chain: Sequence[tuple[Any, int]], first_stage: str = "save",
             first: int | None = None) -> Fraction:
        q = Fraction(1)
        for j, (save, n) in enumerate(chain):
            here = first_stage if j == 0 else "save"
            dice = first if j == 0 and first is not None else n
            q *= (1 - per_hit_fail(save.need, save.reroll, save.invulnerable, here,
                                   invulnerable)) ** dice
        return q

    out = []
    for key, chain, weight in groups:
        if key in known:
            q = known[key]
        elif key == current:
            q = Fraction(0) if failed else left(chain[index:], stage, count)
        else:
            q = left(chain)
        out.append((key, q, weight))
    return tuple(out)


def per_hit_fail(need: int | None, reroll: bool, invulnerable: bool, stage: str = "save",
                 invulnerable_need: int = 6) -> Fraction:
    """The chance one hit's save chain fails from ``stage`` on (E-11): the save roll (needing
    ``need``, none: it fails), a re-roll of a failure (reinforced armour), then the
    invulnerable save. ``stage`` is where the chain stands: save, reroll or invulnerable."""
    inv = Fraction(invulnerable_need - 1, 6) if invulnerable else Fraction(1)
    if stage == "invulnerable":
        return inv
    miss = Fraction(1) if need is None else Fraction(min(6, max(0, need - 1)), 6)
    if stage == "reroll":
        return miss * inv
    return miss * (miss if reroll else 1) * inv
