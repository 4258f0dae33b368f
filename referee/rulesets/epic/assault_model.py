"""The declaration of an Epic Armageddon assault (clauses E-A1 to E-A18, E-W11), as validated
values: a script's ``[declaration.assault]`` table, or what the table builds from questions.

Each side holds one formation or more (a combined assault, intermingled defenders: E-A14);
each unit says its values (close combat, firefight), its saves and abilities, and where it
stands after the charges (in base contact, within 15 cm with a line of fire, or neither:
decision 4, geometry is input). Fields left out are asked at the table. Formations named
without units come from the roster.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

from referee.rulesets.epic.common import MODEL_CONFIG, TerrainId, weapon_key
from referee.rulesets.fields import FilePath, Name

AssaultType = Literal["INF", "LV", "AV", "WE"]
Value = int  # a close combat or firefight value: 2 for 2+


class ExtraAttacks(BaseModel):
    """A weapon with extra attacks (E-A15): how many (a number, or ``d3``/``d6``), of which
    kind; macro-weapon and first strike noted on it apply to these attacks only."""

    model_config = MODEL_CONFIG

    kind: Literal["cc", "ff"]
    count: int | Literal["d3", "d6"] = Field(default=1, description="extra attacks, or a roll")
    macro: bool = False
    first_strike: bool = False

    @model_validator(mode="after")
    def _count(self) -> ExtraAttacks:
        if isinstance(self.count, int) and not 1 <= self.count <= 9:
            raise PydanticCustomError("epic.decl.extra_count", "1 to 9 extra attacks")
        return self


class AssaultUnit(BaseModel):
    model_config = MODEL_CONFIG

    name: Name
    type: AssaultType
    armour: int | None = Field(default=None, ge=2, le=6)
    cc: Value | None = Field(default=None, ge=2, le=6, description="close combat value")
    ff: Value | None = Field(default=None, ge=2, le=6, description="firefight value")
    contact: bool | None = Field(default=None, description="in base contact after the charges")
    engaged: bool | None = Field(default=None,
                                 description="within 15 cm of an enemy unit with a line of "
                                             "fire (in contact: yes)")
    distance: float | None = Field(default=None, ge=0, le=500,
                                   description="cm to the nearest enemy (0 in contact)")
    terrain: TerrainId | None = Field(default=None, description="for a defender's cover save")
    reinforced: bool = False
    invulnerable: bool = False
    fearless: bool = False
    inspiring: bool = False
    expendable: bool = False
    leader: bool = False
    reach: bool = Field(default=False, description="may reach base contact: the charging "
                                                   "player is asked whether it does")
    first_strike: bool = Field(default=False, description="its close combat and firefight "
                                                          "attacks strike first (E-A16)")
    extra: list[ExtraAttacks] = Field(default_factory=list, max_length=4)
    dc: int | None = Field(default=None, ge=1, le=20, description="a war engine's damage capacity")
    damage: int = Field(default=0, ge=0, le=20, description="damage a war engine has taken")
    void_shields: int = Field(default=0, ge=0, le=12)
    shields_down: int = Field(default=0, ge=0, le=12)
    number: int | None = Field(default=None, ge=1)
    group: str | None = None

    @model_validator(mode="after")
    def _war_engine(self) -> AssaultUnit:
        if self.type == "WE" and self.dc is None:
            raise PydanticCustomError("epic.decl.we_dc", "a war engine needs its dc")
        if self.type != "WE" and (self.dc is not None or self.void_shields):
            raise PydanticCustomError("epic.decl.dc_not_we",
                                      "only a war engine has dc and void shields")
        if self.dc is not None and self.damage >= self.dc:
            raise PydanticCustomError("epic.decl.we_destroyed",
                                      "damage {damage} destroys it (dc {dc})",
                                      {"damage": self.damage, "dc": self.dc})
        return self

    @property
    def key(self) -> str:
        return weapon_key(self.name)


class AssaultFormation(BaseModel):
    model_config = MODEL_CONFIG

    name: Name
    blast_markers: int | None = Field(default=None, ge=0, le=99, description="left out: asked")
    broken: bool | None = Field(default=None, description="left out: by the count, else asked")
    units: list[AssaultUnit] = Field(default_factory=list, max_length=60,
                                     description="left out: the roster's")


class SupportUnit(BaseModel):
    """A group of alike units of a supporting formation within 15 cm of, and with a line of
    fire to, an enemy unit directly involved (E-A8)."""

    model_config = MODEL_CONFIG

    count: int = Field(default=1, ge=1, le=60)
    ff: Value = Field(ge=2, le=6)
    dc: int | None = Field(default=None, ge=1, le=20, description="a war engine's dice")


class Support(BaseModel):
    model_config = MODEL_CONFIG

    name: Name
    side: Literal["attacker", "defender"]
    units: list[SupportUnit] = Field(default_factory=list, max_length=30,
                                     description="none: within 15 cm, but cannot support")
    broken: bool = False
    marched: bool = False


class AssaultDeclaration(BaseModel):
    model_config = MODEL_CONFIG

    attackers: list[AssaultFormation] = Field(min_length=1, max_length=4)
    defenders: list[AssaultFormation] = Field(min_length=1, max_length=4)
    support: list[Support] | None = Field(default=None, max_length=8,
                                          description="the other formations within 15 cm "
                                                      "of the fight (E-A8, E-A11); left "
                                                      "out: asked after the attacks")
    roster: FilePath | None = None
    by_hand: bool = Field(default=False,
                          description="formations named without units: a line each is asked")

    @model_validator(mode="after")
    def _names(self) -> AssaultDeclaration:
        names = [f.name.casefold() for f in (*self.attackers, *self.defenders)]
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            raise PydanticCustomError("epic.decl.same_formation", "two formations named {name}",
                                      {"name": dup})
        for f in (*self.attackers, *self.defenders):
            keys = [u.key for u in f.units]
            twice = next((u.name for u in f.units if keys.count(u.key) > 1), None)
            if twice is not None:
                raise PydanticCustomError("epic.decl.same_unit", "two units named {name}",
                                          {"name": twice})
            if not f.units and self.roster is None and not self.by_hand:
                raise PydanticCustomError("epic.decl.assault_units",
                                          "{name}: its units, or a roster", {"name": f.name})
        return self
