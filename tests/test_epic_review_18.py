"""Epic Armageddon findings of the rules review (issue 18): fortified units under crossfire
(E-11), crossfire per formation under a barrage (E-13, E-19), a wiped-out formation in a
barrage's outcome (E-14) and disrupt hits that no unit can take (E-13)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalog import render
from tests.epic_helpers import decl, shoot, tunit

RIFLE = {"name": "Rifle", "ap": 4}


def _save_texts(result: Any) -> list[str]:
    return [render(s.text) for s in result.steps if s.kind == "roll"
            and s.data.get("question", "").startswith("save.")]


# 1. fortified units ignore crossfire's -1 to their saves, but still give its extra marker
@pytest.mark.clause("E-11")
def test_E11_fortified_infantry_keeps_its_3_plus_cover_save_under_crossfire() -> None:
    d = decl([RIFLE], [tunit("A", armour=6, terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [3]})
    assert r.outcome_data["casualties"] == []  # 3+ still: crossfire's -1 does not apply
    assert any("3+" in t for t in _save_texts(r))
    note = next(s for s in r.steps if s.text.id == "epic.step.fortified_crossfire")
    assert note.clause == "E-11" and "A" in render(note.text)
    # the same unit in ruins (4+ cover) takes the -1: a 4 fails
    d = decl([RIFLE], [tunit("A", armour=6, terrain="ruins")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [4]})
    assert r.outcome_data["casualties"] == ["A"]


@pytest.mark.clause("E-13")
def test_E13_fortified_unit_destroyed_under_crossfire_still_gives_the_extra_marker() -> None:
    d = decl([RIFLE], [tunit("A", armour=6, terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.rifle": [6], "save.normal.a": [2]})
    assert r.outcome_data["casualties"] == ["A"]
    assert r.outcome_data["markers_added"] == 1 + 1 + 1  # under fire, the kill, crossfire


@pytest.mark.clause("E-11")
def test_E11_fortified_armour_save_ignores_crossfire_too() -> None:
    # a tank in an emplacement: units in fortifications (any type) may ignore the -1
    d = decl([{"name": "Lascannon", "at": 4}], [tunit("T", "AV", armour=4,
                                                     terrain="fortifications")], crossfire=1)
    r = shoot(d, {"to-hit.lascannon": [6], "save.normal.t": [4]})
    assert r.outcome_data["casualties"] == []


@pytest.mark.clause("E-11")
def test_E11_odds_of_a_fortified_unit_under_crossfire_match_the_resolver_tree() -> None:
    from tests.test_epic_odds import check_tree

    d = decl([{"name": "Rifle", "ap": 4, "shots": 2}],
             [tunit("A", armour=6, terrain="fortifications"),
              tunit("B", armour=6, distance=15, terrain="ruins")], crossfire=1)
    assert check_tree(d, {}) >= 3
