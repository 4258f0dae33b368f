"""``referee epic-assault`` (an assault from the command line) and ``referee epic-turn`` (the
action tests and the end phase of a game file): thin commands over the Epic resolvers
(``referee.rulesets.epic``); heavy imports stay inside the commands."""

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
    _odds_mode,
    file_option,
    helped,
)


@app.command("epic-assault", help=helped("epic_assault"))
def epic_assault(ctx: typer.Context,
                 attacker: Annotated[str, typer.Argument(help=t("cli.epic_assault.attacker"),
                                                         metavar="ATTACKER")],
                 defender: Annotated[str, typer.Argument(help=t("cli.epic_assault.defender"),
                                                         metavar="DEFENDER")],
                 roster: Annotated[Path | None,
                                   file_option("--roster", "cli.epic_assault.roster")] = None,
                 dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
                 DiceMode.typed,
                 seed: SeedOpt = None,
                 record: RecordOpt = None,
                 option: OptionOpt = None,
                 game: GameOpt = None,
                 odds: OddsOpt = OddsMode.compact,
                 no_odds: NoOddsFlag = False,
                 force: Annotated[bool, typer.Option("--force", help=t("cli.opt.force"))] =
                 False,
                 json_: JsonFlag = False) -> None:
    from referee.play.plan import plan

    with framed(ctx, json_) as out:
        assault: dict[str, object] = {"attackers": [{"name": attacker}],
                                      "defenders": [{"name": defender}]}
        if roster is not None:
            assault["roster"] = str(roster)
        else:
            assault["by_hand"] = True
        planned = plan("epic", seed=seed, options=option or [],
                       declaration={"assault": assault}, game=game)
        if record is not None:  # never over the game, nor the roster it reads (--force)
            from referee.play.record import check_target

            check_target(record, planned, reads=[roster], force=force)
        seat = _seat(out, auto_dice=dice is DiceMode.auto, odds=_odds_mode(odds, no_odds))
        _announce(out, planned.seed, planned.game)
        _play(out, planned, seat, game=game, record=record, command="epic-assault")


@app.command("epic-turn", help=helped("epic_turn"))
def epic_turn(ctx: typer.Context,
              game: Annotated[Path, file_option("--game", "cli.epic_turn.game")],
              roster: Annotated[Path | None,
                                file_option("--roster", "cli.epic_turn.roster")] = None,
              end_phase: Annotated[bool, typer.Option(
                  "--end-phase", help=t("cli.epic_turn.end_phase"))] = False,
              regroup: Annotated[str | None, typer.Option(
                  "--regroup", metavar="FORMATION", help=t("cli.epic_turn.regroup"))] = None,
              dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
              DiceMode.typed,
              seed: SeedOpt = None,
              option: OptionOpt = None,
              odds: OddsOpt = OddsMode.compact,
              no_odds: NoOddsFlag = False,
              json_: JsonFlag = False) -> None:
    from referee.play.plan import plan

    with framed(ctx, json_) as out:
        step: dict[str, object] = {"end_phase": end_phase}
        if roster is not None:
            step["roster"] = str(roster)
        if regroup is not None:
            step["regroup"] = regroup
        from referee.game.armies import kept_sides

        step.update(kept_sides(game))
        planned = plan("epic", seed=seed, options=option or [], declaration={"turn": step},
                       game=game)
        seat = _seat(out, auto_dice=dice is DiceMode.auto, odds=_odds_mode(odds, no_odds))
        _announce(out, planned.seed, planned.game)
        _play(out, planned, seat, game=game, record=None, command="epic-turn")
