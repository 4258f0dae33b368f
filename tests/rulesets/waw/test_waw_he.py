"""World at War HE missions: clauses W-1 to W-5, their option defaults, the brief's worked
examples 1 to 4, and the hypothesis properties of the spread. Each test fails if its rule is
applied wrongly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import ScriptError, UsageError
from referee.rulesets.waw.he import (
    Status,
    Target,
    apply_effect,
    distribute,
    he_effects,
    net_hits,
    round_candidates,
)
from referee.rulesets.waw.tables import tables

DATA = "rulesets/world-at-war/example-data.toml"
INF = {"name": "Grey Platoon", "kind": "infantry"}
TANK = {"name": "Iron Tank", "kind": "combat-vehicle"}
HQ = {"name": "Red Command", "kind": "hq"}


def he(units: list[dict[str, Any]], answers: dict[str, Any], options: Sequence[str] = (),
       **decl: Any) -> Any:
    declaration = {"mission": "he", "hex": "0101", "firepower": 4, "hit_number": 4,
                   "terrain_defence": 1, "units": units, **decl}
    return api.attack("waw", answers, declaration=declaration, options=options)


def asked(units: list[dict[str, Any]], answers: dict[str, Any],
          options: Sequence[str] = (), **decl: Any) -> list[str]:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    declaration = {"mission": "he", "hex": "0101", "units": units, **decl}
    plan = api.plan_attack("waw", seed=1, declaration=declaration, options=options)
    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    api.play(plan, port)
    return list(port.answers)


def refused(script_error: ScriptError) -> str:
    return render(script_error.msg)


# --- W-1: attack dice ------------------------------------------------------------------------

@pytest.mark.clause("W-1")
def test_W1_each_die_at_or_above_the_hit_number_hits() -> None:
    r = he([INF], {"attack": [4, 3, 6, 1], "defence": [1],
                   "effect.grey-platoon.first": "none"})
    assert r.outcome_data["attack_hits"] == 2
    r = he([INF], {"attack": [4, 3, 6, 1], "defence": [1],
                   "effect.grey-platoon.first": "none"}, hit_number=5)
    assert r.outcome_data["attack_hits"] == 1


@pytest.mark.clause("W-1")
def test_W1_rolls_as_many_dice_as_the_firepower() -> None:
    with pytest.raises(ScriptError) as err:
        he([INF], {"attack": [4, 4, 4]})
    assert "expected 4 dice, got 3" in refused(err.value)


@pytest.mark.clause("W-1")
def test_W1_ratings_are_asked_when_not_declared_and_never_invented() -> None:
    ids = asked([INF], {"firepower": 3, "hit-number": 5, "terrain-defence": 0,
                        "effect.grey-platoon.first": "none"})
    assert ids[:2] == ["firepower", "hit-number"]
    assert "terrain-defence" in ids


@pytest.mark.clause("W-1")
def test_W1_ratings_and_terrain_come_from_the_players_data_file() -> None:
    r = he([INF], {"attack": [6, 6] + [1] * 7, "defence": [1, 1]},
           options=[f"data-file={DATA}"],
           firepower=None, hit_number=None, terrain_defence=None, artillery="blue-rockets",
           terrain="woods")
    rating = next(s for s in r.steps if "firepower" in s.data)
    assert rating.data == {"firepower": 9, "hit_number": 6}
    defence = next(s for s in r.steps if "defence" in s.data)
    assert defence.data["defence"] == 2
    # the file's first-hit cell is used: no question about it
    assert r.outcome_data["status"]["grey-platoon"] == "weakened-disorganized"


@pytest.mark.clause("W-1")
def test_W1_unknown_artillery_id_is_refused_with_the_known_ones() -> None:
    with pytest.raises(UsageError) as err:
        he([INF], {}, options=[f"data-file={DATA}"], firepower=None, hit_number=None,
           artillery="nope")
    assert err.value.msg.kwargs["known"] == "grey-battery, blue-rockets"


# --- W-2: terrain defence dice ----------------------------------------------------------------

@pytest.mark.clause("W-2")
def test_W2_each_five_or_six_cancels_one_hit() -> None:
    r = he([INF, TANK], {"attack": [6, 6, 6, 6], "defence": [5, 4, 6],
                         "effect.grey-platoon.first": "none"}, terrain_defence=3)
    assert (r.outcome_data["cancels"], r.outcome_data["net_hits"]) == (2, 2)


@pytest.mark.clause("W-2")
def test_W2_worked_example_1_cancels_never_go_below_zero() -> None:
    """Two hits, defence dice 6 6 6: 0 hits, not -1."""
    assert net_hits(2, 3) == 0
    r = he([INF], {"attack": [5, 6, 1, 1], "defence": [6, 6, 6]}, terrain_defence=3)
    assert r.outcome_data["attack_hits"] == 2
    assert r.outcome_data["net_hits"] == 0
    assert r.outcome_data["hits"] == {"grey-platoon": 0}


@pytest.mark.clause("W-2")
def test_W2_worked_example_2_mixed_stack_rolls_the_infantry_value() -> None:
    """Tank + infantry in terrain of infantry value 1: one defence die, tank or not."""
    with pytest.raises(ScriptError) as err:
        he([TANK, INF], {"attack": [4, 6, 2, 1], "defence": [3, 3]}, terrain_defence=1)
    assert "expected 1 die, got 2" in refused(err.value)
    r = he([TANK, INF], {"attack": [4, 6, 2, 1], "defence": [5], "pick.round-1.1": [2],
                         "effect.grey-platoon.first": "none"}, terrain_defence=1)
    assert r.outcome_data["net_hits"] == 1
    assert any("infantry value" in str(s.text) or s.text.id ==
               "waw.step.defence_infantry_value" for s in r.steps)


@pytest.mark.clause("W-2")
def test_W2_armoured_target_alone_rolls_the_same_defence_dice() -> None:
    r = he([TANK], {"attack": [4, 6, 2, 1], "defence": [5, 5]}, terrain_defence=2)
    assert r.outcome_data["net_hits"] == 0


@pytest.mark.clause("W-2")
def test_W2_no_hits_means_no_defence_roll_and_value_zero_means_no_dice() -> None:
    ids = asked([INF], {"attack": [1, 1, 1, 1]}, firepower=4, hit_number=4, terrain_defence=2)
    assert "defence" not in ids
    ids = asked([INF], {"attack": [6, 1, 1, 1], "effect.grey-platoon.first": "none"},
                firepower=4, hit_number=4, terrain_defence=0)
    assert "defence" not in ids


@pytest.mark.clause("W-2")
def test_W2_default_defence_cover_excluded_and_the_house_rule_adds_dice() -> None:
    ids = asked([INF], {"attack": [6, 1, 1, 1], "defence": [1],
                        "effect.grey-platoon.first": "none"},
                firepower=4, hit_number=4, terrain_defence=1)
    assert "cover-dice" not in ids
    r = he([INF], {"attack": [6, 6, 1, 1], "cover-dice": 1, "defence": [6, 6]},
           options=["defence-cover=included"])
    assert r.outcome_data["net_hits"] == 0
    assert r.non_default_options == ("defence-cover",)


# --- W-3: spread of hits ----------------------------------------------------------------------

@pytest.mark.clause("W-3")
def test_W3_every_target_one_hit_before_any_takes_a_second() -> None:
    targets = [Target("a", True), Target("b", True), Target("c", False)]
    alloc = distribute(4, targets, lambda c, n, r: [list(c)[-1]])
    counts = {k: sum(1 for a in alloc if a.unit == k) for k in "abc"}
    assert counts == {"a": 1, "b": 1, "c": 2}
    assert [a.round for a in alloc] == [1, 1, 1, 2]


@pytest.mark.clause("W-3")
def test_W3_one_hit_on_two_units_is_rolled_for_at_random() -> None:
    r = he([INF, TANK], {"attack": [6, 1, 1, 1], "defence": [1], "pick.round-1.1": [2]})
    assert r.outcome_data["hits"] == {"grey-platoon": 0, "iron-tank": 1}
    r = he([INF, TANK], {"attack": [6, 1, 1, 1], "defence": [1], "pick.round-1.1": [1],
                         "effect.grey-platoon.first": "none"})
    assert r.outcome_data["hits"] == {"grey-platoon": 1, "iron-tank": 0}


@pytest.mark.clause("W-3")
def test_W3_default_remainder_random_and_owner_option_asks_the_owner() -> None:
    units = [INF, TANK, {"name": "Truck", "kind": "unarmoured-vehicle"}]
    ids = asked(units, {"attack": [6, 6, 1, 1], "defence": [1],
                        "effect.grey-platoon.first": "none", "effect.truck.first": "none"},
                firepower=4, hit_number=4, terrain_defence=1)
    assert "pick.round-1.1" in ids and "pick.round-1.2" in ids
    r = he(units, {"attack": [6, 6, 1, 1], "defence": [1], "pick.round-1": ["iron-tank",
                                                                            "truck"],
                   "effect.truck.first": "none"}, options=["he-remainder=owner"])
    assert r.outcome_data["hits"] == {"grey-platoon": 0, "iron-tank": 1, "truck": 1}


@pytest.mark.clause("W-3")
def test_W3_owner_option_keeps_the_random_roll_for_one_hit_on_two_units() -> None:
    ids = asked([INF, TANK], {"attack": [6, 1, 1, 1], "defence": [1], "pick.round-1.1": [2]},
                options=["he-remainder=owner"], firepower=4, hit_number=4, terrain_defence=1)
    assert "pick.round-1.1" in ids and "pick.round-1" not in ids


@pytest.mark.clause("W-3")
def test_W3_owner_must_pick_exactly_the_number_of_hits() -> None:
    units = [INF, TANK, {"name": "Truck", "kind": "unarmoured-vehicle"}]
    with pytest.raises(ScriptError) as err:
        he(units, {"attack": [6, 6, 1, 1], "defence": [1], "pick.round-1": ["truck"]},
           options=["he-remainder=owner"])
    assert "pick.round-1" in refused(err.value)


@pytest.mark.clause("W-3")
@settings(max_examples=200, deadline=None)
@given(hits=st.integers(0, 30), kinds=st.lists(st.booleans(), min_size=1, max_size=8),
       spill=st.booleans(), data=st.data())
def test_W3_property_no_second_hit_while_another_target_has_none(
        hits: int, kinds: list[bool], spill: bool, data: st.DataObject) -> None:
    targets = [Target(f"u{i}", soft) for i, soft in enumerate(kinds)]

    def pick(cands: Sequence[str], n: int, _r: int) -> list[str]:
        return data.draw(st.permutations(list(cands)))[:n]

    alloc = distribute(hits, targets, pick, spill_over=spill)
    assert len(alloc) == hits  # every net hit lands on someone
    counts = {t.key: 0 for t in targets}
    for a in alloc:
        # at the moment this hit lands, nobody may still be without a hit if it is a second
        if counts[a.unit] >= 1:
            assert min(counts.values()) >= 1
        counts[a.unit] += 1


@pytest.mark.clause("W-2")
@settings(max_examples=200, deadline=None)
@given(attack=st.lists(st.integers(1, 6), min_size=1, max_size=12), hit=st.integers(1, 6),
       defence=st.lists(st.integers(1, 6), max_size=6))
def test_W2_property_net_hits_between_zero_and_attack_hits(
        attack: list[int], hit: int, defence: list[int]) -> None:
    hits = sum(1 for f in attack if f >= hit)
    cancels = sum(1 for f in defence if f >= tables().defence_cancel_on)
    net = net_hits(hits, cancels)
    assert 0 <= net <= hits


@settings(max_examples=60, deadline=None)
@given(attack=st.lists(st.integers(1, 6), min_size=1, max_size=8),
       defence=st.lists(st.integers(1, 6), min_size=1, max_size=4),
       n_units=st.integers(1, 4))
def test_W2_W3_property_through_the_whole_resolver(
        attack: list[int], defence: list[int], n_units: int) -> None:
    units = [{"name": f"U{i}", "kind": "combat-vehicle"} for i in range(n_units)]
    answers: dict[str, Any] = {"attack": attack}
    if any(f >= 4 for f in attack):
        answers["defence"] = defence
    r = api.attack("waw", answers,
                   declaration={"mission": "he", "hex": "1", "firepower": len(attack),
                                "hit_number": 4, "terrain_defence": len(defence),
                                "units": units}, seed=3)
    out = r.outcome_data
    assert 0 <= out["net_hits"] <= out["attack_hits"]
    counts = list(out["hits"].values())
    assert sum(counts) == out["net_hits"]
    assert max(counts) - min(counts) <= 1  # even reading: rounds of one each


# --- W-4: effects ------------------------------------------------------------------------------

@pytest.mark.clause("W-4")
def test_W4_worked_example_3_tank_two_hits_disorganized_not_weakened() -> None:
    r = he([TANK], {"attack": [5, 6, 1, 1], "defence": [1]})
    assert r.outcome_data["hits"] == {"iron-tank": 2}
    assert r.outcome_data["status"]["iron-tank"] == "disorganized"


@pytest.mark.clause("W-4")
def test_W4_worked_example_3_disorganized_tank_one_hit_unchanged() -> None:
    tank = {**TANK, "disorganized": True}
    r = he([tank], {"attack": [5, 1, 1, 1], "defence": [1]})
    assert r.outcome_data["status"]["iron-tank"] == "disorganized"


@pytest.mark.clause("W-4")
def test_W4_weakened_tank_is_never_made_worse_by_he() -> None:
    row = tables().he_effects["combat-vehicle"]
    after, applied = he_effects(Status(weakened=True), 5, row, lambda c: "eliminate")
    assert after == Status(disorganized=True, weakened=True)
    assert applied == ["disorganize", "none", "none", "none", "none"]


@pytest.mark.clause("W-4")
def test_W4_soft_target_further_hits_weaken_and_first_hit_is_asked() -> None:
    ids = asked([INF], {"attack": [6, 6, 1, 1], "defence": [1],
                        "effect.grey-platoon.first": "disorganize"},
                firepower=4, hit_number=4, terrain_defence=1)
    assert "effect.grey-platoon.first" in ids
    r = he([INF], {"attack": [6, 6, 1, 1], "defence": [1],
                   "effect.grey-platoon.first": "disorganize"})
    assert r.outcome_data["status"]["grey-platoon"] == "weakened-disorganized"


@pytest.mark.clause("W-4")
def test_W4_unarmoured_vehicle_with_heavy_armour_is_weakened_by_further_hits() -> None:
    truck = {"name": "Truck", "kind": "unarmoured-vehicle"}
    r = he([TANK, truck], {"attack": [6, 6, 6, 6], "defence": [1],
                           "effect.truck.first": "none"})
    assert r.outcome_data["hits"] == {"iron-tank": 2, "truck": 2}
    assert r.outcome_data["status"] == {"iron-tank": "disorganized", "truck": "weakened"}


@pytest.mark.clause("W-4")
def test_W4_weakened_soft_target_weakened_again_is_asked() -> None:
    weak = {**INF, "weakened": True}
    r = he([weak], {"attack": [6, 6, 1, 1], "defence": [1],
                    "effect.grey-platoon.first": "none",
                    "effect.grey-platoon.weakened-again": "eliminate"})
    assert r.outcome_data["status"]["grey-platoon"] == "eliminated"


@pytest.mark.clause("W-4")
def test_W4_effect_cells_the_excerpt_leaves_open_are_ask_in_the_shipped_table() -> None:
    soft = tables().he_effects["soft"]
    assert (soft.first, soft.further, soft.weakened_again) == ("ask", "weaken", "ask")
    vehicle = tables().he_effects["combat-vehicle"]
    assert (vehicle.first, vehicle.further) == ("disorganize", "none")


@pytest.mark.clause("W-4")
def test_W4_apply_effect_disorganize_twice_changes_nothing() -> None:
    s, done = apply_effect(Status(disorganized=True), "disorganize", lambda c: "none")
    assert s == Status(disorganized=True) and done == "none"


@pytest.mark.clause("W-4")
def test_W4_default_even_spread_and_spill_over_option_sends_later_hits_to_soft_units() -> None:
    targets = [Target("tank", False), Target("inf", True)]
    assert round_candidates(targets, 2, spill_over=False) == ["tank", "inf"]
    assert round_candidates(targets, 2, spill_over=True) == ["inf"]
    r = he([TANK, INF], {"attack": [6, 6, 6, 6], "defence": [1],
                         "effect.grey-platoon.first": "disorganize",
                         "effect.grey-platoon.weakened-again": "eliminate"},
           options=["soft-with-armour=spill-over"])
    assert r.outcome_data["hits"] == {"iron-tank": 1, "grey-platoon": 3}
    assert r.outcome_data["status"]["grey-platoon"] == "eliminated"
    assert r.non_default_options == ("soft-with-armour",)
    r = he([TANK, INF], {"attack": [6, 6, 6, 6], "defence": [1],
                         "effect.grey-platoon.first": "disorganize"})
    assert r.outcome_data["hits"] == {"iron-tank": 2, "grey-platoon": 2}


# --- W-5: HQs ----------------------------------------------------------------------------------

@pytest.mark.clause("W-5")
def test_W5_worked_example_4_hq_rolls_when_the_infantry_is_hit() -> None:
    r = he([HQ, INF], {"attack": [6, 1, 1, 1], "defence": [1],
                       "effect.grey-platoon.first": "disorganize",
                       "hq-roll.red-command": "disorganize"})
    assert r.outcome_data["hits"] == {"grey-platoon": 1}  # the HQ is never a target
    assert r.outcome_data["hq_rolls"] == {"red-command": "disorganize"}
    assert r.outcome_data["status"]["red-command"] == "disorganized"


@pytest.mark.clause("W-5")
def test_W5_worked_example_4_hq_alone_nothing_at_all() -> None:
    ids = asked([HQ], {}, firepower=4, hit_number=4, terrain_defence=1)
    assert ids == []  # no dice, no roll
    r = he([HQ], {})
    assert r.outcome_data["net_hits"] == 0 and r.outcome_data["hq_rolls"] == {}


@pytest.mark.clause("W-5")
def test_W5_no_hq_roll_when_every_hit_is_cancelled() -> None:
    ids = asked([HQ, INF], {"attack": [6, 1, 1, 1], "defence": [6]}, firepower=4,
                hit_number=4, terrain_defence=1)
    assert not any(i.startswith("hq-roll") for i in ids)


# --- declarations -------------------------------------------------------------------------------

def test_declaration_mistakes_name_the_field() -> None:
    with pytest.raises(ScriptError) as err:
        he([INF, INF], {})
    assert "two units are named" in refused(err.value)
    with pytest.raises(ScriptError) as err:
        he([{"name": "X", "kind": "boat"}], {})
    assert "kind" in refused(err.value)
    with pytest.raises(ScriptError) as err:
        api.attack("waw", {}, declaration={"mission": "smoke", "hex": "1", "firepower": 3})
    assert "HE missions only" in refused(err.value)


@pytest.mark.clause("W-1")
def test_W1_data_file_assets_are_offered_as_choices_with_a_way_out() -> None:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("waw", seed=1, options=[f"data-file={DATA}"],
                           declaration={"mission": "he", "hex": "1", "units": [TANK]})
    port = ScriptingPort(AnswerPort({"artillery": "other", "firepower": 2, "hit-number": 6,
                                     "attack": [6, 6], "terrain": "open"}, plan.dice))
    r = api.play(plan, port)
    assert list(port.answers)[:3] == ["artillery", "firepower", "hit-number"]
    assert "terrain" in port.answers and "terrain-defence" not in port.answers
    assert r.outcome_data["net_hits"] == 2  # open ground (invented value 0): no defence dice
    with pytest.raises(ScriptError) as err:
        api.attack("waw", {"artillery": "nope"}, options=[f"data-file={DATA}"],
                   declaration={"mission": "he", "hex": "1", "units": [TANK]})
    assert "nope" in refused(err.value) and "grey-battery" in refused(err.value)


def test_a_missing_data_file_is_named_with_the_reason() -> None:
    with pytest.raises(ScriptError) as err:
        he([INF], {}, options=["data-file=no/such/file.toml"])
    assert "no/such/file.toml" in refused(err.value)
    assert "expected an existing file" in refused(err.value)


def test_the_shipped_example_data_file_says_it_is_invented() -> None:
    from tests.support import ROOT

    text = (ROOT / DATA).read_text(encoding="utf-8")
    assert "INVENTED" in text.splitlines()[0]
    assert all("invented" in line.lower() for line in text.splitlines()
               if line.startswith("name = "))
