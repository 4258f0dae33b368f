"""Where the odds of a dice question come from, as a plain value.

A resolver that asks for dice names the function that computes the roll's odds and the facts
it needs (``OddsRef``). Nothing is computed or imported until a front end shows odds: the odds
code (and its dice library) loads inside ``compute``, so an attack run with ``--no-odds``, a
lookup and the pure core never import it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class OddsRef:
    """``target`` is ``"package.module:function"``; the function is called as
    ``function(question, **facts)`` and returns an ``OddsReport`` (see ``referee.odds``)."""

    target: str
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def to(cls, target: str, **facts: Any) -> OddsRef:
        return cls(target, facts)

    def compute(self, question: object) -> Any:
        """The odds of ``question`` (the ``DiceQuestion`` that holds this reference: typed
        loosely, as ``questions`` imports this module)."""
        module_name, _, name = self.target.partition(":")
        function = getattr(importlib.import_module(module_name), name)
        return function(question, **self.facts)
