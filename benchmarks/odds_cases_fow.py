"""Odds cases of Flames of War: the Top armour saves of the assault's results step (F-7).

``ours`` is the report the attack shows before a save (the failed saves, the worst hit, each
team hit destroyed, the expected number destroyed); ``bare`` is the dyce call for the same
roll's distribution (dice whose face plus Top armour does not beat the anti-tank rating).
"""

from __future__ import annotations

from dyce import H
from odds_bench import Case

from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.rulesets.fow.odds import save


def _question(count: int) -> DiceQuestion:
    return DiceQuestion(id="save.bench", text=Msg.of("odds.value", value=count),
                        spec=DiceSpec(count=count))


def _typical() -> object:
    """An armoured car (Top 0) with 2 hits in a platoon-sized assault: four more vehicles
    and three infantry or gun teams hit."""
    later = [(f"Tank {i}", "save", 2, i % 3) for i in range(4)]
    later += [(f"Rifle team {i}", "destroyed", 1, 0) for i in range(3)]
    return save(_question(2), team="Armoured car", top=0, anti_tank=2, firepower=1,
                later=later)


def _largest() -> object:
    """The largest assault the allocation benchmark solves (40 hits): one tank holding 30
    hits at a later save, ten vehicles before it already rolled, thirty teams after it."""
    settled = [(f"Tank {i}", "saved", i % 3) for i in range(10)]
    later = [(f"Vehicle {i}", "save", 3, i % 4) for i in range(10)]
    later += [(f"Team {i}", "destroyed", 1, 0) for i in range(20)]
    return save(_question(30), team="Heavy tank", top=0, anti_tank=4, firepower=3,
                settled=settled, later=later)


def _most_per_team() -> object:
    """The most dice one save can have from one hitting team (60 hits, the declaration's
    limit per team), in an assault on 60 teams (the limit of defending teams), half of them
    vehicles still to save."""
    settled = [(f"Tank {i}", "saved", i % 3) for i in range(29)]
    later = [(f"Vehicle {i}", "save", 2, i % 4) for i in range(15)]
    later += [(f"Team {i}", "destroyed", 1, 0) for i in range(15)]
    return save(_question(60), team="Heavy tank", top=1, anti_tank=4, firepower=3,
                settled=settled, later=later)


CASES = [
    Case("fow: save, 2 dice, Top 0 vs AT 2, 8 teams hit", True, _typical,
         lambda: 2 @ H(6).le(2)),
    Case("fow: save, 30 dice, Top 0 vs AT 4, 41 teams hit", False, _largest,
         lambda: 30 @ H(6).le(4)),
    Case("fow: save, 60 dice, Top 1 vs AT 4, 60 teams hit", False, _most_per_team,
         lambda: 60 @ H(6).le(3)),
]
