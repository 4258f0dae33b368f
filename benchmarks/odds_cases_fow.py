"""Odds cases of Flames of War: the Top armour saves of the allocation's results step (F-7),
and the rolls of a whole assault (issue 30): defensive fire and the chance it stops the charge,
a round's roll to hit and the chance to win the round, the counterattack test, a save.

``ours`` is the report the attack shows before a save (the failed saves, the worst hit, each
team hit destroyed, the expected number destroyed); ``bare`` is the dyce call for the same
roll's distribution (dice whose face plus Top armour does not beat the anti-tank rating).
"""

from __future__ import annotations

from typing import Any

from dyce import H
from odds_bench import Case, Run

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


# --- the whole assault (issue 30): its rolls as an assault asks them ------------------------

def _assault(charging: list[dict[str, Any]], defending: list[dict[str, Any]],
             platoons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"attacker": "Grey (invented)", "defender": "Red (invented)",
            "assaulting": charging, "defending": defending, "platoons": platoons}


def _team(team_id: str, kind: str = "infantry", **extra: Any) -> dict[str, Any]:
    return {"id": team_id, "name": f"Team {team_id}", "type": kind, **extra}


def _rated(name: str, side: str, skill: str, motivation: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "skill": skill, "motivation": motivation, **extra}


# a typical assault: a platoon of 4 infantry teams at 3 infantry teams, a gun and a light tank
TYPICAL = _assault([_team(f"g{i}") for i in range(1, 5)],
                   [*(_team(f"r{i}", fires=2) for i in range(1, 4)), _team("ag", "gun", fires=2),
                    _team("lt", "tank", top=1, fires=2)],
                   [_rated("Grey", "attacker", "veteran", "confident"),
                    _rated("Red", "defender", "trained", "confident")])

# a large mixed assault: 12 charging teams in 3 kinds (infantry, pioneers with their own
# anti-tank and score, tanks) at 12 defending teams in 3 platoons, one of which may re-roll
LARGE = _assault(
    [*(_team(f"g{i}") for i in range(1, 7)),
     *(_team(f"p{i}", anti_tank=3, firepower=4, hits_on=3) for i in range(1, 4)),
     *(_team(f"k{i}", "tank", top=2) for i in range(1, 4))],
    [*(_team(f"r{i}", platoon="Red rifles", fires=2) for i in range(1, 7)),
     *(_team(f"a{i}", "gun", platoon="Red guns", fires=1) for i in range(1, 4)),
     *(_team(f"t{i}", "tank", top=i % 3, platoon="Red armour", fires=2) for i in range(1, 4))],
    [_rated("Grey", "attacker", "trained", "fearless"),
     _rated("Red rifles", "defender", "trained", "confident", reroll=True),
     _rated("Red guns", "defender", "veteran", "reluctant"),
     _rated("Red armour", "defender", "trained", "fearless")])


def _rolls(declaration: dict[str, Any], answers: dict[str, Any]) -> dict[str, Any]:
    """The dice questions of a whole assault, by id (the dice rolled from seed 1)."""
    from referee import api
    from referee.core.questions import DiceQuestion
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("fow", seed=1, declaration=declaration)
    inner = AnswerPort(answers, plan.dice, roll_missing_dice=True, use_defaults=True)
    asked: dict[str, Any] = {}

    class Keeping:
        def ask(self, question: Any) -> Any:
            if isinstance(question, DiceQuestion):
                asked[question.id] = question
            return inner.ask(question)
    api.play(plan, Keeping())
    return asked


def _report(question: Any) -> Any:
    from referee.odds.generic import report_for

    return lambda: report_for(question)


def _same_hits(report: Any, h: Any) -> bool:
    """The roll's distribution that ours shows is the bare one (hits of dice at one score)."""
    return dict(report.dist.items()) == {k: p for k, p in h.probability_items() if p}


# 4 kinds of 3 charging teams, two of them alike once scored (7 x 4 x 4 sets of hits)
WIDE = _assault(
    [*(_team(f"g{i}") for i in range(1, 4)),
     *(_team(f"v{i}", hits_on=3) for i in range(1, 4)),
     *(_team(f"p{i}", anti_tank=3, hits_on=5) for i in range(1, 4)),
     *(_team(f"k{i}", "tank", top=2) for i in range(1, 4))],
    [*(_team(f"r{i}", platoon="Red rifles") for i in range(1, 7)),
     *(_team(f"t{i}", "tank", top=i % 3, platoon="Red armour") for i in range(1, 4))],
    [_rated("Grey", "attacker", "trained", "fearless"),
     _rated("Red rifles", "defender", "trained", "confident"),
     _rated("Red armour", "defender", "trained", "fearless")])

