"""A World at War roster: the units on the map with their hexes, kinds and states, the
artillery with its ratings, the hexes' infantry defence bonus and which hexes are adjacent,
described once (``referee attack waw --roster FILE``, or ``roster = "..."`` in a script's
declaration). At the table only what the roster cannot know is asked: which hex is the target
(its units come from the roster) and the dice.

The file is in the shape of the Lock 'n Load roster (top-level keys, ``[[units]]``) and the
data file's ``[[artillery]]``; every unit and number in an example is invented::

    adjacent = { "0712" = ["0713", "0812"] }
    terrain_defence = { "0712" = 1 }

    [[artillery]]
    id = "grey-battery"
    name = "Grey Battery (invented)"
    firepower = 6
    hit_number = 5

    [[units]]
    id = "alpha"
    name = "Alpha Platoon (invented)"
    hex = "0712"
    kind = "infantry"
    disorganized = true
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from referee.rulesets.fields import Name
from referee.rulesets.waw.declaration import UNIT_ID, Unit, UnitKind
from referee.rulesets.waw.line import hex_label
from referee.rulesets.waw.userdata import Artillery


class RosterUnit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="the unit's id, for answers and the game file")
    name: Name | None = None
    side: Name | None = None
    hex: Name = Field(description="where it stands: its hex's number on the map")
    kind: UnitKind
    disorganized: bool = False
    weakened: bool = False
    mounted_in: str | None = Field(default=None, description="the id of the combat vehicle "
                                                             "it rides in (chemical strikes)")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not UNIT_ID.match(value):
            raise PydanticCustomError("waw.decl.bad_id", "expected letters, digits, - or _ "
                                      "(got '{given}')", {"given": value})
        return value

    @field_validator("hex")
    @classmethod
    def _hex(cls, value: str) -> str:
        return hex_label(value.strip())

    def unit(self, position: str = "centre") -> Unit:
        return Unit(id=self.id, name=self.name, kind=self.kind, disorganized=self.disorganized,
                    weakened=self.weakened, mounted_in=self.mounted_in,
                    position=position)  # type: ignore[arg-type]


class Roster(BaseModel):
    model_config = ConfigDict(extra="forbid")

    units: list[RosterUnit] = Field(default_factory=list, max_length=200)
    artillery: list[Artillery] = Field(default_factory=list, max_length=50)
    terrain_defence: dict[str, int] = Field(default_factory=dict)
    adjacent: dict[str, list[str]] = Field(default_factory=dict)

    @field_validator("terrain_defence")
    @classmethod
    def _defence(cls, value: dict[str, int]) -> dict[str, int]:
        for hex_id, dice in value.items():
            if not 0 <= dice <= 10:
                raise PydanticCustomError("waw.roster.defence", "{hex}: an infantry defence "
                                          "bonus from 0 to 10 (got {dice})",
                                          {"hex": hex_id, "dice": dice})
        return {hex_label(h): d for h, d in value.items()}

    @field_validator("adjacent")
    @classmethod
    def _adjacent(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        return {hex_label(h): [hex_label(o) for o in others] for h, others in value.items()}

    @model_validator(mode="after")
    def _consistent(self) -> Roster:
        seen: set[str] = set()
        for u in self.units:
            if u.id in seen:
                raise PydanticCustomError("waw.roster.same_unit", "two units with the id {id}",
                                          {"id": u.id})
            seen.add(u.id)
        vehicles = {u.id for u in self.units if u.kind == "combat-vehicle"}
        for u in self.units:
            if u.mounted_in is not None and (u.kind != "infantry" or u.mounted_in not in vehicles):
                raise PydanticCustomError("waw.roster.mounted", "{id} rides in {vehicle}, "
                                          "which is not a combat vehicle of the roster",
                                          {"id": u.id, "vehicle": u.mounted_in})
        ids = [a.id for a in self.artillery]
        if len(set(ids)) != len(ids):
            raise PydanticCustomError("waw.roster.same_artillery", "two artillery assets with "
                                      "one id")
        return self

    def hexes(self) -> list[str]:
        """The hexes holding units, in the order the roster first names them."""
        return list(dict.fromkeys(u.hex for u in self.units))

    def in_hex(self, hex_id: str) -> list[RosterUnit]:
        return [u for u in self.units if u.hex == hex_id]

    def neighbours(self, hex_id: str) -> set[str] | None:
        """The hexes adjacent to ``hex_id`` as the roster gives them (either direction);
        ``None`` when the roster says nothing about it (then the players are asked)."""
        near = set(self.adjacent.get(hex_id, ()))
        near |= {h for h, others in self.adjacent.items() if hex_id in others}
        near.discard(hex_id)
        return near if near or hex_id in self.adjacent else None


def load_roster(path: str) -> Roster:
    """The roster file, validated; a mistake names the file, the field and its line."""
    from referee.files import read_toml, validate

    text, raw = read_toml(path)
    roster: Roster = validate(Roster, raw, path, text)
    return roster


def labels(units: list[Any]) -> str:
    """The names of units, for a choice label (no commas: a shown answer is split on them)."""
    return " / ".join(u.name or u.id for u in units)
