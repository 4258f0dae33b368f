"""What an Epic Armageddon game file keeps, as a model: each formation's Blast markers, broken
state, destroyed units, overwatch (E-14, E-20) and its war engines' damage and void
shields down (E-W1, E-W9). A damaged or edited file is refused before
any rule reads it (``referee.game``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SavedFormation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    blast_markers: int = Field(default=0, ge=0, le=999)
    broken: bool = False
    destroyed: list[str] = Field(default_factory=list)
    overwatch: bool | None = None
    damage: dict[str, int] = Field(default_factory=dict)  # war engines' damage, by unit (E-W1)
    shields_down: dict[str, int] = Field(default_factory=dict)  # void shields down (E-W9)


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    formations: dict[str, SavedFormation] = Field(default_factory=dict)
