"""``referee attack`` (at the table) and ``referee run`` (a script, no terminal)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from referee.catalog import t
from referee.cli.app import Interrupted, _guarded, app
from referee.cli.shared import (
    DeclarationOpt,
    DiceMode,
    GameOpt,
    JsonFlag,
    NoOddsFlag,
    OddsMode,
    OddsOpt,
    OptionOpt,
    RecordOpt,
    RulesetArg,
    SeedOpt,
    _env,
    _odds_mode,
    _prompt_console,
    file_option,
    helped,
)
from referee.cli.table import _announce, _play, _show_result, _terminal_port
from referee.core.errors import UsageError
from referee.core.text import Msg


@app.command(help=helped("attack"))
def attack(ctx: typer.Context,
           ruleset: RulesetArg,
           dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
           DiceMode.typed,
           seed: SeedOpt = None,
           record: RecordOpt = None,
           resume: Annotated[Path | None, file_option("--resume", "cli.opt.resume")] = None,
           option: OptionOpt = None,
           declaration: DeclarationOpt = None,
           roster: Annotated[Path | None, file_option("--roster", "cli.opt.roster")] = None,
           game: GameOpt = None,
           odds: OddsOpt = OddsMode.compact,
           no_odds: NoOddsFlag = False,
           json_: JsonFlag = False) -> None:
    from referee import api

    env = _env(ctx)
    with _guarded(env, json_):
        answers: list[tuple[str, Any]] = []
        if resume is not None:
            if seed is not None or option or declaration is not None or roster is not None:
                raise UsageError(Msg.of("error.resume_fixed"))
            plan, answers = api.plan_resume(ruleset, resume)
            record = record or resume  # the record goes on in the file it came from
            if plan.game is not None:  # an attack of a game: the record names its file
                game = plan.game.file
        elif roster is not None:
            if declaration is not None:
                raise UsageError(Msg.of("error.roster_or_declaration"))
            # the pieces come from the roster; the ruleset asks which of them take part
            plan = api.plan_attack(ruleset, seed=seed, options=option or [],
                                   declaration={"roster": str(roster)}, game=game)
        else:
            plan = api.plan_attack(ruleset, seed=seed, options=option or [],
                                   declaration_file=declaration, game=game)
        port = _terminal_port(env, plan.dice, auto_dice=dice is DiceMode.auto, json_=json_,
                              odds=_odds_mode(odds, no_odds), game=plan.game,
                              ruleset=plan.info.id, declaration=plan.declaration)
        _announce(env, plan.seed, json_, plan.game)
        if resume is not None:
            from referee.render.console import print_message

            print_message(_prompt_console(env), Msg.of("run.resumed", file=str(resume),
                                                       count=len(answers)), style="dim")
        try:
            _play(env, plan, port, json_, game=game, record=record, command="attack",
                  resume=answers)
        except KeyboardInterrupt:
            if record is None:
                raise
            raise Interrupted(Msg.of("error.resume_hint", file=str(record),
                                     ruleset=plan.info.id)) from None


@app.command(help=helped("run"))
def run(ctx: typer.Context,
        file: Annotated[Path, typer.Argument(help=t("cli.arg.file"), readable=False,
                                                   metavar="FILE")],
        seed: SeedOpt = None,
        dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.run_dice"))] =
        DiceMode.typed,
        option: OptionOpt = None,
        game: GameOpt = None,
        no_odds: NoOddsFlag = False,
        json_: JsonFlag = False) -> None:
    from referee import api

    env = _env(ctx)
    with _guarded(env, json_):
        plan, port = api.plan_script(file, seed=seed, options=option or [],
                                     auto_dice=dice is DiceMode.auto, game=game)
        if not no_odds:
            from referee.frontends.odds import OddsPort

            port = OddsPort(port, show=None)  # a script's odds follow its result
        result = api.play(plan, port, game=game, command="run")
        _show_result(env, result, plan.seed, json_, port, odds_after=True)
        if plan.dice.rolled:  # the seed matters only when the program rolled dice
            _announce(env, plan.seed, json_, plan.game)


