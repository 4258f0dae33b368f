"""What a game file keeps for the whole game besides a ruleset's own state (issue 27), as
models: the answers read off the players' charts (``referee.core.charts``). Each ruleset's
state model takes these fields, so that its state is checked whole before a rule reads it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from referee.rulesets.fields import Name


class SavedChart(BaseModel):
    """One answer read off a chart: what the chart reads, the answer (as a script gives it)
    and the game entry it was entered at."""

    model_config = ConfigDict(extra="forbid", strict=True)

    chart: Name = Field(max_length=60)
    row: str = Field(max_length=200)
    column: str = Field(max_length=60)
    answer: str | int | bool
    at: int | None = Field(default=None, ge=1)


Charts = list[SavedChart]
