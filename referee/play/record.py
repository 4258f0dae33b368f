"""The ``--record`` file: every answer of an attack, written as it is given.

The record is a script (``referee.script``) that ``referee run`` replays exactly and
``referee attack --resume`` continues. It is rewritten after every answer, atomically (a
temporary file in the same folder, then a rename), so that a kill at any moment leaves either
the record before the answer or the record after it, never half a file. The destination is
checked, and the empty record written, before the first question.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import UsageError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.play.plan import AttackPlan


class Recorder:
    def __init__(self, path: Path, plan: AttackPlan) -> None:
        self.path = path
        self.plan = plan
        self.target = _destination(path)
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
            _write_atomic(self.target, dump_script(script, comment))
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


def _destination(path: Path) -> Path:
    """The file to write: a regular file or a new one, in a folder that exists (a symlink is
    followed to its file). Anything else (a folder, a FIFO, a device, a symlink loop) is
    refused before the first question."""
    refused = UsageError(Msg.of("error.record_unwritable", file=str(path)))
    try:
        target = path.resolve() if path.is_symlink() else path
        info = target.stat() if target.exists() else None
    except (OSError, RuntimeError):  # a symlink loop, a path too long
        raise refused from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise refused
    parent = target.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise refused
    if info is not None and not os.access(target, os.W_OK):
        raise refused
    return target


def _write_atomic(path: Path, text: str) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(temporary, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
