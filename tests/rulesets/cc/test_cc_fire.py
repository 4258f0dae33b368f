"""Combat Commander fire (O20): clauses C-1 to C-14, ambiguities C-X1 to C-X8, and the brief's
worked examples 1 to 12. Each test fails if its rule is applied wrongly."""

from __future__ import annotations

import copy
import itertools
import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.dice import DiceSource, KeyedDice
from referee.core.errors import AnswerError, ScriptError, UsageError
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc.deck import FateCardQuestion, edition, parse_card
from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"


def script(name: str) -> dict[str, Any]:
    return tomllib.loads((SCRIPTS / f"cc-{name}.toml").read_text(encoding="utf-8"))


def fire(decl: dict[str, Any], answers: dict[str, Any], options: list[str] | None = None,
         seed: int = 1) -> Any:
    return api.attack("cc", answers, seed=seed, declaration=decl, options=options or [])


def example(name: str, **answers: Any) -> Any:
    raw = script(name)
    opts = [f"{k}={v}" for k, v in raw.get("options", {}).items()]
    return fire(raw["declaration"], {**raw.get("answers", {}), **answers}, opts)


def squad(name: str = "Squad", **kw: Any) -> dict[str, Any]:
    return {"name": name, "hex": "A1", "fp": 5, "range": 5, "distance": 2, **kw}


def target(**kw: Any) -> dict[str, Any]:
    return {"name": "Target", "morale": 6, "broken_morale": 8, **kw}


def decl(firing: list[dict[str, Any]], units: list[dict[str, Any]] | None = None,
         **kw: Any) -> dict[str, Any]:
    return {"attacker": "germany", "defender": "america", "target_hex": "X1",
            "firing": firing, "target": units or [target()], **kw}


def reason(error: pytest.ExceptionInfo[Any]) -> str:
    return render(error.value.msg)


def steps(result: Any, clause: str) -> list[str]:
    return [render(s.text) for s in result.steps if s.clause == clause]


# --- C-1: ordnance targeting --------------------------------------------------------

MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "A1", "fp": 6,
          "range": 12}


@pytest.mark.clause("C-1")
def test_C1_example_1_range_5_hits_with_1_6_range_6_misses() -> None:
    hit = fire(decl([{**MORTAR, "distance": 5}]), {"targeting": [1, 6], "fire": [2, 3],
                                                   "defence.target": [1, 2]})
    miss = fire(decl([{**MORTAR, "distance": 6}]), {"targeting": [1, 6]})
    assert hit.outcome_data["hit"] is True and hit.outcome_data["attack_total"] == 11
    assert miss.outcome_data["hit"] is False and "attack_total" not in miss.outcome_data


@pytest.mark.clause("C-1")
def test_C1_example_2_six_six_always_hits_one_one_always_misses() -> None:
    assert all(ar.targeting_hits(36, 0, r) for r in range(0, 36))
    assert not any(ar.targeting_hits(1, 0, r) for r in range(1, 40))


@pytest.mark.clause("C-1")
def test_C1_example_3_brush_hindrance_3_at_range_5_needs_product_9() -> None:
    assert not ar.targeting_hits(2 * 4, 3, 5)
    assert ar.targeting_hits(3 * 3, 3, 5)
    assert ar.targeting_chance(5, 3) == (20, 9)


@pytest.mark.clause("C-1")
def test_C1_targeting_oracle_of_the_brief() -> None:
    oracle = {1: 35, 2: 33, 3: 31, 4: 28, 5: 26, 6: 22, 7: 22, 8: 20, 9: 19, 10: 17, 11: 17,
              12: 13, 15: 11, 16: 10, 18: 8, 20: 6, 23: 6, 24: 4, 25: 3, 29: 3, 30: 1, 35: 1,
              36: 0}
    for r, count in oracle.items():
        assert ar.targeting_chance(r)[0] == count, r


@pytest.mark.clause("C-1")
@pytest.mark.clause("C-X2")
def test_C1_CX2_example_H_smoke_miss_and_hits_with_hindrance_1_or_2_or_none() -> None:
    """C-X2: "had its value been 1 or 2" means the smoke's hindrance, not the dice."""
    result = example("example-h")
    assert result.outcome_data["hit"] is False
    assert "fire" not in [s.data.get("question") for s in result.steps]
    for h in (0, 1, 2):
        assert ar.targeting_hits(6, h, 3)
    assert not ar.targeting_hits(6, 3, 3)


@pytest.mark.clause("C-1")
def test_C1_ordnance_miss_script_ends_the_attack_without_a_fire_roll() -> None:
    result = example("ordnance-miss")
    assert result.outcome_data == {"allowed": True, "hit": False, "fp": 6,
                                   "edition": "cc_20th"}


