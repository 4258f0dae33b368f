"""Combat Commander odds (issue 8): every exact result checked against independent code.

* the brief's numbers: the targeting-product counts (C-1) and the fire odds oracle (C-5);
* exhaustive enumeration: every order the cards left in small virtual decks can be drawn in,
  each run through the real resolver, against the exact end states;
* a seeded simulation of the resolver itself (full decks, a reshuffle) within 3 standard
  deviations; every distribution sums to exactly 1 (hypothesis); the percentile after a roll.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.dice import KeyedDice
from referee.core.questions import DiceQuestion, Question
from referee.core.text import Msg
from referee.odds.generic import report_for
from referee.odds.report import OddsReport
from referee.rulesets.base import AttackContext
from referee.rulesets.cc import arithmetic as ar
from referee.rulesets.cc import odds, odds_walk
from referee.rulesets.cc.attack import attack
from referee.rulesets.cc.deck import FateCardQuestion, draw_card, edition, parse_key
from referee.rulesets.cc.declaration import FireDeclaration
from referee.rulesets.cc.odds_draws import DeckRun
from tests.support import ROOT
from tests.support import cc_reference as reference

GERMANY: tuple[str, ...] = edition("cc_20th").composition("germany") or ()
AMERICA: tuple[str, ...] = edition("cc_20th").composition("america") or ()


def squad(name: str = "Squad", **kw: Any) -> dict[str, Any]:
    return {"name": name, "hex": "A1", "fp": 5, "range": 5, "distance": 2, **kw}


def unit(name: str, **kw: Any) -> dict[str, Any]:
    return {"name": name, "morale": 6, "broken_morale": 8, "vp": 1, **kw}


def leader(name: str, command: int, **kw: Any) -> dict[str, Any]:
    return unit(name, kind="leader", command=command, morale=8, broken_morale=7, **kw)


MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "A1", "fp": 6,
          "range": 12, "distance": 3}


def decl(firing: list[dict[str, Any]], units: list[dict[str, Any]],
         **kw: Any) -> dict[str, Any]:
    return {"attacker": "germany", "defender": "america", "target_hex": "X1",
            "firing": firing, "target": units, **kw}


class SequencePort:
    """Draws each Fate card from a fixed sequence per nation (as a virtual deck would draw
    it); every other question at its default. Keeps the odds report of each dice question
    the first time it is asked."""

    def __init__(self, cards: dict[str, list[str]], reports: dict[str, OddsReport]) -> None:
        self.cards = {k: list(v) for k, v in cards.items()}
        self.reports = reports

    def ask(self, question: Question) -> Any:
        if isinstance(question, FateCardQuestion):
            if question.id not in self.reports:
                self.reports[question.id] = report_for(question)
            key = self.cards[question.nation].pop(0)
            assert question.remaining is not None and key in question.remaining
            return draw_card((key,), 0)
        return question.default_value  # type: ignore[attr-defined]


def options(*given: str) -> Any:
    return api.plan_attack("cc", seed=1, options=list(given)).options


def run(declaration: dict[str, Any], cards: dict[str, list[str]], state: dict[str, list[str]],
        opts: Any, reports: dict[str, OddsReport]) -> dict[str, str]:
    ctx = AttackContext(SequencePort(cards, reports), opts,
                        FireDeclaration.model_validate(declaration),
                        state={"decks": {f"cc_20th/{k}": v for k, v in state.items()}})
    data = attack(ctx).outcome_data
    return dict(data.get("results", {})) if data.get("hit", True) else {}


def end_state_values(report: OddsReport) -> dict[str, Fraction]:
    return {render(e.label): e.value for e in report.end_states}


def tally(outcomes: Sequence[dict[str, str]], names: Sequence[str]) -> dict[str, Fraction]:
    """Each unit's share of each result over equally likely runs, labelled as the odds."""
    counts: Counter[str] = Counter()
    for results in outcomes:
        for name in names:
            result = results.get(name, "no-effect")
            counts[render(odds._label(odds.Unit(name, name, "unit", 0, None, 0, False, False,
                                                  False), ar.Result(result)))] += 1
    return {k: Fraction(v, len(outcomes)) for k, v in counts.items()}


