"""The ``referee`` command line: thin Typer commands over the application layer
(``referee.play``).

Imports point one way: ``app`` (the Typer app, the frame of every command, the one-command
app that keeps start-up fast) and ``shared`` (options, consoles, ``Out``) import no command;
``seat`` (where an attack at the board is asked and shown) imports ``shared``; each command
module imports those and registers its
commands on ``app``; this package imports the command modules and puts the commands in the
order ``--help`` lists them (``ORDER``). Typer, the standard library and referee's light
modules only: rich, questionary, pydantic and the resolvers load inside the commands that
need them, so ``referee --help`` and ``referee lookup`` start fast. Help texts are rendered
when the modules are imported: ``referee.start`` loads them again, in ``MODULES`` order, for
another language.
"""

from __future__ import annotations

import typer

from referee.cli import attack, basic, epic, epic_turn, game, lnlt, odds, waw  # noqa: F401
from referee.cli.app import _app_for, app, app_for, main

MODULES = ("referee.cli.shared", "referee.cli.app", "referee.cli.seat", "referee.cli.basic",
           "referee.cli.attack", "referee.cli.epic", "referee.cli.epic_turn", "referee.cli.waw",
           "referee.cli.lnlt",
           "referee.cli.odds", "referee.cli.game")
"""The package's modules in the order they are loaded again for another language."""

ORDER = ("rulesets", "lookup", "options", "attack", "run", "epic-shoot", "epic-assault",
         "epic-turn", "waw-markers", "phase", "odds")
"""The commands in the order ``--help`` lists them (imports are sorted by name, not by this)."""


def _name(command: typer.models.CommandInfo) -> str:
    callback = command.callback.__name__ if command.callback else ""
    return command.name or callback.replace("_", "-")


app.registered_commands.sort(key=lambda c: ORDER.index(_name(c)) if _name(c) in ORDER
                             else len(ORDER))

__all__ = ["MODULES", "ORDER", "_app_for", "app", "app_for", "main"]
