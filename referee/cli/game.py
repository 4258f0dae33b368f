"""``referee game ...``: the game as a whole, kept in one game file.

``new`` makes a game with a secret seed and prints its commitment; ``log`` shows every entry;
``undo`` takes entries back (the next attack rolls the same program dice); ``report`` writes
the battle report (Markdown, or one HTML page); ``follow`` is the opponent's view, read only;
``serve`` puts the game on the phones at the table (``referee.serve``); ``reveal`` prints the
seed at the end and ``verify`` recomputes every program die from it.
Thin commands over ``referee.game_*``; registered on the app as one sub-app, and light at
import like every command module.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.catalog import t
from referee.cli.app import app, framed
from referee.cli.shared import JsonFlag, helped

if TYPE_CHECKING:
    from referee.cli.shared import Out
    from referee.core.questions import Question

game_app = typer.Typer(help=helped("game"), no_args_is_help=True, add_completion=False,
                       context_settings={"help_option_names": ["-h", "--help"]})

FileArg = Annotated[Path, typer.Argument(help=t("cli.game.arg.file"), readable=False,
                                         metavar="FILE")]


class _Questions:
    """The questions one command asks at the terminal (a test's port in tests and
    transcripts: one port a command, so that its answers come in order); with no terminal,
    a message naming the flag that gives the answer instead."""

    def __init__(self, out: Out) -> None:
        self.out = out
        self.port: Any = None

    def ask(self, question: Question, flag: str) -> Any:
        if self.port is None:
            self.port = self._port(flag)
        return self.port.ask(question)

    def _port(self, flag: str) -> Any:
        from referee.core.dice import KeyedDice
        from referee.core.errors import NoTerminalError
        from referee.core.text import Msg
        from referee.render.console import print_message, show_answer

        env, console = self.out.env, self.out.prompts
        if env.port_factory is not None:
            from referee.frontends.wrappers import EchoPort

            return EchoPort(env.port_factory(KeyedDice(0)),
                            lambda q, v: show_answer(console, q, v))
        if env.stdin_isatty:
            from referee.frontends.interactive import InteractivePort

            return InteractivePort(KeyedDice(0), say=lambda text: print_message(console, text))
        raise NoTerminalError(Msg.of("game.error.no_terminal", flag=flag))


@game_app.command("new", help=helped("game.new"))
def new(ctx: typer.Context, file: FileArg,
        name: Annotated[str | None, typer.Option("--name", metavar="TEXT",
                                                 help=t("cli.game.opt.name"))] = None,
        side: Annotated[list[str] | None, typer.Option("--side", metavar="NAME",
                                                       help=t("cli.game.opt.side"))] = None,
        opponent_seed: Annotated[str | None, typer.Option(
            "--opponent-seed", metavar="TEXT", help=t("cli.game.opt.opponent_seed"))] = None,
        json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.errors import UsageError
        from referee.core.questions import TextQuestion
        from referee.core.text import Msg
        from referee.game.seed import new_game

        if file.exists():  # before any question
            raise UsageError(Msg.of("game.error.exists", file=str(file)))
        sides = list(side or [])
        if len(sides) > 2 or len(sides) == 1:
            raise UsageError(Msg.of("game.error.sides"))
        if not sides:
            questions = _Questions(out)
            sides = [questions.ask(TextQuestion(id=f"game.side.{i}",
                                                text=Msg.of(f"game.q.side_name.{i}")), "--side")
                     for i in (1, 2)]
        info = new_game(file, name=name or file.stem, sides=sides, opponent=opponent_seed)
        if out.json:
            out.document("game", file=str(file), game=info.public())
            return
        from referee.render.console import print_message

        console = out.console
        print_message(console, Msg.of("game.new.made", name=info.name, file=str(file),
                                      first=info.sides[0], second=info.sides[1]))
        print_message(console, Msg.of("game.new.commitment", commitment=info.commitment))
        if info.opponent:
            print_message(console, Msg.of("game.new.opponent", text=info.opponent))
        print_message(console, Msg.of("game.new.how", file=str(file)), style="dim")


@game_app.command("log", help=helped("game.log"))
def log(ctx: typer.Context, file: FileArg, json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.game.history import read_history
        from referee.game.view import entry_json, entry_lines, header_lines

        history, info = read_history(file)
        if out.json:
            out.document("game-log", file=str(file), game=info.public() if info else None,
                         entries=[entry_json(e) for e in history.entries])
            return
        from referee.render.console import print_lines

        lines = header_lines(str(file), info, history.entries)
        for entry in history.entries:
            lines += entry_lines(entry)
        print_lines(out.console, lines)


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
            if after and not _Questions(out).ask(ConfirmQuestion(
                    id="game.undo.confirm", text=Msg.of("game.q.undo_to", to=to,
                                                        count=len(after))), "--yes"):
                if out.json:
                    out.document("game-undo", file=str(file), undone=[],
                                 next_number=(standing[-1].number or 0) + 1)
                    return
                from referee.render.console import print_message

                print_message(out.console, Msg.of("game.undo.kept", file=str(file)))
                return
        undone = take_back(file, to)
        if out.json:
            out.document("game-undo", file=str(file), undone=[entry_json(e) for e in undone],
                         next_number=undone[-1].number)
            return
        from referee.render.console import print_message

        console = out.console
        for entry in undone:
            print_message(console, Msg.of("game.undo.done", number=entry.number,
                                          title=entry_title(entry)))
        print_message(console, Msg.of("game.undo.next", number=undone[-1].number),
                      style="dim")


@game_app.command("report", help=helped("game.report"))
def report(ctx: typer.Context, file: FileArg,
           html: Annotated[Path | None, typer.Option("--html", metavar="OUT",
                                                     help=t("cli.game.opt.html"),
                                                     readable=False)] = None,
           force: Annotated[bool, typer.Option("--force", help=t("cli.game.opt.force"))] = False,
           json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.game.report import build_report, markdown, report_json, write_html

        target = None
        if html is not None:  # never over the game file it is made from (--force)
            from referee.files import output_target

            target = output_target(html, reads=[file], force=force,
                                   unwritable="error.report_unwritable")
        built = build_report(file)
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

        info = do_reveal(file)
        if out.json:
            out.document("game", file=str(file), game=info.public())
            return
        from referee.render.console import print_message

        console = out.console
        print_message(console, Msg.of("game.reveal.seed", seed=info.seed))
        print_message(console, Msg.of("game.reveal.check", commitment=info.commitment,
                                      file=str(file)), style="dim")


@game_app.command("verify", help=helped("game.verify"))
def verify(ctx: typer.Context, file: FileArg, json_: JsonFlag = False) -> None:
    with framed(ctx, json_) as out:
        from referee.core.text import Msg
        from referee.play.verify import verify as check

        found = check(file)
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
                         verdict=message(msg))
            return
        from referee.render.console import print_message

        print_message(out.console, msg)


app.add_typer(game_app, name="game", help=helped("game"))
