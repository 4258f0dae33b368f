"""A shooting attack typed at the table in one line per formation (issue 27): the formation's
name, its Blast markers (``bm``), the target's crossfire (``xf``) and named groups in the
line; units typed without a name numbered by their type, weapons named by their profile,
without gaps; the crossfire of a later attack said with where the target's units stand. Units
invented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.catalog import render
from referee.core.errors import AnswerError
from referee.core.questions import Question
from referee.core.text import Msg
from referee.rulesets.epic.line import Needs
from referee.rulesets.epic.shoot_line import (
    CrossfireSituationQuestion,
    ShootLineQuestion,
    Standing,
)
from tests.support.epic import played

TEXT = Msg.of("epic.shoot.q.target")


def firing_q(**kw: Any) -> ShootLineQuestion:
    return ShootLineQuestion(id="firing", text=TEXT, side="firing", **kw)


def target_q(**kw: Any) -> ShootLineQuestion:
    return ShootLineQuestion(id="target", text=TEXT, side="target", **kw)


def refused(q: Question, line: str) -> Msg:
    with pytest.raises(AnswerError) as err:
        q.accept(line)
    return err.value.msg


# -- the line -------------------------------------------------------------------------------

def test_a_line_gives_the_name_markers_crossfire_and_named_groups_and_reads_back() -> None:
    line = target_q().accept("Red Company: xf 1, bm2, Rifles 2 inf 6+ woods 15, 4 inf 6+ 20")
    assert (line.name, line.markers, line.crossfire) == ("Red Company", 2, 1)
    assert line.names == ("Rifles", None)
    assert [g.count for g in line.groups] == [2, 4]
    shown = target_q().format(line)
    assert shown == "Red Company: bm2, xf1, Rifles 2 inf 6+ woods 15, 4 inf 6+ 20"
    assert target_q().accept(shown) == line  # what a --record file keeps reads the same


def test_a_line_in_russian_reads_and_shows_back_in_russian() -> None:
    line = target_q().accept("Красная рота: пк1, бл1, Стрелки 2 пех 6+ лес 15")
    assert (line.name, line.markers, line.crossfire, line.names) == (
        "Красная рота", 1, 1, ("Стрелки",))
    assert target_q().format(line) == "Красная рота: бл1, пк1, Стрелки 2 пех 6+ лес 15"


def test_left_out_markers_and_crossfire_are_none_and_a_name_may_be_left_out() -> None:
    line = firing_q().accept("4 ap4, Lascannon 2 at4")
    assert (line.name, line.markers, line.crossfire) == (None, None, None)
    assert line.names == (None, "Lascannon")


@pytest.mark.clause("E-4")
def test_E4_with_blast_markers_each_firing_group_gives_its_distance() -> None:
    assert refused(firing_q(), "Grey: bm1, 4 ap4").id == "epic.entry.no_distance_firing"
    assert firing_q().accept("Grey: bm1, 4 ap4 20").groups[0].distance == 20


@pytest.mark.parametrize(("q", "line", "reason"), [
    (firing_q(), "Grey: xf1, 4 ap4", "epic.shoot.entry.crossfire_firing"),
    (target_q(), "Red: xf1, xf2, 2 inf 6+ 15", "epic.shoot.entry.twice"),
    (target_q(), "Red: xf10, 2 inf 6+ 15", "epic.shoot.entry.bad_crossfire"),
    (target_q(), "Red: bm100, 2 inf 6+ 15", "epic.shoot.entry.bad_markers"),
    (target_q(), "Red: bm1", "epic.shoot.entry.no_units"),
    (target_q(taken="grey"), "Grey: 2 inf 6+ 15", "epic.entry.name_taken"),
    (target_q(known_markers=(("red", 3),)), "Red: bm1, 2 inf 6+ 15",
     "epic.shoot.entry.markers_kept"),
    # a word before a count that is not a name's: what is wrong after the name is said
    (target_q(), "Rifles 3 inf woods 30", "epic.entry.no_save"),
])
def test_a_wrong_line_is_refused_with_its_reason(q: ShootLineQuestion, line: str,
                                                 reason: str) -> None:
    assert refused(q, line).id == reason


def test_a_formation_the_game_keeps_may_be_named_alone_with_its_crossfire() -> None:
    line = target_q(kept=frozenset({"red company"})).accept("Red Company: xf1")
    assert (line.name, line.crossfire, line.groups) == ("Red Company", 1, ())


def test_the_hints_say_what_a_left_out_bm_and_xf_mean_in_both_languages() -> None:
    for key in ("firing", "target"):
        hint = Msg.of(f"epic.shoot.hint.{key}")
        assert "bm1" in render(hint, "en") and "left out: none" in render(hint, "en")
        assert "бл1" in render(hint, "ru") and "не указано — нет" in render(hint, "ru")
    assert "xf1" in render(Msg.of("epic.shoot.hint.target"), "en")
    assert "пк1" in render(Msg.of("epic.shoot.hint.target"), "ru")


# -- the attack -----------------------------------------------------------------------------

REFERENCE = {"attack-kind": "whole", "firing": "Grey Company: 4 ap4, Lascannon 2 at4",
             "target": "Red Company: Rifles 2 inf 6+ woods 15, 4 inf 6+ 20, 2 av 4+ 25",
             "broken.red-company": False, "action": "advance", "cover.ap": True,
             "to-hit": [5] * 6, "save.normal": [1] * 6}


@pytest.mark.clause("E-10")
def test_E10_units_are_named_by_their_group_or_type_and_weapons_by_name_or_profile() -> None:
    result, asked = played(REFERENCE)
    assert [q.id for q in asked][:4] == ["attack-kind", "firing", "target", "broken.red-company"]
    assert result.outcome_data["casualties"] == [
        "Rifles 1", "Rifles 2", "infantry-1", "infantry-2", "armoured-vehicle-1",
        "armoured-vehicle-2"]
    shots = next(t for t in result.tables if t.title.id == "epic.table.shots")
    assert [render(r[0]) for r in shots.rows] == ["AP4+", "Lascannon"]
    saves = next(t for t in result.tables if t.title.id == "epic.table.saves")
    assert [render(r[0], "ru") for r in saves.rows] == [
        "Rifles 1 — Rifles 2 (2)", "Пехота 1 — Пехота 2 (2)",
        "Бронетехника 1 — Бронетехника 2 (2)"]
    assert "Red Company: 6 units destroyed" in render(result.outcome)
    # the fates (the outcome screen and the log) name each unit
    named = {render(f.unit) for f in result.fates if f.unit is not None}
    assert {"Rifles 1", "Infantry 4", "Armoured vehicle 2"} <= named


@pytest.mark.clause("E-4")
def test_E4_firing_units_of_a_named_group_take_its_name_others_are_numbered_gapless() -> None:
    answers = {"attack-kind": "whole",
               "firing": "Grey: bm1, Heavy 2 ap5 30, 2 ap5 20, Heavy 1 ap5 40",
               "target": "Red: 3 inf 6+ 15", "broken.red": False, "action": "advance",
               "to-hit": [1] * 4}
    result, _ = played(answers)
    who = next(t for t in result.tables if t.title.id == "epic.table.who_fires")
    assert [render(r[0]) for r in who.rows] == ["Heavy 1", "Heavy 2", "Shooter 1",
                                                "Shooter 2", "Heavy 3"]
    assert who.rows[4][4].id == "epic.fire_status.suppressed"  # 40 cm: the farthest


@pytest.mark.clause("E-11")
@pytest.mark.clause("E-13")
def test_E11_E13_crossfire_typed_in_the_target_line_worsens_saves_and_adds_a_marker() -> None:
    answers = {"attack-kind": "whole", "firing": "Grey: 2 ap4", "target": "Red: xf1, 2 inf 5+ 15",
               "broken.red": False, "action": "advance", "to-hit.ap4": [6, 6],
               "save.normal.infantry-1..infantry-2": [5, 6]}
    result, asked = played(answers)
    assert not [q.id for q in asked if q.id.startswith(("crossfire", "markers."))]
    assert result.outcome_data["casualties"] == ["infantry-1"]  # 5+ is 6+ under crossfire
    assert result.outcome_data["markers_added"] == 1 + 1 + 1  # under fire, kill, crossfire
    assert any(s.text.id == "epic.step.crossfire" and s.clause == "E-13"
               for s in result.steps)


@pytest.mark.clause("E-13")
def test_E13_a_later_attack_says_the_crossfire_with_where_the_units_stand(
        tmp_path: Path) -> None:
    """Issue 27: no crossfire question of its own at each attack of kept formations; the
    situation line takes ``xf1`` (left out: none)."""
    from tests.support.game import new_game

    game = tmp_path / "night.db"
    new_game(game)
    first = {**REFERENCE, "save.normal": [6] * 6}
    played(first, game=game)
    later = {"attack-kind": "kept:Grey Company:Red Company", "action": "advance",
             "situation.red-company": "2 15, 4 20, 2 25, xf1", "to-hit": [6, 6, 1, 1, 1, 1]}
    result, asked = played(later, game=game)
    assert [q.id for q in asked] == ["attack-kind", "action", "situation.red-company",
                                     "to-hit"]
    situation = asked[2]
    assert isinstance(situation, CrossfireSituationQuestion)
    assert "xf1" in render(situation.hint_msg or TEXT)
    # their 6+ is a 7+ under crossfire: no save (E-11)
    assert result.outcome_data["casualties"] == ["Rifles 1", "Rifles 2"]
    assert any(s.text.id == "epic.step.crossfire" for s in result.steps)


def test_a_situation_line_reads_its_crossfire_as_a_part_and_shows_it_back() -> None:
    q = CrossfireSituationQuestion(id="situation.red", text=TEXT, count=3,
                                   needs=Needs(distance=True))
    standing = q.accept("2 20, пк 2, 25")
    assert isinstance(standing, Standing) and standing.crossfire == 2
    assert [p.count for p in standing.places] == [2, 1]
    assert q.format(q.accept("2 20, 25, xf1")) == "2 20, 25, xf1"
    assert q.accept("2 20, 25").crossfire == 0
    assert refused(q, "2 20, 25, xf1, xf1").id == "epic.shoot.entry.twice"


def test_a_typed_line_may_name_a_formation_the_game_keeps_alone(tmp_path: Path) -> None:
    """Issue 27: ``grey company:`` (the hint names the kept formations that can fire) fires with the
    weapons the game keeps; the target typed anew."""
    from tests.support.game import new_game

    game = tmp_path / "night.db"
    new_game(game)
    played({**REFERENCE, "save.normal": [6] * 6}, game=game)
    answers = {"attack-kind": "whole", "firing": "grey company:",
               "target": "Blue Squad: 2 inf 5+ 15", "broken.blue-squad": False,
               "action": "advance", "to-hit": [6, 6, 6, 6, 1, 1], "save.normal": "1 1, 1 1"}
    result, asked = played(answers, game=game)
    firing = next(q for q in asked if q.id == "firing")
    assert render(firing.hint_msg or TEXT).endswith("its name and a colon alone (Grey Company)")
    assert result.outcome_data["casualties"] == ["infantry-1", "infantry-2"]
    assert set(result.state_updates["formations"]) >= {"Grey Company", "Blue Squad"}


@pytest.mark.clause("E-4")
def test_E4_the_game_files_markers_decide_a_line_typed_for_a_named_formation() -> None:
    """``epic-shoot Grey Red``: the line gives no name; the Blast markers the game file keeps
    on Grey (2) need each group's distance, and another count is refused."""
    q = firing_q(named=False, formation="Grey", known_markers=(("grey", 2),))
    assert refused(q, "4 ap4").id == "epic.entry.no_distance_firing"
    assert refused(q, "bm1, 4 ap4 20").id == "epic.shoot.entry.markers_kept"
    assert q.accept("4 ap4 20").groups[0].distance == 20
