"""Flames of War assault hit allocation: one test per clause F-1 to F-13 and per ambiguity
default F-X1 to F-X8, and the brief's worked examples 1 to 6. Each fails if its rule is
applied wrongly."""

from __future__ import annotations

import pytest

from referee.catalog import render
from referee.core.errors import ScriptError, UsageError
from referee.core.result import Result
from referee.core.table import Shown
from referee.rulesets.fow.flow import max_matching
from tests.support.fow import D, H, allocation, allocator, asked, check, decl, proposal, run

INF_INF_TRANSPORT = decl([D("a"), D("b"), D("t", "transport")], [H("x", 3, ["a", "b", "t"])])


def violation_text(v: object) -> str:
    assert v is not None
    return render(v.msg)  # type: ignore[attr-defined]


# --- worked examples (brief section 5) -------------------------------------------------------

@pytest.mark.clause("F-5")
def test_example_1_F5_transport_gets_the_third_hit_before_any_second_hit() -> None:
    assert proposal(INF_INF_TRANSPORT) == ["a", "b", "t"]
    v = check(INF_INF_TRANSPORT, ["a", "b", "a"])
    assert v is not None and v.clause == "F-3"
    assert check(INF_INF_TRANSPORT, ["b", "t", "a"]) is None  # any order of the same hits


@pytest.mark.clause("F-5")
def test_F5_transport_waits_for_tank_infantry_and_gun_teams() -> None:
    d = decl([D("a"), D("b"), D("t", "transport")], [H("x", 2, ["a", "b", "t"])])
    assert sorted(proposal(d)) == ["a", "b"]
    v = check(d, ["a", "t"])
    assert v is not None and v.clause == "F-5"
    assert "transport T" in violation_text(v)


@pytest.mark.clause("F-12")
def test_example_2_F12_tank_hits_go_to_infantry_not_vehicles() -> None:
    d = decl([D("k", "tank", top=1), D("a")], [H("tiger", 2, ["k", "a"], "tank")])
    assert proposal(d) == ["a", "a"]
    v = check(d, ["a", "k"])
    assert v is not None and v.clause == "F-12"


@pytest.mark.clause("F-12")
def test_example_2_F12_tank_hits_with_only_vehicles_in_reach_are_ignored() -> None:
    d = decl([D("k", "tank", top=1), D("t", "transport")], [H("tiger", 2, ["k", "t"], "tank")])
    result = run(d)
    assert allocation(result) == []
    assert result.outcome_data["ignored"] == 2
    ignored = next(t for t in result.tables if render(t.title) == "Ignored hits")
    assert ignored.rows[0][0] == Shown([1, 2], "1-2")  # the hit numbers, shown as a span
    assert "F-12" in render(ignored.rows[0][2][0])


@pytest.mark.clause("F-6")
def test_example_3_F6_lowest_top_armour_first() -> None:
    def tanks(hits: int) -> dict[str, object]:
        return decl([D("tiger", "tank", top=2), D("p4", "tank", top=1)],
                    [H("x", hits, ["tiger", "p4"])])

    assert proposal(tanks(1)) == ["p4"]
    assert sorted(proposal(tanks(2))) == ["p4", "tiger"]
    v = check(tanks(1), ["tiger"])
    assert v is not None and v.clause == "F-6"
    assert "Top 1" in violation_text(v)


@pytest.mark.clause("F-X3")
def test_example_3_FX3_third_hit_starts_again_from_the_lowest_top() -> None:
    d = decl([D("tiger", "tank", top=2), D("p4", "tank", top=1)], [H("x", 3, ["tiger", "p4"])])
    assert sorted(proposal(d)) == ["p4", "p4", "tiger"]
    v = check(d, ["p4", "tiger", "tiger"])
    assert v is not None and v.clause == "F-6"
    # the other reading: the order of Top armour decides the first hits only
    assert check(d, ["p4", "tiger", "tiger"], ["armour-order=first-round"]) is None
    v = check(d, ["tiger", "tiger", "tiger"], ["armour-order=first-round"])
    assert v is not None and v.clause == "F-3"


@pytest.mark.clause("F-10")
def test_example_4_F10_outside_at_a_doorway_only_teams_inside() -> None:
    d = decl([D("in1", building="farm"), D("in2", building="farm"), D("out")],
             [H("x", 2, [], situation="outside-at-opening", building="farm")])
    assert sorted(proposal(d)) == ["in1", "in2"]
    v = check(d, ["in1", "out"])
    assert v is not None and v.clause == "F-10"


