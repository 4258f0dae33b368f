"""World at War odds (issue 8): the attack, defence and random-pick rolls of an HE mission.

Every exact result is checked against an independent enumeration of the dice (small cases)
and against a seeded simulation of the resolver itself (the real attack, rolled many times);
every distribution sums to exactly 1; the percentile after a roll reads the same outcome as
the distribution."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.dice import DiceRoll, DiceSource, DiceSpec
from referee.core.questions import DiceQuestion
from referee.core.text import Msg
from referee.odds.report import Kind, OddsReport, RollOdds
from referee.rulesets.waw import odds_he
from tests.support import ROOT

DATA = "rulesets/world-at-war/example-data.toml"
INF = {"name": "Grey Platoon", "kind": "infantry"}
TANK = {"name": "Iron Tank", "kind": "combat-vehicle"}
TRUCK = {"name": "Blue Trucks", "kind": "unarmoured-vehicle"}
HQ = {"name": "Red Command", "kind": "hq"}


def records(units: list[dict[str, Any]], answers: dict[str, Any], options: Sequence[str] = (),
            **decl: Any) -> list[RollOdds]:
    """The odds records of a real attack (dice not answered are rolled from seed 1)."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.odds import OddsPort

    declaration = {"mission": "he", "hex": "0101", "units": units, **decl}
    plan = api.plan_attack("waw", seed=1, declaration=declaration, options=options)
    port = OddsPort(AnswerPort(answers, plan.dice, roll_missing_dice=True), show=None)
    api.play(plan, port)
    return list(port.rolls)


def ends(report: OddsReport) -> dict[str, Fraction]:
    return {render(e.label): e.value for e in report.end_states}


def question(count: int, sides: int = 6, target: int | None = None) -> DiceQuestion:
    return DiceQuestion(id="q", spec=DiceSpec(count=count, sides=sides, target=target,
                                              count_only=target is not None),
                        text=Msg.of("waw.q.attack", dice=count, hit=target or 0))


def unit(name: str, soft: bool = True, first: str = "disorganize",
         weakened_again: str = "eliminate", disorganized: bool = False,
         weakened: bool = False) -> dict[str, Any]:
    if not soft:
        return {"key": name, "name": name, "soft": False, "disorganized": disorganized,
                "weakened": weakened, "first": "disorganize", "further": "none",
                "weakened_again": "none"}
    return {"key": name, "name": name, "soft": True, "disorganized": disorganized,
            "weakened": weakened, "first": first, "further": "weaken",
            "weakened_again": weakened_again}


# --- an independent model: the dice enumerated face by face ----------------------------------

def enum_net(fp: int, hit: int, defence: int) -> dict[int, Fraction]:
    """Net hits by enumerating every face of every attack and defence die."""
    out: Counter[int] = Counter()
    for attack in itertools.product(range(1, 7), repeat=fp):
        hits = sum(f >= hit for f in attack)
        for dfaces in itertools.product(range(1, 7), repeat=defence):
            out[max(hits - sum(f >= 5 for f in dfaces), 0)] += 1
    total = 6 ** (fp + defence)
    return {k: Fraction(c, total) for k, c in out.items()}


def enum_unit_hits(net: int, n: int) -> list[dict[int, Fraction]]:
    """Hits per unit when ``net`` hits spread over ``n`` units (W-3): every unit one hit per
    round, the last short round by ordered random picks (each face of each die enumerated)."""
    full, rest = divmod(net, n)
    counts: list[Counter[int]] = [Counter() for _ in range(n)]
    orders = list(itertools.permutations(range(n), rest))  # equally likely ordered picks
    for picked in orders:
        for i in range(n):
            counts[i][full + (1 if i in picked else 0)] += 1
    return [{k: Fraction(c, len(orders)) for k, c in cnt.items()} for cnt in counts]


def soft_status(hits: int) -> str:
    """Example data file: first hit disorganizes, the next weakens, the next eliminates."""
    return ["good", "disorganized", "weakened-disorganized", "eliminated"][min(hits, 3)]


