"""Lock 'n Load Tactical v4.x: the operations phase and Ops Complete.
Brief: shared/rules/lnl-tactical.md.

Imports of this package stay light: the phase engine (and pydantic) load on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.rulesets.lnlt import lookup as _lookup
from referee.rulesets.lnlt.tables import RULESET_ID

if TYPE_CHECKING:
    from referee.core.result import Result, Table
    from referee.rulesets.base import AttackContext, LookupTable


class LockNLoadTactical:
    id = RULESET_ID

    def lookup_tables(self) -> Sequence[LookupTable]:
        return _lookup.lookup_tables()

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        return _lookup.lookup(table, key, args)

    def declaration_model(self) -> type[Any]:
        from referee.rulesets.lnlt.roster import Roster

        return Roster

    def attack(self, ctx: AttackContext) -> Result:
        from referee.rulesets.lnlt.play import attack

        return attack(ctx)


RULESET = LockNLoadTactical()
