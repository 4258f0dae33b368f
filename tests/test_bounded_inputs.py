"""Every input is bounded (issue 28, cases 3 and 4).

* **The LnLT hang** (case 3): a generated script (passes, an emptied activation, a renamed
  unit; every question at its default, under the option empty-activation=resets) ran for ever,
  its memory growing. The defaults activated and did nothing for ever, each empty activation
  resetting the count of passes; now, under that option, a side whose last impulse changed
  nothing passes by default (``phase.idle_before``), and every script is held by a budget of
  questions (``core.work.Budget`` in ``AnswerPort``) that ends a walk that would not end with
  an error naming the script. A property test plays generated phases (random rosters,
  options, answers, then the defaults) and checks that each ends within its budget.
* **Quadratic wrapping** (case 4): a 1 MB name took 41 s to print (the stacked table folded a
  long word by measuring what was left of it again and again); wrapping and measuring are now
  linear in the text. Timing is the benchmark's (``benchmarks/long_names.py``); here the
  characters measured are counted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.dice import KeyedDice
from referee.core.options import resolve_options
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    EntryQuestion,
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
from tests.conftest import ROOT
from tests.game_helpers import invoke
from tests.pty_support import child_env

# the generated script of case 3: a roster, two answers (a pass, an activation emptied of
# its actions), a unit renamed from the answers' spelling, then every question at its
# default, under the reading of L-X1 where any activation resets the count of passes
HANG = """ruleset = "lnlt"
use_defaults = true
roll_missing_dice = true
seed = 7

[options]
empty-activation = "resets"

[declaration]
sides = ["Grey", "Red"]
initiative = "Grey"
adjacent = { C4 = ["C5", "D4"], C5 = ["D5"], D4 = ["D5"] }

[[declaration.units]]
id = "able-renamed"
name = "Able squad (invented)"
side = "Grey"
hex = "C4"
kind = "mmc"
ifp = 2

[[declaration.units]]
id = "red-1"
name = "Red One squad (invented)"
side = "Red"
hex = "D5"
kind = "mmc"
ifp = 3

[answers]
"i1.do" = "pass"
"i2.do" = "activate"
"i2.act.1" = "done"
"""


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


def test_a_script_whose_defaults_never_end_is_stopped_by_its_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is the backstop of every loop a script drives: with the old defaults
    (activate and do nothing, for ever) the run ends with one line naming the script."""
    import referee.frontends.answers
    import referee.rulesets.lnlt.phase

    monkeypatch.setattr(referee.rulesets.lnlt.phase, "idle_before", lambda *a: False)
    monkeypatch.setattr(referee.frontends.answers, "MOST_UNANSWERED", 300)
    path = tmp_path / "hang.toml"
    path.write_text(HANG, encoding="utf-8")
    code, out, err = invoke(["run", str(path), "--no-odds"])
    assert code == 3
    assert err.strip() == (f"error: {path}: expected a script that ends: it was still asking "
                           "after 303 questions (its answers, then the questions' defaults); "
                           "an operations phase played by defaults may never end: give its "
                           "answers, or max_impulses")
    assert "Traceback" not in out + err


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
        if isinstance(q, EntryQuestion):
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


# --- case 4: wrapping and measuring are linear in the text -----------------------------------

def _measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters the renderers measure (``cell_len``), counted."""
    from rich.cells import cell_len

    import referee.render.console
    import referee.render.fast_table
    import referee.render.stacked

    counted = [0]

    def counting_cell_len(text: str, *args: Any) -> int:
        counted[0] += len(text)
        return cell_len(text, *args)

    for module in (referee.render.console, referee.render.fast_table, referee.render.stacked):
        monkeypatch.setattr(module, "cell_len", counting_cell_len)
    return counted


@pytest.mark.parametrize("size", [1_000, 100_000])
def test_a_long_name_is_measured_a_few_times_not_once_a_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Case 4: a 1 MB name took 41 s to print (quadratic); 1 KB names were instant. The
    characters measured grow with the name, not with its square."""
    name = "x" * size
    path = tmp_path / "long.toml"
    path.write_text('ruleset = "epic"\nroll_missing_dice = true\nseed = 1\n[declaration]\n'
                    f'firing = "{name}"\ntarget = "Red Hill Battery (invented)"\n'
                    '[[declaration.weapons]]\nname = "Cannon"\nshots = 3\nap = 5\nat = 4\n'
                    '[answers]\naction = "double"\ncover = true\n"fire-type.cannon" = "at"\n',
                    encoding="utf-8")
    counted = _measured(monkeypatch)
    code, out, err = invoke(["run", str(path), "--no-odds"])
    assert code == 0, err
    assert out.count("x" * 100) >= size // 120  # the name is shown whole, folded
    assert counted[0] <= 60 * size + 200_000, counted[0]


def _old_wrap(text: str, width: int) -> list[str]:
    """The wrap before this issue (one word measured again after each piece folded off)."""
    from rich.cells import cell_len

    def fit(word: str, width: int) -> int:
        cells = 0
        for i, char in enumerate(word):
            cells += cell_len(char)
            if cells > width:
                return max(i, 1)
        return len(word)

    width = max(width, 1)
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while cell_len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                cut = fit(word, width)
                out.append(word[:cut])
                word = word[cut:]
            if not line:
                line = word
            elif cell_len(line) + 1 + cell_len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=st.sampled_from([*"ab cd\nЖ字é ", "ｗ", "\u0301"]),
                    max_size=60), width=st.integers(2, 12))
def test_the_linear_wrap_cuts_as_the_old_one_did(text: str, width: int) -> None:
    """(At least two cells: narrower, a wide character alone overflows its line, and the old
    wrap wrote an empty line after it.)"""
    from referee.render.stacked import wrap

    assert wrap(text, width) == _old_wrap(text, width)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_grid_narrows_its_columns_as_a_cell_at_a_time_did(data: Any) -> None:
    """``stacked.grid_widths`` takes the excess from the widest columns at once, as the old
    loop did a cell at a time (the excess of a long name is its length)."""
    from referee.render.stacked import _narrowed

    count = data.draw(st.integers(1, 6))
    lengths = [data.draw(st.integers(0, 40)) for _ in range(count)]
    least = [data.draw(st.integers(0, n)) for n in lengths]
    room = sum(n - low for n, low in zip(lengths, least, strict=True))
    excess = data.draw(st.integers(0, room))
    widths = list(lengths)
    for _ in range(excess):
        i = max((i for i in range(count) if widths[i] > least[i]), key=lambda i: widths[i])
        widths[i] -= 1
    assert _narrowed(lengths, least, excess) == widths