# --- W-1, W-2: the attack and the defence dice --------------------------------------------

@pytest.mark.clause("W-1")
@pytest.mark.parametrize(("fp", "hit"), [(1, 4), (3, 2), (4, 5), (5, 6)])
def test_W1_attack_hits_match_every_face_enumerated(fp: int, hit: int) -> None:
    report = odds_he.attack(question(fp, target=hit), firepower=fp, hit_number=hit,
                            defence=None, cancel_on=5, units=[unit("a")], hqs=[], spill=False,
                            owner=False)
    counts = Counter(sum(f >= hit for f in faces)
                     for faces in itertools.product(range(1, 7), repeat=fp))
    assert dict(report.dist.items()) == {k: Fraction(c, 6 ** fp) for k, c in counts.items()}
    assert report.end_states == ()  # the defence dice are asked later


@pytest.mark.clause("W-2")
@pytest.mark.parametrize(("fp", "hit", "defence"), [(2, 4, 3), (3, 5, 2), (4, 3, 1), (1, 2, 3)])
def test_W2_net_hits_after_terrain_dice_match_enumeration(fp: int, hit: int,
                                                          defence: int) -> None:
    report = odds_he.attack(question(fp, target=hit), firepower=fp, hit_number=hit,
                            defence=defence, cancel_on=5, units=[unit("a")], hqs=[],
                            spill=False, owner=False)
    net = enum_net(fp, hit, defence)
    got = ends(report)
    assert got["no net hit"] == net.get(0, 0)
    for k in range(1, fp + 1):
        label = f"{k} or more net hits"
        if label in got:
            assert got[label] == sum(p for j, p in net.items() if j >= k)
    mean = next(e for e in report.end_states if e.kind is Kind.EXPECTED)
    assert mean.value == sum(k * p for k, p in net.items())


@pytest.mark.clause("W-2")
def test_W2_worked_example_1_cancels_cannot_go_below_zero_in_the_odds() -> None:
    """Brief example 1: 2 hits against 3 defence dice: 3 sixes leave 0, never -1."""
    report = odds_he.defence(question(3, target=5), attack_hits=2, dice=3, cancel_on=5,
                             units=[unit("a")], hqs=[], spill=False, owner=False)
    assert dict(report.dist.items()) == {0: Fraction(8, 27), 1: Fraction(12, 27),
                                         2: Fraction(6, 27), 3: Fraction(1, 27)}
    got = ends(report)
    assert got["no net hit"] == Fraction(7, 27)  # two or three cancels
    assert got["1 or more net hits"] == Fraction(20, 27)
    assert got["2 or more net hits"] == Fraction(8, 27)


# --- W-3, W-4, W-5: the spread and what each unit ends as --------------------------------

@pytest.mark.clause("W-3")
@pytest.mark.clause("W-4")
@pytest.mark.parametrize(("fp", "hit", "defence"), [(3, 4, 1), (4, 5, 2)])
def test_W3_W4_unit_end_states_match_enumeration(fp: int, hit: int, defence: int) -> None:
    units = [unit("Rifles"), unit("Tanks", soft=False), unit("Trucks")]
    report = odds_he.attack(question(fp, target=hit), firepower=fp, hit_number=hit,
                            defence=defence, cancel_on=5, units=units, hqs=["HQ"],
                            spill=False, owner=False)
    net = enum_net(fp, hit, defence)
    status: list[dict[str, Fraction]] = [{} for _ in units]
    hit_once = [Fraction(0)] * 3
    for h, p in net.items():
        for i, dist in enumerate(enum_unit_hits(h, 3)):
            for k, q in dist.items():
                name = soft_status(k) if units[i]["soft"] else \
                    ("disorganized" if k else "good")
                status[i][name] = status[i].get(name, Fraction(0)) + p * q
                if k:
                    hit_once[i] += p * q
    got = ends(report)
    for i, u in enumerate(units):
        assert got[f"{u['name']}: hit at least once"] == hit_once[i]
        for name, p in status[i].items():
            if name != "good":
                shown = render(Msg.of(f"waw.status.{name}"))
                assert got[f"{u['name']}: ends {shown}"] == p
    assert got["HQ: makes its HQ roll (rule 1.3.3.2)"] == 1 - net.get(0, 0)


