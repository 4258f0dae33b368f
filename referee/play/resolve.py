"""The one call of a ruleset's resolver, whoever asks: the table, ``run``, an odds probe, the
game's replay (``game verify``) and the Python API all resolve an ``Attack`` (a phase's
impulse is ``play.phase.Impulse``, called the same way).

Called with a port, an ``Attack`` resolves the attack once, from its start; at the board, the
rewind layer of the port stack calls it again from its start each time the player goes back
(``RewindPort.resolve``). Every call starts from fresh copies of the declaration and the
state, so a resolver that changes them (a phase moving its units) never sees its own changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.rulesets import RulesetInfo


@dataclass(frozen=True)
class Attack:
    """One attack as its ruleset's resolver takes it: the options, the declaration
    (``None``: the resolver asks for it), the state of the game it starts from and the
    number of its game entry (``None``: no game file; the charts kept for the game say
    which entry entered them, ``core.charts``)."""

    info: RulesetInfo
    options: Options
    declaration: Any | None = None
    state: Mapping[str, Any] = field(default_factory=dict)
    entry: int | None = None
    declare: Callable[[Any, Any], Mapping[str, str | None] | None] | None = field(
        default=None, compare=False)

    def __call__(self, port: Port) -> Result:
        from referee.rulesets.base import AttackContext

        return self.info.implementation().attack(AttackContext(
            port, self.options, copy.deepcopy(self.declaration),
            state=copy.deepcopy(dict(self.state)), entry=self.entry, declare=self.declare))
