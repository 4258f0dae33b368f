"""Odds of the Flames of War results step (F-7): each Top armour save's failed saves, and how
the assault ends (each team hit destroyed, the expected number destroyed).

Exact results are checked against an independent enumeration of every save die and firepower
die (itertools.product), and against the real resolver rolling its own dice many times."""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.core.dice import DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.frontends.odds import OddsPort
from referee.odds.report import EndState, Kind, OddsReport, RollOdds
from referee.rulesets.fow import odds as fow_odds
from tests.support import ROOT
from tests.support.fow import D, H, decl, run

SCRIPT = ROOT / "transcripts" / "scripts" / "fow-odds.toml"


def records(declaration: Mapping[str, Any], answers: Mapping[str, Any],
            options: Sequence[str] = ()) -> list[RollOdds]:
    """The odds of every save an attack rolls, with the given (or seeded) dice."""
    plan = api.plan_attack("fow", seed=1, options=options, declaration=declaration)
    port = OddsPort(AnswerPort({"results": "unverified", **answers}, plan.dice,
                               use_defaults=True, roll_missing_dice=True), show=None)
    api.play(plan, port)
    return port.rolls


def ends(report: OddsReport) -> dict[str, EndState]:
    """End states by message id and team (``destroyed:Rifle`` ...)."""
    out = {}
    for e in report.end_states:
        team = e.label.kwargs.get("team")
        out[e.label.id.rsplit(".", 1)[-1] + (f":{team}" if team else "")] = e
    return out


# -- an independent enumeration of the results step --------------------------------------

def enumerate_assault(teams: Sequence[tuple[str, str, int, int]], anti_tank: int,
                      firepower: int, first: str) -> dict[str, Any]:
    """Every face of every save die and of a firepower die behind each: for the save of
    ``first``, its failed saves and worst hit; for every team, how often it is destroyed."""
    dice = [(name, top) for name, kind, hits, top in teams if kind == "tank"
            for _ in range(hits)]
    n = len(dice)
    failed: Counter[int] = Counter()
    worst: Counter[str] = Counter()
    destroyed: Counter[str] = Counter()
    total = 0
    for faces in product(range(1, 7), repeat=2 * n):
        saves, tests = faces[:n], faces[n:]
        total += 1
        killed = {name for name, kind, _, _ in teams if kind != "tank"}
        mine = []
        for (name, top), face, test in zip(dice, saves, tests, strict=True):
            if face + top < anti_tank and test >= firepower:
                killed.add(name)
            if name == first:
                mine.append(face + top)
        failed[sum(1 for s in mine if s <= anti_tank)] += 1
        worst["penetrating" if any(s < anti_tank for s in mine) else
              "glancing" if any(s == anti_tank for s in mine) else "bounced"] += 1
        for name in killed:
            destroyed[name] += 1
    return {"failed": {k: Fraction(c, total) for k, c in failed.items()},
            "worst": {k: Fraction(c, total) for k, c in worst.items()},
            "destroyed": {name: Fraction(destroyed[name], total) for name, *_ in teams},
            "expected": Fraction(sum(destroyed.values()), total)}


SMALL = [
    # (teams: id, kind, hits, top), anti-tank, firepower
    ((("car", "tank", 2, 0), ("rifle", "infantry", 1, 0)), 2, 1),
    ((("car", "tank", 1, 0), ("light", "tank", 1, 1), ("rifle", "infantry", 1, 0)), 2, 1),
    ((("car", "tank", 2, 1), ("light", "tank", 1, 0)), 3, 4),
    ((("a", "tank", 1, 0), ("b", "tank", 1, 2), ("gun", "gun", 1, 0)), 4, 3),
    ((("heavy", "tank", 3, 3),), 5, 2),
]


