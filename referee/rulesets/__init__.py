"""The ruleset registry: ids, aliases and the lazily imported resolver modules.

Each ruleset is a folder of data under ``rulesets/<id>/`` (``ruleset.toml``, tables, options)
and, once it is implemented, a module ``referee.rulesets.<module>`` exposing ``RULESET``, an
object that satisfies ``referee.rulesets.base.RulesetModule``.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, NamedTuple

from referee import data
from referee.core.errors import UnknownIdError, UsageError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.options import OptionSpec
    from referee.rulesets.base import RulesetModule


class RulesetInfo(NamedTuple):
    id: str
    aliases: tuple[str, ...]
    module: str | None
    available: tuple[str, ...]
    tables: tuple[str, ...]

    @property
    def name(self) -> Msg:
        return Msg.of(f"ruleset.{self.id}.name")

    @property
    def edition(self) -> Msg:
        return Msg.of(f"ruleset.{self.id}.edition")

    @property
    def covers(self) -> Msg:
        return Msg.of(f"ruleset.{self.id}.covers")

    def implementation(self) -> RulesetModule:
        if self.module is None:
            raise UsageError(Msg.of("error.ruleset_not_ready", ruleset=self.id))
        module: RulesetModule = importlib.import_module(f"referee.rulesets.{self.module}").RULESET
        return module

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return option_specs(self.id)


@functools.cache
def all_rulesets() -> tuple[RulesetInfo, ...]:
    out = []
    for rid in data.ruleset_ids():
        raw = data.load(rid, "ruleset")
        out.append(RulesetInfo(id=raw["id"], aliases=tuple(raw.get("aliases", ())),
                               module=raw.get("module"),
                               available=tuple(raw.get("available", ())),
                               tables=tuple(raw.get("tables", ()))))
    return tuple(out)


def find_ruleset(name: str) -> RulesetInfo:
    """The ruleset whose id or alias is ``name`` (case-insensitive), or an error with the
    nearest suggestions."""
    folded = name.strip().casefold()
    known: list[str] = []
    for info in all_rulesets():
        if folded == info.id or folded in info.aliases:
            return info
        known += [info.id, *info.aliases]
    raise UnknownIdError("ruleset", name, known)


@functools.cache
def option_specs(ruleset_id: str) -> tuple[OptionSpec, ...]:
    from referee.core.options import OptionSpec

    path = data.data_root() / ruleset_id / "options.toml"
    if not path.is_file():
        return ()
    raw = data.load(ruleset_id, "options")
    return tuple(OptionSpec(name=o["name"], default=o["default"], clause=o.get("clause"),
                            help=Msg.of(f"option.{ruleset_id}.{o['name']}"),
                            choices=tuple(o.get("choices", ())),
                            path=bool(o.get("path", False)))
                 for o in raw.get("option", ()))
