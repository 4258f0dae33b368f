"""``referee game ...``: the game as a whole, kept in one game file.

``new`` makes a game with a secret seed and prints its commitment; ``log`` shows every event
with its check code; ``undo`` takes entries back (the next attack rolls the same program dice:
the same number, the same word); ``report`` writes the battle report (Markdown, or one HTML
page); ``follow`` is the opponent's view, read only; ``serve`` puts the game on the phones at
the table (``referee.serve``); ``reveal`` prints the seed at the end and ``verify`` checks the
codes the opponent noted and recomputes every program die.
Thin commands over ``referee.game_*``; registered on the app as one sub-app, and light at
import like every command module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from referee.catalog import t
from referee.cli.app import app, framed
from referee.cli.seat import Questions
from referee.cli.shared import JsonFlag, helped

game_app = typer.Typer(help=helped("game"), no_args_is_help=True, add_completion=False,
                       context_settings={"help_option_names": ["-h", "--help"]})

FileArg = Annotated[Path, typer.Argument(help=t("cli.game.arg.file"), readable=False,
                                         metavar="FILE")]


@game_app.command("new", help=helped("game.new"))
def new(ctx: typer.Context, file: FileArg,
        name: Annotated[str | None, typer.Option("--name", metavar="TEXT",
                                                 help=t("cli.game.opt.name"))] = None,
        side: Annotated[list[str] | None, typer.Option("--side", metavar="NAME",
                                                       help=t("cli.game.opt.side"))] = None,
        holder: Annotated[str | None, typer.Option("--holder", metavar="SIDE",
                                                   help=t("cli.game.opt.holder"))] = None,
        holder_dice: Annotated[bool, typer.Option("--holder-dice",
                                                  help=t("cli.game.opt.holder_dice"))] = False,
        opponent_seed: Annotated[str | None, typer.Option(
            "--opponent-seed", metavar="TEXT", hidden=True)] = None,
        json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.errors import UsageError
        from referee.core.questions import TextQuestion
        from referee.core.text import Msg
        from referee.game.seed import new_game

        if opponent_seed is not None:  # a text typed once, then kept in the holder's file
            raise UsageError(Msg.of("game.error.opponent_seed"))
        if file.exists():  # before any question
            raise UsageError(Msg.of("game.error.exists", file=str(file)))
        sides = list(side or [])
        if len(sides) > 2 or len(sides) == 1:
            raise UsageError(Msg.of("game.error.sides"))
        if not sides:
            questions = Questions(out)
            sides = [questions.ask(TextQuestion(id=f"game.side.{i}",
                                                text=Msg.of(f"game.q.side_name.{i}")), "--side")
                     for i in (1, 2)]
        info = new_game(file, name=name or file.stem, sides=sides, holder=holder,
                        holder_dice=holder_dice)
        if out.json:
            out.document("game", file=str(file), game=info.public())
            return
        from referee.render.console import print_message

        console = out.console
        print_message(console, Msg.of("game.new.made", name=info.name, file=str(file),
                                      first=info.sides[0], second=info.sides[1]))
        print_message(console, Msg.of("game.new.commitment", commitment=info.commitment))
        if info.holder_dice:
            print_message(console, Msg.of("game.new.holder_dice", holder=info.holding))
        else:
            print_message(console, Msg.of("game.new.words", holder=info.holding,
                                          opponent=info.opponent_side))
        print_message(console, Msg.of("game.new.how", file=str(file)), style="dim")


@game_app.command("log", help=helped("game.log"))
def log(ctx: typer.Context, file: FileArg, json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.game.history import read_history
        from referee.game.view import Context, entry_json, event_json, header_lines, log_lines
        from referee.play.replay import would_have_lines

        history, info = read_history(file)
        context = Context(info, history)
        if out.json:
            out.document("game-log", file=str(file), game=info.public() if info else None,
                         entries=[entry_json(e, context) for e in history.entries],
                         events=[event_json(e) for e in history.events if e.entry is None])
            return
        from referee.render.console import print_lines

        lines = header_lines(str(file), info, history.entries)
        print_lines(out.console, lines + log_lines(context, would_have_lines))


@game_app.command("undo", help=helped("game.undo"))
def undo(ctx: typer.Context, file: FileArg,
         to: Annotated[int | None, typer.Option("--to", metavar="N", min=0,
                                                help=t("cli.game.opt.to"))] = None,
         yes: Annotated[bool, typer.Option("--yes", help=t("cli.game.opt.yes"))] = False,
         json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.questions import ConfirmQuestion
        from referee.core.text import Msg
        from referee.game.history import read_history
        from referee.game.history import undo as take_back
        from referee.game.view import entry_json, entry_title

        if to is not None and not yes:
            standing = read_history(file)[0].standing
            after = [e for e in standing if (e.number or 0) > to]
            if after and not Questions(out).ask(ConfirmQuestion(
                    id="game.undo.confirm", text=Msg.of("game.q.undo_to", to=to,
                                                        count=len(after))), "--yes"):
                if out.json:
                    out.document("game-undo", file=str(file), undone=[],
                                 next_number=(standing[-1].number or 0) + 1, check_code=None)
                    return
                from referee.render.console import print_message

                print_message(out.console, Msg.of("game.undo.kept", file=str(file)))
                return
        undone, code = take_back(file, to)
        if out.json:
            out.document("game-undo", file=str(file), undone=[entry_json(e) for e in undone],
                         next_number=undone[-1].number, check_code=code)
            return
        from referee.render.console import print_message

        console = out.console
        for entry in undone:
            print_message(console, Msg.of("game.undo.done", number=entry.number,
                                          title=entry_title(entry)))
        print_message(console, Msg.of("game.undo.next", number=undone[-1].number),
                      style="dim")
        print_message(console, Msg.of("game.code_after_undo", code=code), style="bold")


@game_app.command("report", help=helped("game.report"))
def report(ctx: typer.Context, file: FileArg,
           html: Annotated[Path | None, typer.Option("--html", metavar="OUT",
                                                     help=t("cli.game.opt.html"),
                                                     readable=False)] = None,
           force: Annotated[bool, typer.Option("--force", help=t("cli.game.opt.force"))] = False,
           json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.game.report import build_report, markdown, report_json, write_html
        from referee.play.replay import would_have_lines

        target = None
        if html is not None:  # never over the game file it is made from (--force)
            from referee.files import output_target

            target = output_target(html, reads=[file], force=force,
                                   unwritable="error.report_unwritable")
        built = build_report(file, would_have_lines)
        if target is not None:
            write_html(built, target)
        if out.json:
            out.document("game-report", **report_json(built))
            return
        if html is not None:
            from referee.core.text import Msg
            from referee.render.console import print_message

            print_message(out.console, Msg.of("game.report.written", file=str(html)))
            return
        out.env.stdout.write(markdown(built))


@game_app.command("follow", help=helped("game.follow"))
def follow(ctx: typer.Context, file: FileArg,
           interval: Annotated[float, typer.Option("--interval", metavar="SECONDS", min=0.05,
                                                   max=60,
                                                   help=t("cli.game.opt.interval"))] = 0.5
           ) -> None:
    with framed(ctx) as out:
        from referee.game.follow import follow as watch

        try:
            watch(file, out.env, interval=interval)
        except KeyboardInterrupt:
            raise typer.Exit(0) from None  # Ctrl-C is how one stops watching


@game_app.command("serve", help=helped("game.serve"))
def serve(ctx: typer.Context, file: FileArg,
          lan: Annotated[bool, typer.Option("--lan", help=t("cli.game.opt.lan"))] = False,
          port: Annotated[int, typer.Option("--port", metavar="N", min=0, max=65535,
                                            help=t("cli.game.opt.port"))] = 8765) -> None:
    with framed(ctx) as out:
        from referee.serve.run import serve as run

        try:
            run(file, out.env, lan=lan, port=port)
        except KeyboardInterrupt:
            raise typer.Exit(0) from None  # Ctrl-C is how one stops serving


@game_app.command("reveal", help=helped("game.reveal"))
def reveal(ctx: typer.Context, file: FileArg, json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.text import Msg
        from referee.game.seed import reveal as do_reveal

        info, code = do_reveal(file)
        if out.json:
            out.document("game", file=str(file), game=info.public())
            return
        from referee.render.console import print_message

        console = out.console
        print_message(console, Msg.of("game.reveal.seed", seed=info.seed))
        print_message(console, Msg.of("game.reveal.check", commitment=info.commitment,
                                      file=str(file)), style="dim")
        if code is not None:
            print_message(console, Msg.of("game.code_after_reveal", code=code), style="bold")


@game_app.command("verify", help=helped("game.verify"))
def verify(ctx: typer.Context, file: FileArg,
           check_codes: Annotated[list[str] | None, typer.Option(
               "--check", metavar="CODE", help=t("cli.game.opt.check"))] = None,
           json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.text import Msg
        from referee.play.verify import verify as check

        found = check(file, check_codes or [])
        if found.program_rolls is not None:
            msg = Msg.of("game.verify.match", count=found.program_rolls,
                         entries=found.entries)
        elif found.committed:
            msg = Msg.of("game.verify.awaiting", entries=found.entries)
        else:
            msg = Msg.of("game.verify.no_seed", entries=found.entries)
        if out.json:
            from referee.render.json_out import message

            out.document("game-verify", file=str(file), entries=found.entries,
                         committed=found.committed, program_rolls=found.program_rolls,
                         checks=[{"code": c.code, "id": c.event.id, "kind": c.event.kind,
                                  "number": c.event.number} for c in found.checks],
                         overrides=found.overrides, abandoned=found.abandoned,
                         holder_dice=found.holder_dice, verdict=message(msg))
            return
        from referee.render.console import print_message

        for checked in found.checks:
            print_message(out.console, _code_found(checked))
        print_message(out.console, msg)
        for note in _verify_notes(found):
            print_message(out.console, note)


def _code_found(checked: Any) -> Any:
    """What a check code proves: the log up to its event is what was shown with it."""
    from referee.core.text import Msg
    from referee.game.faults import where_event

    return Msg.of("game.verify.code", code=checked.code, where=where_event(checked.event))


def _verify_notes(found: Any) -> list[Any]:
    """What ``verify`` says besides the verdict: the holder's dice, overrides, abandoned."""
    from referee.core.text import Msg

    notes = []
    if found.holder_dice:
        notes.append(Msg.of("game.verify.holder_dice"))
    if found.overrides:
        notes.append(Msg.of("game.verify.overrides", count=found.overrides))
    if found.abandoned:
        notes.append(Msg.of("game.verify.abandoned", count=found.abandoned))
    return notes


