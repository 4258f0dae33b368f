"""``referee rulesets``, ``referee lookup`` and ``referee options``: what there is, the rule
tables, and the named readings and house rules."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.catalog import t
from referee.cli import complete
from referee.cli.app import app, framed
from referee.cli.shared import JsonFlag, RulesetArg, helped
from referee.core.text import Msg
from referee.rulesets import find_ruleset


@app.command(help=helped("rulesets"))
def rulesets(ctx: typer.Context, json_: JsonFlag = False) -> None:
    from referee.rulesets import all_rulesets

    with framed(ctx, json_) as out:
        infos = all_rulesets()
        if out.json:
            from referee.render.json_out import message

            out.document("rulesets", rulesets=[
                {"id": i.id, "aliases": list(i.aliases), "name": message(i.name),
                 "edition": message(i.edition), "covers": message(i.covers),
                 "available": list(i.available), "tables": list(i.tables)} for i in infos])
            return
        from referee.core.table import Table
        from referee.render.console import print_table

        rows = tuple((i.id, ", ".join(i.aliases), i.name, i.edition, i.covers,
                      ", ".join(i.available) or Msg.of("rulesets.coming"))
                     for i in infos)
        print_table(out.console, Table(Msg.of("rulesets.title"),
                                       tuple(Msg.of(f"rulesets.col.{c}") for c in
                                             ("id", "aliases", "game", "edition", "covers",
                                              "available")), rows))


@app.command(help=helped("lookup"),
             context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def lookup(ctx: typer.Context,
           ruleset: RulesetArg,
           table: Annotated[str | None, typer.Argument(help=t("cli.arg.table"), metavar="TABLE",
                                                        autocompletion=complete.tables)] = None,
           key: Annotated[str | None, typer.Argument(help=t("cli.arg.key"), metavar="KEY")] = None,
           json_: JsonFlag = False) -> None:
    from referee.play import lookup as tables

    with framed(ctx, json_) as out:
        # the table's own flags (--cover, --defence 2) may come anywhere after the ruleset;
        # the ruleset checks them and refuses what it does not take
        words = [w for w in (table, key, *ctx.args) if w is not None]
        table, key, args = tables.lookup_words(ruleset, words)
        if table is None and not args:
            result = tables.lookup_tables(ruleset)
        elif table is None:
            from referee.core.errors import UsageError

            raise UsageError(Msg.of("error.lookup_flags_need_table", flags=" ".join(args)))
        else:
            result = tables.lookup(ruleset, table, key, args)
        if out.json:
            from referee.render.json_out import table_json

            ruleset_id = find_ruleset(ruleset).id
            if table is None:
                out.document("lookup-tables", ruleset=ruleset_id, **table_json(result))
            else:
                out.document("lookup", ruleset=ruleset_id, table=table, key=key, flags=args,
                             **table_json(result))
            return
        from referee.render.console import print_table

        print_table(out.console, result)


@app.command(help=helped("options"))
def options(ctx: typer.Context,
            ruleset: RulesetArg,
            json_: JsonFlag = False) -> None:
    from referee.play.lookup import options_table, ruleset_options

    with framed(ctx, json_) as out:
        if out.json:
            out.document("options", ruleset=find_ruleset(ruleset).id,
                         options=ruleset_options(ruleset))
            return
        from referee.render.console import print_table

        print_table(out.console, options_table(ruleset))
