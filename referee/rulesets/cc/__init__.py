"""Combat Commander: Europe, O20 Fire. Brief: docs/rules/combat-commander.md.

Imports of this package stay light: the attack resolver (and pydantic) load on first attack.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset
from referee.rulesets.cc.deck import RULESET_ID

RULESET = LazyRuleset(RULESET_ID, lookups="referee.rulesets.cc.lookup",
                      declaration="referee.rulesets.cc.declaration:Declaration",
                      resolver="referee.rulesets.cc.attack:attack",
                      state="referee.rulesets.cc.saved:SavedState",
                      state_view="referee.rulesets.cc.view:deck_tables")
