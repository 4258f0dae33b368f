"""Odds of the Lock 'n Load Tactical fire dice (issue 8): the attack, defence, damage-check
and hero dice, with the end states of the fire.

Exact results are checked against an independent enumeration of every die of the fire
(itertools.product over the faces, the rules written out plainly), and against a seeded
simulation of the resolver itself; percentiles after a roll are read from the same totals the
resolver logs; ``--no-odds`` never loads the odds code."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee import api
from referee.catalog import render
from referee.cli import app
from referee.context import Environment
from referee.core.dice import DiceRoll, DiceSource, DiceSpec
from referee.core.questions import ChoiceQuestion, DiceQuestion, NumberQuestion, Question
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort, SequencePort
from referee.frontends.odds import OddsPort
from referee.odds.report import Kind, OddsReport
from referee.rulesets.lnlt.combat import LeaderHelp, resolve_fire, target_facts
from referee.rulesets.lnlt.firepower import FpBuild
from referee.rulesets.lnlt.odds import attack_odds, dc_odds, defence_odds, hero_odds
from referee.rulesets.lnlt.roster import DamageTable, Unit
from tests.support import ROOT
from tests.support.lnlt import leader, roster, unit

ROSTER = str(ROOT / "transcripts" / "rosters" / "lnlt-crossroads.toml")
SCRIPT = ROOT / "transcripts" / "scripts" / "lnlt-odds-fire.toml"
REMOVES = ("eliminated", "destroyed")
LEG = ("no-effect", "shaken", "reduced", "wounded", "eliminated")
VEH = ("no-effect", "shaken", "damaged", "destroyed")


# -- an independent model of the fire: every die enumerated ---------------------------------
def _read(bands: list[tuple[int, str]], value: int) -> str:
    best: tuple[int, str] | None = None
    for at_least, result in bands:
        if at_least <= value and (best is None or at_least > best[0]):
            best = (at_least, result)
    return best[1] if best else "no-effect"


def enumerate_fire(units: list[Unit], table: DamageTable | None, *, shift: int,
                   defence_shift: int) -> dict[str, Fraction]:
    """Chances by enumeration: 'hit', '<id>:<result>' (None when asked: '<id>:?'),
    '<id>:hero'. Leaders first (best LM first); a leader in Good Order after his own check
    takes his LM off the later leg units' checks."""
    order = sorted([u for u in units if u.leader], key=lambda u: -u.lm)
    order += [u for u in units if not u.leader]
    out: Counter[str] = Counter({"hit": 0})
    n = len(order)
    cases = 6 ** (2 + n) * 2  # every count is doubled, so that a hero counts 1 (half)
    for faces in product(range(1, 7), repeat=2 + n):
        a, d, dcs = faces[0], faces[1], faces[2:]
        margin = (a + shift) - (d + defence_shift)
        if margin <= 0:
            continue
        out["hit"] += 2
        help_lm, help_unknown = 0, False
        for u, c in zip(order, dcs, strict=True):
            leg = u.kind != "vehicle"
            minus = help_lm if leg else 0
            total = c + margin - minus
            result: str | None = None
            if table is not None and not (leg and help_unknown):
                result = table.read(u, total)
            out[f"{u.id}:{result if result else '?'}"] += 2
            if u.kind == "mmc" and c == 1:  # then the hero die: even, half the time
                out[f"{u.id}:hero"] += 1
            go_before = u.status == "good-order"
            if u.leader and go_before and u.lm > help_lm and result is None:
                help_unknown = True  # does he stay in Good Order? the players' chart
            elif u.leader and go_before and result == "no-effect" and u.lm > help_lm:
                help_lm = u.lm
    return {k: Fraction(v, cases) for k, v in out.items()}


def _ends(report: OddsReport) -> dict[str, Fraction]:
    return {render(e.label): e.value for e in report.end_states}


def _q(qid: str = "x") -> DiceQuestion:
    return DiceQuestion(id=qid, text=Msg.of("lnlt.q.attack_die", firing="x"), spec=DiceSpec(1))


def _label(key: str, units: dict[str, Unit], hex_: str = "T") -> str:
    if key == "hit":
        return render(Msg.of("lnlt.odds.end.hit", hex=hex_))
    uid, what = key.split(":")
    if what == "hero":
        return render(Msg.of("lnlt.odds.end.hero", unit=units[uid].label))
    return render(Msg.of("lnlt.odds.end.result", unit=units[uid].label,
                         result=Msg.of(f"lnlt.result.{what}")))