@pytest.mark.clause("F-11")
def test_example_4_F11_tank_not_fully_armoured_hits_on_a_building_are_ignored() -> None:
    d = decl([D("in1", building="farm")], [H("pz", 2, ["in1"], "tank")])
    result = run(d)
    assert result.outcome_data["ignored"] == 2 and allocation(result) == []
    assert any(s.clause == "F-11" and "ignored" in render(s.text) for s in result.steps)


@pytest.mark.clause("F-11")
def test_F11_fully_armoured_tank_hits_teams_in_buildings_within_reach() -> None:
    d = decl([D("in1", building="farm"), D("in2", building="farm")],
             [H("kv", 2, ["in1"], "tank", fully_armoured=True)])
    assert proposal(d) == ["in1", "in1"]  # in2 is in the building but not within 2"/5cm
    v = check(d, ["in1", "in2"])
    assert v is not None and v.clause == "F-2"


@pytest.mark.clause("F-13")
def test_example_5_F13_team_on_a_cliff_is_not_eligible() -> None:
    d = decl([D("cliff"), D("a")], [H("x", 2, ["cliff", "a"], impassable=["cliff"])])
    assert proposal(d) == ["a", "a"]
    v = check(d, ["cliff", "a"])
    assert v is not None and v.clause == "F-13"
    alone = decl([D("cliff")], [H("x", 1, ["cliff"], impassable=["cliff"])])
    assert run(alone).outcome_data["ignored"] == 1


@pytest.mark.clause("F-7")
def test_example_6_F7_results_are_asked_only_after_every_hit_is_allocated() -> None:
    d = decl([D("a"), D("k", "tank", top=1)], [H("x", 3, ["a", "k"])])
    order = asked(d, {"allocation": "by-hit", "results": "unverified", "save.k": [3]})
    hits = [i for i, q in enumerate(order) if q.startswith("hit.")]
    results = [i for i, q in enumerate(order) if q in ("results", "save.k")]
    assert hits and results and max(hits) < min(results)
    assert order[-2:] == ["results", "save.k"]


# --- each clause ---------------------------------------------------------------------------

@pytest.mark.clause("F-1")
def test_F1_the_defender_chooses_hit_by_hit_among_legal_teams_only() -> None:
    d = decl([D("a"), D("b"), D("t", "transport")], [H("x", 4, ["a", "b", "t"])])
    # hits 1-3 have a free choice among a, b, t; the fourth goes anywhere
    r = run(d, {"allocation": "by-hit", "hit.1": "t", "hit.2": "b", "hit.3": "a",
                "hit.4": "t"})
    assert allocation(r) == ["t", "b", "a", "t"]
    with pytest.raises(ScriptError) as err:
        run(INF_INF_TRANSPORT, {"allocation": "by-hit", "hit.1": "a", "hit.2": "a"})
    assert "'a' is not one of: b, t" in render(err.value.msg)


@pytest.mark.clause("F-1")
def test_F1_a_complete_allocation_is_validated_with_the_clause_it_breaks() -> None:
    with pytest.raises(ScriptError) as err:
        run(INF_INF_TRANSPORT, {"allocation": "complete", "allocation.teams": ["a", "a", "b"]})
    text = render(err.value.msg)
    assert "breaks F-3" in text and "answers.allocation.teams" in text
    r = run(INF_INF_TRANSPORT, {"allocation": "complete", "allocation.teams": "t a b"})
    assert allocation(r) == ["t", "a", "b"]


@pytest.mark.clause("F-2")
def test_F2_each_hit_has_its_own_eligible_set() -> None:
    d = decl([D("a"), D("b")], [H("x", 1, ["a"]), H("y", 1, ["b"])])
    assert proposal(d) == ["a", "b"]
    v = check(d, ["b", "b"])
    assert v is not None and v.clause == "F-2"
    assert "hit 1 from X cannot go to B" in violation_text(v)


@pytest.mark.clause("F-3")
def test_F3_maximise_distinct_teams_then_spread_evenly() -> None:
    d = decl([D("a"), D("b"), D("c")], [H("x", 5, ["a", "b", "c"])])
    assert sorted(proposal(d).count(t) for t in "abc") == [1, 2, 2]
    v = check(d, ["a", "a", "a", "b", "c"])
    assert v is not None and v.clause == "F-3"