def exhaustive(declaration: dict[str, Any], state: dict[str, list[str]], draws: dict[str, int],
               opts: Any, at: str, prefix: dict[str, list[str]] | None = None
               ) -> tuple[OddsReport, dict[str, Fraction]]:
    """Run the resolver for every ordered draw of ``draws[nation]`` more cards left after
    ``prefix``, all equally likely; the report shown at question ``at`` and the share of
    each unit's result."""
    prefix = prefix or {}
    nations = list(state)
    per_nation = []
    for n in nations:
        left = list(state[n])
        for key in prefix.get(n, []):
            left.remove(key)
        per_nation.append([list(prefix.get(n, [])) + list(p)
                           for p in itertools.permutations(left, draws[n])])
    reports: dict[str, OddsReport] = {}
    outcomes = [run(declaration, dict(zip(nations, combo, strict=True)), state, opts, reports)
                for combo in itertools.product(*per_nation)]
    names = [u["name"] for u in declaration["target"]]
    return reports[at], tally(outcomes, names)


def check(report: OddsReport, shares: dict[str, Fraction]) -> None:
    for label, value in end_state_values(report).items():
        if ":" in label and not label.startswith("the "):
            assert value == shares.get(label, 0), label


# -- the brief's numbers -----------------------------------------------------------------------
TARGETING_ORACLE = {1: 35, 2: 33, 3: 31, 4: 28, 5: 26, 6: 22, 7: 22, 8: 20, 9: 19, 10: 17,
                    11: 17, 12: 13, 13: 13, 14: 13, 15: 11, 16: 10, 17: 10, 18: 8, 19: 8,
                    20: 6, 21: 6, 22: 6, 23: 6, 24: 4, 25: 3, 26: 3, 27: 3, 28: 3, 29: 3,
                    **{r: 1 for r in range(30, 36)}, 36: 0, 40: 0}


def fate(qid: str, nation: str = "germany", remaining: tuple[str, ...] | None = None,
         composition: tuple[str, ...] | None = GERMANY) -> FateCardQuestion:
    return FateCardQuestion(id=qid, text=Msg.of("cc.q.fire", nation=nation, fp=0),
                            nation=nation, edition_id="cc_20th", composition=composition,
                            remaining=composition if remaining is None else remaining)


def plan_facts(units: list[dict[str, Any]], defence_nation: str = "america",
               same: bool = False, remaining: tuple[str, ...] | None = AMERICA,
               **rules: Any) -> dict[str, Any]:
    full = [dict(key=u["name"].casefold(), name=u["name"], kind=u.get("kind", "unit"),
                 morale=u["morale"], broken_morale=u.get("broken_morale"),
                 command=u.get("command", 0), broken=u.get("broken", False),
                 suppressed=u.get("suppressed", False), moving=u.get("moving", False))
            for u in units]
    order = [u["key"] for u in full if u["kind"] != "leader"] + \
        [u["key"] for u in full if u["kind"] == "leader"]
    return {"units": tuple(full), "order": tuple(order),
            "rules": {"cover": 0, "suppressed_tie": "stays-suppressed",
                      "command_from": "highest", "leader_commands_self": True, **rules},
            "defence": {"nation": defence_nation, "same": same, "remaining": remaining,
                        "full": AMERICA if defence_nation == "america" else GERMANY}}


