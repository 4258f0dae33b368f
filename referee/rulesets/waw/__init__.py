"""World at War (LnL Publishing): artillery missions. Brief: shared/rules/world-at-war.md.

Imports of this package stay light: the resolver (and pydantic) load on the first mission.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.rulesets.waw.tables import RULESET_ID

if TYPE_CHECKING:
    from referee.core.result import Result, Table
    from referee.rulesets.base import AttackContext, LookupTable


class WorldAtWar:
    id = RULESET_ID

    def lookup_tables(self) -> Sequence[LookupTable]:
        from referee.rulesets.waw import lookup

        return lookup.lookup_tables()

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        from referee.rulesets.waw import lookup

        return lookup.lookup(table, key, args)

    def declaration_model(self) -> type[Any]:
        from referee.rulesets.waw.declaration import MissionDeclaration

        return MissionDeclaration

    def attack(self, ctx: AttackContext) -> Result:
        from referee.rulesets.waw.attack import attack

        return attack(ctx)


RULESET = WorldAtWar()