@pytest.mark.clause("W-4")
def test_W4_a_combat_vehicle_is_never_weakened_in_the_odds() -> None:
    report = odds_he.defence(question(1, target=5), attack_hits=6, dice=1, cancel_on=5,
                             units=[unit("Tanks", soft=False)], hqs=[], spill=False,
                             owner=False)
    got = ends(report)
    assert got == {"net hits after terrain dice (mean)": Fraction(17, 3), "no net hit": 0,
                   **{f"{k} or more net hits": 1 for k in range(1, 6)},
                   "6 or more net hits": Fraction(2, 3),
                   "Tanks: hit at least once": 1, "Tanks: ends disorganized": 1}


@pytest.mark.clause("W-4")
def test_W4_an_effect_the_players_decide_shows_hit_chances_only() -> None:
    report = odds_he.defence(question(1, target=5), attack_hits=3, dice=1, cancel_on=5,
                             units=[unit("Rifles", first="ask"), unit("Tanks", soft=False)],
                             hqs=[], spill=False, owner=False)
    got = ends(report)
    assert not any(k.startswith("Rifles: ends") for k in got)
    # 3 hits (2/3): Rifles twice with 1/2; 2 hits (1/3): never twice
    assert got["Rifles: hit twice or more"] == Fraction(1, 3)
    assert any("Rifles" in render(n) for n in report.notes)


@pytest.mark.clause("W-3")
def test_W3_owner_picks_no_unit_chances_but_two_units_one_hit_stays_random() -> None:
    three = [unit("a"), unit("b"), unit("c")]
    report = odds_he.defence(question(1, target=5), attack_hits=2, dice=1, cancel_on=5,
                             units=three, hqs=[], spill=False, owner=True)
    assert not any("a:" in k for k in ends(report))
    two = [unit("a"), unit("b")]
    report = odds_he.defence(question(1, target=5), attack_hits=1, dice=1, cancel_on=5,
                             units=two, hqs=[], spill=False, owner=True)
    assert ends(report)["a: hit at least once"] == Fraction(1, 3)  # 2/3 one hit, half of it


@pytest.mark.clause("W-4")
def test_W4_spill_over_sends_later_rounds_to_soft_units_only() -> None:
    units = [unit("Rifles"), unit("Tanks", soft=False)]
    report = odds_he.defence(question(1, target=5), attack_hits=4, dice=1, cancel_on=5,
                             units=units, hqs=[], spill=True, owner=False)
    got = ends(report)
    # 4 or 3 net hits: the tank takes round 1 only, the rifles all the rest (3 or 2 hits)
    assert got["Rifles: ends eliminated"] == Fraction(2, 3)
    assert got["Rifles: ends weakened and disorganized"] == Fraction(1, 3)
    assert got["Tanks: ends disorganized"] == 1


@pytest.mark.clause("W-3")
def test_W3_random_pick_is_a_label_and_end_states_follow_the_picks_so_far() -> None:
    units = [unit("a"), unit("b"), unit("c")]
    q = DiceQuestion(id="pick.round-2.2", spec=DiceSpec(count=1, sides=2),
                     text=Msg.of("waw.q.attack", dice=1, hit=1))
    report = odds_he.pick(q, net=5, round_no=2, left=("a", "c"), chosen=("b",), to_pick=1,
                          units=units, hqs=[], spill=False)
    assert dict(report.dist.items()) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    assert [render(report.labels[f]) for f in (1, 2)] == ["a", "c"]
    got = ends(report)
    assert got["b: ends weakened and disorganized"] == 1
    assert got["a: ends weakened and disorganized"] == Fraction(1, 2)
    assert got["c: ends disorganized"] == Fraction(1, 2)
    record = RollOdds(q.id, "W-3", report, report.measure(DiceRoll((2,), 0, DiceSource.TYPED)))
    assert record.actual == 2


