"""Flames of War 3rd edition: assault hit allocation. Brief: shared/rules/flames-of-war.md.

Imports of this package stay light: the resolver, the solver and pydantic load on first
attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.rulesets.fow import lookup as _lookup

if TYPE_CHECKING:
    from referee.core.result import Result, Table
    from referee.rulesets.base import AttackContext, LookupTable


class FlamesOfWar:
    id = "flames-of-war"

    def lookup_tables(self) -> Sequence[LookupTable]:
        return _lookup.lookup_tables()

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        return _lookup.lookup(table, key, args)

    def declaration_model(self) -> type[Any]:
        from referee.rulesets.fow.declaration import AssaultDeclaration

        return AssaultDeclaration

    def attack(self, ctx: AttackContext) -> Result:
        from referee.rulesets.fow.attack import attack

        return attack(ctx)


RULESET = FlamesOfWar()
