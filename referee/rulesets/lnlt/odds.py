"""The odds of every die of a Lock 'n Load Tactical fire (brief section 3), exact.

The game rolls one die a side: attack = 1d6 + FP + LM + DFT modifiers against defence = 1d6 +
terrain modifier + lowest armour factor; if the attack is higher, each unit of the target hex
takes a damage check, 1d6 + (attack - defence) - the LM of a Good Order leader of the hex
(leg units, leaders first), read on the players' Damage Check Table; an MMC whose check die
shows a natural 1 rolls a hero die (even: a Hero). The referee asks each of these dice as its
own question, so each question's distribution is its own modified result (attack total,
defence total, damage-check total, hero or not) and the odds of how the fire ends are
conditional on the dice already rolled.

The end states (the chance of each damage-check result for each unit, a Hero, the expected
units removed) follow every unit's check in order, with the one thing that links them: the
best Good Order leader's LM after his own check. That chain is small (six faces a unit, a
handful of leader states), so it is computed exactly. A result the players' table cannot give
(no table, no row for the unit, no morale for an 'over-morale' table) is asked at the table:
its odds are not known, and neither are those of the checks that depend on it.

Imported only when odds are shown (through the ``OddsRef`` of each die).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from referee.core import work
from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport
from referee.rulesets.lnlt.combat import TargetFacts
from referee.rulesets.lnlt.roster import band_result
from referee.rulesets.lnlt.tables import tables

SIDES = 6
UNKNOWN = -1  # the helping leader's LM depends on a result asked at the table
NO_EFFECT = "no-effect"
DIE = Dist.from_counts(dict.fromkeys(range(1, SIDES + 1), 1))


def _plus(shift: int, roll: DiceRoll) -> int:
    """The modified result of a one-die roll: its face plus the modifiers."""
    assert roll.faces is not None
    return roll.faces[0] + shift


def _hero(roll: DiceRoll) -> int:
    assert roll.faces is not None
    return 1 if roll.faces[0] % 2 == 0 else 0


@dataclass
class Checks:
    """What the damage checks of one fire come to: each unit's chance of each result
    (``unknown``: of a result asked at the table) and of a Hero."""

    results: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    unknown: dict[str, Fraction] = field(default_factory=dict)
    hero: dict[str, Fraction] = field(default_factory=dict)


Step = tuple[str | None, int, int]  # (result or None if asked, helper after, faces)


def _step(unit: TargetFacts, margin: int, h: int) -> tuple[list[Step], int]:
    """One unit's check from the state (margin, helper LM ``h``): the faces leading to each
    (result, helper after), and the faces that bring a hero die. Mirrors
    ``combat.resolve_fire``: leg units take the helper's LM off; a leader in Good Order
    after his own check (no effect) helps the later ones if his LM is better."""
    found: dict[tuple[str | None, int], int] = {}
    for face in range(1, SIDES + 1):
        if unit.leg and h == UNKNOWN:
            key: tuple[str | None, int] = (None, h)
        else:
            total = face + margin - (h if unit.leg else 0)
            result = None if unit.bands is None else band_result(unit.bands, total)
            new = h
            if unit.helps > max(h, 0):
                if result is None:
                    new = UNKNOWN  # stays in Good Order? the players' chart says
                elif result == NO_EFFECT:
                    new = unit.helps
            key = (result, new)
        found[key] = found.get(key, 0) + 1
    return [(r, n, c) for (r, n), c in found.items()], 1 if unit.mmc else 0


def run_checks(margins: Mapping[int, Fraction], targets: Sequence[TargetFacts],
               helper: int) -> Checks:
    """Every target's damage check, in order, after a fire won by each margin of
    ``margins`` (margin: its chance; margins of no effect left out), with ``helper`` the LM
    of the leader helping so far (0: none).

    Exact and quick: the chances are kept as whole numbers over one denominator (the
    margins' common one, times 6 for every check made), over the states (margin, helper)."""
    den = math.lcm(*(p.denominator for p in margins.values())) if margins else 1
    states: dict[tuple[int, int], int] = {(m, helper): int(p * den)
                                          for m, p in margins.items() if p}
    checks = Checks()
    scale = den
    steps: dict[tuple[int, int, int], tuple[list[Step], int]] = {}
    work.add("lnlt.dc-checks", len(targets))
    for i, unit in enumerate(targets):
        work.add("lnlt.dc-states", len(states))
        scale *= SIDES
        after: dict[tuple[int, int], int] = {}
        row: dict[str | None, int] = {}
        hero = 0
        for (m, h), w in states.items():
            key = (i, m, h)
            if key not in steps:
                steps[key] = _step(unit, m, h)
            moves, hero_faces = steps[key]
            for result, new, faces in moves:
                row[result] = row.get(result, 0) + w * faces
                after[(m, new)] = after.get((m, new), 0) + w * faces
            hero += w * hero_faces
        states = after
        for result, n in row.items():
            if result is None:
                checks.unknown[unit.id] = Fraction(n, scale)
            else:
                checks.results.setdefault(unit.id, {})[result] = Fraction(n, scale)
        if hero:
            checks.hero[unit.id] = Fraction(hero, scale * 2)  # a natural 1, then even: half
    return checks


def _end_states(checks: Checks, targets: Sequence[TargetFacts],
                hit: Fraction | None, hex_: str) -> tuple[tuple[EndState, ...], tuple[Msg, ...]]:
    out: list[EndState] = []
    if hit is not None:
        out.append(EndState(Msg.of("lnlt.odds.end.hit", hex=hex_), hit))
    removes = tables().removes
    removed = Fraction(0)
    all_known = True
    why: dict[str, list[str]] = {"no_table": [], "no_rows": [], "no_morale": [], "hangs": []}
    for unit in targets:
        if checks.unknown.get(unit.id):
            all_known = False
            key = "hangs" if unit.bands is not None else {
                "rows": "no_rows", "morale": "no_morale"}.get(unit.missing, "no_table")
            why[key].append(unit.label)
            continue
        row = checks.results.get(unit.id, {})
        for result, p in row.items():
            if result != NO_EFFECT and p:
                out.append(EndState(Msg.of("lnlt.odds.end.result", unit=unit.label,
                                           result=Msg.of(f"lnlt.result.{result}")), p))
            if result in removes:
                removed += p
    for unit in targets:
        if checks.hero.get(unit.id):
            out.append(EndState(Msg.of("lnlt.odds.end.hero", unit=unit.label),
                                checks.hero[unit.id]))
    if all_known and targets:
        out.append(EndState(Msg.of("lnlt.odds.end.removed", hex=hex_), removed,
                            Kind.EXPECTED))
    notes = tuple(Msg.of(f"lnlt.odds.note.{key}", units=", ".join(names))
                  for key, names in why.items() if names)
    return tuple(out), notes


def _fire(margin: Dist, targets: Sequence[TargetFacts], hex_: str
          ) -> tuple[tuple[EndState, ...], tuple[Msg, ...]]:
    won = {m: p for m, p in margin.items() if m > 0}
    checks = run_checks(won, targets, 0)
    return _end_states(checks, targets, sum(won.values(), Fraction(0)), hex_)


def attack_odds(question: DiceQuestion, *, firing: str, hex: str, fp: int, lm: int, drm: int,
                tm: int, af: int, targets: Sequence[TargetFacts]) -> OddsReport:
    """The attack die: the attack total, and how the whole fire may end."""
    shift = fp + lm + drm
    attack = DIE.map(lambda a: a + shift)
    margin = attack + DIE.map(lambda d: -(d + tm + af))
    ends, notes = _fire(margin, targets, hex)
    return OddsReport(Msg.of("lnlt.odds.attack", firing=firing, fp=fp, lm=lm,
                             drm=f"{drm:+d}"),
                      Msg.of("lnlt.odds.unit.attack"), attack, functools.partial(_plus, shift),
                      ends, notes=notes)


def _margin(shift: int, roll: DiceRoll) -> int:
    """Attack minus defence of a two-die opposed roll (the attacker's die first)."""
    assert roll.faces is not None
    return roll.faces[0] - roll.faces[1] + shift


def opposed_odds(question: DiceQuestion, *, firing: str, hex: str, fp: int, lm: int, drm: int,
                 tm: int, af: int, targets: Sequence[TargetFacts]) -> OddsReport:
    """Both dice of the opposed roll in one answer: attack minus defence (above 0: damage
    checks), and how the whole fire may end."""
    shift = fp + lm + drm - tm - af
    margin = DIE + DIE.map(lambda d: -d)
    margin = margin.map(lambda m: m + shift)
    ends, notes = _fire(margin, targets, hex)
    return OddsReport(Msg.of("lnlt.odds.opposed", firing=firing, fp=fp, lm=lm,
                             drm=f"{drm:+d}", hex=hex, tm=f"{tm:+d}", af=f"{af:+d}"),
                      Msg.of("lnlt.odds.unit.opposed"), margin,
                      functools.partial(_margin, shift), ends, notes=notes)


def defence_odds(question: DiceQuestion, *, hex: str, attack: int, tm: int, af: int,
                 targets: Sequence[TargetFacts]) -> OddsReport:
    """The defence die: the defence total, and the fire's end given the attack total."""
    shift = tm + af
    defence = DIE.map(lambda d: d + shift)
    ends, notes = _fire(defence.map(lambda d: attack - d), targets, hex)
    return OddsReport(Msg.of("lnlt.odds.defence", hex=hex, attack=attack, tm=f"{tm:+d}",
                             af=f"{af:+d}"),
                      Msg.of("lnlt.odds.unit.defence"), defence,
                      functools.partial(_plus, shift), ends, notes=notes)


def dc_odds(question: DiceQuestion, *, diff: int, minus: int, helper: int,
            targets: Sequence[TargetFacts], helped_by: str = "") -> OddsReport:
    """A damage-check die: this unit's DC total, and the results of this check and the
    checks still to come (``targets[0]`` is this unit; ``helped_by``: the leader whose LM
    ``minus`` is)."""
    shift = diff - minus
    total = DIE.map(lambda c: c + shift)
    checks = run_checks({diff: Fraction(1)}, targets, helper)
    ends, notes = _end_states(checks, targets, None, "")
    # the expected count removed is left out here: over the checks still to come, it would
    # read as if it were the whole hex's
    ends = tuple(e for e in ends if e.kind is Kind.CHANCE)
    unit = targets[0]
    title = (Msg.of("lnlt.odds.dc_helped", unit=unit.label, diff=diff, minus=minus,
                    leader=helped_by) if helped_by else
             Msg.of("lnlt.odds.dc", unit=unit.label, diff=diff, minus=minus))
    return OddsReport(title,
                      Msg.of("lnlt.odds.unit.dc"), total, functools.partial(_plus, shift),
                      ends, notes=notes)


def hero_odds(question: DiceQuestion, *, unit: str) -> OddsReport:
    """The hero die: even faces bring a Hero."""
    dist = DIE.map(lambda f: 1 if f % 2 == 0 else 0)
    return OddsReport(Msg.of("lnlt.odds.hero", unit=unit), Msg.of("lnlt.odds.unit.hero"),
                      dist, _hero,
                      labels={1: Msg.of("lnlt.odds.label.hero"),
                              0: Msg.of("lnlt.odds.label.no_hero")})
