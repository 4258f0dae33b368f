"""``game roster``: the armies a game file keeps (issue 27), by side, written as a roster the
other commands read (``--roster``), and a roster brought in.

Each ruleset keeps its armies in its own state (so the log's chain covers them, undo puts them
back and ``game verify`` replays them), and says through its ``army`` module
(``referee.rulesets.<module>.army``) what it keeps:

* ``groups(state)``: its formations, hexes or platoons (``Group``), each with its side and its
  units by name, their profile and their state;
* ``roster(state)``: the roster file that holds them (TOML text; ``None``: nothing kept);
* ``imported(path, state)``: the state that keeps a roster file's armies besides the kept
  ones (a unit of the same name takes the file's profile and state).

Bringing a roster in is an entry of the game's log (command ``game-roster``), as a chart's
correction is: numbered, undone like an attack, replayed by ``game verify``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.core.armies import Group, RosterPart
from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg, jsonable

ARMIES = {"epic-armageddon": "referee.rulesets.epic.army",
          "combat-commander": "referee.rulesets.cc.army",
          "lnl-tactical": "referee.rulesets.lnlt.army",
          "world-at-war": "referee.rulesets.waw.army",
          "flames-of-war": "referee.rulesets.fow.army"}
"""The module of each ruleset that says what its state keeps of the armies."""
COMMAND = "game-roster"


def army_module(ruleset: str) -> Any:
    return importlib.import_module(ARMIES[ruleset])


def _state_model(ruleset: str) -> Any:
    from referee.rulesets import find_ruleset

    return find_ruleset(ruleset).implementation().state_model()


def kept_groups(path: Path) -> list[Group]:
    """Every group the game file ``path`` keeps, ruleset by ruleset (its log checked first);
    a group whose side the game learnt at the table takes it."""
    from referee.game import read_game
    from referee.game.history import check_history

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    out: list[Group] = []
    with read_game(path) as tx:
        check_history(tx)
        sides = tx.sides()
        for ruleset in ARMIES:
            state = tx.state(ruleset, _state_model(ruleset))
            for group in army_module(ruleset).groups(state):
                out.append(Group(group.ruleset, group.name, _side(group, sides), group.units,
                                 group.state))
    return out


def _side(group: Group, sides: Mapping[str, str]) -> str | None:
    """A group's side as the game knows it: the side its formation's name, or its nation,
    was said to be on at the table; else its own (a nation's name), if any."""
    from referee.catalog import render

    side = group.side
    key = side.id if isinstance(side, Msg) else side
    if key is None and isinstance(group.name, str):
        key = group.name
    if key is not None and key in sides:
        return sides[key]
    return render(side) if side is not None else None


def kept_rulesets(path: Path) -> list[str]:
    return list(dict.fromkeys(g.ruleset for g in kept_groups(path)))


def which_ruleset(path: Path, given: str | None) -> str:
    """The ruleset whose armies ``--export`` writes: the one named (``--ruleset``), else the
    only one the game keeps armies of."""
    from referee.rulesets import find_ruleset

    if given is not None:
        return find_ruleset(given).id
    kept = kept_rulesets(path)
    if len(kept) != 1:
        raise UsageError(Msg.of("kept.army.error.which", file=str(path),
                                kept=", ".join(kept) or "-"))
    return kept[0]


def roster_text(path: Path, ruleset: str) -> str:
    """The roster file (TOML) of the armies ``path`` keeps for ``ruleset``."""
    from referee.game import read_game
    from referee.game.history import check_history

    with read_game(path) as tx:
        check_history(tx)
        state = tx.state(ruleset, _state_model(ruleset))
        sides = tx.sides()
    parts: list[RosterPart] | None = army_module(ruleset).roster(state, sides)
    if parts is None:
        raise UsageError(Msg.of("kept.army.error.nothing", file=str(path), ruleset=ruleset))
    return toml_text([Msg.of("kept.army.file_header"), *parts])


def toml_text(parts: list[RosterPart]) -> str:
    """A roster file's text: its comments and its tables, in order."""
    from referee.catalog import render
    from referee.script import toml_key, toml_value

    lines: list[str] = []
    for part in parts:
        if isinstance(part, Msg):
            lines.append(f"# {render(part)}")
            continue
        header, values = part
        if header:
            lines += ["", header]
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in values.items()
                  if v is not None]
    return "\n".join(lines) + "\n"


