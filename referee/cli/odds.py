"""``referee odds``: the odds of an attack without rolling, and a what-if of two variants."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.catalog import render, t
from referee.cli.app import app, framed
from referee.cli.shared import (
    DeclarationOpt,
    GameOpt,
    JsonFlag,
    OptionOpt,
    RulesetArg,
    SeedOpt,
    file_option,
    helped,
)
from referee.core.errors import UsageError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.cli.shared import Out

ListOpt = list[str] | None


@app.command("odds", help=helped("odds"))
def odds(ctx: typer.Context,
         ruleset: RulesetArg,
         script: Annotated[Path | None, file_option("--script", "cli.odds.script")] = None,
         declaration: DeclarationOpt = None,
         option: OptionOpt = None,
         answer: Annotated[ListOpt, typer.Option("--answer", "-a", metavar="ID=VALUE",
                                                 help=t("cli.odds.answer"))] = None,
         vs: Annotated[ListOpt, typer.Option("--vs", metavar="ID=VALUE",
                                             help=t("cli.odds.vs"))] = None,
         vs_option: Annotated[ListOpt, typer.Option("--vs-option", metavar="NAME=VALUE",
                                                    help=t("cli.odds.vs_option"))] = None,
         vs_declaration: Annotated[Path | None, file_option(
             "--vs-declaration", "cli.odds.vs_declaration")] = None,
         seed: SeedOpt = None,
         game: GameOpt = None,
         json_: JsonFlag = False) -> None:
    from referee.play.odds import odds as walk

    with framed(ctx, json_) as out:
        whatif = bool(vs or vs_option or vs_declaration)
        base = walk(ruleset, script=script, declaration_file=declaration,
                    options=option or [], answers=answer or [], seed=seed, game=game,
                    require_dice=not whatif)
        if not whatif:
            _check_used(answer, base.answered)
            _show(out, base)
            return
        other = walk(ruleset, script=script, declaration_file=vs_declaration or declaration,
                     options=[*(option or []), *(vs_option or [])],
                     answers=answer or [], vs=vs or [], seed=seed, game=game,
                     require_dice=False)
        _check_used(answer, base.answered | other.answered)
        for pair in vs or []:
            qid = pair.partition("=")[0].strip()
            if qid not in other.answered:
                raise UsageError(Msg.of("odds.error.vs_unused", question=qid))
        if not base.rolls and not other.rolls:
            raise UsageError(Msg.of("odds.error.no_dice_either"))
        _show_whatif(out, base, other, _Changes(vs, vs_option, vs_declaration),
                     _Changes(answer, option, None))


def _check_used(answers: ListOpt, answered: set[str]) -> None:
    """An ``--answer`` no question met (a misspelt id, a question past the last given roll)
    is refused rather than silently replaced by the question's default."""
    for pair in answers or []:
        qid = pair.partition("=")[0].strip()
        if qid not in answered:
            raise UsageError(Msg.of("odds.error.answer_unused", question=qid))


class _Changes:
    """What a variant of a what-if changes: answers (``--answer`` for A, ``--vs`` for B),
    options, another declaration file."""

    def __init__(self, answers: ListOpt, options: ListOpt, declaration: Path | None) -> None:
        self.answers = list(answers or [])
        self.options = list(options or [])
        self.declaration = declaration

    def text(self) -> str:
        parts = [*self.answers, *(render(Msg.of("odds.whatif.option", option=o))
                                  for o in self.options)]
        if self.declaration is not None:
            parts.append(render(Msg.of("odds.whatif.declaration",
                                       file=self.declaration.name)))
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"answers": self.answers, "options": self.options,
                "declaration": None if self.declaration is None else str(self.declaration)}


def _assumed_rows(run: Any) -> list[tuple[str, str, str]]:
    from referee.render.display import answer_text

    return [(q.id, render(q.text), answer_text(q, v)) for q, v in run.assumed]


def _run_json(run: Any) -> dict[str, Any]:
    from referee.render.display import answer_text
    from referee.render.json_out import odds_json, value

    return {"assumed": [{"question": q.id, "text": render(q.text), "answer": value(v),
                         "answer_text": answer_text(q, v)} for q, v in run.assumed],
            "odds": [odds_json(r) for r in run.rolls], "stopped_at": run.stopped_at}


def _show(out: Out, run: Any) -> None:
    if out.json:
        out.document("odds", ruleset=run.ruleset, **_run_json(run))
        return
    from referee.core.table import Table
    from referee.render.console import print_message, print_table
    from referee.render.odds import after_line, report_lines

    console = out.console
    rows = _assumed_rows(run)
    if rows:
        print_table(console, Table(Msg.of("odds.probe.assumed_title"),
                                   tuple(Msg.of(f"odds.probe.col.{c}")
                                         for c in ("question", "text", "answer")),
                                   tuple(rows)))
    for roll in run.rolls:
        for line in report_lines(roll.report, roll.clause):
            print_message(console, line)
        if roll.actual is not None:
            print_message(console, after_line(roll))
    if run.stopped_at is not None:
        print_message(console, Msg.of("odds.probe.stopped", question=run.stopped_at),
                      style="dim")


def _show_whatif(out: Out, a: Any, b: Any, changes: _Changes,
                 base_changes: _Changes) -> None:
    from referee.render.whatif import compare

    label_a = Msg.of("odds.whatif.a", changes=base_changes.text() or
                     Msg.of("odds.whatif.as_given"))
    label_b = Msg.of("odds.whatif.b", changes=changes.text())
    tables = compare(a.rolls, b.rolls, label_a, label_b)
    if out.json:
        from referee.render.json_out import table_json

        out.document(
            "whatif", ruleset=a.ruleset,
            a={"changes": base_changes.to_json(), "changes_text": base_changes.text(),
               **_run_json(a)},
            b={"changes": changes.to_json(), "changes_text": changes.text(), **_run_json(b)},
            compare=[table_json(tb) for tb in tables])
        return
    from referee.render.console import print_message, print_table
    from referee.render.whatif import notes, pairs

    console = out.console
    for table, (ra, rb) in zip(tables, pairs(a.rolls, b.rolls), strict=True):
        print_table(console, table, label_wraps=True)
        for note in notes(ra, rb):
            print_message(console, Msg.of("odds.whatif.note", note=note), style="dim")