@pytest.mark.clause("F-X6")
def test_FX6_evenness_is_a_matching_not_a_greedy_guess() -> None:
    """Hit 1 may go to A or B, hit 2 only to A: taking hits in order and filling the emptiest
    team would put both on A; the matching puts hit 1 on B."""
    d = decl([D("a"), D("b")], [H("x", 1, ["a", "b"]), H("y", 1, ["a"])])
    assert proposal(d) == ["b", "a"]
    v = check(d, ["a", "a"])
    assert v is not None and v.clause == "F-3"
    assert "1: A → B" in violation_text(v)
    assert max_matching([("a", "b"), ("a",)]) == 2


@pytest.mark.clause("F-4")
def test_F4_bogged_down_and_bailed_out_after_every_other_team() -> None:
    d = decl([D("k", "tank", status="bogged-down", top=1), D("j", "tank", top=1)],
             [H("x", 1, ["k", "j"])])
    assert proposal(d) == ["j"]
    v = check(d, ["k"])
    assert v is not None and v.clause == "F-4"
    d2 = decl([D("k", "tank", status="bailed-out", top=1), D("j", "tank", top=1)],
              [H("x", 2, ["k", "j"])])
    assert sorted(proposal(d2)) == ["j", "k"]


@pytest.mark.clause("F-X2")
def test_FX2_bogged_vehicles_wait_for_infantry_too() -> None:
    """The body's reading: bogged or bailed teams wait for *all* other teams, infantry
    included (the summary would only make them wait for functioning vehicles)."""
    d = decl([D("k", "tank", status="bogged-down", top=1), D("a")], [H("x", 1, ["k", "a"])])
    assert proposal(d) == ["a"]
    v = check(d, ["k"])
    assert v is not None and v.clause == "F-4"
    # the summary's reading: the bogged tank waits for functioning vehicles only
    summary = ["bogged-bailed-wait=functioning-vehicles"]
    assert check(d, ["k"], summary) is None
    assert check(d, ["a"], summary) is None
    d2 = decl([D("k", "tank", status="bogged-down", top=1), D("j", "tank", top=2), D("a")],
              [H("x", 1, ["k", "j", "a"])])
    v = check(d2, ["k"], summary)
    assert v is not None and v.clause == "F-4"
    assert "functioning vehicle J" in violation_text(v)
    assert check(d2, ["j"], summary) is None  # Top armour ranks below the F-4 order


@pytest.mark.clause("F-X8")
def test_FX8_three_tiers_bogged_before_transports() -> None:
    d = decl([D("t", "transport"), D("k", "tank", status="bailed-out", top=1)],
             [H("x", 1, ["t", "k"])])
    assert proposal(d) == ["k"]
    v = check(d, ["t"])
    assert v is not None and v.clause == "F-5"
    assert proposal(d, ["tiers=bogged-last"]) == ["t"]
    v = check(d, ["k"], ["tiers=bogged-last"])
    assert v is not None and v.clause == "F-4"


@pytest.mark.clause("F-8")
def test_F8_priority_type_takes_the_hits_where_possible() -> None:
    d = decl([D("a"), D("k", "tank", top=1)], [H("x", 1, ["a", "k"], priority="tank")])
    assert proposal(d) == ["k"]
    v = check(d, ["a"])
    assert v is not None and v.clause == "F-8"
    no_priority = decl([D("a"), D("k", "tank", top=1)], [H("x", 1, ["a", "k"])])
    assert check(no_priority, ["a"]) is None


@pytest.mark.clause("F-X4")
def test_FX4_priority_stays_inside_the_even_spread() -> None:
    d = decl([D("a"), D("k", "tank", top=1)], [H("x", 2, ["a", "k"], priority="tank")])
    assert sorted(proposal(d)) == ["a", "k"]
    v = check(d, ["k", "k"])
    assert v is not None and v.clause == "F-3"
    assert proposal(d, ["priority-spread=priority-first"]) == ["k", "k"]
    # two priority teams aimed at different types: each round gives each its type
    d2 = decl([D("a"), D("k", "tank", top=1)],
              [H("x", 1, ["a", "k"], priority="tank"), H("y", 1, ["a", "k"],
                                                          priority="infantry")])
    assert proposal(d2) == ["k", "a"]
    assert check(d2, ["a", "k"]) is not None


