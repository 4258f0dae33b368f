"""A Combat Commander roster: both sides' units and leaders by hex, the weapons each carries,
their printed numbers and their state (broken, suppressed), in the shape of the Lock 'n Load
roster (``[[units]]`` with ``side`` and ``hex``, carried weapons inline). What the map says
and the roster may know: which hexes are adjacent, the cover of a hex. Geometry stays at the
table (decision 4): distances and hindrances are asked when the attack is declared.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from referee.core.errors import ScriptError
from referee.core.text import Msg
from referee.rulesets.cc.words import Nation, piece_key
from referee.rulesets.fields import Name


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RosterWeapon(_Model):
    name: Name
    fp: int = Field(ge=0, le=30)
    range: int = Field(ge=0, le=40)
    white_band: bool = Field(default=False, description="heavy weapon: fires alone (C-7)")

    @property
    def key(self) -> str:
        return piece_key(self.name)


class RosterUnit(_Model):
    name: Name
    side: Nation
    hex: Name
    kind: Literal["unit", "leader"] = "unit"
    fp: int = Field(default=0, ge=0, le=30, description="good side")
    range: int = Field(default=0, ge=0, le=40, description="good side")
    morale: int = Field(ge=0, le=15, description="good side")
    broken_fp: int | None = Field(default=None, ge=0, le=30)
    broken_range: int | None = Field(default=None, ge=0, le=40)
    broken_morale: int | None = Field(default=None, ge=0, le=15)
    command: int = Field(default=0, ge=0, le=5, description="a leader's printed Command")
    broken: bool = False
    suppressed: bool = False
    vp: int | None = Field(default=None, ge=0, le=20, description="VP if eliminated [7.1]")
    weapons: list[RosterWeapon] = Field(default_factory=list, max_length=4)

    @model_validator(mode="after")
    def _consistent(self) -> RosterUnit:
        if self.command and self.kind != "leader":
            raise PydanticCustomError("cc.roster.command_not_leader",
                                      "only a leader has Command")
        if self.broken and None in (self.broken_fp, self.broken_range, self.broken_morale):
            raise PydanticCustomError("cc.roster.broken_side",
                                      "a broken unit needs broken_fp, broken_range and "
                                      "broken_morale")
        return self

    @property
    def key(self) -> str:
        return piece_key(self.name)

    @property
    def current_fp(self) -> int:
        return self.broken_fp if self.broken and self.broken_fp is not None else self.fp

    @property
    def current_range(self) -> int:
        return self.broken_range if self.broken and self.broken_range is not None \
            else self.range


class Roster(_Model):
    adjacent: dict[Name, list[Name]] = Field(default_factory=dict,
                                             description="hexes next to each other (the "
                                                         "players read them off the map)")
    cover: dict[Name, int] = Field(default_factory=dict,
                                   description="the cover of a hex (T78.3), when known")
    units: list[RosterUnit] = Field(min_length=1, max_length=80)

    def links(self) -> list[list[str]]:
        return [[a, b] for a, nexts in self.adjacent.items() for b in nexts]

    def knows_adjacency(self) -> bool:
        return bool(self.adjacent)


def load_roster(path: str) -> Roster:
    """The roster file at ``path``, checked: every mistake names the file and the field."""
    from referee.files import read_toml, validate, where

    text, raw = read_toml(path)
    roster: Roster = validate(Roster, raw, path, text)
    seen: set[str] = set()
    for i, unit in enumerate(roster.units):
        for j, key in [(None, unit.key), *((j, w.key) for j, w in enumerate(unit.weapons))]:
            if key in seen:
                at: list[str | int] = ["units", i, "name"] if j is None \
                    else ["units", i, "weapons", j, "name"]
                raise ScriptError(path, where(text, at), Msg.of("cc.roster.same_id", id=key))
            seen.add(key)
    for hex_name, value in roster.cover.items():
        if not -5 <= value <= 10:
            raise ScriptError(path, where(text, ["cover", hex_name]),
                              Msg.of("cc.roster.cover", given=value))
    return roster
