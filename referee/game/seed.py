"""A game's dice: the secret seed drawn by ``game new``, its commitment, and the reveal.

``game new`` draws a secret seed (``secrets``) and prints its commitment, the SHA-256 of the
seed's text, which the players note. Every program die of an entry is then drawn from the
seed, the entry's number, the roll's number in the entry and the opponent's contribution to
that entry (``EntryDice``, scheme 2; ``referee.game.contribution``), so the dice are fixed by
the commitment and the contributions, and the holder of the file, who can read the seed, cannot
foresee them. The seed stays in the file, not shown, until ``game reveal`` prints it and closes
the game to further program dice; ``game verify`` then recomputes every die from it.
``--holder-dice`` makes a game whose entries take no contribution: the holder could foresee
them, which the log, the report and ``verify`` say.

Games made before format 3 keyed every die by the seed (and the opponent's text typed at
``game new``: ``SEED|OPPONENT``), the entry's number and the question (``KeyedDice``,
scheme 1); their entries are still verified so.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg

SEED_BYTES = 16  # 128 bits, written as 32 hex digits


def _draw() -> str:
    return secrets.token_hex(SEED_BYTES)


draw_secret: Callable[[], str] = _draw
"""Where a new game's seed comes from (transcripts replace it with a fixed sequence)."""


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
    opponent's text (games made before format 3), when it was made, the side that holds the
    file, whether the holder rolls alone (``--holder-dice``); ``seed`` is the secret (never
    shown before the reveal), ``revealed`` when it was revealed."""

    name: str
    sides: tuple[str, str]
    commitment: str
    opponent: str | None
    created: str
    seed: str
    revealed: str | None = None
    holder: str | None = None
    holder_dice: bool = False

    @property
    def key(self) -> str:
        """The key of the dice of scheme 1 (entries of a game made before format 3)."""
        return dice_key(self.seed, self.opponent)

    @property
    def holding(self) -> str:
        """The side that holds the game file (the first side, unless ``--holder`` said)."""
        return self.holder if self.holder in self.sides else self.sides[0]

    @property
    def opponent_side(self) -> str:
        """The side that does not hold the file: it gives each entry's word."""
        return self.sides[1] if self.holding == self.sides[0] else self.sides[0]

    def public(self) -> dict[str, Any]:
        """What may be shown to anyone: everything but the seed until it is revealed
        (``seed`` is ``None`` until then)."""
        return {"name": self.name, "sides": list(self.sides), "commitment": self.commitment,
                "opponent_seed": self.opponent, "created": self.created,
                "revealed": self.revealed, "holder": self.holding,
                "holder_dice": self.holder_dice,
                "seed": self.seed if self.revealed is not None else None}

    def facts(self) -> dict[str, Any]:
        """What ``game new`` writes to the chain (its first event): the public facts but the
        time of the reveal."""
        return {"name": self.name, "sides": list(self.sides), "commitment": self.commitment,
                "opponent": self.opponent, "created": self.created, "holder": self.holding,
                "holder_dice": self.holder_dice}


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
                        seed if isinstance(seed, str) else "", tx.meta("revealed"),
                        data.get("holder"), data.get("holder_dice") is True)
        ok = (isinstance(data["name"], str) and len(sides) == 2 and all(isinstance(s, str)
                                                                        for s in sides)
              and (info.opponent is None or isinstance(info.opponent, str)) and info.seed
              and (info.holder is None or isinstance(info.holder, str))
              and isinstance(data.get("holder_dice", False), bool))
    except (ValueError, KeyError, TypeError, IndexError):
        ok = False
    if not ok:
        raise GameFileError(Msg.of("error.game_damaged", file=tx.name, where="meta.game",
                                   reason="?"))
    return info


def new_game(path: Path, *, name: str, sides: Sequence[str], holder: str | None = None,
             holder_dice: bool = False) -> GameInfo:
    """Make a new game file at ``path`` (which must not exist) with a fresh secret seed;
    ``holder``: the side that holds the file (the first, if not said)."""
    from referee.game import clock, create_game

    if path.exists():
        raise UsageError(Msg.of("game.error.exists", file=str(path)))
    if len(sides) != 2 or sides[0].casefold() == sides[1].casefold():
        raise UsageError(Msg.of("game.error.sides"))
    if holder is not None:
        named = [s for s in sides if s.casefold() == holder.casefold()]
        if not named:
            raise UsageError(Msg.of("game.error.holder", holder=holder, first=sides[0],
                                    second=sides[1]))
        holder = named[0]
    seed = draw_secret()
    info = GameInfo(name, (sides[0], sides[1]), commitment(seed), None, clock(), seed,
                    holder=holder or sides[0], holder_dice=holder_dice)

    def fill(tx: Any) -> None:
        tx.set_meta("game", json.dumps(info.facts(), ensure_ascii=False))
        tx.set_meta("seed", seed)
        tx.append_event("game", info.facts())  # the chain's first event: the game's facts

    create_game(path, fill)  # whole or not at all: a full disk leaves no empty file
    return info


def reveal(path: Path) -> tuple[GameInfo, str | None]:
    """Mark the game revealed (no further program dice): the game with its seed, and the
    check code after the reveal (``None``: revealed before)."""
    from referee.game import open_game

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with open_game(path) as tx:
        info = game_info(tx)
        if info is None:
            raise GameFileError(Msg.of("game.error.not_committed", file=str(path)))
        code = None
        if info.revealed is None:
            event = tx.append_event("reveal", {"seed": info.seed})
            tx.set_meta("revealed", event.at)
            info = replace(info, revealed=event.at)
            code = event.code
    return info, code
