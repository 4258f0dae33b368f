"""A whole assault asked at the table, without a roster or a game's armies: each side in one
line (``side_line``), then the names of its teams in one line. Teams get short ids (``d1``,
``d2``... defending; ``a1``, ``a2``... assaulting). What the lines leave unsaid is not asked:
a charging team naming no defending team reaches every one, and fights from the open unless
its line says where it fights at the building (F-10); the working says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.catalog import render
from referee.core.port import Port
from referee.core.text import Msg
from referee.rulesets.fow.ask import BUILDING, Asked, ask_names, default_label
from referee.rulesets.fow.declaration import AssaultDeclaration
from referee.rulesets.fow.side_line import Group, Side, SideQuestion

if TYPE_CHECKING:
    from referee.rulesets.fow.armies import Army

PLATOON_KEYS = {"attacker": "assaulting-platoon", "defender": "defending-platoon"}


def _defender(team_id: str, g: Group) -> dict[str, Any]:
    team: dict[str, Any] = {"id": team_id, "type": g.type,
                            "name": default_label("defender", g.type, team_id)}
    if g.status != "active":
        team["status"] = g.status
    if g.top is not None:
        team["top"] = g.top
    if g.building:
        team["building"] = BUILDING
    if g.fires:
        team["fires"] = g.fires
    return {**team, **_card(g)}


def _card(g: Group) -> dict[str, Any]:
    card = {"anti_tank": g.anti_tank, "firepower": g.firepower, "hits_on": g.hits_on}
    return {k: v for k, v in card.items() if v is not None}


def _charger(team_id: str, g: Group, defenders: list[dict[str, Any]]) -> dict[str, Any]:
    team: dict[str, Any] = {"id": team_id, "type": g.type,
                            "name": default_label("hitter", g.type, team_id), **_card(g)}
    if g.top is not None:
        team["top"] = g.top
    if g.fully_armoured:
        team["fully_armoured"] = True
    if g.priority is not None:
        team["priority"] = g.priority
    situation = g.situation or "open"
    team["situation"] = situation
    if situation in ("outside-at-opening", "inside"):
        team["building"] = BUILDING
    elif situation == "inside-through-opening":
        outside = [d["id"] for d in defenders if "building" not in d]
        team["near_opening"] = list(g.reach) if g.reach is not None else outside
    elif g.reach is not None:
        team["reaches"] = list(g.reach)
    return team


def _platoon(side: str, line: Side, taken: frozenset[str] = frozenset()) -> str:
    """A platoon's name: the one typed before the colon, else its role's (issue 27), with a
    number when the game keeps a platoon of that name already (``the assaulting platoon
    2``)."""
    if line.name:
        return line.name
    name = render(Msg.of(f"fow.default.{side}_platoon"))
    n = 1
    while (f"{name} {n}" if n > 1 else name).casefold() in taken:
        n += 1
    return f"{name} {n}" if n > 1 else name


def _ratings(side: str, line: Side, taken: frozenset[str] = frozenset()) -> dict[str, Any]:
    from referee.rulesets.fow.fight import slug

    name = _platoon(side, line, taken)
    return {"name": name, "side": side,
            "skill": line.skill, "motivation": line.motivation, "reroll": line.reroll,
            "key": slug(name) if line.name or taken else PLATOON_KEYS[side]}


def _first_free(prefix: str, beside: Army | None) -> int:
    """The first number of ``prefix`` (``d``, ``a``) no team the game keeps has."""
    used = [int(t.id[1:]) for t in (beside.teams if beside else ())
            if t.id[:1] == prefix and t.id[1:].isdigit()]
    return max(used, default=0) + 1


def ask_whole(port: Port, options: Mapping[str, Any], beside: Army | None = None, *,
              in_game: bool = False) -> Asked:
    """The whole assault typed; ``beside``: the armies the game keeps (a new assault of new
    platoons: their teams numbered on after the kept ones', their platoons named apart);
    in a game (``in_game``, or ``beside``) each side is its platoon's name, whose side the
    game asks once ("Which side is the assaulting platoon on?")."""
    in_game = in_game or beside is not None
    taken = frozenset(p.name.casefold() for p in beside.platoons) if beside else frozenset()
    defending: Side = port.ask(SideQuestion(
        id="assault.defending", text=Msg.of("fow.q.side_defending"), charging=False,
        kept=taken, hint_msg=Msg.of("fow.hint.side_defending"), clause="F-A3"))
    defenders = [_defender(f"d{n}", g) for n, g in enumerate(
        (g for g in defending.groups for _ in range(g.count)), _first_free("d", beside))]
    ask_names(port, "assault.defending.names", Msg.of("fow.q.defender_names"), defenders)
    ids = tuple(d["id"] for d in defenders)
    buildings = any("building" in d for d in defenders)
    shown = ", ".join(d["id"] if d["id"].upper() in d["name"] else f"{d['id']} {d['name']}"
                      for d in defenders)
    charging: Side = port.ask(SideQuestion(
        id="assault.assaulting", text=Msg.of("fow.q.side_assaulting"), charging=True,
        team_ids=ids, buildings=buildings, taken=defending.name, kept=taken,
        transport_priority=bool(options["transport-priority"]),
        hint_msg=Msg.of("fow.hint.side_assaulting", teams=shown), clause="F-A1"))
    chargers = [_charger(f"a{n}", g, defenders) for n, g in enumerate(
        (g for g in charging.groups for _ in range(g.count)), _first_free("a", beside))]
    ask_names(port, "assault.assaulting.names", Msg.of("fow.q.assaulting_names"), chargers)
    platoons = [_ratings("attacker", charging, taken), _ratings("defender", defending, taken)]
    decl = AssaultDeclaration.model_validate({
        # the sides as the game asks them and the outcome names them: a platoon named in
        # its line by its name (``Which side is Grey Rifles on?``), else by its role (beside
        # the game's armies: by its platoon's name, a side asked for each new platoon)
        "attacker": charging.name or (platoons[0]["name"] if in_game
                                      else render(Msg.of("fow.side.attacker"))),
        "defender": defending.name or (platoons[1]["name"] if in_game
                                       else render(Msg.of("fow.side.defender"))),
        "defending": defenders, "assaulting": chargers, "concealed": charging.concealed,
        "platoons": platoons})
    notes: list[tuple[Msg, str]] = []
    everywhere = [c["name"] for c in chargers if c["situation"] == "open"
                  and "reaches" not in c]
    if everywhere:
        notes.append((Msg.of("fow.inferred.every", hitters=", ".join(everywhere)), "F-13"))
    if buildings:
        open_ = [c["name"] for c in chargers if c["situation"] == "open"]
        if open_:
            notes.append((Msg.of("fow.inferred.open_at_building", teams=", ".join(open_)),
                          "F-10"))
    return Asked(decl, tuple(notes))
