"""Lock 'n Load Tactical findings of the rules review (issue 18): refusals of a leader's reach
with the rule (L-3, L-11), Ops Complete on a vehicle (L-13), Shaken units (L-5, L-12) and
Heroes (brief section 3), the activation prompt's default (L-1)."""

from __future__ import annotations

import pytest

from referee.catalog import render
from referee.core.errors import ScriptError
from referee.core.options import resolve_options
from referee.rulesets import find_ruleset
from referee.rulesets.lnlt.firepower import Component, FireKind, build_fp
from referee.rulesets.lnlt.roster import Unit
from tests.lnlt_helpers import leader, refusal, roster, run, step_texts, unit

MAP = {"H1": ["H2"], "H2": ["H1"]}
OPTIONS = resolve_options(find_ruleset("lnlt").option_specs(), {})


# 7. a scripted reach through a leader who may not reach is refused with the rule
@pytest.mark.clause("L-3")
def test_L3_a_scripted_reach_through_a_shaken_leader_is_refused_with_the_rule() -> None:
    decl = roster(leader("lt", "G", "H1", status="shaken"), unit("b", "G", "H2", ifp=2),
                  unit("r", "R", "H9"), adjacent=MAP)
    with pytest.raises(ScriptError) as err:
        run(decl, {"i1.do": "activate", "i1.hex": "H1", "i1.reach": ["H2"]})
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == "L-3" and "not in Good Order" in render(msg)
    assert "H2" in render(err.value.msg) and "i1.reach" in render(err.value.msg)


@pytest.mark.clause("L-11")
def test_L11_a_scripted_reach_through_an_ops_complete_leader_is_refused_with_the_rule() -> None:
    decl = roster(leader("lt", "G", "H1", markers=["ops-complete"]),
                  unit("own", "G", "H1", ifp=2), unit("b", "G", "H2", ifp=2),
                  unit("r", "R", "H9"), adjacent=MAP)
    with pytest.raises(ScriptError) as err:
        run(decl, {"i1.do": "activate", "i1.hex": "H1", "i1.reach": ["H2"]})
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == "L-11" and "marked" in render(msg)
    # answered with no hex, the activation goes on with the leader's hex alone
    result = run(decl, {"i1.do": "activate", "i1.hex": "H1", "i1.reach": [],
                        "i1.act.1": "done", "i2.do": "pass", "i3.do": "pass"})
    assert [s.data["units"] for s in result.steps if "units" in s.data] == [["own"]]
    assert any(t.startswith("[L-11] Not activatable: H2") for t in step_texts(result))


# 8. Ops Complete on a vehicle: its MGs are halved (L-13), not the MMC -1 (L-12)
@pytest.mark.clause("L-13")
def test_L13_a_vehicles_own_firepower_under_ops_complete_is_halved_not_minus_one() -> None:
    tank = Unit(id="t", side="G", hex="H1", kind="vehicle", ifp=5, markers=["ops-complete"])
    build = build_fp([Component(tank)], "t", kind=FireKind.OP_FIRE, target_moved=False,
                     options=OPTIONS)
    assert build.total == 3 and build.rows[0].clause == "L-13"  # 5 halved, rounded up
    squad = Unit(id="s", side="G", hex="H1", kind="mmc", ifp=5, markers=["ops-complete"])
    build = build_fp([Component(squad)], "s", kind=FireKind.OP_FIRE, target_moved=False,
                     options=OPTIONS)
    assert build.total == 4 and build.rows[0].clause == "L-12"  # an MMC: 5 - 1
    # at the hex it spotted this impulse, full FP (L-14) for the vehicle too
    build = build_fp([Component(tank)], "t", kind=FireKind.SPOTTED, target_moved=False,
                     options=OPTIONS)
    assert build.total == 5


