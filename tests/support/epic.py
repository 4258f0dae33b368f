"""Builders for Epic declarations in tests: invented units, situations given in full."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee import api
from referee.core.questions import Question
from referee.core.result import Result


def tunit(name: str, type_: str = "INF", distance: float = 10, armour: int | None = 5,
          **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "armour": armour, "distance": distance,
            "in_range": True, "terrain": "open", **extra}


def funit(name: str, weapons: list[str], distance: float = 20, **extra: Any) -> dict[str, Any]:
    return {"name": name, "weapons": weapons, "distance": distance, "in_range": True, **extra}


def decl(weapons: list[dict[str, Any]], targets: list[dict[str, Any]],
         firing_units: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"firing": "Grey Company (invented)",
                           "target": "Red Hill Battery (invented)",
                           "weapons": weapons, "target_units": targets,
                           "firing_blast_markers": 0, "target_blast_markers": 0,
                           "target_broken": False, "crossfire": 0, **extra}
    if firing_units is not None:
        out["firing_units"] = firing_units
    return out


def shoot(declaration: dict[str, Any], answers: dict[str, Any],
          options: tuple[str, ...] = ()) -> Result:
    if "overwatch" not in declaration:  # overwatch fire is the overwatch action: not asked
        answers = {"action": "advance", **answers}
    return api.attack("epic", answers, declaration=declaration, options=options)


def asked(declaration: dict[str, Any], answers: dict[str, Any],
          options: tuple[str, ...] = ()) -> list[str]:
    """The ids of the questions an attack asked, in order."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("epic", seed=1, declaration=declaration, options=options)
    port = ScriptingPort(AnswerPort({"action": "advance", **answers}, plan.dice,
                                    roll_missing_dice=True))
    api.play(plan, port)
    return list(port.answers)


def units_hit(result: Result) -> list[str]:
    return [key for _, key in result.outcome_data["allocation"]]


def played_in(game: Path, declaration: dict[str, Any], answers: dict[str, Any]) -> Result:
    """An attack played in the game file ``game`` (the dice left out rolled from seed 1; no
    answer taken for granted, not even the action)."""
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    return api.play(plan, AnswerPort(answers, plan.dice, roll_missing_dice=True), game=game)


OTHER_FORMATION = "Blue Squad (invented)"


def two_formations(**other: Any) -> dict[str, Any]:
    """A barrage (a Howitzer of 3 points) at the Red Hill Battery's unit A, declared with
    crossfire 1, whose templates also cover unit X of a second formation, the Blue Squad
    (``other``: that formation's own fields, such as its crossfire)."""
    d = decl([{"name": "Howitzer", "barrage": 3}],
             [tunit("A", distance=10, armour=4, under_template=True)],
             [funit("G1", ["Howitzer"])], crossfire=1)
    d["also_under_templates"] = [{"name": OTHER_FORMATION, "broken": False, "blast_markers": 0,
                                  **other,
                                  "units": [tunit("X", distance=12, armour=4,
                                                  under_template=True)]}]
    return d


class AskedPort:
    """A port that keeps every question asked, in order, and answers through ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.asked: list[Question] = []

    def ask(self, q: Question) -> Any:
        self.asked.append(q)
        return self.inner.ask(q)

    def finish(self) -> None:
        self.inner.finish()


def played(answers: dict[str, Any], declaration: dict[str, Any] | None = None,
           game: Path | None = None) -> tuple[Result, list[Question]]:
    """An attack answered by id (strict: every answer used, every question answered but
    the dice, which a missing answer lets the program roll), and the questions asked."""
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("epic", seed=None if game else 1, declaration=declaration,
                           game=game)
    port = AskedPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    return api.play(plan, port, game=game), port.asked
