"""A game's dice: the secret seed drawn by ``game new``, its commitment, and the reveal.

``game new`` draws a secret seed (``secrets``) and prints its commitment, the SHA-256 of the
seed's text, which the players note. Every program die of the game is then keyed by the seed
(and the opponent's text, when one was typed: ``SEED|OPPONENT``), the number of the entry in
the game and the question (``KeyedDice``), so the dice are fixed by the commitment. The seed
stays in the file, not shown, until ``game reveal`` prints it and closes the game to further
program dice; ``game verify`` then recomputes every die from it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg

SEED_BYTES = 16  # 128 bits, written as 32 hex digits


def _draw() -> str:
    return secrets.token_hex(SEED_BYTES)


draw_secret: Callable[[], str] = _draw
"""Where a new game's seed comes from (transcripts replace it with a fixed sequence)."""

OPPONENT_MOST = 200  # characters of the opponent's text


def commitment(seed: str) -> str:
    """What the players note at the start: the SHA-256 (hex) of the seed's text."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def dice_key(seed: str, opponent: str | None) -> str:
    """The key of the game's dice: the seed's text, with ``|`` and the opponent's text after
    it when the opponent typed one."""
    return seed if not opponent else f"{seed}|{opponent}"


@dataclass(frozen=True)
class GameInfo:
    """What ``game new`` wrote: the game's name, its two sides, the commitment, the
    opponent's text, when it was made; ``seed`` is the secret (never shown before the
    reveal), ``revealed`` when it was revealed."""

    name: str
    sides: tuple[str, str]
    commitment: str
    opponent: str | None
    created: str
    seed: str
    revealed: str | None = None

    @property
    def key(self) -> str:
        return dice_key(self.seed, self.opponent)

    def public(self) -> dict[str, Any]:
        """What may be shown to anyone: everything but the seed until it is revealed
        (``seed`` is ``None`` until then)."""
        return {"name": self.name, "sides": list(self.sides), "commitment": self.commitment,
                "opponent_seed": self.opponent, "created": self.created,
                "revealed": self.revealed,
                "seed": self.seed if self.revealed is not None else None}


def game_info(tx: Any) -> GameInfo | None:
    """The game ``game new`` made in this file (``None``: a file made by ``--game`` alone,
    whose dice come from each command's seed)."""
    raw = tx.meta("game")
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        sides = data["sides"]
        seed = tx.meta("seed")
        info = GameInfo(str(data["name"]), (str(sides[0]), str(sides[1])),
                        str(data["commitment"]), data.get("opponent"), str(data["created"]),
                        seed if isinstance(seed, str) else "", tx.meta("revealed"))
        ok = (isinstance(data["name"], str) and len(sides) == 2 and all(isinstance(s, str)
                                                                        for s in sides)
              and (info.opponent is None or isinstance(info.opponent, str)) and info.seed)
    except (ValueError, KeyError, TypeError, IndexError):
        ok = False
    if not ok:
        raise GameFileError(Msg.of("error.game_damaged", file=tx.name, where="meta.game",
                                   reason="?"))
    return info


def new_game(path: Path, *, name: str, sides: Sequence[str],
             opponent: str | None = None) -> GameInfo:
    """Make a new game file at ``path`` (which must not exist) with a fresh secret seed."""
    from referee.game import clock, create_game

    if path.exists():
        raise UsageError(Msg.of("game.error.exists", file=str(path)))
    if len(sides) != 2 or sides[0].casefold() == sides[1].casefold():
        raise UsageError(Msg.of("game.error.sides"))
    if opponent is not None:
        opponent = opponent.strip()
        if not opponent or len(opponent) > OPPONENT_MOST:
            raise UsageError(Msg.of("game.error.opponent", most=OPPONENT_MOST))
    seed = draw_secret()
    info = GameInfo(name, (sides[0], sides[1]), commitment(seed), opponent, clock(), seed)

    def fill(tx: Any) -> None:
        tx.set_meta("game", json.dumps({"name": name, "sides": list(info.sides),
                                        "commitment": info.commitment, "opponent": opponent,
                                        "created": info.created}, ensure_ascii=False))
        tx.set_meta("seed", seed)

    create_game(path, fill)  # whole or not at all: a full disk leaves no empty file
    return info


def reveal(path: Path) -> GameInfo:
    """Mark the game revealed (no further program dice) and give its seed."""
    from referee.game import clock, open_game

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with open_game(path) as tx:
        info = game_info(tx)
        if info is None:
            raise GameFileError(Msg.of("game.error.not_committed", file=str(path)))
        if info.revealed is None:
            at = clock()
            tx.set_meta("revealed", at)
            info = GameInfo(info.name, info.sides, info.commitment, info.opponent,
                            info.created, info.seed, at)
    return info
