"""Each Typer app's click command built once per test process, not at every invoke.

``typer.testing.CliRunner.invoke`` turns the Typer app into a click command at every call:
for the whole of ``referee`` that reads every command's signature and type hints, about
50 ms, most of what an in-process command costs in the tests (a lookup takes 65 ms in all).
The console script builds it once per process, as the tests now do: ``build_once`` (called
by ``tests/conftest.py``) gives ``CliRunner`` the command built the first time for the same
app object. An app is built anew whenever its language changes (``referee.entry.load_app``
loads its modules again), so a command is never reused across languages.
"""

from __future__ import annotations

import weakref
from typing import Any


def build_once() -> None:
    import typer.main
    import typer.testing

    built: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def get_command(app: Any) -> Any:
        command = built.get(app)
        if command is None:
            command = built[app] = typer.main.get_command(app)
        return command

    typer.testing._get_command = get_command  # type: ignore[attr-defined]
