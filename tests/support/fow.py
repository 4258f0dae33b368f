"""Small builders for the Flames of War tests: declarations as dicts, the allocation problem,
and attacks run with scripted answers (defaults for what a test does not answer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import api
from referee.core.options import parse_assignments, resolve_options
from referee.core.result import Result
from referee.rulesets import find_ruleset
from referee.rulesets.fow.attack import readings
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.eligibility import Reach, build
from referee.rulesets.fow.problem import Problem
from referee.rulesets.fow.validate import Allocator, Violation


def D(team_id: str, kind: str = "infantry", **extra: Any) -> dict[str, Any]:
    """A defending team; its name is its id in upper case."""
    return {"id": team_id, "name": team_id.upper(), "type": kind, **extra}


def H(team_id: str, hits: int, reaches: Sequence[str] = (), kind: str = "infantry",
      **extra: Any) -> dict[str, Any]:
    """A hitting team."""
    return {"id": team_id, "name": team_id.upper(), "type": kind, "hits": hits,
            "reaches": list(reaches), **extra}


def decl(defending: Sequence[dict[str, Any]], hitting: Sequence[dict[str, Any]]
         ) -> dict[str, Any]:
    return {"defending": list(defending), "hitting": list(hitting)}


def problem(declaration: Mapping[str, Any], options: Sequence[str] = ()
            ) -> tuple[Problem, tuple[Reach, ...]]:
    specs = find_ruleset("fow").option_specs()
    opts = resolve_options(specs, parse_assignments(options))
    order, escorts = readings(opts.values)
    built, reaches, _ = build(AssaultDeclaration.model_validate(declaration), order, escorts)
    return built, reaches


def allocator(declaration: Mapping[str, Any], options: Sequence[str] = ()) -> Allocator:
    return Allocator(problem(declaration, options)[0])


def proposal(declaration: Mapping[str, Any], options: Sequence[str] = ()) -> list[str]:
    """The referee's allocation, as team ids in hit order."""
    alloc = allocator(declaration, options).proposal
    return [alloc[n] for n in sorted(alloc)]


def check(declaration: Mapping[str, Any], teams: Sequence[str],
          options: Sequence[str] = ()) -> Violation | None:
    """Validate a complete allocation given as team ids in hit order (ignored hits
    excluded, as the referee numbers them)."""
    a = allocator(declaration, options)
    numbers = [h.number for h in a.problem.hits]
    return a.check(dict(zip(numbers, teams, strict=True)))


def run(declaration: Mapping[str, Any], answers: Mapping[str, Any] | None = None,
        options: Sequence[str] = (), seed: int = 1) -> Result:
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("fow", seed=seed, options=options, declaration=declaration)
    port = AnswerPort(dict(answers or {}), plan.dice, use_defaults=True,
                      roll_missing_dice=True)
    return api.play(plan, port)


def asked(declaration: Mapping[str, Any], answers: Mapping[str, Any] | None = None,
          options: Sequence[str] = ()) -> list[str]:
    """The question ids an attack asks, in order."""
    from referee.frontends.answers import AnswerPort
    from referee.frontends.wrappers import ScriptingPort

    plan = api.plan_attack("fow", seed=1, options=options, declaration=declaration)
    port = ScriptingPort(AnswerPort(dict(answers or {}), plan.dice, use_defaults=True,
                                    roll_missing_dice=True))
    api.play(plan, port)
    return list(port.answers)


def allocation(result: Result) -> list[str]:
    data = result.outcome_data["allocation"]
    return [data[k] for k in sorted(data, key=int)]


# --- the whole assault (docs/rules/flames-of-war-assault.md) --------------------------------

def A(team_id: str, kind: str = "infantry", **extra: Any) -> dict[str, Any]:
    """A charging team; its name is its id in upper case."""
    return {"id": team_id, "name": team_id.upper(), "type": kind, **extra}


def P(name: str, side: str, skill: str = "trained", motivation: str = "confident",
      **extra: Any) -> dict[str, Any]:
    """A rated platoon."""
    return {"name": name, "side": side, "skill": skill, "motivation": motivation, **extra}


def whole(assaulting: Sequence[dict[str, Any]], defending: Sequence[dict[str, Any]],
          platoons: Sequence[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A whole assault: by default one Trained Confident platoon a side."""
    return {"attacker": "Grey", "defender": "Red", "assaulting": list(assaulting),
            "defending": list(defending),
            "platoons": list(platoons or [P("Grey platoon", "attacker"),
                                          P("Red platoon", "defender")]), **extra}


def questions_asked(declaration: Mapping[str, Any], answers: Mapping[str, Any] | None = None,
                    options: Sequence[str] = (), seed: int = 1) -> tuple[Result, list[Any]]:
    """The result of an attack and every question it asked (the question values)."""
    from referee.frontends.answers import AnswerPort

    seen: list[Any] = []

    class Keeping:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def ask(self, question: Any) -> Any:
            seen.append(question)
            return self.inner.ask(question)

    plan = api.plan_attack("fow", seed=seed, options=options, declaration=declaration)
    port = Keeping(AnswerPort(dict(answers or {}), plan.dice, use_defaults=True,
                              roll_missing_dice=True))
    result = api.play(plan, port)  # type: ignore[arg-type]
    return result, seen


def step_params(result: Result, msg_id: str) -> list[dict[str, Any]]:
    """The parameters of every step of the working with the message ``msg_id``."""
    return [s.text.kwargs for s in result.steps if s.text.id == msg_id]