@pytest.mark.clause("C-1")
@pytest.mark.parametrize("hindrance", [0, 3])
def test_C1_targeting_odds_reproduce_the_briefs_product_counts(hindrance: int) -> None:
    for r, count in TARGETING_ORACLE.items():
        if r - hindrance < 1:
            continue
        report = odds.targeting(fate("targeting"), piece="Mortar", distance=r - hindrance,
                                hindrance=hindrance, fp=6, **plan_facts([unit("A")]))
        assert report.end_states[0].value == Fraction(count, 36), r
        assert render(report.end_states[0].label) == "the targeting roll hits the hex"
    # the product distribution itself: every ordered pair twice in 72 cards
    report = odds.targeting(fate("targeting"), piece="Mortar", distance=5, hindrance=0, fp=6,
                            **plan_facts([unit("A")]))
    pairs = Counter(a * b for a in range(1, 7) for b in range(1, 7))
    assert dict(report.dist.items()) == {k: Fraction(v, 36) for k, v in pairs.items()}


@pytest.mark.clause("C-5")
@pytest.mark.parametrize("d", [-4, -2, -1, 0, 1, 2, 4, 6])
def test_C5_fire_odds_of_two_full_decks_are_the_briefs_oracle(d: int) -> None:
    """Fire card from the German deck, defence card from the American one: independent, and a
    full deck holds every pair twice, so the odds are those of 2d6 against 2d6."""
    oracle = {-4: (0.097, 0.062), -2: (0.239, 0.097), -1: (0.336, 0.108), 0: (0.444, 0.113),
              1: (0.556, 0.108), 2: (0.664, 0.097), 4: (0.841, 0.062), 6: (0.946, 0.027)}
    report = odds.fire(fate("fire"), fp=6 + d, weapons=(), **plan_facts([unit("A")]))
    ends = end_state_values(report)
    beats, ties = ar.fire_odds(d)
    assert ends["A: broken"] == beats and ends["A: suppressed"] == ties
    # the brief rounds to 3 places (its -2 and +2 ties, 0.0965, are rounded up)
    assert abs(float(beats) - oracle[d][0]) < 0.001 and abs(float(ties) - oracle[d][1]) < 0.001


@pytest.mark.clause("C-11")
def test_C11_C13_trigger_chances_of_the_fire_card_are_the_decks() -> None:
    report = odds.fire(fate("fire"), fp=5, weapons=("LMG",), **plan_facts([unit("A")]))
    ends = end_state_values(report)
    assert ends["the fire card shows Jammed!"] == Fraction(2, 72)
    assert ends["the fire card shows Event!"] == Fraction(10, 72)
    assert ends["the fire card shows Sniper!"] == Fraction(7, 72)
    assert ends["the fire card shows Time!"] == Fraction(2, 72)
    # from a deck the two Jammed! cards have left, no Jammed! any more
    left = tuple(k for k in GERMANY if not k.endswith(":jammed"))
    ends = end_state_values(odds.fire(fate("fire", remaining=left), fp=5, weapons=(),
                                      **plan_facts([unit("A")])))
    assert ends["the fire card shows Jammed!"] == 0
    assert ends["the fire card shows Event!"] == Fraction(10, 70)


# -- exhaustive enumeration through the resolver -------------------------------------------------
SMALL_GERMAN = ["1-1:jammed", "2-5:event", "3-3:sniper", "5-6", "6-6:time"]
SMALL_AMERICAN = ["1-2", "3-4:event", "4-4", "5-5:sniper", "6-5"]


@pytest.mark.clause("C-12")
def test_C12_exact_end_states_match_every_draw_order_of_small_decks() -> None:
    """A squad and a leader (rolled last) in the hex: fire card from 5 German cards, two
    defence cards from 5 American ones: 5 x 20 runs of the resolver."""
    d = decl([squad(fp=4)], [leader("Lt", 1), unit("B")], cover=1)
    report, shares = exhaustive(d, {"germany": SMALL_GERMAN, "america": SMALL_AMERICAN},
                                {"germany": 1, "america": 2}, options(), "fire")
    check(report, shares)
    assert report.exact and end_state_values(report)["B: broken"] > 0


