"""Shared rosters and runners for the Lock 'n Load Tactical tests (units invented)."""

from __future__ import annotations

from typing import Any

from referee import api
from referee.core.errors import RefereeError, ScriptError
from referee.core.result import Result
from referee.core.text import Msg

MOVE_MAP = {"C4": ["C5"], "C5": ["C6"]}
MOVE = {"i1.do": "activate", "i1.hex": "C4", "i1.act.1": "move:C4",
        "i1.move.C4.units": ["able"], "i1.move.C4.type": "moved", "i1.move.C4.to": "C5"}
"""Able squad (``able``, at C4) moves to C5 in the first impulse; an enemy in the LOS may
Op Fire at it."""


def unit(uid: str, side: str, hex_: str, kind: str = "mmc", **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "hex": hex_, "kind": kind, **extra}


def leader(uid: str, side: str, hex_: str, lm: int = 1, **extra: Any) -> dict[str, Any]:
    return unit(uid, side, hex_, "smc", leader=True, lm=lm, **extra)


def roster(*units: dict[str, Any], adjacent: dict[str, list[str]] | None = None,
           initiative: str | None = "G", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"sides": ["G", "R"], "units": list(units),
                           "adjacent": adjacent or {}, **extra}
    if initiative is not None:
        out["initiative"] = initiative
    return out


def run(decl: dict[str, Any], answers: dict[str, Any], options: tuple[str, ...] = ()
        ) -> Result:
    return api.attack("lnlt", answers, declaration=decl, options=options)


def asked(decl: dict[str, Any], answers: dict[str, Any],
          options: tuple[str, ...] = ()) -> list[str]:
    """The question ids, in the order asked."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("lnlt", seed=1, options=options, declaration=decl)
    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    api.play(plan, port)
    return list(port.answers)


def refusal(err: RefereeError) -> Msg:
    """The ``lnlt.refused`` message inside a script error."""
    assert isinstance(err, ScriptError), err
    expected = err.expected
    assert isinstance(expected, Msg) and expected.id == "lnlt.refused", expected
    return expected


def units_after(result: Result) -> dict[str, dict[str, Any]]:
    state = result.state_updates["phase"]
    return {u["id"]: u for u in state["roster"]["units"]}


def phase_state(result: Result) -> dict[str, Any]:
    state: dict[str, Any] = result.state_updates["phase"]
    return state


def step_texts(result: Result) -> list[str]:
    from referee.catalog import render

    return [f"[{s.clause}] {render(s.text)}" for s in result.steps]


# the generated script of case 3: a roster, two answers (a pass, an activation emptied of
# its actions), a unit renamed from the answers' spelling, then every question at its
# default, under the reading of L-X1 where any activation resets the count of passes
DEFAULTS_NEVER_END = """ruleset = "lnlt"
use_defaults = true
roll_missing_dice = true
seed = 7

[options]
empty-activation = "resets"

[declaration]
sides = ["Grey", "Red"]
initiative = "Grey"
adjacent = { C4 = ["C5", "D4"], C5 = ["D5"], D4 = ["D5"] }

[[declaration.units]]
id = "able-renamed"
name = "Able squad (invented)"
side = "Grey"
hex = "C4"
kind = "mmc"
ifp = 2

[[declaration.units]]
id = "red-1"
name = "Red One squad (invented)"
side = "Red"
hex = "D5"
kind = "mmc"
ifp = 3

[answers]
"i1.do" = "pass"
"i2.do" = "activate"
"i2.act.1" = "done"
"""
"""(Issue 28, case 3: a script on which ``referee run`` ran for ever.)"""
