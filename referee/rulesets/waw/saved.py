"""What a World at War game file keeps, as a model: the markers on the map (W-6, W-7, W-8),
the next marker id and the marker-removal phases run (see ``markers``), and the units each
hex held after its last mission with the states the missions left them in (``kept``: W-4,
W-8). A damaged or edited file is refused before any rule reads it (``referee.game``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.rulesets.kept import Charts


class SavedMarker(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: int = Field(ge=1)
    kind: Literal["smoke", "mines", "chemical"]
    hex: str = Field(min_length=1)
    level: int = Field(default=0, ge=0, le=2)
    placed_after_phase: int = Field(default=0, ge=0)


class SavedUnit(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(min_length=1)
    name: str | None = None
    side: str | None = None  # as a roster gives it (issue 27: game roster)
    kind: Literal["combat-vehicle", "infantry", "unarmoured-vehicle", "hq"]
    disorganized: bool = False
    weakened: bool = False
    eliminated: bool = False
    # W-8: an infantry unit's ride as a chemical strike settled it (issue 27: not asked again)
    mounted_in: str | None = None  # the key of the combat vehicle it rides in
    on_foot: bool = False


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    markers: list[SavedMarker] = Field(default_factory=list)
    units: dict[str, list[SavedUnit]] = Field(default_factory=dict)
    next_marker: int = Field(default=1, ge=1)
    phases: int = Field(default=0, ge=0)
    charts: Charts = Field(default_factory=list)
    # each hex's infantry defence bonus as the players gave it (W-2; issue 27: asked once)
    defence: dict[str, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
