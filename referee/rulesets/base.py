"""What a ruleset module provides, and what a resolver gets when it is called."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.core.table import Table


class LookupFlag(NamedTuple):
    """A flag a lookup table accepts (``--cover``, ``--hindrance 3``), as data: ``value``
    when it takes one (the word after it, or ``--name=VALUE``)."""

    name: str
    help: Msg
    value: bool = False


class LookupTable(NamedTuple):
    id: str
    title: Msg
    key_help: Msg | None = None
    flags: tuple[LookupFlag, ...] = ()


class AttackContext(NamedTuple):
    """Everything a resolver may use besides the port: options, the declaration given in a
    script (``None``: ask for it), the persistent state of a game file (``{}``: none) and the
    number of the game entry being played (``None``: no game file; the charts kept for the
    game say which entry entered them, ``referee.core.charts``)."""

    port: Port
    options: Options
    declaration: Any | None = None
    state: Mapping[str, Any] = MappingProxyType({})
    entry: int | None = None
    # issue 27: the resolver says who attacks whom as soon as it knows, before any die; a
    # game file learns their sides then (asked once, never after the dice) and says them
    declare: Callable[[Any, Any], Mapping[str, str | None] | None] | None = None

    def parties(self, attacker: Any, defender: Any) -> tuple[str | None, str | None]:
        """Who attacks whom (names or labels), as soon as the resolver knows them; the
        game's side of each, where the game knows it (``None``: not known, or no game), so
        that the working and the outcome name the sides."""
        sides = self.declare(attacker, defender) if self.declare is not None else None
        if not sides:
            return None, None
        return sides.get("attacker"), sides.get("defender")


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

    def state_model(self) -> type[Any] | None:
        """The pydantic model of what a game file keeps for this ruleset (None: it keeps
        nothing); a game file's state is checked against it before a rule reads it."""
        ...

    def state_view(self, state: Mapping[str, Any]) -> Sequence[Table]:
        """The state a game file holds for this ruleset, as a player reads it before an
        attack (Blast markers, broken formations, cards left, markers, unit states)."""
        ...


class LazyRuleset:
    """A ruleset whose parts are imported on first use, so that finding it, or looking up one
    of its tables, loads neither its resolver nor pydantic. Parts are named as
    ``"module"`` (lookups) and ``"module:attribute"`` (the declaration model, the resolver)."""

    def __init__(self, id: str, *, lookups: str, declaration: str, resolver: str,
                 state: str | None = None, state_view: str | None = None) -> None:
        self.id = id
        self._lookups = lookups
        self._declaration = declaration
        self._resolver = resolver
        self._state = state
        self._state_view = state_view

    @staticmethod
    def _load(target: str) -> Any:
        import importlib

        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded

    def lookup_tables(self) -> Sequence[LookupTable]:
        tables: Sequence[LookupTable] = self._load(self._lookups).lookup_tables()
        return tables

    def lookup(self, table: str, key: str | None, args: Sequence[str]) -> Table:
        found: Table = self._load(self._lookups).lookup(table, key, args)
        return found

    def declaration_model(self) -> type[Any]:
        model: type[Any] = self._load(self._declaration)
        return model

    def attack(self, ctx: AttackContext) -> Result:
        result: Result = self._load(self._resolver)(ctx)
        return result

    def state_model(self) -> type[Any] | None:
        if self._state is None:
            return None
        model: type[Any] = self._load(self._state)
        return model

    def state_view(self, state: Mapping[str, Any]) -> Sequence[Table]:
        if self._state_view is None or not state:
            return ()
        tables: Sequence[Table] = self._load(self._state_view)(state)
        return tables
