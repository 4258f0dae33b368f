"""The declaration of a World at War artillery mission, as a validated value.

A script's ``[declaration]`` table is checked against these models; an interactive mission
without one builds the same value from questions. Anything left out is asked.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from referee.core.text import Msg
from referee.rulesets.fields import FilePath, Name

MISSIONS = ("he", "smoke", "fascam", "chemical")
UNIT_KINDS = ("combat-vehicle", "infantry", "unarmoured-vehicle", "hq")
SOFT_KINDS = ("infantry", "unarmoured-vehicle")

Mission = Literal["he", "smoke", "fascam", "chemical"]
UnitKind = Literal["combat-vehicle", "infantry", "unarmoured-vehicle", "hq"]


def unit_key(name: str) -> str:
    """A stable id for question ids: ``"Grey Platoon (invented)"`` is ``grey-platoon-invented``.
    Letters of any alphabet are kept, so that units named in Russian stay distinct."""
    return re.sub(r"[\W_]+", "-", name.casefold()).strip("-") or "unit"


UNIT_ID = re.compile(r"^[^\W_][\w-]*$")
DEFAULT_ID = re.compile(r"^unit-([0-9]+)$")


def default_id(n: int) -> str:
    """The id of the ``n``-th unit typed at the table without a name: ``unit-2``. The same in
    every language (question ids are a contract); its label is the player's language's."""
    return f"unit-{n}"


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str | None = Field(default=None, description="a stable id for answers (default: from "
                                                     "the name)")
    name: Name | None = Field(default=None, description="the unit as the players call it")
    kind: UnitKind = Field(description="combat-vehicle, infantry, unarmoured-vehicle or hq")
    disorganized: bool = False
    weakened: bool = False
    mounted_in: Name | None = Field(default=None,
                                   description="chemical: the combat vehicle it rides in")
    position: Literal["centre", "adjacent"] = Field(
        default="centre", description="chemical: in the marker hex or one of its neighbours")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str | None) -> str | None:
        if value is not None and not UNIT_ID.match(value):
            raise PydanticCustomError("waw.decl.bad_id", "expected letters, digits, - or _ "
                                      "(got '{given}')", {"given": value})
        return value

    @model_validator(mode="after")
    def _named(self) -> Unit:
        if self.name is None and self.id is None:
            raise PydanticCustomError("waw.decl.unnamed", "a unit needs a name or an id")
        return self

    @property
    def key(self) -> str:
        return self.id if self.id is not None else unit_key(self.name or "")

    @property
    def label(self) -> Msg | str:
        """The unit as shown: its name; a unit typed without one is "unit 2" in the player's
        language (a ``Msg``), any other unnamed unit its id."""
        if self.name is not None:
            return self.name
        default = DEFAULT_ID.match(self.key)
        return Msg.of("waw.label.unit", n=int(default.group(1))) if default else self.key

    def rides_in(self, vehicle: Unit) -> bool:
        """Whether ``mounted_in`` names ``vehicle`` (by its name or its id)."""
        return self.mounted_in is not None and self.mounted_in in (vehicle.name, vehicle.key)

    @property
    def soft(self) -> bool:
        return self.kind in SOFT_KINDS


class MissionDeclaration(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mission: Mission | None = Field(default=None, description="he, smoke, fascam or chemical "
                                                              "(none: asked)")
    roster: FilePath | None = Field(default=None, description="a roster file: the units, "
                                                              "artillery and hexes")
    hex: Name | None = Field(default=None, description="the target hex's label")
    artillery: Name | None = Field(default=None,
                                  description="an artillery id from the data file")
    firepower: int | None = Field(default=None, ge=1, le=40)
    hit_number: int | None = Field(default=None, ge=1, le=6)
    terrain: Name | None = Field(default=None,
                                description="a terrain id from the data file")
    terrain_defence: int | None = Field(default=None, ge=0, le=10)
    units: list[Unit] = Field(default_factory=list, max_length=30)

    @model_validator(mode="after")
    def _consistent(self) -> MissionDeclaration:
        seen: set[str] = set()
        for u in self.units:
            if u.key in seen:
                raise PydanticCustomError("waw.decl.same_name", "two units named {name}",
                                          {"name": u.name or u.key})
            seen.add(u.key)
        vehicles = [u for u in self.units if u.kind == "combat-vehicle"]
        for u in self.units:
            if u.mounted_in is not None and u.kind != "infantry":
                raise PydanticCustomError("waw.decl.mounted_not_infantry",
                                          "only infantry rides in a vehicle: {name}",
                                          {"name": u.name or u.key})
            if u.mounted_in is not None and not any(u.rides_in(v) for v in vehicles):
                raise PydanticCustomError("waw.decl.mounted_unknown",
                                          "{name} rides in {vehicle}, not a combat vehicle here",
                                          {"name": u.name or u.key, "vehicle": u.mounted_in})
        if self.mission is not None and self.mission != "he":
            given = [f for f in ("artillery", "firepower", "hit_number", "terrain",
                                 "terrain_defence") if getattr(self, f) is not None]
            if given:
                raise PydanticCustomError("waw.decl.he_only", "{field} is for HE missions only",
                                          {"field": given[0]})
        if self.mission in ("smoke", "fascam") and self.units:
            raise PydanticCustomError("waw.decl.no_units",
                                      "a {mission} mission places a marker: it takes no units",
                                      {"mission": self.mission})
        if self.artillery is not None and (self.firepower or self.hit_number):
            raise PydanticCustomError("waw.decl.artillery_and_numbers",
                                      "give an artillery id or firepower and hit number, not both")
        if self.terrain is not None and self.terrain_defence is not None:
            raise PydanticCustomError("waw.decl.terrain_and_value",
                                      "give a terrain id or a terrain defence value, not both")
        return self
