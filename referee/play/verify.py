"""``game verify``: does the log hold together, and were the game's dice the seed's?

First the log is checked without the seed (``game.history.check_history``): every event's
head follows from the ones before it. Each check code the opponent noted (``--check``) must
be the code of an event of the log: then the log up to that event is what was shown with the
code (a removed, reordered or changed event, an undo taken out, a die or answer or state
changed, a program roll turned typed: every head after it changes). Once the seed is
revealed, it is checked against the commitment noted at the start, and every entry that kept
what resolves it again is replayed from the state it began from with its answers, each
program die rolled afresh from the seed and the opponent's contribution (``play.replay``):
every roll, the outcome and the state after must be the log's. The first entry and roll that
differ are named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.core.dice import DiceRoll
from referee.core.errors import GameFileError, RefereeError, UsageError
from referee.core.text import Msg
from referee.game import Event, LogEntry


@dataclass(frozen=True)
class Checked:
    """A check code the opponent noted, found: the event it was shown after."""

    code: str
    event: Event


@dataclass(frozen=True)
class Verified:
    """What ``verify`` found: the entries checked, the program rolls recomputed (``None``:
    the seed is not revealed yet, or the file has no committed seed), the codes checked, the
    overrides the players agreed, the attacks abandoned, whether the holder rolled alone."""

    entries: int
    program_rolls: int | None
    committed: bool
    checks: list[Checked] = field(default_factory=list)
    overrides: int = 0
    abandoned: int = 0
    holder_dice: bool = False


def check_codes(file: str, history: Any, codes: Sequence[str]) -> list[Checked]:
    """Each code noted, as the event whose code it is; a code that is no event's (or is not
    a code) is a ``GameFileError``."""
    from referee.game.chain import read_code

    if not codes:
        return []
    by_code = {e.code: e for e in history.events if e.digest and (
        e.entry is None or e.entry.body is not None)}
    out = []
    for given in codes:
        code = read_code(given)
        if code is None:
            raise UsageError(Msg.of("game.error.not_a_code", code=given))
        if code not in by_code:
            raise GameFileError(Msg.of("game.error.code_unknown", file=file, code=code))
        out.append(Checked(code, by_code[code]))
    return out


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


def verify(path: Path, codes: Sequence[str] = ()) -> Verified:
    """Check the game file ``path`` (see the module) and the check codes ``codes``;
    ``GameFileError`` names what is wrong."""
    from referee.game.history import read_history
    from referee.game.seed import commitment
    from referee.play.replay import entry_dice, replay

    name = str(path)
    history, info = read_history(path)
    entries = history.entries
    checks = check_codes(name, history, codes)
    found = Verified(len(entries), None, info is not None, checks,
                     sum(len(e.overrides) for e in entries if e.standing),
                     len(history.abandoned()), bool(info is not None and info.holder_dice))
    if info is None or info.revealed is None:
        return found
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
            program += _replayed(name, entry, replay(entry, entry_dice(
                info, history, entry.number or 0, entry.scheme)))
        except RefereeError as err:
            raise _in_version(name, entry, err if isinstance(err, GameFileError) else
                              GameFileError(Msg.of("game.error.replay_failed", file=name,
                                                   number=entry.number, reason=err.msg))
                              ) from None
    return replace(found, program_rolls=program)


def _replayed(name: str, entry: LogEntry, again: Any) -> int:
    """The entry's program rolls, checked against its replay ``again`` with its outcome and
    the state after it (else a ``GameFileError``)."""
    program = _compare(name, entry, again.rolls)
    if again.outcome is not None and again.outcome != entry.result.get("outcome"):
        raise GameFileError(Msg.of("game.error.outcome_differs", file=name,
                                   number=entry.number))
    if again.after != entry.after:
        raise GameFileError(Msg.of("game.error.state_differs", file=name, number=entry.number))
    return program


def _in_version(name: str, entry: LogEntry, err: GameFileError) -> GameFileError:
    """``err``, said with the version that played the entry when it is not this one: its
    questions or rules may differ, so it is verified with that version (the log's chain and
    check codes hold whatever the version)."""
    from referee import __version__

    played = _version_of(entry)
    if played == __version__:
        return err
    if played is None:  # played before the entries kept their version (0.2.0)
        return GameFileError(Msg.of("game.error.older_version", file=name,
                                    number=entry.number, this=__version__, reason=err.msg))
    return GameFileError(Msg.of("game.error.other_version", file=name, number=entry.number,
                                played=played, this=__version__, reason=err.msg))


def _version_of(entry: LogEntry) -> str | None:
    """The version of the referee that played ``entry`` (``None``: before entries kept it)."""
    found = (entry.replay or {}).get("version")
    return str(found) if found is not None else None
