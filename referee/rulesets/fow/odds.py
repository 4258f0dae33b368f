"""The odds of a Top armour save in the assault's results step (F-7), and how the assault may
end: the chance each team hit is destroyed and the expected number destroyed.

Imported only when odds are shown (through the ``OddsRef`` of ``save.<team>``). The save is
the [UNVERIFIED] reading of ``results``: each die plus Top armour against the assault's
anti-tank rating; above it bounces, equal is a glancing hit, below it penetrates. A failed save
is a die that does not bounce. Saves are independent per die and per team, so every number
here is exact (binomials in fractions). What a glancing hit does, and Bailed Out, the referee
leaves to the players' rulebook.

"Destroyed" is exactly what ``results`` decides for a team without a save (infantry, gun:
destroyed) and for a result the players entered. For an armoured vehicle ``results`` decides
only bounced / glancing / penetrating and leaves the firepower test to the table, so its end
state is named for what it counts, "destroyed (penetrating, firepower passed)": at
least one penetrating hit whose firepower test (a die needing the assault's firepower)
passes. Never the bare word, which would claim more than the referee decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from referee.core.dice import DiceRoll
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.dist import Dist
from referee.odds.report import EndState, Kind, OddsReport
from referee.rulesets.fow.results import save_outcome

SIDES = 6

# how an earlier team of this assault ended (fact ``settled``)
DESTROYED = "destroyed"  # no save (infantry, gun), or entered as destroyed
NOT_DESTROYED = "not-destroyed"  # entered as bailed out or no effect
SAVED = "saved"  # rolled its save: the number given is its penetrating hits
# how a later team of this assault ends (fact ``later``)
SAVE = "save"  # rolls its own save
ENTERED = "entered"  # the players enter its result: not computable here


@dataclass(frozen=True)
class Die:
    """One save die against the anti-tank rating: the chance of each outcome."""

    penetrating: Fraction
    glancing: Fraction

    @property
    def failed(self) -> Fraction:
        return self.penetrating + self.glancing

    @property
    def bounced(self) -> Fraction:
        return 1 - self.failed


def faces_at_most(value: int) -> int:
    return max(0, min(SIDES, value))


def save_die(top: int, anti_tank: int) -> Die:
    """Each face's outcome as the results step decides it (``results.save_outcome``)."""
    outcomes = [save_outcome(face, top, anti_tank) for face in range(1, SIDES + 1)]
    return Die(Fraction(outcomes.count("penetrating"), SIDES),
               Fraction(outcomes.count("glancing"), SIDES))


def firepower_passes(firepower: int) -> Fraction:
    """A firepower test: one die needing ``firepower`` or more."""
    return Fraction(SIDES - faces_at_most(firepower - 1), SIDES)


def destroyed_chance(dice: int, top: int, anti_tank: int, firepower: int) -> Fraction:
    """At least one of ``dice`` saves penetrates and passes its firepower test."""
    kill = save_die(top, anti_tank).penetrating * firepower_passes(firepower)
    return 1 - (1 - kill) ** dice


def failed_saves(roll: DiceRoll, top: int, anti_tank: int) -> int:
    """Dice of an actual save roll that did not bounce (the outcome ``dist`` counts)."""
    assert roll.faces is not None
    return sum(1 for face in roll.faces if save_outcome(face, top, anti_tank) != "bounced")


def save(question: DiceQuestion, *, team: str, top: int, anti_tank: int, firepower: int,
         settled: Sequence[tuple[str, str, int]] = (),
         later: Sequence[tuple[str, str, int, int]] = ()) -> OddsReport:
    """The odds of ``team``'s save (``question.spec.count`` dice).

    ``settled``: the teams hit before this one, as (name, how, penetrating hits) with how one
    of ``DESTROYED``, ``NOT_DESTROYED``, ``SAVED``. ``later``: the teams hit after it, as
    (name, how, hits, Top armour) with how one of ``DESTROYED``, ``SAVE``, ``ENTERED``.
    """
    dice = question.spec.count
    die = save_die(top, anti_tank)
    fp = firepower_passes(firepower)
    pen_none = (1 - die.penetrating) ** dice
    bounce_all = die.bounced ** dice
    ends = [EndState(Msg.of("fow.odds.end.penetrating", team=team), 1 - pen_none),
            EndState(Msg.of("fow.odds.end.glancing", team=team), pen_none - bounce_all),
            EndState(Msg.of("fow.odds.end.bounced", team=team), bounce_all)]
    # (team, saved: a vehicle's save, whose "destroyed" needs a passed firepower test, chance)
    chances: list[tuple[str, bool, Fraction]] = []
    for name, how, penetrating in settled:
        if how == SAVED:
            chances.append((name, True, 1 - (1 - fp) ** penetrating))
        else:
            chances.append((name, False, Fraction(int(how == DESTROYED))))
    chances.append((team, True, destroyed_chance(dice, top, anti_tank, firepower)))
    entered = []
    for name, how, count, later_top in later:
        if how == ENTERED:
            entered.append(name)
        elif how == SAVE:
            chances.append((name, True,
                            destroyed_chance(count, later_top, anti_tank, firepower)))
        else:
            chances.append((name, False, Fraction(1)))
    ends += [EndState(Msg.of("fow.odds.end.penetrated" if saved else "fow.odds.end.destroyed",
                             team=name), p) for name, saved, p in chances]
    notes = [Msg.of("fow.odds.note.reading", top=top, anti_tank=anti_tank),
             Msg.of("fow.odds.note.outcomes"),
             Msg.of("fow.odds.note.destroyed", firepower=firepower),
             Msg.of("fow.odds.note.rulebook")]
    certain = next((o for o, p in (("bounced", die.bounced), ("glancing", die.glancing),
                                   ("penetrating", die.penetrating)) if p == 1), None)
    if certain is not None:
        notes.append(Msg.of("fow.odds.note.certain", outcome=Msg.of(f"fow.odds.die.{certain}")))
    if entered:
        notes.append(Msg.of("fow.odds.note.not_computable", teams=", ".join(entered)))
    else:
        ends.append(EndState(Msg.of("fow.odds.end.expected"),
                             sum((p for _, _, p in chances), Fraction(0)), Kind.EXPECTED))
    return OddsReport(
        Msg.of("fow.odds.title", team=team, count=dice, top=top, anti_tank=anti_tank),
        Msg.of("fow.odds.unit"), Dist.binomial(dice, die.failed),
        partial(failed_saves, top=top, anti_tank=anti_tank), tuple(ends), notes=tuple(notes))
