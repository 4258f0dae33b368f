"""An entry's program dice in a game: pending first, then the opponent's contribution.

Before the first program die of an entry of a game made by ``game new`` (an attack, an
impulse), ``EntryFlow.contribute`` writes the entry's declaration so far (its options, its
declaration, the answers given up to that die) to the log as a *pending* entry, in its own
transaction, which takes the entry's number; only then is the opponent asked for the entry's
contribution (``referee.game.contribution``), which is written in a second transaction before
the die is drawn. So the holder of the file cannot know a die before the declaration it
depends on is fixed, nor fix the declaration after seeing the dice.

An entry redone after an undo takes the same number and the same contribution (no word is
asked again): the same dice for the same rolls. An attack abandoned after its pending entry
(Ctrl-C, a crash, a kill) stays in the log as abandoned: by itself on Ctrl-C (``abandon``),
else by the next command that opens the file for writing (``meet_pending``), which tells a
pending entry still being played (its process alive: it is not disturbed, the command is
refused) from one left behind. A number abandoned after its contribution is never taken
again (``GameTransaction.burned``): the holder could have computed its dice. ``--resume``
takes an interrupted attack up again (a ``resume`` event) when nothing was written since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee.core.errors import GameFileError, RefereeError
from referee.core.text import Msg
from referee.game.liveness import LIVE, writer_id

if TYPE_CHECKING:
    from referee.game import Event, GameTransaction
    from referee.game.contribution import Contribution, Source

def last_event(tx: GameTransaction) -> Event | None:
    """The last event but the contributions (which follow their pending entry) and the
    sides said at the table (which may come between any two events: issue 27)."""
    row = tx._conn.execute("SELECT id FROM log WHERE kind NOT IN ('contribution', 'side') "
                           "ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else tx.event(int(row[0]))


def resumable(tx: GameTransaction, number: int) -> Event | None:
    """The pending entry of attack ``number`` that ``--resume`` may take up: abandoned, with
    nothing written after it (the game did not move on); else ``None``."""
    last = last_event(tx)
    if last is None or last.kind != "abandon" or last.number != number:
        return None
    pending = tx.event(int((last.body or {}).get("pending", 0)))
    return pending if pending.kind == "pending" and pending.number == number else None


def abandoned_answers(tx: GameTransaction, pending: Event) -> list[list[Any]]:
    """The answers an abandoned attack kept: those it was interrupted at, else those of its
    pending entry."""
    last = last_event(tx)
    kept = (last.body or {}).get("answers") if last is not None else None
    if isinstance(kept, list):
        return kept
    answers = (pending.body or {}).get("answers")
    return answers if isinstance(answers, list) else []


class EntryFlow:
    """The game-file side of one entry's program dice (``EntryDice.contribute`` calls
    ``contribute``): ``play`` the entry (a ``game.entry.GamePlay``, whose number, revision
    and game it reads and updates), ``answers()`` the answers so far (script form),
    ``source`` where the contribution comes from."""

    def __init__(self, play: Any, *, ruleset: str, command: str, source: Source,
                 options: Mapping[str, Any], declaration: Any,
                 answers: Callable[[], Sequence[tuple[str, Any]]],
                 say: Callable[[Msg], None] | None = None) -> None:
        self.play = play
        self.say = say
        self.ruleset = ruleset
        self.command = command
        self.source = source
        self.options = options
        self.declaration = declaration
        self.answers = answers
        self.pending: Event | None = None
        self.contribution: Contribution | None = None
        self.closed = False

    @property
    def number(self) -> int:
        return int(self.play.number)

    def _open(self) -> Any:
        from referee.game import open_game

        return open_game(self.play.file, owner=self.pending.id if self.pending else None)

    def _unchanged(self, tx: GameTransaction) -> None:
        if self.play.revision is not None and tx.revision != self.play.revision:
            raise GameFileError(Msg.of("error.game_changed", file=tx.name))

    def contribute(self) -> Callable[[int], str]:
        """Write the entry pending, then get and write its contribution; its values."""
        from referee.core.text import jsonable
        from referee.game.contribution import HolderDice, PerRoll, from_file

        play = self.play
        assert play.info is not None
        answers = [[q, jsonable(a)] for q, a in self.answers()]
        with self._open() as tx:
            self._unchanged(tx)
            if play.resume is not None:
                if resumable(tx, play.number) != play.resume:
                    raise GameFileError(Msg.of("game.error.resume_moved", file=tx.name,
                                               record="--resume", attack=play.number))
                tx.append_event("resume", {"pending": play.resume.id, "answers": answers},
                                number=play.number, ruleset=self.ruleset,
                                command=self.command, writer=writer_id())
                self.pending = play.resume
            else:
                if tx.next_number() != play.number:
                    raise GameFileError(Msg.of("error.game_changed", file=tx.name))
                self.pending = tx.append_event(
                    "pending", {"options": jsonable(dict(self.options)),
                                "declaration": jsonable(self.declaration),
                                "answers": answers}, number=play.number,
                    ruleset=self.ruleset, command=self.command, writer=writer_id())
            LIVE.add((str(tx.name), self.pending.id))
            known = from_file(tx.contributions(play.number))
            kept = known is not None  # a redo's, or a resumed attack's
            given_before = getattr(self.source, "given", None)
            if known is None and given_before is not None and not play.info.holder_dice:
                # a word given with the command (--word), before the declaration was fixed
                # anyway: written with the pending entry, one transaction less
                known = given_before
                for body in known.stored():
                    tx.append_event("contribution", body, number=play.number,
                                    ruleset=self.ruleset, command=self.command)
            play.revision = tx.revision
        given: Contribution
        if play.info.holder_dice:
            given = HolderDice()
        elif known is not None:
            given = known
            if kept and self.say is not None:
                self.say(Msg.of("game.kept_word", number=play.number))
        else:
            if self.say is not None and self.pending is not None and self.pending.code:
                # the declaration so far is in the chain before the opponent's part: the
                # code noted now proves later it was not changed after (``verify --check``)
                self.say(Msg.of("game.sealed", number=play.number, code=self.pending.code))
            given = self.source.contribution(play.number, play.info.opponent_side)
            self._keep(given.stored())
            if isinstance(given, PerRoll) and given.keep is None:  # each roll as it comes
                given.keep = lambda roll, value: self._keep(
                    [{"kind": given.kind, "roll": roll, "value": value}])
        self.contribution = given
        return given.value

    def _keep(self, bodies: Sequence[Mapping[str, Any]]) -> None:
        """Write contributions of the entry (before any die drawn from them)."""
        if not bodies:
            return
        with self._open() as tx:
            self._unchanged(tx)
            for body in bodies:
                tx.append_event("contribution", body, number=self.play.number,
                                ruleset=self.ruleset, command=self.command)
            self.play.revision = tx.revision

    def body(self, overrides: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        """What the entry keeps of its dice: the scheme, the pending entry it closes, the
        overrides the players agreed."""
        return {"scheme": 2, "pending": self.pending.id if self.pending else None,
                "overrides": [dict(o) for o in overrides]}

    def written(self) -> None:
        """The entry is in the file: nothing left pending."""
        self.closed = True
        if self.pending is not None:
            LIVE.discard((str(self.play.file), self.pending.id))

    def abandon(self, reason: str) -> None:
        """The entry will not be written (Ctrl-C, an error): its pending entry is marked
        abandoned with the answers given so far. Best effort: when even this cannot be
        written, the next command marks it."""
        from referee.core.text import jsonable

        if self.pending is None or self.closed:
            return
        self.closed = True
        try:
            answers = [[q, jsonable(a)] for q, a in self.answers()]
            with self._open() as tx:
                tx.append_event("abandon", {"pending": self.pending.id, "reason": reason,
                                            "answers": answers}, number=self.pending.number,
                                ruleset=self.ruleset, command=self.command)
        except (RefereeError, OSError):
            pass
        finally:
            LIVE.discard((str(self.play.file), self.pending.id))
