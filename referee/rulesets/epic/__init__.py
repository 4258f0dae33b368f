"""Epic Armageddon (GW 2004): shooting, barrages, overwatch. Brief: docs/rules/epic-armageddon.md.

Imports of this package stay light: the attack resolver (and pydantic) load on first attack.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset
from referee.rulesets.epic.tables import RULESET_ID

RULESET = LazyRuleset(RULESET_ID, lookups="referee.rulesets.epic.lookup",
                      declaration="referee.rulesets.epic.declaration:ShootingDeclaration",
                      resolver="referee.rulesets.epic.attack:attack",
                      state="referee.rulesets.epic.saved:SavedState",
                      state_view="referee.rulesets.epic.view:state_view")
