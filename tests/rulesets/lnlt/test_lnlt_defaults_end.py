"""An operations phase played by its defaults ends (L-2, L-X1; issue 28, case 3).

A generated script (passes, an activation emptied of its actions, a unit renamed from the
answers' spelling; every other question at its default) under the reading of L-X1 where any
activation resets the count of passes (empty-activation=resets) ran for ever, its memory
growing about 28 MB/s: the defaults activated and did nothing, each empty activation resetting
the count. Under that option a side whose last impulse changed nothing now passes by default
(``phase.idle_before``). A property plays generated phases (random rosters, options, answers,
then the defaults) and checks that each ends within its budget.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.dice import KeyedDice
from referee.core.options import resolve_options
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    LineQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
    Question,
)
from referee.core.result import StepLog
from referee.core.work import counting
from referee.frontends.answers import AnswerPort
from referee.rulesets import find_ruleset
from referee.rulesets.lnlt.play import begin, play
from referee.rulesets.lnlt.roster import Roster
from tests.support import ROOT
from tests.support.lnlt import DEFAULTS_NEVER_END as HANG
from tests.support.pty import child_env


def test_a_generated_lnlt_phase_of_defaults_ends(tmp_path: Path) -> None:
    """Case 3: this script ran for ever, its memory growing about 28 MB/s."""
    path = tmp_path / "hang.toml"
    path.write_text(HANG, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "run", str(path), "--no-odds"],
                          capture_output=True, text=True, cwd=ROOT, env=child_env(),
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "three consecutive passes" in done.stdout


def test_the_odds_of_such_a_phase_end(tmp_path: Path) -> None:
    """The odds' walk takes every default too: it ran for ever on the same roster."""
    path = tmp_path / "hang.toml"
    path.write_text(HANG.replace('"i1.do" = "pass"\n', "").replace("use_defaults = true\n",
                                                                    ""), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "odds", "lnlt", "--script",
                           str(path)], capture_output=True, text=True, cwd=ROOT,
                          env=child_env(), timeout=120, check=False)
    assert done.returncode == 2 and "asked for no dice" in done.stderr, done.stderr
    assert "i4.do=Pass" in done.stderr  # the walk passed once the impulses changed nothing



def test_the_default_is_still_to_activate_under_the_default_reading() -> None:
    """Only under empty-activation=resets does an idle side pass by default: by the default
    reading an empty activation counts as a pass, so the defaults end the phase already
    (and the default is never Pass while something may act: issue 18)."""
    from referee.rulesets.lnlt.phase import idle_before

    roster = Roster.model_validate({"sides": ["G", "R"], "initiative": "G", "units": [
        {"id": "g", "side": "G", "hex": "A1", "kind": "mmc", "ifp": 1},
        {"id": "r", "side": "R", "hex": "A2", "kind": "mmc", "ifp": 1}]})
    specs = find_ruleset("lnlt").option_specs()
    log = StepLog()
    port = AnswerPort({"i1.do": "activate", "i1.hex": "A1", "i1.act.1": "done"}, KeyedDice(1),
                      use_defaults=True)
    phase = begin(roster, port, log)
    play(phase, port, resolve_options(specs, {}), log, 1)
    assert not idle_before(phase, "G", resolve_options(specs, {}))
    assert idle_before(phase, "G", resolve_options(specs, {"empty-activation": "resets"}))


# --- a property: generated phases end within their budget -----------------------------------

HEXES = ["H1", "H2", "H3", "H4"]


