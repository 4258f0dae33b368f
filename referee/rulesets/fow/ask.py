"""The declaration asked at the table, for an attack without a script or ``--declaration``.

A line at a time: the defending teams (a team or a group of identical ones: ``3 inf``,
``tank bailed top 1``), their names, the hitting teams (``3 hits``, ``2 hits tank fa d1 d2``)
and their names. Teams get short ids (``d1``, ``d2``... defending; ``h1``, ``h2``...
hitting). The geometry is answered as the players measure it (decision 4): which defending
teams each hitting team reaches, and only where it matters, where it fights from (a defending
team in a building, F-10) and which of the teams it does not reach lie across impassable
terrain (F-13). What the rules or the lines already fix is not asked: it is said in the
working (``Asked.notes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.catalog import render
from referee.core.port import Port
from referee.core.questions import EITHER, Choice, ChoiceQuestion, MultiChoiceQuestion
from referee.core.text import Msg
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.line import (
    MAX_TEAMS,
    DefenderQuestion,
    HitterLine,
    HitterQuestion,
    NamesQuestion,
    done_line,
)

BUILDING = "building"
SITUATIONS = ("open", "outside-at-opening", "inside-through-opening", "inside")


@dataclass(frozen=True)
class Asked:
    """The declaration asked at the table, and what was inferred instead of asked: each a
    line of the working with its clause."""

    declaration: AssaultDeclaration
    notes: tuple[tuple[Msg, str], ...] = ()


def default_label(side: str, kind: str, team_id: str) -> str:
    """A team's label when the players give no name, in the session's language."""
    return render(Msg.of(f"fow.label.{side}.{kind}", id=team_id.upper()))


def ask_names(port: Port, qid: str, text: Msg, teams: list[dict[str, Any]]) -> None:
    defaults = tuple(t["name"] for t in teams)
    names: tuple[str, ...] = port.ask(NamesQuestion(
        id=qid, text=text, defaults=defaults, hint_msg=Msg.of("fow.hint.names"),
        default_value=", ".join(defaults)))
    for team, name in zip(teams, names, strict=True):
        team["name"] = name


def _defenders(port: Port) -> list[dict[str, Any]]:
    teams: list[dict[str, Any]] = []
    k = 1
    while len(teams) < MAX_TEAMS:
        optional = k > 1
        line = port.ask(DefenderQuestion(
            id=f"defending.{k}", room=MAX_TEAMS - len(teams), optional=optional,
            text=Msg.of("fow.q.defenders_more" if optional else "fow.q.defenders",
                        first=f"D{len(teams) + 1}"),
            hint_msg=Msg.of("fow.hint.defenders"),
            default_value=done_line() if optional else None))
        if line is None:
            break
        for _ in range(line.count):
            team_id = f"d{len(teams) + 1}"
            team: dict[str, Any] = {"id": team_id, "type": line.type,
                                    "name": default_label("defender", line.type, team_id)}
            if line.status != "active":
                team["status"] = line.status
            if line.top is not None:
                team["top"] = line.top
            if line.building:
                team["building"] = BUILDING
            teams.append(team)
        k += 1
    return teams


def _teams_multi(port: Port, qid: str, text: Msg, teams: Sequence[dict[str, Any]],
                 clause: str) -> list[str]:
    picked: tuple[str, ...] = port.ask(MultiChoiceQuestion(
        id=qid, text=text, choices=tuple(Choice(t["id"], t["name"]) for t in teams),
        clause=clause))
    return list(picked)


class Hitters:
    """The hitting teams asked line by line, and what the lines let the referee infer."""

    def __init__(self, port: Port, defenders: list[dict[str, Any]],
                 transport_priority: bool) -> None:
        self.port = port
        self.defenders = defenders
        self.ids = tuple(d["id"] for d in defenders)
        self.buildings = any(d.get("building") for d in defenders)
        self.transport_priority = transport_priority
        self.every: list[str] = []  # hitting teams that reach every defending team
        self.open_tanks: list[str] = []  # tanks, which fight from the open (F-11)

    def hint(self) -> Msg:
        # a team's id, and its name where the name does not hold the id already
        shown = ", ".join(d["id"] if d["id"].upper() in d["name"] else f"{d['id']} {d['name']}"
                          for d in self.defenders)
        return Msg.of("fow.hint.hitters", teams=shown)

    def ask_line(self, qid: str, text: Msg, *, room: int = 1, optional: bool = False,
                 known_type: str | None = None, known_fa: bool = False) -> HitterLine | None:
        line: HitterLine | None = self.port.ask(HitterQuestion(
            id=qid, text=text, team_ids=self.ids, room=room, optional=optional,
            buildings=self.buildings, transport_priority=self.transport_priority,
            known_type=known_type, known_fa=known_fa, hint_msg=self.hint(), clause="F-2",
            default_value=done_line() if optional else None))
        return line

    def teams(self, qid: str, line: HitterLine, ids: list[str], label: str
              ) -> dict[str, Any]:
        """The declaration's fields of the teams of the line ``qid`` (the same for each),
        asking only what the line leaves open."""
        team: dict[str, Any] = {"type": line.type, "hits": line.hits}
        if line.fully_armoured:
            team["fully_armoured"] = True
        if line.priority is not None:
            team["priority"] = line.priority
        situation = line.situation
        if situation is None and line.type != "tank" and self.buildings:
            situation = self.port.ask(ChoiceQuestion(
                id=f"{qid}.situation", text=Msg.of("fow.q.situation", n=label),
                choices=tuple(Choice(s, Msg.of(f"fow.situation.{s}")) for s in SITUATIONS),
                default_value="open", clause="F-10", answered_by=EITHER))
        elif situation is None and line.type == "tank" and self.buildings:
            self.open_tanks += ids
        situation = situation or "open"
        team["situation"] = situation
        if situation in ("outside-at-opening", "inside"):
            team["building"] = BUILDING  # F-10: the building decides whom it fights
            return team
        field = "near_opening" if situation == "inside-through-opening" else "reaches"
        if line.reach is None:
            team[field] = list(self.ids)
            self.every += ids
            return team
        others = [d for d in self.defenders if d["id"] not in line.reach]
        across = _teams_multi(self.port, f"{qid}.impassable",
                              Msg.of("fow.q.impassable_others", n=label), others, "F-13")
        team[field] = [t for t in self.ids if t in line.reach or t in across]
        if across:
            team["impassable"] = across
        return team

    def notes(self, names: dict[str, str]) -> list[tuple[Msg, str]]:
        out: list[tuple[Msg, str]] = []
        if self.every:
            out.append((Msg.of("fow.inferred.every", hitters=_list(names, self.every)),
                        "F-13"))
        if not self.buildings:
            out.append((Msg.of("fow.inferred.no_building"), "F-10"))
        if self.open_tanks:
            out.append((Msg.of("fow.inferred.tanks_open", hitters=_list(names, self.open_tanks)),
                        "F-11"))
        return out


def _list(names: dict[str, str], ids: list[str]) -> str:
    return ", ".join(names[i] for i in ids)


def ask_declaration(port: Port, transport_priority: bool = False) -> Asked:
    defenders = _defenders(port)
    ask_names(port, "defending.names", Msg.of("fow.q.defender_names"), defenders)
    hitters = Hitters(port, defenders, transport_priority)
    teams: list[dict[str, Any]] = []
    k = 1
    while len(teams) < MAX_TEAMS:
        optional = k > 1
        first = f"H{len(teams) + 1}"
        line = hitters.ask_line(
            f"hitting.{k}", Msg.of("fow.q.hitters_more" if optional else "fow.q.hitters",
                                   first=first),
            room=MAX_TEAMS - len(teams), optional=optional)
        if line is None:
            break
        ids = [f"h{len(teams) + n}" for n in range(1, line.count + 1)]
        label = first if line.count == 1 else f"{first}-{ids[-1].upper()}"
        fields = hitters.teams(f"hitting.{k}", line, ids, label)
        teams += [{"id": i, "name": default_label("hitter", line.type, i), **fields}
                  for i in ids]
        k += 1
    ask_names(port, "hitting.names", Msg.of("fow.q.hitter_names"), teams)
    decl = AssaultDeclaration.model_validate({"defending": defenders, "hitting": teams})
    names = {h.id: h.label for h in decl.hitting}
    return Asked(decl, tuple(hitters.notes(names)))
