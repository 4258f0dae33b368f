"""Combat Commander: Europe, O20 Fire. Brief: shared/rules/combat-commander.md.

Imports of this package stay light: the attack resolver (and pydantic) load on first attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.rulesets.cc import lookup as _lookup
from referee.rulesets.cc.deck import RULESET_ID

if TYPE_CHECKING:
    from referee.core.result import Result, Table
    from referee.rulesets.base import AttackContext, LookupTable


class CombatCommander:
    id = RULESET_ID

    def lookup_tables(self) -> Sequence[LookupTable]:
        return _lookup.lookup_tables()

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        return _lookup.lookup(table, key, args)

    def declaration_model(self) -> type[Any]:
        from referee.rulesets.cc.declaration import FireDeclaration

        return FireDeclaration

    def attack(self, ctx: AttackContext) -> Result:
        from referee.rulesets.cc.attack import attack

        return attack(ctx)


RULESET = CombatCommander()
