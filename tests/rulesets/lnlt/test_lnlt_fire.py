"""Lock 'n Load Tactical fire: Ops Complete (L-11 to L-14, L-X3, L-X5 to L-X7), the
firepower of several units (5.2), Shaken units under Op Fire (L-12), the opposed roll, the
damage checks and Heroes (brief section 3), and the worked examples 2, 3, 4 and 7. Each test
fails if its rule is applied wrongly."""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalog import render
from referee.core.errors import ScriptError
from referee.core.options import OptionValueError, resolve_options
from referee.rulesets import find_ruleset
from referee.rulesets.lnlt.firepower import Component, FireKind, build_fp
from referee.rulesets.lnlt.roster import DamageTable, SupportWeapon, Unit
from tests.support.lnlt import (
    MOVE,
    MOVE_MAP,
    leader,
    refusal,
    roster,
    run,
    step_texts,
    unit,
    units_after,
)

OPTIONS = resolve_options(find_ruleset("lnlt").option_specs(), {})


def opts(**changes: str) -> Any:
    return resolve_options(find_ruleset("lnlt").option_specs(),
                           {k.replace("_", "-"): v for k, v in changes.items()})


def mk(uid: str, kind: str = "mmc", ifp: int = 0, markers: tuple[str, ...] = (),
       sws: tuple[SupportWeapon, ...] = ()) -> Unit:
    return Unit(id=uid, side="G", hex="H1", kind=kind, ifp=ifp,  # type: ignore[arg-type]
                markers=list(markers), sws=list(sws))  # type: ignore[arg-type]


OC = ("ops-complete",)


# --- L-12 and L-X5: Op Fire under Ops Complete, worked example 2 -------------------------------

@pytest.mark.clause("L-12")
def test_L12_example_2_squad_and_half_squad_op_fire_at_a_moved_unit() -> None:
    squad = build_fp([Component(mk("s", ifp=2, markers=OC))], "s", kind=FireKind.OP_FIRE,
                     target_moved=True, options=OPTIONS)
    assert squad.total == 2  # 2 - 1 = 1, +1 at a Moved unit
    half = build_fp([Component(mk("h", ifp=0, markers=OC))], "h", kind=FireKind.OP_FIRE,
                    target_moved=True, options=OPTIONS)
    assert half.rows[0].value == -1  # may go below zero before the +1
    assert half.total == 0


@pytest.mark.clause("L-12")
def test_L12_minus_one_applies_to_each_firing_unit_before_the_halving() -> None:
    units = [Component(mk("a", ifp=3, markers=OC)), Component(mk("b", ifp=3, markers=OC))]
    build = build_fp(units, "a", kind=FireKind.OP_FIRE, target_moved=False, options=OPTIONS)
    assert [r.value for r in build.rows] == [2, 1]  # 3-1 = 2; (3-1)/2 = 1
    free = build_fp([Component(mk("a", ifp=3)), Component(mk("b", ifp=3))], "a",
                    kind=FireKind.OP_FIRE, target_moved=False, options=OPTIONS)
    assert [r.value for r in free.rows] == [3, 2]  # no marker: no -1


@pytest.mark.clause("L-12")
def test_L12_op_fire_in_a_phase_when_an_enemy_moves() -> None:
    decl = roster(unit("g1", "G", "A1"), unit("r1", "R", "B1", ifp=2, markers=["ops-complete"]),
                  unit("r2", "R", "B2", ifp=0, markers=["ops-complete"]),
                  adjacent={"A1": ["A2"]})
    answers = {"i1.do": "activate", "i1.hex": "A1", "i1.act.1": "move:A1",
               "i1.move.A1.units": ["g1"], "i1.move.A1.type": "moved", "i1.move.A1.to": "A2",
               "i1.opfire.1.1": "B1", "i1.opfire.1.1.with": ["r1"], "i1.opfire.1.1.drm": 0,
               "i1.opfire.1.1.tm": 0, "i1.opfire.1.1.attack": [1], "i1.opfire.1.1.defence": [6],
               "i1.opfire.1.2": "B2", "i1.opfire.1.2.with": ["r2"], "i1.opfire.1.2.drm": 0,
               "i1.opfire.1.2.tm": 0, "i1.opfire.1.2.attack": [1],
               "i1.opfire.1.2.defence": [6]}
    result = run(decl, answers)
    fps = [s.data["fp"] for s in result.steps if "fp" in s.data]
    assert fps == [2, 0]
    after = units_after(result)
    assert after["r1"]["markers"] == ["ops-complete", "fired"]
    assert result.state_updates["phase"]["ended"]  # every unit has now acted (L-2)


