"""Each Typer app's click command built once per test process, not at every invoke.

``typer.testing.CliRunner.invoke`` turns the Typer app into a click command at every call:
for the whole of ``referee`` that reads every command's signature and type hints, about
50 ms, most of what an in-process command costs in the tests (a lookup takes 65 ms in all).
The console script builds it once per process, as the tests now do: ``build_once`` (called
by ``tests/conftest.py``) gives ``CliRunner`` the command built the first time for the same
app object, for as long as the command modules are not loaded again.

``referee.start.load_app`` loads the modules of ``referee.cli`` again when the language
changes: the functions of an app built before (a test module's ``from referee.cli import
app``) then read the new modules' names (``dice is DiceMode.auto`` compares with the new
enum), so a command built from their type hints before the reload would give them the old
enum's members. Every command is therefore built again after a reload, as Typer would.
"""

from __future__ import annotations

import sys
import weakref
from typing import Any


def _generation() -> object | None:
    """What changes when the command modules are loaded again: the current whole app."""
    cli = sys.modules.get("referee.cli")
    return getattr(cli, "app", None)


def build_once() -> None:
    import typer.main
    import typer.testing

    built: weakref.WeakKeyDictionary[Any, tuple[Any, Any]] = weakref.WeakKeyDictionary()

    def get_command(app: Any) -> Any:
        now = _generation()
        kept = built.get(app)
        if kept is None or kept[0]() is not now:
            kept = (weakref.ref(now) if now is not None else lambda: None,
                    typer.main.get_command(app))
            built[app] = kept
        return kept[1]

    typer.testing._get_command = get_command  # type: ignore[attr-defined]
