"""One attack, whatever the front end: validate the declaration, resolve, keep the game file.

``attack`` and ``run`` both come here, so a typed attack, a scripted one and a test run the same
resolver code in the same order.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.options import Options
from referee.core.port import Port, resolve
from referee.core.result import Result, Table
from referee.core.text import Msg
from referee.rulesets import RulesetInfo
from referee.rulesets.base import AttackContext

if TYPE_CHECKING:
    from referee.game.record import History


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
               command: str = "attack",
               show_state: Callable[[Sequence[Table]], None] | None = None,
               history: History | None = None) -> Result:
    """Resolve one attack through ``port`` (again from its start whenever the player goes
    back: ``core.port.resolve``), keeping the game file when there is one. ``show_state``
    is given the game's state as tables before the first question; ``history`` completes
    the log entry (its number, rolls, sides and replay: ``referee.game.record``)."""
    module = info.implementation()
    state: Mapping[str, Any] = {}
    revision = None
    if game is not None:
        from referee.game import open_game

        # read, then ask with the file unlocked, then write only if nobody wrote meanwhile
        with open_game(game) as tx:
            state, revision = tx.state(info.id, module.state_model()), tx.revision
            if history is not None:
                history.check(tx)
        if show_state is not None:
            tables = module.state_view(state)
            if tables:
                show_state(tables)
    def attack(p: Port) -> Result:
        # every pass (the player may go back) starts from the declaration and state as given:
        # a resolver that changes them (a phase moving its units) never sees its own changes
        return module.attack(AttackContext(p, options, copy.deepcopy(declaration),
                                           state=copy.deepcopy(state)))

    result = resolve(port, attack)
    if game is None:
        return result
    from referee.core.errors import GameFileError
    from referee.game import open_game

    if history is not None:
        history.finish(result)  # may ask a formation's side: before the file is locked
    with open_game(game, owner=history.owner if history is not None else None) as tx:
        if tx.revision != (history.revision(revision) if history is not None else revision):
            raise GameFileError(Msg.of("error.game_changed", file=str(game)))
        if result.state_updates:
            tx.update_state(info.id, result.state_updates)
        if history is not None:
            history.store(tx, command, result, seed)
        else:
            tx.append_log(info.id, command, result.to_json(), seed)
    return result
