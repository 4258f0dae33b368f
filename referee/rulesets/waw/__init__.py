"""World at War (LnL Publishing): artillery missions. Brief: docs/rules/world-at-war.md.

Imports of this package stay light: the resolver (and pydantic) load on the first mission.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset
from referee.rulesets.waw.tables import RULESET_ID

RULESET = LazyRuleset(RULESET_ID, lookups="referee.rulesets.waw.lookup",
                      declaration="referee.rulesets.waw.declaration:MissionDeclaration",
                      resolver="referee.rulesets.waw.attack:attack",
                      state="referee.rulesets.waw.saved:SavedState",
                      state_view="referee.rulesets.waw.view:state_view")
