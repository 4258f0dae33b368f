"""The words of the compact entry lines (``rulesets/flames-of-war/entry-words.toml``).

Every word of every language is read in any session (a line recorded in Russian replays in
English); a line is shown with the first word of the session's language.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from referee import data
from referee.catalog import DEFAULT_LANG, current_language

RULESET_ID = "flames-of-war"
LONGEST = 4  # the most parts a word of the vocabulary has ("in the open")


def fold(text: str) -> str:
    """A word as it is looked up: case-folded, ``ё`` as ``е``, hyphens as spaces."""
    return " ".join(text.casefold().replace("ё", "е").replace("-", " ").split())


@dataclass(frozen=True)
class Vocabulary:
    # (group, value) by every folded word of every language
    meaning: dict[str, tuple[str, str]]
    shown: dict[tuple[str, str, str], str]  # (group, value, language) -> the word shown

    def show(self, group: str, value: str) -> str:
        lang = current_language()
        return self.shown.get((group, value, lang)) or self.shown[(group, value, DEFAULT_LANG)]

    def lookup(self, tokens: list[str], start: int) -> tuple[str, str, int] | None:
        """The longest word at ``tokens[start:]``: its group, value and how many tokens it
        takes (``None``: no word of the vocabulary starts there)."""
        for size in range(min(LONGEST, len(tokens) - start), 0, -1):
            found = self.meaning.get(fold(" ".join(tokens[start:start + size])))
            if found is not None:
                return (*found, size)
        return None


@functools.cache
def vocabulary() -> Vocabulary:
    raw = data.load(RULESET_ID, "entry-words")
    meaning: dict[str, tuple[str, str]] = {}
    shown: dict[tuple[str, str, str], str] = {}
    for group, values in raw.items():
        for value, by_lang in values.items():
            for lang, words in by_lang.items():
                shown[(group, value, lang)] = words[0]
                for word in words:
                    key = fold(word)
                    assert meaning.get(key, (group, value)) == (group, value), word
                    meaning[key] = (group, value)
    return Vocabulary(meaning, shown)


def tokens(text: str) -> list[str]:
    """A line's parts: split at blanks, commas and semicolons."""
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]
