"""Flames of War 3rd edition: the whole assault step and its hit allocation. Briefs:
docs/rules/flames-of-war.md (the allocation) and docs/rules/flames-of-war-assault.md.

Imports of this package stay light: the resolver, the solver and pydantic load on first
attack.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset

RULESET = LazyRuleset("flames-of-war", lookups="referee.rulesets.fow.lookup",
                      declaration="referee.rulesets.fow.declaration:AssaultDeclaration",
                      resolver="referee.rulesets.fow.attack:attack",
                      state="referee.rulesets.fow.saved:SavedState",
                      state_view="referee.rulesets.fow.view:state_view")