@pytest.mark.clause("F-X1")
def test_FX1_transport_priority_only_under_the_summary_reading() -> None:
    d = decl([D("a"), D("t", "transport")], [H("x", 1, ["a", "t"], priority="transport")])
    with pytest.raises(UsageError) as err:
        run(d)
    assert "F-X1" in render(err.value.msg)
    r = run(d, options=["transport-priority=true"])
    assert allocation(r) == ["a"]  # F-5 still holds: the even spread comes first
    d2 = decl([D("a"), D("t", "transport")], [H("x", 2, ["a", "t"], priority="transport")])
    assert sorted(allocation(run(d2, options=["transport-priority=true"]))) == ["a", "t"]


@pytest.mark.clause("F-9")
def test_F9_any_platoon_within_reach() -> None:
    d = decl([D("a", platoon="1st"), D("b", platoon="2nd")], [H("x", 2, ["a", "b"])])
    assert sorted(proposal(d)) == ["a", "b"]
    assert check(d, ["b", "a"]) is None


@pytest.mark.clause("F-10")
def test_F10_inside_through_an_opening_and_inside_the_same_building() -> None:
    d = decl([D("near"), D("far"), D("in1", building="farm")],
             [H("x", 2, [], situation="inside-through-opening", near_opening=["near"])])
    assert proposal(d) == ["near", "near"]
    d2 = decl([D("in1", building="farm"), D("in2", building="barn"), D("out")],
              [H("x", 2, ["out"], situation="inside", building="farm")])
    assert proposal(d2) == ["in1", "in1"]
    v = check(d2, ["in1", "in2"])
    assert v is not None and v.clause == "F-10"
    # from the open, infantry fight teams in a building only through an opening
    d3 = decl([D("in1", building="farm"), D("out")], [H("x", 1, ["in1", "out"])])
    assert proposal(d3) == ["out"]


@pytest.mark.clause("F-12")
def test_F12_tank_escorts_never_hit_vehicles() -> None:
    d = decl([D("k", "tank", top=1), D("a")], [H("esc", 2, ["k", "a"], "tank-escort")])
    assert proposal(d) == ["a", "a"]


@pytest.mark.clause("F-X5")
def test_FX5_accompanying_infantry_read_as_tank_escorts() -> None:
    d = decl([D("in1", building="farm")], [H("esc", 1, ["in1"], "tank-escort",
                                             fully_armoured=True)])
    assert proposal(d) == ["in1"]  # escorts of a Fully-Armoured tank share its F-11 reach
    d2 = decl([D("k", "tank", top=1)], [H("esc", 1, ["k"], "tank-escort")])
    assert run(d2).outcome_data["ignored"] == 1
    assert allocation(run(d2, options=["tank-escorts=plain-infantry"])) == ["k"]


@pytest.mark.clause("F-X7")
def test_FX7_escorts_included_in_the_no_vehicles_rule() -> None:
    d = decl([D("k", "tank", top=1), D("a")], [H("esc", 2, ["k", "a"], "tank-escort")])
    v = check(d, ["a", "k"])
    assert v is not None and v.clause == "F-12"
    assert sorted(proposal(d, ["escorts-hit-vehicles=true"])) == ["a", "k"]
    tank = decl([D("k", "tank", top=1), D("a")], [H("pz", 2, ["k", "a"], "tank")])
    assert proposal(tank, ["escorts-hit-vehicles=true"]) == ["a", "a"]


# --- output ---------------------------------------------------------------------------------

def _why(r: Result) -> dict[int, tuple[str, str]]:
    table = next(t for t in r.tables if render(t.title) == "Allocation")
    return {row[0]: (render(row[2]), render(row[3])) for row in table.rows}


@pytest.mark.clause("F-1")
def test_allocation_table_names_the_rule_that_forced_each_hit() -> None:
    d = decl([D("a"), D("b"), D("t", "transport")], [H("x", 2, ["a", "b", "t"]),
                                                     H("y", 1, ["a", "b"], impassable=["b"])])
    rules = _why(run(d))
    assert rules[3] == ("A", "the only team it may go to (F-2, F-13)")
    # x's two hits go to B and the transport: either may take either hit (the other hit
    # moving with it), so neither is forced
    assert {rules[1], rules[2]} == {("B", "defender's choice (F-1)"),
                                    ("T", "defender's choice (F-1)")}
    # one hit on an infantry team or a transport: only the infantry team keeps it legal
    one = _why(run(decl([D("a"), D("t", "transport")], [H("x", 1, ["a", "t"])])))
    assert one[1] == ("A", "any other team breaks F-5")
    # Example 2's shape: two hits, A and B, a transport: B may not take hit 1 unless hit 2
    # goes to A, which is legal, so the column does not call either hit forced
    two = _why(run(decl([D("a"), D("b"), D("t", "transport")], [H("x", 2, ["a", "b", "t"])])))
    assert [why for _, why in two.values()] == ["defender's choice (F-1)"] * 2


