"""What a ruleset module provides, and what a resolver gets when it is called."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.core.table import Table


class LookupFlag(NamedTuple):
    """A flag a lookup table accepts after its key (``--cover``), as data."""

    name: str
    help: Msg


class LookupTable(NamedTuple):
    id: str
    title: Msg
    key_help: Msg | None = None
    flags: tuple[LookupFlag, ...] = ()


class AttackContext(NamedTuple):
    """Everything a resolver may use besides the port: options, the declaration given in a
    script (``None``: ask for it), and the persistent state of a game file (``{}``: none)."""

    port: Port
    options: Options
    declaration: Any | None = None
    state: Mapping[str, Any] = MappingProxyType({})


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
