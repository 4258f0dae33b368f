"""Going back at the table, dice bound to their question, and resuming a recorded attack,
driven in-process (the pseudo-terminal tests are in ``tests/pty/test_back_pty.py``).

Going back is a replay: the resolver runs again with the answers before the question to
change. These tests check that a replay never changes a die, that the answers given after
going back give the same result as the same answers given straight, and that a record written
answer by answer resumes where it stopped."""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee import api
from referee.cli import app
from referee.context import Environment
from referee.core.dice import DiceRoll, DiceSource, DiceSpec, KeyedDice, roll
from referee.core.errors import RefereeError
from referee.core.port import GoBack, settle_dice
from referee.core.questions import (
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
    Question,
    TextQuestion,
)
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort, SequencePort
from referee.frontends.rewind import RewindPort
from referee.frontends.wrappers import AutoDicePort
from referee.render.display import value_from_label
from referee.script import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "transcripts" / "scripts"
TEXT = Msg.of("epic.q.weapons")


# --- the dice source ------------------------------------------------------------------------

def _documented_faces(seed: str, attack: int, qid: str, roll_number: int, count: int,
                      sides: int = 6) -> list[int]:
    """The scheme as the README states it, written out independently of the code."""
    faces: list[int] = []
    block = 0
    limit = 256 - 256 % sides
    while len(faces) < count:
        message = f"referee-dice/1|{attack}|{qid}|{roll_number}|{block}".encode()
        for byte in hmac.new(seed.encode(), message, hashlib.sha256).digest():
            if byte < limit and len(faces) < count:
                faces.append(1 + byte % sides)
        block += 1
    return faces


def test_known_vectors_of_the_keyed_dice() -> None:
    # the first roll to hit of README's `referee attack epic --seed 11` (5 shots)
    got = roll(DiceSpec(count=5), KeyedDice(11).stream("to-hit.weapon-1"))
    assert got.faces == (1, 1, 6, 1, 5)
    assert list(got.faces) == _documented_faces("11", 1, "to-hit.weapon-1", 0, 5)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 99), st.text(min_size=1, max_size=12),
       st.integers(0, 3), st.integers(1, 40), st.sampled_from([2, 3, 6, 8, 10, 20, 72]))
def test_dice_follow_the_documented_scheme(seed: int, attack: int, qid: str, roll_number: int,
                                           count: int, sides: int) -> None:
    dice = KeyedDice(seed, attack=attack)
    for _ in range(roll_number):
        dice.stream(qid)  # the earlier rolls of the same question
    stream = dice.stream(qid)
    faces = [stream.roll_die(sides) for _ in range(count)]
    assert faces == _documented_faces(str(seed), attack, qid, roll_number, count, sides)