@pytest.mark.clause("F-7")
@pytest.mark.parametrize("teams,anti_tank,firepower", SMALL)
def test_F7_save_odds_match_an_enumeration_of_every_die(
        teams: tuple[tuple[str, str, int, int], ...], anti_tank: int, firepower: int) -> None:
    defending = [D(t, kind, **({"top": top} if kind == "tank" else {}))
                 for t, kind, _, top in teams]
    hitting = [H(f"h{i}", hits, [t]) for i, (t, _, hits, _) in enumerate(teams)]
    first = next(t for t, kind, _, _ in teams if kind == "tank")
    # the allocation is forced (each hitter reaches one team); stop at the first save
    recs = records(decl(defending, hitting), {},
                   [f"assault-anti-tank={anti_tank}", f"assault-firepower={firepower}"])
    report = recs[0].report
    assert recs[0].question == f"save.{first}"
    truth = enumerate_assault(teams, anti_tank, firepower, first)
    assert dict(report.dist.items()) == truth["failed"]
    got = ends(report)
    name = first.upper()
    assert got[f"penetrating:{name}"].value == truth["worst"].get("penetrating", 0)
    assert got[f"glancing:{name}"].value == truth["worst"].get("glancing", 0)
    assert got[f"bounced:{name}"].value == truth["worst"].get("bounced", 0)
    for (team, kind, _, _), (_, p) in zip(teams, truth["destroyed"].items(), strict=True):
        # a vehicle's "destroyed" names its condition; a team with no save is plain destroyed
        key = "penetrated" if kind == "tank" else "destroyed"
        assert got[f"{key}:{team.upper()}"].value == p, team
    assert got["expected"].value == truth["expected"]
    assert got["expected"].kind is Kind.EXPECTED and all(e.exact for e in report.end_states)


@pytest.mark.clause("F-7")
def test_F7_the_script_what_if_numbers_by_hand() -> None:
    """Armoured car Top 0 against anti-tank 2: a 1 penetrates, a 2 glances (1/6 each)."""
    base = api.odds("fow", script=SCRIPT)
    other = api.odds("fow", script=SCRIPT, answers=["allocation=by-hit", "hit.4=car"])
    a, b = ends(base.rolls[0].report), ends(other.rolls[0].report)
    assert base.stopped_at == other.stopped_at == "save.car"
    assert a["penetrated:Armoured car"].value == Fraction(1, 6)
    assert b["penetrated:Armoured car"].value == 1 - Fraction(5, 6) ** 2 == Fraction(11, 36)
    assert a["penetrated:Light tank"].value == 0  # Top 1: a 1 only glances
    assert a["destroyed:Rifle team"].value == 1
    assert a["expected"].value == Fraction(7, 6) and b["expected"].value == Fraction(47, 36)
    assert b["glancing:Armoured car"].value == Fraction(25, 36) - Fraction(16, 36)


# -- the real resolver, rolling its own dice -----------------------------------------------

@pytest.mark.clause("F-7")
def test_F7_odds_agree_with_the_resolver_rolling_its_dice() -> None:
    """The real attack, its saves rolled from 3000 seeds: each frequency lies within three
    standard deviations of the exact odds shown before the first save."""
    declaration = decl([D("car", "tank", top=0), D("ht", "transport", top=0), D("rifle")],
                       [H("p", 3, ["car"]), H("q", 2, ["ht"]), H("r", 1, ["rifle"])])
    report = records(declaration, {})[0].report
    assert report.dist.outcomes() == (0, 1, 2, 3)
    got = ends(report)
    runs = 3000
    penetrated: Counter[str] = Counter()
    failed: Counter[int] = Counter()
    destroyed: list[int] = []
    for seed in range(runs):
        effects = run(declaration, {"results": "unverified"}, seed=seed
                      ).outcome_data["effects"]
        for team in ("car", "ht"):
            penetrated[team] += "penetrating" in effects[team]
        failed[sum(1 for e in effects["car"] if e != "bounced")] += 1
        # firepower 1+ always passes: a penetrating hit destroys
        destroyed.append(sum(1 for e in effects.values()
                             if "penetrating" in e or "destroyed" in e))
    checks = [(penetrated["car"], got["penetrated:CAR"].value),
              (penetrated["ht"], got["penetrated:HT"].value)]
    checks += [(failed[k], report.dist[k]) for k in range(4)]
    for count, p in checks:
        sd = math.sqrt(runs * float(p) * (1 - float(p)))
        assert abs(count - runs * float(p)) <= 3 * sd, (count, p)
    mean, spread = sum(destroyed) / runs, statistics.pstdev(destroyed)
    assert abs(mean - float(got["expected"].value)) <= 3 * spread / math.sqrt(runs)


@pytest.mark.clause("F-7")
def test_F7_percentile_after_the_roll_counts_the_failed_saves() -> None:
    declaration = decl([D("car", "tank", top=0), D("rifle")], [H("p", 3, ["car", "rifle"])])
    answers = {"allocation": "complete", "allocation.teams": ["car", "rifle", "car"],
               "save.car": [2, 5]}
    (rec,) = records(declaration, answers)
    assert rec.actual == 1  # 2 + 0 equals anti-tank 2: a glancing hit; 5 bounces
    assert rec.percentile == rec.report.dist.percentile(1) == 100 * (
        Fraction(4, 9) + Fraction(4, 9) / 2)