# --- C-2, C-6, C-7, C-14: who may fire -----------------------------------------------

@pytest.mark.clause("C-2")
def test_C2_a_target_hex_needs_an_enemy_unit() -> None:
    with pytest.raises(ScriptError):
        api.plan_attack("cc", declaration=decl([squad()], units=[]) | {"target": []})


@pytest.mark.clause("C-6")
def test_C6_example_7_chain_of_adjacent_hexes() -> None:
    pieces = [squad("a", hex="A"), squad("b", hex="B"), squad("c", hex="C")]
    legal = fire(decl(pieces, adjacent=[["A", "B"], ["B", "C"]]),
                 {"base": "a", "fire": [1, 2],
                  "defence.target": [1, 2]})
    assert legal.outcome_data["allowed"] is True
    illegal = fire(decl(pieces, adjacent=[["A", "B"]]), {})
    assert illegal.outcome_data["allowed"] is False
    assert "chain of adjacent hexes" in render(illegal.outcome)


@pytest.mark.clause("C-6")
def test_C6_every_member_needs_range_and_los() -> None:
    out = fire(decl([squad("a", distance=6)]), {})
    assert "cannot reach X1: 6 hexes, Range with Command 5" in render(out.outcome)
    blind = fire(decl([squad("a", los=False)]), {})
    assert "no line of sight" in render(blind.outcome)


@pytest.mark.clause("C-7")
def test_C7_white_band_weapon_always_fires_alone() -> None:
    out = fire(decl([squad("a"), {**MORTAR, "distance": 2}]), {})
    assert out.outcome_data["allowed"] is False
    assert "white-band weapon" in render(out.outcome)


@pytest.mark.clause("C-14")
def test_C14_example_A_a_leader_cannot_activate_another_leader() -> None:
    out = example("example-a-b")
    assert out.outcome_data["allowed"] is False
    assert "cannot activate Lt. Adler (invented)" in render(out.outcome)


@pytest.mark.clause("C-14")
def test_C14_example_B_weapon_with_broken_carrier_cannot_fire_command_extends_range() -> None:
    lmg = {"name": "LMG K8", "kind": "weapon", "hex": "K8", "fp": 1, "range": 6,
           "distance": 3, "carrier_broken": True}
    out = fire(decl([lmg]), {})
    assert "the unit carrying it is broken" in render(out.outcome)
    grau = {"name": "Grau", "kind": "leader", "hex": "K8", "command": 1, "fires": False}
    reach = fire(decl([squad("K8 squad", hex="K8", range=2, distance=3), grau]),
                 {"fire": [1, 2], "defence.target": [1, 2]})
    assert reach.outcome_data["allowed"] is True
    short = fire(decl([squad("K8 squad", hex="K8", range=2, distance=3)]), {})
    assert short.outcome_data["allowed"] is False



# A leader's Command does not modify ordnance (C-14 with C-1; option ordnance-command): a
# finding of the rules review (issue 18).
LEADER = {"name": "Sgt. Grey", "kind": "leader", "hex": "A1", "command": 1, "fires": False}
HMG = {"name": "HMG", "kind": "weapon", "hex": "A1", "fp": 8, "range": 16}
HIT = {"targeting": [5, 6], "fire": [2, 3], "defence.target": [1, 2]}


@pytest.mark.clause("C-14")
def test_C14_a_leader_in_the_hex_adds_no_command_to_a_mortars_fp() -> None:
    r = fire(decl([{**MORTAR, "distance": 4}, LEADER]), HIT)
    assert r.outcome_data["fp"] == 6 and r.outcome_data["attack_total"] == 6 + 5
    note = next(s for s in r.steps if s.text.id == "cc.step.ordnance_no_command")
    assert note.clause == "C-14" and "Sgt. Grey" in render(note.text)
    assert r.non_default_options == ()


@pytest.mark.clause("C-14")
def test_C14_nor_to_a_mortars_range() -> None:
    r = fire(decl([{**MORTAR, "distance": 13}, LEADER]), {})
    assert r.outcome_data["allowed"] is False
    assert "12" in render(r.outcome)  # its printed range, not 13
    assert fire(decl([{**MORTAR, "distance": 12}, LEADER]), HIT).outcome_data["allowed"] is True


@pytest.mark.clause("C-14")
def test_C14_other_weapons_still_take_the_leaders_command() -> None:
    r = fire(decl([{**HMG, "distance": 17}, LEADER]), {"fire": [2, 3], "defence.target": [1, 2]})
    assert r.outcome_data["fp"] == 9  # example E: 8 + 1 for the leader; range 16 + 1


