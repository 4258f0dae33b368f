"""The dice of one roll step in one prompt, for an attack typed at the table (issue 27): every
roll to hit of the attack, every first save of one allocation. Each group keeps its own
target number and natural 1 (E-8), its own working row; what depends on a roll (the second die
of a 7+ need, E-9; a reinforced-armour re-roll, E-11; the macro-weapon hits after the other
hits' casualties, E-12) is still asked after it. Units invented."""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalog import render
from referee.core.dice import ROLL, DiceRoll, DiceSpec
from referee.core.errors import AnswerError
from referee.core.text import Msg
from referee.rulesets.epic.step_dice import DiceGroup, StepDiceQuestion
from tests.support.epic import played

GROUPS = (DiceGroup("to-hit.ap4", "AP4+", DiceSpec(count=3, target=4, auto_fail=(1,))),
          DiceGroup("to-hit.at6", "AT6+", DiceSpec(count=2, target=6, auto_fail=(1,))))
STEP = StepDiceQuestion(id="to-hit", text=Msg.of("epic.step_dice.q.to_hit", count=5, groups=2),
                        groups=GROUPS, spec=DiceSpec(count=5))


def refused(text: Any) -> Msg:
    with pytest.raises(AnswerError) as err:
        STEP.accept(text)
    return err.value.msg


@pytest.mark.clause("E-8")
def test_E8_each_group_counts_its_successes_with_its_own_target() -> None:
    roll = STEP.accept("4 5 1, 6 5")  # AP4+: 4 and 5 hit, a 1 fails; AT6+: the 6 hits
    assert isinstance(roll, DiceRoll)
    assert roll.faces == (4, 5, 1, 6, 5) and roll.successes == 3
    assert STEP.accept("4 5 1 6 5") == roll  # the comma is optional
    assert STEP.accept([4, 5, 1, 6, 5]) == roll  # a script's list
    assert STEP.accept("") == ROLL  # Enter: the program rolls


def test_a_wrong_count_in_a_group_is_refused_naming_the_group() -> None:
    msg = refused("4 5, 6 5 2")
    assert msg.id == "epic.step_dice.group_count"
    assert render(msg) == "part 1 (AP4+): 3 dice, 2 given"
    assert render(msg, "ru") == "часть 1 (AP4+): 3 кубика, введено 2"


def test_a_wrong_count_in_all_is_refused_listing_the_groups() -> None:
    msg = refused("4 5 1 6")
    assert msg.id == "epic.step_dice.count"
    assert render(msg).startswith("5 dice in all, 4 given: AP4+: 3 dice, 4+ (50% a die)")


@pytest.mark.parametrize("text", ["=2", "4 5 x, 6 5", "4 5 7 6 5"])
def test_a_count_of_hits_alone_or_a_bad_face_is_refused(text: str) -> None:
    with pytest.raises(AnswerError):
        STEP.accept(text)


def typed(firing: str, target: str, **answers: Any) -> dict[str, Any]:
    return {"attack-kind": "whole", "firing": f"Grey: {firing}", "target": f"Red: {target}",
            "broken.red": False, "action": "advance", **answers}


@pytest.mark.clause("E-9")
def test_E9_a_7_plus_group_rolls_its_first_die_in_the_step_and_its_second_after() -> None:
    """Double and cover: AP6+ needs 8+ (a 6, then 5+), AP4+ needs 6+ (E-8, E-9)."""
    answers = typed("2 ap6, 2 ap4", "3 inf 6+ woods 15", action="double",
                    **{"to-hit": "6 6, 6 2", "to-hit.ap6.then": [5, 4],
                       "save.normal.infantry-1..infantry-2": [1, 1]})
    result, asked = played(answers)
    ids = [q.id for q in asked]
    assert ids.index("to-hit") < ids.index("to-hit.ap6.then")
    step = next(q for q in asked if q.id == "to-hit")
    assert isinstance(step, StepDiceQuestion)
    assert [(g.qid, g.spec.target) for g in step.groups] == [("to-hit.ap6", 6), ("to-hit.ap4", 6)]
    assert result.outcome_data["hits"] == {"ap": 2}  # one 8+ hit (6, 5), one 6+ hit
    shots = next(t for t in result.tables if t.title.id == "epic.table.shots")
    assert [r[7] for r in shots.rows] == [1, 1]  # each group's own row


@pytest.mark.clause("E-11")
def test_E11_a_reinforced_re_roll_is_asked_after_the_step() -> None:
    answers = typed("2 ap4", "inf 5+ 10 ra, av 4+ 20, inf 6+ 30",
                    **{"to-hit": None, "to-hit.ap4": [6, 6],
                       "save.normal": "2, 1", "save.normal.infantry-1.reroll": [6]})
    del answers["to-hit"]  # one weapon: its own prompt, as before
    result, asked = played(answers)
    ids = [q.id for q in asked]
    assert ids.index("save.normal") < ids.index("save.normal.infantry-1.reroll")
    assert result.outcome_data["casualties"] == ["infantry-2"]  # the re-roll saved the first


@pytest.mark.clause("E-12")
def test_E12_macro_weapon_hits_come_after_the_saves_step_of_the_other_hits() -> None:
    """The AP hits' saves are one step (two units, two saves); the macro-weapon hits are
    allocated to the survivors only after it (E-12: no save against them here)."""
    answers = typed("2 ap4, 2 at4 mw", "inf 4+ 10, av 4+ 20, inf 5+ 30",
                    **{"to-hit": [6, 6, 6, 6], "save.normal": "6, 1"})
    result, asked = played(answers)
    step = next(q for q in asked if q.id == "save.normal")
    assert isinstance(step, StepDiceQuestion)
    assert [g.qid for g in step.groups] == ["save.normal.infantry-1", "save.normal.infantry-2"]
    # infantry 2 failed its save: the macro-weapon hits go to the units left
    assert result.outcome_data["allocation"][2:] == [("mw", "infantry-1"),
                                                     ("mw", "armoured-vehicle-1")]
    assert set(result.outcome_data["casualties"]) == {"infantry-1", "infantry-2",
                                                      "armoured-vehicle-1"}


def test_an_attack_from_a_declaration_keeps_a_prompt_a_weapon() -> None:
    """Scripts and declarations answer each weapon's roll by its id, as before."""
    declaration = {"firing": "Grey", "target": "Red",
                   "weapons": [{"name": "Rifle", "ap": 5, "shots": 2},
                               {"name": "Cannon", "at": 4}],
                   "target_units": [{"name": "Post", "type": "INF", "armour": 5,
                                     "distance": 10, "in_range": True, "terrain": "open"}],
                   "firing_blast_markers": 0, "target_blast_markers": 0, "crossfire": 0,
                   "target_broken": False}
    _, asked = played({"action": "advance", "to-hit.rifle": [1, 1], "to-hit.cannon": [1]},
                    declaration)
    assert not [q for q in asked if isinstance(q, StepDiceQuestion)]
