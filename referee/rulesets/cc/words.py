"""The words a player may type for Combat Commander (``rulesets/combat-commander/words.toml``):
nations by name, adjective or the game's word for the side (``german``, ``germans``,
``немцы``), and the keywords of the compact lines, in both languages."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BeforeValidator

from referee.rulesets import lines
from referee.rulesets.cc.deck import NATIONS, RULESET_ID
from referee.rulesets.lines import fold

__all__ = ["Nation", "bonus_of", "fold", "keyword", "nation_of", "nation_value", "piece_key"]


def _table(section: str, word: str) -> str | None:
    """The thing of ``section`` (of the words file) a word names (``None``: none)."""
    return lines.words(RULESET_ID).thing(word, section)


def nation_of(word: str) -> str | None:
    """The nation (``germany``...) a word names, or ``None``."""
    found = _table("nation", word)
    return found if found in NATIONS else None


def keyword(word: str) -> str | None:
    """The compact lines' keyword (``leader``, ``broken``, ``with``...) a word is, or ``None``."""
    return _table("entry", word)


def bonus_of(word: str) -> str | None:
    """The FP bonus (``down-hill``, ``sustained-fire``...) a word names, or ``None``."""
    return _table("bonus", word)


def nation_value(value: object) -> object:
    """A nation named in a file or an answer by any of its words becomes its id; anything
    else is left for the model to refuse."""
    if isinstance(value, str):
        return nation_of(value) or value
    return value


# a nation by any of its words (``german``, ``germans``, ``немцы``): stored as its id
Nation = Annotated[Literal["germany", "america", "russia", "britain", "france", "italy"],
                   BeforeValidator(nation_value)]


def piece_key(name: str) -> str:
    """A stable id for question ids: ``"Rifle squad L8"`` becomes ``rifle-squad-l8``; names
    in any alphabet keep their letters (``"Стрелки"``: ``стрелки``)."""
    return re.sub(r"[\W_]+", "-", name.casefold()).strip("-") or "piece"
