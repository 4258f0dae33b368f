"""Defensive fire in a whole Flames of War assault (docs/rules/flames-of-war-assault.md,
F-A1 to F-A7, F-X11): who fires, the score to hit the charging platoon, what the hits did,
and when the charge is stopped."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.errors import ScriptError
from referee.rulesets.fow.defensive import charge_stopped
from tests.support.fow import A, D, P, questions_asked, run, step_params, whole


def _ids(questions: list[Any]) -> list[str]:
    return [q.id for q in questions]


def _grey(n: int = 3, kind: str = "infantry", **extra: Any) -> list[dict[str, Any]]:
    return [A(f"g{i}", kind, **extra) for i in range(1, n + 1)]


# --- F-A1, F-A2: who charges -----------------------------------------------------------------

@pytest.mark.clause("F-A1")
def test_FA1_the_charging_teams_are_of_one_platoon() -> None:
    decl = whole([A("g1", platoon="Grey 1"), A("g2", platoon="Grey 2")], [D("r1")],
                 [P("Grey 1", "attacker"), P("Grey 2", "attacker"), P("Red", "defender")])
    with pytest.raises(ScriptError) as err:
        run(decl)
    assert "one platoon charges" in str(err.value.msg.kwargs) or "F-A1" in _render(err.value)


def _render(err: ScriptError) -> str:
    from referee.catalog import render

    return render(err.msg)


@pytest.mark.clause("F-A1")
def test_FA1_the_defending_teams_may_be_of_several_platoons() -> None:
    decl = whole(_grey(1), [D("r1", platoon="Red 1"), D("r2", platoon="Red 2")],
                 [P("Grey", "attacker"), P("Red 1", "defender"), P("Red 2", "defender")])
    result, asked = questions_asked(decl, {"round.1.to-hit": [1],
                                           "round.1.choice.red-1": "break-off",
                                           "round.1.choice.red-2": "break-off"})
    assert {"round.1.choice.red-1", "round.1.choice.red-2"} <= set(_ids(asked))
    assert result.outcome_data["winner"] == "attacker"
    assert result.outcome_data["pinned"] == ["Red 1", "Red 2"]


@pytest.mark.clause("F-A2")
def test_FA2_a_transport_never_charges() -> None:
    with pytest.raises(ScriptError):
        run(whole([A("g1", "transport")], [D("r1")]))


def test_a_team_without_a_rated_platoon_is_refused_naming_it() -> None:
    decl = whole([A("g1", platoon="Nobody")], [D("r1")])
    with pytest.raises(ScriptError) as err:
        run(decl)
    assert "Nobody" in _render(err.value)


def test_hitting_and_assaulting_in_one_declaration_are_refused() -> None:
    decl = whole(_grey(1), [D("r1")])
    decl["hitting"] = [{"id": "h1", "type": "infantry", "hits": 1, "reaches": ["r1"]}]
    with pytest.raises(ScriptError):
        run(decl)


def test_the_whole_assault_fields_are_refused_in_an_allocation() -> None:
    decl = {"defending": [D("r1", fires=2)],
            "hitting": [{"id": "h1", "type": "infantry", "hits": 1, "reaches": ["r1"]}]}
    with pytest.raises(ScriptError) as err:
        run(decl)
    assert "fires" in _render(err.value)


# --- F-A3: who fires -------------------------------------------------------------------------

@pytest.mark.clause("F-A3")
def test_FA3_only_teams_given_dice_fire_and_their_dice_add_up() -> None:
    decl = whole(_grey(), [D("r1", fires=2), D("r2"), D("t1", "tank", top=1, fires=3)])
    result, asked = questions_asked(decl, {"defensive-fire": [1, 1, 1, 1, 1],
                                           "round.1.to-hit": [1, 1, 1]})
    fire = next(q for q in asked if q.id == "defensive-fire")
    assert fire.spec.count == 5
    (firers,) = step_params(result, "fow.df.firers")
    assert "R2" not in firers["teams"]


@pytest.mark.clause("F-A3")
def test_FA3_a_bailed_out_team_does_not_fire_and_is_refused_dice() -> None:
    with pytest.raises(ScriptError):
        run(whole(_grey(), [D("t1", "tank", top=1, status="bailed-out", fires=2)]))
    with pytest.raises(ScriptError):
        run(whole(_grey(), [D("t1", "transport", fires=1)]))


@pytest.mark.clause("F-A3")
def test_FA3_without_defensive_fire_the_charge_goes_in_and_no_dice_are_asked() -> None:
    result, asked = questions_asked(whole(_grey(), [D("r1")]), {"round.1.to-hit": [1, 1, 1]})
    assert "defensive-fire" not in _ids(asked)
    assert step_params(result, "fow.df.none") == [{}]
    assert not result.outcome_data["stopped"]


# --- F-A4: the score -------------------------------------------------------------------------

@pytest.mark.clause("F-A4")
@pytest.mark.parametrize(("skill", "score"), [("conscript", 2), ("trained", 3),
                                              ("veteran", 4)])
def test_FA4_defensive_fire_hits_by_the_charging_platoon_s_experience(skill: str,
                                                                      score: int) -> None:
    decl = whole(_grey(), [D("r1", fires=3)],
                 [P("Grey", "attacker", skill=skill), P("Red", "defender", skill="veteran")])
    _, asked = questions_asked(decl, {"defensive-fire": [1, 1, 1],
                                      "round.1.to-hit": [1, 1, 1]})
    fire = next(q for q in asked if q.id == "defensive-fire")
    assert fire.spec.target == score


@pytest.mark.clause("F-A4")
def test_FA4_concealed_charging_teams_need_one_more() -> None:
    decl = whole(_grey(), [D("r1", fires=3)], concealed=True)
    result, asked = questions_asked(decl, {"defensive-fire": [3, 3, 4],
                                           "defensive-fire.results": "g1 destroyed",
                                           "round.1.to-hit": [1, 1]})
    fire = next(q for q in asked if q.id == "defensive-fire")
    assert fire.spec.target == 4
    assert result.outcome_data["defensive_fire_hits"] == 1


@pytest.mark.clause("F-A4")
def test_FA4_the_hits_may_be_typed_as_a_count() -> None:
    result = run(whole(_grey(5), [D("r1", fires=6)]),
                 {"defensive-fire": "=5", "defensive-fire.results": "none"})
    assert result.outcome_data["defensive_fire_hits"] == 5
    assert result.outcome_data["stopped"]


# --- F-A5: what the hits did -----------------------------------------------------------------

@pytest.mark.clause("F-A5")
def test_FA5_teams_destroyed_or_bailed_by_defensive_fire_do_not_fight() -> None:
    decl = whole([A("g1"), A("g2"), A("k1", "tank", top=1)], [D("r1", fires=4)])
    result, asked = questions_asked(decl, {
        "defensive-fire": [6, 6, 1, 1], "defensive-fire.results": "g1 destroyed, k1 bailed",
        "round.1.to-hit": [1]}, options=["tank-charge-stop=hits"])
    to_hit = next(q for q in asked if q.id == "round.1.to-hit")
    assert to_hit.spec.count == 1  # only g2 fights
    assert result.outcome_data["status"]["g1"] == "destroyed"
    assert result.outcome_data["status"]["k1"] == "bailed-out"


@pytest.mark.clause("F-A5")
@pytest.mark.parametrize(("line", "words"), [
    ("g1 bailed", "only tanks bail out"),
    ("g1 g2 destroyed", "each team lost took a hit"),
    ("destroyed", "name the team first"),
    ("g1", "say what happened"),
    ("g9 destroyed", "not a charging team"),
])
def test_FA5_a_wrong_casualties_line_is_refused_naming_the_part(line: str, words: str) -> None:
    from referee.catalog import render
    from referee.core.errors import AnswerError
    from referee.core.text import Msg
    from referee.rulesets.fow.fight_line import CasualtiesQuestion

    entry = CasualtiesQuestion(id="x", text=Msg.of("fow.q.step"), team_ids=("g1", "g2", "k1"),
                            vehicles=("k1",), most=1)
    with pytest.raises(AnswerError) as err:
        entry.accept(line)
    assert words in render(err.value.msg)


@pytest.mark.clause("F-A5")
def test_FA5_the_casualties_line_reads_russian_and_spans() -> None:
    from referee.core.text import Msg
    from referee.rulesets.fow.fight_line import CasualtiesQuestion

    entry = CasualtiesQuestion(id="x", text=Msg.of("fow.q.step"),
                            team_ids=("g1", "g2", "g3", "k1"), vehicles=("k1",), most=4)
    assert entry.accept("g1-g3 уничтожено, k1 покинут") == (
        ("g1", "destroyed"), ("g2", "destroyed"), ("g3", "destroyed"), ("k1", "bailed-out"))
    assert entry.accept("нет") == ()
    assert entry.format((("g1", "destroyed"),)) == "g1 destroyed"


# --- F-A6, F-X11: stopping the charge --------------------------------------------------------

@pytest.mark.clause("F-A6")
def test_FA6_five_hits_stop_the_charge_four_do_not() -> None:
    four = run(whole(_grey(5), [D("r1", fires=6)]),
               {"defensive-fire": "=4", "defensive-fire.results": "none",
                "round.1.to-hit": [1] * 5})
    five = run(whole(_grey(5), [D("r1", fires=6)]),
               {"defensive-fire": "=5", "defensive-fire.results": "none"})
    assert not four.outcome_data["stopped"]
    assert five.outcome_data["stopped"]


@pytest.mark.clause("F-A6")
def test_FA6_the_threshold_is_a_named_option() -> None:
    result = run(whole(_grey(5), [D("r1", fires=6)]),
                 {"defensive-fire": "=3", "defensive-fire.results": "none"},
                 options=["defensive-fire-stop=3"])
    assert result.outcome_data["stopped"]
    assert "defensive-fire-stop" in result.non_default_options


@pytest.mark.clause("F-A6")
def test_FA6_hits_not_casualties_are_counted() -> None:
    assert charge_stopped([False] * 5, 5, 0, {}, [], 5, "bailed-or-destroyed")
    assert charge_stopped([False] * 5, 4, 0, {"g1": "destroyed", "g2": "destroyed"}, [], 5,
                          "bailed-or-destroyed") is None


@pytest.mark.clause("F-X11")
def test_FX11_a_tank_charge_is_stopped_by_a_tank_lost_not_by_hits() -> None:
    tanks = [True, True, True]
    assert charge_stopped(tanks, 9, 0, {}, ["k1", "k2", "k3"], 5,
                          "bailed-or-destroyed") is None
    assert charge_stopped(tanks, 1, 0, {"k2": "bailed-out"}, ["k1", "k2", "k3"], 5,
                          "bailed-or-destroyed") == "fow.df.stop.tank"
    assert charge_stopped(tanks, 5, 0, {}, ["k1", "k2", "k3"], 5, "hits") == "fow.df.stop.hits"


@pytest.mark.clause("F-X11")
def test_FX11_in_a_mixed_platoon_the_hits_on_tanks_are_asked_and_do_not_count() -> None:
    decl = whole([A("g1"), A("g2"), A("k1", "tank", top=2)], [D("r1", fires=8)])
    goes_in, asked = questions_asked(decl, {
        "defensive-fire": "=6", "defensive-fire.results": "g1 destroyed",
        "defensive-fire.tank-hits": 2, "round.1.to-hit": [1, 1]})
    assert "defensive-fire.tank-hits" in _ids(asked)
    assert not goes_in.outcome_data["stopped"]
    stopped = run(decl, {"defensive-fire": "=6", "defensive-fire.results": "g1 destroyed",
                         "defensive-fire.tank-hits": 1})
    assert stopped.outcome_data["stopped"]


@pytest.mark.clause("F-X11")
def test_FX11_a_tank_bailed_by_defensive_fire_stops_the_charge_in_the_game() -> None:
    decl = whole([A("k1", "tank", top=2), A("k2", "tank", top=2)], [D("r1", fires=2)])
    result = run(decl, {"defensive-fire": [6, 1], "defensive-fire.results": "k2 bailed"})
    assert result.outcome_data["stopped"]
    assert step_params(result, "fow.df.stop.tank")


# --- F-A7: a stopped charge ------------------------------------------------------------------

@pytest.mark.clause("F-A7")
def test_FA7_a_stopped_charge_is_pinned_and_rolls_no_assault_hit() -> None:
    result, asked = questions_asked(whole(_grey(5), [D("r1", fires=6), D("r2")]),
                                    {"defensive-fire": [3, 3, 3, 3, 3, 1],
                                     "defensive-fire.results": "g1 destroyed"})
    assert result.outcome_data["stopped"]
    assert result.outcome_data["pinned"] == ["Grey platoon"]
    assert result.outcome_data["rounds"] == 0
    assert not [q for q in asked if q.id.startswith("round.")]
    assert result.outcome_data["status"]["r1"] == "active"


# --- properties ------------------------------------------------------------------------------

@st.composite
def _charges(draw: st.DrawFn) -> tuple[dict[str, Any], list[int], str]:
    kinds = draw(st.lists(st.sampled_from(["infantry", "tank", "gun", "tank-escort"]),
                          min_size=1, max_size=6))
    charging = [A(f"g{i}", k, **({"top": 1} if k == "tank" else {}))
                for i, k in enumerate(kinds, 1)]
    dice = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
    defending = [D(f"r{i}", fires=n) for i, n in enumerate(dice, 1)]
    faces = draw(st.lists(st.integers(1, 6), min_size=sum(dice), max_size=sum(dice)))
    rule = draw(st.sampled_from(["bailed-or-destroyed", "hits"]))
    return whole(charging, defending), faces, rule


@settings(max_examples=40, deadline=None)
@given(_charges())
def test_a_stopped_charge_causes_no_assault_hits(case: tuple[dict[str, Any], list[int],
                                                             str]) -> None:
    decl, faces, rule = case
    answers: dict[str, Any] = {"defensive-fire.results": "none",
                               "defensive-fire.tank-hits": 0}
    if faces:
        answers["defensive-fire"] = faces
    result, asked = questions_asked(decl, answers, options=[f"tank-charge-stop={rule}"])
    if result.outcome_data["stopped"]:
        assert not [q for q in asked if q.id.startswith("round.")]
        assert all(state == "active" for team, state in result.outcome_data["status"].items()
                   if team.startswith("r"))
        assert not result.outcome_data["effects"]
