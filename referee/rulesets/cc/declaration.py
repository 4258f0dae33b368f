"""The declaration of one Combat Commander fire attack, as a validated value.

The firing pieces (units, weapons, leaders) with their hexes, FP, Range, distance to the target
and the hindrance on their line of sight; which firing hexes are adjacent; the FP bonuses the
player's cards and the terrain give; the target hex with its units. Geometry is input.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from referee.rulesets.fields import Name

Nation = Literal["germany", "america", "russia", "britain", "france", "italy"]


def piece_key(name: str) -> str:
    """A stable id for question ids: ``"Rifle squad L8"`` becomes ``rifle-squad-l8``."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "piece"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FiringPiece(_Model):
    name: Name
    kind: Literal["unit", "weapon", "leader"] = "unit"
    hex: Name
    fp: int = Field(default=0, ge=0, le=30, description="printed FP on its current side")
    range: int = Field(default=0, ge=0, le=40, description="printed Range")
    distance: int = Field(default=1, ge=0, le=40,
                          description="hexes to the target hex (at least 1: a piece never "
                                      "fires into its own hex)")
    los: bool = True
    hindrance: int = Field(default=0, ge=0, le=20, description="hindrance on its LOS (C-9)")
    white_band: bool = Field(default=False, description="heavy weapon: fires alone (C-7)")
    carrier_broken: bool = Field(default=False, description="weapon: its carrier is broken")
    command: int = Field(default=0, ge=0, le=5, description="leader: printed Command")
    broken: bool = False
    fires: bool = Field(default=True, description="false: a leader present only for Command")
    activated_by: str | None = Field(default=None, description="the leader who activated it")

    @field_validator("distance")
    @classmethod
    def _not_its_own_hex(cls, distance: int) -> int:
        if distance == 0:
            raise PydanticCustomError("cc.decl.distance_zero", "distance 0 is its own hex")
        return distance

    @model_validator(mode="after")
    def _white_band_is_a_weapon(self) -> FiringPiece:
        if self.white_band and self.kind != "weapon":
            raise PydanticCustomError("cc.decl.white_band_weapon",
                                      "only a weapon has a white band")
        return self

    @property
    def key(self) -> str:
        return piece_key(self.name)


class FpBonus(_Model):
    source: Literal["down-hill", "sustained-fire", "crossfire", "marksmanship", "other"]
    fp: int = Field(ge=-10, le=10)


class TargetUnit(_Model):
    name: Name
    kind: Literal["unit", "leader"] = "unit"
    morale: int = Field(ge=0, le=15)
    broken_morale: int | None = Field(default=None, ge=0, le=15)
    command: int = Field(default=0, ge=0, le=5)
    broken: bool = False
    suppressed: bool = False
    moving: bool = Field(default=False, description="activated for Move (e.g. under Op Fire)")
    vp: int | None = Field(default=None, ge=0, le=20, description="VP if eliminated [7.1]")

    @property
    def key(self) -> str:
        return piece_key(self.name)


class FireDeclaration(_Model):
    attacker: Nation
    defender: Nation
    target_hex: Name
    cover: int = Field(default=0, ge=-5, le=10, description="the target hex's cover (T78.3)")
    firing: list[FiringPiece] = Field(min_length=1, max_length=20)
    adjacent: list[Annotated[list[Name], Field(min_length=2, max_length=2)]] = Field(
        default_factory=list, description="pairs of adjacent firing hexes")
    bonuses: list[FpBonus] = Field(default_factory=list)
    target: list[TargetUnit] = Field(min_length=1, max_length=12)

    @field_validator("firing")
    @classmethod
    def _not_in_the_target_hex(cls, firing: list[FiringPiece],
                               info: ValidationInfo) -> list[FiringPiece]:
        target_hex = info.data.get("target_hex")
        for index, piece in enumerate(firing):
            if target_hex is not None and piece.hex == target_hex:
                raise PydanticCustomError("cc.decl.own_hex",
                                          "{piece} is in the target hex {hex}",
                                          {"piece": piece.name, "hex": piece.hex,
                                           "index": index})
        return firing

    @model_validator(mode="after")
    def _names(self) -> FireDeclaration:
        for group in (self.firing, self.target):
            seen: set[str] = set()
            for piece in group:
                if piece.key in seen:
                    raise PydanticCustomError("cc.decl.same_name", "two pieces named {name}",
                                              {"name": piece.name})
                seen.add(piece.key)
        if self.attacker == self.defender:
            raise PydanticCustomError("cc.decl.same_side", "attacker and defender are one")
        if not any(p.fires for p in self.firing):
            raise PydanticCustomError("cc.decl.nobody_fires", "no piece fires")
        return self

    @property
    def shooters(self) -> list[FiringPiece]:
        return [p for p in self.firing if p.fires]