def _check_against_enumeration(units: list[Unit], table: DamageTable | None, fp: int,
                               lm: int, drm: int, tm: int, af: int) -> OddsReport:
    from referee.rulesets.lnlt.combat import damage_order

    facts = target_facts(damage_order(units), table)
    report = attack_odds(_q(), firing="F", hex="T", fp=fp, lm=lm, drm=drm, tm=tm, af=af,
                         targets=facts)
    want = enumerate_fire(units, table, shift=fp + lm + drm, defence_shift=tm + af)
    got = _ends(report)
    by_id = {u.id: u for u in units}
    unknown = {k.split(":")[0] for k in want if k.endswith(":?")}
    shown = set()
    for key, p in want.items():
        uid, what = key.split(":") if ":" in key else (key, "")
        if what in ("?", "no-effect") or (uid in unknown and what != "hero"):
            continue
        assert got[_label(key, by_id)] == p, key
        shown.add(_label(key, by_id))
    # every chance the odds show is one the enumeration found (nothing extra, nothing unknown)
    removed = [e for e in report.end_states if e.kind is Kind.EXPECTED]
    assert {render(e.label) for e in report.end_states if e.kind is Kind.CHANCE} <= shown
    if unknown:
        assert not removed and report.notes
    elif units:
        assert removed[0].value == sum((p for k, p in want.items()
                                        if k.split(":")[-1] in REMOVES), Fraction(0))
    assert sum(p for _, p in report.dist.items()) == 1
    return report


def _units_strategy() -> st.SearchStrategy[list[Unit]]:
    def build(specs: list[tuple[str, int, str, int | None]]) -> list[Unit]:
        out = []
        for i, (kind, lm, status, morale) in enumerate(specs):
            extra: dict[str, Any] = {}
            if kind == "leader":
                extra = {"kind": "smc", "leader": True, "lm": lm}
            elif kind == "vehicle":
                extra = {"kind": "vehicle", "armor": 1}
            else:
                extra = {"kind": kind}
            out.append(Unit(id=f"u{i}", side="R", hex="T", status=status, morale=morale,
                            **extra))
        return out

    spec = st.tuples(st.sampled_from(["leader", "mmc", "smc", "vehicle"]),
                     st.integers(1, 3), st.sampled_from(["good-order", "good-order", "shaken"]),
                     st.one_of(st.none(), st.integers(3, 7)))
    return st.lists(spec, min_size=1, max_size=3).map(build)


def _tables() -> st.SearchStrategy[DamageTable | None]:
    band = st.tuples(st.integers(3, 14), st.sampled_from(LEG[1:]))
    vband = st.tuples(st.integers(3, 14), st.sampled_from(VEH[1:]))

    def build(compare: str, leg: list[tuple[int, str]], veh: list[tuple[int, str]]
              ) -> DamageTable:
        return DamageTable(source="test", compare=compare,  # type: ignore[arg-type]
                           leg=[{"at_least": a - (5 if compare == "over-morale" else 0),
                                 "result": r} for a, r in leg],  # type: ignore[misc]
                           vehicle=[{"at_least": a, "result": r}  # type: ignore[misc]
                                    for a, r in veh])

    return st.one_of(st.none(), st.builds(build, st.sampled_from(["total", "over-morale"]),
                                          st.lists(band, min_size=1, max_size=3),
                                          st.lists(vband, max_size=2)))


# -- exact against enumeration --------------------------------------------------------------
@pytest.mark.clause("L-5")
@settings(max_examples=25, deadline=None)
@given(units=_units_strategy(), table=_tables(), fp=st.integers(0, 8), lm=st.integers(0, 2),
       drm=st.integers(-2, 2), tm=st.integers(0, 3), af=st.integers(0, 2))
def test_L5_fire_end_states_match_an_enumeration_of_every_die(
        units: list[Unit], table: DamageTable | None, fp: int, lm: int, drm: int, tm: int,
        af: int) -> None:
    _check_against_enumeration(units, table, fp, lm, drm, tm, af)


def _ex7() -> tuple[list[Unit], DamageTable]:
    """Worked example 7 (brief section 5): Red's GO leader (LM 1) and a squad in the target
    hex; a stand-in table (the real one is the players')."""
    units = [Unit(id="rl", name="Sgt. Red", side="R", hex="T", kind="smc", leader=True, lm=1),
             Unit(id="rook", name="Rook squad", side="R", hex="T", kind="mmc")]
    table = DamageTable(source="stand-in", leg=[{"at_least": 9, "result": "shaken"},  # type: ignore[list-item]
                                                {"at_least": 12, "result": "eliminated"}])  # type: ignore[list-item]
    return units, table


