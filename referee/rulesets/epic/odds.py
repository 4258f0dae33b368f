"""The odds of Epic Armageddon's dice questions (issue 8), loaded only through ``OddsRef``.

To hit (E-8, E-9): the hits of the roll; for a 7+ roll the first stage counts the 6s that
roll again, with the hits after the second stage as end states; per die 7+ = 1/12, 8+ =
1/18, 9+ = 1/36. Saves (E-11, E-12): the failed saves of the roll (a re-roll and an
invulnerable save are their own rolls). End states, where the rest of the attack is known:
the expected number of units destroyed, the chance the target formation breaks (E-14) and
the chance it is wiped out, conditional on what was rolled so far. They are worked out in
``odds_rest`` with the resolver's own rules (allocation with the defaults a script would
take, saves, Blast markers, break check), exactly or by a seeded simulation, and that module
is loaded only when they are read: a roll to hit alone, or a run whose end states are not
shown, never loads it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, LazyEndStates, OddsReport, successes
from referee.rulesets.epic.tables import tables

if TYPE_CHECKING:
    from referee.rulesets.epic.oddsfacts import AttackFacts, BarrageRest, PhaseRest, ShotsRest


def fresh() -> None:
    """Forget what the odds keep between rolls (for a benchmark of a step from cold)."""
    from referee.rulesets.epic import odds_rest

    odds_rest.fresh()


# -- the odds functions named by the resolvers ---------------------------------------------
def to_hit(question: DiceQuestion, *, weapon: Msg | str, stage: str, need: int,
           then: int | None = None, rest: ShotsRest | BarrageRest | None = None) -> OddsReport:
    """A to-hit roll: ``stage`` is direct (one roll), first (the 6s of a 7+ roll) or then
    (the second die of a 7+ roll, needing ``then``)."""
    n = question.spec.count
    target = question.spec.target or 6
    per_die = Fraction(7 - max(target, tables().natural_fail + 1), 6)
    notes: list[Msg] = []
    ends: list[EndState] = []
    if stage == "first":
        assert then is not None
        second = Fraction(7 - then, 6)
        dist = Dist.binomial(n, per_die)
        final = dist.then(lambda k: Dist.binomial(k, second))
        unit = Msg.of("epic.odds.unit.sixes")
        title = Msg.of("epic.odds.title.seven_plus", weapon=weapon, count=n, need=need,
                       then=then)
        notes.append(Msg.of("epic.odds.note.seven_plus", need=need, then=then,
                            per_die=_fraction(per_die * second)))
        ends += _hit_states(weapon, final)
        notes.append(Msg.of("epic.odds.note.final_hits", dist=_compact(final)))
        chance = per_die * second
    else:
        dist = Dist.binomial(n, per_die)
        unit = Msg.of("epic.odds.unit.hits")
        title = (Msg.of("epic.odds.title.then", weapon=weapon, count=n, then=target)
                 if stage == "then" else
                 Msg.of("epic.odds.title.to_hit", weapon=weapon, count=n, target=target))
        chance = per_die
        if stage == "direct" and rest is None:  # the roll to hit alone: comparable with a
            ends += _hit_states(weapon, dist)   # 7+ roll of the same weapon in a what-if
    states: Sequence[EndState] = tuple(ends)
    if rest is not None and _engine(rest.attack):
        notes.append(Msg.of("epic.odds.note.war_engine"))
    elif rest is not None:
        states = _lazy(tuple(ends), rest.attack,
                       functools.partial(_rest_states, rest, n, chance, question.id))
        notes += _default_notes(rest.attack)
    return OddsReport(title, unit, dist, successes, states, notes=tuple(notes))


def _rest_states(rest: ShotsRest | BarrageRest, count: int, chance: Fraction,
                 key: str) -> tuple[EndState, ...]:
    from referee.rulesets.epic import odds_rest  # the end states' code, loaded when read

    return odds_rest.rest_end_states(rest, count, chance, key)


def _save_states(rest: PhaseRest, saves: tuple[Any, ...] | None, stage: str,
                 key: str) -> tuple[EndState, ...]:
    from referee.rulesets.epic import odds_rest

    return odds_rest.save_end_states(rest, saves, stage, key)


def _lazy(first: tuple[EndState, ...], attack: AttackFacts, rest: Any) -> LazyEndStates:
    """``first`` (already worked out), then the attack's end states from ``rest()``, worked
    out only when they are read (a scripted run shows them at the first roll alone)."""
    labels = [*(e.label for e in first), *(label for label, _ in attack.end_labels())]
    return LazyEndStates(labels, lambda: (*first, *rest()))


def save(question: DiceQuestion, *, unit: str, stage: str,
         rest: PhaseRest | None = None, saves: tuple[Any, ...] | None = None) -> OddsReport:
    """A save roll (the save, a reinforced-armour re-roll, an invulnerable save): the failed
    saves among its dice, and the end states given every save rolled so far (``saves``: see
    ``oddsfacts.phase_survival``)."""
    n = question.spec.count
    target = question.spec.target or 7
    fail = Fraction(min(6, target - 1), 6)
    dist = Dist.binomial(n, fail)
    title = Msg.of(f"epic.odds.title.{stage}", unit=unit, count=n, need=target)
    states: Sequence[EndState] = ()
    notes: list[Msg] = []
    if rest is not None and _engine(rest.attack):
        notes.append(Msg.of("epic.odds.note.war_engine"))
    elif rest is not None:
        states = _lazy((), rest.attack, functools.partial(
            _save_states, rest, saves, stage, question.id))
        if rest.mw_hits or rest.attack.broken_at_start:  # hits still to allocate
            notes += _default_notes(rest.attack)
    return OddsReport(title, Msg.of("epic.odds.unit.failed"), dist, _Failed(n), states,
                      notes=tuple(notes))


def step(question: DiceQuestion, *, kind: str,
         groups: tuple[tuple[Msg | str, int, Fraction], ...], first: Any, first_spec: Any,
         first_qid: str) -> OddsReport:
    """The dice of a roll step typed in one line (``step_dice``): the hits (or the failed
    saves) of all its groups together; the end states are those before the step's first
    group, which count every group after it as still to roll."""
    dist = Dist.point(0)
    for _, n, chance in groups:
        dist = dist + Dist.binomial(n, chance if kind == "to_hit" else 1 - chance)
    total = sum(n for _, n, _ in groups)
    states: Sequence[EndState] = ()
    notes: tuple[Msg, ...] = ()
    if first is not None:
        report = first.compute(DiceQuestion(id=first_qid, spec=first_spec,
                                             text=question.text))
        states, notes = report.end_states, report.notes
    title = Msg.of(f"epic.step_dice.odds.{kind}", count=total)
    if kind == "to_hit":
        return OddsReport(title, Msg.of("epic.odds.unit.hits"), dist, successes, states,
                          notes=notes)
    return OddsReport(title, Msg.of("epic.odds.unit.failed"), dist, _Failed(total), states,
                      notes=notes)


def _engine(attack: AttackFacts) -> bool:
    """A war engine among the targets: the end states' arithmetic (a unit lost on one
    failed save) does not fit it, so they are not shown (the roll's own odds are)."""
    return any(getattr(u, "war_engine", False) for u in attack.units)


def _default_notes(attack: AttackFacts) -> list[Msg]:
    """Say so where the end states take an allocation choice still open at its default: a
    tie in distance (E-X6) or the order of AT and AP hits (E-X7). A barrage's hits fall on
    the nearest of each group without a choice; only a broken formation's extra hits are
    allocated there."""
    if attack.barrage and not attack.broken_at_start:
        return []
    units = [u.target for u in attack.units]
    distances = [u.distance for u in units]
    tie = (attack.option("allocation-tie", "defender-chooses") != "listed-order"
           and len(set(distances)) < len(distances))
    order = (not attack.barrage
             and attack.option("mixed-allocation", "ask-defender") == "ask-defender"
             and {"INF", "LV", "AV"} <= {u.type for u in units})
    return [Msg.of("epic.odds.note.defaults")] if tie or order else []


def _hit_states(weapon: Msg | str, hits: Dist) -> list[EndState]:
    """The weapon's hits after every stage of its roll: expected, and at least one."""
    return [EndState(Msg.of("epic.odds.end.hits_after", weapon=weapon), hits.mean(),
                     Kind.EXPECTED),
            EndState(Msg.of("epic.odds.end.any_hit", weapon=weapon), hits.at_least(1))]


class _Failed:
    """The failed saves of an actual roll (the dice less the successes)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __call__(self, roll: DiceRoll) -> int:
        return self.count - roll.successes


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _pct(p: Fraction) -> str:
    value = float(p) * 100
    return "<0.1%" if 0 < value < 0.05 else f"{value:.1f}%"


def _compact(dist: Dist, most: int = 6) -> str:
    pct = _pct
    shown = [f"{k}: {pct(p)}" for k, p in dist.items()][:most]
    if dist.high >= most:
        shown[-1] = f"≥{most - 1}: {pct(dist.at_least(most - 1))}"
    return ", ".join(shown)
