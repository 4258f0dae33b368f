"""Epic Armageddon barrages: clauses E-15 to E-19, ambiguities E-X3, E-X4, E-X5, E-X10 and
worked example 4 (the barrage table rows); under a barrage, crossfire per formation (E-13)
and a formation wiped out (E-14)."""

from __future__ import annotations

from typing import Any

import pytest

from referee import api
from referee.catalog import render
from tests.support.epic import (
    OTHER_FORMATION,
    asked,
    decl,
    funit,
    shoot,
    tunit,
    two_formations,
)
from tests.support.tables import texts, values

HOWITZER = {"name": "Howitzer", "barrage": 3}


def battery(points: int, guns: int = 1, **extra: object) -> dict:
    gun = {"name": "Howitzer", "barrage": points}
    return decl([gun], [tunit("A", distance=10, under_template=True),
                        tunit("B", "AV", 20, 4, under_template=True),
                        tunit("C", distance=30, under_template=False)],
                [funit(f"G{i}", ["Howitzer"]) for i in range(1, guns + 1)], **extra)


@pytest.mark.clause("E-17")
@pytest.mark.parametrize(("points", "row"), [
    (1, (0, 0, 6, 6)), (2, (0, 0, 5, 6)), (3, (0, 0, 4, 5)),
    (5, (1, 0, 4, 5)), (7, (1, 1, 4, 5)), (9, (2, 1, 4, 5)),
    (12, (2, 2, 4, 5)), (15, (2, 3, 4, 5)), (18, (2, 4, 4, 5)),
    (19, (2, 4, 4, 5))])
def test_E17_worked_example_4_barrage_table_rows(points: int, row: tuple) -> None:
    table = api.lookup("epic", "barrage", str(points))
    templates, markers, ap, at = row
    assert values(table.rows[0])[1:] == (templates, markers, 1 + markers, ap, at)
    assert texts(table.rows[0])[4:] == (f"{ap}+", f"{at}+")


@pytest.mark.clause("E-X5")
def test_EX5_above_18_points_uses_the_last_row_with_a_warning_or_is_refused() -> None:
    assert api.lookup("epic", "barrage", "19").clause == "E-X5"
    r = shoot(battery(19), {"barrage.red-hill-battery-invented.ap": "=0",
                            "barrage.red-hill-battery-invented.at": "=0"})
    assert any(s.kind == "warning" and s.clause == "E-X5" for s in r.steps)
    assert r.outcome_data["formations"]["Red Hill Battery (invented)"]["markers_added"] == 1 + 4
    r = shoot(battery(19), {}, ("barrage-over-18=refuse",))
    assert r.outcome_data["shot"] is False


@pytest.mark.clause("E-16")
def test_E16_barrage_points_sum_over_weapons_in_range() -> None:
    d = battery(3, guns=3)
    d["firing_units"][2]["in_range"] = False
    r = shoot(d, {"barrage.red-hill-battery-invented.ap": "=0",
                  "barrage.red-hill-battery-invented.at": "=0"})
    assert r.outcome_data["barrage_points"] == 6


@pytest.mark.clause("E-15")
def test_E15_only_units_under_a_template_are_attacked_one_die_each() -> None:
    r = shoot(battery(3), {"barrage.red-hill-battery-invented.ap": [4],
                           "barrage.red-hill-battery-invented.at": [5],
                           "save.red-hill-battery-invented.a": [1],
                           "save.red-hill-battery-invented.b": [6]})
    data = r.outcome_data["formations"]["Red Hill Battery (invented)"]
    assert data["hit_units"] == ["A", "B"]  # C is not under the template
    assert data["casualties"] == ["A"]


@pytest.mark.clause("E-17")
def test_E17_infantry_in_cover_rolled_apart_with_minus_one() -> None:
    d = decl([HOWITZER], [tunit("A", distance=10, terrain="woods", under_template=True)])
    r = shoot(d, {"barrage.red-hill-battery-invented.ap.cover": [4]})
    assert r.outcome_data["formations"]["Red Hill Battery (invented)"]["hit_units"] == []


