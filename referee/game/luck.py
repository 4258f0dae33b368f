"""How the game history reads an attack's result: who attacked whom, who rolled each roll and
which way was lucky for them, and the units destroyed (expected by the odds, and in fact).

These are readings of values the rulesets already give (the message that declares an attack,
the unit an odds report counts, an end state's label, the outcome's data), kept here as data
so that the rulesets need not know about game history. A roll whose unit is not listed counts
for no side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The step that declares an attack: its message id, and the parameters naming the attacking
# and the defending formation (None: the message does not name it).
DECLARING: Mapping[str, tuple[str | None, str | None]] = {
    "epic.step.declared": ("firing", "target"),
    "epic.step.declared_full": ("firing", "target"),
    "epic.step.declared_barrage": ("firing", "target"),
    "fow.step.declared": ("attacker", "defender"),
    "fow.assault.declared": ("attacker", "defender"),  # a whole assault
    "cc.step.declared": ("attacker", None),  # the attacking nation; the defender's units
    "cc.step.declared_unnamed": ("attacker", None),  # ... at a target hex left unnamed
    "lnlt.step.impulse": ("side", None),  # the side whose impulse it is
}

# What an odds report counts (its unit's message id): who rolls it, and whether more is
# better for them. Epic's and Flames of War's saves count failed saves: fewer is better.
ROLLERS: Mapping[str, tuple[str, bool]] = {
    "epic.odds.unit.hits": ("attacker", True),
    "epic.odds.unit.sixes": ("attacker", True),
    "epic.odds.unit.failed": ("defender", False),
    "fow.odds.unit": ("defender", False),
    "fow.odds.df.unit": ("defender", True),  # defensive fire (a whole assault's rounds
    # alternate who rolls, so their dice count for no side)
    "cc.odds.unit.attack": ("attacker", True),
    "cc.odds.unit.defence": ("defender", True),
    "cc.odds.unit.product": ("attacker", True),  # ordnance targeting: a larger product hits
    "lnlt.odds.unit.attack": ("attacker", True),
    "lnlt.odds.unit.defence": ("defender", True),
    "lnlt.odds.unit.dc": ("defender", False),  # a higher damage-check total is worse
    "waw.odds.unit.hits": ("attacker", True),
    "waw.odds.unit.cancels": ("defender", True),
    "odds.unit.successes": ("attacker", True),
}

# Rolls of a Lock 'n Load impulse made by the side whose impulse it is not (Op Fire): their
# attacker is the defender of the impulse.
OTHER_SIDE_MARKS: Mapping[str, str] = {"lnl-tactical": ".opfire."}

# End states (by label id) that give the units the attack is expected to destroy.
EXPECTED_DESTROYED = ("epic.odds.end.destroyed", "fow.odds.end.expected",
                      "lnlt.odds.end.removed")


def destroyed(ruleset: str, outcome_data: Mapping[str, Any]) -> int | None:
    """The units an attack destroyed, read from its outcome (None: not known)."""
    if ruleset == "epic-armageddon" and isinstance(outcome_data.get("casualties"), list):
        return len(outcome_data["casualties"])
    if ruleset == "flames-of-war" and isinstance(outcome_data.get("effects"), Mapping):
        return sum(1 for effects in outcome_data["effects"].values()
                   if isinstance(effects, list) and "destroyed" in effects)
    return None


def roller(ruleset: str, question: str, unit: str | None) -> tuple[str | None, bool | None]:
    """Who made a roll ("attacker", "defender" or None) and whether more was better."""
    found = ROLLERS.get(unit or "")
    if found is None:
        return None, None
    by, higher = found
    mark = OTHER_SIDE_MARKS.get(ruleset)
    if mark is not None and mark in question:
        by = "defender" if by == "attacker" else "attacker"
    return by, higher


def luck(percentile: float, higher_is_better: bool) -> float:
    """A roll's percentile from its roller's side: 100 is the best roll there could be."""
    return percentile if higher_is_better else 100.0 - percentile
