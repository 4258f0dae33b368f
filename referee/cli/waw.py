"""``referee waw-markers``: World at War's markers kept in a game file (W-6, W-7, W-8).

Lists the Smoke, Mines! and Chemical Strike markers on the map; with ``--phase`` it first runs
the marker-removal phase (``referee.play.markers``). The phase rolls no dice, so there are no
odds to show: ``--no-odds`` is taken, like on every command that may show odds, and changes
nothing here. Heavy imports stay inside the function.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.catalog import t
from referee.cli.app import app, framed
from referee.cli.shared import NoOddsFlag, file_option, helped


@app.command("waw-markers", help=helped("waw_markers"))
def markers(ctx: typer.Context,
            game: Annotated[Path, file_option("--game", "cli.opt.game")],
            phase: Annotated[bool, typer.Option("--phase",
                                                help=t("cli.waw_markers.opt.phase"))] = False,
            clear: Annotated[bool, typer.Option("--clear",
                                                help=t("cli.waw_markers.opt.clear"))] = False,
            no_odds: NoOddsFlag = False,
            json_: Annotated[bool, typer.Option("--json", help=t("cli.opt.json"))] = False,
            ) -> None:
    from referee.core.table import Table
    from referee.core.text import Msg
    from referee.play.markers import RULESET, marker_phase

    with framed(ctx, json_) as out:
        done = marker_phase(game, clear=clear, phase=phase)
        if out.json:
            out.document("waw-markers", ruleset=RULESET, phases=done.phases,
                         markers=[m.to_state() for m in done.markers],
                         changes=[{"marker": c.marker.to_state(), "after": c.after,
                                   "clause": c.clause} for c in done.changes])
            return
        from referee.render.console import print_message, print_table

        if clear:
            print_message(out.console, Msg.of("waw.markers.cleared", file=str(game)))
        if phase:
            print_table(out.console, Table(
                Msg.of("waw.markers.phase_title", phase=done.phases),
                tuple(Msg.of(f"waw.col.{c}") for c in ("id", "hex", "before", "after",
                                                       "clause")),
                tuple((c.marker.id, c.marker.hex,
                       Msg.of(f"waw.marker.{c.marker.kind}", level=c.marker.level),
                       Msg.of(f"waw.after.{c.after}"), c.clause) for c in done.changes)))
        if not done.markers:
            print_message(out.console, Msg.of("waw.markers.none", phases=done.phases))
            return
        print_table(out.console, Table(
            Msg.of("waw.markers.title", phases=done.phases),
            tuple(Msg.of(f"waw.col.{c}") for c in ("id", "marker", "hex", "placed",
                                                   "removal")),
            tuple((m.id, Msg.of(f"waw.marker.{m.kind}", level=m.level), m.hex,
                   Msg.of("waw.markers.placed", turn=m.placed_after_phase + 1),
                   Msg.of(f"waw.removal.{m.kind}")) for m in done.markers)))
