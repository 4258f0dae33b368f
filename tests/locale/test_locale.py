"""Every language speaks every message: the same ids in each catalogue file, the same format
fields in each translation, no extra ids; and the language is chosen as the issue says
(``--lang``, then LC_ALL, LC_MESSAGES, LANG, then English)."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from referee.catalog import (
    DEFAULT_LANG,
    LOCALE,
    _flatten,
    available_languages,
    catalogue,
    language_from_env,
    render,
)
from referee.core.text import Msg
from referee.start import LanguageError, split_lang
from referee.tomlcache import load_toml
from tests.support import ROOT

ENGLISH_WORD = re.compile(r"(?<![-\w])[a-z]{2,}\b")
FIELD = re.compile(r"\{[^}]*\}")
TRANSLATIONS = [lang for lang in available_languages() if lang != DEFAULT_LANG]


def ids(file: Path) -> dict[str, str]:
    """A catalogue file's messages (the plural rules are each language's own data: their
    categories differ from language to language)."""
    out: dict[str, str] = {}
    _flatten("", load_toml(file), out)
    return {k: v for k, v in out.items() if not k.startswith("plural.rules.")}


def fields(template: str) -> list[tuple[str, str, str | None]]:
    """The replacement fields of a template, with their format spec and conversion; a plural
    selector (``{count:hit|hits}``) counts as its number's field, whatever its forms."""
    return sorted({(name, "" if "|" in (spec or "") else spec or "", conv) for _, name, spec, conv
                   in string.Formatter().parse(template) if name is not None})


def pairs(lang: str) -> list[tuple[Path, Path]]:
    """(English file, translated file) for the shared file and every ruleset file that has
    both; a translated ruleset file whose English file is on another branch is left out."""
    out = [(LOCALE / f"{DEFAULT_LANG}.toml", LOCALE / f"{lang}.toml")]
    for mine in sorted((LOCALE / lang).glob("*.toml")):
        english = LOCALE / DEFAULT_LANG / mine.name
        if english.exists():
            out.append((english, mine))
    return out


def test_russian_is_a_language() -> None:
    assert "ru" in TRANSLATIONS


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_english_file_has_a_translation(lang: str) -> None:
    missing = [p.name for p in (LOCALE / DEFAULT_LANG).glob("*.toml")
               if not (LOCALE / lang / p.name).exists()]
    assert not missing, f"no {lang} catalogue for {missing}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_id_is_translated_and_no_id_is_extra(lang: str) -> None:
    for english, mine in pairs(lang):
        theirs, ours = ids(english), ids(mine)
        assert not sorted(set(theirs) - set(ours)), f"{mine.name}: untranslated ids"
        assert not sorted(set(ours) - set(theirs)), f"{mine.name}: ids English does not have"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_translation_keeps_the_format_fields(lang: str) -> None:
    for english, mine in pairs(lang):
        theirs, ours = ids(english), ids(mine)
        wrong = [i for i in sorted(set(theirs) & set(ours)) if fields(theirs[i]) != fields(ours[i])]
        assert not wrong, f"{mine.name}: fields differ in {wrong}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translations_are_translated(lang: str) -> None:
    """A translation identical to the English is allowed for symbols, names and command
    syntax (AP, %, Lock 'n Load Tactical, FIREPOWER HIT [--defence N]); an English phrase
    (three lower-case words or more) left in place is not."""
    for english, mine in pairs(lang):
        theirs, ours = ids(english), ids(mine)
        same = [i for i in sorted(set(theirs) & set(ours)) if ours[i] == theirs[i]
                and len(ENGLISH_WORD.findall(FIELD.sub("", theirs[i]))) >= 3]
        assert not same, f"{mine.name}: left in English: {same}"


def test_ruleset_files_define_only_their_own_ids() -> None:
    for lang in available_languages():
        for file in (LOCALE / lang).glob("*.toml"):
            tops = {i.split(".")[0] for i in ids(file)}
            assert tops <= {file.stem, "option"}, (lang, file.name, tops)


def test_russian_renders_and_falls_back_to_english_for_unknown_languages() -> None:
    msg = Msg.of("epic.step.action", action=Msg.of("epic.action.double"))
    assert render(msg, "ru") != render(msg, "en")
    assert catalogue("ru")["word.yes"] == "Да"


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
    ({"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "ru"}, "ru"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({}, "en"),
])
def test_language_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert language_from_env(environ) == lang


@pytest.mark.parametrize(("argv", "lang", "rest"), [
    (["--lang", "ru", "rulesets"], "ru", ["rulesets"]),
    (["attack", "epic", "--lang=ru", "--seed", "3"], "ru", ["attack", "epic", "--seed", "3"]),
    (["lookup", "epic", "to-hit", "5", "--cover", "--lang", "EN"], "en",
     ["lookup", "epic", "to-hit", "5", "--cover"]),
    (["run", "--", "--lang", "ru"], None, ["run", "--", "--lang", "ru"]),
    (["rulesets"], None, ["rulesets"]),
])
def test_lang_flag_is_taken_out_of_any_command(argv: list[str], lang: str | None,
                                               rest: list[str]) -> None:
    assert split_lang(argv) == (lang, rest)


@pytest.mark.parametrize("argv", [["--lang"], ["--lang", "xx"], ["--lang="]])
def test_a_bad_lang_is_refused(argv: list[str]) -> None:
    with pytest.raises(LanguageError):
        split_lang(argv)


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "COLUMNS": "100", **env}
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, cwd=ROOT, env=environ, timeout=60)


