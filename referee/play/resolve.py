"""The one way an attack is resolved, whoever asks: the table, ``run``, an odds probe, the
game's replay (``game verify``) and the Python API all come here.

``resolve`` hands the attack to the port; a rewind port (at the board) resolves it again from
its start each time the player goes back. ``Attack`` is the one call of a ruleset's resolver:
every pass starts from fresh copies of the declaration and the state, so a resolver that
changes them (a phase moving its units) never sees its own changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from referee.frontends.rewind import RewindPort

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.rulesets import RulesetInfo

R = TypeVar("R")


@dataclass(frozen=True)
class Attack:
    """One attack as its ruleset's resolver takes it: the options, the declaration
    (``None``: the resolver asks for it) and the state of the game it starts from."""

    info: RulesetInfo
    options: Options
    declaration: Any | None = None
    state: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, port: Port) -> Result:
        from referee.rulesets.base import AttackContext

        return self.info.implementation().attack(AttackContext(
            port, self.options, copy.deepcopy(self.declaration),
            state=copy.deepcopy(dict(self.state))))


def resolve(attack: Callable[[Port], R], port: Port) -> R:
    """Resolve ``attack`` (an ``Attack``, or one impulse of a phase: ``play.phase.Impulse``)
    through ``port``; through the rewind layer, again from its start whenever the player goes
    back."""
    if isinstance(port, RewindPort):
        return port.resolve(attack)
    return attack(port)
