"""The declaration asked at the table, for an attack without a script or ``--declaration``.

Teams get short ids (``d1``, ``d2``... defending; ``h1``, ``h2``... hitting); the geometry
is answered as the players measure it (decision 4): which defending teams each hitting team
reaches, which of those lie across impassable terrain, and where it fights from.
"""

from __future__ import annotations

from typing import Any

from referee.core.port import Port
from referee.core.questions import (
    Choice,
    ChoiceQuestion,
    ConfirmQuestion,
    MultiChoiceQuestion,
    NumberQuestion,
)
from referee.core.text import Msg
from referee.rulesets.fow.declaration import AssaultDeclaration

MAX_TEAMS = 25
BUILDING = "building"
TOP_VALUES = tuple(range(0, 10))


def _choice(port: Port, qid: str, text: Msg, values: tuple[str, ...], prefix: str,
            default: str, clause: str | None = None) -> str:
    answer: str = port.ask(ChoiceQuestion(
        id=qid, text=text, choices=tuple(Choice(v, Msg.of(f"{prefix}.{v}")) for v in values),
        default_value=default, clause=clause))
    return answer


def _defender(port: Port, i: int) -> dict[str, Any]:
    team: dict[str, Any] = {"id": f"d{i}", "name": f"D{i}"}
    team["type"] = _choice(port, f"defending.{i}.type", Msg.of("fow.q.defender_type", n=i),
                           ("infantry", "gun", "tank", "transport"), "fow.kind", "infantry")
    if team["type"] in ("tank", "transport"):
        team["status"] = _choice(port, f"defending.{i}.status",
                                 Msg.of("fow.q.defender_status", n=i),
                                 ("active", "bogged-down", "bailed-out"), "fow.status",
                                 "active", "F-4")
        top: str = port.ask(ChoiceQuestion(
            id=f"defending.{i}.top", text=Msg.of("fow.q.defender_top", n=i),
            choices=(Choice("none", Msg.of("fow.choice.unarmoured")),
                     *(Choice(str(v), str(v)) for v in TOP_VALUES)),
            default_value="none", clause="F-6"))
        if top != "none":
            team["top"] = int(top)
    elif port.ask(ConfirmQuestion(id=f"defending.{i}.in-building",
                                  text=Msg.of("fow.q.defender_building", n=i),
                                  clause="F-10")):
        team["building"] = BUILDING
    return team


def _teams_multi(port: Port, qid: str, text: Msg, ids: list[str], clause: str,
                 least: int = 0) -> list[str]:
    picked: tuple[str, ...] = port.ask(MultiChoiceQuestion(
        id=qid, text=text, choices=tuple(Choice(t, t.upper()) for t in ids),
        min_count=least, clause=clause))
    return list(picked)


def _hitter(port: Port, i: int, defenders: list[dict[str, Any]],
            transport_priority: bool) -> dict[str, Any]:
    ids = [d["id"] for d in defenders]
    team: dict[str, Any] = {"id": f"h{i}", "name": f"H{i}"}
    team["type"] = _choice(port, f"hitting.{i}.type", Msg.of("fow.q.hitter_type", n=i),
                           ("infantry", "gun", "tank", "tank-escort"), "fow.hitter",
                           "infantry")
    if team["type"] in ("tank", "tank-escort"):
        team["fully_armoured"] = port.ask(ConfirmQuestion(
            id=f"hitting.{i}.fully-armoured", text=Msg.of("fow.q.fully_armoured", n=i),
            clause="F-11"))
    team["hits"] = port.ask(NumberQuestion(id=f"hitting.{i}.hits",
                                           text=Msg.of("fow.q.hits", n=i), minimum=0,
                                           maximum=60, default_value=1))
    kinds = ("none", "tank", "infantry", "gun") + (("transport",) if transport_priority
                                                   else ())
    priority = _choice(port, f"hitting.{i}.priority", Msg.of("fow.q.priority", n=i), kinds,
                       "fow.priority", "none", "F-8")
    if priority != "none":
        team["priority"] = priority
    situation = "open"
    in_building = any(d.get("building") for d in defenders)
    if team["type"] != "tank" and in_building:
        situation = _choice(port, f"hitting.{i}.situation", Msg.of("fow.q.situation", n=i),
                            ("open", "outside-at-opening", "inside-through-opening",
                             "inside"), "fow.situation", "open", "F-10")
    team["situation"] = situation
    if situation in ("outside-at-opening", "inside"):
        team["building"] = BUILDING
        considered = [d["id"] for d in defenders if d.get("building")]
    elif situation == "inside-through-opening":
        team["near_opening"] = _teams_multi(port, f"hitting.{i}.near-opening",
                                            Msg.of("fow.q.near_opening", n=i), ids, "F-10")
        considered = team["near_opening"]
    else:
        team["reaches"] = _teams_multi(port, f"hitting.{i}.reaches",
                                       Msg.of("fow.q.reaches", n=i), ids, "F-2")
        considered = team["reaches"]
    if considered:
        team["impassable"] = _teams_multi(port, f"hitting.{i}.impassable",
                                          Msg.of("fow.q.impassable", n=i), considered,
                                          "F-13")
    return team


def ask_declaration(port: Port, transport_priority: bool = False) -> AssaultDeclaration:
    count: int = port.ask(NumberQuestion(id="defending", text=Msg.of("fow.q.defending"),
                                         minimum=1, maximum=MAX_TEAMS, default_value=2))
    defenders = [_defender(port, i) for i in range(1, count + 1)]
    hitters_count: int = port.ask(NumberQuestion(id="hitting", text=Msg.of("fow.q.hitting"),
                                                 minimum=1, maximum=MAX_TEAMS,
                                                 default_value=1))
    hitters = [_hitter(port, i, defenders, transport_priority)
               for i in range(1, hitters_count + 1)]
    return AssaultDeclaration.model_validate({"defending": defenders, "hitting": hitters})