@pytest.mark.clause("F-1")
def test_a_freely_chosen_hit_is_not_called_forced() -> None:
    """A hit is forced only when no other eligible team admits a legal allocation."""
    d = decl([D("a"), D("b"), D("c", "tank", top=1)],
             [H("x", 2, ["a", "b"]), H("y", 1, ["a", "b", "c"])])
    rules = _why(run(d))
    # the tank takes y's hit (the only way to hit three teams); x's two hits are A and B
    # in either order
    assert rules[3] == ("C", "any other team breaks F-3")
    assert rules[1][1] == rules[2][1] == "defender's choice (F-1)"


PRIORITY_PAIR = decl([D("a"), D("g", "gun")],
                     [H("x", 1, ["a", "g"], priority="infantry"), H("y", 1, ["a", "g"])])


@pytest.mark.clause("F-8")
def test_F8_names_the_priority_type_that_forces_a_hit_not_the_evenness_it_keeps() -> None:
    """X (priority Infantry) and Y each hit rifle team A or gun G. X's hit must go to A,
    and so Y's to G: X on G with Y on A would be just as even, but X's hit would be off its
    priority type. The rule that forces both hits is F-8; moving one hit alone would leave
    a team without a hit (F-3), but that is not why the hit is where it is."""
    rules = _why(run(PRIORITY_PAIR))
    assert rules[1] == ("A", "any other team breaks F-8")
    assert rules[2] == ("G", "any other team breaks F-8")
    # without the priority type, either hit may take either team
    free = _why(run(decl([D("a"), D("g", "gun")], [H("x", 1, ["a", "g"]),
                                                   H("y", 1, ["a", "g"])])))
    assert {why for _, why in free.values()} == {"defender's choice (F-1)"}


@pytest.mark.clause("F-X4")
def test_FX4_priority_first_forced_hits_name_evenness_where_it_decides() -> None:
    """Under the priority-first reading, putting Y's hit on A is best answered by X's hit
    joining it (priority kept, spread uneven): evenness (F-3) is the rule that forces Y's
    hit, the priority type (F-8) the one that forces X's."""
    rules = _why(run(PRIORITY_PAIR, options=["priority-spread=priority-first"]))
    assert rules[1] == ("A", "any other team breaks F-8")
    assert rules[2] == ("G", "any other team breaks F-3")


@pytest.mark.clause("F-5")
def test_F5_names_the_transport_the_other_hits_would_have_to_cover() -> None:
    """Y's hit may go to rifle team A or B, X's to B or the transport. Y's hit on B, with
    X's moved to the transport, keeps two teams hit, yet leaves A without a hit while the
    transport has one: transports last (F-5) forces Y's hit onto A, and X's onto B."""
    d = decl([D("a"), D("b"), D("t", "transport")], [H("x", 1, ["b", "t"]),
                                                     H("y", 1, ["a", "b"])])
    rules = _why(run(d))
    assert rules[1] == ("B", "any other team breaks F-5")
    assert rules[2] == ("A", "any other team breaks F-5")


@pytest.mark.clause("F-6")
def test_F6_names_the_armour_order_when_the_other_hits_could_keep_the_spread() -> None:
    """X's hit may go to tank K0 (Top 0) or rifle team A, Y's to tank K2 (Top 2) or A. With
    X's hit on A, Y's would go to K2 and the spread would be as even, but K2 would hold a
    hit K0 (lower Top armour) could take: lowest Top armour first (F-6) forces X's hit."""
    d = decl([D("k0", "tank", top=0), D("k2", "tank", top=2), D("a")],
             [H("x", 1, ["k0", "a"]), H("y", 1, ["k2", "a"])])
    rules = _why(run(d))
    assert rules[1] == ("K0", "any other team breaks F-6")
    assert rules[2] == ("A", "defender's choice (F-1)")


def test_non_default_option_is_reported() -> None:
    d = decl([D("a")], [H("x", 1, ["a"])])
    r = run(d, options=["tiers=bogged-last"])
    assert r.non_default_options == ("tiers",)


