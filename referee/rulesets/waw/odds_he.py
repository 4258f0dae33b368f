"""The odds of every dice question of an HE mission (W-1 to W-5), exact (Fractions).

Imported only through ``OddsRef`` strings (never by the resolver), when odds are shown; the
``he-odds`` lookup keeps using the dependency-free ``odds`` module this one builds on.

* ``attack``: the attack hits (W-1). Where the hex's defence dice are known before the roll
  (declared, not asked), the end states: the distribution of net hits after the terrain dice
  (W-2), then what each unit ends as (W-3, W-4) and whether an HQ must roll (W-5).
* ``defence``: the cancels (W-2), with the same end states given the attack hits.
* ``pick.*``: the die that picks a unit at random for a hit short of a full round (W-3); its
  outcome is the unit picked; end states given the hits already placed.

Every problem here is small (at most 40 attack dice and 10 defence dice: 41 x 11 joint
outcomes), so everything is exact; no simulation is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from referee.core import work
from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport, successes
from referee.rulesets.waw.he import Status, Target, distribute, he_effects, owner_picks
from referee.rulesets.waw.odds import binomial, net_hit_distribution, success_chance
from referee.rulesets.waw.tables import EffectRow

UnitFacts = Mapping[str, Any]
"""A target unit as plain values: key, name, soft, disorganized, weakened, and its effects
row (first, further, weakened_again; ``ask`` where neither the excerpt nor the data file
says)."""

NET_TAIL = Fraction(1, 200)
"""The chance of "k or more net hits" is listed up to the first k where it falls below this."""


class _Unknown(Exception):
    """An effect the players' rules decide after the roll."""


def _dist(values: Sequence[Fraction]) -> Dist:
    return Dist({k: p for k, p in enumerate(values)})


def face(roll: DiceRoll) -> int:
    """The face of a one-die roll (the unit picked)."""
    assert roll.faces is not None
    return roll.faces[0]


# -- the spread and the effects (W-3, W-4) ---------------------------------------------------

def _targets(units: Sequence[UnitFacts]) -> list[Target]:
    return [Target(str(u["key"]), bool(u["soft"])) for u in units]


def _rounds(net: int, units: Sequence[UnitFacts], spill: bool
            ) -> tuple[dict[str, int], tuple[list[str], int, int] | None]:
    """W-3 as ``he.distribute`` spreads ``net`` hits: the hits of the complete rounds, and
    the round short of one hit per candidate, if any (its candidates, its hits, its number)."""
    targets = _targets(units)
    short: list[tuple[list[str], int, int]] = []

    def pick(candidates: Sequence[str], count: int, round_no: int) -> list[str]:
        short.append((list(candidates), count, round_no))
        return list(candidates)[:count]

    counts = {t.key: 0 for t in targets}
    for hit in distribute(net, targets, pick, spill):
        if not short or hit.round != short[0][2]:
            counts[hit.unit] += 1
    return counts, (short[0] if short else None)


def hits_by_unit(net: int, units: Sequence[UnitFacts], spill: bool,
                 owner: bool) -> list[Dist] | None:
    """W-3: the hits each unit takes out of ``net``: full rounds for sure, then a round short
    of one hit per candidate picked at random (each candidate equally likely to be among the
    picked). ``None`` when the owner picks that round (``he-remainder=owner``)."""
    keys = [str(u["key"]) for u in units]
    counts, short = _rounds(net, units, spill)
    if short is None:
        return [Dist.point(counts[k]) for k in keys]
    candidates, remaining, round_no = short
    if owner_picks(owner, len(keys), round_no):
        return None
    return _partial(counts, candidates, [], remaining, keys)


