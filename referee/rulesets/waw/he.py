"""HE mission arithmetic (W-1 to W-4), as pure functions over plain values.

W-1 attack hits, W-2 cancellations (never below zero), W-3 the spread of hits in the hex
(every target one hit before any takes a second), W-4 what the hits do to each kind of unit.
Choices the rules leave to chance or to a player come in through ``pick``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from referee.core import work
from referee.rulesets.waw.tables import ASK, EffectRow


def net_hits(attack_hits: int, cancels: int) -> int:
    """W-2: each cancel removes one hit; the result never goes below zero."""
    return max(attack_hits - cancels, 0)


@dataclass(frozen=True)
class Target:
    key: str
    soft: bool


@dataclass(frozen=True)
class Allocation:
    """One hit given to one unit: its round of the spread and how it was chosen."""

    number: int  # 1, 2, ... in the order given
    unit: str  # a target key
    round: int  # 1: first hits; 2: second hits ...
    how: str  # "full-round", "random", "owner", "spill-over"


Pick = Callable[[Sequence[str], int, int], Sequence[str]]
"""``pick(candidates, count, round)``: the ``count`` distinct candidates that take a hit when
a round has fewer hits than targets."""


def round_candidates(targets: Sequence[Target], round_no: int, spill_over: bool) -> list[str]:
    """Who may take a hit in this round. Round 1: every target. Later rounds: every target,
    or with the W-4 spill-over reading only the soft ones when the hex holds some."""
    if round_no > 1 and spill_over and any(t.soft for t in targets):
        return [t.key for t in targets if t.soft]
    return [t.key for t in targets]


def owner_picks(owner_reading: bool, targets: int, round_no: int) -> bool:
    """W-3: whether the owner picks who takes the hits of a short round: under the owner
    reading (``he-remainder=owner``), except one hit on a hex of two units (the first round
    of two targets), which the excerpt makes random."""
    return owner_reading and not (targets == 2 and round_no == 1)


def distribute(hits: int, targets: Sequence[Target], pick: Pick,
               spill_over: bool = False) -> list[Allocation]:
    """W-3: spread ``hits`` over ``targets`` in rounds of one hit each."""
    out: list[Allocation] = []
    if not targets:
        return out
    remaining, round_no = hits, 1
    while remaining > 0:
        candidates = round_candidates(targets, round_no, spill_over)
        narrowed = len(candidates) < len(targets)
        if remaining >= len(candidates):
            chosen, how = list(candidates), "spill-over" if narrowed else "full-round"
        else:
            chosen = list(pick(candidates, remaining, round_no))
            if len(chosen) != remaining or len(set(chosen)) != remaining or \
                    not set(chosen) <= set(candidates):
                raise ValueError("pick must return distinct candidates")
            how = "spill-over" if narrowed else "picked"
        work.add("waw.hits-placed", len(chosen))
        for key in chosen:
            out.append(Allocation(len(out) + 1, key, round_no, how))
        remaining -= len(chosen)
        round_no += 1
    return out


@dataclass(frozen=True)
class Status:
    disorganized: bool = False
    weakened: bool = False
    eliminated: bool = False

    @property
    def name(self) -> str:
        if self.eliminated:
            return "eliminated"
        if self.disorganized and self.weakened:
            return "weakened-disorganized"
        if self.weakened:
            return "weakened"
        if self.disorganized:
            return "disorganized"
        return "good"


AskCell = Callable[[str], str]
"""``ask(cell)``: the effect the players' rules give for a cell the excerpt leaves open
(``first`` or ``weakened_again``)."""


def apply_effect(status: Status, effect: str, ask: AskCell) -> tuple[Status, str]:
    """One effect on one unit; returns the new status and the effect actually applied."""
    if status.eliminated or effect == "none":
        return status, "none"
    if effect == "disorganize":
        if status.disorganized:
            return status, "none"  # already disorganized: no further penalty
        return replace(status, disorganized=True), "disorganize"
    if effect == "weaken":
        if status.weakened:
            again = ask("weakened_again")
            if again == "weaken":  # a second weakening cannot weaken further
                return status, "none"
            return apply_effect(status, again, ask)
        return replace(status, weakened=True), "weaken"
    if effect == "eliminate":
        return replace(status, eliminated=True), "eliminate"
    raise ValueError(f"unknown effect {effect!r}")


def he_effects(status: Status, hits: int, row: EffectRow,
               ask: AskCell) -> tuple[Status, list[str]]:
    """W-4: the effects of ``hits`` HE hits of one mission on one unit, in order.

    The first hit uses the row's ``first`` cell, every further hit its ``further`` cell; a cell
    marked ``ask`` is answered by ``ask`` (the data file or the player)."""
    applied: list[str] = []
    for i in range(hits):
        cell = "first" if i == 0 else "further"
        effect = getattr(row, cell)
        if effect == ASK:
            effect = ask(cell)

        def again(name: str) -> str:
            value = getattr(row, name)
            return ask(name) if value == ASK else str(value)

        status, done = apply_effect(status, effect, again)
        applied.append(done)
    return status, applied
