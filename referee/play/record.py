"""The ``--record`` file: every answer of an attack, written as it is given.

The record is a script (``referee.script``) that ``referee run`` replays exactly and
``referee attack --resume`` continues. It is rewritten after every answer, atomically
(``files.write_atomic``: a temporary file in the same folder, then a rename), so that a kill at
any moment leaves either the record before the answer or the record after it, never half a
file. The destination is checked (``files.output_target``: never the game file the attack is
played in), and the empty record written, before the first question.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import UsageError
from referee.core.text import Msg
from referee.files import output_target, write_atomic

if TYPE_CHECKING:
    from referee.play.plan import AttackPlan


class Recorder:
    def __init__(self, path: Path, plan: AttackPlan) -> None:
        self.path = path
        self.plan = plan
        self.target = output_target(path, game=plan.game.file if plan.game else None,
                                    force=True,  # the command checked what it reads
                                    unwritable="error.record_unwritable")
        self.failed: Msg | None = None  # the first write that failed during the attack

    def write(self, answers: Sequence[tuple[str, Any]], *, complete: bool) -> None:
        """Write the record now; a failure is a ``UsageError``."""
        from referee.catalog import render
        from referee.core.options import to_folder
        from referee.script import Script, dump_script

        plan = self.plan
        # a file an option names is found from the record's folder when it is replayed
        options = to_folder(plan.info.option_specs(), plan.option_overrides,
                            str(self.path.parent))
        game = attack = None
        if plan.game is not None and plan.game.committed:  # the game's seed stays secret
            game = os.path.relpath(plan.game.file, self.path.parent)
            attack = plan.game.number
        script = Script(path=str(self.path), ruleset=plan.info.id, seed=plan.seed,
                        options=options, declaration=plan.declaration_raw,
                        answers=dict(answers), roll_missing_dice=complete, game=game,
                        attack=attack)
        comment = render(Msg.of("record.header" if complete else "record.header_partial",
                                file=str(self.path), ruleset=plan.info.id))
        try:
            write_atomic(self.target, dump_script(script, comment))
        except OSError as err:
            raise UsageError(Msg.of("error.record_failed", file=str(self.path),
                                    reason=err.strerror or str(err))) from None

    def keep(self, answers: Sequence[tuple[str, Any]], *, complete: bool = False) -> Msg | None:
        """Write the record, never stopping the attack: the first failure is kept and
        returned (and the last one, at the end), to be reported after the outcome."""
        try:
            self.write(answers, complete=complete)
        except UsageError as err:
            self.failed = self.failed or err.msg
            return err.msg
        return self.failed if complete else None


def check_target(path: Path, plan: AttackPlan, *, reads: Sequence[Path | None] = (),
                 force: bool = False) -> None:
    """Refuse a ``--record`` destination before anything is asked (``files.output_target``):
    the game file the attack is played in, a file it reads (``reads``: its declaration,
    roster...; the files its options name), or another game file (unless ``force``)."""
    output_target(path, game=plan.game.file if plan.game else None,
                  reads=[*reads, *files_read(plan)], force=force,
                  unwritable="error.record_unwritable")


def write_file(path: Path, text: str, *, game: Path | None = None,
               reads: Sequence[Path | None] = ()) -> None:
    """Write ``text`` to ``path`` at once (``files.write_atomic``): a file a command exports
    (a roster, a chart file). Refused as every output is (``files.output_target``): never the
    game file ``game``, nor a file the command reads (``reads``) or another game file; a
    destination that cannot take it is refused with ``kept.error.unwritable``."""
    target = output_target(path, game=game, reads=reads, unwritable="kept.error.unwritable")
    try:
        write_atomic(target, text)
    except OSError:
        raise UsageError(Msg.of("kept.error.unwritable", file=str(path))) from None


def files_read(plan: AttackPlan) -> list[str]:
    """The files an attack reads besides its declaration: the roster a declaration names
    and the files its options name (a deck file, a data file)."""
    out = [str(value) for spec in plan.info.option_specs()
           if spec.path and isinstance(value := plan.option_overrides.get(spec.name), str)]
    raw = plan.declaration_raw
    if raw is not None and isinstance(raw.get("roster"), str):
        out.append(raw["roster"])
    return out