def test_faces_are_uniform_chi_squared_over_60000_faces() -> None:
    dice = KeyedDice("chi-squared")
    faces = Counter(f for q in range(1000)
                    for f in roll(DiceSpec(count=60), dice.stream(f"q{q}")).faces or ())
    assert sum(faces.values()) == 60_000
    expected = 10_000
    chi2 = sum((faces[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 20.52  # 5 degrees of freedom, p = 0.001


def test_a_question_rolls_the_same_dice_whatever_was_asked_before_it() -> None:
    spec = DiceSpec(count=4, target=4)
    alone = roll(spec, KeyedDice(7).stream("save.unit-2"))
    busy = KeyedDice(7)
    for other in ("to-hit.a", "to-hit.b", "save.unit-1"):
        roll(DiceSpec(count=9), busy.stream(other))
    assert roll(spec, busy.stream("save.unit-2")) == alone
    # another attack of a game, or another seed, rolls other dice
    assert roll(spec, KeyedDice(7, attack=2).stream("save.unit-2")) != alone
    assert roll(spec, KeyedDice(8).stream("save.unit-2")) != alone


def test_more_dice_for_the_same_question_keep_the_first_dice() -> None:
    four = roll(DiceSpec(count=4), KeyedDice(3).stream("q"))
    six = roll(DiceSpec(count=6), KeyedDice(3).stream("q"))
    assert four.faces is not None and six.faces is not None
    assert six.faces[:4] == four.faces


# --- going back -----------------------------------------------------------------------------

def _two_questions(port: Any) -> tuple[int, Any]:
    shots = port.ask(NumberQuestion(id="shots", text=TEXT, minimum=1, maximum=20))
    got = port.ask(DiceQuestion(id="to-hit", text=TEXT, spec=DiceSpec(count=shots, target=4)))
    return shots, got


def test_back_from_a_dice_prompt_asks_the_question_before_it_again() -> None:
    asked: list[str] = []

    class Keys(SequencePort):
        def ask(self, question: Question) -> Any:
            asked.append(question.id)
            return super().ask(question)

    rewind = RewindPort(Keys(["3", "<", "5", "6 6 1 2 3"], KeyedDice(1)), KeyedDice(1))
    shots, got = rewind.resolve(_two_questions)
    assert (shots, got.faces) == (5, (6, 6, 1, 2, 3))
    assert asked == ["shots", "to-hit", "shots", "to-hit"]
    assert rewind.backs == 1


def test_back_at_the_first_question_says_so_and_asks_it_again() -> None:
    said: list[Msg] = []
    rewind = RewindPort(SequencePort(["<", "2", "5 6"], KeyedDice(1)), KeyedDice(1),
                        say=said.append)
    assert rewind.resolve(_two_questions)[0] == 2
    assert said == [Msg.of("back.at_first")]


def _roll_then_done(keys: list[str], seed: int) -> Any:
    """The roll to hit of an attack of two questions and a last yes/no, typed as ``keys``."""
    dice = KeyedDice(seed)
    rewind = RewindPort(SequencePort(keys, dice), dice)

    def attack(port: Any) -> Any:
        _, got = _two_questions(port)
        port.ask(ConfirmQuestion(id="done", text=TEXT))
        return got

    return rewind.resolve(attack)


def test_back_past_a_program_roll_and_forward_rolls_the_same_dice() -> None:
    # roll (Enter), back from the next question, Enter again at the roll
    got = _roll_then_done(["4", "", "<", "", "y"], 42)
    first = roll(DiceSpec(count=4, target=4), KeyedDice(42).stream("to-hit"))
    assert got == first and got.source is DiceSource.ROLLED


def test_the_same_answer_again_rolls_the_same_dice_unmarked() -> None:
    # roll, back twice to the shots, the same 4 shots, roll again
    got = _roll_then_done(["4", "", "<", "<", "4", "", "y"], 9)
    assert got.source is DiceSource.ROLLED
    assert got == roll(DiceSpec(count=4, target=4), KeyedDice(9).stream("to-hit"))


def test_a_changed_answer_that_changes_the_roll_keeps_its_first_dice_and_says_so() -> None:
    # 4 shots, roll, then back twice to the shots, 6 shots, roll again
    got = _roll_then_done(["4", "", "<", "<", "6", "", "y"], 42)
    before = roll(DiceSpec(count=4, target=4), KeyedDice(42).stream("to-hit"))
    assert got.faces[:4] == before.faces and len(got.faces) == 6
    assert got.source is DiceSource.RETAKEN
    assert got.to_script() == {"rolled": list(got.faces), "retaken": True}
    # a script that holds it replays it as it was shown
    q = DiceQuestion(id="to-hit", text=TEXT, spec=DiceSpec(count=6, target=4))
    assert q.accept(got.to_script()) == got


def test_typed_dice_and_answers_are_offered_again_after_going_back() -> None:
    dice = KeyedDice(1)
    offers: dict[str, Any] = {}

    class Watching(SequencePort):
        def ask(self, question: Question) -> Any:
            offers.setdefault(question.id, []).append(rewind.offered(question))
            return super().ask(question)

    rewind = RewindPort(Watching(["3", "5 6 1", "<", "<", "3", "5 6 1", "y"], dice), dice)

    def attack(port: Any) -> Any:
        _two_questions(port)
        return port.ask(ConfirmQuestion(id="done", text=TEXT))

    rewind.resolve(attack)
    assert offers["shots"] == [None, 3]
    typed = DiceRoll((5, 6, 1), 2, DiceSource.TYPED)
    assert offers["to-hit"] == [None, typed, typed]


def test_an_offer_that_no_longer_fits_the_question_is_not_made() -> None:
    rewind = RewindPort(SequencePort([], KeyedDice(1)), KeyedDice(1))
    rewind.previous["to-hit"] = DiceRoll((5, 6, 1), 2, DiceSource.TYPED)
    four = DiceQuestion(id="to-hit", text=TEXT, spec=DiceSpec(count=4, target=4))
    assert rewind.offered(four) is None  # three typed dice do not answer a roll of four
    rewind.previous["pick"] = "gone"
    pick = ChoiceQuestion(id="pick", text=TEXT, choices=(Choice("a", "A"),))
    assert rewind.offered(pick) is None


def test_going_back_steps_over_the_automatic_dice() -> None:
    dice = KeyedDice(5)
    keys = SequencePort(["3", "<", "2", "y"], dice)
    auto = AutoDicePort(keys, dice)
    rewind = RewindPort(auto, dice, answered_below=auto.answers_itself)

    def attack(port: Any) -> tuple[int, Any]:
        shots, got = _two_questions(port)
        port.ask(ConfirmQuestion(id="done", text=TEXT))
        return shots, got

    shots, got = rewind.resolve(attack)
    assert shots == 2 and len(got.faces) == 2
    assert [g.question_id for g in rewind.given] == ["shots", "to-hit", "done"]


def test_the_odds_of_a_roll_taken_back_are_dropped() -> None:
    from referee.frontends.odds import OddsPort

    dice = KeyedDice(2)
    odds = OddsPort(SequencePort(["3", "1 5 6", "<", "<", "2", "5 6", "y"], dice), show=None)
    rewind = RewindPort(odds, dice, checkpoints=[odds])

    def attack(port: Any) -> Any:
        _two_questions(port)
        return port.ask(ConfirmQuestion(id="done", text=TEXT))

    rewind.resolve(attack)
    # one roll stands (two dice, two hits): the roll of three dice taken back left no odds
    assert [(r.question, r.actual) for r in odds.rolls] == [("to-hit", 2)]


# --- the same result, going back or not (hypothesis) -------------------------------------------

CASES = ["epic-under-fire.toml", "epic-allocation.toml", "epic-barrage.toml", "cc-example-c-d.toml",
         "cc-moving-tie.toml", "fow-example-2.toml", "fow-mixed-assault.toml",
         "waw-example-2-mixed-stack.toml", "waw-example-5-smoke.toml",
         "lnlt-short-phase.toml", "lnlt-opposed-roll.toml"]


class Detours:
    """Answers as the script does, but at random questions first gives another legal answer
    and goes back to correct it, or goes back over several answers and gives them again."""

    def __init__(self, answers: dict[str, Any], dice: KeyedDice, data: Any,
                 use_defaults: bool) -> None:
        self.script = AnswerPort(answers, dice, use_defaults=use_defaults)
        self.data = data
        self.backs_due = 0
        self.asked = 0  # answers given in the current pass
        self.detours = 0
        self.pending = False  # a wrong answer waits to be taken back

    def ask(self, question: Question) -> Any:
        if self.backs_due:
            self.backs_due -= 1
            self.asked = max(0, self.asked - 1)
            raise GoBack
        if self.detours < 4 and self.data.draw(st.integers(0, 5), label="detour") == 0:
            self.detours += 1
            wrong = _another_answer(question, self.script)
            if wrong is not None and not self.pending:
                self.pending = True
                self.backs_due = 1
                return wrong
            if self.asked:
                self.backs_due = self.data.draw(st.integers(1, min(3, self.asked)),
                                                label="backs") - 1
                raise GoBack
        self.pending = False
        self.asked += 1
        return self.script.ask(question)


def _another_answer(question: Question, script: AnswerPort) -> Any:
    """A legal answer other than the script's, for the questions where one is easy to name."""
    if isinstance(question, DiceQuestion | MultiChoiceQuestion | TextQuestion):
        return None
    right = script.answers.get(question.id, question.default)
    right = question.accept(value_from_label(question, right)) if right is not None else None
    if isinstance(question, ChoiceQuestion):
        return next((c.value for c in question.choices if c.value != right), None)
    if isinstance(question, ConfirmQuestion):
        return not right
    if isinstance(question, NumberQuestion):
        low = question.minimum if question.minimum is not None else 0
        return low if right != low else low + 1
    return None


def _result_json(plan: api.AttackPlan, port: Any) -> dict[str, Any]:
    return api.play(plan, port).to_json()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.data())
def test_going_back_at_random_gives_the_result_of_the_same_answers_given_straight(
        name: str, data: Any) -> None:
    script = load_script(SCRIPTS / name)
    plan, port = api.plan_script(SCRIPTS / name, auto_dice=True)
    straight = _result_json(plan, port)
    plan, _ = api.plan_script(SCRIPTS / name, auto_dice=True)
    answers = dict(script.answers)
    detours = Detours(answers, plan.dice, data, script.use_defaults)
    detours.script.roll_missing_dice = True
    rewind = RewindPort(detours, plan.dice)
    try:
        went_back = _result_json(plan, rewind)
    except RefereeError:
        return  # a wrong answer the rules refuse ends the attack before it is taken back
    if detours.backs_due or detours.pending:
        return  # the attack ended on the wrong answer, before it could be taken back
    assert went_back == straight


# --- resuming a record ----------------------------------------------------------------------

class StopAt:
    """Answers from a script until the ``n``-th question, where the player presses Ctrl-C."""

    def __init__(self, inner: Any, n: int) -> None:
        self.inner, self.n, self.count = inner, n, 0

    def ask(self, question: Question) -> Any:
        self.count += 1
        if self.count == self.n:
            raise KeyboardInterrupt
        return self.inner.ask(question)


@pytest.mark.parametrize("name", ["epic-under-fire.toml", "cc-example-c-d.toml",
                                  "fow-example-2.toml", "waw-example-2-mixed-stack.toml"])
def test_an_interrupted_record_resumes_to_the_result_of_an_uninterrupted_attack(
        name: str, tmp_path: Path) -> None:
    script = load_script(SCRIPTS / name)
    plan, port = api.plan_script(SCRIPTS / name, auto_dice=True)
    whole = api.play(plan, port).to_json()
    total = len(script.answers)
    for stop in range(1, total + 1):
        record = tmp_path / f"rec-{stop}.toml"
        plan, port = api.plan_script(SCRIPTS / name, auto_dice=True)
        with pytest.raises(KeyboardInterrupt):
            api.play(plan, StopAt(port, stop), record=record)
        kept = tomllib.loads(record.read_text(encoding="utf-8"))
        assert len(kept["answers"]) == stop - 1  # every answer given before Ctrl-C
        resumed, given = api.plan_resume(script.ruleset, record)
        assert resumed.seed == plan.seed
        rest = AnswerPort({k: v for k, v in script.answers.items() if k not in dict(given)},
                          resumed.dice, use_defaults=script.use_defaults,
                          roll_missing_dice=True)
        assert api.play(resumed, rest, resume=given).to_json() == whole


def test_a_record_is_rewritten_after_every_answer(tmp_path: Path) -> None:
    record = tmp_path / "live.toml"
    seen: list[int] = []
    plan, port = api.plan_script(SCRIPTS / "epic-under-fire.toml", auto_dice=True)

    class Peek:
        def ask(self, question: Question) -> Any:
            seen.append(len(tomllib.loads(record.read_text(encoding="utf-8"))["answers"]))
            return port.ask(question)

    api.play(plan, Peek(), record=record)
    assert seen == list(range(len(seen)))
    assert not [p for p in tmp_path.iterdir() if p.name != "live.toml"]  # no temporary left


def test_a_record_from_another_version_is_asked_from_where_it_stops_fitting() -> None:
    dice = KeyedDice(1)
    said: list[Msg] = []
    rewind = RewindPort(SequencePort(["1 5 6"], dice), dice, say=said.append)
    rewind.preload([("shots", 3), ("to-hit.old-id", [1, 2, 3])])
    shots, got = rewind.resolve(_two_questions)
    assert shots == 3 and got.successes == 2
    assert said == [Msg.of("back.record_stale", question="to-hit.old-id", count=1)]


def test_settle_dice_rolls_the_questions_own_dice() -> None:
    q = DiceQuestion(id="x", text=TEXT, spec=DiceSpec(count=3))
    assert settle_dice(q, "roll", KeyedDice(4)) == roll(q.spec, KeyedDice(4).stream("x"))


# --- the command line ------------------------------------------------------------------------

def _cli(args: list[str], answers: list[str]) -> tuple[int, str]:
    stream = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=stream, stderr=stream,
                      port_factory=lambda dice: SequencePort(answers, dice, shown=True))
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
    return result.exit_code, stream.getvalue() + result.output


TO_HIT = ["Only the roll to hit", "1", "4", "5+", "none", "Double", "No", "5 6 2 1"]


def test_cli_resume_continues_an_interrupted_record(tmp_path: Path) -> None:
    record = tmp_path / "rec.toml"
    code, out = _cli(["attack", "epic", "--seed", "11", "--record", str(record)], TO_HIT[:4])
    assert code == 3  # the test's keys ran out: the answers so far are kept
    assert len(tomllib.loads(record.read_text(encoding="utf-8"))["answers"]) == 4
    code, out = _cli(["attack", "epic", "--resume", str(record)], TO_HIT[4:])
    assert code == 0, out
    assert "4 recorded answers replayed" in " ".join(out.split())  # (a long path wraps)
    assert "Outcome: 1 AP hit and 0 AT hits" in out
    assert "What is to be resolved" not in out  # replayed silently
    done = tomllib.loads(record.read_text(encoding="utf-8"))
    assert done["roll_missing_dice"] is True and len(done["answers"]) == 8


def test_cli_resume_takes_the_seed_and_options_from_the_record(tmp_path: Path) -> None:
    record = tmp_path / "rec.toml"
    _cli(["attack", "epic", "--seed", "11", "--record", str(record)], TO_HIT[:2])
    code, out = _cli(["attack", "epic", "--resume", str(record), "--seed", "3"], [])
    assert code == 2 and "leave out --seed" in out
    code, out = _cli(["attack", "cc", "--resume", str(record)], [])
    assert code == 3 and "expected a declaration for combat-commander" in out


def test_cli_refuses_a_record_destination_that_cannot_be_written_before_asking(
        tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.toml"
    loop.symlink_to(tmp_path / "loop.toml")  # a symlink to itself: a loop
    for bad in (fifo, tmp_path, tmp_path / "missing" / "rec.toml", loop):
        code, out = _cli(["attack", "epic", "--seed", "1", "--record", str(bad)], TO_HIT)
        assert code == 2, out
        assert "cannot write the recording" in out
        assert "?" not in out.split("cannot write")[0].splitlines()[-1]  # before any question


def test_cli_shows_the_outcome_when_the_record_fails_at_the_end(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    import referee.play.record as record_module

    record = tmp_path / "rec.toml"
    real = record_module.write_atomic
    calls = {"n": 0}

    def full_disk(path: Path, text: str) -> None:
        calls["n"] += 1
        if calls["n"] > 1:  # the check before the first question succeeds
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(record_module, "write_atomic", full_disk)
    code, out = _cli(["attack", "epic", "--seed", "11", "--record", str(record)], TO_HIT)
    assert code == 2
    assert "Outcome: 1 AP hit" in out
    assert out.index("Outcome:") < out.index("No space left on device")


def test_cli_back_in_a_transcript_style_answer_list(tmp_path: Path) -> None:
    answers = ["Only the roll to hit", "1", "5", "<", "4", "5+", "none", "Double", "No",
               "5 6 2 1"]
    code, out = _cli(["attack", "epic", "--seed", "11", "--working"], answers)
    assert code == 0, out
    assert "? Weapon 1: AP to-hit value?  <" in out
    assert "Outcome: 1 AP hit and 0 AT hits" in out
    assert "| 4     |" in out  # four shots, as corrected


# --- the odds at the table: brief by default ---------------------------------------------------

CC_GROUP = ["attack", "cc", "--declaration",
            "transcripts/scripts/declarations/cc-odds-group.toml", "--seed", "13"]


def test_the_table_shows_the_odds_in_brief_unless_asked_for_in_full() -> None:
    _, brief = _cli([*CC_GROUP, "--working"], ["", "", "", "", "", ""])
    _, full = _cli([*CC_GROUP, "--odds", "full", "--working"], ["", "", "", "", "", ""])
    _, none = _cli([*CC_GROUP, "--odds", "none", "--working"], ["", "", "", "", "", ""])
    first = brief.split("Odds: fire roll")[1].split("\n? ")[0]  # before the first roll
    states = first.split("How the attack may end:")[1].strip().splitlines()
    assert len(states) == 3 and "more (--odds full shows them all)" in states[-1]
    assert "chance  or more" not in brief and "chance  or more" in full
    assert "How the attack may end:" in full and "Odds:" not in none
    assert brief.split("Working")[1] == full.split("Working")[1] == none.split("Working")[1]


# --- the what-if at the moment of choice ------------------------------------------------------

def test_a_whatif_choice_shows_each_options_end_states_from_the_answers_so_far() -> None:
    from referee.frontends.whatif import WhatIf

    plan = api.plan_attack("epic", seed=1, declaration=load_script(
        SCRIPTS / "epic-crossfire.toml").declaration)
    shown: list[list[str]] = []
    walked: list[dict[str, Any]] = []

    def walk(answers: Any) -> Any:
        walked.append(dict(answers))
        return api.probe(plan.info, plan.options, plan.declaration, answers, seed=plan.seed)

    whatif = WhatIf(walk, shown.append)
    cover = ConfirmQuestion(id="cover.ap", text=TEXT, whatif=True)
    whatif(cover, [("action", "advance")])
    assert walked == [{"action": "advance", "cover.ap": True},
                      {"action": "advance", "cover.ap": False}]
    lines = shown[0]
    assert lines[0].strip() == "How the attack may end with each answer (Green Platoon (invented)):"
    options: list[str] = []  # an option's line, with the lines it folds onto
    for line in lines[1:]:
        if line.startswith("     "):
            options[-1] += " " + line.strip()
        else:
            options.append(line.strip())
    yes, no = options
    assert all(len(line) <= 80 for line in lines)
    assert yes.startswith("Yes: ") and no.startswith("No: ")
    assert yes.split(": ", 1)[1] != no.split(": ", 1)[1]  # the answer changes the end
    assert len(yes.split(" · ")) <= 3
    # a question not marked is asked as it is, with nothing walked
    whatif(ConfirmQuestion(id="cover.ap", text=TEXT), [("action", "advance")])
    assert len(shown) == 1 and len(walked) == 2


def test_a_whatif_is_shown_at_the_table_before_the_choice(tmp_path: Path) -> None:
    from referee.script import Script, dump_script

    declaration = tmp_path / "crossfire.toml"
    declaration.write_text(dump_script(Script(
        path=str(declaration), ruleset="epic",
        declaration=load_script(SCRIPTS / "epic-crossfire.toml").declaration)), "utf-8")
    args = ["attack", "epic", "--declaration", str(declaration), "--seed", "1"]
    _, out = _cli(args, ["Advance", "Yes"])  # the keys end at the roll: enough here
    before, _, after = out.partition("? AP:")
    assert "How the attack may end with each answer (Green Platoon" in before
    assert "    Yes: " in before and "    No: " in before
    assert "with each answer" not in after
    _, quiet = _cli([*args, "--no-odds"], ["Advance", "Yes"])
    assert "with each answer" not in quiet


def test_a_whatif_leaves_out_an_option_the_walk_cannot_follow_and_a_choice_that_changes_nothing(
        ) -> None:
    from fractions import Fraction

    from referee.core.errors import UsageError
    from referee.frontends.whatif import WhatIf
    from referee.odds.report import EndState, Kind

    def run(chance: str) -> Any:
        state = EndState(Msg.of("epic.q.weapons"), Fraction(chance), Kind.CHANCE)
        report = type("Report", (), {"end_states": (state,)})()
        return type("Run", (), {"rolls": [type("RollOdds", (), {"report": report})()]})()

    def walk(answers: Any) -> Any:
        if answers["pick"] == "c":
            raise UsageError(Msg.of("odds.error.no_dice_either"))  # needs the player
        return run({"a": "1/2", "b": "1/3"}[answers["pick"]])

    pick = ChoiceQuestion(id="pick", text=TEXT, whatif=True,
                          choices=(Choice("a", "A"), Choice("b", "B"), Choice("c", "C")))
    lines = WhatIf(walk, print).lines(pick, [])
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["A", "B"]
    same = WhatIf(lambda answers: run("1/2"), print).lines(pick, [])
    assert same == []


def test_the_lnlt_phase_shows_a_whatif_at_a_marked_choice(tmp_path: Path) -> None:
    roster = tmp_path / "two.toml"
    roster.write_text(
        'sides = ["Grey", "Red"]\ninitiative = "Grey"\nadjacent = { C4 = ["D4"] }\n'
        + "".join(f'[[units]]\nid = "{i}"\nname = "{n}"\nside = "{s}"\nhex = "{h}"\n'
                  f'kind = "mmc"\nifp = {f}\nmorale = {m}\n'
                  for i, n, s, h, f, m in (("able", "Able squad", "Grey", "C4", 1, 6),
                                           ("baker", "Baker squad", "Grey", "C4", 3, 5),
                                           ("pawn", "Pawn squad", "Red", "D4", 1, 5))),
        encoding="utf-8")
    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=out, port_factory=lambda d:
                      AnswerPort({"i1.do": "fire:C4"}, d, use_defaults=True,
                                 roll_missing_dice=True))
    CliRunner().invoke(app, ["phase", "lnlt", "--roster", str(roster), "--game",
                             str(tmp_path / "g.sqlite"), "--impulses", "1", "--seed", "3"],
                       obj=env, catch_exceptions=False)
    shown = out.getvalue()
    before, _, _ = shown.partition("? Which unit leads the fire")
    assert "How the attack may end with each answer" in before.split("Who fires")[-1]
