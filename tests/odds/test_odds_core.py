"""The shared odds machinery (issue 8): exact distributions cross-checked against exhaustive
enumeration and seeded simulation, the chart, the odds port, the probe behind ``referee odds``
and the what-if table. Ruleset odds are tested in each ruleset's ``test_<m>_odds.py``."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.dice import DiceSpec, KeyedDice, roll
from referee.core.errors import UsageError
from referee.core.questions import Choice, ChoiceQuestion, DiceQuestion
from referee.core.text import Msg
from referee.frontends.answers import SequencePort
from referee.frontends.odds import OddsPort
from referee.frontends.probe import ProbePort, ProbeStop
from referee.odds.dist import Dist
from referee.odds.generic import plain, successes_dist, total_dist
from referee.odds.report import EndState, Kind, LazyEndStates, OddsReport, RollOdds
from referee.odds.simulate import simulate, simulate_many
from referee.render.json_out import odds_json
from referee.render.odds import chart_rows, pct, report_lines
from referee.render.whatif import compare
from tests.cli.test_cli import SCRIPT, invoke
from tests.support import ROOT
from tests.support.tables import texts, values


def enumerate_successes(spec: DiceSpec) -> Dist:
    """Independent of the odds code: every face combination, counted."""
    counts = Counter(spec.successes(faces)
                     for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count))
    return Dist.from_counts(counts)


def enumerate_totals(count: int, sides: int) -> Dist:
    counts = Counter(sum(f) for f in itertools.product(range(1, sides + 1), repeat=count))
    return Dist.from_counts(counts)


def question(count: int, target: int | None = None, sides: int = 6,
             auto_fail: tuple[int, ...] = ()) -> DiceQuestion:
    return DiceQuestion(id="q", text=Msg.of("odds.value", value=count),
                        spec=DiceSpec(count=count, sides=sides, target=target,
                                      auto_fail=auto_fail, count_only=target is not None))


specs = st.builds(lambda n, sides, target, one: DiceSpec(n, sides, target,
                                                          (1,) if one else ()),
                  st.integers(1, 5), st.sampled_from([4, 6, 8]), st.integers(1, 9),
                  st.booleans())


@given(specs)
@settings(max_examples=60, deadline=None)
def test_successes_match_exhaustive_enumeration_and_the_binomial(spec: DiceSpec) -> None:
    exact = successes_dist(spec)
    assert exact == enumerate_successes(spec)
    good = sum(1 for f in range(1, spec.sides + 1) if spec.is_success(f))
    assert exact == Dist.binomial(spec.count, Fraction(good, spec.sides))
    assert sum(v for _, v in exact.items()) == 1  # exactly, as Fractions


@given(st.integers(1, 4), st.sampled_from([4, 6, 10]))
@settings(max_examples=30, deadline=None)
def test_totals_match_exhaustive_enumeration(count: int, sides: int) -> None:
    dist = total_dist(count, sides)
    assert dist == enumerate_totals(count, sides)
    assert dist.mean() == Fraction(count * (sides + 1), 2)


def test_large_roll_agrees_with_a_seeded_simulation_of_the_dice_within_3_sd() -> None:
    spec = DiceSpec(count=30, target=4, count_only=True)
    exact = successes_dist(spec)
    dice = KeyedDice(2026)
    runs = 4000
    hits = [roll(spec, dice.stream("large")).successes for _ in range(runs)]
    for k in (10, 15, 18):
        p = float(exact.at_least(k))
        freq = sum(h >= k for h in hits) / runs
        assert abs(freq - p) <= 3 * math.sqrt(p * (1 - p) / runs), (k, freq, p)
    mean = sum(hits) / runs
    assert abs(mean - float(exact.mean())) <= 3 * math.sqrt(30 * 0.25 / runs)


def test_two_stage_roll_is_a_binomial_of_the_product_chance() -> None:
    # a 6 then a 4+ on the second die: each first die ends as a hit with 1/6 * 1/2 = 1/12
    first = successes_dist(DiceSpec(count=5, target=6))
    final = first.then(lambda sixes: successes_dist(DiceSpec(count=sixes, target=4)))
    assert final == Dist.binomial(5, Fraction(1, 12))


def test_a_distribution_must_sum_to_one_and_have_no_negative_chance() -> None:
    with pytest.raises(ValueError):
        Dist({0: Fraction(1, 2), 1: Fraction(1, 3)})
    with pytest.raises(ValueError):
        Dist({0: Fraction(3, 2), 1: Fraction(-1, 2)})


def test_percentile_is_the_mid_rank_of_the_result() -> None:
    dist = total_dist(2, 6)
    assert dist.percentile(7) == 50  # the middle of a symmetric roll
    assert dist.percentile(2) == Fraction(100, 72)  # half of 1/36
    assert dist.percentile(12) == 100 - Fraction(100, 72)
    values = [dist.percentile(v) for v in range(2, 13)]
    assert values == sorted(values)


def test_simulation_is_seeded_by_its_key_and_its_interval_holds_the_truth() -> None:
    def trial(rng: random.Random) -> int:
        return sum(rng.randint(1, 6) >= 5 for _ in range(8))

    a, b = simulate(trial, "key-1"), simulate(trial, "key-1")
    assert a == b and a.runs is not None and not a.exact
    exact = successes_dist(DiceSpec(count=8, target=5))
    for k in (1, 3, 5):
        low, high = a.interval(a.at_least(k)) or (0, 0)
        assert low <= float(exact.at_least(k)) <= high
    (chance, mean) = simulate_many(lambda r: (float(trial(r) >= 3), float(trial(r))), "k2",
                                   [(Msg.of("odds.value", value=1), Kind.CHANCE),
                                    (Msg.of("odds.value", value=2), Kind.EXPECTED)])
    for state, truth in ((chance, exact.at_least(3)), (mean, exact.mean())):
        low, high = state.interval() or (0, 0)
        assert low <= float(truth) <= high and not state.exact


def test_chart_groups_the_tails_and_keeps_every_chance() -> None:
    report = plain(question(30, 4))
    rows = chart_rows(report)
    assert len(rows) <= 13 and rows[0][0].startswith("≤") and rows[-1][0].startswith("≥")
    assert sum(p for _, p, _ in rows) == 1
    lines = report_lines(report, "E-8")
    assert lines[0].startswith("Odds: 30d6") and lines[0].endswith("[E-8]")
    assert "successes (mean 15.00)" in lines[1]


def test_percentages_are_never_rounded_to_certainty_or_impossibility() -> None:
    assert pct(Fraction(1, 10**6)) == "<0.1%"
    assert pct(1 - Fraction(1, 10**6)) == ">99.9%"
    assert pct(Fraction(1)) == "100%" and pct(Fraction(0)) == "0%"


def test_odds_port_shows_odds_before_the_roll_and_the_percentile_after_it() -> None:
    shown: list[str] = []
    asked: list[str] = []

    class Inner:
        def ask(self, q: Any) -> Any:
            asked.append(f"after {len(shown)} lines")
            return SequencePort(["6 6 1 2"], KeyedDice(1)).ask(q)

    port = OddsPort(Inner(), show=shown.extend)
    value = port.ask(question(4, 5))
    assert value.successes == 2
    assert asked == [f"after {len(report_lines(plain(question(4, 5))))} lines"]
    (record,) = port.rolls
    assert record.actual == 2
    assert record.percentile == successes_dist(DiceSpec(4, target=5)).percentile(2)
    assert shown[-1].startswith("  → successes: 2, percentile")


def test_probe_assumes_defaults_and_stops_at_the_first_unanswered_roll() -> None:
    pick = ChoiceQuestion(id="pick", text=Msg.of("odds.value", value=1),
                          choices=(Choice("a", "A"), Choice("b", "B")), default_value="b")
    port = ProbePort({"first": "=2"}, KeyedDice(1))
    assert port.ask(pick) == "b"
    assert [(q.id, v) for q, v in port.assumed] == [("pick", "b")]
    first = DiceQuestion(id="first", text=Msg.of("odds.value", value=1),
                         spec=DiceSpec(3, target=4, count_only=True))
    assert port.ask(first).successes == 2
    second = DiceQuestion(id="second", text=Msg.of("odds.value", value=2),
                          spec=DiceSpec(2, target=4, count_only=True))
    with pytest.raises(ProbeStop):
        port.ask(second)
    assert [(r.question, r.actual) for r in port.rolls] == [("first", 2), ("second", None)]


def test_probe_names_a_question_that_has_neither_answer_nor_default() -> None:
    pick = ChoiceQuestion(id="pick", text=Msg.of("odds.value", value=1),
                          choices=(Choice("a", "A"),))
    with pytest.raises(UsageError) as err:
        ProbePort({}, KeyedDice(1)).ask(pick)
    assert err.value.msg.id == "odds.error.needs_answer"


def test_what_if_compares_the_same_roll_and_end_states_of_two_variants() -> None:
    label = Msg.of("odds.value", value="broken")

    def record(dice: int) -> RollOdds:
        dist = successes_dist(DiceSpec(dice, target=4))
        return RollOdds("hit", "E-8", OddsReport(Msg.of("odds.value", value=dice),
                                                   Msg.of("odds.unit.successes"), dist,
                                                   end_states=(EndState(label, dist.at_least(2)),)))

    (table,) = compare([record(2)], [record(4)], Msg.of("odds.value", value="A"),
                       Msg.of("odds.value", value="B"))
    by_label = next(r for r in table.rows if values(r)[0].get("label") == label)
    assert texts(by_label)[1:] == ("25.0%", "68.8%", "+43.8")  # 1/4 and 11/16
    assert values(by_label)[1:] == (Fraction(1, 4), Fraction(11, 16), Fraction(7, 16))
    assert texts(table.rows[0])[1:] == ("1.00", "2.00", "+1.00")  # mean successes
    assert values(table.rows[0]) == ({"row": "mean"}, 1, 2, 1)
    assert texts(table.rows[1])[1:] == ("75.0%", "93.8%", "+18.8")  # 1 or more: 3/4, 15/16
    assert values(table.rows[1])[0] == {"row": "at_least", "k": 1}


def test_run_shows_each_rolls_odds_after_the_result_unless_no_odds() -> None:
    code, out, _ = invoke(["run", SCRIPT])
    assert code == 0
    after = out.split("Odds at each roll", 1)[1].splitlines()[1:]
    # compact: per roll its title, the chart as a sparkline with the mean, and its luck
    titles = [line for line in after if line.startswith("  ") and not line.startswith("   ")]
    assert [t.strip() for t in titles] == ["Heavy cannon: 3d6 to hit on 6+ [E-8]",
                                           "Autogun: 6d6 needing 7: the 6s roll again (then 4+) "
                                           "[E-8]", "Autogun: 2d6 rolled again, a hit on 4+ [E-9]"]
    assert "    0..3 █▅▁▁  hits (mean 0.50)" in after  # 125/216, 75/216, 15/216, 1/216
    assert sum("percentile" in line for line in after) == 3
    # end states where a roll first predicts them; the second stage repeats none
    assert sum("How the attack may end" in line for line in after) == 2


def test_sparkline_heights_follow_the_chances() -> None:
    from referee.render.odds import sparkline

    # 2d6: 1, 2, ..., 6, ..., 1 in 36; height = eighths of the biggest chance, 8 capped at 7
    rows = chart_rows(plain(question(2, None)))
    assert sparkline(rows) == "▂▃▅▆▇█▇▆▅▃▂"
    assert sparkline([("0", Fraction(1), Fraction(1)), ("1", Fraction(0), Fraction(0))]) == \
        "█ "
    code, out, _ = invoke(["run", SCRIPT, "--no-odds"])
    assert code == 0 and "Odds" not in out and "percentile" not in out


def test_json_carries_exact_distributions_that_sum_to_one() -> None:
    code, out, _ = invoke(["run", SCRIPT, "--json"])
    assert code == 0
    odds = json.loads(out)["odds"]
    assert [o["question"] for o in odds] == ["to-hit.heavy-cannon", "to-hit.autogun",
                                             "to-hit.autogun.then"]
    for entry in odds:
        assert sum(Fraction(d["p"]["fraction"]) for d in entry["distribution"]) == 1
        assert all(d["at_least"]["fraction"] for d in entry["distribution"])
        assert entry["actual"]["value"] in [d["value"] for d in entry["distribution"]]


def test_odds_command_what_if_json_compares_two_actions() -> None:
    code, out, err = invoke(["odds", "epic", "--script", SCRIPT, "--vs",
                             "action=sustained-fire", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["b"]["changes"]["answers"] == ["action=sustained-fire"]
    assert data["b"]["changes_text"] == "action=sustained-fire"
    assert data["compare"] and data["a"]["odds"] and data["b"]["odds"]


def test_odds_command_refuses_a_script_of_another_ruleset() -> None:
    code, _, err = invoke(["odds", "cc", "--script", SCRIPT])
    assert code == 2 and "the script is for the ruleset epic, not" in err


NO_ODDS_PROBE = """
import sys
from referee.cli import app
from referee.context import Environment
try:
    app(sys.argv[1:], obj=Environment.from_system(), standalone_mode=False)
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m == "dyce" or m.startswith("referee.odds"))
print("ODDS:" + ",".join(loaded))
"""


@pytest.mark.parametrize("flag, loads", [("--no-odds", False), (None, True)])
def test_odds_code_is_imported_only_when_odds_are_shown(flag: str | None, loads: bool) -> None:
    argv = ["run", SCRIPT] + ([flag] if flag else [])
    proc = subprocess.run([sys.executable, "-c", NO_ODDS_PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marker = proc.stdout.strip().splitlines()[-1]
    assert (marker != "ODDS:") is loads, marker


def test_odds_reads_a_game_file_without_writing_it(tmp_path) -> None:
    import sqlite3

    game = tmp_path / "g.db"
    script = "transcripts/scripts/cc-example-c-d.toml"
    assert invoke(["run", script, "--game", str(game), "--no-odds"])[0] == 0

    def log_rows() -> list[Any]:
        with sqlite3.connect(game) as conn:
            return conn.execute("SELECT * FROM log").fetchall()

    before = log_rows()
    code, out, err = invoke(["odds", "cc", "--script", script, "--game", str(game)])
    assert code == 0, err
    assert "Odds: " in out and log_rows() == before
    code, _, err = invoke(["odds", "cc", "--script", script, "--game", str(tmp_path / "no.db")])
    assert code == 2 and "no game file" in err


def test_a_fault_in_the_odds_code_never_stops_the_attack(monkeypatch) -> None:
    from referee.core.oddsref import OddsRef

    monkeypatch.delenv("REFEREE_STRICT_ODDS")
    broken = DiceQuestion(id="q", text=Msg.of("odds.value", value=1),
                          spec=DiceSpec(3, target=4, count_only=True),
                          odds=OddsRef.to("referee.odds.no_such_module:odds"))
    shown: list[str] = []
    port = OddsPort(SequencePort(["=2"], KeyedDice(1)), show=shown.extend)
    assert port.ask(broken).successes == 2
    assert shown == ["(no odds for this roll: the odds code failed with "
                     "ModuleNotFoundError; the attack goes on)"]
    assert port.rolls == []
    monkeypatch.setenv("REFEREE_STRICT_ODDS", "1")
    with pytest.raises(ModuleNotFoundError):
        OddsPort(SequencePort(["=2"], KeyedDice(1)), show=None).ask(broken)


def test_lazy_end_states_are_worked_out_once_and_only_when_read() -> None:
    label = Msg.of("odds.value", value="broken")
    calls: list[int] = []

    def compute() -> tuple[EndState, ...]:
        calls.append(1)
        return (EndState(label, Fraction(1, 3)),)
    states = LazyEndStates([label], compute)
    report = OddsReport(Msg.of("odds.value", value="t"), Msg.of("odds.unit.successes"),
                        Dist.point(0), end_states=states)
    assert report.end_labels == (label,) and len(states) == 1 and states
    assert calls == [] and not states.forced
    assert states[0].value == Fraction(1, 3) and list(states) == [states[0]]
    assert odds_json(RollOdds("q", None, report))["end_states"][0]["value"] == {
        "fraction": "1/3", "float": 0.333333}
    assert calls == [1] and states.forced and states == (EndState(label, Fraction(1, 3)),)


def test_a_fault_in_lazy_end_states_is_a_line_not_a_stop(monkeypatch) -> None:
    label = Msg.of("odds.value", value="broken")

    def compute() -> tuple[EndState, ...]:
        raise ZeroDivisionError
    report = OddsReport(Msg.of("odds.value", value="t"), Msg.of("odds.unit.successes"),
                        Dist.point(0), end_states=LazyEndStates([label], compute))
    monkeypatch.setenv("REFEREE_STRICT_ODDS", "1")
    with pytest.raises(ZeroDivisionError):
        list(report.end_states)
    monkeypatch.delenv("REFEREE_STRICT_ODDS")
    report = OddsReport(report.title, report.unit, report.dist,
                        end_states=LazyEndStates([label], compute))
    lines = report_lines(report)
    assert lines[-1] == ("  (how the attack may end is not shown: the odds code failed with "
                         "ZeroDivisionError)")
    assert not report.end_states and report.end_states.failed == "ZeroDivisionError"


def test_a_scripted_run_works_out_end_states_only_where_it_shows_them(monkeypatch,
                                                                     tmp_path) -> None:
    """``referee run`` shows an attack's end states at its first roll (a later roll of the
    same attack updates them, which the table and ``referee odds`` show): the later rolls'
    end states are never worked out, nor given by ``--json`` (``null``); ``--odds full``
    gives them all."""
    import referee.render.odds as render_odds

    seen: list[Any] = []
    original = render_odds.rolls_lines

    def spy(records: Any, **how: Any) -> list[str]:
        seen.extend(records)
        return original(records, **how)
    monkeypatch.setattr(render_odds, "rolls_lines", spy)
    script = tmp_path / "company.toml"
    script.write_text("use_defaults = true\nroll_missing_dice = true\n" + (
        ROOT / "transcripts/scripts/epic-odds-company.toml").read_text())
    code, out, err = invoke(["run", str(script), "--seed", "3"])
    assert code == 0, err
    lazy = [r.report.end_states for r in seen if isinstance(r.report.end_states, LazyEndStates)]
    assert len(lazy) > 3 and lazy[0].forced  # shown at the first roll
    assert not any(s.forced for s in lazy[1:])
    assert out.count("How the attack may end:") == 1
    code, out, err = invoke(["run", str(script), "--seed", "3", "--json"])
    states = [r["end_states"] for r in json.loads(out)["odds"]]
    assert code == 0 and len(states) == len(lazy) and states[0]
    assert not any(states[1:])
    code, out, err = invoke(["run", str(script), "--seed", "3", "--json", "--odds", "full"])
    states = [r["end_states"] for r in json.loads(out)["odds"]]
    assert code == 0 and len(states) == len(lazy) and all(states)


def _rec(qid: str, dice: int) -> RollOdds:
    dist = successes_dist(DiceSpec(dice, target=4))
    return RollOdds(qid, None, OddsReport(Msg.of("odds.value", value=qid),
                                            Msg.of("odds.unit.successes"), dist))


def test_what_if_pairs_rolls_by_id_then_by_place_and_shows_lone_rolls() -> None:
    from referee.render.whatif import pairs

    a = [_rec("save.car1", 1), _rec("save.tank", 2), _rec("extra", 1)]
    b = [_rec("save.car2", 1), _rec("save.tank", 3)]
    got = [(x.question if x else None, y.question if y else None) for x, y in pairs(a, b)]
    assert got == [("save.car1", "save.car2"), ("save.tank", "save.tank"), ("extra", None)]
    tables = compare(a, b, Msg.of("odds.value", value="A"), Msg.of("odds.value", value="B"))
    assert tables[2].title.id == "odds.whatif.title_only_a"
    assert all(texts(row)[2:] == ("-", "-") and values(row)[2:] == (None, None)
               for row in tables[2].rows)
    assert [t.title.id for t in compare([], b, Msg.of("odds.value", value="A"),
                                        Msg.of("odds.value", value="B"))] == \
        ["odds.whatif.title_only_b"] * 2


def test_what_if_refuses_a_vs_answer_that_variant_b_never_meets() -> None:
    code, _, err = invoke(["odds", "epic", "--script", SCRIPT, "--vs", "no-such-question=1"])
    assert code == 2 and "--vs no-such-question: variant B never asks this question" in err


def test_no_dice_names_the_answers_it_assumed() -> None:
    code, _, err = invoke(["odds", "fow", "--declaration",
                           "transcripts/scripts/declarations/fow-odds.toml"])
    assert code == 2
    assert "no dice" in err and "answers assumed:" in err and "results=" in err


def test_what_if_keeps_end_states_of_one_label_apart_and_marks_notes_by_variant() -> None:
    from referee.render.whatif import notes

    twin = Msg.of("odds.value", value="squad: broken")

    def rec(p1: Fraction, p2: Fraction, note: str) -> RollOdds:
        dist = successes_dist(DiceSpec(1, target=4))
        return RollOdds("q", None, OddsReport(
            Msg.of("odds.value", value="q"), Msg.of("odds.unit.successes"), dist,
            end_states=(EndState(twin, p1), EndState(twin, p2)),
            notes=(Msg.of("odds.value", value="shared"), Msg.of("odds.value", value=note))))

    a, b = rec(Fraction(1, 4), Fraction(1, 2), "a"), rec(Fraction(1, 3), Fraction(1, 2), "b")
    (table,) = compare([a], [b], Msg.of("odds.value", value="A"), Msg.of("odds.value", value="B"))
    twins = [texts(row)[1:] for row in table.rows if values(row)[0].get("label") == twin]
    assert twins == [("25.0%", "33.3%", "+8.3"), ("50.0%", "50.0%", "+0.0")]
    assert [n.id for n in notes(a, b)] == ["odds.value", "odds.whatif.note_a",
                                           "odds.whatif.note_b"]


def test_dist_sum_map_and_equality_are_exact_and_keep_the_runs() -> None:
    d6 = total_dist(1, 6)
    assert d6 + d6 == total_dist(2, 6) == enumerate_totals(2, 6)
    assert (d6 + Dist.point(3))[4] == Fraction(1, 6) and (d6 + Dist.point(3)).low == 4
    skew = Dist.from_counts({0: 1, 1: 3}) + Dist.from_counts({0: 1, 1: 2})
    assert dict(skew.items()) == {0: Fraction(1, 12), 1: Fraction(5, 12), 2: Fraction(1, 2)}
    halves = d6.map(lambda k: k // 2)
    assert dict(halves.items()) == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3),
                                    3: Fraction(1, 6)}
    sim = Dist.from_counts({0: 3, 1: 1}, runs=4)
    assert sim.map(lambda k: 1 - k).runs == 4 and not sim.map(lambda k: k).exact
    assert sim != Dist.from_counts({0: 3, 1: 1})  # an estimate is not the exact value
    assert (sim + d6).runs == 4 and (d6 + sim).runs == 4 and (d6 + d6).exact
    assert Dist.mixture([(Fraction(1, 2), sim), (Fraction(1, 2), d6)]).runs == 4
    assert d6.then(lambda k: sim).runs == 4 and d6.then(Dist.point).exact
    mixed = Dist.mixture([(Fraction(1, 4), Dist.point(0)), (Fraction(3, 4), d6)])
    assert mixed[0] == Fraction(1, 4) and mixed[6] == Fraction(1, 8)
    assert sum(p for _, p in mixed.items()) == 1


def test_wilson_interval_is_centred_as_wilson_not_on_the_estimate() -> None:
    from referee.odds.dist import wilson

    low, high = wilson(0.0, 100)
    assert low < 1e-12 and 0.036 < high < 0.038  # 3.7%: the textbook value for 0/100
    low, high = wilson(0.5, 100)
    assert abs((low + high) / 2 - 0.5) < 1e-12 and 0.403 < low < 0.404


def test_chart_shows_the_likeliest_rows_and_a_single_outcome_tail_as_itself() -> None:
    rows = chart_rows(plain(question(12, 4)))  # 0..12: 13 outcomes, two one-outcome tails
    assert [r[0] for r in rows] == [str(k) for k in range(13)]
    assert sum(p for _, p, _ in rows) == 1
    rows = chart_rows(plain(question(40, 5)))  # mean 13.3: the window sits around it
    shown = [int(r[0]) for r in rows[1:-1]]
    assert rows[0][0] == f"≤{shown[0] - 1}" and rows[-1][0] == f"≥{shown[-1] + 1}"
    assert shown[0] <= 9 and shown[-1] >= 17 and len(shown) == 11
    assert rows[-1][1] == rows[-1][2] == successes_dist(DiceSpec(40, target=5)
                                                        ).at_least(shown[-1] + 1)
    # end rows under 0.05% join the tail: 14 dice at 6+ show 0..8 and "9 or more", not 0..10
    rows = chart_rows(plain(question(14, 6)))
    assert [r[0] for r in rows] == [*map(str, range(9)), "≥9"]
    assert all(p >= Fraction(1, 2000) for label, p, _ in rows if label[0] not in "≤≥")


def test_a_possible_outcome_always_shows_a_sliver_of_bar() -> None:
    from referee.render.odds import bar

    assert bar(Fraction(1, 10**9), Fraction(1, 2)).strip() == "▏"
    assert bar(Fraction(0), Fraction(1, 2)).strip() == ""
    assert bar(Fraction(1, 2), Fraction(1, 2)) == "█" * 20


def test_after_line_gives_the_percentile_and_this_or_more_or_less() -> None:
    from referee.render.odds import after_line

    report = plain(question(2, 4))  # 0: 1/4, 1: 1/2, 2: 1/4
    line = after_line(RollOdds("q", None, report, 2))
    assert line == "  → successes: 2, percentile 88 (this or more 25.0%, this or less 100%)"
    line = after_line(RollOdds("q", None, report, 0))
    assert line == "  → successes: 0, percentile 12 (this or more 100%, this or less 25.0%)"


def test_an_approximate_end_state_shows_its_interval_and_the_chart_says_approximate() -> None:
    dist = Dist.from_counts({0: 500, 1: 500}, runs=1000)
    state = EndState(Msg.of("odds.value", value="broken"), Fraction(1, 2), runs=1000)
    lines = report_lines(OddsReport(Msg.of("odds.value", value="t"),
                                    Msg.of("odds.unit.successes"), dist, end_states=(state,)))
    assert "(approximate: 1000 seeded simulation runs)" in lines[0]
    assert lines[-1] == "    broken: ≈50.0% (95% interval 46.9%–53.1%)"


def test_what_if_marks_estimates_and_shows_the_undecided_thresholds() -> None:
    def record(dice: int, runs: int | None = None) -> RollOdds:
        dist = successes_dist(DiceSpec(dice, target=4))
        if runs is not None:
            dist = Dist.from_counts(dist.counts()[0], runs=runs)
        return RollOdds("hit", "E-8", OddsReport(Msg.of("odds.value", value=dice),
                                                   Msg.of("odds.unit.successes"), dist))

    (table,) = compare([record(30)], [record(30, runs=1000)], Msg.of("odds.value", value="A"),
                       Msg.of("odds.value", value="B"))
    ks = [values(row)[0]["k"] for row in table.rows[1:]]
    assert len(ks) == 8 and ks[0] <= 15 <= ks[-1]  # around the mean, not from 1 up
    shown = [texts(row) for row in table.rows]
    assert all(row[2].startswith("≈") and not row[1].startswith("≈") for row in shown)
    assert all(row[3].startswith("≈") for row in shown)  # B − A: an estimate too


def test_odds_refuses_a_bad_answer_value_naming_the_option_in_one_line() -> None:
    for args, flag in ((["-a", "action=bogus"], "--answer action=bogus"),
                       (["--vs", "action=bogus"], "--vs action=bogus"),
                       (["-a", "to-hit.heavy-cannon=x"], "--answer to-hit.heavy-cannon=x")):
        code, _, err = invoke(["odds", "epic", "--script", SCRIPT, *args])
        assert code == 2 and err.startswith("error: " + flag + ": ") and err.count("\n") == 1
        assert "Traceback" not in err and SCRIPT not in err


def broken_measure_odds(question: DiceQuestion) -> OddsReport:
    """An odds function whose report cannot read the roll (for the test below)."""
    def measure(_: Any) -> int:
        raise KeyError("no such face")

    return OddsReport(Msg.of("odds.value", value="t"), Msg.of("odds.unit.successes"),
                      Dist.point(0), measure)


def test_a_fault_after_the_roll_keeps_the_roll_and_says_there_are_no_odds(monkeypatch) -> None:
    from referee.core.oddsref import OddsRef

    monkeypatch.delenv("REFEREE_STRICT_ODDS")
    q = DiceQuestion(id="q", text=Msg.of("odds.value", value=1),
                     spec=DiceSpec(3, target=4, count_only=True),
                     odds=OddsRef.to("tests.odds.test_odds_core:broken_measure_odds"))
    shown: list[str] = []
    port = OddsPort(SequencePort(["=2"], KeyedDice(1)), show=shown.extend)
    assert port.ask(q).successes == 2
    assert shown[0].startswith("Odds: t") and shown[-1].endswith("KeyError; the attack goes on)")
    assert port.rolls == []


def test_what_if_table_keeps_its_numbers_whole_at_an_80_column_terminal() -> None:
    import io

    from rich.console import Console

    from referee.render.console import print_table

    label = Msg.of("odds.value", value="Green Company (invented): chance it is broken after "
                                        "the attack, with a long name")

    def record(dice: int) -> RollOdds:
        dist = successes_dist(DiceSpec(dice, target=4))
        return RollOdds("hit", "E-8", OddsReport(Msg.of("odds.value", value=dice),
                                                   Msg.of("odds.unit.successes"), dist,
                                                   end_states=(EndState(label,
                                                                        dist.at_least(2)),)))

    (table,) = compare([record(12)], [record(14)],
                       Msg.of("odds.value", value="A: action=advance"),
                       Msg.of("odds.value", value="B: action=sustained-fire"))
    out = io.StringIO()
    print_table(Console(file=out, width=80, color_system=None), table, label_wraps=True)
    text = out.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    for row in table.rows:
        assert all(cell in text for cell in texts(row)[1:])


def test_odds_refuses_an_answer_no_question_meets_instead_of_assuming_the_default() -> None:
    code, _, err = invoke(["odds", "epic", "--script", SCRIPT, "-a", "acton=double"])
    assert code == 2 and err.startswith("error: --answer acton: the attack never asks")
    code, _, err = invoke(["odds", "epic", "--script", SCRIPT, "-a", "action=double",
                           "--vs", "action=sustained-fire"])
    assert code == 0, err