def test_help_in_russian_from_the_flag_and_from_the_locale() -> None:
    by_flag = _run("--lang", "ru", "attack", "--help", LANG="en_US.UTF-8")
    by_locale = _run("attack", "--help", LANG="ru_RU.UTF-8")
    assert by_flag.returncode == 0 and by_flag.stdout == by_locale.stdout
    assert catalogue("ru")["cli.opt.seed"].split()[0] in by_flag.stdout
    assert "--lang ru|en" in by_flag.stdout
    english = _run("attack", "--help", LANG="ru_RU.UTF-8", LC_ALL="en_US.UTF-8")
    assert catalogue("en")["cli.opt.seed"].split()[0] in english.stdout


def test_an_unknown_language_is_a_usage_error_in_the_environment_language() -> None:
    proc = _run("--lang", "xx", "rulesets", LANG="ru_RU.UTF-8")
    assert proc.returncode == 2
    assert proc.stderr.strip() == render(
        Msg.of("error.prefix", message=Msg.of(
            "error.unknown_id", kind=Msg.of("kind.language"), given="xx",
            known=", ".join(available_languages()))), "ru")


@pytest.mark.parametrize("argv", [["--lang", "ru", "--help"],
                                  ["--lang", "ru", "lookup", "epic", "to-hit", "8"],
                                  ["lookup", "epic", "to-hit", "8"]])
def test_the_entry_point_keeps_start_up_light(argv: list[str]) -> None:
    """Choosing the language (and Typer's words in it) loads no heavy front-end package."""
    probe = ("import sys\nfrom referee.start import main\ntry:\n    main(sys.argv[1:])\n"
             "except SystemExit:\n    pass\nheavy = sorted({m.split('.')[0] for m in sys.modules}"
             " & {'questionary', 'prompt_toolkit', 'sqlite3', 'dyce'})\n"
             "print('HEAVY:' + ','.join(heavy))\n")
    proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                                                     "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "HEAVY:"


@pytest.mark.parametrize("lang", available_languages())
def test_help_texts_survive_rich_markup(lang: str) -> None:
    """Typer renders help as rich markup: a bracket meant literally ('[declaration]') must be
    escaped ('\\\\[declaration]') or it disappears from the help screen."""
    from rich.text import Text

    eaten = [k for k, v in catalogue(lang).items() if k.startswith("cli.")
             and not k.startswith("cli.chrome.")  # Typer shows these as plain text
             and Text.from_markup(v).plain != v.replace("\\[", "[")]
    assert not eaten


def test_the_commands_are_rebuilt_in_the_language_asked_and_back() -> None:
    from typer.testing import CliRunner

    from referee.context import Environment
    from referee.start import load_app

    def help_of(lang: str) -> str:
        app = load_app(lang)
        env = Environment(stdout_isatty=False, color=False)
        return CliRunner().invoke(app, ["attack", "--help"], obj=env).output

    try:
        russian = help_of("ru")
        assert "Использование:" in russian and "Сид для кубиков" in russian
    finally:
        english = help_of("en")
    assert "Usage:" in english and "Seed for the dice" in english
    assert "Сид" not in english and "Параметры" not in english


@pytest.mark.parametrize(("argv", "russian"), [
    (["attack"], "Не хватает аргумента 'RULESET'."),
    (["attack", "epic", "--dice", "foo"], "'foo' — не одно из: 'typed', 'auto'."),
    (["attack", "epic", "--seed"], "Опции '--seed' нужно значение."),
    (["rulesets", "extra"], "Лишние аргументы (extra)"),
])
def test_typer_usage_errors_in_russian(argv: list[str], russian: str) -> None:
    proc = _run("--lang", "ru", *argv)
    assert proc.returncode == 2
    assert russian in proc.stderr and "Try '" not in proc.stderr


def test_an_unknown_typer_message_is_left_as_it_is() -> None:
    from referee.help_chrome import reword_usage_error

    assert reword_usage_error("Something Typer never said before") == \
        "Something Typer never said before"


# --- plural forms (CLDR rules through Babel) ---------------------------------------------------

SELECTOR = re.compile(r"\{(\w+):([^{}|]*(?:\|[^{}|]*)+)\}")


@pytest.mark.parametrize("lang", available_languages())
def test_the_catalogues_plural_rules_are_cldrs_as_babel_has_them(lang: str) -> None:
    from babel import Locale

    rules = {k.removeprefix("plural.rules."): v for k, v in catalogue(lang).items()
             if k.startswith("plural.rules.")}
    cldr = Locale.parse(lang).plural_form
    assert rules == cldr.rules
    forms = catalogue(lang)["plural.forms"].split()
    assert set(forms) == set(cldr.tags) | {"other"} and forms[-1] == "other"


@pytest.mark.parametrize("lang", available_languages())
def test_every_plural_selector_gives_every_form_of_its_language(lang: str) -> None:
    forms = len(catalogue(lang)["plural.forms"].split())
    wrong = [(i, m.group(0)) for i, text in catalogue(lang).items()
             for m in SELECTOR.finditer(text) if len(m.group(2).split("|")) != forms]
    assert not wrong, wrong


@pytest.mark.parametrize(("lang", "numbers", "shown"), [
    ("en", (0, 1, 2, 21), ["0 hits", "1 hit", "2 hits", "21 hits"]),
    ("ru", (0, 1, 2, 5, 11, 21, 22, 111),
     ["0 попаданий", "1 попадание", "2 попадания", "5 попаданий", "11 попаданий",
      "21 попадание", "22 попадания", "111 попаданий"]),
])
def test_a_plural_selector_takes_the_form_cldr_gives_the_number(lang: str, numbers: tuple[int, ...],
                                                                  shown: list[str]) -> None:
    from referee.catalog import _plural_forms

    template = {"en": "{n} {n:hit|hits}",
                "ru": "{n} {n:попадание|попадания|попаданий|попадания}"}[lang]
    assert [_plural_forms(template, {"n": n}, lang).format(n=n) for n in numbers] == shown
