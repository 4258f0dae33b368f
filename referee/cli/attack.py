"""``referee attack`` (at the table) and ``referee run`` (a script, no terminal)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from referee.catalog import t
from referee.cli.app import Interrupted, app, framed
from referee.cli.seat import _announce, _play, _seat, _show_result, asked_word, show_code
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
    WorkingFlag,
    _odds_mode,
    file_option,
    helped,
)
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
           working: WorkingFlag = False,
           force: Annotated[bool, typer.Option("--force", help=t("cli.opt.force"))] = False,
           json_: JsonFlag = False) -> None:
    from referee.play.plan import Reads, plan

    with framed(ctx, json_) as out:
        answers: list[tuple[str, Any]] = []
        if resume is not None:
            if seed is not None or option or declaration is not None or roster is not None:
                raise UsageError(Msg.of("error.resume_fixed"))
            planned = plan(ruleset, reads=Reads.RECORD, file=resume)
            answers = planned.source_answers()
            record = record or resume  # the record goes on in the file it came from
            if planned.game is not None:  # an attack of a game: the record names its file
                game = planned.game.file
        elif roster is not None:
            if declaration is not None:
                raise UsageError(Msg.of("error.roster_or_declaration"))
            # the pieces come from the roster; the ruleset asks which of them take part
            planned = plan(ruleset, seed=seed, options=option or [],
                           declaration={"roster": str(roster)}, game=game)
        else:
            planned = plan(ruleset, seed=seed, options=option or [],
                           declaration_file=declaration, game=game)
        if record is not None:  # never over the game, nor what the attack reads (--force)
            from referee.play.record import check_target

            check_target(record, planned, reads=[declaration, roster], force=force)
        seat = _seat(out, auto_dice=dice is DiceMode.auto,
                     odds=_odds_mode(odds, no_odds))
        _announce(out, planned.seed, planned.game)
        if resume is not None:
            from referee.render.console import print_message

            print_message(out.prompts, Msg.of("run.resumed", file=str(resume),
                                              count=len(answers)), style="dim")
        try:
            _play(out, planned, seat, game=game, record=record, command="attack",
                  resume=answers, working=working)
        except KeyboardInterrupt:
            if record is None:
                raise
            raise Interrupted(Msg.of("error.resume_hint", file=str(record),
                                     ruleset=planned.info.id)) from None


@app.command(help=helped("run"))
def run(ctx: typer.Context,
        file: Annotated[Path, typer.Argument(help=t("cli.arg.file"), readable=False,
                                                   metavar="FILE")],
        seed: SeedOpt = None,
        dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.run_dice"))] =
        DiceMode.typed,
        option: OptionOpt = None,
        game: GameOpt = None,
        word: Annotated[str | None, typer.Option("--word", metavar="TEXT",
                                                 help=t("cli.opt.word"))] = None,
        odds: Annotated[OddsMode, typer.Option("--odds", help=t("cli.opt.run_odds"))] =
        OddsMode.compact,
        no_odds: NoOddsFlag = False,
        json_: JsonFlag = False) -> None:
    from referee.play.attack import run_script

    with framed(ctx, json_) as out:
        def word_source(_plan: Any, needed: bool) -> Any:
            """The opponent's word in a game made by ``game new``: ``--word``, else the
            terminal; with neither, and a word needed, the flag to give (before anything is
            written: the script was checked whole, the file untouched)."""
            if word is not None:
                from referee.core.errors import AnswerError
                from referee.game.contribution import GivenWord

                try:
                    return GivenWord(word)
                except AnswerError as err:
                    raise UsageError(Msg.of("game.error.bad_word", reason=err.msg)) from None
            if needed and out.env.port_factory is None and not out.env.stdin_isatty:
                raise UsageError(Msg.of("game.error.no_word", flag="--word"))
            return asked_word(out)

        def unused(err: Any) -> None:
            """Answers no question asked for, found after the entry was written (the game's
            dice took another way than the check's stand-in dice): a warning, the entry
            stands."""
            from referee.render.console import print_message

            print_message(out.prompts, Msg.of("run.unused_warning", reason=err.msg),
                          style="yellow")

        shown = _odds_mode(odds, no_odds)
        # a script's odds follow its result
        planned, played = run_script(file, seed=seed, options=option or [],
                                     auto_dice=dice is DiceMode.auto, game=game,
                                     odds=shown != OddsMode.none, word=word_source,
                                     unused=unused)
        _show_result(out, played, planned.seed, odds_after=True,
                     full_odds=shown == OddsMode.full, game=planned.game)
        if planned.dice.rolled:  # the seed matters only when the program rolled dice
            _announce(out, planned.seed, planned.game)
            entry = planned.game
            flow = entry.flow if entry is not None else None
            given = flow.contribution if flow is not None else None
            if (word is not None and not out.json and entry is not None
                    and entry.info is not None and given is not None and given.kind == "word"):
                from referee.render.console import print_message

                # typed by the holder: shown, for the opponent to see it is the word given
                print_message(out.console, Msg.of("game.word_given", word=given.value(0),
                                                  opponent=entry.info.opponent_side),
                              style="dim")
        show_code(out, planned.game)


