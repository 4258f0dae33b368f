"""The declaration of an Epic Armageddon shooting attack, as a validated value.

A script's ``[declaration]`` table is checked against these models (pydantic gives the field
path of any mistake); an interactive attack without one builds the same value from questions.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError


def weapon_key(name: str) -> str:
    """A stable id for question ids: ``"Heavy cannon"`` becomes ``heavy-cannon``."""
    return re.sub(r"[\W_]+", "-", name.casefold()).strip("-") or "weapon"  # any alphabet


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="the weapon's name as the players call it")
    shots: int = Field(ge=1, le=200, description="shots fired at the target (all such weapons)")
    ap: int | None = Field(default=None, ge=1, le=9, description="AP to-hit value, e.g. 5 for AP5+")
    at: int | None = Field(default=None, ge=1, le=9, description="AT to-hit value, e.g. 4 for AT4+")

    @model_validator(mode="after")
    def _has_a_value(self) -> Weapon:
        if self.ap is None and self.at is None:
            raise PydanticCustomError("epic.decl.no_value", "a weapon needs an AP or AT value")
        return self

    @property
    def key(self) -> str:
        return weapon_key(self.name)


class ShootingDeclaration(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    firing: str | None = Field(default=None, min_length=1)
    target: str | None = Field(default=None, min_length=1)
    weapons: list[Weapon] = Field(min_length=1, max_length=30)

    @model_validator(mode="after")
    def _unique_keys(self) -> ShootingDeclaration:
        seen: set[str] = set()
        for w in self.weapons:
            if w.key in seen:
                raise PydanticCustomError("epic.decl.same_name", "two weapons named {name}",
                                          {"name": w.name})
            seen.add(w.key)
        return self