@st.composite
def rosters(draw: Any) -> Roster:
    units = []
    for side in ("G", "R"):
        for i in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["mmc", "mmc", "smc", "vehicle"]))
            unit: dict[str, Any] = {"id": f"{side}{i}", "side": side, "kind": kind,
                                    "hex": draw(st.sampled_from(HEXES)),
                                    "ifp": draw(st.integers(0, 3)),
                                    "markers": draw(st.sampled_from([[], [], ["fired"]]))}
            if kind == "smc" and draw(st.booleans()):
                unit.update(leader=True, lm=1, ifp=0)
            if kind == "vehicle" or draw(st.booleans()):
                unit["sws"] = [{"id": "mg", "kind": "mg", "fp": draw(st.integers(1, 3))}]
            if draw(st.booleans()):
                unit["status"] = "shaken"
            if draw(st.booleans()):
                unit["level"] = draw(st.integers(0, 1))
            units.append(unit)
    return Roster.model_validate({
        "sides": ["G", "R"], "initiative": draw(st.sampled_from(["G", "R", None])),
        "adjacent": {"H1": ["H2"], "H2": ["H3"], "H3": ["H4"]}, "units": units})


OPTIONS = {name: st.sampled_from(choices) for name, choices in (
    ("empty-activation", ["counts-as-pass", "resets"]),
    ("pass-count", ["every-pass", "forced-passes-ignored"]),
    ("sw-only-fire-marks-owner", ["true", "false"]),
    ("leader-building-levels", ["level-above-below", "own-level-only"]))}


class GeneratedScript:
    """A script's answers as hypothesis draws them: ``given`` legal answers (passes and
    activations emptied of their actions among them), then every question at its default,
    as ``use_defaults`` takes it (an ``AnswerPort`` with its budget)."""

    def __init__(self, data: Any, given: int) -> None:
        self.data = data
        self.given = given
        self.asked = 0
        self.rest = AnswerPort({}, KeyedDice(5), file="generated.toml", use_defaults=True,
                               roll_missing_dice=True)

    def ask(self, q: Question) -> Any:
        self.asked += 1
        if self.asked > self.given:
            return self.rest.ask(q)
        draw = self.data.draw
        if isinstance(q, ChoiceQuestion):
            if ".act." in q.id and "done" in q.values and draw(st.booleans()):
                return "done"  # an activation emptied of its actions
            return draw(st.sampled_from(q.values))
        if isinstance(q, MultiChoiceQuestion):
            most = len(q.values) if q.max_count is None else q.max_count
            picked = draw(st.lists(st.sampled_from(q.values), min_size=q.min_count,
                                   max_size=most, unique=True))
            needs = getattr(q, "needs_one", ())
            if needs and not set(picked) & set(needs):
                picked.append(draw(st.sampled_from(needs)))
            return q.accept(picked)
        if isinstance(q, ConfirmQuestion):
            return draw(st.booleans())
        if isinstance(q, NumberQuestion):
            low = -1 if q.minimum is None else max(-1, q.minimum)
            high = 2 if q.maximum is None else min(2, q.maximum)
            return draw(st.integers(low, high))
        if isinstance(q, LineQuestion):
            return q.accept(f"{draw(st.integers(-1, 2))} {draw(st.integers(-1, 2))}")
        assert isinstance(q, DiceQuestion)
        return self.rest.ask(q)  # rolled from the seed


def impulse_budget(roster: Roster, given: int) -> int:
    """The impulses a phase may take: those the given answers play (each asks one question
    at least), then, with every default taken, at most a few between two impulses that mark
    a unit (the defaults' activations are empty: after one, a side passes; three passes end
    the phase; a forced pass may come between), and at most one marking a unit each."""
    return given + 8 * (len(roster.units) + 1)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roster=rosters(), data=st.data(), given=st.integers(0, 40),
       chosen=st.fixed_dictionaries(OPTIONS))
def test_generated_lnlt_phases_end_within_their_budget(roster: Roster, data: Any, given: int,
                                                       chosen: dict[str, str]) -> None:
    options = resolve_options(find_ruleset("lnlt").option_specs(), chosen)
    script = GeneratedScript(data, given)
    log = StepLog()
    budget = impulse_budget(roster, given)
    with counting() as work:
        phase = begin(roster, script, log)
        while not phase.ended:  # impulse by impulse: a phase that would not end fails here
            play(phase, script, options, log, 1)
            assert phase.impulses <= budget, f"past its budget of {budget} impulses"
    assert work["lnlt.impulses"] == phase.impulses <= budget
    assert work["questions"] <= script.rest.budget.limits["questions"]
