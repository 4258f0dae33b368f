"""``referee waw-markers``: World at War's markers kept in a game file (W-6, W-7, W-8).

Lists the Smoke, Mines! and Chemical Strike markers on the map; with ``--phase`` it first runs
the marker-removal phase (Smoke 2 to Smoke 1, Smoke 1 and Chemical Strike removed).
The phase rolls no dice (W-6, W-7, W-8 age or remove markers by the calendar), so there are no
odds to show: ``--no-odds`` is taken, like on every command that may show odds, and changes
nothing here.
Heavy imports stay inside the function.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from referee.catalog import t
from referee.cli.app import _guarded, app
from referee.cli.shared import (
    NoOddsFlag,
    _console,
    _env,
    _print_json,
    file_option,
    helped,
)

RULESET = "world-at-war"


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
    from referee.game import open_game
    from referee.rulesets.waw import markers as mk
    from referee.rulesets.waw.saved import SavedState

    env = _env(ctx)
    with _guarded(env, json_):
        changes: list[mk.Change] = []
        with open_game(game) as tx:
            state: dict[str, Any] = tx.state(RULESET, SavedState)
            if clear:
                state.update(mk.clear(state))
                tx.update_state(RULESET, state)
                tx.append_log(RULESET, "waw-markers --clear", {"cleared": True},
                              replay={"kind": "waw-markers", "action": "clear"})
            if phase:
                changes, updates = mk.removal_phase(state)
                state.update(updates)
                tx.update_state(RULESET, updates)
                tx.append_log(RULESET, "waw-markers --phase",
                              {"phase": updates["phases"],
                               "changes": [{"marker": c.marker.to_state(), "after": c.after}
                                           for c in changes]},
                              replay={"kind": "waw-markers", "action": "phase"})
        now = mk.markers(state)
        phases = int(state.get("phases", 0))
        if json_:
            from referee.render.json_out import document

            _print_json(env, document("waw-markers", ruleset=RULESET, phases=phases,
                                      markers=[m.to_state() for m in now],
                                      changes=[{"marker": c.marker.to_state(),
                                                "after": c.after, "clause": c.clause}
                                               for c in changes]))
            return
        from referee.render.console import print_message, print_table

        console = _console(env)
        if clear:
            print_message(console, Msg.of("waw.markers.cleared", file=str(game)))
        if phase:
            print_table(console, Table(
                Msg.of("waw.markers.phase_title", phase=phases),
                tuple(Msg.of(f"waw.col.{c}") for c in ("id", "hex", "before", "after",
                                                       "clause")),
                tuple((c.marker.id, c.marker.hex,
                       Msg.of(f"waw.marker.{c.marker.kind}", level=c.marker.level),
                       Msg.of(f"waw.after.{c.after}"), c.clause) for c in changes)))
        if not now:
            print_message(console, Msg.of("waw.markers.none", phases=phases))
            return
        print_table(console, Table(
            Msg.of("waw.markers.title", phases=phases),
            tuple(Msg.of(f"waw.col.{c}") for c in ("id", "marker", "hex", "placed",
                                                   "removal")),
            tuple((m.id, Msg.of(f"waw.marker.{m.kind}", level=m.level), m.hex,
                   Msg.of("waw.markers.placed", turn=m.placed_after_phase + 1),
                   Msg.of(f"waw.removal.{m.kind}")) for m in now)))