def roster_ruleset(path: Path, given: str | None) -> str:
    """The ruleset of a roster file: the one named, else told by its keys (``formation``:
    Epic; ``platoon``: Flames of War; ``sides``: Lock 'n Load; ``artillery``, a World at War
    unit kind: World at War; else Combat Commander)."""
    from referee.files import read_toml
    from referee.rulesets import find_ruleset

    if given is not None:
        return find_ruleset(given).id
    _text, raw = read_toml(path)
    if "formation" in raw:
        return "epic-armageddon"
    if "platoon" in raw:
        return "flames-of-war"
    if "sides" in raw:
        return "lnl-tactical"
    found = raw.get("units")
    units: list[Any] = found if isinstance(found, list) else []
    waw_kinds = {"infantry", "combat-vehicle", "unarmoured-vehicle", "hq"}
    if "artillery" in raw or "terrain_defence" in raw or any(
            isinstance(u, Mapping) and u.get("kind") in waw_kinds for u in units):
        return "world-at-war"
    return "combat-commander"


def import_roster(path: Path, roster: Path, ruleset: str) -> int:
    """Bring the armies of ``roster`` into the game file ``path`` (an entry of its log);
    the entry's number."""
    from referee.game.history import changing

    with changing(path) as (tx, _history):
        state = tx.state(ruleset, _state_model(ruleset))
        updates: dict[str, Any] = army_module(ruleset).imported(str(roster), state)
        tx.update_state(ruleset, updates)
        text = Msg.of("kept.army.entry", file=roster.name)
        number: int = tx.append_log(
            ruleset, COMMAND, {"outcome": {"text": jsonable(text), "data": {}}},
            replay={"kind": "state", "updates": updates},
            about={"title": jsonable(text)})
        return number


def put_on_side(path: Path, given: str) -> Msg:
    """``game roster --side NAME=SIDE``: put NAME on SIDE (issue 27), a ``side`` event of
    the chain (the log shows it, with the side it was on); NAME as the game keeps it, or as
    it is shown (a nation: ``German``), any case. What was done, as a message."""
    from referee.catalog import as_label, render
    from referee.game.history import changing
    from referee.game.seed import game_info

    name, _, side = (p.strip() for p in given.partition("="))
    with changing(path) as (tx, _history):
        info = game_info(tx)
        if info is None:
            raise UsageError(Msg.of("kept.army.side.no_sides", file=str(path)))
        sides = {s.casefold(): s for s in info.sides}
        if not name or side.casefold() not in sides:
            raise UsageError(Msg.of("kept.army.side.error", sides=", ".join(info.sides),
                                    given=given))
        side = sides[side.casefold()]
        kept = tx.sides()
        key = next((k for k in kept if k.casefold() == name.casefold()
                    or render(as_label(k)).casefold() == name.casefold()), name)
        shown = render(as_label(key))
        if kept.get(key) == side:
            return Msg.of("kept.army.side.same", name=shown, side=side)
        tx.remember_side(key, side)
    return Msg.of("kept.army.side.set", name=shown, side=side)


def group_json(group: Group) -> dict[str, Any]:
    from referee.catalog import render

    return {"ruleset": group.ruleset, "name_text": render(group.name), "side": group.side,
            "state": [{"msg": s.id, "text": render(s)} for s in group.state],
            "units": [{"name_text": render(u.name), "profile_text": render(u.profile),
                       "state_text": None if u.state is None else render(u.state)}
                      for u in group.units]}


def kept_sides(path: Path) -> dict[str, Any]:
    """What the game file keeps of the sides, as an Epic turn's step takes them: each
    formation's side (``sides``) and the game's two (``side_names``), so that the turn asks
    none it was told (one store, the game's); given in the step's declaration, which its
    replay is given again. Nothing when there is no file yet."""
    if not path.is_file():
        return {}
    from referee.game import read_game
    from referee.game.seed import game_info

    with read_game(path) as tx:
        info = game_info(tx)
        out: dict[str, Any] = {"sides": tx.sides()}
        if info is not None and info.sides:
            out["side_names"] = list(info.sides)
    return out