@pytest.mark.clause("C-X6")
def test_CX6_same_deck_defence_cards_come_after_the_fire_card() -> None:
    """defence-deck=attacker: fire and defence cards from the same 6 German cards."""
    d = decl([squad(fp=6)], [unit("A"), unit("B", suppressed=True)])
    cards = ["1-1:jammed", "2-5:event", "3-4", "4-3:event", "5-2", "6-6:time"]  # four 7s
    report, shares = exhaustive(d, {"germany": cards, "america": SMALL_AMERICAN},
                                {"germany": 3, "america": 0},
                                options("defence-deck=attacker"), "fire")
    check(report, shares)
    # not the same as drawing them from an independent copy of the deck
    ends = end_state_values(report)
    assert ends["A: suppressed"] == shares["A: suppressed"] == Fraction(12 + 0, 30)
    independent = odds.fire(fate("fire", remaining=tuple(sorted(cards))), fp=6, weapons=(),
                            **plan_facts([unit("A"), unit("B", suppressed=True)],
                                         "germany", False, tuple(sorted(cards))))
    assert end_state_values(independent)["A: broken"] != end_state_values(report)["A: broken"]


@pytest.mark.clause("C-1")
def test_C1_ordnance_targeting_then_fire_then_defence_from_one_deck() -> None:
    d = decl([MORTAR], [unit("A", moving=True), unit("B", broken=True)])
    cards = ["1-1:jammed", "2-3", "3-3:sniper", "4-2", "6-5", "2-2"]
    report, shares = exhaustive(d, {"germany": cards, "america": SMALL_AMERICAN},
                                {"germany": 4, "america": 0},
                                options("defence-deck=attacker"), "targeting")
    check(report, shares)
    hits = sum(1 for c in cards if (lambda f: f[0] * f[1] > 3)(parse_key(c)[0]))
    assert end_state_values(report)["the targeting roll hits the hex"] == Fraction(hits, 6)


@pytest.mark.clause("C-12")
def test_C12_two_leaders_the_second_rolls_with_the_first_ones_command_if_unbroken() -> None:
    d = decl([squad(fp=6)], [leader("Lt", 2), leader("Sgt", 1), unit("C")])
    report, shares = exhaustive(d, {"germany": SMALL_GERMAN, "america": SMALL_AMERICAN},
                                {"germany": 1, "america": 3}, options(), "fire")
    check(report, shares)


@pytest.mark.clause("C-5")
def test_C5_defence_roll_odds_are_conditional_on_the_cards_already_drawn() -> None:
    """The report at the second unit's defence roll, after a fixed fire card and a first
    defence card: the second unit's odds from the four American cards left."""
    d = decl([squad(fp=4)], [unit("A"), leader("Lt", 1)])
    report, shares = exhaustive(d, {"germany": SMALL_GERMAN, "america": SMALL_AMERICAN},
                                {"germany": 0, "america": 1}, options(), "defence.lt",
                                prefix={"germany": ["5-6"], "america": ["4-4"]})
    lt = {k: v for k, v in shares.items() if k.startswith("Lt")}
    check(report, lt)
    assert report.dist.low == 8 + 1 + 3  # Morale 8 + own Command 1 + the 1-2 card


@pytest.mark.clause("C-X4")
def test_CX4_suppressed_tie_option_moves_ties_to_broken() -> None:
    d = decl([squad(fp=4)], [unit("A", suppressed=True)])
    report, shares = exhaustive(d, {"germany": SMALL_GERMAN, "america": SMALL_AMERICAN},
                                {"germany": 1, "america": 1},
                                options("suppressed-tie=breaks"), "fire")
    check(report, shares)
    assert "A: suppressed" not in end_state_values(report)


