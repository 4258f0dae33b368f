"""The odds of an attack without rolling (``referee odds``), and the what-if before a choice.

Both walk the attack with the probe (``frontends.probe``): the given answers, every other
question at its default, to the first roll not answered, whose odds cover the rest of the
attack. The walk is an ``Attack`` resolved as every attack is, on copies: it changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import UsageError
from referee.core.text import Msg
from referee.play.plan import AttackPlan, Reads, plan
from referee.play.resolve import Attack

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.frontends.whatif import WhatIf
    from referee.rulesets import RulesetInfo


@dataclass
class OddsRun:
    """What ``referee odds`` found: each roll's odds (``rolls``), the answers it assumed,
    and the roll where the walk stopped for want of dice (``None``: the attack finished)."""

    ruleset: str
    rolls: list[Any]
    assumed: list[tuple[Any, Any]]
    stopped_at: str | None
    answered: set[str] = field(default_factory=set)  # question ids the given answers met


def odds(ruleset: str, *, script: Path | None = None, declaration_file: Path | None = None,
         options: Sequence[str] = (), answers: Sequence[str] = (),
         seed: int | None = None, game: Path | None = None,
         require_dice: bool = True, vs: Sequence[str] = ()) -> OddsRun:
    """The odds of an attack without rolling: the declaration and answers from ``script``
    (its dice answers are used) and/or ``declaration_file``, ``answers`` as ``ID=VALUE`` (they
    win over the script's; ``vs``, a what-if's variant B, wins over both), every other
    question at its default. With ``game``, the game's state is read (never written): a deck's
    remaining cards, markers already placed. See ``frontends.probe``."""
    from referee.core.options import parse_assignments

    planned = plan(ruleset, reads=Reads.ODDS, file=script, seed=seed, options=options,
                   declaration_file=declaration_file)
    source = planned.source
    given: dict[str, Any] = dict(source.answers) if source is not None else {}
    flags: dict[str, str] = {}
    for flag, pairs in (("--answer", answers), ("--vs", vs)):
        parsed = parse_assignments(pairs)
        given.update(parsed)
        flags.update(dict.fromkeys(parsed, flag))
    state: Mapping[str, Any] = {}
    if game is not None:
        if not game.is_file():
            raise UsageError(Msg.of("odds.error.no_game", file=str(game)))
        state = game_state(planned.info, game)
    run = probe(planned.info, planned.options, planned.declaration, given,
                seed=planned.seed, state=state,
                file=source.path if source is not None else "<odds>",
                text=source.text if source is not None else "", flags=flags)
    if not run.rolls and require_dice:
        from referee.render.display import answer_text

        assumed = ", ".join(f"{q.id}={answer_text(q, v)}" for q, v in run.assumed) or "-"
        raise UsageError(Msg.of("odds.error.no_dice", assumed=assumed))
    return run


def game_state(info: RulesetInfo, game: Path) -> Mapping[str, Any]:
    """A game file's state of the ruleset, read only (never migrated nor written)."""
    from referee.game import read_game

    with read_game(game) as tx:
        return tx.state(info.id, info.implementation().state_model())


def probe(info: RulesetInfo, options: Options, declaration: Any | None,
          answers: Mapping[str, Any], *, seed: int | None = None,
          state: Mapping[str, Any] | None = None, file: str = "<odds>", text: str = "",
          flags: Mapping[str, str] | None = None) -> OddsRun:
    """Walk an attack without rolling (``frontends.probe``): ``answers`` by question id (in
    script form), every other question at its default, to the first roll not answered; its
    odds cover the rest of the attack. The declaration and state are copied: the walk
    changes nothing."""
    from referee.core.dice import KeyedDice
    from referee.frontends.probe import ProbePort, ProbeStop

    port = ProbePort(answers, KeyedDice(seed if seed is not None else 1), file=file,
                     text=text, flags=flags)
    stopped = None
    try:
        Attack(info, options, declaration, state or {})(port)
    except ProbeStop as stop:
        stopped = str(stop)
    return OddsRun(info.id, port.rolls, port.assumed, stopped, set(port.answers.used))


def whatif(info: RulesetInfo, options: Options, declaration: Any | None,
           state: Callable[[], Mapping[str, Any]], show: Callable[[list[str]], None], *,
           seed: int | None = None) -> WhatIf:
    """The what-if before a choice (``frontends.whatif``): each option walked on by
    ``probe`` from the answers so far, from ``state()`` (the state the attack, or the impulse
    of a phase, started from)."""
    from referee.frontends.whatif import WhatIf

    def walk(answers: Mapping[str, Any]) -> OddsRun:
        return probe(info, options, declaration, answers, seed=seed, state=state())

    return WhatIf(walk, show)


def whatif_before_choices(planned: AttackPlan, game: Path | None,
                          show: Callable[[list[str]], None]) -> WhatIf:
    """The what-if of an attack (the game's state read once, when first needed)."""
    kept: list[Mapping[str, Any]] = []

    def state_now() -> Mapping[str, Any]:
        if not kept:
            kept.append(game_state(planned.info, game) if game is not None else {})
        return kept[0]

    return whatif(planned.info, planned.options, planned.declaration, state_now, show,
                  seed=planned.seed)
