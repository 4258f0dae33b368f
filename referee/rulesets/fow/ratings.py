"""The scores of a platoon's ratings (``rulesets/flames-of-war/ratings.toml``): the Skill test
that is its roll to hit in an assault (F-A9), the score to hit it as a target of defensive
fire (F-A4), and the Motivation test of its counterattack test (F-A18)."""

from __future__ import annotations

import functools
from typing import Any

from referee import data

RULESET_ID = "flames-of-war"
SKILLS = ("conscript", "trained", "veteran")
MOTIVATIONS = ("reluctant", "confident", "fearless")


@functools.cache
def _table() -> dict[str, Any]:
    return dict(data.load(RULESET_ID, "ratings"))


def skill_test(skill: str) -> int:
    """F-A9: the score a team of this Skill needs to hit in an assault."""
    return int(_table()["skill_test"][skill])


def to_hit_as_target(skill: str) -> int:
    """F-A4: the score needed to hit a team of this experience in shooting."""
    return int(_table()["to_hit_as_target"][skill])


def motivation_test(motivation: str) -> int:
    """F-A18: the score a platoon of this Motivation needs to pass its test."""
    return int(_table()["motivation_test"][motivation])