def test_results_unverified_reading_and_entered_results() -> None:
    d = decl([D("a"), D("k", "tank", top=1), D("t", "transport")],
             [H("x", 3, ["a", "k", "t"])])
    r = run(d, {"results": "unverified", "save.k": [2], "result.t": "bailed-out"})
    rows = {row[0]: row for row in next(t for t in r.tables
                                        if render(t.title) == "Results").rows}
    assert render(rows["A"][2].text) == "destroyed"
    assert rows["A"][2].value == {"outcomes": ["destroyed"], "firepower": None}
    assert "UNVERIFIED" in render(rows["A"][3])
    assert render(rows["K"][2].text[0]).startswith("bounced")  # 2 + Top 1 = 3 > anti-tank 2
    assert rows["K"][2].value == {"outcomes": ["bounced"], "firepower": 1}
    assert render(rows["T"][2].text) == "bailed out"
    r2 = run(d, {"results": "unverified", "save.k": [1], "result.t": "destroyed"})
    rows2 = {row[0]: row for row in r2.tables[-1].rows}
    assert render(rows2["K"][2].text[0]).startswith("glancing")  # 1 + 1 = anti-tank 2
    assert rows2["K"][2].value["outcomes"] == ["glancing"]
    r3 = run(d, {"results": "enter", "result.a": "no-effect", "result.k": "destroyed",
                 "result.t": "destroyed"})
    a_row = {row[0]: row for row in r3.tables[-1].rows}["A"]
    assert render(a_row[2].text) == "no effect"
    assert a_row[2].value == {"outcomes": ["no-effect"], "firepower": None}


def test_declaration_errors_name_the_field() -> None:
    from referee import api

    bad = decl([D("a")], [H("x", 1, ["zz"])])
    with pytest.raises(ScriptError) as err:
        api.plan_attack("fow", declaration=bad)
    assert "'zz', which is not a defending team" in render(err.value.msg)
    with pytest.raises(ScriptError) as err:
        api.plan_attack("fow", declaration=decl([D("a", top=2)], [H("x", 1, ["a"])]))
    assert "declaration.defending[0]" in render(err.value.msg)


def test_lookup_allocation_rules() -> None:
    from referee import api
    from referee.render.json_out import table_json

    rows = table_json(api.lookup("fow", "allocation-rules"))["rows"]
    assert [r["clause"] for r in rows][:6] == ["F-2", "F-9", "F-10", "F-11", "F-12", "F-13"]
    assert [r["order"] for r in rows] == list(range(1, len(rows) + 1))
    one = table_json(api.lookup("fow", "allocation-rules", "f-6"))["rows"]
    assert len(one) == 1 and one[0]["clause"] == "F-6"
    with pytest.raises(UsageError):
        api.lookup("fow", "allocation-rules", "F-99")


def test_allocator_proposal_is_legal_for_the_mixed_example() -> None:
    a = allocator(decl([D("a"), D("k", "tank", top=1)], [H("x", 1, ["a", "k"])]))
    assert a.check(a.proposal) is None


def test_results_data_and_a_recorded_attack_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The outcome data carries each team's results; ``--record`` keeps a hit-by-hit
    allocation and a complete one as answers that replay to the same allocation."""
    import tomllib

    from referee import api
    from referee.frontends.answers import AnswerPort

    d = decl([D("a"), D("k", "tank", top=1)], [H("x", 3, ["a", "k"])])
    r = run(d, {"allocation": "by-hit", "hit.1": "k", "hit.2": "a", "hit.3": "k",
                "results": "unverified", "save.k": [1, 6]})
    assert r.outcome_data["effects"] == {"a": ["destroyed"], "k": ["glancing", "bounced"]}
    for answers in ({"allocation": "by-hit", "hit.1": "k", "hit.2": "a", "hit.3": "k"},
                    {"allocation": "complete", "allocation.teams": "k a k"}):
        plan = api.plan_attack("fow", seed=4, declaration=d)
        record = tmp_path / "rec.toml"
        port = AnswerPort({**answers, "results": "skip"}, plan.dice)
        first = api.play(plan, port, record=record)
        replay_plan, replay_port = api.plan_script(record)
        again = api.play(replay_plan, replay_port)
        assert allocation(first) == allocation(again) == ["k", "a", "k"]
        assert "ruleset" in tomllib.loads(record.read_text(encoding="utf-8"))