def _partial(counts: Mapping[str, int], left: Sequence[str], chosen: Sequence[str],
             to_pick: int, keys: Sequence[str]) -> list[Dist]:
    """The last round: ``chosen`` already took their hit, ``to_pick`` more of ``left``
    will, each of ``left`` with the same chance."""
    p = Fraction(to_pick, len(left)) if left else Fraction(0)
    work.add("waw.unit-outcomes", len(keys))
    out = []
    for key in keys:
        base = counts[key] + (1 if key in chosen else 0)
        if key in left and 0 < p < 1:
            out.append(Dist({base: 1 - p, base + 1: p}))
        else:
            out.append(Dist.point(base + (1 if key in left and p == 1 else 0)))
    return out


def status_after(unit: UnitFacts, hits: int) -> str | None:
    """W-4: the unit's status after ``hits`` HE hits (as ``he.he_effects`` decides it), or
    ``None`` when a cell the players decide after the roll is needed."""

    def ask(cell: str) -> str:
        raise _Unknown(cell)

    row = EffectRow(str(unit["first"]), str(unit["further"]), str(unit["weakened_again"]))
    before = Status(disorganized=bool(unit["disorganized"]), weakened=bool(unit["weakened"]))
    try:
        after, _ = he_effects(before, hits, row, ask)
    except _Unknown:
        return None
    return after.name


def before_status(unit: UnitFacts) -> str:
    return Status(disorganized=bool(unit["disorganized"]), weakened=bool(unit["weakened"])).name


# -- end states ------------------------------------------------------------------------------

def _net_states(net: Dist) -> list[EndState]:
    """The net hits: their mean, the chance of none, and of k or more for every k down to
    the first whose chance falls below ``NET_TAIL`` (cumulative rows, so that two variants
    of a what-if share their labels)."""
    states = [EndState(Msg.of("waw.odds.end.net_mean"), net.mean(), Kind.EXPECTED),
              EndState(Msg.of("waw.odds.end.net_none"), net[0])]
    for k in range(1, net.high + 1):
        states.append(EndState(Msg.of("waw.odds.end.net_or_more", k=k), net.at_least(k)))
        if net.at_least(k) < NET_TAIL:
            break
    return states


def end_states(net: Dist, units: Sequence[UnitFacts], hqs: Sequence[str], spill: bool,
               owner: bool, split: Mapping[int, list[Dist] | None] | None = None,
               net_known: bool = False) -> tuple[tuple[EndState, ...], tuple[Msg, ...]]:
    """What the attack ends as, from the distribution of net hits: the net hits (unless
    ``net_known``: the pick names them), each unit's chance to be hit and its status after
    the hits (where its effects are known), and each HQ's chance of having to roll (W-5:
    another unit in the hex was hit)."""
    states = [] if net_known else _net_states(net)
    notes: list[Msg] = []
    splits = dict(split) if split is not None else \
        {h: hits_by_unit(h, units, spill, owner) for h in net.outcomes()}
    if any(s is None for h, s in splits.items() if net[h]):
        notes.append(Msg.of("waw.odds.note.owner_picks"))
    else:
        for i, unit in enumerate(units):
            work.add("waw.unit-outcomes", len(splits))
            hits = Dist.mixture((net[h], s[i]) for h, s in splits.items() if s is not None)
            states += _unit_states(unit, hits, notes)
    any_hit = net.at_least(1)
    states += [EndState(Msg.of("waw.odds.end.hq_roll", unit=name), any_hit) for name in hqs]
    return tuple(states), tuple(notes)


def _unit_states(unit: UnitFacts, hits: Dist, notes: list[Msg]) -> list[EndState]:
    name = unit["name"]
    out = [EndState(Msg.of("waw.odds.end.hit", unit=name), hits.at_least(1))]
    after: dict[str, Fraction] = {}
    for h, p in hits.items():
        status = status_after(unit, h)
        if status is None:  # the effect is decided later: the hits are all that is known
            if hits.high >= 2:
                out.append(EndState(Msg.of("waw.odds.end.hit_twice", unit=name),
                                    hits.at_least(2)))
            notes.append(Msg.of("waw.odds.note.effect_asked", unit=name))
            return out
        after[status] = after.get(status, Fraction(0)) + p
    before = before_status(unit)
    out += [EndState(Msg.of("waw.odds.end.status", unit=name,
                            status=Msg.of(f"waw.status.{status}")), p)
            for status, p in after.items() if status != before]
    return out