@pytest.mark.clause("C-14")
def test_C14_command_on_ordnance_as_a_house_rule() -> None:
    opt = ["ordnance-command=fp-and-range"]
    r = fire(decl([{**MORTAR, "distance": 13}, LEADER]), HIT, opt)
    assert r.outcome_data["fp"] == 7 and r.outcome_data["allowed"] is True
    assert r.non_default_options == ("ordnance-command",)


# --- C-3, C-8, C-9, C-X1: firepower ----------------------------------------------------

@pytest.mark.clause("C-8")
@pytest.mark.clause("C-X1")
@pytest.mark.clause("C-3")
def test_C8_CX1_C3_example_C_group_fp_11_attack_total_16() -> None:
    """C-X1: the base squad's FP 5 "under Command" is 5 + 1 = 6, then +4 and +1: 11."""
    out = example("example-c-d")
    assert out.outcome_data["fp"] == 11
    assert out.outcome_data["attack_total"] == 16
    fp_table = out.tables[0]
    assert [row[3] for row in fp_table.rows] == [5, 6, 10, 11, 11]


@pytest.mark.clause("C-X1")
def test_CX1_option_declared_fp_includes_command() -> None:
    raw = script("example-c-d")
    out = fire(raw["declaration"], raw["answers"],
               ["declared-fp-includes-command=true"])
    assert out.outcome_data["fp"] == 10
    assert out.non_default_options == ("declared-fp-includes-command",)


@pytest.mark.clause("C-8")
def test_C8_example_6_group_fp_base_choice_and_largest_hindrance() -> None:
    pieces = [squad("five", fp=5), squad("four", fp=4), squad("three", fp=3, hindrance=2)]
    answers = {"fire": [1, 2], "defence.target": [1, 2]}
    assert fire(decl(pieces), {"base": "five", **answers}).outcome_data["fp"] == 7 - 2
    assert fire(decl(pieces), {"base": "four", **answers}).outcome_data["fp"] == 6 - 2
    assert ar.group_fp(5, 3) == 7
    # the default base (scripts with use_defaults) is the highest modified FP
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("cc", seed=1, declaration=decl(pieces))
    port = AnswerPort(answers, plan.dice, use_defaults=True)
    assert api.play(plan, port).outcome_data["fp"] == 5


@pytest.mark.clause("C-9")
def test_C9_example_J_fp_zero_or_less_refused() -> None:
    out = example("example-j")
    assert out.outcome_data == {"allowed": False, "fp": -1, "edition": "cc_20th"}


@pytest.mark.clause("C-9")
def test_C9_fp_raising_actions_count_before_the_zero_test() -> None:
    pieces = [squad("team", fp=2, hindrance=3)]
    out = fire(decl(pieces, bonuses=[{"source": "crossfire", "fp": 2}]),
               {"fire": [1, 2], "defence.target": [1, 2]})
    assert out.outcome_data["allowed"] is True and out.outcome_data["fp"] == 1


@pytest.mark.clause("C-9")
def test_C9_hindrance_is_the_largest_once_not_the_sum() -> None:
    pieces = [squad("a", hindrance=2), squad("b", hindrance=1)]
    out = fire(decl(pieces), {"base": "a", "fire": [1, 2], "defence.target": [1, 2]})
    assert out.outcome_data["fp"] == 5 + 1 - 2


@pytest.mark.clause("C-X7")
def test_CX7_ordnance_hindrance_on_the_roll_or_on_the_fp() -> None:
    mortar = {**MORTAR, "distance": 3, "hindrance": 3}
    default = fire(decl([mortar]), {"targeting": [3, 3, "sniper"], "fire": [1, 2],
                                     "defence.target": [1, 2]})
    assert default.outcome_data["fp"] == 6  # 9 - 3 = 6 > 3: hit; the FP keeps its 6
    other = fire(decl([mortar]), {"targeting": [1, 4], "fire": [1, 2],
                                  "defence.target": [1, 2]},
                 ["ordnance-hindrance=fire-power"])
    assert other.outcome_data["fp"] == 3  # 4 > 3 hits with no hindrance on the roll


# --- C-10, C-11, C-13: the fire card and its trigger -------------------------------

@pytest.mark.clause("C-10")
@pytest.mark.clause("C-11")
def test_C10_C11_jammed_breaks_every_firing_weapon_attack_goes_on() -> None:
    out = example("jammed-group")
    jammed = next(s for s in out.steps if s.clause == "C-11")
    assert jammed.data["broken_weapons"] == ["LMG E6"]
    assert out.outcome_data["attack_total"] == 6 + 2  # full strength
    assert out.outcome_data["trigger"] == "jammed"


@pytest.mark.clause("C-10")
def test_C10_sniper_and_time_are_reported() -> None:
    for card, word in (([4, 4, "sniper"], "Sniper!"), ([6, 6, "time"], "Time!")):
        out = fire(decl([squad()]), {"fire": card, "defence.target": [1, 2]})
        assert any(word in t for t in steps(out, "C-10"))


