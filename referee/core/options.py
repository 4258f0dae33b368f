"""Ruleset options: the named switches for ambiguities and house rules.

Every [AMBIG]/[CONTRA]/[XLAT] reading of a brief is an option with the brief's handling as its
default. Specs are data (``rulesets/<id>/options.toml``); this module validates overrides given
as ``NAME=VALUE`` and reports which options differ from their defaults.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.core.errors import UnknownIdError, UsageError
from referee.core.text import Msg
from referee.core.words import NO_WORDS, YES_WORDS, whole_number


class OptionValueError(UsageError):
    """A value an option does not take; ``name`` is the option."""

    def __init__(self, name: str, msg: Msg) -> None:
        super().__init__(msg)
        self.name = name


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    clause: str | None
    help: Msg
    choices: tuple[str, ...] = ()
    path: bool = False  # the value names a file

    def parse(self, text: str) -> Any:
        def refuse(kind: str, **extra: Any) -> OptionValueError:
            return OptionValueError(self.name, Msg.of(f"option.error.{kind}", name=self.name,
                                                      given=text, **extra))

        if isinstance(self.default, bool):
            folded = text.strip().casefold()
            if folded in YES_WORDS:
                return True
            if folded in NO_WORDS:
                return False
            raise refuse("bool")
        if isinstance(self.default, int):
            number = whole_number(text.strip())
            if number is None:
                raise refuse("int")
            return number
        if self.choices and text not in self.choices:
            raise refuse("choice", legal=", ".join(self.choices))
        return text


@dataclass(frozen=True)
class Options:
    specs: tuple[OptionSpec, ...]
    values: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def non_default(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.specs if self.values[s.name] != s.default)


def parse_assignments(pairs: Iterable[str]) -> dict[str, str]:
    """``["a=b", "c=d"]`` to ``{"a": "b", "c": "d"}``, refusing items without ``=``."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(Msg.of("option.error.syntax", given=pair))
        out[name.strip()] = value.strip()
    return out


def from_folder(specs: Iterable[OptionSpec], overrides: Mapping[str, Any],
                folder: str) -> dict[str, Any]:
    """``overrides`` written in a file (a script's ``[options]``) with every relative path
    of an option that names a file taken from ``folder``, the file's own folder, as a
    reader expects; on the command line a path starts at the current folder."""
    paths = {s.name for s in specs if s.path}
    return {name: os.path.normpath(os.path.join(folder, value))
            if name in paths and isinstance(value, str) and value
            and not os.path.isabs(value) else value
            for name, value in overrides.items()}


def to_folder(specs: Iterable[OptionSpec], overrides: Mapping[str, Any],
              folder: str) -> dict[str, Any]:
    """The inverse of ``from_folder``: ``overrides`` (paths from the current folder) to be
    written in a file in ``folder`` (a ``--record``), each relative path of an option that
    names a file made relative to that folder, so that the file replays from anywhere."""
    paths = {s.name for s in specs if s.path}
    return {name: os.path.relpath(value, folder)
            if name in paths and isinstance(value, str) and value
            and not os.path.isabs(value) else value
            for name, value in overrides.items()}


def resolve_options(specs: Iterable[OptionSpec], overrides: Mapping[str, Any]) -> Options:
    """Defaults with ``overrides`` applied. Override values may be text (from the command line)
    or already typed (from a script)."""
    specs = tuple(specs)
    by_name = {s.name: s for s in specs}
    values = {s.name: s.default for s in specs}
    for name, raw in overrides.items():
        spec = by_name.get(name)
        if spec is None:
            raise UnknownIdError("option", name, sorted(by_name))
        if isinstance(raw, str):
            values[name] = spec.parse(raw)
        elif type(raw) is type(spec.default):
            values[name] = spec.parse(str(raw)) if spec.choices else raw
        else:
            raise OptionValueError(name, Msg.of("option.error.type", name=name, given=str(raw)))
    return Options(specs, values)
