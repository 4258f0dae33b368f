"""The message catalogue: every user-facing string, keyed by message id.

Catalogues are TOML files: ``referee/locale/<lang>.toml`` for the shared messages and one
file per ruleset in ``referee/locale/<lang>/``; nested tables give dotted ids (``[error]
script = ...`` is ``error.script``). An id defined twice is an error. ``render`` formats a
``Msg`` (and any ``Msg`` in its parameters) with ``str.format``. A second language is a second
set of files; nothing else changes.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from referee.core.text import Msg
from referee.tomlcache import load_toml

DEFAULT_LANG = "en"
LOCALE = Path(__file__).resolve().parent / "locale"
_lang = DEFAULT_LANG


def available_languages() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in LOCALE.glob("*.toml")))


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


def _read(file: Path) -> dict[str, str]:
    part: dict[str, str] = {}
    _flatten("", load_toml(file), part)
    return part


@functools.cache
def catalogue(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """Every message of ``lang``, all files read (for tests and tools)."""
    files = [LOCALE / f"{lang}.toml", *sorted((LOCALE / lang).glob("*.toml"))]
    out: dict[str, str] = {}
    for file in files:
        part = _read(file)
        twice = sorted(set(part) & set(out))
        if twice:
            raise ValueError(f"message ids defined twice in the {lang} catalogue: {twice}")
        out.update(part)
    return out


class _LazyCatalogue:
    """The shared file at once, a ruleset's file when one of its messages is first needed
    (``epic.*`` is in ``<lang>/epic.toml``), so that a command reads only what it shows."""

    def __init__(self, lang: str) -> None:
        self.messages = _read(LOCALE / f"{lang}.toml")
        self.pending = {p.stem: p for p in sorted((LOCALE / lang).glob("*.toml"))}

    def get(self, msg_id: str) -> str | None:
        found = self.messages.get(msg_id)
        if found is not None:
            return found
        namespace = msg_id.split(".", 1)[0]
        if namespace in self.pending:
            self.messages.update(_read(self.pending.pop(namespace)))
        while msg_id not in self.messages and self.pending:  # ids outside a namespace
            self.messages.update(_read(self.pending.popitem()[1]))
        return self.messages.get(msg_id)


@functools.cache
def _lazy(lang: str) -> _LazyCatalogue:
    return _LazyCatalogue(lang)


def language_from_env(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in available_languages() else DEFAULT_LANG
    return DEFAULT_LANG


def set_language(lang: str) -> None:
    global _lang
    _lang = lang


def current_language() -> str:
    return _lang


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Messages rendered in ``lang`` inside (``None``: as they are): a game entry is
    resolved again in the language it was played in, since the names a player left to
    the referee were made in it."""
    if lang is None or lang not in available_languages():
        yield
        return
    before = _lang
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


OTHER = "other"  # CLDR's category every language has: the last form of a selector
_SELECTOR = re.compile(r"\{(\w+):([^{}|]*(?:\|[^{}|]*)+)\}")


@functools.cache
def _plural_rule(lang: str) -> Callable[[Any], str]:
    """The CLDR plural category of a number in ``lang`` (``one``, ``few``, ``many``,
    ``other``...), by Babel's plural rules over the rules the catalogue holds."""
    from babel.plural import to_python

    prefix = "plural.rules."
    catalogue_of = _lazy(lang)
    rules = {k[len(prefix):]: v for k, v in catalogue_of.messages.items() if k.startswith(prefix)}
    return to_python(rules)


def _plural_forms(template: str, params: dict[str, Any], lang: str) -> str:
    """``{count:hit|hits}`` as the form the number ``count`` takes in ``lang`` (the forms in
    the order of ``plural.forms``: one|other in English, one|few|many|other in Russian)."""
    found = _lazy(lang).get("plural.forms") or _lazy(DEFAULT_LANG).get("plural.forms")
    order = (found or "").split() or [OTHER]

    def form(match: re.Match[str]) -> str:
        forms = match.group(2).split("|")
        value = params.get(match.group(1))
        if not isinstance(value, int | float) or isinstance(value, bool):
            if os.environ.get("REFEREE_STRICT_MESSAGES"):
                raise TypeError(f"plural selector {match.group(0)!r} needs a number, "
                                f"got {value!r}: pass the number, not its text")
            return forms[-1]
        category = _plural_rule(lang)(abs(value))
        return forms[order.index(category)] if category in order[:len(forms)] else forms[-1]

    return _SELECTOR.sub(form, template)


def render(value: Any, lang: str | None = None) -> str:
    """Text of a ``Msg`` (or a plain value) in ``lang`` (default: the current language)."""
    if not isinstance(value, Msg):
        return "" if value is None else str(value)
    lang = lang or _lang
    template = _lazy(lang).get(value.id)
    if template is None and lang != DEFAULT_LANG:
        template = _lazy(DEFAULT_LANG).get(value.id)
    if template is None:
        if os.environ.get("REFEREE_STRICT_MESSAGES"):
            raise KeyError(f"message id {value.id!r} is not in the catalogue")
        return value.id
    params = {k: render(v, lang) if isinstance(v, Msg) else v for k, v in value.params}
    if "|" in template:
        template = _plural_forms(template, params, lang)
    return template.format(**params)


def as_label(key: str) -> Msg | str:
    """A name the game keeps as it is shown: the id of a label message (a formation or a
    nation the referee named, ``cc.nation.germany``) as that message, anything else (a name
    a player typed, even one that looks like a message id) as itself."""
    template = _lazy(DEFAULT_LANG).get(key) if "." in key else None
    return Msg.of(key) if template is not None and "{" not in template else key


def t(msg_id: str, /, **params: Any) -> str:
    """Shorthand for edges: render ``Msg.of(msg_id, **params)``."""
    return render(Msg.of(msg_id, **params))