# 9. Shaken units (Unit.shaken): they may be activated, but may not fire nor Op Fire, and
# may not move closer to an enemy unit in their LOS
MOVE_MAP = {"C4": ["C5"], "C5": ["C6"]}
MOVE = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "move:C4",
        "i1.move.C4.units": ["able"], "i1.move.C4.type": "moved", "i1.move.C4.to": "C5"}


@pytest.mark.clause("L-12")
def test_L12_a_shaken_squad_may_not_op_fire() -> None:
    decl = roster(unit("able", "G", "C4", ifp=2), unit("sq", "R", "E5", ifp=2, status="shaken"),
                  adjacent=MOVE_MAP)
    with pytest.raises(ScriptError) as err:
        run(decl, {**MOVE, "i1.opfire.1.1": "E5", "i1.opfire.1.1.with": ["sq"]})
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == "L-12" and "Shaken" in render(msg)
    result = run({**decl, "max_impulses": 1}, {**MOVE, "i1.opfire.1.1": "none"})
    assert not any("Op Fire" in t and "FP" in t for t in step_texts(result))


@pytest.mark.clause("L-12")
def test_L12_beside_a_shaken_squad_only_the_good_order_one_op_fires() -> None:
    decl = roster(unit("able", "G", "C4", ifp=2), unit("sq", "R", "E5", ifp=2, status="shaken"),
                  unit("go", "R", "E5", ifp=3), adjacent=MOVE_MAP, max_impulses=1)
    with pytest.raises(ScriptError) as err:
        run(decl, {**MOVE, "i1.opfire.1.1": "E5", "i1.opfire.1.1.with": ["go", "sq"]})
    assert refusal(err.value).kwargs["clause"] == "L-12"
    result = run(decl, {**MOVE, "i1.opfire.1.1": "E5", "i1.opfire.1.1.with": ["go"],
                        "i1.opfire.1.1.drm": 0, "i1.opfire.1.1.tm": 0,
                        "i1.opfire.1.1.attack": [1], "i1.opfire.1.1.defence": [6],
                        "i1.opfire.1.2": "none"})
    fps = [s.data["fp"] for s in result.steps if "fp" in s.data]
    assert fps == [3 + 1]  # the Good Order squad alone, +1 at a Moved unit


