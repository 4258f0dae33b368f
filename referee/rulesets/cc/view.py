"""What a game file keeps for Combat Commander, as the players read it before an attack: the
cards left in each virtual Fate deck and the triggers among them (C-10, C-X8)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.table import Table
from referee.core.text import Msg
from referee.rulesets.cc.deck import TRIGGERS, edition, parse_key


def _size(edition_id: str, nation: str) -> int | None:
    """The cards of the full deck, when its edition is bundled."""
    try:
        full = edition(edition_id).composition(nation)
    except KeyError:
        return None
    return None if full is None else len(full)


def deck_tables(state: Mapping[str, Any]) -> Sequence[Table]:
    """One table, a row per deck the game has drawn from (the others are full)."""
    decks: Mapping[str, Sequence[str]] = state.get("decks", {})
    if not decks:
        return ()
    rows = []
    for slot in sorted(decks):
        edition_id, _, nation = slot.partition("/")
        cards = list(decks[slot])
        triggers = Counter(parse_key(k)[1] for k in cards)
        size = _size(edition_id, nation)
        left = len(cards) if size is None else Msg.of("cc.view.of", left=len(cards), size=size)
        rows.append((Msg.of(f"cc.nation.{nation}"), edition_id, left,
                     *(triggers[t] for t in TRIGGERS)))
    columns = (Msg.of("cc.col.nation"), Msg.of("cc.col.edition"), Msg.of("cc.col.cards_left"),
               *(Msg.of(f"cc.col.{t}") for t in TRIGGERS))
    return (Table(Msg.of("cc.table.decks_left"), columns, tuple(rows), "C-X8"),)