@pytest.mark.clause("L-5")
def test_L5_worked_example_7_odds_by_hand() -> None:
    """FP 6 + LM 1 against TM 2: the attack is above the defence unless the attack die is 1
    and the defence die 6 (35/36). With the attack 11 against defence 5 (dice 4 and 3), each
    check is d6 + 6; Rook squad's is d6 + 5 when Sgt. Red stays in Good Order (dice 1-2 on
    his check: totals 7-8, below the stand-in chart's 9)."""
    units, table = _ex7()
    report = _check_against_enumeration(units, table, 6, 1, 0, 2, 0)
    ends = _ends(report)
    assert ends["attack above defence: damage checks in T"] == Fraction(35, 36)
    facts = target_facts(units, table)
    d = defence_odds(_q(), hex="T", attack=11, tm=2, af=0, targets=facts)
    assert d.dist.outcomes() == (3, 4, 5, 6, 7, 8)
    dc = dc_odds(_q(), diff=6, minus=0, helper=0, targets=facts)
    assert dc.dist.outcomes() == (7, 8, 9, 10, 11, 12)
    ends = _ends(dc)
    assert ends["Sgt. Red: Shaken"] == Fraction(1, 2)
    assert ends["Sgt. Red: eliminated"] == Fraction(1, 6)
    # Rook: with help (1/3) d6 + 5 reads 9-11 on 4, 5, 6; without (2/3) d6 + 6: 9-11, and 12
    assert ends["Rook squad: Shaken"] == Fraction(1, 3) * Fraction(1, 2) + \
        Fraction(2, 3) * Fraction(1, 2)
    assert ends["Rook squad: eliminated"] == Fraction(2, 3) * Fraction(1, 6)
    assert ends["Rook squad: natural 1, then a Hero"] == Fraction(1, 12)
    rook = dc_odds(_q(), diff=6, minus=1, helper=1, targets=facts[1:])
    assert rook.dist.outcomes() == (6, 7, 8, 9, 10, 11)  # the brief: d6 + 6 - 1
    # attack 5 against defence 5: no effect, never a check (brief example 7)
    none = defence_odds(_q(), hex="T", attack=5, tm=4, af=0, targets=facts)
    assert _ends(none)["attack above defence: damage checks in T"] == 0


@pytest.mark.clause("L-5")
def test_L5_results_asked_at_the_table_are_not_known_and_say_so() -> None:
    units, _ = _ex7()
    report = _check_against_enumeration(units, None, 6, 1, 0, 2, 0)
    assert [render(e.label) for e in report.end_states] == [
        "attack above defence: damage checks in T", "Rook squad: natural 1, then a Hero"]
    assert "Sgt. Red, Rook squad" in render(report.notes[0])
    # a table for the squad only (over-morale, and the leader has no morale): the squad's
    # checks hang on the leader's asked result
    table = DamageTable(source="x", compare="over-morale",
                        leg=[{"at_least": 1, "result": "shaken"}])  # type: ignore[list-item]
    units[1] = units[1].model_copy(update={"morale": 6})
    report = _check_against_enumeration(units, table, 6, 1, 0, 2, 0)
    notes = [render(n) for n in report.notes]
    assert any("Sgt. Red" in n and "morale" in n and "--dct" not in n for n in notes)
    assert any("Rook squad" in n and "leader" in n for n in notes)


def test_hero_die_is_even_or_not() -> None:
    report = hero_odds(_q(), unit="Rook")
    assert report.dist[1] == report.dist[0] == Fraction(1, 2)
    for face in range(1, 7):
        assert report.measure(DiceRoll((face,), 0, DiceSource.TYPED)) == (face % 2 == 0)


@settings(max_examples=60, deadline=None)
@given(shift=st.integers(-10, 20), face=st.integers(1, 6), units=_units_strategy(),
       table=_tables())
