"""One attack, whatever the front end: validate the declaration, resolve, keep the game file.

``attack`` and ``run`` both come here, so a typed attack, a scripted one and a test run the same
resolver code in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.core.errors import ScriptError
from referee.core.options import Options
from referee.core.port import Port
from referee.core.result import Result
from referee.core.text import Msg
from referee.rulesets import RulesetInfo
from referee.rulesets.base import AttackContext


def validate_declaration(info: RulesetInfo, raw: Mapping[str, Any], file: str,
                         text: str = "") -> Any:
    """The ruleset's declaration model built from a script's ``[declaration]`` table; any
    mistake becomes a ``ScriptError`` naming the field path (and its line when found)."""
    from pydantic import ValidationError

    from referee.script import where

    model = info.implementation().declaration_model()
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        path: list[str | int] = ["declaration", *first["loc"]]
        reason = first["msg"].removeprefix("Value error, ")
        raise ScriptError(file, where(text, path),
                          Msg.of("script.expected.declaration", reason=reason)) from None


def run_attack(info: RulesetInfo, port: Port, options: Options, declaration: Any | None,
               *, game: Path | None = None, seed: int | None = None,
               command: str = "attack") -> Result:
    module = info.implementation()
    if game is None:
        return module.attack(AttackContext(port, options, declaration))
    from referee.game import open_game

    with open_game(game) as tx:
        result = module.attack(AttackContext(port, options, declaration,
                                             state=tx.state(info.id)))
        if result.state_updates:
            tx.update_state(info.id, result.state_updates)
        tx.append_log(info.id, command, result.to_json(), seed)
    return result