@pytest.mark.clause("W-4")
def test_W4_end_states_start_from_the_units_status_before_the_mission() -> None:
    """A weakened soft unit: one hit leaves it weakened and disorganized, two eliminate it
    (example data file); an already disorganized vehicle ends as it began (no 'ends' row).
    3 hits, 1 defence die: 3 net (2/3, Weak takes 1 or 2), 2 net (1/3, one each)."""
    units = [unit("Weak", weakened=True), unit("TankD", soft=False, disorganized=True)]
    report = odds_he.defence(question(1, target=5), attack_hits=3, dice=1, cancel_on=5,
                             units=units, hqs=[], spill=False, owner=False)
    got = ends(report)
    assert got["Weak: ends eliminated"] == Fraction(1, 3)
    assert got["Weak: ends weakened and disorganized"] == Fraction(2, 3)
    assert got["TankD: hit at least once"] == 1
    assert not any(k.startswith("TankD: ends") for k in got)
    # the resolver, with the same dice: Weak picked for the third hit is eliminated
    declaration = {"mission": "he", "hex": "0101", "firepower": 4, "hit_number": 4,
                   "terrain_defence": 1,
                   "units": [{"name": "Weak", "kind": "infantry", "weakened": True},
                             {"name": "TankD", "kind": "combat-vehicle",
                              "disorganized": True}]}
    for face, status in (([1], "eliminated"), ([2], "weakened-disorganized")):
        r = api.attack("waw", {"attack": [6, 6, 6, 1], "defence": [1], "pick.round-2.1": face},
                       options=[f"data-file={DATA}"], declaration=declaration)
        assert r.outcome_data["status"] == {"weak": status, "tankd": "disorganized"}


@pytest.mark.clause("W-4")
def test_W4_spill_over_option_reaches_the_attack_odds_of_the_resolver() -> None:
    """soft-with-armour=spill-over through a real attack: after round 1 every hit goes to the
    rifles (enumerated: 1 net hit falls on either unit, n >= 2 leave the rifles n - 1)."""
    recs = records([INF, TANK], {"attack": [1, 1, 1, 1]},
                   [f"data-file={DATA}", "soft-with-armour=spill-over"],
                   firepower=4, hit_number=4, terrain_defence=1)
    got = ends(recs[0].report)
    weights: dict[str, Fraction] = {}
    for n, p in enum_net(4, 4, 1).items():
        for k, q in ({0: Fraction(1, 2), 1: Fraction(1, 2)} if n == 1 else
                     {max(n - 1, 0): Fraction(1)}).items():
            name = soft_status(k)
            weights[name] = weights.get(name, Fraction(0)) + p * q
    assert got["Grey Platoon: ends eliminated"] == weights["eliminated"]
    assert got["Grey Platoon: ends weakened and disorganized"] == \
        weights["weakened-disorganized"]
    assert got["Grey Platoon: ends disorganized"] == weights["disorganized"]


def test_net_hit_rows_run_to_the_first_chance_under_half_a_percent() -> None:
    """6 dice on 5+ against 2 defence dice: 5 or more 0.9%, 6 (all) 0.1%: both listed."""
    report = odds_he.attack(question(6, target=5), firepower=6, hit_number=5, defence=2,
                            cancel_on=5, units=[unit("a")], hqs=[], spill=False, owner=False)
    rows = [k for k in ends(report) if k.endswith("or more net hits")]
    assert rows == [f"{k} or more net hits" for k in range(1, 7)]
    assert ends(report)["5 or more net hits"] >= odds_he.NET_TAIL


# --- the resolver itself, rolled many times -----------------------------------------------

def _within(freq: float, p: Fraction, n: int) -> bool:
    sd = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(freq - float(p)) <= 3 * sd + 1e-9


