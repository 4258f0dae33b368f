"""Builders for Epic declarations in tests: invented units, situations given in full."""

from __future__ import annotations

from typing import Any

from referee import api
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
                           "firing_blast_markers": 0, "target_blast_markers": 0, **extra}
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