# -- the three dice questions ----------------------------------------------------------------

def attack(question: DiceQuestion, *, firepower: int, hit_number: int, defence: int | None,
           cancel_on: int, units: Sequence[UnitFacts], hqs: Sequence[str], spill: bool,
           owner: bool, cover_later: bool = False) -> OddsReport:
    """W-1: hits among ``firepower`` dice of ``hit_number``+. With the defence dice known,
    the end states through W-2 to W-5; else (an undeclared terrain, or ``cover_later``: the
    cover dice of the house rule, asked with the terrain after the hits) a note saying so."""
    hits = _dist(binomial(firepower, success_chance(hit_number)))
    title = Msg.of("waw.odds.title.attack", dice=firepower, hit=hit_number)
    if defence is None:
        later = "defence_cover_later" if cover_later else "defence_later"
        return OddsReport(title, Msg.of("waw.odds.unit.hits"), hits, successes,
                          notes=(Msg.of(f"waw.odds.note.{later}"),))
    net = _dist(net_hit_distribution(firepower, hit_number, defence, cancel_on))
    states, notes = end_states(net, units, hqs, spill, owner)
    return OddsReport(title, Msg.of("waw.odds.unit.hits"), hits, successes, states,
                      notes=(_defence_note(defence, cancel_on), *notes))


def _defence_note(dice: int, cancel_on: int) -> Msg:
    if dice == 0:
        return Msg.of("waw.odds.note.defence_none")
    return Msg.of("waw.odds.note.defence_known", dice=dice, cancel=cancel_on)


def defence(question: DiceQuestion, *, attack_hits: int, dice: int, cancel_on: int,
            units: Sequence[UnitFacts], hqs: Sequence[str], spill: bool,
            owner: bool) -> OddsReport:
    """W-2: cancels among ``dice`` terrain defence dice of ``cancel_on``+, and the net hits
    they leave of ``attack_hits`` (never below zero), with the end states."""
    cancels = _dist(binomial(dice, success_chance(cancel_on)))
    net = cancels.map(lambda c: max(attack_hits - c, 0))
    states, notes = end_states(net, units, hqs, spill, owner)
    return OddsReport(Msg.of("waw.odds.title.defence", dice=dice, cancel=cancel_on,
                             hits=attack_hits),
                      Msg.of("waw.odds.unit.cancels"), cancels, successes, states,
                      notes=notes)


def pick(question: DiceQuestion, *, net: int, round_no: int, left: Sequence[str],
         chosen: Sequence[str], to_pick: int, units: Sequence[UnitFacts], hqs: Sequence[str],
         spill: bool) -> OddsReport:
    """W-3: a die of ``len(left)`` faces picks the unit that takes the next hit of a round
    short of one hit per target; every face equally likely; its outcome is the unit. End
    states: each unit's hits given the rounds before, ``chosen`` and ``to_pick`` more picks
    (this one included) among ``left``."""
    names = {str(u["key"]): u["name"] for u in units}
    dist = Dist({f: Fraction(1, len(left)) for f in range(1, len(left) + 1)})
    labels = {f: Msg.of("waw.odds.label.unit", unit=names[key])
              for f, key in enumerate(left, 1)}
    counts = _rounds(net, units, spill)[0]
    keys = [str(u["key"]) for u in units]
    split = {net: _partial(counts, left, chosen, to_pick, keys)}
    states, notes = end_states(Dist.point(net), units, hqs, spill, False, split,
                               net_known=True)
    return OddsReport(Msg.of("waw.odds.title.pick", sides=len(left), round=round_no, net=net),
                      Msg.of("waw.odds.unit.picked"), dist, face, states, labels, notes)