@pytest.mark.clause("W-1")
@pytest.mark.clause("W-5")
def test_W1_W5_end_states_agree_with_the_resolver_rolled_many_times() -> None:
    units = [INF, TANK, TRUCK, HQ]
    decl = {"artillery": "grey-battery", "terrain": "woods"}
    opts = [f"data-file={DATA}"]
    first = records(units, {"attack": [1] * 6}, opts, **decl)[0]
    assert first.question == "attack"
    expected = ends(first.report)
    from referee.frontends.answers import AnswerPort

    n = 1500
    tally: Counter[str] = Counter()
    for seed in range(1, n + 1):
        plan = api.plan_attack("waw", seed=seed, options=opts, declaration={
            "mission": "he", "hex": "0101", "units": units, **decl})
        r = api.play(plan, AnswerPort({}, plan.dice, use_defaults=True, roll_missing_dice=True))
        data = r.outcome_data
        tally[f"net{data['net_hits']}"] += 1
        for u, key in ((INF, "grey-platoon"), (TANK, "iron-tank"), (TRUCK, "blue-trucks")):
            tally[f"{u['name']}:{data['status'][key]}"] += 1
            tally[f"{u['name']}:hit"] += bool(data["hits"][key])
        tally["hq"] += "red-command" in data["hq_rolls"]
    assert _within(tally["net0"] / n, expected["no net hit"], n)
    assert _within((n - tally["net0"] - tally["net1"]) / n, expected["2 or more net hits"], n)
    for u in (INF, TANK, TRUCK):
        name = u["name"]
        assert _within(tally[f"{name}:hit"] / n, expected[f"{name}: hit at least once"], n)
    assert _within(tally["Grey Platoon:weakened-disorganized"] / n,
                   expected["Grey Platoon: ends weakened and disorganized"], n)
    assert _within(tally["hq"] / n, expected["Red Command: makes its HQ roll (rule 1.3.3.2)"], n)


def test_every_roll_of_an_attack_has_waw_odds_and_percentiles_agree() -> None:
    recs = records([INF, TANK, TRUCK], {"attack": [6, 6, 6, 6, 1, 1], "defence": [1, 2]},
                   [f"data-file={DATA}"], artillery="grey-battery", terrain="woods")
    assert [r.question for r in recs] == ["attack", "defence", "pick.round-2.1"]
    for r in recs:
        assert r.report.exact
        assert r.actual is not None
        assert r.percentile == r.report.dist.percentile(r.actual)
    assert recs[0].actual == 4 and recs[1].actual == 0
    assert render(recs[2].report.unit).startswith("unit picked")


@pytest.mark.clause("W-2")
def test_W2_cover_dice_are_asked_with_the_terrain_after_the_hits_and_counted_at_the_defence(
        ) -> None:
    """defence-cover=included: the cover dice come after the attack (as before the odds), so
    the attack's odds say the net hits come later, and the defence roll's odds count them."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.odds import OddsPort
    from referee.frontends.wrappers import ScriptingPort

    declaration = {"mission": "he", "hex": "0101", "units": [INF], "firepower": 2,
                   "hit_number": 4, "terrain_defence": 1}
    plan = api.plan_attack("waw", seed=1, declaration=declaration,
                           options=["defence-cover=included", f"data-file={DATA}"])
    port = OddsPort(AnswerPort({"attack": [4, 6], "cover-dice": 2, "defence": [1, 1, 1]},
                               plan.dice), show=None)
    recording = ScriptingPort(port)
    api.play(plan, recording)
    assert list(recording.answers) == ["attack", "cover-dice", "defence"]
    attack, defence = port.rolls
    assert attack.report.end_states == ()
    assert "defence-cover=included" in render(attack.report.notes[0])
    assert dict(defence.report.dist.items())[0] == Fraction(8, 27)  # 3 dice: 1 + 2 cover
    # two hits against three cancelling dice: enumerated
    net0 = sum(Fraction(1, 6 ** 3) for f in itertools.product(range(1, 7), repeat=3)
               if sum(x >= 5 for x in f) >= 2)
    assert ends(defence.report)["no net hit"] == net0


@pytest.mark.clause("W-2")
def test_W2_a_mission_without_hits_asks_no_cover_so_older_scripts_replay() -> None:
    """A script written before the odds (no cover-dice answer, no hit) still runs."""
    r = api.attack("waw", {"attack": [1, 2]}, options=["defence-cover=included"],
                   declaration={"mission": "he", "hex": "0101", "units": [INF],
                                "firepower": 2, "hit_number": 6, "terrain_defence": 1})
    assert r.outcome_data["net_hits"] == 0


# --- properties --------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(fp=st.integers(1, 40), hit=st.integers(1, 6), defence=st.integers(0, 10),
       soft=st.lists(st.booleans(), min_size=1, max_size=4), spill=st.booleans())
def test_every_distribution_sums_to_exactly_one(fp: int, hit: int, defence: int,
                                                soft: list[bool], spill: bool) -> None:
    units = [unit(f"u{i}", soft=s) for i, s in enumerate(soft)]
    report = odds_he.attack(question(fp, target=hit), firepower=fp, hit_number=hit,
                            defence=defence, cancel_on=5, units=units, hqs=["h"],
                            spill=spill, owner=False)
    assert sum(p for _, p in report.dist.items()) == 1
    got = ends(report)
    assert got["no net hit"] + got["1 or more net hits"] == 1
    for i in range(len(units)):
        statuses = [v for k, v in got.items() if k.startswith(f"u{i}: ends")]
        assert sum(statuses) <= 1
        assert sum(statuses) == got[f"u{i}: hit at least once"]  # from good order
    for e in report.end_states:
        if e.kind is Kind.CHANCE:
            assert 0 <= e.value <= 1


# --- the odds code stays out of light commands ---------------------------------------------

PROBE = """
import sys
from referee.cli import app
from referee.context import Environment
try:
    app(sys.argv[1:], obj=Environment.from_system(), standalone_mode=False)
