"""Hypothesis properties of the Epic attack (issue 3, Tests)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.rulesets.epic.allocation import HitKind, Target, eligible, legal_units
from tests.support.epic import decl, tunit

TYPES = st.sampled_from(["INF", "LV", "AV"])


@st.composite
def formations(draw: st.DrawFn) -> list[Target]:
    n = draw(st.integers(1, 8))
    return [Target(f"u{i}", f"U{i}", draw(TYPES), draw(st.sampled_from([5, 10, 15, 20])), i,
                   draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))
            for i in range(n)]


@settings(max_examples=300, deadline=None)
@given(formations(), st.lists(st.sampled_from(["ap", "at", "mw"]), max_size=15),
       st.randoms(use_true_random=False), st.booleans())
def test_E10_no_unit_takes_a_second_hit_while_an_eligible_unit_has_none(
        units: list[Target], fires: list[str], rnd: Any, cover_ok: bool) -> None:
    taken: dict[str, int] = {}
    for fire in fires:
        kind = HitKind(fire, cover_ok)
        legal = legal_units(units, kind, taken)
        pool = eligible(units, kind)
        assert bool(legal) == bool(pool)  # a hit is wasted only when nobody can take it
        if not legal:
            continue
        chosen = rnd.choice(legal)
        assert taken.get(chosen.key, 0) == min(taken.get(u.key, 0) for u in pool)
        level = [u for u in pool if taken.get(u.key, 0) == taken.get(chosen.key, 0)]
        assert chosen.distance == min(u.distance for u in level)  # front to back
        taken[chosen.key] = taken.get(chosen.key, 0) + 1


def _plain_attack(n_units: int, shots: int, seed: int) -> Any:
    targets = [tunit(f"U{i}", distance=5 * i + 5) for i in range(n_units)]
    d = decl([{"name": "Gun", "shots": shots, "ap": 4}], targets)
    # all dice rolled from the seed; equal distances never occur, so no question but dice
    return api.attack("epic", {"action": "advance"}, declaration=d, seed=seed)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 10), st.integers(0, 10_000))
def test_E13_plain_attack_markers_added_equal_one_plus_casualties(
        n_units: int, shots: int, seed: int) -> None:
    r = _plain_attack(n_units, shots, seed)
    assert r.outcome_data["markers_added"] == 1 + len(r.outcome_data["casualties"])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 10), st.integers(0, 10_000))
def test_E11_a_failed_save_never_happens_on_a_roll_at_or_above_the_save(
        n_units: int, shots: int, seed: int) -> None:
    r = _plain_attack(n_units, shots, seed)
    for step in r.steps:
        if step.clause == "E-11" and "need" in step.data:
            faces, need = step.data["faces"], step.data["need"]
            assert step.data["failed"] == sum(1 for f in faces if f < need)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(1, 10), st.integers(0, 10_000))
def test_results_are_identical_for_identical_dice(n_units: int, shots: int, seed: int) -> None:
    assert (_plain_attack(n_units, shots, seed).to_json()
            == _plain_attack(n_units, shots, seed).to_json())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(TYPES, st.sampled_from([10, 20, 30])), min_size=1, max_size=6),
       st.integers(0, 6), st.integers(0, 6), st.integers(0, 10_000))
def test_E10_whole_attack_never_gives_a_second_hit_while_an_eligible_unit_has_none(
        units: list[tuple[str, int]], ap_shots: int, at_shots: int, seed: int) -> None:
    from referee.frontends.answers import AnswerPort

    weapons = [{"name": "Gun", "shots": max(ap_shots, 1), "ap": 3},
               {"name": "Lance", "shots": max(at_shots, 1), "at": 3}]
    targets = [tunit(f"U{i}", t, d, 4) for i, (t, d) in enumerate(units)]
    plan = api.plan_attack("epic", seed=seed, declaration=decl(weapons, targets))
    # every choice left to its documented default, every die rolled from the seed
    port = AnswerPort({"action": "advance"}, plan.dice, use_defaults=True,
                      roll_missing_dice=True)
    r = api.play(plan, port)
    kinds = {f"u{i}": t for i, (t, _) in enumerate(units)}
    reach = {"ap": {"INF", "LV"}, "at": {"AV", "LV"}}
    taken = dict.fromkeys(kinds, 0)
    for fire, key in r.outcome_data["allocation"]:
        pool = [k for k, t in kinds.items() if t in reach[fire]]
        assert taken[key] == min(taken[k] for k in pool)
        taken[key] += 1