@pytest.mark.clause("C-13")
def test_C13_CX8_examples_E_F_G_event_before_defence_then_eliminated() -> None:
    out = example("example-e-g")
    assert out.outcome_data["attack_total"] == 20
    kinds = [s.clause for s in out.steps]
    assert kinds.index("C-13") < kinds.index("C-5")
    roll = next(s for s in out.steps if s.clause == "C-5")
    assert roll.data["morale"] == 6 and roll.data["defence_total"] == 9
    assert out.outcome_data["results"] == {"US squad (invented)": "eliminated"}
    assert any("Casualty Track" in t and "2 VP" in t for t in steps(out, "C-14"))
    assert out.non_default_options == ("deck-edition",)


@pytest.mark.clause("C-X8")
def test_CX8_the_2006_event_card_is_refused_under_the_2025_deck() -> None:
    raw = script("example-e-g")
    with pytest.raises(ScriptError) as err:
        api.attack("cc", raw["answers"], declaration=raw["declaration"])
    assert "no card 1-6:event in the German deck of cc_20th" in reason(err)
    # and the 2006 deck, not being public, cannot be drawn from
    q = FateCardQuestion(id="fire", text=None, nation="germany",  # type: ignore[arg-type]
                         edition_id="cce_2006")
    with pytest.raises(AnswerError):
        q.accept("")


# --- C-4, C-5, C-12, C-X4: defence rolls ------------------------------------------------

@pytest.mark.clause("C-4")
@pytest.mark.clause("C-5")
def test_C4_C5_example_D_road_morale_5_defence_15_broken() -> None:
    out = example("example-c-d")
    roll = next(s for s in out.steps if s.clause == "C-5")
    assert roll.data["morale"] == 5 and roll.data["defence_total"] == 15
    assert roll.data["result"] == "broken"


@pytest.mark.clause("C-5")
def test_C5_example_11_tie_suppresses_a_stationary_unit_breaks_a_moving_one() -> None:
    out = example("moving-tie")
    assert out.outcome_data["results"] == {"Moving US squad (invented)": "broken",
                                           "Dug-in US squad (invented)": "suppressed"}
    assert ar.defence_result(14, 14, moving=False, broken=False, suppressed=False) \
        is ar.Result.SUPPRESSED
    assert ar.defence_result(14, 14, moving=True, broken=False, suppressed=False) \
        is ar.Result.BROKEN
    assert ar.defence_result(14, 15, moving=True, broken=True, suppressed=True) \
        is ar.Result.NO_EFFECT
    assert ar.defence_result(14, 14, moving=True, broken=True, suppressed=False) \
        is ar.Result.ELIMINATED


@pytest.mark.clause("C-X4")
def test_CX4_tie_against_a_suppressed_unit_per_option() -> None:
    units = [target(suppressed=True)]
    # FP 5 + 6 = 11; Morale 6 - 1 + 6 = 11: a tie
    answers = {"fire": [1, 5], "defence.target": [2, 4]}
    default = fire(decl([squad()], units), answers)
    assert default.outcome_data["results"] == {"Target": "suppressed"}
    assert steps(default, "C-X4")
    breaks = fire(decl([squad()], units), answers, ["suppressed-tie=breaks"])
    assert breaks.outcome_data["results"] == {"Target": "broken"}


@pytest.mark.clause("C-12")
def test_C12_command_recomputed_after_a_leader_breaks() -> None:
    units = [target(name="Leader", kind="leader", morale=8, broken_morale=6, command=2),
             target(name="Squad", morale=6)]
    base = {"fire": [3, 6]}  # FP 5 + 9 = 14
    leader_first = fire(decl([squad()], units),
                        {**base, "defence-order.1": "leader", "defence.leader": [1, 2],
                         "defence.squad": [3, 4, "event"]})
    rolls = {s.data["unit"]: s.data for s in leader_first.steps if s.clause == "C-5"}
    assert rolls["leader"]["result"] == "broken"  # 8 + 2 + 3 = 13 < 14
    assert rolls["squad"]["morale"] == 6  # Command lost: 6 + 7 = 13 < 14, broken
    assert rolls["squad"]["result"] == "broken"
    leader_last = fire(decl([squad()], units),
                       {**base, "defence-order.1": "squad", "defence.squad": [3, 4, "event"],
                        "defence.leader": [1, 2]})
    rolls = {s.data["unit"]: s.data for s in leader_last.steps if s.clause == "C-5"}
    assert rolls["squad"]["morale"] == 8 and rolls["squad"]["result"] == "no-effect"


