"""What a Combat Commander game file keeps, as a model: the cards left in each virtual Fate
deck (C-10, C-X8), by ``edition/nation``, as card keys (``"1-1:jammed"``, ``"3-4"``). A
damaged or edited file is refused before any rule reads it (``referee.game``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from referee.rulesets.kept import Charts

CardKey = Annotated[str, StringConstraints(pattern=r"^[1-6]-[1-6](:(jammed|event|sniper|time))?$")]
Slot = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+/[a-z]+$")]


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    decks: dict[Slot, list[CardKey]] = Field(default_factory=dict)
    charts: Charts = Field(default_factory=list)
