"""The message catalogue: every message id the code uses exists, every entry formats, and
what the code builds is rendered through it."""

from __future__ import annotations

import re
import string

import pytest

from referee.catalog import available_languages, catalogue, language_from_env, render
from referee.core.text import Msg
from tests.support import ROOT

LITERAL_ID = re.compile(r"""Msg\.of\(\s*["']([a-z0-9_.-]+)["']""")
DYNAMIC_ID = re.compile(r"""Msg\.of\(\s*f["']([^"']+)["']""")


def code_files() -> list:
    return sorted((ROOT / "referee").rglob("*.py"))


def test_every_literal_message_id_is_in_the_catalogue() -> None:
    missing = {(p.name, mid) for p in code_files()
               for mid in LITERAL_ID.findall(p.read_text(encoding="utf-8"))
               if mid not in catalogue()}
    assert not missing


def test_every_dynamic_message_id_has_entries_under_its_prefix() -> None:
    for path in code_files():
        for pattern in DYNAMIC_ID.findall(path.read_text(encoding="utf-8")):
            prefix = pattern.split("{")[0]
            assert any(k.startswith(prefix) for k in catalogue()), (path.name, pattern)


def test_dynamic_ids_resolve_for_every_data_value() -> None:
    from referee.rulesets import all_rulesets
    from referee.rulesets.epic.tables import tables

    for action in tables().actions:
        assert f"epic.action.{action.id}" in catalogue()
    for info in all_rulesets():
        assert render(info.name) and render(info.covers)
        for spec in info.option_specs():
            assert spec.help.id in catalogue(), spec.name
    for kind in ("ruleset", "table", "option", "flag", "question"):
        assert f"kind.{kind}" in catalogue()


@pytest.mark.parametrize("lang", available_languages())
def test_every_entry_formats_with_its_own_fields(lang: str) -> None:
    from referee.catalog import _plural_forms

    for msg_id, template in catalogue(lang).items():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        plural = "|" in template  # a plural selector takes a form for each number
        for value in (1, 3, 5, 1.5) if plural else ("x", 1):
            params = dict.fromkeys(fields, value)
            shown = _plural_forms(template, params, lang).format(**params)
            assert isinstance(shown, str), msg_id


def test_a_plural_selector_given_text_instead_of_a_number_fails_in_tests() -> None:
    """A count passed as its rendered text would always take the last form ("1 hits"):
    the resolver must pass the number, and the tests' strict mode says so."""
    from referee.catalog import _plural_forms

    with pytest.raises(TypeError, match="needs a number"):
        _plural_forms("{n} {n:hit|hits}", {"n": "1"}, "en")
    assert _plural_forms("{n} {n:hit|hits}", {"n": 1}, "en") == "{n} hit"


def test_nested_messages_render_inside_their_parents() -> None:
    msg = Msg.of("epic.step.action", action=Msg.of("epic.action.double"))
    assert render(msg) == "Action: Double"


def test_language_comes_from_the_environment_with_english_as_fallback() -> None:
    assert language_from_env({"LANG": "en_GB.UTF-8"}) == "en"
    assert language_from_env({"LC_ALL": "xx_YY.UTF-8", "LANG": "en_US"}) == "en"
    assert language_from_env({}) == "en"


def test_missing_ids_fail_loudly_in_tests() -> None:
    with pytest.raises(KeyError):
        render(Msg.of("no.such.message"))
