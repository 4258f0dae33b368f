"""``referee game charts``: what a game file keeps for the whole game besides the rulesets'
states (issue 27): the answers read off the players' charts. Registered on ``game``'s
sub-app; thin commands over ``referee.game.charts``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.catalog import t
from referee.cli.app import _guarded
from referee.cli.game import FileArg, game_app
from referee.cli.shared import JsonFlag, _console, _env, _print_json, helped

OutOpt = Annotated[Path | None, typer.Option("--export", metavar="OUT", readable=False,
                                             help=t("cli.game.charts.opt.export"))]


def _numbered(values: list[str], flag: str) -> dict[int, str]:
    """``N=VALUE`` pairs (``--set``), by number; a malformed one is a usage error."""
    from referee.core.errors import UsageError
    from referee.core.text import Msg

    out: dict[int, str] = {}
    for value in values:
        number, has, answer = value.partition("=")
        if not has or not number.strip().isdigit() or not answer.strip():
            raise UsageError(Msg.of("kept.error.pair", flag=flag, given=value))
        out[int(number)] = answer.strip()
    return out


@game_app.command("charts", help=helped("game.charts"))
def charts(ctx: typer.Context, file: FileArg,
           set_: Annotated[list[str] | None, typer.Option(
               "--set", metavar="N=VALUE", help=t("cli.game.charts.opt.set"))] = None,
           remove: Annotated[list[int] | None, typer.Option(
               "--remove", metavar="N", min=1, help=t("cli.game.charts.opt.remove"))] = None,
           export: OutOpt = None,
           import_: Annotated[Path | None, typer.Option(
               "--import", metavar="FILE", readable=False,
               help=t("cli.game.charts.opt.import_"))] = None,
           json_: JsonFlag = False) -> None:
    env = _env(ctx)
    with _guarded(env, json_):
        from referee.core.text import Msg
        from referee.game import charts as kept

        changes: list[kept.Change] = []
        added = kept.read_chart_file(import_) if import_ is not None else []
        if set_ or remove or added:
            changes = kept.change(file, set_=_numbered(set_ or [], "--set"),
                                  remove=remove or [], add=added)
        rows = kept.read_charts(file)
        if export is not None:
            from referee.record import write_file

            write_file(export, kept.chart_file(rows, str(file)),
                       Msg.of("kept.error.unwritable", file=str(export)))
        if json_:
            from referee.render.json_out import document

            _print_json(env, document("game-charts", file=str(file),
                                      charts=[kept.row_json(r) for r in rows],
                                      changes=[kept.change_json(c) for c in changes]))
            return
        from referee.core.table import NOTHING, Shown, Table
        from referee.render.console import print_message, print_table

        console = _console(env)
        for c in changes:
            print_message(console, kept.change_text(c))
        if not rows:
            print_message(console, Msg.of("kept.chart.none", file=str(file)))
        else:
            print_table(console, Table(
                Msg.of("kept.chart.title", file=str(file)),
                tuple(Msg.of(f"kept.chart.col.{c}") for c in
                      ("number", "ruleset", "what", "row", "column", "answer", "at")),
                tuple((r.number, r.ruleset, kept.describe(r.key), r.key.row, r.key.column,
                       Shown(r.answer, kept.answer_text(r.key, r.answer)),
                       Shown(r.at, f"#{r.at}") if r.at is not None else NOTHING)
                      for r in rows)))
        if export is not None:
            print_message(console, Msg.of("kept.chart.exported", count=len(rows),
                                          file=str(export)), style="dim")