@pytest.mark.clause("L-X5")
def test_LX5_minus_one_by_default_half_as_the_option() -> None:
    comp = [Component(mk("a", ifp=4, markers=OC))]
    assert build_fp(comp, "a", kind=FireKind.OP_FIRE, target_moved=False,
                    options=OPTIONS).total == 3
    assert build_fp(comp, "a", kind=FireKind.OP_FIRE, target_moved=False,
                    options=opts(ops_complete_op_fire="half")).total == 2



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


# --- L-13 and L-X7: support weapons and vehicles, worked example 3 -----------------------------

MG3 = SupportWeapon(id="mg", kind="mg", fp=3)
BAZOOKA = SupportWeapon(id="bz", kind="oft")
FLAME = SupportWeapon(id="ft", kind="flamethrower", fp=4)


@pytest.mark.clause("L-13")
def test_L13_example_3_MG_halved_bazooka_plus_two_vehicle_MG_halved() -> None:
    squad = mk("s", ifp=2, markers=OC, sws=(MG3, BAZOOKA))
    build = build_fp([Component(squad, MG3), Component(squad, BAZOOKA)], None,
                     kind=FireKind.OP_FIRE, target_moved=False, options=OPTIONS)
    assert [r.value for r in build.rows] == [2]  # MG FP 3 -> 2
    assert [(o.component.sw.id, o.drm) for o in build.oft if o.component.sw] == [("bz", 2)]
    tank_mg = SupportWeapon(id="mg", kind="mg", fp=5)
    gun = SupportWeapon(id="gun", kind="oft")
    tank = mk("t", kind="vehicle", markers=OC, sws=(tank_mg, gun))
    vb = build_fp([Component(tank, tank_mg), Component(tank, gun)], None,
                  kind=FireKind.OP_FIRE, target_moved=False, options=OPTIONS)
    assert vb.total == 3 and vb.oft[0].drm == 2
    free = build_fp([Component(mk("f", sws=(MG3, BAZOOKA)), MG3),
                     Component(mk("f", sws=(MG3, BAZOOKA)), BAZOOKA)], None,
                    kind=FireKind.NORMAL, target_moved=False, options=OPTIONS)
    assert free.total == 3 and free.oft[0].drm == 0


@pytest.mark.clause("L-X7")
def test_LX7_flamethrower_halved_as_stated_mg_only_as_the_option() -> None:
    squad = mk("s", markers=OC, sws=(FLAME,))
    comp = [Component(squad, FLAME)]
    assert build_fp(comp, None, kind=FireKind.OP_FIRE, target_moved=False,
                    options=OPTIONS).total == 2
    assert build_fp(comp, None, kind=FireKind.OP_FIRE, target_moved=False,
                    options=opts(ops_complete_sw_halving="mg-only")).total == 4
    # a vehicle's flamethrower is never halved: vehicles halve MGs only
    tank = mk("t", kind="vehicle", markers=OC, sws=(FLAME,))
    assert build_fp([Component(tank, FLAME)], None, kind=FireKind.OP_FIRE,
                    target_moved=False, options=OPTIONS).total == 4