except SystemExit:
    pass
print("LOADED:" + ",".join(sorted(m for m in ("dyce", "referee.odds",
      "referee.rulesets.waw.odds_he") if m in sys.modules)))
"""


@pytest.mark.parametrize(("argv", "loaded"), [
    (["run", "transcripts/scripts/waw-he-data-file.toml", "--no-odds"], ""),
    (["lookup", "waw", "he-odds", "6", "5", "--defence", "2"], ""),
    # with odds: the odds code loads (dyce does not: World at War's odds never call it)
    (["run", "transcripts/scripts/waw-he-data-file.toml"],
     "referee.odds,referee.rulesets.waw.odds_he"),
])
def test_no_odds_attack_and_he_odds_lookup_never_import_the_odds(argv: list[str],
                                                                  loaded: str) -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "LOADED:" + loaded


def test_waw_markers_takes_no_odds(tmp_path: Path) -> None:
    import io

    from typer.testing import CliRunner

    from referee.cli import app
    from referee.context import Environment

    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=io.StringIO(), color=False)
    result = CliRunner().invoke(app, ["waw-markers", "--game", str(tmp_path / "g.sqlite"),
                                      "--phase", "--no-odds", "--json"], obj=env)
    assert result.exit_code == 0, result.output
    assert '"phases": 1' in out.getvalue()


@settings(max_examples=30, deadline=None)
@given(fp=st.integers(1, 20), hit=st.integers(1, 6), defence=st.integers(0, 6))
def test_W2_net_hits_agree_with_dyce(fp: int, hit: int, defence: int) -> None:
    """The closed form of odds.py against dyce's own arithmetic over the dice."""
    from dyce import H

    report = odds_he.attack(question(fp, target=hit), firepower=fp, hit_number=hit,
                            defence=defence, cancel_on=5, units=[unit("a")], hqs=[],
                            spill=False, owner=False)
    cancels = defence @ H(6).ge(5) if defence else H({0: 1})  # dyce: 0 @ H is empty
    h = (fp @ H(6).ge(hit) - cancels).apply(lambda x: max(x, 0))
    total = h.total
    net = {int(k): Fraction(c, total) for k, c in h.items()}
    got = ends(report)
    assert got["no net hit"] == net.get(0, 0)
    assert got["1 or more net hits"] == 1 - net.get(0, 0)
    assert next(e for e in report.end_states if e.kind is Kind.EXPECTED).value == \
        sum(k * p for k, p in net.items())