@pytest.mark.clause("E-19")
@pytest.mark.clause("E-X10")
def test_E19_every_formation_under_the_templates_takes_the_extra_markers() -> None:
    d = battery(16)
    d["also_under_templates"] = [{"name": "Blue Squad (invented)", "crossfire": 0,
                                  "broken": False, "blast_markers": 0,
                                  "units": [tunit("X", distance=12, under_template=True)]}]
    answers = {"barrage.red-hill-battery-invented.ap": "=0",
               "barrage.red-hill-battery-invented.at": "=0",
               "barrage.blue-squad-invented.ap": "=0"}
    r = shoot(d, answers)
    forms = r.outcome_data["formations"]
    assert forms["Red Hill Battery (invented)"]["markers_added"] == 1 + 4
    assert forms["Blue Squad (invented)"]["markers_added"] == 1 + 4
    r = shoot(d, answers, ("barrage-extra-markers=at-most-three",))
    assert r.outcome_data["formations"]["Blue Squad (invented)"]["markers_added"] == 1 + 3


@pytest.mark.clause("E-18")
@pytest.mark.clause("E-X3")
@pytest.mark.clause("E-X4")
def test_E18_extra_templates_reported_with_the_readings_in_force() -> None:
    answers = {"barrage.red-hill-battery-invented.ap": "=0",
               "barrage.red-hill-battery-invented.at": "=0"}
    r = shoot(battery(9), answers)
    note = next(s for s in r.steps if s.clause == "E-18")
    assert "2 extra template" in render(note.text)
    assert "range/LOF: No" in render(note.text) and "overlap allowed: No" in render(note.text)
    r = shoot(battery(9), answers, ("extra-templates-need-lof=true",
                                    "extra-template-overlap=allowed"))
    note = next(s for s in r.steps if s.clause == "E-18")
    assert "range/LOF: Yes" in render(note.text) and "overlap allowed: Yes" in render(note.text)
    assert set(r.non_default_options) == {"extra-templates-need-lof", "extra-template-overlap"}


# --- barrage abilities apply only when every contributing weapon has them (E-17) -----------

TARGET = "Red Hill Battery (invented)"


def _barrage(weapons: list[dict[str, Any]]) -> dict[str, Any]:
    units = [{"name": f"Gun {i}", "weapons": [w["name"]], "distance": 60, "in_range": True}
             for i, w in enumerate(weapons, 1)]
    return decl(weapons, [tunit("Crew", armour=6, terrain="ruins", under_template=True)],
                units)


@pytest.mark.clause("E-17")
def test_E17_all_disrupt_and_ignore_cover_barrage() -> None:
    how = {"name": "Howitzer", "barrage": 3, "disrupt": True, "ignore_cover": True}
    r = shoot(_barrage([how]), {"barrage.red-hill-battery-invented.ap": [6],
                                "save.red-hill-battery-invented.crew": [3]})
    f = r.outcome_data["formations"][TARGET]
    assert f["casualties"] == ["Crew"]
    # under fire 1 + disrupt 1 per hit; no marker for the kill
    assert f["markers_added"] == 2
    need = next(s for s in r.steps if s.data.get("question")
                == "barrage.red-hill-battery-invented.ap")
    assert list(need.data["faces"]) == [6]
    # no cover -1 (the group is rolled as in the open) and no cover save (armour 6+ only)
    assert not any(s.data.get("question") == "barrage.red-hill-battery-invented.ap.cover"
                   for s in r.steps)
    save = next(s for s in r.steps if s.data.get("question")
                == "save.red-hill-battery-invented.crew")
    assert save.data["need"] == 6


