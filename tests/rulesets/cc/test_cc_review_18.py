"""Combat Commander finding of the rules review (issue 18): a leader's Command does not
modify ordnance (C-14 with C-1; option ordnance-command)."""

from __future__ import annotations

from typing import Any

import pytest

from referee import api
from referee.catalog import render

MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "A1", "fp": 6,
          "range": 12}
LEADER = {"name": "Sgt. Grey", "kind": "leader", "hex": "A1", "command": 1, "fires": False}
HMG = {"name": "HMG", "kind": "weapon", "hex": "A1", "fp": 8, "range": 16}


def fire(firing: list[dict[str, Any]], answers: dict[str, Any],
         options: tuple[str, ...] = ()) -> Any:
    decl = {"attacker": "germany", "defender": "america", "target_hex": "X1",
            "firing": firing, "target": [{"name": "Target", "morale": 6, "broken_morale": 8}]}
    return api.attack("cc", answers, seed=1, declaration=decl, options=list(options))


HIT = {"targeting": [5, 6], "fire": [2, 3], "defence.target": [1, 2]}


@pytest.mark.clause("C-14")
def test_C14_a_leader_in_the_hex_adds_no_command_to_a_mortars_fp() -> None:
    r = fire([{**MORTAR, "distance": 4}, LEADER], HIT)
    assert r.outcome_data["fp"] == 6 and r.outcome_data["attack_total"] == 6 + 5
    note = next(s for s in r.steps if s.text.id == "cc.step.ordnance_no_command")
    assert note.clause == "C-14" and "Sgt. Grey" in render(note.text)
    assert r.non_default_options == ()


@pytest.mark.clause("C-14")
def test_C14_nor_to_a_mortars_range() -> None:
    r = fire([{**MORTAR, "distance": 13}, LEADER], {})
    assert r.outcome_data["allowed"] is False
    assert "12" in render(r.outcome)  # its printed range, not 13
    assert fire([{**MORTAR, "distance": 12}, LEADER], HIT).outcome_data["allowed"] is True


@pytest.mark.clause("C-14")
def test_C14_other_weapons_still_take_the_leaders_command() -> None:
    r = fire([{**HMG, "distance": 17}, LEADER], {"fire": [2, 3], "defence.target": [1, 2]})
    assert r.outcome_data["fp"] == 9  # example E: 8 + 1 for the leader; range 16 + 1


@pytest.mark.clause("C-14")
def test_C14_command_on_ordnance_as_a_house_rule() -> None:
    opt = ("ordnance-command=fp-and-range",)
    r = fire([{**MORTAR, "distance": 13}, LEADER], HIT, opt)
    assert r.outcome_data["fp"] == 7 and r.outcome_data["allowed"] is True
    assert r.non_default_options == ("ordnance-command",)
