"""``referee epic-shoot``: an Epic attack between two formations of a roster file.

The roster describes the formations once; at the table the referee asks only the situation
(distances, range and line of fire, terrain) and the choices and dice of the attack. Heavy
imports stay inside the command, as in ``referee.cli``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.catalog import t
from referee.cli import (
    DiceMode,
    GameOpt,
    JsonFlag,
    SeedOpt,
    _announce,
    _env,
    _guarded,
    _show_result,
    _terminal_port,
    app,
)


def epic_shoot(ctx: typer.Context,
               roster: Annotated[Path, typer.Argument(help=t("epic.cli.roster"),
                                                      dir_okay=False)],
               firing: Annotated[str, typer.Argument(help=t("epic.cli.firing"))],
               target: Annotated[str, typer.Argument(help=t("epic.cli.target"))],
               dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
               DiceMode.typed,
               seed: SeedOpt = None,
               record: Annotated[Path | None, typer.Option("--record", help=t("cli.opt.record"),
                                                           dir_okay=False)] = None,
               option: Annotated[list[str] | None, typer.Option(
                   "--option", "-o", help=t("cli.opt.option"))] = None,
               game: GameOpt = None,
               json_: JsonFlag = False) -> None:
    from referee import api

    env = _env(ctx)
    with _guarded(env):
        declaration = {"roster": str(roster), "firing": firing, "target": target}
        plan = api.plan_attack("epic", seed=seed, options=option or [],
                               declaration=declaration)
        from referee.rulesets.epic.declaration import ShootingDeclaration
        from referee.rulesets.epic.roster import with_roster

        if isinstance(plan.declaration, ShootingDeclaration):
            with_roster(plan.declaration)  # a bad roster or name: refused before any question
        port = _terminal_port(env, plan.rng, auto_dice=dice is DiceMode.auto, json_=json_)
        _announce(env, plan.seed, json_)
        result = api.play(plan, port, game=game, record=record, command="epic-shoot")
        _show_result(env, result, plan.seed, json_)


app.command("epic-shoot", help=t("epic.cli.shoot"))(epic_shoot)
