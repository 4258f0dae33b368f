"""Lock 'n Load Tactical v4.x: the operations phase and Ops Complete.
Brief: docs/rules/lock-n-load.md.

Imports of this package stay light: the phase engine (and pydantic) load on first use.
"""

from __future__ import annotations

from referee.rulesets.base import LazyRuleset
from referee.rulesets.lnlt.tables import RULESET_ID

RULESET = LazyRuleset(RULESET_ID, lookups="referee.rulesets.lnlt.lookup",
                      declaration="referee.rulesets.lnlt.roster:Roster",
                      resolver="referee.rulesets.lnlt.play:attack",
                      state="referee.rulesets.lnlt.saved:SavedState",
                      state_view="referee.rulesets.lnlt.view:state_view")
