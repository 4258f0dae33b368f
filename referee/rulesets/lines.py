"""The vocabulary every ruleset's compact lines share (issue 25): how a typed line splits into
its words, how a word is compared, and the words files.

* ``tokens``/``groups``: a line's words, split at blanks (and at the separators a grammar
  names); a quoted name (``"Squad 5"``, ``«Отделение 5»``) is one word, kept with its quotes
  (``quoted`` reads it); an unclosed quote is refused (``Unclosed``).
* ``count``: how many alike things a word says: ``2x``, ``2×``, ``2х`` (the Cyrillic letter),
  in any case; ``x2`` too where a grammar reads it.
* ``fold``: a word as it is compared: one Unicode form (NFC: a letter and its accent typed as
  two characters are the letter), case-folded, ``ё`` read as ``е``, blanks collapsed.
  Accents are kept: stripping them would read ``й`` as ``и``.
* ``words``: a ruleset's words file, ``rulesets/<id>/words.toml``, one layout for every
  ruleset: ``[section]`` then ``thing = { en = [...], ru = [...] }``, each language's first
  word the one a line is shown back with. Every word of every language is read whatever the
  session's language (a line recorded in Russian replays in English); a word belongs to one
  thing of the file; a word of several parts (``bogged down``) is also typed with hyphens
  (``bogged-down``), and a hyphenated one with blanks.

The grammars (``epic/line.py``, ``fow/line.py``, ``waw/line.py``, ``cc/line.py``,
``lnlt/line.py``) keep what is theirs: which words a line holds, in which order, and the
refusals.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from referee import data

TIMES = "xх×"  # the marks of a count: 2x, 2х, 2×
COUNT = re.compile(rf"^([0-9]+)[{TIMES}]$", re.I)  # 2x: group 1 the number
_COUNT_BEFORE = re.compile(rf"^(?:([0-9]+)[{TIMES}]|[{TIMES}]([0-9]+))$", re.I)
_JOINED = re.compile(r"(?<=\w)-(?=\w)")  # a hyphen inside a word of several parts


class Unclosed(ValueError):
    """A quote opened and not closed: ``token`` is the word it starts."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def fold(text: str) -> str:
    """A word (or a line) as it is compared: NFC, case-folded, ``ё`` as ``е``, blanks
    collapsed."""
    return " ".join(unicodedata.normalize("NFC", text.casefold()).replace("ё", "е").split())


@functools.cache
def _pattern(seps: str) -> re.Pattern[str]:
    """A quoted name (closed or not), one of ``seps``, or a run of anything else."""
    sep = f"|[{re.escape(seps)}]" if seps else ""
    word = f"[^\\s{re.escape(seps)}]+" if seps else "\\S+"
    return re.compile(rf'"[^"]*"|«[^»]*»|"[^"]*$|«[^»]*${sep}|{word}')


def _closed(token: str) -> str:
    if (token.startswith('"') and (len(token) == 1 or not token.endswith('"'))) or \
            (token.startswith("«") and not token.endswith("»")):
        raise Unclosed(token)
    return token


def tokens(text: str, *, blanks: str = "", names: bool = True) -> list[str]:
    """A line's words: blanks part them, and any character of ``blanks`` (``,;``, ``/``) as
    a blank. With ``names``, a quoted name is one word, quotes kept; an unclosed quote
    raises ``Unclosed``."""
    if not names:
        return [t for t in re.split(rf"[\s{re.escape(blanks)}]+", text) if t]
    return [_closed(t) for t in _pattern(blanks).findall(text) if t not in blanks]


def groups(text: str, *, seps: str = ",;", blanks: str = "",
           names: bool = True) -> list[list[str]]:
    """A line's groups, parted by any character of ``seps`` (outside quotes), each as its
    words (``tokens``); empty groups are left out."""
    out: list[list[str]] = [[]]
    if not names:
        for part in re.split(f"[{re.escape(seps)}]", text):
            out.append(tokens(part, blanks=blanks, names=False))
        return [g for g in out if g]
    for t in _pattern(seps + blanks).findall(text):
        if t in seps:
            out.append([])
        elif t not in blanks:
            out[-1].append(_closed(t))
    return [g for g in out if g]


