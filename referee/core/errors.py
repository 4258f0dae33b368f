"""Precise error classes. Each carries a message value, never a formatted English string."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.text import Msg


class RefereeError(Exception):
    """Base of every error the referee reports to the user without a traceback."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.id)
        self.msg = msg


class AnswerError(RefereeError, ValueError):
    """An answer (typed or scripted) that a question refuses. ``msg`` is a one-line reason."""


class UsageError(RefereeError):
    """A command-line argument the referee cannot use (unknown id, bad option value...)."""


class UnknownIdError(UsageError):
    """An id (ruleset, table, option, question) that does not exist, with close matches."""

    def __init__(self, kind: str, given: str, known: Sequence[str]) -> None:
        import difflib

        self.kind = kind
        self.given = given
        self.suggestions = tuple(difflib.get_close_matches(given, list(known), n=3, cutoff=0.5))
        if self.suggestions:
            msg = Msg.of("error.unknown_id_suggest", kind=Msg.of(f"kind.{kind}"), given=given,
                         suggestions=", ".join(self.suggestions))
        else:
            msg = Msg.of("error.unknown_id", kind=Msg.of(f"kind.{kind}"), given=given,
                         known=", ".join(known))
        super().__init__(msg)


class ScriptError(RefereeError):
    """A script, roster or transcript that cannot be used: names the file, where, and what."""

    def __init__(self, file: str, where: Msg | str, expected: Msg | str) -> None:
        self.file = file
        self.where = where
        self.expected = expected
        if where:
            super().__init__(Msg.of("error.script", file=file, where=where, expected=expected))
        else:
            super().__init__(Msg.of("error.script_file", file=file, expected=expected))


class MissingAnswerError(RefereeError):
    """A scripted run reached a question its script does not answer."""

    def __init__(self, file: str, question_id: str, near: str | None = None) -> None:
        self.question_id = question_id
        if near:
            super().__init__(Msg.of("error.missing_answer_near", file=file,
                                    question=question_id, near=near))
        else:
            super().__init__(Msg.of("error.missing_answer", file=file, question=question_id))


class UnusedAnswerError(RefereeError):
    """A scripted run ended with answers that no question asked for: the first ``SHOWN``
    of them are named, and how many more there are (a message stays one short line)."""

    SHOWN = 10

    def __init__(self, file: str, question_ids: Sequence[str]) -> None:
        self.question_ids = tuple(question_ids)
        shown = ", ".join(self.question_ids[:self.SHOWN])
        more = len(self.question_ids) - self.SHOWN
        if more > 0:
            super().__init__(Msg.of("error.unused_answers_more", file=file, questions=shown,
                                    more=more))
        else:
            super().__init__(Msg.of("error.unused_answers", file=file, questions=shown))


class NoTerminalError(RefereeError):
    """An interactive question with no terminal to ask it on."""


class GameFileError(RefereeError):
    """A game file that cannot be opened or does not belong to this ruleset; ``sqlite_code``:
    SQLite's error code when SQLite refused it (a file locked by a write: wait and retry)."""

    sqlite_code: int | None = None


class RecordedRollError(RefereeError):
    """A program roll read from a record (``--resume``) that is not the roll the game's dice
    give there: a record is never trusted for the program's dice of a game."""

    def __init__(self, question_id: str, msg: Msg) -> None:
        super().__init__(msg)
        self.question_id = question_id
