"""Epic Armageddon, the roll to hit: clauses E-7, E-8 and E-9 and the brief's worked
examples 1 to 3. Each test fails if its rule is applied wrongly."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import ScriptError, UsageError
from referee.rulesets.epic.tohit import hit_plan, is_hit, required_roll

ONE_WEAPON = {"firing": "F", "target": "T",
              "weapons": [{"name": "Gun", "shots": 3, "ap": 5}]}


def shoot(declaration: dict[str, Any], answers: dict[str, Any]) -> Any:
    return api.attack("epic", answers, declaration=declaration)


def questions_asked(declaration: dict[str, Any], answers: dict[str, Any]) -> list[str]:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    api.play(plan, port)
    return list(port.answers)


# --- E-8: modifiers and the natural 1 -------------------------------------------------------

@pytest.mark.clause("E-8")
def test_E8_minus_one_modifier_raises_the_number_needed() -> None:
    assert required_roll(4, -1) == 5  # AT4+ with -1: 5+
    assert required_roll(5, -2) == 7  # cover and Double together
    assert required_roll(3, +1) == 2  # Sustained Fire


@pytest.mark.clause("E-8")
def test_E8_cover_double_marshal_and_sustained_fire_modifiers() -> None:
    def need(action: str, cover: bool) -> int:
        r = shoot(ONE_WEAPON, {"action": action, "cover": cover, "to-hit.gun": "=0"})
        return next(s.data["need"] for s in r.steps if "need" in s.data)

    assert need("advance", False) == 5
    assert need("advance", True) == 6
    assert need("double", False) == 6
    assert need("marshal", False) == 6
    assert need("double", True) == 7
    assert need("sustained-fire", False) == 4
    assert need("sustained-fire", True) == 5
    assert need("overwatch", False) == 5


@pytest.mark.clause("E-8")
def test_E8_natural_one_always_misses_worked_example_2() -> None:
    """AP2+ on Sustained Fire needs 1, but a rolled 1 misses and a 2 hits."""
    assert required_roll(2, +1) == 1
    assert not is_hit(1, 1)
    assert is_hit(1, 2)
    decl = {"weapons": [{"name": "Flamer", "shots": 2, "ap": 2}]}
    r = shoot(decl, {"action": "sustained-fire", "cover": False, "to-hit.flamer": [1, 2]})
    assert r.outcome_data["hits"] == {"ap": 1, "at": 0}


@pytest.mark.clause("E-8")
def test_E8_direct_roll_counts_faces_at_or_above_the_need() -> None:
    r = shoot(ONE_WEAPON, {"action": "advance", "cover": False, "to-hit.gun": [5, 4, 6]})
    assert r.outcome_data["hits"] == {"ap": 2, "at": 0}


@pytest.mark.clause("E-2")
def test_E2_a_formation_on_march_does_not_shoot_and_is_asked_no_more() -> None:
    r = shoot(ONE_WEAPON, {"action": "march"})
    assert r.outcome_data == {"shot": False, "hits": {"ap": 0, "at": 0}, "hits_by_weapon": {}}


# --- E-9: needs of 7 or more ----------------------------------------------------------------

@pytest.mark.clause("E-9")
def test_E9_seven_plus_worked_example_1() -> None:
    """Base 5+, cover -1, Double -1: need 7. (6,4) hits; (6,3) misses; (5,x) misses."""
    assert required_roll(5, -2) == 7
    assert is_hit(7, 6, 4)
    assert not is_hit(7, 6, 3)
    assert all(not is_hit(7, 5, x) for x in range(1, 7))
    decl = {"weapons": [{"name": "Rifle", "shots": 3, "ap": 5}]}
    r = shoot(decl, {"action": "double", "cover": True, "to-hit.rifle": [6, 6, 5],
                     "to-hit.rifle.then": [4, 3]})
    assert r.outcome_data["hits"]["ap"] == 1


@pytest.mark.clause("E-9")
def test_E9_eight_plus_needs_six_then_five() -> None:
    assert required_roll(6, -2) == 8
    assert is_hit(8, 6, 5)
    assert not is_hit(8, 6, 4)
    decl = {"weapons": [{"name": "Gun", "shots": 2, "ap": 6}]}
    r = shoot(decl, {"action": "double", "cover": True, "to-hit.gun": [6, 6],
                     "to-hit.gun.then": [5, 4]})
    assert r.outcome_data["hits"]["ap"] == 1


@pytest.mark.clause("E-9")
def test_E9_nine_needs_six_then_six_and_ten_cannot_hit() -> None:
    assert is_hit(9, 6, 6)
    assert not is_hit(9, 6, 5)
    assert hit_plan(10).mode == "impossible"
    assert hit_plan(11).mode == "impossible"
    assert not any(is_hit(10, a, b) for a, b in itertools.product(range(1, 7), repeat=2))


@pytest.mark.clause("E-9")
def test_E9_no_dice_are_rolled_when_no_hit_is_possible() -> None:
    decl = {"weapons": [{"name": "Odd gun", "shots": 4, "ap": 9}]}
    asked = questions_asked(decl, {"action": "double", "cover": False})
    assert asked == ["action", "cover"]  # need 10: no dice question at all


@pytest.mark.clause("E-9")
def test_E9_only_sixes_roll_again() -> None:
    """The second roll has as many dice as the first roll had sixes; none when none."""
    decl = {"weapons": [{"name": "Rifle", "shots": 4, "ap": 5}]}
    asked = questions_asked(decl, {"action": "double", "cover": True,
                                   "to-hit.rifle": [5, 4, 3, 2]})
    assert asked == ["action", "cover", "to-hit.rifle"]
    with pytest.raises(ScriptError) as err:
        shoot(decl, {"action": "double", "cover": True, "to-hit.rifle": [6, 6, 1, 2],
                     "to-hit.rifle.then": [4, 4, 4]})  # three dice for two sixes
    assert "expected 2 dice, got 3" in render(err.value.msg)


@pytest.mark.clause("E-9")
def test_E9_probability_oracle_worked_example_3() -> None:
    expected = {1: Fraction(5, 6), 2: Fraction(5, 6), 3: Fraction(4, 6), 4: Fraction(3, 6),
                5: Fraction(2, 6), 6: Fraction(1, 6), 7: Fraction(1, 12), 8: Fraction(1, 18),
                9: Fraction(1, 36), 10: Fraction(0), 12: Fraction(0)}
    for need, chance in expected.items():
        assert hit_plan(need).chance == chance, need


@pytest.mark.clause("E-9")
@pytest.mark.parametrize("need", range(0, 12))
def test_E9_plan_chance_matches_enumeration_of_two_dice(need: int) -> None:
    hits = sum(is_hit(need, a, b) for a, b in itertools.product(range(1, 7), repeat=2))
    assert Fraction(hits, 36) == hit_plan(need).chance


@pytest.mark.clause("E-9")
def test_E9_lookup_eight_says_six_then_five() -> None:
    table = api.lookup("epic", "to-hit", "8")
    from referee.render.json_out import table_json

    shown = table_json(table)
    assert shown["rows_text"][0] == ["8+", "a 6, then 5+ on a second die", "1/18", "5.6%"]
    assert shown["rows"][0]["need"] == 8
    assert shown["rows"][0]["roll"] == {"mode": "two_stage", "target": 6, "then": 5}
    assert shown["rows"][0]["chance"]["fraction"] == "1/18"


@pytest.mark.clause("E-9")
def test_E9_lookup_whole_table_two_to_ten() -> None:
    from referee.render.json_out import table_json

    shown = table_json(api.lookup("epic", "to-hit"))
    assert [r[0] for r in shown["rows_text"]] == [f"{n}+" for n in range(2, 11)]
    assert [r["need"] for r in shown["rows"]] == list(range(2, 11))
    assert [r["chance"]["fraction"] for r in shown["rows"]] == [
        "5/6", "2/3", "1/2", "1/3", "1/6", "1/12", "1/18", "1/36", "0"]
    assert [r[2] for r in shown["rows_text"]][-1] == "0"


@pytest.mark.clause("E-8")
def test_E8_lookup_flags_apply_the_modifiers() -> None:
    from referee.render.json_out import table_json

    rows = table_json(api.lookup("epic", "to-hit", "5", ["--cover", "--double"]))["rows"]
    assert rows[0]["need"] == 7
    rows = table_json(api.lookup("epic", "to-hit", "4", ["--sustained-fire"]))["rows"]
    assert rows[0]["need"] == 3
    with pytest.raises(UsageError):
        api.lookup("epic", "to-hit", "5", ["--double", "--marshal"])  # one action only
    with pytest.raises(UsageError):
        api.lookup("epic", "to-hit", None, ["--cover"])


@pytest.mark.clause("E-8")
def test_E8_lookup_refuses_a_repeated_flag() -> None:
    with pytest.raises(UsageError) as err:
        api.lookup("epic", "to-hit", "5", ["--cover", "--cover"])
    assert "more than once" in render(err.value.msg)


# --- E-7: AP or AT per weapon ---------------------------------------------------------------

@pytest.mark.clause("E-7")
def test_E7_a_weapon_with_both_values_chooses_for_all_its_shots() -> None:
    decl = {"weapons": [{"name": "Cannon", "shots": 2, "ap": 5, "at": 3}]}
    as_at = shoot(decl, {"action": "advance", "cover": False, "fire-type.cannon": "at",
                         "to-hit.cannon": [3, 4]})
    as_ap = shoot(decl, {"action": "advance", "cover": False, "fire-type.cannon": "ap",
                         "to-hit.cannon": [3, 4]})
    assert as_at.outcome_data["hits"] == {"ap": 0, "at": 2}
    assert as_ap.outcome_data["hits"] == {"ap": 0, "at": 0}


@pytest.mark.clause("E-7")
def test_E7_single_value_weapons_are_not_asked() -> None:
    decl = {"weapons": [{"name": "Lance", "shots": 1, "at": 4},
                        {"name": "Cannon", "shots": 1, "ap": 5, "at": 4}]}
    asked = questions_asked(decl, {"action": "advance", "cover": False,
                                   "fire-type.cannon": "ap"})
    assert "fire-type.lance" not in asked and "fire-type.cannon" in asked


# --- invariants ------------------------------------------------------------------------------

weapons = st.lists(st.fixed_dictionaries({
    "shots": st.integers(min_value=1, max_value=12),
    "ap": st.one_of(st.none(), st.integers(min_value=2, max_value=6)),
    "at": st.integers(min_value=2, max_value=6)}), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(weapons, st.sampled_from(["advance", "double", "marshal", "sustained-fire"]),
       st.booleans(), st.integers(min_value=0, max_value=10_000))
def test_hits_never_exceed_shots_and_dice_decide_the_outcome(
        ws: list[dict[str, Any]], action: str, cover: bool, seed: int) -> None:
    decl = {"weapons": [dict(w, name=f"w{i}") for i, w in enumerate(ws)]}
    answers: dict[str, Any] = {"action": action, "cover": cover}
    answers.update({f"fire-type.w{i}": "at" for i, w in enumerate(ws) if w["ap"] is not None})
    first = api.attack("epic", answers, seed=seed, declaration=decl)
    again = api.attack("epic", answers, seed=seed, declaration=decl)
    assert first.to_json() == again.to_json()
    total_shots = sum(w["shots"] for w in ws)
    assert sum(first.outcome_data["hits"].values()) <= total_shots
    for i, w in enumerate(ws):
        assert first.outcome_data["hits_by_weapon"][f"w{i}"] <= w["shots"]
