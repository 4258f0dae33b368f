"""Epic Armageddon (GW 2004): shooting. Brief: shared/rules/epic-armageddon.md.

Imports of this package stay light: the attack resolver (and pydantic) load on first attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.rulesets.epic import lookup as _lookup
from referee.rulesets.epic.tables import RULESET_ID

if TYPE_CHECKING:
    from referee.core.result import Result
    from referee.core.table import Table
    from referee.rulesets.base import AttackContext, LookupTable


class EpicArmageddon:
    id = RULESET_ID

    def lookup_tables(self) -> Sequence[LookupTable]:
        return _lookup.lookup_tables()

    def lookup(self, table: str, key: str | None, flags: Sequence[str]) -> Table:
        return _lookup.lookup(table, key, flags)

    def declaration_model(self) -> type[Any]:
        from referee.rulesets.epic.declaration import ShootingDeclaration

        return ShootingDeclaration

    def attack(self, ctx: AttackContext) -> Result:
        from referee.rulesets.epic.attack import attack

        return attack(ctx)


RULESET = EpicArmageddon()
