"""One attack, whatever the front end: validate the declaration, resolve, keep the game file.

``attack`` and ``run`` both come here, so a typed attack, a scripted one and a test run the same
resolver code in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.core.options import Options
from referee.core.port import Port
from referee.core.result import Result
from referee.core.text import Msg
from referee.rulesets import RulesetInfo
from referee.rulesets.base import AttackContext


def validate_declaration(info: RulesetInfo, raw: Mapping[str, Any], file: str,
                         text: str = "", base: Path | None = None) -> Any:
    """The ruleset's declaration model built from a script's ``[declaration]`` table; any
    mistake becomes a ``ScriptError`` naming the field path (and its line when found). A
    file named in the declaration (an Epic roster) is found from ``base``, the folder of the
    script that names it (None: the current folder)."""
    from referee.files import validate

    model = info.implementation().declaration_model()
    return validate(model, raw, file, text, ["declaration"],
                    context={"base": str(base)} if base is not None else None)


def run_attack(info: RulesetInfo, port: Port, options: Options, declaration: Any | None,
               *, game: Path | None = None, seed: int | None = None,
               command: str = "attack") -> Result:
    module = info.implementation()
    if game is None:
        return module.attack(AttackContext(port, options, declaration))
    from referee.core.errors import GameFileError
    from referee.game import open_game

    # read, then ask with the file unlocked, then write only if nobody wrote meanwhile
    with open_game(game) as tx:
        state, revision = tx.state(info.id, module.state_model()), tx.revision
    result = module.attack(AttackContext(port, options, declaration, state=state))
    with open_game(game) as tx:
        if tx.revision != revision:
            raise GameFileError(Msg.of("error.game_changed", file=str(game)))
        if result.state_updates:
            tx.update_state(info.id, result.state_updates)
        tx.append_log(info.id, command, result.to_json(), seed)
    return result
