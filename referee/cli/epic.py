"""``referee epic-shoot``: the whole Epic attack from the command line.

With ``--roster`` the formations come from a roster file and the referee asks only the
situation (Blast markers, range and line of fire, distances, terrain), the choices and the
dice; without it, the weapons and the target's units are asked first. Heavy imports stay
inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.catalog import t
from referee.cli.app import app, framed
from referee.cli.seat import _announce, _play, _seat
from referee.cli.shared import (
    DiceMode,
    GameOpt,
    JsonFlag,
    NoOddsFlag,
    OddsMode,
    OddsOpt,
    OptionOpt,
    RecordOpt,
    SeedOpt,
    WorkingFlag,
    _odds_mode,
    file_option,
    helped,
)


@app.command("epic-shoot", help=helped("epic_shoot"))
def epic_shoot(ctx: typer.Context,
               firing: Annotated[str, typer.Argument(help=t("cli.epic_shoot.firing"),
                                                                   metavar="FIRING")],
               target: Annotated[str, typer.Argument(help=t("cli.epic_shoot.target"),
                                                                   metavar="TARGET")],
               roster: Annotated[Path | None,
                                 file_option("--roster", "cli.epic_shoot.roster")] = None,
               dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
               DiceMode.typed,
               seed: SeedOpt = None,
               record: RecordOpt = None,
               option: OptionOpt = None,
               game: GameOpt = None,
               odds: OddsOpt = OddsMode.compact,
               no_odds: NoOddsFlag = False,
               working: WorkingFlag = False,
               force: Annotated[bool, typer.Option("--force", help=t("cli.opt.force"))] = False,
               json_: JsonFlag = False) -> None:
    from referee.play.plan import plan

    with framed(ctx, json_) as out:
        declaration: dict[str, object] = {"firing": firing, "target": target}
        if roster is not None:
            declaration["roster"] = str(roster)
        else:
            declaration["by_hand"] = True
        planned = plan("epic", seed=seed, options=option or [], declaration=declaration,
                       game=game)
        from referee.rulesets.epic.declaration import ShootingDeclaration
        from referee.rulesets.epic.roster import with_roster

        if isinstance(planned.declaration, ShootingDeclaration):
            with_roster(planned.declaration)  # a bad roster or name: refused before a question
        if record is not None:  # never over the game, nor what the attack reads (--force)
            from referee.play.record import check_target

            check_target(record, planned, reads=[roster], force=force)
        seat = _seat(out, auto_dice=dice is DiceMode.auto,
                     odds=_odds_mode(odds, no_odds))
        _announce(out, planned.seed, planned.game)
        _play(out, planned, seat, game=game, record=record, command="epic-shoot",
              working=working)