def test_every_distribution_sums_to_one_and_the_percentile_reads_the_total(
        shift: int, face: int, units: list[Unit], table: DamageTable | None) -> None:
    facts = target_facts(units, table)
    roll = DiceRoll((face,), 0, DiceSource.TYPED)
    reports = [attack_odds(_q(), firing="F", hex="T", fp=max(shift, 0), lm=0,
                           drm=min(shift, 0), tm=0, af=0, targets=facts),
               defence_odds(_q(), hex="T", attack=shift, tm=1, af=0, targets=facts),
               dc_odds(_q(), diff=max(shift, 1), minus=1, helper=1, targets=facts)]
    for report in reports:
        assert sum(p for _, p in report.dist.items()) == 1
        assert report.dist[report.measure(roll)] == Fraction(1, 6)
        for e in report.end_states:
            assert 0 <= e.value <= (len(units) if e.kind is Kind.EXPECTED else 1)
    # no unit's results add up to more than the chance the hex is hit
    a = reports[0]
    hit = _ends(a)["attack above defence: damage checks in T"]
    for u in units:
        shown = [e.value for e in a.end_states
                 if render(e.label).startswith(f"{u.label}: ") and "Hero" not in
                 render(e.label)]
        assert sum(shown, Fraction(0)) <= hit


# -- against the resolver itself ------------------------------------------------------------
class RollingPort:
    """Rolls every die from ``rng``; numbers from ``numbers`` (by question id), else, as
    choices, at their defaults."""

    def __init__(self, rng: random.Random, numbers: dict[str, int]) -> None:
        self.rng = rng
        self.numbers = numbers

    def ask(self, question: Question) -> Any:
        if isinstance(question, DiceQuestion):
            return DiceRoll((self.rng.randint(1, 6),), 0, DiceSource.ROLLED)
        if question.id in self.numbers:
            return self.numbers[question.id]
        if isinstance(question, (NumberQuestion, ChoiceQuestion)):
            return question.default_value
        raise AssertionError(question)


@pytest.mark.clause("L-5")
def test_L5_odds_agree_with_a_seeded_simulation_of_the_resolver() -> None:
    """2,000 fires through ``resolve_fire`` itself: each result's frequency lies within 3
    standard deviations of its exact chance (attack FP 3 + LM 1 at TM 2: a closer fight)."""
    units, table = _ex7()
    units.append(Unit(id="v", name="Tank", side="R", hex="T", kind="vehicle", armor=1))
    table = table.model_copy(update={"vehicle": DamageTable.model_validate(
        {"source": "x", "leg": [{"at_least": 1, "result": "shaken"}],
         "vehicle": [{"at_least": 5, "result": "damaged"},
                     {"at_least": 8, "result": "destroyed"}]}).vehicle})
    from referee.rulesets.lnlt.combat import damage_order

    facts = target_facts(damage_order(units), table)
    report = attack_odds(_q(), firing="F", hex="T", fp=3, lm=1, drm=0, tm=2, af=1,
                         targets=facts)
    runs = 2000
    rng = random.Random(8)
    seen: Counter[str] = Counter()
    build = FpBuild((), 0, 3, ())
    for _ in range(runs):
        fresh = [u.model_copy() for u in units]
        out = resolve_fire(RollingPort(rng, {"f.tm": 2}), StepLog(), "f", firing="F",
                           target_hex="T", build=build, help=LeaderHelp(1, "L"),
                           targets=fresh, table=table, clause="L-5")
        seen["hit"] += out.effect
        for uid, result in out.results.items():
            seen[f"{uid}:{result}"] += 1
    by_id = {u.id: u for u in units}
    ends = _ends(report)
    checked = 0
    for key in ["hit", *(f"{u.id}:{r}" for u in units for r in (*LEG[1:], *VEH[1:]))]:
        label = _label(key, by_id)
        p = float(ends.get(label, 0))
        sd = (p * (1 - p) / runs) ** 0.5
        assert abs(seen[key] / runs - p) <= 3 * sd + 1e-9, (key, seen[key] / runs, p)
        checked += p > 0
    assert checked >= 6