_TYPICAL = _rolls(TYPICAL, {"defensive-fire": [1] * 10, "round.1.to-hit": [6, 6, 6, 1],
                            "round.1.motivation": [6]})
_WIDE = _rolls(WIDE, {"round.1.to-hit": [1] * 12})

# beyond the exact evaluation's reach: 5 kinds of 3 charging teams, told apart by their
# reach, type and ratings (4 ** 5 sets of hits): seeded sets of hits
WIDEST = _assault(
    [*(_team(f"g{i}", reaches=["r1", "r2", "r3", "r4"]) for i in range(1, 4)),
     *(_team(f"v{i}", reaches=["r3", "r4", "r5", "r6"]) for i in range(1, 4)),
     *(_team(f"p{i}", anti_tank=3) for i in range(1, 4)),
     *(_team(f"f{i}", firepower=3) for i in range(1, 4)),
     *(_team(f"k{i}", "tank", top=2) for i in range(1, 4))],
    [*(_team(f"r{i}", platoon="Red rifles") for i in range(1, 7)),
     *(_team(f"t{i}", "tank", top=i % 3, platoon="Red armour") for i in range(1, 4))],
    [_rated("Grey", "attacker", "trained", "fearless"),
     _rated("Red rifles", "defender", "trained", "confident"),
     _rated("Red armour", "defender", "trained", "fearless")])
_WIDEST = _rolls(WIDEST, {"round.1.to-hit": [1] * 15})
_SAVE = _rolls(_assault([_team("g1")], [_team("lt", "tank", top=1)],
                        [_rated("Grey", "attacker", "veteran", "confident"),
                         _rated("Red", "defender", "trained", "confident")]),
               {"round.1.to-hit": [6], "round.1.save.lt": [1]})
_LARGE = _rolls(LARGE, {"defensive-fire": [1] * 21, "defensive-fire.results": "none",
                        "round.1.to-hit": [6, 6] + [1] * 10, "round.1.motivation": [1],
                        "round.1.reroll": [1]})

CASES += [
    Case("fow: defensive fire, 10 dice at 4+, chance the charge is stopped", True,
         _report(_TYPICAL["defensive-fire"]), lambda: 10 @ H(6).ge(4), _same_hits),
    Case("fow: assault roll, 4 teams at 3+ on 5 teams, chance to win the round", True,
         _report(_TYPICAL["round.1.to-hit"]), lambda: 4 @ H(6).ge(3), _same_hits),
    Case("fow: assault roll, 12 teams of 3 kinds on 12 teams in 3 platoons", False,
         _report(_LARGE["round.1.to-hit"]), lambda: 6 @ H(6).ge(4) + 3 @ H(6).ge(3)
         + 3 @ H(6).ge(4)),
    Case("fow: assault roll, 12 teams of 4 kinds, 2 alike once scored", False,
         _report(_WIDE["round.1.to-hit"]), lambda: 3 @ H(6).ge(4) + 3 @ H(6).ge(3)
         + 3 @ H(6).ge(5) + 3 @ H(6).ge(4)),
    Case("fow: assault roll, 15 teams of 5 kinds (seeded sets of hits, approximate)", False,
         _report(_WIDEST["round.1.to-hit"]), lambda: 15 @ H(6).ge(4), _same_hits),
    Case("fow: counterattack test, 3 platoons, one re-rolling", True,
         _report(_LARGE["round.1.motivation"]), lambda: H(6)),
    Case("fow: assault save, 1 die, Top 1 against anti-tank 2", True,
         _report(_SAVE["round.1.save.lt"]), lambda: 1 @ H(6).le(1)),
]

def _no_fire(declaration: dict[str, Any]) -> dict[str, Any]:
    """The assault without defensive fire: the charge goes in, every round is played."""
    return {**declaration, "defending": [{k: v for k, v in d.items() if k != "fires"}
                                         for d in declaration["defending"]]}


RUNS = [Run("fow: a typical whole assault, every roll", "fow", _no_fire(TYPICAL)),
        Run("fow: a large whole assault (12 at 12), every roll", "fow", _no_fire(LARGE),
            seed=3)]
