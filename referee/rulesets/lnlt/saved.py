"""What a Lock 'n Load Tactical game file keeps, as a model: the operations phase under way
(``PhaseState``: the roster with its markers, whose impulse it is, the impulse log) and the
options ``referee phase`` plays it with. A damaged or edited file is refused before any rule
reads it (``referee.game``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from referee.core.errors import UsageError
from referee.core.options import resolve_options
from referee.rulesets import option_specs
from referee.rulesets.kept import Charts
from referee.rulesets.lnlt.roster import PhaseState, Roster
from referee.rulesets.lnlt.tables import RULESET_ID


class SavedState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phase: PhaseState | None = None
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    charts: Charts = Field(default_factory=list)
    army: Roster | None = None  # a roster brought in (game roster --import): the next phase's

    @field_validator("options")
    @classmethod
    def _known(cls, value: dict[str, str | int | bool]) -> dict[str, str | int | bool]:
        """Options this referee knows, with values they take."""
        for name, given in value.items():
            try:
                resolve_options(option_specs(RULESET_ID), {name: given})
            except UsageError:
                raise PydanticCustomError("lnlt.state.option", "option {name} = {given}",
                                          {"name": name, "given": str(given)}) from None
        return value
