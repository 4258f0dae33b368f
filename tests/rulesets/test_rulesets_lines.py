"""The compact lines' shared vocabulary (``referee/rulesets/lines.py``, issue 25): a line's
words, counts, the fold every grammar compares words with, and the words files in one layout."""

from __future__ import annotations

import pytest

from referee import data
from referee.rulesets import lines

RULESETS = ("epic-armageddon", "combat-commander", "flames-of-war", "world-at-war")


@pytest.mark.parametrize(("text", "blanks", "expected"), [
    ('2x "Squad 5" 6 4 3', "", ["2x", '"Squad 5"', "6", "4", "3"]),
    ("«Отделение 5» 7 broken", "", ["«Отделение 5»", "7", "broken"]),
    ("k1 bailed, r2 building", ",;", ["k1", "bailed", "r2", "building"]),
    ("+1/2", ",/", ["+1", "2"]),
    ('"a, b" c', ",", ['"a, b"', "c"]),
])
def test_a_line_splits_into_its_words_a_quoted_name_one_word(text: str, blanks: str,
                                                               expected: list[str]) -> None:
    assert lines.tokens(text, blanks=blanks) == expected


@pytest.mark.parametrize("text", ['"Squad 5', "«Отделение", '2 inf "'])
def test_an_unclosed_quote_is_refused_naming_it(text: str) -> None:
    with pytest.raises(lines.Unclosed) as refused:
        lines.tokens(text)
    assert text.endswith(refused.value.token)


def test_groups_part_at_commas_outside_quotes() -> None:
    assert lines.groups('2 inf, "Able, Baker" cv; hq') == [
        ["2", "inf"], ['"Able, Baker"', "cv"], ["hq"]]
    assert lines.groups("4 20, 2 woods/25,,", blanks="/", names=False) == [
        ["4", "20"], ["2", "woods", "25"]]


@pytest.mark.parametrize(("token", "before", "expected"), [
    ("2x", False, 2), ("2X", False, 2), ("3×", False, 3), ("4х", False, 4),  # Cyrillic х
    ("x2", False, None), ("x2", True, 2), ("х12", True, 12), ("2", True, None),
    ("2xx", True, None), ("٢x", True, None),  # the digits 0-9 only (issue 17)
])
def test_a_count_is_a_number_and_its_mark(token: str, before: bool,
                                          expected: int | None) -> None:
    assert lines.count(token, before=before) == expected


def test_a_count_may_be_bounded_in_digits() -> None:
    assert lines.count("999x", digits=3) == 999
    assert lines.count("1000x", digits=3) is None


@pytest.mark.parametrize(("a", "b"), [
    ("Лёгкая", "легкая"), ("ЛЕ\u0308ГКАЯ", "легкая"), ("  Broken ", "broken"),
    ("in  the   open", "in the open"), ("STRASSE", "strasse"),
])
def test_fold_reads_case_yo_and_blanks_alike(a: str, b: str) -> None:
    assert lines.fold(a) == lines.fold(b)


def test_fold_keeps_the_letters_that_differ() -> None:
    """Accents are not stripped: й is not и, and a hyphen stays in a word."""
    assert lines.fold("й") != lines.fold("и")
    assert lines.fold("no-mw") == "no-mw"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_words_file_has_the_one_layout(ruleset: str) -> None:
    """section -> thing -> {en: [...], ru: [...]}; every thing has its English words, and a
    word (folded, hyphens as blanks) means one thing of the file only (the loader refuses
    a second meaning)."""
    raw = data.load(ruleset, "words")
    for things in raw.values():
        for by_lang in things.values():
            assert set(by_lang) <= {"en", "ru"} and by_lang["en"]
            assert all(isinstance(w, str) and w for ws in by_lang.values() for w in ws)
    words = lines.words(ruleset)
    assert sum(len(ws) for things in raw.values() for by_lang in things.values()
               for ws in by_lang.values()) >= len(words.index) > 0


def test_a_word_of_several_parts_is_typed_with_blanks_or_hyphens() -> None:
    fow = lines.words("flames-of-war")
    assert fow.lookup(["bogged", "down", "top"], 0) == ("status", "bogged-down", 2)
    assert fow.lookup(["Bogged-Down"], 0) == ("status", "bogged-down", 1)
    waw = lines.words("world-at-war")
    assert waw.lookup(["combat", "vehicle"], 0) == ("kind", "combat-vehicle", 2)
    assert waw.language("боевая машина") == "ru"
    assert waw.lookup(["--cv"], 0) is None


def test_a_thing_is_shown_in_a_language_or_else_in_english() -> None:
    epic = lines.words("epic-armageddon")
    assert epic.shown("type", "INF", "ru") == "пех"
    assert epic.shown("type", "INF", "en") == "inf"
    assert epic.shown("value", "ap", "de") == "ap"


def test_a_word_with_two_meanings_is_refused_when_the_file_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    raw = {"kind": {"tank": {"en": ["tank"]}}, "state": {"good": {"en": ["ok", "Tank"]}}}
    monkeypatch.setattr(lines.data, "load", lambda ruleset, name: raw)
    lines.words.cache_clear()
    try:
        with pytest.raises(ValueError, match="tank"):
            lines.words("made-up")
    finally:
        lines.words.cache_clear()