# --- what the game keeps besides the rulesets' states (issue 27) -------------------------

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
    with framed(ctx, json_) as out:
        from referee.core.text import Msg
        from referee.game import charts as kept

        changes: list[kept.Change] = []
        added = kept.read_chart_file(import_) if import_ is not None else []
        if set_ or remove or added:
            changes = kept.change(file, set_=_numbered(set_ or [], "--set"),
                                  remove=remove or [], add=added)
        rows = kept.read_charts(file)
        if export is not None:
            from referee.play.record import write_file

            write_file(export, kept.chart_file(rows, str(file)), game=file, reads=[import_])
        if out.json:
            out.document("game-charts", file=str(file),
                         charts=[kept.row_json(r) for r in rows],
                         changes=[kept.change_json(c) for c in changes])
            return
        from referee.core.table import NOTHING, Shown, Table
        from referee.render.console import print_message, print_table

        console = out.console
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


@game_app.command("roster", help=helped("game.roster"))
def roster(ctx: typer.Context, file: FileArg,
           export: Annotated[Path | None, typer.Option(
               "--export", metavar="OUT", readable=False,
               help=t("cli.game.roster.opt.export"))] = None,
           import_: Annotated[Path | None, typer.Option(
               "--import", metavar="ROSTER", readable=False,
               help=t("cli.game.roster.opt.import_"))] = None,
           ruleset: Annotated[str | None, typer.Option(
               "--ruleset", metavar="RULESET", help=t("cli.game.roster.opt.ruleset"))] = None,
           side: Annotated[list[str] | None, typer.Option(
               "--side", metavar="NAME=SIDE", help=t("cli.game.roster.opt.side"))] = None,
           json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.text import Msg
        from referee.game import armies

        moved = [armies.put_on_side(file, given) for given in side or ()]
        number = None
        if import_ is not None:
            which = armies.roster_ruleset(import_, ruleset)
            number = armies.import_roster(file, import_, which)
        written = None
        if export is not None:
            from referee.play.record import write_file

            written = armies.which_ruleset(file, ruleset)
            write_file(export, armies.roster_text(file, written), game=file,
                       reads=[import_])
        groups = armies.kept_groups(file)
        if out.json:
            out.document("game-roster", file=str(file),
                         groups=[armies.group_json(g) for g in groups],
                         imported=number, exported=written)
            return
        from referee.core.fates import joined
        from referee.core.table import NOTHING, Table
        from referee.render.console import print_message, print_table

        console = out.console
        for said in moved:
            print_message(console, said)
        if number is not None and import_ is not None:
            print_message(console, Msg.of("kept.army.imported", roster=str(import_),
                                          number=number))
        if not groups:
            print_message(console, Msg.of("kept.army.none", file=str(file)))
        else:
            unknown = Msg.of("kept.army.side_unknown")
            ordered = sorted(groups, key=lambda g: (g.side is None, g.side or ""))
            print_table(console, Table(
                Msg.of("kept.army.title", file=str(file)),
                tuple(Msg.of(f"kept.army.col.{c}") for c in
                      ("side", "ruleset", "group", "unit", "profile", "state")),
                tuple((g.side or unknown, g.ruleset,
                       Msg.of("kept.army.group", group=g.name, state=joined(g.state))
                       if g.state else g.name, u.name, u.profile,
                       u.state if u.state is not None else NOTHING)
                      for g in ordered for u in g.units)))
        if written is not None and export is not None:
            print_message(console, Msg.of("kept.army.exported", ruleset=written,
                                          file=str(export)), style="dim")


app.add_typer(game_app, name="game", help=helped("game"))
