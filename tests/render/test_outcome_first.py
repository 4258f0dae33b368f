"""Outcome first (issue 27, part 4): after the last answer, one screen says what happened to
each unit by name, the rolls with their percentile and chance, and an outcome line that says
who ended what; the whole working behind ``--working``. Units invented."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.fates import Fate, grouped, summary
from referee.core.text import Msg
from tests.support import ROOT
from tests.support.game import invoke

SCRIPTS = ROOT / "transcripts" / "scripts"


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("questions",
                                                  ROOT / "benchmarks" / "questions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["questions"] = module
    spec.loader.exec_module(module)
    return module


def _run_json(script: str, *extra: str) -> dict[str, Any]:
    code, out, err = invoke(["run", str(SCRIPTS / script), "--json", "--no-odds", *extra])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


_units = st.lists(st.tuples(st.sampled_from(["A", "B", "C", "D"]),
                            st.sampled_from([(), ("destroyed",), ("2 hits", "broken")])),
                  min_size=1, max_size=8, unique_by=lambda u: u[0])


@given(_units)
def test_every_unit_is_on_one_line_and_the_unharmed_come_last(units: list[Any]) -> None:
    fates = [Fate("G", name, tuple(Msg.of("x", e=e) for e in effects))
             for name, effects in units]
    ((_, own, lines),) = grouped(fates)
    assert own == ()
    assert sorted(n for _, names in lines for n in names) == sorted(u[0] for u in units)
    harmed = [bool(effects) for effects, _ in lines]
    assert harmed == sorted(harmed, reverse=True)  # the unharmed (False) last


def test_an_outcome_line_names_each_group_with_nothing_harmed() -> None:
    fates = [Fate(Msg.of("kept.fate.hex", hex="0713"), "Carrier", ())]
    assert render(summary(fates)) == "hex 0713 — nobody harmed"


@pytest.mark.parametrize("case", ["epic-typed", "epic-roster", "cc-typed", "fow-typed",
                                  "lnlt-fire", "waw-he", "waw-he-game"])
def test_the_reference_attacks_end_on_at_most_20_lines(case: str) -> None:
    questions = _benchmark()
    make = next(m for m in questions.CASES if m().name == case)
    _asked, out = questions.run_lines(make())
    after = questions.after_last_answer(out)
    assert len(after) <= questions.LINES_GOAL, "\n".join(after)
    assert after[-1] == "The full working: --working."
    assert any(line.startswith("Outcome: ") for line in after)
    full = make()
    full.args = [*full.args, "--working"]
    _asked, working = questions.run_lines(full)
    assert "Working" in [line.strip() for line in working]  # as before, behind --working


def test_waw_the_outcome_says_who_ended_what() -> None:
    doc = _run_json("waw-example-2-mixed-stack.toml")
    assert doc["outcome"]["text"] == ("hex 0914 — Iron Tank Platoon (invented), Grey Rifle "
                                      "Platoon (invented): disorganized (2 net hits)")
    assert [(f["group_text"], f["unit_text"], [e["text"] for e in f["effects"]])
            for f in doc["fates"]] == [
        ("hex 0914", "Iron Tank Platoon (invented)", ["disorganized"]),
        ("hex 0914", "Grey Rifle Platoon (invented)", ["disorganized"])]


def test_fow_the_outcome_names_the_teams_and_their_results() -> None:
    doc = _run_json("fow-odds.toml", "--seed", "2")  # the script's missing dice: seeded
    text = doc["outcome"]["text"]
    assert text.startswith("Red Hill Platoon (invented) — Armoured car, Light tank: 1 hit, "
                           "bounced; Rifle team: 2 hits, destroyed")
    assert "(4 hits allocated to 3 teams; 0 ignored)" in text


@pytest.mark.clause("C-13")
def test_cc_an_events_suppressed_marker_is_in_the_outcome() -> None:
    doc = _run_json("cc-example-e-g.toml")
    assert doc["outcome"]["text"] == ("Attack total 20. hex M6 — US squad (invented): "
                                      "Suppressed marker (event), eliminated")


def test_cc_a_jammed_weapon_is_broken_in_the_outcome() -> None:
    doc = _run_json("cc-jammed-group.toml")
    assert "hex E6 — LMG E6: broken (Jammed!)" in doc["outcome"]["text"]


@pytest.mark.clause("E-4")
def test_epic_suppressed_shooters_and_destroyed_units_by_name() -> None:
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("epic", seed=3, declaration={
        "roster": str(ROOT / "benchmarks" / "questions" / "epic-roster.toml"),
        "firing": "Grey Company (invented)", "target": "Red Hill Company (invented)"})
    port = AnswerPort({"action": "advance", "markers.grey-company-invented": 1,
                       "situation.grey-company-invented": "20, 25",
                       "situation.red-hill-company-invented": "4 20, 25",
                       "fire-type.missile-launcher": "ap"}, plan.dice,
                      roll_missing_dice=True, use_defaults=True)
    result = api.play(plan, port)
    fates = {(render(f.group), render(f.unit) if f.unit else None):
             [render(e) for e in f.effects] for f in result.fates}
    suppressed = [u for (g, u), e in fates.items()
                  if g == "Grey Company (invented)" and e == ["suppressed (did not fire)"]]
    assert len(suppressed) == 1
    target = [(u, e) for (g, u), e in fates.items() if g == "Red Hill Company (invented)"]
    assert {u for u, _ in target if u} == {"Rifleman 1", "Rifleman 2", "Rifleman 3",
                                           "Rifleman 4", "Carrier 1", "Carrier 2"}
    destroyed = {u for u, e in target if e == ["destroyed"]}
    assert set(result.outcome_data["casualties"]) == destroyed


def test_lnlt_an_impulse_names_what_each_unit_became(tmp_path: Path) -> None:
    code, out, err = invoke(
        ["phase", "lnlt", "--game", str(tmp_path / "g.sqlite"), "--impulses", "1",
         "--no-odds", "--seed", "1"],
        answers=["Grey, Red", "Able 2 6 @C4", "Pawn 1 5 @D4", "Grey", "fire:C4", "0 0",
                 "5 1", "5", "shaken"])
    assert code == 0, err
    after = out.split("The result on your Damage Check Table?  Shaken\n", 1)[1]
    assert after.splitlines() == [
        "Grey:", "  Fired: Able", "Red:", "  Shaken: Pawn",
        "Outcome: the phase goes on: impulse 2, Red to play (0 consecutive passes)",
        "The full working: --working."]