# -- a seeded simulation of the resolver itself ---------------------------------------------------
def simulate_resolver(declaration: dict[str, Any], runs: int, state: dict[str, list[str]],
                      opts: list[str]) -> tuple[OddsReport, Counter[str]]:
    from referee.frontends.answers import AnswerPort
    from referee.frontends.odds import OddsPort

    plan = api.plan_attack("cc", seed=7, options=opts, declaration=declaration)
    decl_value = FireDeclaration.model_validate(declaration)
    rng = KeyedDice(11)
    counts: Counter[str] = Counter()
    first: OddsReport | None = None
    for i in range(runs):
        inner = AnswerPort({}, rng, roll_missing_dice=True, use_defaults=True)
        port: Any = OddsPort(inner, None) if i == 0 else inner
        ctx = AttackContext(port, plan.options, decl_value,
                            state={"decks": {f"cc_20th/{k}": v for k, v in state.items()}})
        data = attack(ctx).outcome_data
        for name, result in data.get("results", {}).items():
            counts[f"{name}: {render(Msg.of(f'cc.result.{result}'))}"] += 1
        if i == 0:
            first = port.rolls[0].report
    assert first is not None
    return first, counts


@pytest.mark.clause("C-12")
@pytest.mark.parametrize("case", ["full-decks", "reshuffle"])
def test_C12_exact_odds_agree_with_a_seeded_simulation_of_the_resolver(case: str) -> None:
    d = decl([squad(fp=5), squad("S2", fp=4)], [unit("A"), leader("Lt", 1), unit("B")],
             cover=1)
    state = {} if case == "full-decks" else {"america": ["3-4:event"]}
    runs = 1500
    report, counts = simulate_resolver(d, runs, state, [])
    assert report.exact
    for label, p in end_state_values(report).items():
        if label.startswith("the "):
            continue
        sd = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(counts[label] / runs - float(p)) <= 3 * sd + 1e-9, label


@pytest.mark.clause("C-12")
def test_C12_a_unit_after_three_leaders_is_exact_and_agrees_with_the_former_walk() -> None:
    """Four leaders (Command 2, 1, 2, 1): the fourth rolls after three whose results change
    its Command. The walk of every unit at once works it out exactly (it was simulated past
    two leaders), equal to the former one-unit walk."""
    units = [leader(f"L{i}", 2 - i % 2) for i in range(4)]
    facts = plan_facts(units)
    report = odds.fire(fate("fire"), fp=8, weapons=(), **facts)
    assert report.exact
    plan = odds._plan(facts["units"], facts["order"], facts["rules"],
                      DeckRun("america", AMERICA, AMERICA), False)
    exact = reference.unit_odds(plan, odds.Stage(DeckRun("germany", GERMANY, GERMANY), 8), 3)
    ends = end_state_values(report)
    assert ends["L3: broken"] == exact[ar.Result.BROKEN]
    assert ends["L3: suppressed"] == exact[ar.Result.SUPPRESSED]


