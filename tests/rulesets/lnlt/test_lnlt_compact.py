"""Lock 'n Load Tactical at the table in few questions (issue 14): "Fire from C4" activates
the hex and fires at once; what the roster and the rules already fix is not asked (the only
unit that may fire, the only target hex, the roster's terrain), and the working says what was
inferred, with the clause; the DRM and TM come in one line, both dice of the opposed roll in
one answer. The "Activate" path asks as before, so scripts written before replay."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalog import render
from referee.core.dice import DiceRoll, DiceSource, DiceSpec
from referee.core.errors import AnswerError, ScriptError
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.rulesets.lnlt.combat import target_facts
from referee.rulesets.lnlt.line import Mods, ModsQuestion
from referee.rulesets.lnlt.odds import attack_odds, opposed_odds
from referee.rulesets.lnlt.roster import Unit
from tests.support.lnlt import asked, leader, refusal, roster, run, step_texts, unit

MAP = {"C4": ["D4"]}
PASSES = {"i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}


def one_on_one(**extra: Any) -> dict[str, Any]:
    """The benchmark's reference: one Grey squad in C4, one Red half-squad in D4."""
    return roster(unit("able", "G", "C4", ifp=2, morale=6),
                  unit("pawn", "R", "D4", ifp=1, morale=5), adjacent=MAP, **extra)


COMPACT = {"i1.do": "fire:C4", "i1.fire.C4.mods": "0 0", "i1.fire.C4.opposed": [5, 1],
           "i1.fire.C4.dc.pawn": [5], "i1.fire.C4.result.pawn": "shaken", **PASSES}
LONG = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "fire:C4",
        "i1.fire.C4.with": ["able"], "i1.fire.C4.target": "D4", "i1.fire.C4.drm": 0,
        "i1.fire.C4.tm": 0, "i1.fire.C4.attack": [5], "i1.fire.C4.defence": [1],
        "i1.fire.C4.dc.pawn": [5], "i1.fire.C4.result.pawn": "shaken", **PASSES}


@pytest.mark.clause("L-3")
def test_L3_L5_fire_from_a_hex_asks_only_what_the_roster_cannot_tell() -> None:
    ids = asked(one_on_one(), COMPACT)
    assert ids[:5] == ["i1.do", "i1.fire.C4.mods", "i1.fire.C4.opposed",
                       "i1.fire.C4.dc.pawn", "i1.fire.C4.result.pawn"]
    texts = step_texts(run(one_on_one(), COMPACT))
    assert "[L-3] Fire from C4 chosen: C4 is the activated hex, declared before anything " \
           "is done" in texts
    assert "[L-5] able fires: the only unit or weapon of C4 that may fire " \
           "(not asked)" in texts
    assert "[L-5] Fire at D4 (pawn): the only hex this fire may take as its target " \
           "(not asked)" in texts


def test_the_fire_from_a_hex_and_the_long_path_end_the_same() -> None:
    a, b = run(one_on_one(), COMPACT), run(one_on_one(), LONG)
    assert a.state_updates == b.state_updates
    rolls = [(s.clause, dict(s.data)) for s in a.steps if s.kind.value == "roll"]
    assert rolls == [(s.clause, dict(s.data)) for s in b.steps if s.kind.value == "roll"]
    assert a.tables[1:] == b.tables[1:]  # the activation table aside, the same working


@settings(max_examples=40, deadline=None)
@given(ifp=st.integers(0, 6), lm=st.integers(0, 2), drm=st.integers(-2, 3),
       tm=st.integers(-1, 3), a=st.integers(1, 6), d=st.integers(1, 6),
       dc=st.integers(1, 6), hero=st.integers(1, 6))
