"""Odds cases of Combat Commander: the targeting roll (C-1), the fire roll (C-10) and a
defence roll (C-4, C-5), each a Fate card drawn without replacement from a 72-card deck.

``ours`` is the report the attack shows before the card (the roll's exact distribution from
the cards left, the fire card's trigger chances, each target unit's end state); ``bare`` is the
dyce expression for the same query with independent dice (the fire and defence rolls: the
attack total less the defence total, whose sign breaks or suppresses; the targeting roll: the
product of two dice).
"""

from __future__ import annotations

from typing import Any

from dyce import H
from odds_bench import Case

from referee.core.text import Msg
from referee.rulesets.cc import odds
from referee.rulesets.cc.deck import FateCardQuestion, edition

DECKS = edition("cc_20th")
GERMANY: tuple[str, ...] = DECKS.composition("germany") or ()
AMERICA: tuple[str, ...] = DECKS.composition("america") or ()


def _question(qid: str, remaining: tuple[str, ...] = GERMANY) -> FateCardQuestion:
    return FateCardQuestion(id=qid, text=Msg.of("cc.q.fire", nation="germany", fp=0),
                            nation="germany", edition_id="cc_20th", composition=GERMANY,
                            remaining=remaining)


def _unit(name: str, leader: bool = False, **kw: Any) -> dict[str, Any]:
    return {"key": name.casefold(), "name": name, "kind": "leader" if leader else "unit",
            "morale": 8 if leader else 6, "broken_morale": 7 if leader else 8,
            "command": 1 if leader else 0, "broken": False, "suppressed": False,
            "moving": False, **kw}


def _facts(units: list[dict[str, Any]], same: bool = False) -> dict[str, Any]:
    order = [u["key"] for u in units if u["kind"] != "leader"] + \
        [u["key"] for u in units if u["kind"] == "leader"]
    return {"units": tuple(units), "order": tuple(order),
            "rules": {"cover": 1, "suppressed_tie": "stays-suppressed",
                      "command_from": "highest", "leader_commands_self": True},
            "defence": {"nation": "germany" if same else "america", "same": same,
                        "remaining": GERMANY[5:] if same else AMERICA,
                        "full": GERMANY if same else AMERICA}}


SQUAD = [_unit("Squad")]
HEX = [_unit("Squad"), _unit("Team", broken=True), _unit("Sgt", True)]
TWO_LEADERS = [_unit("Squad"), _unit("Lt", True, command=2), _unit("Sgt", True)]
THREE_LEADERS = [_unit("Squad"), _unit("Cpt", True, command=2), _unit("Lt", True, command=1),
                 _unit("Sgt", True, command=2), _unit("Cpl", True)]
TWELVE = [_unit(f"L{i}", True, command=1 + i % 3) for i in range(12)]


def _fire(fp: int, units: list[dict[str, Any]], same: bool = False) -> object:
    return odds.fire(_question("fire"), fp=fp, weapons=("LMG",), **_facts(units, same))


def _targeting(units: list[dict[str, Any]], same: bool) -> object:
    return odds.targeting(_question("targeting"), piece="Mortar", distance=4, hindrance=2,
                          fp=6, **_facts(units, same))


def _defence(units: list[dict[str, Any]]) -> object:
    facts = _facts(units)
    return odds.defence(_question("defence.squad", AMERICA[3:]), attack=15, morale=8,
                        unit="squad", **facts)


def _versus(fp: int, morale: int) -> object:
    """Attack total less defence total with independent dice (> 0 breaks, 0 suppresses)."""
    return (fp + 2 @ H(6)) - (morale + 2 @ H(6))


CASES = [
    Case("cc: fire roll, 1 unit (trigger chances, broken/suppressed)", True,
         lambda: _fire(7, SQUAD), lambda: _versus(7, 7)),
    Case("cc: fire roll, squad + broken team + sergeant", True,
         lambda: _fire(7, HEX), lambda: _versus(7, 8)),
    Case("cc: defence roll, 3 units, 69 cards left", True,
         lambda: _defence(HEX), lambda: 8 + 2 @ H(6)),
    Case("cc: targeting roll, then fire and defence from one deck, 3 units", True,
         lambda: _targeting(HEX, True), lambda: H(6) * H(6)),
    Case("cc: fire roll, a squad and two leaders (deepest exact walk)", False,
         lambda: _fire(7, TWO_LEADERS), lambda: _versus(7, 8)),
    Case("cc: targeting roll, one deck, a squad and two leaders", False,
         lambda: _targeting(TWO_LEADERS, True), lambda: H(6) * H(6)),
    Case("cc: fire roll, four leaders (the last simulated, 4,000 runs)", False,
         lambda: _fire(7, THREE_LEADERS), lambda: _versus(7, 9)),
    Case("cc: targeting roll, one deck, 12 leaders (largest: 9 simulated, 2,000 runs)", False,
         lambda: _targeting(TWELVE, True), lambda: H(6) * H(6)),
]