@pytest.mark.clause("L-X3")
def test_LX3_IFF_is_read_as_IFP_the_only_reading() -> None:
    spec = next(s for s in find_ruleset("lnlt").option_specs() if s.clause == "L-X3")
    assert spec.default == "ifp" and spec.choices == ("ifp",)
    with pytest.raises(OptionValueError):
        resolve_options([spec], {"iff-reads": "iff"})
    # the seed's example fires the squad's IFP (2), not a separate "IFF" value
    assert build_fp([Component(mk("s", ifp=2, markers=OC))], "s", kind=FireKind.OP_FIRE,
                    target_moved=True, options=OPTIONS).rows[0].base == 2



# Ops Complete on a vehicle: its MGs are halved (L-13), not the MMC -1 (L-12)
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


# --- L-11 and L-14: spotting, worked example 4 ------------------------------------------------

SPOT = roster(leader("lt", "G", "H1", lm=2), unit("s", "G", "H1", ifp=3),
              unit("j", "G", "H1", ifp=2), unit("x", "R", "H3"), unit("y", "R", "H4"),
              adjacent={"H1": ["H2", "H3", "H4"]})


def spot_then_fire(spotter: str, target: str, firers: list[str], **more: Any) -> dict[str, Any]:
    return {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "spot:H1",
            "i1.spot.1.unit": spotter, "i1.spot.1.hex": "H3", "i1.spot.1.found": True,
            "i1.act.2": "fire:H1", "i1.fire.H1.with": firers,
            "i1.fire.H1.target": target, "i1.fire.H1.drm": 0, "i1.fire.H1.tm": 0,
            "i1.fire.H1.attack": [1], "i1.fire.H1.defence": [6], **more}


@pytest.mark.clause("L-14")
def test_L14_example_4_ops_complete_spotter_fires_full_IFP_at_the_spotted_hex() -> None:
    result = run(SPOT, spot_then_fire("s", "H3", ["s"], **{"i1.act.3": "done"}) | {
        "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"})
    assert [s.data["fp"] for s in result.steps if "fp" in s.data] == [3]
    assert units_after(result)["s"]["markers"] == ["ops-complete", "fired"]


@pytest.mark.clause("L-14")
def test_L14_example_4_the_spotter_may_not_fire_at_another_hex() -> None:
    with pytest.raises(ScriptError) as err:
        run(SPOT, spot_then_fire("s", "H4", ["s"]))
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == "L-14" and "H3" in render(msg)


@pytest.mark.clause("L-14")
def test_L14_units_of_the_spotters_hex_join_at_full_FP_and_the_leader_adds_his_LM() -> None:
    result = run(SPOT, spot_then_fire("lt", "H3", ["lt", "s", "j"],
                                      **{"i1.fire.H1.lead": "s", "i1.fire.H1.tm": 5}) | {
        "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"})
    assert [s.data["fp"] for s in result.steps if "fp" in s.data] == [3 + 1]
    assert any(t.startswith("[L-14]") and "LM +2" in t for t in step_texts(result))
    opposed = next(s for s in result.steps if "attack" in s.data)
    assert opposed.data["attack"] == 1 + 4 + 2