def test_the_compact_and_the_long_answers_give_the_same_fire(ifp: int, lm: int, drm: int,
                                                             tm: int, a: int, d: int, dc: int,
                                                             hero: int) -> None:
    """The DRM and TM in one line and both opposed dice in one answer give the same totals,
    checks and results as one question each (a leader in the target hex helps, L-5)."""
    decl = roster(unit("able", "G", "C4", ifp=ifp), unit("rook", "R", "D4", ifp=1),
                  leader("sgt", "R", "D4", lm=lm) if lm else unit("r2", "R", "D4"),
                  adjacent=MAP)
    red = ["sgt", "rook"] if lm else ["rook", "r2"]
    tail: dict[str, Any] = {}
    for uid in red:
        tail |= {f"dc.{uid}": [dc], f"result.{uid}": "no-effect", f"hero.{uid}": [hero],
                 f"hero.{uid}.ifp": 1}
    compact = {"i1.do": "fire:C4", "i1.fire.C4.mods": f"{drm} {tm}",
               "i1.fire.C4.opposed": [a, d], **PASSES}
    long = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "fire:C4",
            "i1.fire.C4.with": ["able"], "i1.fire.C4.target": "D4", "i1.fire.C4.drm": drm,
            "i1.fire.C4.tm": tm, "i1.fire.C4.attack": [a], "i1.fire.C4.defence": [d],
            **PASSES}
    from referee import api
    from referee.frontends.answers import AnswerPort

    results = []
    for answers in (compact, long):
        full = answers | {f"i1.fire.C4.{k}": v for k, v in tail.items()}
        plan = api.plan_attack("lnlt", seed=1, declaration=decl)
        port = AnswerPort(full, plan.dice, roll_missing_dice=True)
        results.append(api.play(plan, _Lenient(port)))
    a_res, b_res = results
    assert a_res.state_updates == b_res.state_updates
    assert [dict(s.data) for s in a_res.steps if s.kind.value == "roll"] == \
        [dict(s.data) for s in b_res.steps if s.kind.value == "roll"]


class _Lenient:
    """An answer port that does not mind answers no question asked for (the hero and
    damage-check answers of a fire that may have no effect)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def ask(self, question: Any) -> Any:
        return self.inner.ask(question)


def test_two_enemy_hexes_or_two_firers_are_asked() -> None:
    decl = roster(unit("able", "G", "C4", ifp=2,
                       sws=[{"id": "mg", "name": "MG", "kind": "mg", "fp": 2}]),
                  unit("pawn", "R", "D4", ifp=1), unit("rook", "R", "E4", ifp=1),
                  adjacent=MAP)
    ids = asked(decl, {"i1.do": "fire:C4", "i1.fire.C4.with": ["able", "able.mg"],
                       "i1.fire.C4.target": "E4", "i1.fire.C4.mods": "0 0",
                       "i1.fire.C4.opposed": [1, 6], **PASSES})
    assert ids[:4] == ["i1.do", "i1.fire.C4.with", "i1.fire.C4.target", "i1.fire.C4.mods"]


@pytest.mark.clause("L-5")
def test_L5_the_rosters_terrain_gives_the_tm_and_only_the_drm_is_asked() -> None:
    decl = one_on_one(terrain={"D4": 2})
    answers = {"i1.do": "fire:C4", "i1.fire.C4.drm": 1, "i1.fire.C4.opposed": [4, 3],
               "i1.fire.C4.dc.pawn": [2], "i1.fire.C4.result.pawn": "no-effect", **PASSES}
    ids = asked(decl, answers)
    assert ids[:3] == ["i1.do", "i1.fire.C4.drm", "i1.fire.C4.opposed"]
    result = run(decl, answers)
    assert "[L-5] Terrain modifier of D4: +2, from the roster's terrain (not asked)" in \
        step_texts(result)
    opposed = next(s for s in result.steps if s.kind.value == "roll")
    assert (opposed.data["attack"], opposed.data["defence"]) == (4 + 2 + 1, 3 + 2)
    # the long path reads the roster's terrain too
    long = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "fire:C4",
            "i1.fire.C4.with": ["able"], "i1.fire.C4.target": "D4", "i1.fire.C4.drm": 1,
            "i1.fire.C4.attack": [4], "i1.fire.C4.defence": [3], "i1.fire.C4.dc.pawn": [2],
            "i1.fire.C4.result.pawn": "no-effect", **PASSES}
    assert "i1.fire.C4.tm" not in asked(decl, long)


@pytest.mark.clause("L-3")
def test_L3_fire_from_a_leaders_hex_still_declares_his_reach_first() -> None:
    decl = roster(leader("lt", "G", "C4"), unit("able", "G", "C4", ifp=2),
                  unit("baker", "G", "C5", ifp=2), unit("pawn", "R", "D4", ifp=1),
                  adjacent={"C4": ["C5", "D4"]})
    ids = asked(decl, {"i1.do": "fire:C4", "i1.reach": [],
                       "i1.fire.C4.with": ["lt", "able"], "i1.fire.C4.mods": "0 0",
                       "i1.fire.C4.opposed": [1, 6], **PASSES})
    assert ids[:3] == ["i1.do", "i1.reach", "i1.fire.C4.with"]


@pytest.mark.clause("L-8")
@pytest.mark.parametrize(("state", "clause", "why"), [
    ({"markers": ["fired"]}, "L-8", "marked"),
    ({"markers": ["ops-complete"]}, "L-8", "marked"),  # L-11: Ops Complete may not act
    ({"status": "shaken"}, "L-5", "Shaken"),
])
def test_L8_L5_fire_from_a_marked_or_shaken_hex_is_refused_with_the_rule(
        state: dict[str, Any], clause: str, why: str) -> None:
    decl = roster(unit("able", "G", "C4", ifp=2, **state), unit("baker", "G", "C5", ifp=2),
                  unit("pawn", "R", "D4"), adjacent=MAP)
    with pytest.raises(ScriptError) as err:
        run(decl, {"i1.do": "fire:C4"})
    msg = refusal(err.value)
    assert msg.kwargs["clause"] == clause and why in render(msg)


# --- the one-line modifiers and the opposed roll ---------------------------------------------

MODS = ModsQuestion(id="mods", text=Msg.of("lnlt.q.mods", hex="D4"), default_value="0 0")


def test_the_modifiers_line_reads_the_drm_then_the_tm() -> None:
    assert MODS.accept("+1 2") == Mods(1, 2) == MODS.accept("1, 2")
    assert MODS.accept("") == Mods(0, 0)
    assert MODS.accept([-1, 3]) == Mods(-1, 3)  # a script's list
    assert MODS.format(Mods(1, -1)) == "+1 -1"
    assert MODS.accept(MODS.format(Mods(-2, 4))) == Mods(-2, 4)


@pytest.mark.parametrize(("line", "en", "ru"), [
    ("x 1", "'x': the DRM is a whole number from -10 to +10",
     "«x»: DRM — целое число от -10 до +10"),
    ("0 11", "'11': the terrain modifier is a whole number from -5 to +10",
     "«11»: модификатор местности — целое число от -5 до +10"),
    ("1", "'1': type the DRM and then the terrain modifier",
     "«1»: введите DRM, а затем модификатор местности"),
    ("0 1 2", "'2': only the DRM and the terrain modifier",
     "«2»: только DRM и модификатор местности"),
])
def test_a_wrong_modifiers_line_is_refused_naming_the_part(line: str, en: str,
                                                           ru: str) -> None:
    with pytest.raises(AnswerError) as err:
        MODS.accept(line)
    assert en in render(err.value.msg, "en") and ru in render(err.value.msg, "ru")


@pytest.mark.clause("L-5")
def test_L5_the_opposed_rolls_odds_are_the_attack_dies_end_states() -> None:
    """One answer for both dice changes nothing in how the fire may end: the chances are the
    attack die's, and the margin's distribution is the attack total minus the defence's."""
    targets = target_facts([Unit(id="pawn", side="R", hex="D4", kind="mmc", morale=5)], None)
    q = DiceQuestion(id="x", text=Msg.of("lnlt.q.opposed", firing="a", hex="D4"),
                     spec=DiceSpec(count=2))
    both = opposed_odds(q, firing="a", hex="D4", fp=2, lm=0, drm=0, tm=1, af=0,
                        targets=targets)
    one = attack_odds(q, firing="a", hex="D4", fp=2, lm=0, drm=0, tm=1, af=0,
                      targets=targets)
    assert list(both.end_states) == list(one.end_states)
    assert both.dist.at_least(1) == Fraction(21, 36)  # d6 + 2 above d6 + 1
    assert both.measure(DiceRoll((5, 1), 0, DiceSource.TYPED)) == 5 + 2 - 1 - 1