@pytest.mark.clause("F-7")
def test_F7_a_later_save_is_conditional_on_the_earlier_roll() -> None:
    declaration = decl([D("car", "tank", top=0), D("light", "tank", top=0), D("rifle")],
                       [H("p", 1, ["car"]), H("q", 1, ["light"]), H("r", 1, ["rifle"])])
    first, second = records(declaration, {"save.car": [1], "save.light": [4]},
                            ["assault-firepower=4"])
    assert ends(first.report)["penetrated:CAR"].value == Fraction(1, 6) * Fraction(1, 2)
    later = ends(second.report)
    assert later["penetrated:CAR"].value == Fraction(1, 2)  # penetrated: firepower 4+ to go
    assert later["penetrated:LIGHT"].value == Fraction(1, 12)
    assert later["expected"].value == Fraction(1, 2) + Fraction(1, 12) + 1
    _, bounced = records(declaration, {"save.car": [3], "save.light": [4]})
    assert ends(bounced.report)["penetrated:CAR"].value == 0


@pytest.mark.clause("F-7")
def test_F7_an_entered_result_still_to_come_is_not_computable() -> None:
    """An unarmoured vehicle's result is entered by the players: before it is entered the
    expected number destroyed is not given; after it, it is."""
    defending = [D("car", "tank", top=0), D("truck", "transport")]
    hitting = [H("p", 1, ["car"]), H("q", 1, ["truck"])]
    (rec,) = records(decl(defending, hitting), {"result.truck": "destroyed"})
    got = ends(rec.report)
    assert "expected" not in got and "destroyed:TRUCK" not in got
    assert Msg.of("fow.odds.note.not_computable", teams="TRUCK") in rec.report.notes
    (rec,) = records(decl(defending[::-1], hitting[::-1]), {"result.truck": "destroyed"})
    assert ends(rec.report)["expected"].value == 1 + Fraction(1, 6)


def test_entered_results_mode_rolls_no_dice() -> None:
    """Entering every result asks for no dice, so there are no odds to show."""
    declaration = decl([D("car", "tank", top=0)], [H("p", 1, ["car"])])
    plan = api.plan_attack("fow", seed=1, declaration=declaration)
    port = OddsPort(AnswerPort({"results": "enter"}, plan.dice, use_defaults=True), show=None)
    api.play(plan, port)
    assert port.rolls == []


# -- properties ------------------------------------------------------------------------------

teams_st = st.lists(st.tuples(st.sampled_from(["destroyed", "save", "entered"]),
                              st.integers(1, 6), st.integers(-2, 8)), max_size=4)


@pytest.mark.clause("F-7")
@settings(max_examples=150, deadline=None)
@given(dice=st.integers(1, 30), top=st.integers(-2, 9), anti_tank=st.integers(0, 12),
       firepower=st.integers(1, 7), later=teams_st,
       settled=st.lists(st.tuples(st.sampled_from(["destroyed", "not-destroyed", "saved"]),
                                  st.integers(0, 4)), max_size=3))
def test_F7_every_report_is_a_distribution(dice: int, top: int, anti_tank: int, firepower: int,
                                           later: list[tuple[str, int, int]],
                                           settled: list[tuple[str, int]]) -> None:
    question = DiceQuestion(id="save.x", spec=DiceSpec(count=dice), text=Msg.of("x"))
    report = fow_odds.save(question, team="X", top=top, anti_tank=anti_tank,
                           firepower=firepower,
                           settled=[(f"S{i}", how, n) for i, (how, n) in enumerate(settled)],
                           later=[(f"L{i}", how, n, t) for i, (how, n, t) in enumerate(later)])
    assert sum(p for _, p in report.dist.items()) == 1
    assert report.dist.low >= 0 and report.dist.high <= dice
    got = ends(report)
    worst = [got[f"{k}:X"].value for k in ("penetrating", "glancing", "bounced")]
    assert sum(worst) == 1 and all(0 <= p <= 1 for p in worst)
    chances = [e.value for e in report.end_states if e.kind is Kind.CHANCE]
    assert all(0 <= p <= 1 for p in chances)
    destroyed = [e.value for k, e in got.items() if k.startswith(("destroyed:", "penetrated:"))]
    if any(how == "entered" for how, _, _ in later):
        assert "expected" not in got
    else:
        assert got["expected"].value == sum(destroyed)