def test_past_the_exact_work_the_later_units_are_simulated_labelled_and_near_exact(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no exact work left the units rolling after more than ``EXACT_LEADERS`` leaders
    are simulated (seeded by the question id: the same every time), near the exact odds."""
    units = [leader(f"L{i}", 2 - i % 2) for i in range(4)]
    facts = plan_facts(units)
    exact = end_state_values(odds.fire(fate("fire"), fp=8, weapons=(), **facts))
    monkeypatch.setattr(odds, "EXACT_WORK", 0)
    odds_walk.fresh()  # nothing kept from the exact walk
    report = odds.fire(fate("fire"), fp=8, weapons=(), **facts)
    sims = {render(e.label): e for e in report.end_states if e.runs}
    assert set(sims) == {"L3: broken", "L3: suppressed"} and not report.exact
    again = odds.fire(fate("fire"), fp=8, weapons=(), **facts)
    assert [e.value for e in again.end_states] == [e.value for e in report.end_states]
    for label, e in sims.items():
        p, runs = float(exact[label]), e.runs or 1
        assert abs(float(e.value) - p) <= 3 * math.sqrt(p * (1 - p) / runs)
        assert e.interval() is not None
    for label, value in end_state_values(report).items():
        if label not in sims:
            assert value == exact[label], label


@pytest.mark.clause("C-12")
@pytest.mark.clause("C-14")
def test_C12_four_leaders_exact_end_states_match_every_draw_order_of_small_decks() -> None:
    """A squad and three leaders whose Commands (2, 1, 2) change the Morale of those after
    them: every order of four defence cards from 5 American ones, after each of 5 fire cards
    (600 runs of the resolver), against the exact end states at the fire roll."""
    d = decl([squad(fp=6)], [unit("B"), leader("Cpt", 2), leader("Lt", 1), leader("Sgt", 2)])
    report, shares = exhaustive(d, {"germany": SMALL_GERMAN, "america": SMALL_AMERICAN},
                                {"germany": 1, "america": 4}, options(), "fire")
    check(report, shares)
    assert report.exact and end_state_values(report)["Sgt: broken"] > 0


@pytest.mark.clause("C-12")
def test_C12_each_defence_roll_finds_its_end_states_kept_from_the_roll_before() -> None:
    """The walk at the fire roll goes through the point every defence roll starts from
    (its card drawn, the leaders' results known): the defence rolls' end states are looked
    up, no step of the walk is taken again, and they equal a walk from cold."""
    from referee.core import work

    class Keeping(SequencePort):
        def __init__(self, cards: dict[str, list[str]], reports: dict[str, OddsReport]
                     ) -> None:
            super().__init__(cards, reports)
            self.questions: dict[str, Question] = {}

        def ask(self, question: Question) -> Any:
            if isinstance(question, FateCardQuestion):
                self.questions[question.id] = question
            return super().ask(question)

    d = decl([squad(fp=6)], [leader(f"L{i}", 1 + i % 3) for i in range(6)])
    reports: dict[str, OddsReport] = {}
    port = Keeping({"germany": ["5-6"], "america": list(AMERICA[:6])}, reports)
    attack(AttackContext(port, options(), FireDeclaration.model_validate(d), state={}))
    odds_walk.fresh()
    assert next(iter(reports)) == "fire" and len(reports) == 7
    for qid, report in reports.items():  # in the order of the rolls, as a table shows them
        with work.counting() as count:
            warm = [e.value for e in report.end_states]
        assert report.exact and (count["cc.walk"] == 0) == (qid != "fire"), qid
        odds_walk.fresh()
        cold = report_for(port.questions[qid]).end_states
        assert [e.value for e in cold] == warm, qid


# -- distributions and percentiles ---------------------------------------------------------------
cards_st = st.lists(st.sampled_from(GERMANY), min_size=1, max_size=12)
units_st = st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans(),
                              st.integers(4, 9), st.integers(0, 3)), min_size=1, max_size=5)


@pytest.mark.clause("C-12")
@pytest.mark.clause("C-14")
@settings(max_examples=60, deadline=None)
@given(cards_st, cards_st, units_st, st.integers(1, 12), st.booleans(),
       st.sampled_from(["fire", "targeting", "defence"]), st.sampled_from(["highest", "sum"]),
       st.booleans(), st.sampled_from(["stays-suppressed", "breaks"]))
def test_C12_the_walk_of_every_unit_at_once_equals_the_former_walk_of_each_unit(
        german: list[str], american: list[str],
        spec: list[tuple[bool, bool, bool, bool, int, int]], fp: int, same: bool, roll: str,
        how: str, self_counts: bool, tie: str) -> None:
    """Every unit's exact chances from the walk of all of them (classes of totals, the
    Command summary, kept points) equal the former one-unit walk's (every total and every
    leader apart): small decks (reshuffles on the way), the same deck or not, any roll."""
    units = [leader(f"U{i}", command, broken=b, suppressed=s, moving=m) if is_leader else
             unit(f"U{i}", morale=morale, broken=b, suppressed=s, moving=m)
             for i, (is_leader, b, s, m, morale, command) in enumerate(spec)]
    facts = plan_facts(units, "germany" if same else "america", same, tuple(sorted(american)),
                       command_from=how, leader_commands_self=self_counts, suppressed_tie=tie)
    attacker = DeckRun("germany", tuple(german), GERMANY)
    plan = odds._plan(facts["units"], facts["order"], facts["rules"],
                      attacker if same else DeckRun("america", tuple(american), AMERICA), same)
    stage = {"fire": odds.Stage(attacker, fp), "targeting": odds.Stage(attacker, fp, fp % 6),
             "defence": odds.Stage(None, attack=fp + 7)}[roll]
    if roll == "defence":
        plan = odds._plan(facts["units"], facts["order"], facts["rules"],
                          DeckRun("america", tuple(american), AMERICA), False)
    order = [plan.units[k] for k in plan.order]
    odds_walk.fresh()
    count, chances = odds.walk_chances(plan, order, odds.attack_cases(plan, stage))
    assert count == len(order)
    for i, u in enumerate(order):
        former = reference.unit_odds(plan, stage, i)
        assert sum(former.values()) == 1
        for r in odds.possible(u, plan.rules):
            assert chances[(u.key, r)] == former.get(r, 0), (u.key, r)


@settings(max_examples=40, deadline=None)
@given(cards_st, cards_st, units_st, st.integers(1, 12), st.booleans())
def test_every_distribution_sums_to_exactly_one(german: list[str], american: list[str],
                                                spec: list[tuple[bool, bool, bool, bool, int,
                                                                 int]],
                                                fp: int, same: bool) -> None:
    units = [leader(f"U{i}", 1, broken=b, suppressed=s, moving=m) if is_leader else
             unit(f"U{i}", morale=morale, broken=b, suppressed=s, moving=m)
             for i, (is_leader, b, s, m, morale, _) in enumerate(spec)]
    facts = plan_facts(units, "germany" if same else "america", same, tuple(sorted(american)))
    question = fate("fire", remaining=tuple(sorted(german)))
    for report in (odds.fire(question, fp=fp, weapons=(), **facts),
                   odds.targeting(question, piece="M", distance=fp, hindrance=1, fp=fp,
                                  **facts)):
        assert sum(p for _, p in report.dist.items()) == 1
        by_unit: Counter[str] = Counter()
        for e in report.end_states:
            by_unit[render(e.label).partition(":")[0]] += e.value
        assert all(0 <= v <= 1 for v in by_unit.values())


@pytest.mark.parametrize("qid", ["fire", "defence.us-squad-invented"])
def test_percentile_after_the_roll_agrees_with_the_distribution(qid: str) -> None:
    run = api.odds("cc", script=ROOT / "transcripts" / "scripts" / "cc-example-c-d.toml")
    record = next(r for r in run.rolls if r.question == qid)
    dist = record.report.dist
    expected = {"fire": 11 + 5, "defence.us-squad-invented": 5 + 10}[qid]
    assert record.actual == expected
    below = sum((p for k, p in dist.items() if k < expected), Fraction(0))
    assert record.percentile == 100 * (below + dist[expected] / 2)


def test_unknown_deck_is_two_independent_dice_with_a_note() -> None:
    question = fate("fire", composition=None, remaining=None)
    question = FateCardQuestion(id="fire", text=question.text, nation="germany",
                                edition_id="cce_2006")
    report = odds.fire(question, fp=5, weapons=(), **plan_facts([unit("A")], remaining=None))
    pairs = Counter(5 + a + b for a in range(1, 7) for b in range(1, 7))
    assert dict(report.dist.items()) == {k: Fraction(v, 36) for k, v in pairs.items()}
    assert not any("fire card shows" in render(e.label) for e in report.end_states)
    assert any("not public" in render(n) for n in report.notes)


# -- referee odds, what-if, --no-odds ------------------------------------------------------------
DECLS = ROOT / "transcripts" / "scripts" / "declarations"


def test_referee_odds_stops_at_the_fire_roll_with_the_units_end_states() -> None:
    run = api.odds("cc", declaration_file=DECLS / "cc-example-c-d.toml")
    assert run.stopped_at == "fire"
    ends = end_state_values(run.rolls[-1].report)
    assert ends["US squad (invented): broken"] == ar.fire_odds(11 - 5)[0]


def test_whatif_joining_the_fire_group_or_not(tmp_path: Any) -> None:
    """Example C without the LMG: group FP one less."""
    import tomllib

    raw = tomllib.loads((DECLS / "cc-example-c-d.toml").read_text(encoding="utf-8"))
    a = api.odds("cc", declaration_file=DECLS / "cc-example-c-d.toml")
    out = tmp_path / "without-lmg.toml"
    text = (DECLS / "cc-example-c-d.toml").read_text(encoding="utf-8")
    out.write_text(text.replace('kind = "weapon"', 'kind = "weapon"\nfires = false'),
                   encoding="utf-8")
    b = api.odds("cc", declaration_file=out)
    assert raw["declaration"]["firing"][-1]["name"] == "LMG J6"
    assert a.rolls[-1].report.dist.mean() == b.rolls[-1].report.dist.mean() + 1


def test_attack_with_no_odds_never_imports_the_odds_code() -> None:
    probe = (
        "import sys\n"
        "from referee.cli import app\n"
        "from referee.context import Environment\n"
        "try:\n"
        "    app(sys.argv[1:], obj=Environment.from_system(), standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('ODDS:' + ','.join(sorted(m for m in sys.modules if m.startswith('referee.odds')"
        " or m == 'referee.rulesets.cc.odds' or m.split('.')[0] == 'dyce')))\n")
    script = str(ROOT / "transcripts" / "scripts" / "cc-example-c-d.toml")
    off = subprocess.run([sys.executable, "-c", probe, "run", script, "--no-odds"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert off.stdout.strip().splitlines()[-1] == "ODDS:", off.stderr
    on = subprocess.run([sys.executable, "-c", probe, "run", script],
                        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert "referee.rulesets.cc.odds" in on.stdout.strip().splitlines()[-1]


def test_every_fate_card_question_names_its_odds_function() -> None:
    seen: list[str] = []

    class Spy:
        def ask(self, question: Question) -> Any:
            if isinstance(question, DiceQuestion):
                assert question.odds is not None
                seen.append(question.odds.target)
            return inner.ask(question)

    from referee.frontends.answers import AnswerPort

    inner = AnswerPort({}, KeyedDice(3), roll_missing_dice=True, use_defaults=True)
    for firing in ([squad()], [MORTAR]):
        ctx = AttackContext(Spy(), options(), FireDeclaration.model_validate(
            decl(firing, [unit("A"), leader("Lt", 1)])), state={})
        attack(ctx)
    assert {t.rsplit(":", 1)[1] for t in seen} >= {"fire", "defence", "targeting"}


def test_whatif_as_json_compares_every_units_end_state() -> None:
    import io
    import json

    from typer.testing import CliRunner

    from referee.cli import app
    from referee.context import Environment

    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=io.StringIO(),
                      stdin_isatty=False, stdout_isatty=False, color=False)
    result = CliRunner().invoke(app, ["odds", "cc", "--declaration",
                                      str(DECLS / "cc-odds-alone.toml"), "--vs-declaration",
                                      str(DECLS / "cc-odds-group.toml"), "--json"], obj=env)
    assert result.exit_code == 0, result.output
    data = json.loads(out.getvalue() + result.output)
    shown = {row[0]: row[1:] for row in data["compare"][0]["rows_text"]}
    # alone FP 6, group FP 7, against Morale 6 +1 cover +1 Command: the brief's -2 and -1 rows
    assert shown["US squad (invented): broken"][:2] == ["23.9%", "33.6%"]
    broken = next(row for row in data["compare"][0]["rows"]
                  if row["what"].get("label", {}).get("text") == "US squad (invented): broken")
    assert broken["a"]["fraction"] == str(ar.fire_odds(-2)[0])
    assert broken["b"]["fraction"] == str(ar.fire_odds(-1)[0])
    assert data["a"]["odds"][0]["end_states"][4]["value"]["fraction"] == str(
        ar.fire_odds(-2)[0])
