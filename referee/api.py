"""The Python API under the ``referee`` command, for programs and tests: the application layer
(``referee.play``) under stable names.

>>> from referee import api
>>> api.lookup("epic", "to-hit", "8").rows[0][0]
Shown(value=8, text='8+')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.play.attack import RecordWriteError
from referee.play.lookup import (
    lookup,
    lookup_tables,
    lookup_words,
    options_table,
    ruleset_options,
)
from referee.play.odds import OddsRun, odds, probe, whatif
from referee.play.plan import AttackPlan, Reads, load_declaration, plan, script_answerer

if TYPE_CHECKING:
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.core.table import Table
    from referee.frontends.answers import AnswerPort

__all__ = ["AttackPlan", "OddsRun", "RecordWriteError", "attack", "load_declaration", "lookup",
           "lookup_tables", "lookup_words", "odds", "options_table", "plan_attack",
           "plan_resume", "plan_script", "play", "probe", "ruleset_options", "whatif"]


def plan_attack(ruleset: str, *, seed: int | None = None, options: Sequence[str] = (),
                declaration_file: Path | None = None,
                declaration: Mapping[str, Any] | None = None,
                game: Path | None = None) -> AttackPlan:
    """Prepare an attack: ``options`` as ``NAME=VALUE``; the declaration from a file (its
    ``[declaration]`` table) or given directly; no declaration means it is asked for. With
    ``game``, the attack is the game file's next entry (see ``AttackPlan``)."""
    return plan(ruleset, seed=seed, options=options, declaration_file=declaration_file,
                declaration=declaration, game=game)


def plan_script(path: str | Path, *, seed: int | None = None, options: Sequence[str] = (),
                auto_dice: bool = False,
                game: Path | None = None) -> tuple[AttackPlan, AnswerPort]:
    """Prepare a scripted run: the plan and the strict port that answers from the script.
    Dice the script does not give are an error, unless ``auto_dice`` or the script's
    ``roll_missing_dice = true`` let the seed roll them (in a game made by ``game new``, the
    game's dice roll them)."""
    planned = plan(reads=Reads.SCRIPT, file=path, seed=seed, options=options, game=game)
    return planned, script_answerer(planned, auto_dice=auto_dice)


def plan_resume(ruleset: str, path: Path) -> tuple[AttackPlan, list[tuple[str, Any]]]:
    """Prepare to resume an attack from its ``--record`` file: the plan as recorded (seed,
    options, declaration) and the answers given so far, in order."""
    planned = plan(ruleset, reads=Reads.RECORD, file=path)
    return planned, planned.source_answers()


def play(plan: AttackPlan, port: Port, *, game: Path | None = None,
         record: Path | None = None, command: str = "attack",
         resume: Sequence[tuple[str, Any]] = (),
         show_state: Callable[[Sequence[Table]], None] | None = None,
         whatif: Callable[[list[str]], None] | None = None,
         ask_sides: bool = False, contribution: Any = None) -> Result:
    """Resolve the attack through ``port`` (see ``referee.play.attack.play``): ``port`` is
    the answerer of the attack's port stack (``PortStack.around``); one with a ``finish``
    (``core.port.Strict``: a script's answers) refuses at the end the answers nobody used.
    In a game made by ``game new``, ``contribution`` gives the opponent's part of the dice
    (a ``referee.game.contribution.Source``: a word, a phone's bytes for each roll)."""
    from referee.play.attack import play as play_attack
    from referee.play.stack import PortStack

    return play_attack(plan, PortStack.around(port, plan.dice), game=game, record=record,
                       command=command, resume=resume, show_state=show_state,
                       whatif=whatif, ask_sides=ask_sides, contribution=contribution).result


def attack(ruleset: str, answers: Mapping[str, Any], *, seed: int = 1,
           declaration: Mapping[str, Any] | None = None,
           options: Sequence[str] = ()) -> Result:
    """Resolve an attack with answers by question id (dice not answered are rolled from
    ``seed``): the programmatic front end, for tests and for other programs."""
    from referee.frontends.answers import AnswerPort

    planned = plan_attack(ruleset, seed=seed, options=options, declaration=declaration)
    return play(planned, AnswerPort(answers, planned.dice, roll_missing_dice=True))