@pytest.mark.clause("C-12")
def test_C12_default_order_rolls_leaders_last_and_offers_only_units_left() -> None:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    units = [target(name="Leader", kind="leader", command=1), target(name="Squad")]
    plan = api.plan_attack("cc", seed=1, declaration=decl([squad()], units))
    port = ScriptingPort(AnswerPort({"fire": [1, 2]}, plan.dice, use_defaults=True,
                                    roll_missing_dice=True))
    result = api.play(plan, port)
    order = [s.data["unit"] for s in result.steps if s.clause == "C-5"]
    assert order == ["squad", "leader"]
    assert port.answers["defence-order.1"] == "squad"


@pytest.mark.clause("C-12")
def test_C12_without_a_leader_the_order_is_not_asked_and_changes_nothing() -> None:
    """The order of the defence rolls only matters through a leader's Command; with none
    among the targets the defender is not asked it, and each unit's card is its own."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    units = [target(name="First", morale=6), target(name="Second", morale=7)]
    plan = api.plan_attack("cc", seed=1, declaration=decl([squad()], units))
    port = ScriptingPort(AnswerPort({"fire": [3, 6], "defence.first": [1, 2],
                                     "defence.second": [6, 5]}, plan.dice))
    result = api.play(plan, port)
    assert not [k for k in port.answers if k.startswith("defence-order")]
    rolls = {s.data["unit"]: s.data for s in result.steps if s.clause == "C-5"}
    assert rolls["first"]["result"] == "broken"  # 6 + 3 = 9 < 14
    assert rolls["second"]["result"] == "no-effect"  # 7 + 11 = 18


# --- C-X5, C-X6: triggers on other cards, whose deck -------------------------------------

@pytest.mark.clause("C-X5")
def test_CX5_trigger_on_a_defence_card_is_reported_or_ignored() -> None:
    answers = {"fire": [1, 2], "defence.target": [3, 4, "event"]}
    assert steps(fire(decl([squad()]), answers), "C-X5")
    assert not steps(fire(decl([squad()]), answers, ["other-roll-triggers=ignore"]),
                     "C-X5")


@pytest.mark.clause("C-X6")
def test_CX6_defence_cards_come_from_the_defenders_deck() -> None:
    # 3-4 Event! is in the American deck but the German 3-4 cards are Event! too; 1-6 Event!
    # is American only: accepted from the defender's deck, refused from the attacker's
    answers = {"fire": [1, 2], "defence.target": [1, 6, "event"]}
    assert fire(decl([squad()]), answers).outcome_data["hit"] is True
    with pytest.raises(ScriptError) as err:
        fire(decl([squad()]), answers, ["defence-deck=attacker"])
    assert "German deck" in reason(err)


@pytest.mark.clause("C-X3")
def test_CX3_team_or_squad_naming_changes_no_arithmetic() -> None:
    a = fire(decl([squad("Team K7", fp=2)]), {"fire": [2, 4], "defence.target": [1, 2]})
    b = fire(decl([squad("Squad K7", fp=2)]), {"fire": [2, 4], "defence.target": [1, 2]})
    assert a.outcome_data["attack_total"] == b.outcome_data["attack_total"] == 8


# --- the deck -----------------------------------------------------------------------------

def test_deck_trigger_counts_of_the_brief() -> None:
    want = {"germany": (2, 7, 10, 2, 51), "america": (2, 6, 12, 2, 50),
            "russia": (4, 8, 8, 2, 50), "britain": (2, 6, 6, 2, 56),
            "france": (4, 4, 4, 2, 58), "italy": (6, 5, 8, 2, 51)}
    for nation, counts in want.items():
        deck = edition("cc_20th").decks[nation]
        got = Counter(k.partition(":")[2] for k in deck)
        assert (got["jammed"], got["sniper"], got["event"], got["time"], got[""]) == counts


@pytest.mark.clause("C-X8")
@pytest.mark.parametrize("blank", ["4-5", "5-4", "6-3"])
def test_CX8_italian_deck_under_each_reading_of_its_unpublished_sniper_card(blank: str) -> None:
    ed = edition("cc_20th", {"italy-sniper-blank": blank})
    deck = ed.decks["italy"]
    assert ed.reading("italy") == ("italy-sniper-blank", blank)
    placed = {t: sorted(k.partition(":")[0] for k in deck if k.endswith(":" + t))
              for t in ("jammed", "event", "time", "sniper")}
    assert placed["jammed"] == ["1-1", "1-1", "1-2", "1-2", "2-1", "2-1"]
    assert placed["event"] == ["3-4", "3-4", "4-3", "4-3", "5-2", "5-2", "6-1", "6-1"]
    assert placed["time"] == ["6-6", "6-6"]
    sixes = ["4-5", "4-5", "5-4", "5-4", "6-3", "6-3"]
    sixes.remove(blank)
    assert placed["sniper"] == sixes
    # the dice are the same under every reading: every ordered pair on two cards
    assert set(Counter(k.partition(":")[0] for k in deck).values()) == {2}
    assert len(deck) == 72
    table = api.lookup("cc", "triggers", "italy", ["--italy-sniper-blank", blank])
    assert f"reading italy-sniper-blank={blank} [UNVERIFIED]" in render(table.title)


@pytest.mark.clause("C-X8")
def test_CX8_an_italian_draw_says_which_reading_built_the_deck() -> None:
    d = decl([squad()], [target()]) | {"attacker": "italy", "defender": "britain"}
    out = fire(d, {"fire": "draw", "defence.target": [1, 2]})
    notes = steps(out, "C-X8")
    assert any("reading italy-sniper-blank=6-3 [UNVERIFIED]" in n for n in notes)
    other = fire(d, {"fire": "draw", "defence.target": [1, 2]},
                 options=["italy-sniper-blank=4-5"])
    assert any("italy-sniper-blank=4-5" in n for n in steps(other, "C-X8"))
    assert "italy-sniper-blank" in other.non_default_options
    german = fire(decl([squad()]), {"fire": [1, 2], "defence.target": [1, 2]})
    assert not any("italy-sniper-blank" in n for n in steps(german, "C-X8"))


@pytest.mark.clause("C-X8")
@pytest.mark.parametrize("nation", ["germany", "italy", "france"])
def test_CX8_example_12_deck_lookup_draws_the_whole_deck(nation: str) -> None:
    table = api.lookup("cc", "deck", nation, ["--seed", "9"])
    assert [row[1:] for row in table.rows] == [(2,) * 6] * 6
    assert "72 cards, 0 drawn more often" in render(table.title)
    assert "each of the 36 ordered pairs exactly 2 times" in render(table.title)


@pytest.mark.clause("C-X8")
def test_CX8_example_12_72_draws_give_every_ordered_pair_twice() -> None:
    from referee.rulesets.cc.deck import VirtualDecks

    rng = KeyedDice(5)
    decks = VirtualDecks("cc_20th", {})
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(72):
        q = FateCardQuestion(id="x", text=None, nation="germany",  # type: ignore[arg-type]
                             edition_id="cc_20th", remaining=decks.remaining("germany"))
        card = q.roll(rng.stream("x"))
        decks.take("germany", card)
        assert card.faces is not None
        seen[(card.faces[0], card.faces[1])] += 1
    assert set(seen.values()) == {2} and len(seen) == 36
    assert decks.needs_reshuffle("germany")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["germany", "america", "russia", "britain", "france"]),
       st.integers(0, 10**6))
def test_property_a_full_deck_holds_every_ordered_pair_exactly_twice(nation: str,
                                                                     seed: int) -> None:
    deck = list(edition("cc_20th").decks[nation])
    random.Random(seed).shuffle(deck)
    pairs = Counter(k.partition(":")[0] for k in deck)
    assert len(deck) == 72
    assert pairs == Counter({f"{a}-{b}": 2 for a, b in itertools.product(range(1, 7),
                                                                       repeat=2)})


def test_card_parsing_and_refusals() -> None:
    card = parse_card("1-6 Event!")
    assert not isinstance(card, str) and card.faces == (1, 6) and card.trigger == "event"
    assert parse_card({"rolled": [2, 3]}).source is DiceSource.ROLLED  # type: ignore[union-attr]
    for bad in ("1 7", "1 2 3", "1 2 boom", [1, "x", "y"]):
        with pytest.raises(AnswerError):
            parse_card(bad)


def test_virtual_deck_persists_with_game_and_record_replays(tmp_path: Path) -> None:
    from referee.frontends.answers import AnswerPort
    from referee.game import open_game

    game, rec = tmp_path / "g.sqlite", tmp_path / "rec.toml"
    d = decl([squad()])
    plan = api.plan_attack("cc", seed=9, declaration=d)
    first = api.play(plan, AnswerPort({}, plan.dice, roll_missing_dice=True, use_defaults=True),
                     game=game,
                     record=rec)
    with open_game(game) as tx:
        left = tx.state("combat-commander")["decks"]
    assert len(left["cc_20th/germany"]) == 71 and len(left["cc_20th/america"]) == 71
    again_plan = api.plan_attack("cc", seed=9, declaration=d)
    api.play(again_plan, AnswerPort({}, again_plan.dice, roll_missing_dice=True,
                                    use_defaults=True), game=game)
    with open_game(game) as tx:
        assert len(tx.state("combat-commander")["decks"]["cc_20th/germany"]) == 70
    replay_plan, port = api.plan_script(rec)
    replayed = api.play(replay_plan, port)
    assert replayed.outcome_data == first.outcome_data
    recorded = tomllib.loads(rec.read_text(encoding="utf-8"))["answers"]
    assert "rolled" in recorded["fire"]


# --- properties ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=8), st.data())
def test_property_group_fp_never_exceeds_base_plus_the_other_pieces(fps: list[int],
                                                                    data: Any) -> None:
    pieces = [squad(f"p{i}", fp=fp) for i, fp in enumerate(fps)]
    base = data.draw(st.integers(0, len(fps) - 1))
    answers: dict[str, Any] = {"fire": [1, 2], "defence.target": [1, 2]}
    if len(fps) > 1:
        answers["base"] = f"p{base}"
    out = fire(decl(pieces), answers)
    assert out.outcome_data["fp"] == fps[base] + len(fps) - 1
    assert out.outcome_data["fp"] <= max(fps) + len(fps) - 1
    assert out.outcome_data["fp"] <= sum(fps)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 40), st.integers(2, 40), st.booleans(), st.booleans(), st.booleans(),
       st.integers(-5, 5))
def test_property_each_units_result_depends_only_on_its_totals(attack: int, defence: int,
                                                               moving: bool, broken: bool,
                                                               suppressed: bool,
                                                               shift: int) -> None:
    result = ar.defence_result(attack, defence, moving=moving, broken=broken,
                               suppressed=suppressed)
    assert result == ar.defence_result(attack + shift, defence + shift, moving=moving,
                                       broken=broken, suppressed=suppressed)
    if defence > attack:
        assert result is ar.Result.NO_EFFECT
    elif defence < attack:
        assert result is (ar.Result.ELIMINATED if broken else ar.Result.BROKEN)


def test_fire_odds_oracle_of_the_brief() -> None:
    oracle = {-4: (0.097, 0.062), -2: (0.239, 0.097), -1: (0.336, 0.108), 0: (0.444, 0.113),
              1: (0.556, 0.108), 2: (0.664, 0.097), 4: (0.841, 0.062), 6: (0.946, 0.027)}
    for d, (beats, tie) in oracle.items():
        b, t = ar.fire_odds(d)
        # the brief rounds 125/1296 = 0.09645 up to 0.097: compare within 0.001
        assert abs(float(b) - beats) <= 0.001 and abs(float(t) - tie) <= 0.001


def test_lookups_refuse_bad_input_with_a_reason() -> None:
    with pytest.raises(UsageError):
        api.lookup("cc", "targeting", "x")
    with pytest.raises(UsageError):
        api.lookup("cc", "triggers", "italy", ["--italy-sniper-blank", "6-6"])
    with pytest.raises(UsageError):
        api.lookup("cc", "deck")
    with pytest.raises(UsageError):
        api.lookup("cc", "fire-odds", "+2", ["--cover"])


def test_a_broken_declaration_names_the_field() -> None:
    bad = copy.deepcopy(script("example-j"))
    bad["declaration"]["firing"][0]["fp"] = "two"
    with pytest.raises(ScriptError) as err:
        api.plan_attack("cc", declaration=bad["declaration"])
    assert "declaration.firing[0].fp" in reason(err)


def test_a_white_band_piece_must_be_a_weapon() -> None:
    bad = decl([{**MORTAR, "kind": "unit", "distance": 2}])
    with pytest.raises(ScriptError) as err:
        api.plan_attack("cc", declaration=bad)
    assert "only a weapon" in reason(err)


@pytest.mark.parametrize("argv", [["lookup", "cc"], ["lookup", "cc", "targeting", "5"],
                                  ["lookup", "cc", "fire-odds"],
                                  ["lookup", "cc", "triggers", "germany"]])
def test_cc_lookups_load_no_heavy_module(argv: list[str]) -> None:
    import subprocess
    import sys

    from tests.project.test_imports import PROBE

    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "HEAVY:"


@pytest.mark.clause("C-13")
def test_C13_a_unit_the_event_eliminates_makes_no_defence_roll_and_gives_its_vp() -> None:
    units = [target(name="A", vp=2), target(name="B", vp=1)]
    out = fire(decl([squad()], units),
               {"fire": [2, 5, "event"], "event.a": "eliminated", "event.b": "none",
                "defence.b": [5, 6]})
    assert out.outcome_data["results"] == {"B": "no-effect", "A": "eliminated"}
    assert [s.data["unit"] for s in out.steps if s.clause == "C-5"] == ["b"]
    assert any("2 VP" in t for t in steps(out, "C-14"))


def test_an_empty_virtual_deck_is_reshuffled_before_a_draw() -> None:
    from referee.frontends.answers import AnswerPort
    from referee.rulesets.base import AttackContext
    from referee.rulesets.cc.attack import attack
    from referee.rulesets.cc.declaration import FireDeclaration

    plan = api.plan_attack("cc", seed=3)
    port = AnswerPort({}, plan.dice, roll_missing_dice=True, use_defaults=True)
    ctx = AttackContext(port, plan.options, FireDeclaration.model_validate(decl([squad()])),
                        state={"decks": {"cc_20th/germany": []}})
    out = attack(ctx)
    assert any("reshuffled" in render(s.text) for s in out.steps)
    assert len(out.state_updates["decks"]["cc_20th/germany"]) == 71


@pytest.mark.clause("C-X8")
def test_CX8_a_users_deck_file_gives_a_virtual_deck_for_the_2006_edition() -> None:
    raw = script("example-e-g")
    deck_file = str(SCRIPTS / "decks" / "my-2006-germany.toml")
    opts = ["deck-edition=cce_2006", f"deck-file={deck_file}"]
    out = fire(raw["declaration"], raw["answers"], opts)
    assert out.outcome_data["attack_total"] == 20
    assert len(out.state_updates["decks"]) == 0  # typed cards leave the virtual deck alone
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("cc", seed=2, options=opts, declaration=raw["declaration"])
    port = AnswerPort({"defence.us-squad-invented": [1, 2]}, plan.dice, use_defaults=True,
                      roll_missing_dice=True)
    drawn = api.play(plan, port)
    assert len(drawn.state_updates["decks"]["cce_2006/germany"]) == 71
    with pytest.raises(ScriptError) as err:
        fire(raw["declaration"], raw["answers"], ["deck-edition=cc_20th",
                                                  f"deck-file={deck_file}"])
    assert "[edition.cc_20th]" in reason(err)


@pytest.mark.parametrize("name", ["example-c-d", "example-e-g", "example-h", "example-j",
                                  "moving-tie"])
def test_declaration_files_declare_the_same_attack_as_their_scripts(name: str) -> None:
    alone = tomllib.loads((SCRIPTS / "declarations" / f"cc-{name}.toml").read_text("utf-8"))
    assert set(alone) == {"ruleset", "declaration"}
    assert alone["declaration"] == script(name)["declaration"]


def test_a_broken_deck_file_names_the_file_the_nation_and_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "deck.toml"
    bad.write_text('[edition.cce_2006.nation.germany]\n'
                   'counts = { jammed = 3, sniper = 0, event = 0, time = 0 }\n'
                   'jammed = ["1-1", "1-1"]\n', encoding="utf-8")
    raw = script("example-e-g")
    with pytest.raises(ScriptError) as err:
        fire(raw["declaration"], raw["answers"], ["deck-edition=cce_2006",
                                                  f"deck-file={bad}"])
    text = reason(err)
    assert str(bad) in text and "edition.cce_2006.nation.germany" in text
    assert "2 jammed cards listed, but counts says 3" in text


@pytest.mark.clause("C-6")
def test_C6_two_linked_pairs_with_no_link_between_them_are_not_a_chain() -> None:
    """Every hex has a neighbour in the group, yet A-B and C-D are not one chain."""
    pieces = [squad("a", hex="A"), squad("b", hex="B"), squad("c", hex="C"),
              squad("d", hex="D")]
    split = fire(decl(pieces, adjacent=[["A", "B"], ["C", "D"]]), {})
    assert split.outcome_data["allowed"] is False
    assert "chain of adjacent hexes" in render(split.outcome)
    joined = fire(decl(pieces, adjacent=[["A", "B"], ["C", "D"], ["B", "C"]]),
                  {"base": "a", "fire": [1, 2], "defence.target": [1, 2]})
    assert joined.outcome_data["allowed"] is True


@pytest.mark.clause("C-6")
def test_C6_a_piece_never_fires_into_its_own_hex() -> None:
    bad = copy.deepcopy(script("example-j"))
    bad["declaration"]["firing"][0]["distance"] = 0
    with pytest.raises(ScriptError) as err:
        api.plan_attack("cc", declaration=bad["declaration"])
    assert "declaration.firing[0].distance" in reason(err)
    assert "its own hex" in reason(err)
    same = decl([squad("a", hex="X1")])
    with pytest.raises(ScriptError) as err:
        api.plan_attack("cc", declaration=same)
    assert "firing[0] (a) stands in the target hex X1" in reason(err)


@pytest.mark.clause("C-13")
def test_C13_an_event_that_eliminates_every_target_prints_no_empty_defence_table() -> None:
    out = fire(decl([squad()], [target(name="A", vp=1)]), {"fire": [2, 5, "event"],
                                                     "event.a": "eliminated"})
    assert out.outcome_data["results"] == {"A": "eliminated"}
    assert not [t for t in out.tables if "Defence" in render(t.title)]