@pytest.mark.clause("E-17")
def test_E17_abilities_not_shared_by_every_weapon_do_not_apply() -> None:
    how = {"name": "Howitzer", "barrage": 3, "disrupt": True, "ignore_cover": True}
    mortar = {"name": "Mortar", "barrage": 1}
    r = shoot(_barrage([how, mortar]), {"barrage.red-hill-battery-invented.ap.cover": [6],
                                        "save.red-hill-battery-invented.crew": [3]})
    f = r.outcome_data["formations"][TARGET]
    assert f["casualties"] == ["Crew"]
    assert f["markers_added"] == 2  # under fire 1 + the kill 1, nothing per hit
    save = next(s for s in r.steps if s.data.get("question")
                == "save.red-hill-battery-invented.crew")
    assert save.data["need"] == 4  # the ruins' cover save


# --- crossfire under a barrage: every crossfiring formation, each formation its own (E-13) --

@pytest.mark.clause("E-13")
def test_E13_barrage_crossfire_counts_every_formation() -> None:
    d = {**_barrage([{"name": "Howitzer", "barrage": 3}]), "crossfire": 2}
    d["target_units"][0].update(terrain="open", armour=4)
    r = shoot(d, {"barrage.red-hill-battery-invented.ap": [6],
                  "save.red-hill-battery-invented.crew": [1]})
    assert r.outcome_data["formations"][TARGET]["markers_added"] == 1 + 1 + 2


BARRAGE_HITS = {"barrage.red-hill-battery-invented.ap": [6],
                "save.red-hill-battery-invented.a": [6],
                "barrage.blue-squad-invented.ap": [6]}


@pytest.mark.clause("E-13")
@pytest.mark.clause("E-19")
def test_E13_barrage_crossfire_of_the_target_does_not_reach_another_formation() -> None:
    r = shoot(two_formations(crossfire=0), {**BARRAGE_HITS,
                                           "save.blue-squad-invented.x": [4]})
    other = r.outcome_data["formations"][OTHER_FORMATION]
    assert other["casualties"] == []  # 4+ armour, no crossfire: a 4 saves
    r = shoot(two_formations(crossfire=0), {**BARRAGE_HITS,
                                           "save.blue-squad-invented.x": [1]})
    other = r.outcome_data["formations"][OTHER_FORMATION]
    assert other["markers_added"] == 1 + 1  # under fire and the kill: no crossfire marker


@pytest.mark.clause("E-13")
def test_E13_barrage_crossfire_declared_for_the_other_formation_applies_to_it() -> None:
    r = shoot(two_formations(crossfire=2), {**BARRAGE_HITS,
                                           "save.blue-squad-invented.x": [4]})
    other = r.outcome_data["formations"][OTHER_FORMATION]
    assert other["casualties"] == ["X"]  # 4+ becomes 5+
    assert other["markers_added"] == 1 + 1 + 2


@pytest.mark.clause("E-13")
def test_E13_crossfire_of_another_formation_left_out_is_asked_at_the_table() -> None:
    ids = asked(two_formations(), {**BARRAGE_HITS, "crossfire.blue-squad-invented": 0})
    assert "crossfire.blue-squad-invented" in ids
    assert "crossfire.red-hill-battery-invented" not in ids  # the target's is declared
    r = shoot(two_formations(), {**BARRAGE_HITS, "crossfire.blue-squad-invented": 1,
                                 "save.blue-squad-invented.x": [4]})
    assert r.outcome_data["formations"][OTHER_FORMATION]["casualties"] == ["X"]


# --- a formation the barrage wipes out is destroyed, not "not broken" (E-14) ----------------

@pytest.mark.clause("E-14")
def test_E14_barrage_outcome_says_a_wiped_out_formation_is_destroyed() -> None:
    r = shoot(two_formations(crossfire=0), {**BARRAGE_HITS,
                                           "save.blue-squad-invented.x": [1]})
    assert r.outcome_data["formations"][OTHER_FORMATION]["units_left"] == 0
    text = render(r.outcome)
    part = text[text.index(OTHER_FORMATION):]
    assert "destroyed" in part and "not broken" not in part
    check = next(s for s in r.steps if s.text.id == "epic.step.break_check"
                 and OTHER_FORMATION in render(s.text))
    assert "destroyed" in render(check.text)