def quoted(token: str) -> str | None:
    """The name a quoted word holds, its blanks collapsed (``None``: not quoted, or empty)."""
    if len(token) >= 2 and token[0] + token[-1] in ('""', "«»"):
        return " ".join(token[1:-1].split()) or None
    return None


def count(token: str, *, before: bool = False, digits: int | None = None) -> int | None:
    """How many alike things ``token`` says (``2x``, ``2×``, ``2х``; with ``before`` also
    ``x2``), in at most ``digits`` digits (``None``: any); ``None``: it is no count."""
    m = (_COUNT_BEFORE if before else COUNT).match(token)
    if m is None:
        return None
    number = next(g for g in m.groups() if g is not None)
    return int(number) if digits is None or len(number) <= digits else None


def _key(text: str) -> str:
    """A word or phrase as the words file's index holds it: folded, its parts joined by
    blanks whether typed with blanks or hyphens."""
    return fold(_JOINED.sub(" ", text))


@dataclass(frozen=True)
class Words:
    """A words file: what each word means (its section and thing) and in which language."""

    index: dict[str, tuple[str, str, str]]  # key -> (section, thing, language)
    listed: dict[str, dict[str, dict[str, tuple[str, ...]]]]  # section -> thing -> lang -> words
    folded: dict[str, dict[str, tuple[str, ...]]]  # section -> thing -> its words, folded
    longest: int  # the most parts a word has

    def meaning(self, word: str, *sections: str) -> tuple[str, str] | None:
        """The (section, thing) a word names, among ``sections`` (all when none given)."""
        found = self.index.get(_key(word))
        if found is None or (sections and found[0] not in sections):
            return None
        return found[0], found[1]

    def thing(self, word: str, section: str) -> str | None:
        """The thing of ``section`` a word names (``None``: none)."""
        found = self.meaning(word, section)
        return None if found is None else found[1]

    def language(self, word: str) -> str | None:
        found = self.index.get(_key(word))
        return None if found is None else found[2]

    def of(self, section: str) -> dict[str, tuple[str, ...]]:
        """Each thing of ``section`` with its words in every language, folded."""
        return self.folded[section]

    def shown(self, section: str, thing: str, lang: str) -> str:
        """The word a thing is shown with in ``lang``: its first word in that language, else
        its first English one."""
        by_lang = self.listed[section][thing]
        return (by_lang.get(lang) or by_lang["en"])[0]

    def show(self, section: str, thing: str) -> str:
        """The word a thing is shown with in the session's language."""
        from referee.catalog import current_language

        return self.shown(section, thing, current_language())

    def first_words(self, section: str, lang: str) -> list[str]:
        return [self.shown(section, thing, lang) for thing in self.listed[section]]

    def lookup(self, parts: list[str], start: int,
               longest: int | None = None) -> tuple[str, str, int] | None:
        """The longest word at ``parts[start:]`` (at most ``longest`` parts): its section,
        thing and how many parts it takes (``None``: no word starts there)."""
        most = min(longest or self.longest, len(parts) - start)
        for size in range(most, 0, -1):
            found = self.index.get(_key(" ".join(parts[start:start + size])))
            if found is not None:
                return found[0], found[1], size
        return None


@functools.cache
def words(ruleset_id: str) -> Words:
    """``rulesets/<ruleset_id>/words.toml``, read once."""
    raw = data.load(ruleset_id, "words")
    index: dict[str, tuple[str, str, str]] = {}
    listed: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {}
    longest = 1
    for section, things in raw.items():
        listed[section] = {}
        for thing, by_lang in things.items():
            listed[section][thing] = {lang: tuple(ws) for lang, ws in by_lang.items()}
            for lang, ws in by_lang.items():
                for word in ws:
                    key = _key(word)
                    before = index.setdefault(key, (section, thing, lang))
                    if before[:2] != (section, thing):
                        raise ValueError(f"{ruleset_id}/words.toml: {word!r} means "
                                         f"{before[:2]} and {(section, thing)}")
                    longest = max(longest, len(key.split()))
    folded = {section: {thing: tuple(fold(w) for ws in by_lang.values() for w in ws)
                        for thing, by_lang in things.items()}
              for section, things in listed.items()}
    return Words(index, listed, folded, longest)
