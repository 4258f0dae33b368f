"""Hit allocation (E-10, E-12, E-X6, E-X7) as a legal-options computation.

Given the target units, the hits each already holds and the next hit, ``legal_units`` says which
units may take that hit: the units the hit can affect (its type, range and line of fire, cover
declined), then of those the ones with the fewest hits so far (the even spread), then of those
the nearest to the attackers (front to back). Ties at the front are the defender's choice
(E-X6). ``refusal`` names the clause a proposed unit breaks. Pure: no questions, no output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.core.text import Msg
from referee.rulesets.epic.tables import tables


@dataclass(frozen=True)
class Target:
    """A target unit as allocation sees it."""

    key: str
    name: str
    type: str
    distance: float
    order: int = 0  # listed position: breaks ties under the listed-order option
    in_range: bool = True
    in_mw_range: bool = True
    in_cover: bool = False
    label: Msg | str | None = None  # what a player reads (None: the name)
    share: int = 1  # hits it takes in one round of the even spread: a war engine's DC (E-W2)
    contact: bool = False  # in base contact with the enemy (an assault, E-A3, E-W11)

    @property
    def shown(self) -> Msg | str:
        return self.name if self.label is None else self.label


@dataclass(frozen=True)
class HitKind:
    """What a hit may reach: ``fire`` is ap, at or mw; ``cover_ok`` is False when the attacker
    declined the cover modifier for this fire (E-8), so the hit cannot go to a unit in cover."""

    fire: str
    cover_ok: bool = True

    @property
    def macro(self) -> bool:
        return self.fire == "mw"


def level(unit: Target, taken: Mapping[str, int]) -> int:
    """How many rounds of the even spread ``unit`` has filled (E-10): its hits, or for a war
    engine its hits in shares of its starting DC (E-W2)."""
    return taken.get(unit.key, 0) // unit.share


def can_take(unit: Target, hit: HitKind) -> bool:
    """May this hit be allocated to this unit at all (type, range, cover; a war engine's
    close combat dice only units in contact, its firefight dice only units not, E-W11)?"""
    if unit.type not in tables().allocation[hit.fire]:
        return False
    if (hit.fire == "we-cc" and not unit.contact) or (hit.fire == "we-ff" and unit.contact):
        return False
    if not (unit.in_mw_range if hit.macro else unit.in_range):
        return False
    return hit.cover_ok or not unit.in_cover


def eligible(units: Sequence[Target], hit: HitKind) -> list[Target]:
    return [u for u in units if can_take(u, hit)]


def legal_units(units: Sequence[Target], hit: HitKind, taken: Mapping[str, int],
                tie: str = "defender-chooses", pool: Sequence[Target] | None = None
                ) -> tuple[Target, ...]:
    """The units that may take ``hit`` next, given the hits ``taken`` so far (by unit key).
    ``pool``: ``eligible(units, hit)``, where the caller has it (it does not change from
    one hit of a kind to the next)."""
    pool = eligible(units, hit) if pool is None else pool
    if not pool:
        return ()
    fewest = min(level(u, taken) for u in pool)  # E-10: the even spread
    even = [u for u in pool if level(u, taken) == fewest]
    engines = [u for u in even if u.share > 1]  # E-W2: a war engine's share first
    if engines:
        even = engines
    front = min(u.distance for u in even)  # E-10: front to back
    nearest = sorted((u for u in even if u.distance == front), key=lambda u: u.order)
    if tie == "listed-order":  # E-X6 as a house rule: no choice, the first listed
        return (nearest[0],)
    return tuple(nearest)


def refusal(units: Sequence[Target], hit: HitKind, taken: Mapping[str, int],
            proposed: Target) -> Msg | None:
    """Why ``proposed`` may not take ``hit`` (a message naming the clause), or None if it may."""
    legal = legal_units(units, hit, taken)
    if proposed in legal:
        return None
    fire = Msg.of(f"epic.fire.{hit.fire}")
    if proposed.type not in tables().allocation[hit.fire]:
        return Msg.of("epic.refuse.type", unit=proposed.shown, type=proposed.type, fire=fire)
    if not (proposed.in_mw_range if hit.macro else proposed.in_range):
        return Msg.of("epic.refuse.range" if not hit.macro else "epic.refuse.mw_range",
                      unit=proposed.shown)
    if not hit.cover_ok and proposed.in_cover:
        return Msg.of("epic.refuse.cover", unit=proposed.shown, fire=fire)
    pool = eligible(units, hit)
    fewest = min(level(u, taken) for u in pool)
    if level(proposed, taken) > fewest:
        other = next(u for u in pool if level(u, taken) == fewest)
        return Msg.of("epic.refuse.even", unit=proposed.shown, held=taken.get(proposed.key, 0),
                      other=other.shown, other_held=taken.get(other.key, 0))
    if proposed.share == 1 and any(u.share > 1 for u in legal):
        return Msg.of("epic.refuse.war_engine_first", unit=proposed.shown,
                      other=legal[0].shown, share=legal[0].share)
    return Msg.of("epic.refuse.front", unit=proposed.shown, other=legal[0].shown,
                  distance=_cm(legal[0].distance), own=_cm(proposed.distance))


def forced_reason(units: Sequence[Target], hit: HitKind, taken: Mapping[str, int],
                  unit: Target, pool: Sequence[Target] | None = None) -> Msg:
    """Why ``unit`` was the only legal choice (for the allocation table); ``pool`` as for
    ``legal_units``."""
    pool = eligible(units, hit) if pool is None else pool
    if len(pool) == 1:
        return Msg.of("epic.why.only_eligible", fire=Msg.of(f"epic.fire.{hit.fire}"))
    fewest = min(level(u, taken) for u in pool)
    even = [u for u in pool if level(u, taken) == fewest]
    if unit.share > 1:
        return Msg.of("epic.why.war_engine", share=unit.share)
    if len(even) == 1:
        return Msg.of("epic.why.fewest", held=taken.get(unit.key, 0))
    return Msg.of("epic.why.nearest", held=taken.get(unit.key, 0))


def _cm(value: float) -> str:
    return f"{value:g} cm"


def order_fire_types(units: Sequence[Target], kinds: Sequence[HitKind]) -> list[HitKind]:
    """The order the defender allocates the kinds of normal hit (E-X7): a kind that can reach
    fewer units goes first, so that no hit is wasted (light vehicles take the AT hits before
    the infantry take the AP, or the AP before the armour takes the AT)."""
    return sorted(kinds, key=lambda k: (len(eligible(units, k)), k.fire))


def needs_order_choice(units: Sequence[Target], kinds: Sequence[HitKind]) -> bool:
    """E-X7: with infantry, light vehicles and armour all present the order is not settled by
    the rules (the FAQ says to agree it), so the defender is asked."""
    fires = {k.fire for k in kinds}
    types = {u.type for u in units}
    return {"ap", "at"} <= fires and {"INF", "LV", "AV"} <= types
