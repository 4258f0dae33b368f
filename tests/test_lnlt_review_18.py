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