@pytest.mark.clause("L-5")
def test_L5_odds_records_read_the_totals_the_resolver_logs() -> None:
    """Through the odds port: each die's measured outcome is the total the working shows."""
    decl = roster(leader("lt", "G", "H1"), unit("a", "G", "H1", ifp=4),
                  leader("rl", "R", "H3"), unit("rs", "R", "H3", ifp=3))
    answers = {"i1.do": "activate", "i1.hex": "H1", "i1.act.1": "fire:H1",
               "i1.fire.H1.with": ["lt", "a"], "i1.fire.H1.target": "H3",
               "i1.fire.H1.drm": 1, "i1.fire.H1.tm": 2, "i1.fire.H1.attack": [4],
               "i1.fire.H1.defence": [2], "i1.fire.H1.dc.rl": [2],
               "i1.fire.H1.result.rl": "no-effect", "i1.fire.H1.dc.rs": [1],
               "i1.fire.H1.result.rs": "shaken", "i1.fire.H1.hero.rs": [3],
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    plan = api.plan_attack("lnlt", seed=1, declaration=decl)
    port = OddsPort(AnswerPort(answers, plan.dice), show=None)
    result = api.play(plan, port)
    actual = {r.question: r.actual for r in port.rolls}
    rolls = [s.data for s in result.steps if s.kind.value == "roll"]
    assert actual["i1.fire.H1.attack"] == rolls[0]["attack"] == 4 + 4 + 1 + 1
    assert actual["i1.fire.H1.defence"] == rolls[0]["defence"] == 2 + 2
    assert actual["i1.fire.H1.dc.rl"] == rolls[1]["total"] == 2 + 6
    assert actual["i1.fire.H1.dc.rs"] == rolls[2]["total"] == 1 + 6 - 1  # Lt. helps
    assert actual["i1.fire.H1.hero.rs"] == 0
    titles = {r.question: render(r.report.title) for r in port.rolls}
    assert titles["i1.fire.H1.dc.rs"].endswith("- LM 1 of rl")  # whose LM helps
    assert titles["i1.fire.H1.dc.rl"].endswith("- LM 0")  # not his own
    for record in port.rolls:
        pct = record.percentile
        assert pct is not None and record.actual is not None
        assert pct == 100 * (record.report.dist.at_most(record.actual)
                             - record.report.dist[record.actual] / 2)


# -- the commands ---------------------------------------------------------------------------
def test_referee_odds_walks_the_phase_to_the_first_die_and_the_whatif_compares() -> None:
    run = api.odds("lnlt", script=SCRIPT)
    assert run.stopped_at == "i1.fire.C4.attack"
    ends = _ends(run.rolls[0].report)
    assert ends["attack above defence: damage checks in F4"] == Fraction(35, 36)
    without_mg = api.odds("lnlt", script=SCRIPT, answers=["i1.fire.C4.with=ash,able"])
    hit = _ends(without_mg.rolls[0].report)["attack above defence: damage checks in F4"]
    assert hit == Fraction(30, 36)  # FP 4 + LM 1 against TM 2: fails when a - d <= -3
    on = api.odds("lnlt", script=SCRIPT, answers=["i1.fire.C4.attack=4"])
    assert [r.question for r in on.rolls] == ["i1.fire.C4.attack", "i1.fire.C4.defence"]


def _invoke(args: list[str], answers: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=False,
                      stdout_isatty=False, color=False,
                      port_factory=lambda rng: SequencePort(answers, rng))
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


FIRE = ["activate", "C4", "", "fire:C4", "able", "D4", "0", "1", "4", "2", "3", "shaken",
        "done"]


def test_phase_shows_odds_before_each_die_and_no_odds_turns_them_off(tmp_path: Path) -> None:
    # a game file each: a game keeps the Damage Check result entered (issue 27), so that a
    # phase restarted in the same game would not ask it again
    games = iter(tmp_path / f"g{n}" for n in range(4))
    args = ["phase", "lnlt", "--roster", ROSTER, "--impulses", "1", "--seed", "1"]
    code, out, err = _invoke([*args, "--game", str(next(games))], FIRE)
    assert code == 0, err
    assert "Odds: attack of Able squad" in out and "→ attack total: 6" in out
    assert out.index("Odds: defence of D4") < out.index("→ defence total: 3")
    code, out, err = _invoke([*args, "--game", str(next(games)), "--no-odds"], FIRE)
    assert code == 0, err
    assert "Odds" not in out and "percentile" not in out
    code, out, err = _invoke([*args, "--game", str(next(games)), "--json"], FIRE)
    data = json.loads(out)
    odds = data["impulses"][0]["odds"]
    assert [o["question"] for o in odds] == ["i1.fire.C4.attack", "i1.fire.C4.defence",
                                             "i1.fire.C4.dc.pawn"]
    assert odds[0]["actual"]["value"] == 6  # die 4 + IFP 2
    code, out, err = _invoke([*args, "--game", str(next(games)), "--json", "--no-odds"], FIRE)
    assert "odds" not in json.loads(out)["impulses"][0]


PROBE = """
import io, sys
from referee.cli import app
from referee.context import Environment
from referee.frontends.answers import SequencePort
answers = {answers!r}
env = Environment(stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO(),
                  stdin_isatty=False, stdout_isatty=False, color=False,
                  port_factory=lambda rng: SequencePort(answers, rng))
try:
    app(sys.argv[1:], obj=env, standalone_mode=False)
except SystemExit:
    pass
print("ODDS:" + ",".join(sorted(m for m in sys.modules
                                if m.startswith(("referee.odds", "referee.rulesets.lnlt.odds",
                                                 "dyce")))))
"""


@pytest.mark.parametrize("no_odds", [True, False])
def test_no_odds_never_imports_the_odds_code(tmp_path: Path, no_odds: bool) -> None:
    argv = ["phase", "lnlt", "--game", str(tmp_path / "g"), "--roster", ROSTER, "--impulses",
            "1", "--seed", "1", *(["--no-odds"] if no_odds else [])]
    probe = PROBE.format(answers=FIRE)
    proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = proc.stdout.strip().splitlines()[-1]
    assert (loaded == "ODDS:") is no_odds, loaded
    script = str(ROOT / "transcripts" / "scripts" / "lnlt-opposed-roll.toml")
    proc = subprocess.run([sys.executable, "-c", PROBE.format(answers=[]), "run", script,
                           *(["--no-odds"] if no_odds else [])],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    loaded = proc.stdout.strip().splitlines()[-1]
    assert (loaded == "ODDS:") is no_odds, loaded


# -- every report against an exhaustive walk of the resolver --------------------------------
class _Frontier(Exception):
    """The walk reached a die it has no face for: branch on it."""


class _ReplayPort:
    """Answers the dice from ``faces`` in order (raising at the first one past them), the
    numbers from ``numbers``, each asked result with ``asked``; keeps every dice question."""

    def __init__(self, faces: tuple[int, ...], numbers: dict[str, int], asked: str) -> None:
        self.faces, self.numbers, self.asked = list(faces), numbers, asked
        self.questions: list[DiceQuestion] = []

    def ask(self, question: Question) -> Any:
        if isinstance(question, DiceQuestion):
            if not self.faces:
                raise _Frontier
            self.questions.append(question)
            return DiceRoll((self.faces.pop(0),), 0, DiceSource.TYPED)
        if isinstance(question, NumberQuestion):
            return self.numbers.get(question.id.rsplit(".", 1)[-1], question.default_value)
        if isinstance(question, ChoiceQuestion):
            return self.asked
        raise AssertionError(question)


def _walk_resolver(units: list[Unit], table: DamageTable | None, *, fp: int, lm: int,
                   numbers: dict[str, int], start: tuple[int, ...] = (), asked: str = "no-effect"
                   ) -> list[str]:
    """Every dice path of ``resolve_fire`` from the faces ``start``, each weighted 6^-dice;
    at every die asked on the way, each end state its odds show is compared with the
    frequency of that outcome among the paths through that point. Returns the mismatches."""
    by_label = {u.label: u.id for u in units}
    results = {render(Msg.of(f"lnlt.result.{r}")): r for r in (*LEG[1:], *VEH[1:])}
    mass: Counter[tuple[int, ...]] = Counter()
    seen: dict[tuple[int, ...], Counter[str]] = {}
    asked_at: dict[tuple[int, ...], DiceQuestion] = {}
    stack = [start]
    while stack:
        faces = stack.pop()
        port = _ReplayPort(faces, numbers, asked)
        try:
            out = resolve_fire(port, StepLog(), "f", firing="F", target_hex="T",
                               build=FpBuild((), 0, fp, ()), help=LeaderHelp(lm, "L"),
                               targets=[u.model_copy() for u in units], table=table,
                               clause="L-5")
        except _Frontier:
            stack.extend((*faces, f) for f in range(1, 7))
            continue
        keys = ({"hit"} if out.effect else set()) | {f"{u}:{r}" for u, r in out.results.items()}
        keys |= {f"{q.id.rsplit('.', 1)[-1]}:hero"
                 for q, f in zip(port.questions, faces, strict=True)
                 if ".hero." in q.id and f % 2 == 0}
        removed = sum(1 for r in out.results.values() if r in REMOVES)
        weight = 6 ** (2 + 2 * len(units) - len(faces))  # at most 2 dice a unit, + 2
        for i, q in enumerate(port.questions[len(start):], len(start)):
            node = faces[:i]
            asked_at[node] = q
            mass[node] += weight
            counts = seen.setdefault(node, Counter())
            for key in keys:
                counts[key] += weight
            counts["removed"] += weight * removed
    bad = []
    for node, q in asked_at.items():
        assert q.odds is not None
        report = q.odds.compute(q)
        for e in report.end_states:
            label = render(e.label)
            if e.kind is Kind.EXPECTED:
                key = "removed"
            elif label.startswith("attack above defence"):
                key = "hit"
            else:
                name, _, what = label.partition(": ")
                key = f"{by_label[name]}:{'hero' if 'Hero' in what else results[what]}"
            want = Fraction(seen[node][key], mass[node])
            if e.value != want:
                bad.append(f"{q.id} after {node}: {label} shows {e.value}, the walk {want}")
    assert asked_at, "the walk asked no dice"
    return bad


_TABLE = {"source": "x", "leg": [{"at_least": 6, "result": "shaken"},
                                 {"at_least": 8, "result": "wounded"},
                                 {"at_least": 10, "result": "eliminated"}],
          "vehicle": [{"at_least": 7, "result": "damaged"}, {"at_least": 9, "result": "destroyed"}]}


@pytest.mark.clause("L-5")
def test_L5_every_report_of_a_fire_matches_an_exhaustive_walk_of_the_resolver() -> None:
    """Leader LM 1 and a squad, FP 2 + LM 1 against TM 1: every dice path of
    ``resolve_fire`` (attack, defence, both checks, the hero die), and at every die the
    chance of each shown end state, given the dice before it, against the walk."""
    units = [Unit(id="a", name="Sgt", side="R", hex="T", kind="smc", leader=True, lm=1),
             Unit(id="m", name="Sq", side="R", hex="T", kind="mmc")]
    table = DamageTable.model_validate(_TABLE)
    assert _walk_resolver(units, table, fp=2, lm=1, numbers={"tm": 1}) == []


@pytest.mark.clause("L-5")
def test_L5_leader_help_between_checks_matches_the_resolver_at_every_check() -> None:
    """Two leaders (LM 2, then LM 1), a squad and a tank, attack 6 against defence 4 (margin
    2): the LM 2 leader helps everyone after him while he keeps Good Order, else the LM 1
    leader helps the squad if he does; each damage check's odds, given the checks before
    it, against every path of the resolver. Also with a table the tank is not in, with no
    table at all, and with an over-morale table the leaders have no morale for (results
    asked: a chance shown must not depend on the answers given)."""
    units = [Unit(id="b", name="Lt", side="R", hex="T", kind="smc", leader=True, lm=1),
             Unit(id="m", name="Sq", side="R", hex="T", kind="mmc"),
             Unit(id="a", name="Capt", side="R", hex="T", kind="smc", leader=True, lm=2),
             Unit(id="v", name="Tank", side="R", hex="T", kind="vehicle", armor=0)]
    table = DamageTable.model_validate(_TABLE)
    legs_only = DamageTable.model_validate({**_TABLE, "vehicle": []})
    no_tank = units[:3]
    # over morale, and only the squad has a morale: the leaders' results are asked
    over = DamageTable.model_validate({"source": "x", "compare": "over-morale",
                                       "leg": [{"at_least": 1, "result": "shaken"},
                                               {"at_least": 3, "result": "eliminated"}]})
    morale = [units[0], units[1].model_copy(update={"morale": 4}), units[2]]
    for stack, t, asked in ((units, table, "no-effect"), (units, legs_only, "no-effect"),
                            (no_tank, None, "no-effect"), (no_tank, None, "shaken"),
                            (morale, over, "no-effect"), (morale, over, "shaken")):
        bad = _walk_resolver(stack, t, fp=3, lm=0, numbers={}, start=(3, 4), asked=asked)
        assert bad == [], bad[:3]


@pytest.mark.clause("L-5")
def test_L5_what_is_not_known_says_why() -> None:
    """A result the odds cannot know is named with its reason: no table at all (and where a
    table goes, for every command), no rows for a vehicle, no morale for an over-morale
    table, or a later check hanging on such a leader's result."""
    units = [Unit(id="a", name="Sgt", side="R", hex="T", kind="smc", leader=True, lm=1),
             Unit(id="m", name="Sq", side="R", hex="T", kind="mmc", morale=5),
             Unit(id="v", name="Tank", side="R", hex="T", kind="vehicle", armor=1)]

    def notes(table: DamageTable | None) -> list[str]:
        report = attack_odds(_q(), firing="F", hex="T", fp=3, lm=0, drm=0, tm=0, af=1,
                             targets=target_facts(units, table))
        return [render(n) for n in report.notes]

    none = notes(None)
    assert len(none) == 1 and "Sgt, Sq, Tank" in none[0]
    assert "--dct FILE" in none[0] and "damage_table" in none[0]
    over = DamageTable.model_validate({"source": "s", "compare": "over-morale",
                                       "leg": [{"at_least": 1, "result": "shaken"}]})
    got = notes(over)
    assert len(got) == 3 and not any("--dct" in n for n in got), got
    assert "Tank" in got[0] and "vehicle rows" in got[0]
    assert "Sgt" in got[1] and "morale" in got[1]
    assert "Sq" in got[2] and "leader" in got[2]


@pytest.mark.clause("L-5")
def test_L5_two_targets_of_one_name_read_apart() -> None:
    """Two '2-5-4 squad' counters of different morale in the hex: each one's chances are
    its own, under a label that names it (a what-if pairs end states by label)."""
    units = [Unit(id=f"r{m}", name="2-5-4 squad", side="R", hex="T", kind="mmc", morale=m)
             for m in (5, 6)]
    table = DamageTable.model_validate({"source": "s", "compare": "over-morale", "leg": [
        {"at_least": 1, "result": "shaken"}, {"at_least": 4, "result": "eliminated"}]})
    report = attack_odds(_q(), firing="F", hex="T", fp=4, lm=0, drm=0, tm=1, af=0,
                         targets=target_facts(units, table))
    ends = _ends(report)
    assert len(ends) == len(report.end_states)
    want = enumerate_fire(units, table, shift=4, defence_shift=1)
    for uid in ("r5", "r6"):
        for result in ("shaken", "eliminated"):
            assert ends[f"2-5-4 squad ({uid}): {render(Msg.of(f'lnlt.result.{result}'))}"] \
                == want[f"{uid}:{result}"]
    assert want["r5:eliminated"] != want["r6:eliminated"]
    run = api.odds("lnlt", script=SCRIPT)  # a unique name keeps its plain label
    assert "Sgt. Red: Shaken" in _ends(run.rolls[0].report)


@pytest.mark.clause("L-5")
def test_L5_a_phase_with_the_stand_in_table_agrees_with_a_seeded_simulation() -> None:
    """The transcript's fire (Lt. Ash, Able squad and its MG at Pawn half-squad, TM +1) with
    the stand-in table of ``--dct``, played 2,000 times through the whole phase with the dice
    rolled: the chances shown at the attack die (11/12, Shaken 77/216, eliminated 3/8, a Hero
    11/144) within 3 standard deviations of the frequencies."""
    import tomllib

    decl = tomllib.loads(Path(ROSTER).read_text())
    decl["damage_table"] = tomllib.loads(
        (ROOT / "transcripts" / "rosters" / "lnlt-stand-in-dct.toml").read_text())
    answers = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "fire:C4",
               "i1.fire.C4.with": ["ash", "able", "able.mg"], "i1.fire.C4.target": "D4",
               "i1.fire.C4.drm": 0, "i1.fire.C4.tm": 1}
    plan = api.plan_attack("lnlt", seed=1, declaration=decl)
    odds = OddsPort(AnswerPort(answers, plan.dice, roll_missing_dice=True, use_defaults=True),
                    show=None)
    api.play(plan, odds)
    shown = _ends(odds.rolls[0].report)
    runs, seen = 2000, Counter[str]()
    for seed in range(runs):
        plan = api.plan_attack("lnlt", seed=7000 + seed, declaration=decl)
        result = api.play(plan, AnswerPort(answers, plan.dice, roll_missing_dice=True,
                                           use_defaults=True))
        for step in result.steps:
            data = step.data or {}
            seen["hit"] += data.get("attack", 0) > data.get("defence", 99)
            seen[data.get("result", "-")] += data.get("unit") == "pawn"
            seen["hero"] += isinstance(step.text, Msg) and step.text.id == "lnlt.step.hero"
    want = {"hit": ("attack above defence: damage checks in D4", Fraction(11, 12)),
            "shaken": ("Pawn half-squad: Shaken", Fraction(77, 216)),
            "eliminated": ("Pawn half-squad: eliminated", Fraction(3, 8)),
            "hero": ("Pawn half-squad: natural 1, then a Hero", Fraction(11, 144))}
    for key, (label, p) in want.items():
        assert shown[label] == p, label
        sd = (float(p) * (1 - float(p)) / runs) ** 0.5
        assert abs(seen[key] / runs - float(p)) <= 3 * sd, (key, seen[key] / runs, p)
