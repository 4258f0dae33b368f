"""What the shell completes (``referee --install-completion``): ruleset ids and aliases, the
tables of the ruleset named before, the options of a ruleset (``-o NAME=VALUE``: the names,
then each name's values). Light: it reads the rulesets' data files only, when the shell asks."""

from __future__ import annotations

from typing import Any

import typer


def _ruleset_of(ctx: typer.Context, args: list[str]) -> Any:
    """The ruleset named on the command line so far: parsed by Typer, or, when parsing
    stopped short (an option still waiting for its value), the first word left over."""
    from referee.core.errors import UsageError
    from referee.rulesets import find_ruleset

    name = (ctx.params or {}).get("ruleset") or next(
        (a for a in [*ctx.args, *args] if not a.startswith("-")), None)
    if not name:
        return None
    try:
        return find_ruleset(name)
    except UsageError:
        return None


def rulesets(ctx: typer.Context, incomplete: str) -> list[str]:
    """Ruleset ids and their aliases."""
    from referee.rulesets import all_rulesets

    names = [n for info in all_rulesets() for n in (info.id, *info.aliases)]
    return [n for n in names if n.startswith(incomplete)]


def tables(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """The lookup tables of the ruleset named before (none while it is unknown)."""
    info = _ruleset_of(ctx, args)
    if info is None:
        return []
    return [t for t in info.tables if t.startswith(incomplete)]


def options(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """``NAME=`` for each option of the ruleset named before; after ``NAME=``, its values."""
    info = _ruleset_of(ctx, args)
    if info is None:
        return []
    specs = {s.name: s for s in info.option_specs()}
    name, has_value, value = incomplete.partition("=")
    if not has_value:
        return [f"{n}=" for n in specs if n.startswith(name)]
    spec = specs.get(name)
    if spec is None:
        return []
    values = list(spec.choices) or (["true", "false"] if isinstance(spec.default, bool)
                                    else [])
    return [f"{name}={v}" for v in values if v.startswith(value)]
