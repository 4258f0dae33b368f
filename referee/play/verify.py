"""``game verify``: does the log hold together, and were the game's dice the seed's?

First the log is checked without the seed (``game.history.check_history``). Once the seed is
revealed, it is checked against the commitment noted at the start, and every entry that kept
what resolves it again is replayed from the state it began from with its answers, each
program die rolled afresh from the seed (``play.replay``): every roll, the outcome and the
state after must be the log's. The first entry and roll that differ are named.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.errors import GameFileError, RefereeError
from referee.core.text import Msg
from referee.game import LogEntry


@dataclass(frozen=True)
class Verified:
    """What ``verify`` found: the entries checked, the program rolls recomputed (``None``:
    the seed is not revealed yet, or the file has no committed seed)."""

    entries: int
    program_rolls: int | None
    committed: bool


def _roll_text(dice: Any, successes: Any) -> str:
    return " ".join(map(str, dice)) if isinstance(dice, list) else f"={successes}"


def _mismatch(file: str, entry: LogEntry, roll: int, qid: str, reason: Msg) -> GameFileError:
    return GameFileError(Msg.of("game.error.roll_differs", file=file, number=entry.number,
                                roll=roll, question=qid, reason=reason))


def _compare(file: str, entry: LogEntry, replayed: list[tuple[str, DiceRoll]]) -> int:
    """The program rolls of ``entry`` that match the replay (else a ``GameFileError``)."""
    logged = entry.rolls
    program = 0
    for i in range(max(len(logged), len(replayed))):
        if i >= len(logged) or i >= len(replayed):
            qid = (logged[i]["question"] if i < len(logged) else replayed[i][0])
            raise _mismatch(file, entry, i + 1, str(qid), Msg.of("game.why.roll_count",
                                                                 logged=len(logged),
                                                                 replayed=len(replayed)))
        want: Mapping[str, Any] = logged[i]
        qid, roll = replayed[i]
        by_program = want.get("source") != "typed"
        if want.get("question") != qid or by_program != roll.source.by_program:
            raise _mismatch(file, entry, i + 1, str(want.get("question")),
                            Msg.of("game.why.roll_other", question=qid))
        faces = list(roll.faces) if roll.faces is not None else None
        if want.get("dice") != faces or want.get("successes") != roll.successes:
            raise _mismatch(file, entry, i + 1, qid, Msg.of(
                "game.why.roll_dice", logged=_roll_text(want.get("dice"),
                                                        want.get("successes")),
                replayed=_roll_text(faces, roll.successes)))
        program += by_program
    return program


def _files_unchanged(file: str, entry: LogEntry) -> None:
    from referee.game.entry import digest_file

    assert entry.replay is not None
    files = entry.replay.get("files") or {}
    for path, digest in files.items():
        if digest_file(path) != digest:
            raise GameFileError(Msg.of("game.error.file_changed", file=file,
                                       number=entry.number, named=path))


def verify(path: Path) -> Verified:
    """Check the game file ``path`` (see the module); ``GameFileError`` names what is wrong."""
    from referee.game.history import read_history
    from referee.game.seed import commitment
    from referee.play.replay import replay

    name = str(path)
    history, info = read_history(path)
    entries = history.entries
    if info is None or info.revealed is None:
        return Verified(len(entries), None, info is not None)
    if commitment(info.seed) != info.commitment:
        raise GameFileError(Msg.of("game.error.commitment", file=name))
    program = 0
    for entry in entries:
        if entry.replay is None:
            if any(r.get("source") != "typed" for r in entry.rolls):
                raise GameFileError(Msg.of("game.error.no_replay", file=name,
                                           number=entry.number))
            continue
        _files_unchanged(name, entry)
        try:
            again = replay(entry, info.key)
        except RefereeError as err:
            raise GameFileError(Msg.of("game.error.replay_failed", file=name,
                                       number=entry.number, reason=err.msg)) from None
        program += _compare(name, entry, again.rolls)
        if again.outcome is not None and again.outcome != entry.result.get("outcome"):
            raise GameFileError(Msg.of("game.error.outcome_differs", file=name,
                                       number=entry.number))
        if again.after != entry.after:
            raise GameFileError(Msg.of("game.error.state_differs", file=name,
                                       number=entry.number))
    return Verified(len(entries), program, True)