# -- odds are loaded only when shown ---------------------------------------------------------

NO_ODDS_PROBE = """
import sys
from referee.cli import app
from referee.context import Environment
try:
    app(sys.argv[1:], obj=Environment.from_system(), standalone_mode=False)
except SystemExit:
    pass
print("LOADED:" + ",".join(sorted(m for m in sys.modules
                                  if m in ("dyce", "referee.rulesets.fow.odds")
                                  or m.startswith("referee.odds"))))
"""


@pytest.mark.parametrize("flags,loaded", [(["--no-odds"], False), ([], True)])
def test_an_assault_with_no_odds_never_imports_the_odds(flags: list[str], loaded: bool
                                                        ) -> None:
    proc = subprocess.run([sys.executable, "-c", NO_ODDS_PROBE, "run", str(SCRIPT),
                           "--dice", "auto", "--seed", "3", *flags],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marker = proc.stdout.strip().splitlines()[-1]
    assert ("referee.rulesets.fow.odds" in marker) is loaded, marker
    if not loaded:
        assert marker == "LOADED:"


def test_the_declaration_file_declares_the_scripts_assault() -> None:
    from referee.script import load_script

    alone = ROOT / "transcripts" / "scripts" / "declarations" / "fow-odds.toml"
    assert load_script(alone).declaration == load_script(SCRIPT).declaration


@pytest.mark.clause("F-1")
def test_F1_the_defenders_choice_as_a_json_what_if() -> None:
    """The defender's fourth hit on the armoured car instead of the rifle team (F-1): the
    what-if in JSON gives both variants' exact end states side by side."""
    import json

    argv = ["--lang", "en", "odds", "fow", "--script", str(SCRIPT),
            "--vs", "allocation=by-hit", "--vs", "hit.4=car", "--json"]
    proc = subprocess.run([sys.executable, "-m", "referee", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)

    def destroyed(variant: str) -> dict[str, str]:
        return {e["label"]["text"]: e["value"]["fraction"]
                for e in out[variant]["odds"][0]["end_states"]}

    a, b = destroyed("a"), destroyed("b")
    car = "Armoured car destroyed (penetrating, firepower passed)"
    assert (a[car], b[car]) == ("1/6", "11/36")
    expected = "teams destroyed in this assault (expected)"
    assert (a[expected], b[expected]) == ("7/6", "47/36")
    rows = {r[0]: r[1:] for r in out["compare"][0]["rows_text"]}
    assert rows[car] == ["16.7%", "30.6%", "+13.9"]
    (values,) = [r for r in out["compare"][0]["rows"]
                 if r["what"].get("label", {}).get("text") == car]
    assert values["diff"]["fraction"] == "5/36"  # 11/36 - 1/6


@pytest.mark.clause("F-7")
def test_F7_teams_of_the_same_name_keep_their_own_odds() -> None:
    """Two tanks named alike (a platoon of one model): each end state is one team's, so the
    what-if, which matches rows by label, does not show one tank's chance for the other."""
    declaration = decl([{"id": "k1", "name": "Panzer", "type": "tank", "top": 1},
                        {"id": "k2", "name": "Panzer", "type": "tank", "top": 0}],
                       [H("p", 1, ["k1"]), H("q", 1, ["k2"])])
    got = ends(records(declaration, {})[0].report)
    assert got["penetrated:Panzer (k1)"].value == 0  # Top 1: a 1 only glances
    assert got["penetrated:Panzer (k2)"].value == Fraction(1, 6)
    labels = [e.label for e in records(declaration, {})[0].report.end_states]
    assert len(labels) == len(set(labels))


@pytest.mark.clause("F-7")
@pytest.mark.parametrize("firepower", [1, 4])
def test_F7_destroyed_in_the_odds_is_what_the_results_step_decides(firepower: int) -> None:
    """At the last save every other team's result is known: for each team type the odds'
    end state is the results step's own outcome. A team with no save (infantry, gun) and a
    result the players entered are "destroyed" exactly when the results say so; an armoured
    vehicle (tank or transport), for which the results decide only penetrating / glancing /
    bounced, is named for that ("destroyed (penetrating, firepower passed)") and is
    certain only with a penetrating hit and firepower 1+."""
    declaration = decl([D("rifle"), D("gun", "gun"), D("truck", "transport"),
                        D("ht", "transport", top=0), D("car", "tank", top=0),
                        D("light", "tank", top=1), D("last", "tank", top=0)],
                       [H(f"h{i}", 1, [t]) for i, t in enumerate(
                           ["rifle", "gun", "truck", "ht", "car", "light", "last"])])
    answers = {"result.truck": "bailed-out", "save.ht": [1], "save.car": [2],
               "save.light": [6], "save.last": [1]}
    recs = records(declaration, answers, [f"assault-firepower={firepower}"])
    assert [r.question for r in recs] == ["save.ht", "save.car", "save.light", "save.last"]
    effects = run(declaration, {"results": "unverified", **answers},
                  options=[f"assault-firepower={firepower}"]).outcome_data["effects"]
    assert effects == {"rifle": ["destroyed"], "gun": ["destroyed"], "truck": ["bailed-out"],
                       "ht": ["penetrating"], "car": ["glancing"], "light": ["bounced"],
                       "last": ["penetrating"]}
    got = ends(recs[-1].report)
    for team in ("RIFLE", "GUN", "TRUCK"):
        decided = effects[team.lower()] == ["destroyed"]
        assert got[f"destroyed:{team}"].value == int(decided), team
        assert f"penetrated:{team}" not in got
    fp = Fraction(7 - firepower, 6)
    assert got["penetrated:HT"].value == fp  # a penetrating hit: its firepower test to come
    assert got["penetrated:CAR"].value == got["penetrated:LIGHT"].value == 0
    for team in ("HT", "CAR", "LIGHT", "LAST"):  # never the bare "destroyed" for a vehicle
        assert f"destroyed:{team}" not in got, team
    assert got["penetrated:LAST"].value == Fraction(1, 6) * fp
    assert got["expected"].value == 2 + fp + Fraction(1, 6) * fp


@pytest.mark.clause("F-7")
@pytest.mark.parametrize("car_faces", [(1, 2), (1, 3), (3, 3), (5, 6)])
def test_F7_a_later_save_matches_an_enumeration_given_the_earlier_roll(
        car_faces: tuple[int, int]) -> None:
    """The end states at the light tank's save are those of every die and firepower die
    enumerated (itertools.product), kept only where the car's save showed ``car_faces``:
    with two penetrating hits the car has two firepower tests to pass one of."""
    anti_tank, firepower = 3, 4
    declaration = decl([D("car", "tank", top=0), D("light", "tank", top=0), D("rifle")],
                       [H("p", 2, ["car"]), H("q", 1, ["light"]), H("r", 1, ["rifle"])])
    recs = records(declaration, {"save.car": list(car_faces), "save.light": [6]},
                   [f"assault-anti-tank={anti_tank}", f"assault-firepower={firepower}"])
    assert [r.question for r in recs] == ["save.car", "save.light"]
    got = ends(recs[1].report)
    kept = 0
    car = light = 0
    for car_tests in product(range(1, 7), repeat=2):
        for light_save, light_test in product(range(1, 7), repeat=2):
            kept += 1
            car += any(f < anti_tank and t >= firepower
                       for f, t in zip(car_faces, car_tests, strict=True))
            light += light_save < anti_tank and light_test >= firepower
    assert got["penetrated:CAR"].value == Fraction(car, kept)
    assert got["penetrated:LIGHT"].value == Fraction(light, kept)
    assert got["destroyed:RIFLE"].value == 1
    assert got["expected"].value == Fraction(car + light, kept) + 1


@pytest.mark.clause("F-7")
@pytest.mark.parametrize("top,anti_tank,certain", [(2, 2, "bounced"), (5, 3, "bounced"),
                                                   (0, 7, "penetrating"), (0, 2, None),
                                                   (1, 2, None)])
def test_F7_a_save_that_cannot_change_the_result_says_so(top: int, anti_tank: int,
                                                        certain: str | None) -> None:
    question = DiceQuestion(id="save.x", spec=DiceSpec(count=3), text=Msg.of("x"))
    report = fow_odds.save(question, team="X", top=top, anti_tank=anti_tank, firepower=1)
    shown = [n for n in report.notes if n.id == "fow.odds.note.certain"]
    if certain is None:
        assert shown == [] and len(report.dist.outcomes()) > 1
    else:
        assert shown == [Msg.of("fow.odds.note.certain",
                                outcome=Msg.of(f"fow.odds.die.{certain}"))]
        assert ends(report)[f"{certain}:X"].value == 1