# --- the phase a game file holds, before the first question ----------------------------------

@pytest.mark.clause("L-1")
def test_L1_L8_the_state_view_says_whose_impulse_and_which_units_are_marked() -> None:
    from referee.rulesets.lnlt.view import state_view

    decl = one_on_one(max_impulses=1)
    result = run(decl, {k: v for k, v in COMPACT.items() if not k.startswith("i2")
                        and not k.startswith("i3") and not k.startswith("i4")})
    title, units = state_view({"phase": result.state_updates["phase"]})
    rows = {render(r[0]): render(r[1]) for r in title.rows}
    assert rows["Now"] == "impulse 2, R to play" and rows["Passes in a row"] == "0"
    assert [(r[0], r[3], render(r[4])) for r in units.rows] == [
        ("able", (Msg.of("lnlt.marker.fired"),), "Good Order"), ("pawn", "-", "Shaken")]
    ended = run(one_on_one(), COMPACT)
    title, _ = state_view({"phase": ended.state_updates["phase"]})
    assert render(dict((render(r[0]), r[1]) for r in title.rows)["Now"]) == \
        "over after impulse 4: three consecutive passes"
    assert state_view({}) == ()


def test_resuming_a_phase_shows_it_before_the_first_question(tmp_path: Any) -> None:
    import io

    from typer.testing import CliRunner

    from referee.cli import app
    from referee.context import Environment
    from referee.frontends.answers import SequencePort
    from tests.support import ROOT

    game = tmp_path / "g.sqlite"
    roster_file = ROOT / "benchmarks" / "questions" / "lnlt-fire.toml"

    def invoke(args: list[str], answers: list[str]) -> str:
        out = io.StringIO()
        env = Environment(stdin=io.StringIO(), stdout=out, stderr=out, stdin_isatty=False,
                          stdout_isatty=False, color=False,
                          port_factory=lambda rng: SequencePort(answers, rng))
        result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
        assert result.exit_code == 0, out.getvalue() + result.output
        return out.getvalue() + result.output

    first = invoke(["phase", "lnlt", "--game", str(game), "--roster", str(roster_file),
                    "--impulses", "1", "--seed", "1"], ["fire:C4", "0 0", "5 1", "5", ""])
    assert "The phase in the game file" not in first  # a new phase: nothing kept yet
    later = invoke(["phase", "lnlt", "--game", str(game), "--impulses", "1", "--seed", "1",
                    "--working"], ["pass"])
    shown = later.index("The phase in the game file")
    assert shown < later.index("Working")
    assert "impulse 2, Red to play" in later
    assert "Able squad" in later[shown:later.index("Working")]


