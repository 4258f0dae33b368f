"""What an Epic Armageddon game file keeps, as a model: each formation's Blast markers, broken
state, destroyed units and overwatch (E-14, E-20). A damaged or edited file is refused before
any rule reads it (``referee.game``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SavedFormation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    blast_markers: int = Field(default=0, ge=0, le=999)
    broken: bool = False
    destroyed: list[str] = Field(default_factory=list)
    overwatch: bool | None = None


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    formations: dict[str, SavedFormation] = Field(default_factory=dict)
