"""Hypothesis: any random sequence of legal activations (empty ones too: a player who
activates and then does nothing), actions and passes ends the operations phase by the rules
(L-2, L-X1: an empty activation counts as a pass), and never lets a marked unit act again
(L-8, L-11; Op Fire and spotted-hex fire only as L-12 to L-14 allow)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.dice import DiceRoll, DiceSource
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
from referee.rulesets import find_ruleset
from referee.rulesets.lnlt.phase import phase_over
from referee.rulesets.lnlt.play import begin, play
from referee.rulesets.lnlt.roster import Roster

HEXES = ["H1", "H2", "H3", "H4", "H5"]
ADJ = {"H1": ["H2", "H3"], "H2": ["H3", "H4"], "H3": ["H4"], "H4": ["H5"]}
BUDGET = 25  # impulses of free play; after it every player passes


@st.composite
def units(draw: Any, side: str, n: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["mmc", "mmc", "smc", "vehicle"]))
    out: dict[str, Any] = {"id": f"{side}{n}", "side": side, "hex": draw(st.sampled_from(HEXES)),
                           "kind": kind, "ifp": draw(st.integers(0, 4))}
    if kind == "smc" and draw(st.booleans()):
        out.update(leader=True, lm=draw(st.integers(1, 2)), ifp=0)
    if kind == "vehicle":
        out["sws"] = [{"id": "mg", "kind": "mg", "fp": draw(st.integers(1, 5))}]
        if draw(st.booleans()):
            out.update(armor_leader=True, lm=1)
    elif draw(st.booleans()):
        out["sws"] = [{"id": "sw", "kind": draw(st.sampled_from(["mg", "flamethrower", "oft"])),
                       "fp": draw(st.integers(0, 4))}]
    out["position"] = draw(st.sampled_from(["open", "open", "entrance", "inside"]))
    if draw(st.booleans()):
        out["level"] = draw(st.integers(0, 2))
    out["markers"] = draw(st.sampled_from([[], [], [], ["ops-complete"], ["fired"]]))
    return out


@st.composite
def rosters(draw: Any) -> Roster:
    grey = [draw(units("G", i)) for i in range(draw(st.integers(1, 4)))]
    red = [draw(units("R", i)) for i in range(draw(st.integers(1, 4)))]
    return Roster.model_validate({"sides": ["G", "R"], "initiative": draw(
        st.sampled_from(["G", "R"])), "adjacent": ADJ, "units": grey + red})


class RandomPort:
    """Answers every question with a legal value drawn by hypothesis."""

    def __init__(self, data: Any) -> None:
        self.data = data
        self.impulse = 0
        self.idle = False

    def ask(self, q: Question) -> Any:
        draw = self.data.draw
        if q.id.endswith(".do"):
            self.impulse = int(q.id[1:].split(".")[0])
            # L-X1: some activations do nothing at all (done at once, no leader reach)
            self.idle = draw(st.integers(0, 3)) == 0
        if isinstance(q, ChoiceQuestion):
            if self.impulse > BUDGET and "pass" in q.values:
                return "pass"
            if self.idle and "done" in q.values:
                return "done"
            return draw(st.sampled_from(q.values))
        if self.idle and isinstance(q, MultiChoiceQuestion) and ".reach" in q.id:
            return q.accept([])
        if isinstance(q, MultiChoiceQuestion):
            most = len(q.values) if q.max_count is None else q.max_count
            picked = draw(st.lists(st.sampled_from(q.values), min_size=q.min_count,
                                   max_size=most, unique=True))
            needs = getattr(q, "needs_one", ())
            if needs and not set(picked) & set(needs):
                picked.append(draw(st.sampled_from(needs)))  # the only legal answers
            return q.accept(picked)
        if isinstance(q, ConfirmQuestion):
            return draw(st.booleans())
        if isinstance(q, NumberQuestion):  # within the question's bounds (a Hero's IFP >= 0)
            low = -2 if q.minimum is None else max(-2, q.minimum)
            high = 3 if q.maximum is None else min(3, q.maximum)
            return draw(st.integers(low, high))
        if isinstance(q, LineQuestion):  # "Fire from ...": the DRM and TM in one line
            return q.accept(f"{draw(st.integers(-2, 3))} {draw(st.integers(-2, 3))}")
        assert isinstance(q, DiceQuestion)
        faces = tuple(draw(st.integers(1, 6)) for _ in range(q.spec.count))
        return DiceRoll(faces, 0, DiceSource.TYPED)


OPTION_SETS = [{}, {"pass-count": "forced-passes-ignored"},
               {"sw-only-fire-marks-owner": "false", "ops-complete-op-fire": "half"}]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roster=rosters(), data=st.data(), which=st.integers(0, len(OPTION_SETS) - 1))
def test_L2_L8_random_legal_play_ends_by_the_rules_and_marked_units_never_act(
        roster: Roster, data: Any, which: int) -> None:
    options = resolve_options(find_ruleset("lnlt").option_specs(), OPTION_SETS[which])
    log = StepLog()
    phase = begin(roster, RandomPort(data), log)
    # play impulse by impulse, checking the end rule after each one
    while not phase.ended:
        before = phase.impulses
        assert phase_over(phase) is None  # L-2: a phase that should be over never goes on
        play(phase, RandomPort(data), options, log, 1)
        assert phase.impulses == before + 1
        assert phase.impulses <= BUDGET + 2 * 3 + 2, "the phase did not end"
    reason = phase.end_reason
    on_map = [u for u in phase.roster.units if u.on_map]
    if reason == "three-passes":
        # L-X1: a pass, or an activation in which nothing acted and no leader became Ops
        # Complete (it counts as a pass); any other activation resets the count
        def counted(r: Any) -> bool:
            return r.kind == "pass" or (not r.did and r.passes > 0)

        assert all(counted(r) for r in phase.log[-3:]) or which == 1
        assert [r.passes for r in phase.log[-3:]] == [1, 2, 3] or which == 1
        assert phase.passes == 3
    else:
        assert reason == "all-used" and all(u.markers for u in on_map)
    for r in phase.log:
        if r.kind == "activation" and r.did:
            assert r.passes == 0, r  # an activation that did something resets the count
        if r.kind == "activation" and not r.did and r.passes == 0:
            # reset only if a leader who activated others became Ops Complete (L-10)
            assert any(a.impulse == r.number and a.action == "activate-others"
                       for a in phase.actions), r
    # L-1: the sides alternate, the initiative side first
    sides = [r.side for r in phase.log]
    assert all(a != b for a, b in itertools.pairwise(sides))
    if sides:
        assert sides[0] == phase.initiative
    # L-8, L-11 (exceptions L-12 to L-14): no marked unit acts again
    spotted_now = {(a.impulse, a.unit) for a in phase.actions if a.action == "spot"}
    for act in phase.actions:
        if act.action in ("fire", "move", "spot", "activate-others"):
            assert act.markers_before == [], act
        elif act.action == "move-fire":  # L-5: Assault Move or Stealth, same impulse
            assert set(act.markers_before) <= {"assault-move", "stealth"}, act
            assert any(m.unit == act.unit and m.impulse == act.impulse and m.action == "move"
                       for m in phase.actions), act
        elif act.action == "op-fire":
            assert not set(act.markers_before) & {"moved", "low-crawl", "fired"}, act
        else:  # spotted-fire: only in the impulse it spotted
            assert act.markers_before == ["ops-complete"], act
            assert (act.impulse, act.unit) in spotted_now, act
    # every unit acts at most once as its own action in a turn (unless the L-X4 house rule
    # leaves a squad that fired only its SW free to act again)
    own = [a.unit for a in phase.actions if a.action in ("fire", "move", "spot",
                                                          "activate-others")]
    if options["sw-only-fire-marks-owner"]:
        assert len(own) == len(set(own))