def test_a_script_taking_the_defaults_gets_the_modifiers_line_as_a_value() -> None:
    """``use_defaults``: the modifiers' default (Enter: 0 0) is a value, as every question's."""
    from referee import api
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("lnlt", seed=1, declaration=one_on_one())
    port = AnswerPort({"i1.do": "fire:C4", "i1.fire.C4.opposed": [5, 1],
                       "i1.fire.C4.dc.pawn": [2], **PASSES}, plan.dice, use_defaults=True)
    result = api.play(plan, port)
    opposed = next(s for s in result.steps if s.kind.value == "roll")
    assert (opposed.data["attack"], opposed.data["defence"]) == (7, 1)


def test_attack_with_a_roster_file_plays_the_phase_from_it(tmp_path: Any) -> None:
    """``referee attack lnlt --roster FILE``: the declaration is the roster alone."""
    import io

    from typer.testing import CliRunner

    from referee.cli import app
    from referee.context import Environment
    from referee.frontends.answers import SequencePort
    from tests.support import ROOT

    def invoke(roster_path: str, answers: list[str]) -> tuple[int, str]:
        out = io.StringIO()
        env = Environment(stdin=io.StringIO(), stdout=out, stderr=out, stdin_isatty=False,
                          stdout_isatty=False, color=False,
                          port_factory=lambda rng: SequencePort(answers, rng))
        result = CliRunner().invoke(app, ["attack", "lnlt", "--roster", roster_path,
                                          "--seed", "1"], obj=env, catch_exceptions=False)
        return result.exit_code, out.getvalue() + result.output

    code, out = invoke(str(ROOT / "transcripts" / "rosters" / "lnlt-two-hexes.toml"),
                       ["fire:C4", "0 0", "5 1", "3", "", "pass", "pass", "pass"])
    assert code == 0, out
    assert "three consecutive passes" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('sides = ["G", "R"]\nunits = []\n', encoding="utf-8")
    code, out = invoke(str(bad), [])
    assert code != 0 and "bad.toml" in out and "units" in out


@pytest.mark.clause("L-12")
def test_L12_op_fire_in_an_activation_begun_by_fire_is_asked_in_the_compact_form() -> None:
    """Able fires from C4, Baker moves out of it into C5; Red's only unit Op Fires at C5:
    its firer is not asked, its modifiers come in one line, its dice in one answer."""
    decl = roster(unit("able", "G", "C4", ifp=2), unit("baker", "G", "C4", ifp=2),
                  unit("pawn", "R", "D4", ifp=1), adjacent={"C4": ["C5", "D4"]})
    answers = {"i1.do": "fire:C4", "i1.fire.C4.with": ["able"], "i1.fire.C4.mods": "0 0",
               "i1.fire.C4.opposed": [1, 6], "i1.act.2": "move:C4",
               "i1.move.C4.units": ["baker"], "i1.move.C4.type": "moved", "i1.move.C4.to": "C5",
               "i1.opfire.2.1": "D4", "i1.opfire.2.1.mods": "0 0",
               "i1.opfire.2.1.opposed": [1, 6]}  # then every unit has acted: the phase ends
    ids = asked(decl, answers)
    assert ids[ids.index("i1.opfire.2.1"):ids.index("i1.opfire.2.1") + 3] == [
        "i1.opfire.2.1", "i1.opfire.2.1.mods", "i1.opfire.2.1.opposed"]
    assert any("[L-5] pawn fires: the only unit or weapon of D4" in t
               for t in step_texts(run(decl, answers)))