@pytest.mark.clause("L-5")
def test_L5_a_shaken_squad_may_not_fire_in_its_own_impulse() -> None:
    decl = roster(unit("sq", "G", "H1", ifp=2, status="shaken"), unit("r", "R", "H9"),
                  adjacent=MAP)
    with pytest.raises(ScriptError) as err:
        run(decl, {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1"})
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == "L-5" and "Shaken" in render(msg)
    both = roster(unit("sq", "G", "H1", ifp=2, status="shaken"), unit("go", "G", "H1", ifp=3),
                  unit("r", "R", "H9"), adjacent=MAP)
    with pytest.raises(ScriptError) as err:
        run(both, {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
                   "i1.fire.H1.with": ["sq", "go"]})
    assert "sq is Shaken" in render(refusal(err.value))


@pytest.mark.clause("L-5")
def test_L5_a_shaken_squad_moves_but_not_closer_to_an_enemy_it_can_see() -> None:
    decl = roster(unit("able", "G", "C4", ifp=2, status="shaken"), unit("r", "R", "E9"),
                  adjacent=MOVE_MAP, max_impulses=1)
    stays = run(decl, {**MOVE, "i1.move.C4.closer": True, "i1.act.2": "done"})
    after = {u["id"]: u for u in stays.state_updates["phase"]["roster"]["units"]}
    assert after["able"]["hex"] == "C4" and after["able"]["markers"] == []
    assert any(t.startswith("[L-5]") and "stays in C4" in t for t in step_texts(stays))
    moves = run(decl, {**MOVE, "i1.move.C4.closer": False, "i1.opfire.1.1": "none"})
    after = {u["id"]: u for u in moves.state_updates["phase"]["roster"]["units"]}
    assert after["able"]["hex"] == "C5" and after["able"]["markers"] == ["moved"]


# 10. Heroes: a Hero rolled during a fire joins the hex; Pass is never the default
FIRE_MAP = {"H1": ["H3"]}
HERO_FIRE = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
             "i1.fire.H1.with": ["a"], "i1.fire.H1.target": "H3", "i1.fire.H1.drm": 0,
             "i1.fire.H1.tm": 0, "i1.fire.H1.attack": [6], "i1.fire.H1.defence": [1],
             "i1.fire.H1.dc.rs": [1], "i1.fire.H1.result.rs": "shaken"}


def _fire_at_a_squad() -> dict[str, object]:
    return roster(unit("a", "G", "H1", ifp=4), unit("rs", "R", "H3", ifp=2),
                  adjacent=FIRE_MAP, max_impulses=1)


@pytest.mark.clause("L-5")
def test_L5_a_hero_rolled_during_a_fire_joins_the_mmcs_hex() -> None:
    result = run(_fire_at_a_squad(), {**HERO_FIRE, "i1.fire.H1.hero.rs": [4],
                                      "i1.fire.H1.hero.rs.ifp": 2})
    units = {u["id"]: u for u in result.state_updates["phase"]["roster"]["units"]}
    hero = units["hero-rs"]
    assert (hero["side"], hero["hex"], hero["kind"], hero["ifp"], hero["status"],
            hero["markers"]) == ("R", "H3", "smc", 2, "good-order", [])
    assert units["rs"]["status"] == "shaken"  # whatever the check's result
    step = next(s for s in result.steps if s.text.id == "lnlt.step.hero")
    assert step.data["hero"] == "hero-rs" and "H3" in render(step.text)


@pytest.mark.clause("L-5")
def test_L5_an_odd_hero_die_adds_no_hero_and_two_heroes_get_two_ids() -> None:
    result = run(_fire_at_a_squad(), {**HERO_FIRE, "i1.fire.H1.hero.rs": [3]})
    ids = [u["id"] for u in result.state_updates["phase"]["roster"]["units"]]
    assert ids == ["a", "rs"]
    decl = roster(unit("a", "G", "H1", ifp=4), unit("rs", "R", "H3", ifp=2),
                  unit("hero-rs", "R", "H7", "smc", ifp=1), adjacent=FIRE_MAP,
                  max_impulses=1)
    result = run(decl, {**HERO_FIRE, "i1.fire.H1.hero.rs": [6], "i1.fire.H1.hero.rs.ifp": 1})
    ids = [u["id"] for u in result.state_updates["phase"]["roster"]["units"]]
    assert ids == ["a", "rs", "hero-rs", "hero-rs-2"]


@pytest.mark.clause("L-1")
def test_L1_pass_is_not_the_default_of_the_activation_prompt() -> None:
    from referee import api
    from referee.core.questions import Question
    from referee.frontends.answers import AnswerPort

    seen: dict[str, Question] = {}

    class Keep(AnswerPort):
        def ask(self, question: Question) -> object:
            seen[question.id] = question
            return super().ask(question)

    decl = roster(unit("g", "G", "A1", ifp=2), unit("r", "R", "B1", ifp=2),
                  unit("m", "G", "A2", markers=["moved"]), max_impulses=2)
    plan = api.plan_attack("lnlt", seed=1, declaration=decl)
    api.play(plan, Keep({"i1.do": "pass", "i2.do": "pass"}, plan.dice))
    assert seen["i1.do"].default == "activate"  # a stray Enter activates, never passes
    used = roster(unit("g", "G", "A1", markers=["fired"]), unit("r", "R", "B1", ifp=2),
                  max_impulses=1)
    plan = api.plan_attack("lnlt", seed=1, declaration=used)
    api.play(plan, Keep({"i1.do": "pass"}, plan.dice))
    assert seen["i1.do"].default == "pass"  # nothing left to activate: pass is all there is
