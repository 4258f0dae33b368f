"""The players' own data file (option ``data-file``): artillery ratings, terrain defence
values and the HE effects the excerpt leaves out. Decision 3: the referee never invents them;
without a file it asks. Format: ``rulesets/world-at-war/data-format.md``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.rulesets.fields import Name


class Artillery(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name
    name: Name
    firepower: int = Field(ge=1, le=40)
    hit_number: int = Field(ge=1, le=6)


class Terrain(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name
    name: Name
    infantry_defence: int = Field(ge=0, le=10)


class SoftEffects(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    first: Literal["none", "disorganize", "weaken", "eliminate"] | None = None
    weakened_again: Literal["none", "disorganize", "eliminate"] | None = None


class UserData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    artillery: list[Artillery] = Field(default_factory=list)
    terrain: list[Terrain] = Field(default_factory=list)
    soft_effects: SoftEffects = Field(default_factory=SoftEffects)

    def artillery_by_id(self, key: str) -> Artillery | None:
        return next((a for a in self.artillery if a.id == key), None)

    def terrain_by_id(self, key: str) -> Terrain | None:
        return next((t for t in self.terrain if t.id == key), None)


EMPTY = UserData()


def load_user_data(path: str) -> UserData:
    """The file named by the option, validated; a broken file names the field and line."""
    if not path:
        return EMPTY
    from referee.files import read_toml, validate

    text, raw = read_toml(path)
    data: UserData = validate(UserData, raw, path, text)
    return data
