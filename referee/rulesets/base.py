"""What a ruleset module provides, and what a resolver gets when it is called."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.core.options import Options
from referee.core.port import Port
from referee.core.result import Result, Table
from referee.core.text import Msg


@dataclass(frozen=True)
class LookupFlag:
    """A flag a lookup table accepts after its key (``--cover``), as data."""

    name: str
    help: Msg


@dataclass(frozen=True)
class LookupTable:
    id: str
    title: Msg
    key_help: Msg | None = None
    flags: tuple[LookupFlag, ...] = ()


@dataclass(frozen=True)
class AttackContext:
    """Everything a resolver may use besides the port: options, the declaration given in a
    script (``None``: ask for it), and the persistent state of a game file (``{}``: none)."""

    port: Port
    options: Options
    declaration: Any | None = None
    state: Mapping[str, Any] = field(default_factory=dict)


class RulesetModule(Protocol):
    id: str

    def lookup_tables(self) -> Sequence[LookupTable]: ...

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        """One table, or its rows for ``key``; ``args`` are the words after the key
        (flags such as ``--cover``, ``--defence 2``, further keys), the table's own to read
        and refuse with a ``UsageError`` when it does not take them."""
        ...

    def declaration_model(self) -> type[Any]:
        """The pydantic model a script's ``[declaration]`` table is validated against."""
        ...

    def attack(self, ctx: AttackContext) -> Result: ...