@pytest.mark.clause("L-X6")
def test_LX6_leader_LM_helps_the_stack_by_default_only_his_own_fire_as_option() -> None:
    answers = spot_then_fire("lt", "H3", ["lt", "s"], **{"i1.fire.H1.tm": 5}) | {
        "i1.act.3": "done", "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    default = next(s for s in run(SPOT, answers).steps if "attack" in s.data)
    house = next(s for s in run(SPOT, answers, ("ops-complete-leader-lm=own-fire-only",))
                 .steps if "attack" in s.data)
    assert default.data["attack"] - house.data["attack"] == 2


@pytest.mark.clause("L-11")
def test_L11_ops_complete_units_do_not_act_and_their_leader_lends_no_LM() -> None:
    decl = roster(leader("lt", "G", "H1", markers=["ops-complete"]),
                  unit("s", "G", "H1", ifp=2, markers=["ops-complete"]),
                  unit("r", "R", "H2"), unit("r2", "R", "H1x"),
                  adjacent={"H2": ["H3"]})
    # G has nothing that may act: only a pass
    with pytest.raises(ScriptError) as err:
        run(decl, {"i1.do": "activate"})
    assert refusal(err.value).kwargs["clause"] == "L-2"
    # Op Fire: the squad at IFP -1, the Ops Complete leader adds no LM
    answers = {"i1.do": "pass", "i2.do": "activate", "i2.hex": "H2", "i2.act.1": "move:H2",
               "i2.move.H2.units": ["r"], "i2.move.H2.type": "moved", "i2.move.H2.to": "H3",
               "i2.opfire.1.1": "H1", "i2.opfire.1.1.with": ["lt", "s"],
               "i2.opfire.1.1.drm": 0, "i2.opfire.1.1.tm": 0, "i2.opfire.1.1.attack": [1],
               "i2.opfire.1.1.defence": [6], "i3.do": "pass", "i4.do": "pass",
               "i5.do": "pass"}
    result = run(decl, answers)
    opposed = next(s for s in result.steps if "attack" in s.data)
    assert opposed.data["attack"] == 1 + (2 - 1 + 1)
    assert any(t.startswith("[L-11]") and "no LM" in t for t in step_texts(result))


# --- brief section 3: several firers, the opposed roll, damage checks; example 7 ---------------

EX7 = roster(leader("lt", "G", "H1"),
             unit("a", "G", "H1", ifp=4, sws=[{"id": "mg", "kind": "mg", "fp": 2}]),
             leader("rl", "R", "H3"), unit("rs", "R", "H3", ifp=2),
             adjacent={"H1": ["H3"]})


@pytest.mark.clause("L-5")
def test_example_7_opposed_roll_and_damage_checks_leaders_first() -> None:
    answers = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
               "i1.fire.H1.with": ["lt", "a", "a.mg"], "i1.fire.H1.target": "H3",
               "i1.fire.H1.drm": 0, "i1.fire.H1.tm": 2, "i1.fire.H1.attack": [4],
               "i1.fire.H1.defence": [3], "i1.fire.H1.dc.rl": [2], "i1.fire.H1.dc.rs": [5],
               "i1.fire.H1.result.rl": "no-effect", "i1.fire.H1.result.rs": "shaken",
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    result = run(EX7, answers)
    opposed = next(s for s in result.steps if "attack" in s.data)
    assert (opposed.data["attack"], opposed.data["defence"]) == (11, 5)
    checks = [(s.data["unit"], s.data["total"]) for s in result.steps if "total" in s.data]
    assert checks == [("rl", 2 + 6), ("rs", 5 + 6 - 1)]  # the leader first; his LM helps rs
    assert units_after(result)["rs"]["status"] == "shaken"


@pytest.mark.clause("L-5")
def test_example_7_a_leader_no_longer_in_good_order_does_not_help() -> None:
    answers = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
               "i1.fire.H1.with": ["lt", "a", "a.mg"], "i1.fire.H1.target": "H3",
               "i1.fire.H1.drm": 0, "i1.fire.H1.tm": 2, "i1.fire.H1.attack": [4],
               "i1.fire.H1.defence": [3], "i1.fire.H1.dc.rl": [6], "i1.fire.H1.dc.rs": [5],
               "i1.fire.H1.result.rl": "wounded", "i1.fire.H1.result.rs": "shaken",
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    checks = [(s.data["unit"], s.data["total"]) for s in run(EX7, answers).steps
              if "total" in s.data]
    assert checks == [("rl", 12), ("rs", 11)]


@pytest.mark.clause("L-5")
def test_example_7_attack_5_against_defence_5_has_no_effect() -> None:
    decl = roster(unit("a", "G", "H1", ifp=2), unit("rs", "R", "H3"))
    answers = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
               "i1.fire.H1.with": ["a"], "i1.fire.H1.target": "H3", "i1.fire.H1.drm": 0,
               "i1.fire.H1.tm": 2, "i1.fire.H1.attack": [3], "i1.fire.H1.defence": [3],
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    result = run(decl, answers)  # no damage-check question: the script would fail
    opposed = next(s for s in result.steps if "attack" in s.data)
    assert (opposed.data["attack"], opposed.data["defence"]) == (5, 5)
    assert units_after(result)["rs"]["status"] == "good-order"


@pytest.mark.clause("L-5")
def test_several_firers_lead_at_full_others_half_up_DFT_weapons_full() -> None:
    mg = SupportWeapon(id="mg", kind="mg", fp=2)
    b = mk("b", ifp=3, sws=(mg,))
    build = build_fp([Component(mk("a", ifp=2)), Component(b), Component(b, mg),
                      Component(mk("h", ifp=0))], "b", kind=FireKind.NORMAL,
                     target_moved=False, options=OPTIONS)
    assert [r.value for r in build.rows] == [1, 3, 2, 0] and build.total == 6


def test_damage_table_file_bands_on_the_total_or_over_morale() -> None:
    table = DamageTable.model_validate({
        "source": "our chart", "compare": "over-morale",
        "leg": [{"at_least": 1, "result": "shaken"}, {"at_least": 4, "result": "eliminated"}]})
    sq = Unit(id="s", side="G", hex="H1", kind="mmc", morale=6)
    assert [table.read(sq, t) for t in (6, 7, 10)] == ["no-effect", "shaken", "eliminated"]
    assert table.read(Unit(id="n", side="G", hex="H1", kind="mmc"), 9) is None  # no morale
    decl = {**EX7, "damage_table": {"source": "our chart", "leg": [
        {"at_least": 9, "result": "shaken"}, {"at_least": 12, "result": "eliminated"}]}}
    answers = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
               "i1.fire.H1.with": ["lt", "a", "a.mg"], "i1.fire.H1.target": "H3",
               "i1.fire.H1.drm": 0, "i1.fire.H1.tm": 2, "i1.fire.H1.attack": [4],
               "i1.fire.H1.defence": [3], "i1.fire.H1.dc.rl": [6], "i1.fire.H1.dc.rs": [1],
               "i1.fire.H1.hero.rs": [4], "i1.fire.H1.hero.rs.ifp": 1,
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    result = run(decl, answers)  # no result question: the table answers
    after = units_after(result)
    # rl: 6 + 6 = 12, eliminated (and so no help); rs: 1 + 6 = 7, below 9: no effect
    assert (after["rl"]["status"], after["rs"]["status"]) == ("eliminated", "good-order")
    assert any("Hero appears" in t for t in step_texts(result))


def test_a_damage_table_with_an_unknown_result_is_refused_by_field() -> None:
    decl = {**EX7, "damage_table": {"source": "x", "leg": [{"at_least": 1,
                                                            "result": "routed"}]}}
    with pytest.raises(ScriptError) as err:
        run(decl, {})
    assert "routed" in render(err.value.msg)


# --- Heroes (brief section 3): a Hero rolled during a fire joins the hex ----------------------

HERO_MAP = {"H1": ["H3"]}
HERO_FIRE = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
             "i1.fire.H1.with": ["a"], "i1.fire.H1.target": "H3", "i1.fire.H1.drm": 0,
             "i1.fire.H1.tm": 0, "i1.fire.H1.attack": [6], "i1.fire.H1.defence": [1],
             "i1.fire.H1.dc.rs": [1], "i1.fire.H1.result.rs": "shaken"}


def _fire_at_a_squad() -> dict[str, object]:
    return roster(unit("a", "G", "H1", ifp=4), unit("rs", "R", "H3", ifp=2),
                  adjacent=HERO_MAP, max_impulses=1)


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
                  unit("hero-rs", "R", "H7", "smc", ifp=1), adjacent=HERO_MAP,
                  max_impulses=1)
    result = run(decl, {**HERO_FIRE, "i1.fire.H1.hero.rs": [6], "i1.fire.H1.hero.rs.ifp": 1})
    ids = [u["id"] for u in result.state_updates["phase"]["roster"]["units"]]
    assert ids == ["a", "rs", "hero-rs", "hero-rs-2"]
