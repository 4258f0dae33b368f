"""Baseline for ``benchmarks/startup.py``: the smallest honest Typer + rich command.

One Typer command that takes the same shape of command line as
``referee lookup epic to-hit 8`` (three positional strings and a ``--json`` flag, so Typer
does the same per-parameter work) and prints one small rich table: a title, 4 columns,
1 row, ASCII box when the output is not a terminal, no emoji or highlighting, as referee
prints its lookup.

It deliberately imports nothing beyond Typer and rich: whatever ``referee`` costs on top
of this is referee's own start-up cost.

Run it directly::

    python benchmarks/baseline_app.py epic to-hit 8
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False)


@app.command()
def lookup(ruleset: Annotated[str, typer.Argument()],
           table: Annotated[str, typer.Argument()],
           key: Annotated[str, typer.Argument()],
           json_: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Print a one-row, four-column table, like ``referee lookup``."""
    # Rendering as referee does (no emoji codes, no highlighting): otherwise the baseline
    # alone would load rich's emoji table (~2 ms) and look slower than it is.
    console = Console(emoji=False, highlight=False)
    rich_table = Table(title=f"{ruleset} {table} {key}", title_justify="left",
                       box=box.ROUNDED if console.is_terminal else box.ASCII)
    for i, name in enumerate(("Need", "How to roll", "Chance", "%")):
        rich_table.add_column(name, no_wrap=(i == 0))
    rich_table.add_row(f"{key}+", "a 6, then 5+ on a second die", "1/18", "5.6%")
    console.print(rich_table, markup=False)


def main() -> None:
    """Entry point, shaped like referee's console script (``referee.cli:main``)."""
    app()


if __name__ == "__main__":
    main()
