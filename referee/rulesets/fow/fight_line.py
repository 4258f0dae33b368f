"""Compact lines of the whole assault: what defensive fire did to the charging teams
(``h2 destroyed, h3 bailed``; F-A5), and the assault of known armies in one line (``p1-p3 vs
r1 r2 ag, rt bailed, fire r1 ag``; F-A1 to F-A3).

Each is a ``LineQuestion``: a typed line and a scripted one are read by the same ``parse``,
and a wrong line is refused with one line naming the part that is wrong. The words are read in
every language (``rulesets/flames-of-war/words.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.errors import AnswerError
from referee.core.questions import LineQuestion
from referee.core.text import Msg
from referee.rulesets.fow.line import tokens, vocabulary

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
class CasualtiesQuestion(LineQuestion):
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


# --- the assault line of known armies ------------------------------------------------------

# a team of the armies, as the line needs it: (id, side, platoon, type, state, dice of fire)
ArmyRow = tuple[str, str, str, str, str, int]


@dataclass(frozen=True)
class AssaultLine:
    """Who charges (F-A1), the enemy teams in the fight, who of them fires defensively
    (F-A3), and each team whose state or place the line changes: (id, state, in building)."""

    charge: tuple[str, ...]
    vs: tuple[str, ...]
    fire: tuple[str, ...]
    states: tuple[tuple[str, str, bool], ...] = ()
    # ``allocation`` alone: not an assault of these teams, only hits already rolled (F-1)
    allocation: bool = False
    new: bool = False  # ``new`` alone: a new assault of new platoons, typed


@dataclass(frozen=True, kw_only=True)
class AssaultQuestion(LineQuestion):
    """``p1-p3 vs r1 r2 ag rt, rt bailed, r2 building, fire r1 ag``: the charging teams (of
    one platoon), then optionally ``vs`` the enemy teams in the fight (default: every enemy
    team not destroyed), ``fire`` the teams firing defensively (default: every one in the
    fight with dice of fire on its card, not Bailed Out; ``fire none``: none), and any team's
    new state (``bailed``, ``bogged``, ``active``) or place (``building``)."""

    teams: tuple[ArmyRow, ...]
    max_length: int = 600

    def parse(self, text: str) -> AssaultLine:
        rows = {t[0]: t for t in self.teams}
        ids = {t.casefold(): t for t in rows}
        lists: dict[str, list[str] | None] = {"charge": [], "vs": None, "fire": None}
        mode = "charge"
        states: dict[str, list[Any]] = {}
        last: tuple[str, ...] = ()
        parts = tokens(text)
        alone = vocabulary().lookup(parts, 0) if parts else None
        if alone is not None and alone[0] == "word" and alone[2] == len(parts):
            if alone[1] == "allocation":
                return AssaultLine((), (), (), allocation=True)
            if alone[1] == "new":
                return AssaultLine((), (), (), new=True)
        i = 0
        while i < len(parts):
            part = parts[i]
            named = span(part.casefold(), ids)
            if named is not None:
                target = lists[mode]
                assert target is not None
                # a team named again (after a comma) is named for its state or place
                target += [team for team in named if team not in target]
                last = named
                i += 1
                continue
            found = vocabulary().lookup(parts, i)
            if found is None:
                raise _refuse("unknown_assault", part=part, ids=_ids(tuple(rows)))
            group, value, size = found
            word = " ".join(parts[i:i + size])
            i += size
            if group == "word" and value in ("vs", "fire"):
                if lists[value] is not None:
                    raise _refuse("twice_word", part=word)
                mode, lists[value], last = value, [], ()
            elif group == "word" and value in ("all", "none") and mode != "charge":
                if value == "none" and mode == "vs":
                    raise _refuse("nobody_to_fight", part=word)
                lists[mode] = [t for t in self._others(lists) if value == "all"]
                last = ()
            elif group == "status" or (group, value) == ("word", "building"):
                if not last:
                    raise _refuse("state_no_team", part=word)
                for team in last:
                    said = states.setdefault(team, [None, False])
                    if group == "status":
                        said[0] = value
                    else:
                        said[1] = True
            else:
                raise _refuse("unknown_assault", part=word, ids=_ids(tuple(rows)))
        return self._checked(lists, states)

    def _others(self, lists: dict[str, list[str] | None]) -> list[str]:
        """The enemy teams not destroyed, of the side that does not charge."""
        charge = lists["charge"] or []
        sides = {t[0]: t[1] for t in self.teams}
        side = sides[charge[0]] if charge else None
        return [t[0] for t in self.teams if t[1] != side and t[4] != "destroyed"]

    def _checked(self, lists: dict[str, list[str] | None],
                 states: dict[str, list[Any]]) -> AssaultLine:
        rows = {t[0]: t for t in self.teams}
        charge = lists["charge"] or []
        if not charge:
            raise _refuse("no_charge")
        if len({rows[t][2] for t in charge}) > 1:
            raise _refuse("two_platoons", platoons=", ".join(
                dict.fromkeys(rows[t][2] for t in charge)))
        vs = lists["vs"] if lists["vs"] is not None else self._others(lists)
        state = {t: (states.get(t, [None])[0] or rows[t][4]) for t in rows}
        for team in charge:
            _, _, _, kind, _, _ = rows[team]
            if kind == "transport":
                raise _refuse("transport_charges", part=team)
            if state[team] != "active":
                raise _refuse("cannot_charge", part=team,
                              state=Msg.of(f"fow.state.{state[team]}"))
        if not vs:
            raise _refuse("nobody_to_fight", part="-")
        side = rows[charge[0]][1]
        for team in vs:
            if rows[team][1] == side:
                raise _refuse("same_side", part=team)
            if rows[team][4] == "destroyed":
                raise _refuse("destroyed", part=team)
        for team, (status, building) in states.items():
            vehicle = rows[team][3] in ("tank", "transport")
            if team not in vs and team not in charge:
                raise _refuse("state_not_in_fight", part=team)
            if status not in (None, "active") and not vehicle:
                raise _refuse("status_not_vehicle", part=team)
            if building and (vehicle or team in charge):
                raise _refuse("building_not_here", part=team)
        if lists["fire"] is None:
            fire = [t for t in vs if rows[t][5] and state[t] != "bailed-out"]
        else:
            fire = lists["fire"]
        for team in fire:
            if team not in vs:
                raise _refuse("fire_not_in_fight", part=team)
            if not rows[team][5]:
                raise _refuse("no_rof", part=team)
            if state[team] == "bailed-out":
                raise _refuse("bailed_fires", part=team)
        order = list(rows)
        said = tuple((t, states[t][0] or rows[t][4], bool(states[t][1]))
                     for t in order if t in states)
        return AssaultLine(tuple(t for t in order if t in charge),
                           tuple(t for t in order if t in vs),
                           tuple(t for t in order if t in fire), said)

    def format(self, value: AssaultLine) -> str:
        if value.allocation or value.new:
            return _word("word", "allocation" if value.allocation else "new")
        parts = [" ".join([*value.charge, _word("word", "vs"), *value.vs])]
        for team, state, building in value.states:  # before "fire": a team named after it fires
            said = [team, _word("status", state)]
            if building:
                said.append(_word("word", "building"))
            parts.append(" ".join(said))
        parts.append(" ".join([_word("word", "fire"), *(value.fire or [_word("word", "none")])]))
        return ", ".join(parts)
