"""The command-line reference (``docs/cli.md``), generated from the commands' own help in
every language, so that it cannot say other than ``--help`` does. A test fails when the file
is stale; ``python -m referee.reference`` writes it again. It loads the commands in each
language through the console script (``referee.start``), so it sits above it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.catalog import t

HEADINGS = {"en": "English", "ru": "Русский"}


def command_paths() -> list[list[str]]:
    """``referee``, then every command (and every command of a group) in ``--help`` order."""
    from referee.cli import app

    paths: list[list[str]] = [[]]
    for command in app.registered_commands:
        callback = command.callback.__name__ if command.callback else ""
        paths.append([command.name or callback.replace("_", "-")])
    for group in app.registered_groups:
        name = group.name or ""
        paths.append([name])
        sub = group.typer_instance
        if sub is not None:
            for command in sub.registered_commands:
                callback = command.callback.__name__ if command.callback else ""
                paths.append([name, command.name or callback.replace("_", "-")])
    return paths


def helps(lang: str) -> list[tuple[str, str]]:
    """(command, its help as printed at 80 columns without colour) in ``lang``."""
    from typer.testing import CliRunner

    from referee.start import load_app

    app = load_app(lang)
    out = []
    for path in command_paths():
        result = CliRunner().invoke(app, [*path, "--help"], prog_name="referee",
                                    env={"NO_COLOR": "1", "COLUMNS": "80",
                                         "TERMINAL_WIDTH": "80"})
        text = "\n".join(line.rstrip() for line in result.output.strip("\n").splitlines())
        out.append((" ".join(["referee", *path]), text))
    return out


def document() -> str:
    from referee.catalog import DEFAULT_LANG, available_languages
    from referee.start import load_app

    parts = ["# referee --help\n"]
    try:
        for lang in sorted(available_languages(), key=lambda x: x != DEFAULT_LANG):
            shown = helps(lang)  # loads the language, so that the intro speaks it too
            parts.append(f"\n## {HEADINGS.get(lang, lang)}\n\n{t('cli.reference.intro')}\n")
            for command, text in shown:
                parts.append(f"\n### `{command}`\n\n```text\n{text}\n```\n")
    finally:
        load_app(DEFAULT_LANG)
    return "".join(parts)


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/cli.md")
    target.parent.mkdir(parents=True, exist_ok=True)
    from referee.files import write_atomic

    write_atomic(target, document())  # whole or not at all, as every file the referee writes
    print(t("cli.reference.wrote", file=str(target)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
