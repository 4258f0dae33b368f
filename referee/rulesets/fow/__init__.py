"""Flames of War 3rd edition: assault hit allocation. Brief: shared/rules/flames-of-war.md.

Imports of this package stay light: the resolver, the solver and pydantic load on first
attack.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset

RULESET = LazyRuleset("flames-of-war", lookups="referee.rulesets.fow.lookup",
                      declaration="referee.rulesets.fow.declaration:AssaultDeclaration",
                      resolver="referee.rulesets.fow.attack:attack")
