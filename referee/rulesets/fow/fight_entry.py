"""Compact lines of the whole assault: what defensive fire did to the charging teams
(``h2 destroyed, h3 bailed``; F-A5).

Each is an ``EntryQuestion``: a typed line and a scripted one are read by the same ``parse``,
and a wrong line is refused with one line naming the part that is wrong. The words are read in
every language (``words.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import EntryQuestion
from referee.core.text import Msg
from referee.rulesets.fow.words import tokens, vocabulary

DESTROYED, BAILED = "destroyed", "bailed-out"


def _refuse(key: str, **params: Any) -> AnswerError:
    return AnswerError(Msg.of(f"fow.fight_entry.{key}", **params))


def _word(group: str, value: str) -> str:
    return vocabulary().show(group, value)


def _ids(ids: tuple[str, ...]) -> str:
    return ", ".join(ids) if len(ids) <= 8 else f"{ids[0]}-{ids[-1]}"


def span(folded: str, ids: dict[str, str]) -> tuple[str, ...] | None:
    """``a1-a3``: the teams from the first to the last, in their order; a single id alone."""
    if folded in ids:
        return (ids[folded],)
    first, sep, last = folded.partition("-")
    if not sep or first not in ids or last not in ids:
        return None
    order = list(ids)
    a, b = order.index(first), order.index(last)
    return tuple(ids[t] for t in order[min(a, b):max(a, b) + 1])


@dataclass(frozen=True, kw_only=True)
class CasualtiesEntry(EntryQuestion):
    """Which charging teams defensive fire destroyed or bailed out (F-A5): team ids, each
    group followed by ``destroyed`` or ``bailed``; ``none`` (Enter) for none. At most
    ``most`` teams (one hit each at least); only vehicles bail out."""

    team_ids: tuple[str, ...]
    vehicles: tuple[str, ...]
    most: int

    def parse(self, text: str) -> tuple[tuple[str, str], ...]:
        parts = tokens(text)
        if len(parts) == 1 and vocabulary().lookup(parts, 0) in (
                ("word", "none", 1), ("word", "done", 1)):
            return ()
        ids = {t.casefold(): t for t in self.team_ids}
        said: dict[str, str] = {}
        pending: list[str] = []
        i = 0
        while i < len(parts):
            part = parts[i]
            named = span(part.casefold(), ids)
            if named is not None:
                for team in named:
                    if team in said or team in pending:
                        raise _refuse("team_twice", part=part)
                    pending.append(team)
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_casualty", part=part, ids=_ids(self.team_ids))
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if (group, value) == ("word", "destroyed"):
                result = DESTROYED
            elif (group, value) == ("status", BAILED):
                result = BAILED
            else:
                raise _refuse("unknown_casualty", part=word, ids=_ids(self.team_ids))
            if not pending:
                raise _refuse("casualty_no_team", part=word)
            for team in pending:
                if result == BAILED and team not in self.vehicles:
                    raise _refuse("bailed_not_vehicle", part=f"{team} {word}")
                said[team] = result
            pending = []
        if pending:
            raise _refuse("casualty_no_result", part=" ".join(pending))
        if len(said) > self.most:
            raise _refuse("more_than_hits", teams=len(said), hits=self.most)
        return tuple((t, said[t]) for t in self.team_ids if t in said)

    def format(self, value: tuple[tuple[str, str], ...]) -> str:
        if not value:
            return _word("word", "none")
        words = {DESTROYED: _word("word", "destroyed"), BAILED: _word("status", BAILED)}
        return ", ".join(f"{team} {words[result]}" for team, result in value)
