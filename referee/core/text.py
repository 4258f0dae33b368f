"""Messages as values.

Resolvers never hold user-facing English: they return ``Msg`` values (a catalogue id and its
parameters) that an edge renders through the catalogue in ``referee.catalog``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A catalogue message id with its parameters (which may themselves be ``Msg``)."""

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, id: str, /, **params: Any) -> Msg:
        """``id`` is positional-only, so that any parameter name (``id`` too: a validation
        error's context may carry one) is a parameter."""
        return cls(id, tuple(sorted(params.items())))

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)



def jsonable(value: Any) -> Any:
    """A JSON-friendly copy of a value that may contain ``Msg`` objects."""
    if isinstance(value, Msg):
        return {"msg": value.id, "params": {k: jsonable(v) for k, v in value.params}}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
