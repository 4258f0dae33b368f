"""``referee phase lnlt``: the Lock 'n Load Tactical operations phase, impulse by impulse.

The phase lives in a game file: every impulse is one transaction, so a phase stopped at any
point (Ctrl-C, the end of the evening) resumes at the impulse it was on. Registered in
``referee.cli``; the heavy imports stay inside the command.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.catalog import t
from referee.cli import complete
from referee.cli.app import app, framed
from referee.cli.shared import (
    DiceMode,
    NoOddsFlag,
    OddsMode,
    OddsOpt,
    OptionOpt,
    SeedOpt,
    WorkingFlag,
    _odds_mode,
    file_option,
    helped,
)

if TYPE_CHECKING:
    from referee.cli.shared import Out
    from referee.play.attack import Played


@app.command("phase", help=helped("phase"))
def phase(ctx: typer.Context,
          ruleset: Annotated[str, typer.Argument(help=t("cli.phase.arg.ruleset"), metavar="RULESET",
                                                     autocompletion=complete.rulesets)],
          game: Annotated[Path, file_option("--game", "cli.phase.opt.game")],
          roster: Annotated[Path | None, file_option("--roster", "cli.phase.opt.roster")] = None,
          dct: Annotated[Path | None, file_option("--dct", "cli.phase.opt.dct")] = None,
          impulses: Annotated[int | None, typer.Option(
              "--impulses", metavar="N", min=1, help=t("cli.phase.opt.impulses"))] = None,
          show: Annotated[bool, typer.Option("--show", help=t("cli.phase.opt.show"))] = False,
          restart: Annotated[bool, typer.Option("--restart",
                                                help=t("cli.phase.opt.restart"))] = False,
          dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
          DiceMode.typed,
          seed: SeedOpt = None,
          option: OptionOpt = None,
          odds: OddsOpt = OddsMode.compact,
          no_odds: NoOddsFlag = False,
          working: WorkingFlag = False,
          json_: Annotated[bool, typer.Option("--json", help=t("cli.opt.json"))] = False
          ) -> None:
    """Odds (unless ``--odds none``) show before each die and its percentile after it, as
    in ``referee attack``; with --json each impulse's odds are in its document. After each
    impulse, what it did to each unit and its rolls (``--working``: its whole working, and
    the phase's tables at the end)."""
    from referee.cli.seat import _announce, _seat
    from referee.play.phase import phase_summary, plan_phase, play_phase

    with framed(ctx, json_) as out:
        planned = plan_phase(ruleset, game, roster_file=roster, dct_file=dct, show=show,
                             restart=restart, seed=seed, options=option or [])
        played: list[Played] = []
        if not show:
            seat = _seat(out, auto_dice=dice is DiceMode.auto, odds=_odds_mode(odds, no_odds))
            _announce(out, planned.seed, planned.entry)
            played = play_phase(planned, seat, impulses=impulses,
                                on_impulse=None if out.json else functools.partial(
                                    _print_steps, out, working or show))
        final = phase_summary(planned)
        if out.json:
            from referee.render.json_out import result_json

            # with --show nothing is rolled: no seed to repeat (unless one was given)
            out.document("phase", ruleset=planned.info.id,
                         seed=seed if show else planned.seed,
                         impulses=[result_json(p.result, p.odds,
                                               every_end_state=odds == OddsMode.full)
                                   for p in played],
                         summary=result_json(final),
                         check_codes=[p.code for p in played]
                         if planned.entry.committed else None)
            return
        from referee.core.text import Msg
        from referee.render.console import print_message, print_table

        if working or show:
            for summary_table in final.tables:
                print_table(out.console, summary_table)
        print_message(out.console, Msg.of("result.outcome", outcome=final.outcome))
        if not (working or show):
            print_message(out.console, Msg.of("kept.fate.working", key=""), style="dim")


def _print_steps(out: Out, working: bool, played: Played) -> None:
    """An impulse played: its whole working (``working``), else what it did to each unit by
    name and its rolls (``render.outcome``); in a game made by ``game new`` its check code."""
    from referee.render.console import print_lines, print_message, print_result

    if working:
        print_result(out.console, played.result, outcome=False)
    else:
        from referee.render.outcome import fate_lines, roll_line

        rolls = [line for line in map(roll_line, played.odds or []) if line is not None]
        lines = fate_lines(played.result)
        if rolls:
            lines += [t("kept.fate.rolls"), *("  " + r for r in rolls)]
        print_lines(out.console, lines)
    if played.code is not None:
        from referee.core.text import Msg

        print_message(out.console, Msg.of("game.code_after", number=played.number,
                                          code=played.code), style="bold")
