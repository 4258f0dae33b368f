"""A round of a whole Flames of War assault (docs/rules/flames-of-war-assault.md, F-A8 to
F-A16, F-X9, F-X10, F-X12): the teams that fight, the score each needs to hit, the allocation
of their hits (the seed's F-1 to F-13) and what the hits do."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.result import Result
from referee.rulesets.fow.outcomes import hit_result, worst
from tests.support.fow import A, D, P, questions_asked, step_params, whole


def run(decl: dict[str, Any], answers: dict[str, Any],
        options: tuple[str, ...] | list[str] = ()) -> Result:
    """An assault whose answers may go unasked (a test names the choice that follows a
    round, which a wiped-out side never reaches)."""
    return questions_asked(decl, answers, options)[0]


def _ids(asked: list[Any]) -> list[str]:
    return [q.id for q in asked]


def _question(asked: list[Any], qid: str) -> Any:
    return next(q for q in asked if q.id == qid)


BREAK = {"round.1.choice.red-platoon": "break-off"}  # after no hits: no test
BREAKS = {"round.1.motivation": [6], **BREAK}  # after hits: the test passes, then break off


# --- F-A8, F-A9: who fights and the score ----------------------------------------------------

@pytest.mark.clause("F-A8")
@pytest.mark.clause("F-A9")
@pytest.mark.parametrize(("skill", "score"), [("conscript", 5), ("trained", 4),
                                              ("veteran", 3)])
def test_FA9_each_charging_team_rolls_one_die_at_its_skill_test(skill: str, score: int) -> None:
    decl = whole([A("g1"), A("g2"), A("g3")], [D("r1")],
                 [P("Grey", "attacker", skill=skill), P("Red platoon", "defender")])
    _, asked = questions_asked(decl, {"round.1.to-hit": [1, 1, 1], **BREAK})
    to_hit = _question(asked, "round.1.to-hit")
    assert to_hit.spec.count == 3
    assert to_hit.spec.target == score


@pytest.mark.clause("F-A9")
def test_FA9_the_skill_test_takes_no_modifier_not_even_concealment() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1", fires=1)],
                 [P("Grey", "attacker", skill="trained"), P("Red platoon", "defender")],
                 concealed=True)
    _, asked = questions_asked(decl, {"defensive-fire": [1], "round.1.to-hit": [1, 1],
                                      **BREAK})
    assert _question(asked, "defensive-fire").spec.target == 4  # 3+ and concealed: F-A4
    assert _question(asked, "round.1.to-hit").spec.target == 4  # Trained, as it is


@pytest.mark.clause("F-A9")
def test_FA9_a_card_s_own_score_replaces_the_skill_test() -> None:
    decl = whole([A("g1"), A("b1", hits_on=4)], [D("r1"), D("r2")],
                 [P("Grey", "attacker", skill="veteran"), P("Red platoon", "defender")])
    result, asked = questions_asked(decl, {"round.1.to-hit": [3, 3], **BREAK})
    assert _question(asked, "round.1.to-hit").spec.target is None  # 3+ and 4+: faces matter
    (allocated,) = step_params(result, "fow.melee.roll")
    assert allocated["hits"] == 1  # g1's 3 hits at 3+, b1's 3 misses at 4+
    assert result.outcome_data["status"]["r1"] == "destroyed" or \
        result.outcome_data["status"]["r2"] == "destroyed"


@pytest.mark.clause("F-X9")
def test_FX9_the_target_experience_reading_scores_by_the_best_defending_platoon() -> None:
    decl = whole([A("g1")], [D("r1", platoon="Red platoon"), D("v1", platoon="Veterans")],
                 [P("Grey", "attacker", skill="conscript"), P("Red platoon", "defender"),
                  P("Veterans", "defender", skill="veteran")])
    answers = {"round.1.to-hit": [1], "round.1.choice.red-platoon": "break-off",
               "round.1.choice.veterans": "break-off"}
    _, skill = questions_asked(decl, answers)
    _, target = questions_asked(decl, answers, options=["assault-to-hit=target-experience"])
    assert _question(skill, "round.1.to-hit").spec.target == 5
    assert _question(target, "round.1.to-hit").spec.target == 4


# --- F-A10: the allocation, as the seed's ----------------------------------------------------

@pytest.mark.clause("F-A10")
def test_FA10_a_charging_tank_s_hit_never_goes_to_a_vehicle() -> None:
    decl = whole([A("k1", "tank", top=2)], [D("t1", "tank", top=1), D("r1")])
    result = run(decl, {"round.1.to-hit": [6], **BREAK})
    assert result.outcome_data["status"] == {"k1": "active", "t1": "active",
                                             "r1": "destroyed"}
    assert step_params(result, "fow.step.excluded.F-12")


@pytest.mark.clause("F-A10")
def test_FA10_each_round_has_its_own_allocation_question() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1"), D("r2"), D("r3")])
    _, asked = questions_asked(decl, {
        "round.1.to-hit": [6, 1], "round.1.motivation": [6], "round.2.to-hit": [6, 6],
        "round.2.motivation": [1]})
    assert {"round.1.allocation", "round.2.allocation"} <= set(_ids(asked))
    counter = _question(asked, "round.2.allocation")
    from referee.catalog import render

    assert render(counter.text).startswith("Grey:")


# --- F-A11 to F-A15: what the hits do --------------------------------------------------------

@pytest.mark.clause("F-A11")
def test_FA11_infantry_and_gun_teams_hit_are_destroyed_without_a_save() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1"), D("ag", "gun")])
    result, asked = questions_asked(decl, {"round.1.to-hit": [5, 6], **BREAK})
    assert not [q for q in asked if ".save." in q.id]
    assert result.outcome_data["status"]["r1"] == "destroyed"
    assert result.outcome_data["status"]["ag"] == "destroyed"


@pytest.mark.clause("F-A12")
@pytest.mark.parametrize(("face", "status"), [(2, "bailed-out"), (1, "destroyed"),
                                              (3, "active")])
def test_FA12_a_tank_saves_each_hit_with_a_die_plus_top_armour(face: int, status: str) -> None:
    # Top 1 against anti-tank 3: 1+1 < 3 penetrates, 2+1 = 3 glances, 3+1 bounces
    decl = whole([A("g1", anti_tank=3)], [D("t1", "tank", top=1)])
    result, asked = questions_asked(decl, {"round.1.to-hit": [6], "round.1.save.t1": [face],
                                           **BREAK})
    save = _question(asked, "round.1.save.t1")
    assert save.spec.count == 1
    assert result.outcome_data["status"]["t1"] == status


@pytest.mark.clause("F-A12")
def test_FA12_the_anti_tank_is_the_option_unless_the_card_gives_one() -> None:
    decl = whole([A("g1")], [D("t1", "tank", top=0)])
    plain = run(decl, {"round.1.to-hit": [6], "round.1.save.t1": [2], **BREAK})
    assert plain.outcome_data["status"]["t1"] == "bailed-out"  # 2+0 = anti-tank 2
    hard = run(decl, {"round.1.to-hit": [6], "round.1.save.t1": [2], **BREAK},
               options=["assault-anti-tank=1"])
    assert hard.outcome_data["status"]["t1"] == "active"


@pytest.mark.clause("F-A13")
def test_FA13_firepower_1_needs_no_die_firepower_4_is_rolled() -> None:
    decl = whole([A("g1", anti_tank=5, firepower=4)], [D("t1", "tank", top=1)])
    failed, asked = questions_asked(decl, {"round.1.to-hit": [6], "round.1.save.t1": [1],
                                           "round.1.firepower.t1": [3], **BREAK})
    assert "round.1.firepower.t1" in _ids(asked)
    assert failed.outcome_data["status"]["t1"] == "bailed-out"  # penetrating, firepower failed
    passed = run(decl, {"round.1.to-hit": [6], "round.1.save.t1": [1],
                        "round.1.firepower.t1": [4], **BREAK})
    assert passed.outcome_data["status"]["t1"] == "destroyed"
    _, plain = questions_asked(whole([A("g1", anti_tank=5)], [D("t1", "tank", top=1)]),
                               {"round.1.to-hit": [6], "round.1.save.t1": [1], **BREAK})
    assert "round.1.firepower.t1" not in _ids(plain)


@pytest.mark.clause("F-A13")
@pytest.mark.parametrize(("save", "passed", "result"), [
    ("bounced", True, "no-effect"), ("penetrating", True, "destroyed"),
    ("penetrating", False, "bailed-out"), ("glancing", True, "bailed-out"),
    ("glancing", False, "no-effect")])
def test_FA13_each_hit_s_outcome(save: str, passed: bool, result: str) -> None:
    assert hit_result(save, passed, "bails-out") == result


@pytest.mark.clause("F-A13")
def test_FA13_a_vehicle_takes_its_worst_outcome() -> None:
    assert worst(["no-effect", "bailed-out", "no-effect"]) == "bailed-out"
    assert worst(["bailed-out", "destroyed"]) == "destroyed"
    assert worst([]) == "no-effect"
    decl = whole([A("g1"), A("g2")], [D("t1", "tank", top=0)])
    result = run(decl, {"round.1.to-hit": [6, 6], "round.1.save.t1": [6, 1], **BREAK})
    assert result.outcome_data["status"]["t1"] == "destroyed"


@pytest.mark.clause("F-X12")
def test_FX12_a_glancing_hit_may_count_as_penetrating() -> None:
    assert hit_result("glancing", True, "as-penetrating") == "destroyed"
    decl = whole([A("g1")], [D("t1", "tank", top=0)])
    result = run(decl, {"round.1.to-hit": [6], "round.1.save.t1": [2], **BREAK},
                 options=["glancing-hit=as-penetrating"])
    assert result.outcome_data["status"]["t1"] == "destroyed"
    assert step_params(result, "fow.result_step.glancing.as-penetrating") == [{}]


@pytest.mark.clause("F-A14")
def test_FA14_a_vehicle_without_top_armour_is_destroyed() -> None:
    decl = whole([A("g1")], [D("tr", "transport")])
    result, asked = questions_asked(decl, {"round.1.to-hit": [6]})
    assert not [q for q in asked if ".save." in q.id]
    assert result.outcome_data["status"]["tr"] == "destroyed"


@pytest.mark.clause("F-A15")
@pytest.mark.clause("F-X10")
def test_FA15_a_bailed_out_tank_saves_unless_the_option_destroys_it() -> None:
    decl = whole([A("g1")], [D("t1", "tank", top=3, status="bailed-out")])
    saves, asked = questions_asked(decl, {"round.1.to-hit": [6], "round.1.save.t1": [6]})
    assert "round.1.save.t1" in _ids(asked)
    assert saves.outcome_data["status"]["t1"] == "bailed-out"
    assert saves.outcome_data["winner"] == "attacker"  # a bailed out tank cannot fight on
    lost = run(decl, {"round.1.to-hit": [6]}, options=["stopped-vehicles-hit=destroyed"])
    assert lost.outcome_data["status"]["t1"] == "destroyed"


@pytest.mark.clause("F-A16")
def test_FA16_destroyed_teams_leave_and_the_teams_table_shows_each_team_s_state() -> None:
    decl = whole([A("g1"), A("g2")], [D("r1"), D("r2")])
    result = run(decl, {"round.1.to-hit": [6, 1], **BREAK})
    table = result.tables[-1]
    rows = {r[0]: r[-1].value for r in table.rows}
    assert rows == {"G1": "active", "G2": "active", "R1": "destroyed", "R2": "active"}
    assert result.outcome_data["effects"] == {"r1": ["destroyed"]}


# --- properties: across rounds ---------------------------------------------------------------

@st.composite
def _assaults(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    kinds = draw(st.lists(st.sampled_from(["infantry", "tank", "tank-escort"]), min_size=1,
                          max_size=5))
    charging = [A(f"g{i}", k, **({"top": draw(st.integers(0, 3))} if k == "tank" else {}))
                for i, k in enumerate(kinds, 1)]
    defenders = draw(st.lists(st.sampled_from(["infantry", "gun", "tank", "transport"]),
                              min_size=1, max_size=5))
    defending = [D(f"r{i}", k, **({"top": draw(st.integers(0, 3))} if k == "tank" else {}))
                 for i, k in enumerate(defenders, 1)]
    skills = st.sampled_from(["conscript", "trained", "veteran"])
    motivation = st.sampled_from(["reluctant", "confident", "fearless"])
    platoons = [P("Grey", "attacker", draw(skills), draw(motivation)),
                P("Red platoon", "defender", draw(skills), draw(motivation))]
    return whole(charging, defending, platoons), draw(st.integers(1, 10**6))


@settings(max_examples=40, deadline=None)
@given(_assaults())
def test_hits_never_exceed_the_teams_that_can_take_them_across_rounds(
        case: tuple[dict[str, Any], int]) -> None:
    decl, seed = case
    result, _ = questions_asked(decl, seed=seed)
    before: dict[str, str] = {d["id"]: d.get("status", "active") for d in decl["defending"]}
    before.update({a["id"]: "active" for a in decl["assaulting"]})
    sides = {a["id"]: "attacker" for a in decl["assaulting"]}
    sides.update({d["id"]: "defender" for d in decl["defending"]})
    for entry in result.outcome_data["round_log"]:
        hitters = entry["hits"]
        # one die a team that can fight: a team destroyed or bailed out never hits again
        assert all(before[t] not in ("destroyed", "bailed-out") for t in hitters)
        assert all(sides[t] == entry["side"] for t in hitters)
        allocated = list(entry["allocation"].values())
        # every hit scored goes to a team of the other side still in the fight, or is
        # ignored: never more hits than scored, never a team destroyed in an earlier round
        assert len(allocated) <= sum(hitters.values())
        assert all(sides[t] != entry["side"] and before[t] != "destroyed" for t in allocated)
        before = entry["status"]
    final = result.outcome_data["status"]
    assert all(final[t] == "destroyed" for t, s in before.items() if s == "destroyed")


@settings(max_examples=25, deadline=None)
@given(_assaults())
def test_the_same_dice_give_the_same_assault(case: tuple[dict[str, Any], int]) -> None:
    decl, seed = case
    first, _ = questions_asked(decl, seed=seed)
    again, _ = questions_asked(decl, seed=seed)
    assert first.to_json() == again.to_json()
