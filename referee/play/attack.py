"""Playing an attack: the one way through for the table, ``run`` and the Python API.

``play`` takes a plan (``play.plan``) and the port stack (``play.stack``) and does, in order:
replay the answers of a resumed record; hang the what-if and the ``--record`` file on the
rewind layer; read the game's state (with the file unlocked while the questions are asked);
resolve (an ``Attack``, through the rewind layer); complete the game's log entry and write it
with the new state, only if nobody wrote meanwhile; finish a strict answerer; complete the
record. What it shows as it goes comes from the command through the stack and the callbacks
it is given.

In a game made by ``game new`` the attack's dice wait for its pending entry and the opponent's
contribution (``GamePlay.begin``, ``referee.game.pending``), asked when its first program die
is drawn; an attack stopped after its pending entry is marked abandoned; a script is checked
whole before the first write (``check_script``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import RecordedRollError, RefereeError, ScriptError, UsageError
from referee.core.text import Msg
from referee.play.plan import AttackPlan, Reads, plan, script_answerer
from referee.play.resolve import Attack
from referee.play.stack import PortStack, Seat, ask_beside

if TYPE_CHECKING:
    from referee.core.result import Result
    from referee.core.table import Table
    from referee.game.entry import History
    from referee.game.pending import EntryFlow


@dataclass(frozen=True)
class Played:
    """A resolved attack: its result and the odds of each roll (``None``: no odds layer);
    in a game made by ``game new``, its entry's number and check code (else ``None``)."""

    result: Result
    odds: list[Any] | None
    number: int | None = None
    code: str | None = None


class RecordWriteError(UsageError):
    """The ``--record`` file could not be written at the end of a resolved attack: what was
    played is kept here, so that the result is shown before the error."""

    def __init__(self, msg: Msg, played: Played) -> None:
        super().__init__(msg)
        self.played = played
        self.result = played.result


def at_seat(plan: AttackPlan, seat: Seat, *, game: Path | None = None,
             record: Path | None = None, command: str = "attack",
             resume: Sequence[tuple[str, Any]] = ()) -> Played:
    """An attack at the board (``attack``, ``epic-shoot``): the stack from ``seat`` and the
    plan's dice; the game's state shown before the first question and the what-if before a
    marked choice, where the odds are shown; a formation's side not known yet is asked."""
    # Between planning and the first roll: the dice source is made here (``plan.dice``:
    # ``attack_dice``) and the stack around it. A game's dice ask the opponent's word at the
    # board, beside the stack, when the first program die is drawn (the opponent's phone
    # gives each roll's part instead while game serve serves the file and it is joined).
    committed = plan.game is not None and plan.game.committed
    phones: list[Any] = []
    if game is not None:  # while game serve serves the file: its phones answer their side's
        from referee.play.phones import opponents

        seat, phones = opponents(seat, plan.game, plan.info.id, plan.declaration)
    stack = PortStack.at_seat(plan.dice, seat,
                              typed_then=plan.game.typed_then if plan.game else None,
                              fixed_rolls=committed)
    screen = None if seat.quiet else seat.screen
    word: Any = None
    if committed:
        from referee.game.contribution import AskedWord

        word = AskedWord(ask_beside(stack.under_rewind))
        if game is not None:
            from referee.play.phones import phone_source

            word = phone_source(word, game, seat.screen.say)
    try:
        return play(plan, stack, game=game, record=record, command=command, resume=resume,
                    show_state=screen.tables if screen is not None else None,
                    whatif=screen.lines if screen is not None and stack.shows_odds else None,
                    ask_sides=True, contribution=word, say=seat.screen.say)
    finally:
        for port in phones:  # written, abandoned or refused: the phones stop showing it
            port.finish()


def run_script(file: str | Path, *, seed: int | None = None, options: Sequence[str] = (),
               auto_dice: bool = False, game: Path | None = None,
               odds: bool = True, word: Callable[[AttackPlan, bool], Any] | None = None,
               unused: Callable[[RefereeError], None] | None = None
               ) -> tuple[AttackPlan, Played]:
    """``referee run``: the script's attack, answered by the script alone (``auto_dice``:
    the dice it does not give are rolled), its odds recorded to be shown after the result.
    In a game made by ``game new`` the whole script is checked first (``check_script``),
    then ``word(plan, needed)`` gives where the opponent's word comes from (``needed``: the
    program will roll a die of a new entry, and the holder does not roll alone)."""
    planned = plan(reads=Reads.SCRIPT, file=file, seed=seed, options=options, game=game)
    answerer = script_answerer(planned, auto_dice=auto_dice)
    contribution = None
    if planned.game is not None and planned.game.committed:
        rolls = check_script(planned, answerer, game)
        assert planned.game.info is not None
        needed = rolls and not planned.game.info.holder_dice and not planned.game.contributed
        contribution = word(planned, needed) if word is not None else None
    stack = PortStack.scripted(answerer, planned.dice, odds=odds)
    return planned, play(planned, stack, game=game, command="run",
                         contribution=contribution, unused=unused)


def check_script(plan: AttackPlan, answerer: Any, game: Path | None) -> bool:
    """Before a scripted run in a game writes anything: the whole script resolved once with
    stand-in dice (its own typed dice where it gives them, the rest rolled from a fixed
    seed) against the game's state, read only, so that an answer that no question asks for,
    a missing one or one that does not fit fails now: nothing written, no number spent, no
    word asked. Whether the program rolls any die."""
    from referee.core.dice import KeyedDice
    from referee.frontends.answers import AnswerPort
    from referee.play.odds import game_state

    stand_in = KeyedDice(0)
    dry = AnswerPort(answerer.answers, stand_in, file=answerer.file, text=answerer.text,
                     use_defaults=answerer.use_defaults,
                     roll_missing_dice=answerer.roll_missing_dice)
    state = game_state(plan.info, game) if game is not None and game.is_file() else {}
    Attack(plan.info, plan.options, plan.declaration, state)(dry)
    dry.finish()
    return stand_in.rolled > 0


def play(plan: AttackPlan, stack: PortStack, *, game: Path | None = None,
         record: Path | None = None, command: str = "attack",
         resume: Sequence[tuple[str, Any]] = (),
         show_state: Callable[[Sequence[Table]], None] | None = None,
         whatif: Callable[[list[str]], None] | None = None,
         ask_sides: bool = False, contribution: Any = None,
         unused: Callable[[RefereeError], None] | None = None,
         say: Callable[[Any], None] | None = None) -> Played:
    """Resolve the attack through ``stack``, going back as often as the player asks (see
    ``frontends.rewind``). ``resume``: answers to replay first (an interrupted attack's). With
    ``record``, every answer is written at once (atomically) as a script that ``referee run``
    replays exactly and ``referee attack --resume`` continues: an interruption (Ctrl-C, a
    closed terminal, a crash) loses at most the answer being typed. ``show_state`` is given
    the game file's state as tables before the first question (``--game``). ``whatif`` is
    given, before a choice whose options change how the attack may end, each option's end
    states (``frontends.whatif``). The game file's entry keeps the rolls, the sides
    (``ask_sides``: a formation's side not known yet is asked at the board) and what resolves
    the attack again (``referee.game.entry``). In a game made by ``game new``, ``contribution``
    (a ``referee.game.contribution.Source``) gives the opponent's part of the dice, asked
    when the first program die is drawn (``say``: one line to the players); ``unused`` is
    told of answers that no question asked for once the entry is written (the game's dice
    took another way than the check before the first write), instead of an error."""
    rewind = stack.rewind
    history = _history(plan, stack, ask_sides) if game is not None else None
    flow = _game_dice(plan, stack, history, command, contribution, say)
    if resume:
        rewind.preload(resume)
    if whatif is not None:
        from referee.play.odds import whatif_before_choices

        rewind.before_live = whatif_before_choices(plan, game, whatif)
    recorder = None
    if record is not None:
        from referee.play.record import Recorder

        # before the first question: a destination that cannot take the record says so now
        recorder = Recorder(record, plan)
        recorder.write(rewind.answers(), complete=False)
        keep = recorder.keep

        def after_each_answer(_given: Any) -> None:
            keep(rewind.answers())

        rewind.on_change = after_each_answer
    try:
        try:
            result = _in_game(plan, stack, game=game, command=command, show_state=show_state,
                              history=history)
        except RecordedRollError as err:  # a resumed record's dice that are not the game's
            raise ScriptError(str(record), f"answers.{err.question_id}", err.msg) from None
    except BaseException as err:
        if flow is not None:
            flow.abandon("interrupted" if isinstance(err, KeyboardInterrupt) else "failed")
        if recorder is not None and isinstance(err, (KeyboardInterrupt, RefereeError)):
            recorder.keep(rewind.answers())
        raise
    try:
        stack.finish()
    except RefereeError as err:
        if recorder is not None:
            recorder.keep(rewind.answers())
        written = (history is not None and history.code is not None
                   and plan.game is not None and plan.game.committed)
        if unused is None or not written:
            raise
        unused(err)
    committed = plan.game is not None and plan.game.committed and history is not None
    played = Played(result, stack.odds_so_far(),
                    history.number if committed and history is not None else None,
                    history.code if committed and history is not None else None)
    if recorder is not None:
        failed = recorder.keep(rewind.answers(), complete=True)
        if failed is not None:
            raise RecordWriteError(failed, played)
    return played


def _in_game(plan: AttackPlan, stack: PortStack, *, game: Path | None, command: str,
             show_state: Callable[[Sequence[Table]], None] | None,
             history: History | None) -> Result:
    """Resolve the attack, keeping the game file when there is one: read its state, then ask
    with the file unlocked, then write only if nobody wrote meanwhile."""
    info = plan.info
    module = info.implementation()
    state: Mapping[str, Any] = {}
    revision = None
    if game is not None:
        from referee.game import open_game

        with open_game(game) as tx:
            state, revision = tx.state(info.id, module.state_model()), tx.revision
            if history is not None:
                history.check(tx)
        if show_state is not None:
            tables = module.state_view(state)
            if tables:
                show_state(tables)
    entry = history.play.number if history is not None and history.play is not None else None
    declare = history.declared if history is not None else None
    result = stack.rewind.resolve(Attack(info, plan.options, plan.declaration, state, entry,
                                         declare))
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
            history.store(tx, command, result, plan.seed)
        else:
            tx.append_log(info.id, command, result.to_json(), plan.seed)
    return result


def _game_dice(plan: AttackPlan, stack: PortStack, history: History | None, command: str,
               contribution: Any, say: Callable[[Any], None] | None) -> EntryFlow | None:
    """In a game made by ``game new``: the entry's dice wait for the pending entry and the
    opponent's contribution (``GamePlay.begin``), and the overrides of program rolls the
    players agreed at the board (``frontends.fixed``) are kept with the entry. ``None``
    elsewhere."""
    if plan.game is None or history is None or not plan.game.committed:
        return None
    from referee.game.contribution import NoWord

    if stack.fixed is not None:
        history.overrides = stack.fixed.overrides
    return plan.game.begin(plan.dice, ruleset=plan.info.id, command=command,
                           source=contribution or NoWord("--word"),
                           options=plan.option_overrides, declaration=plan.declaration_raw,
                           answers=stack.rewind.answers, say=say)


def _history(plan: AttackPlan, stack: PortStack, ask_sides: bool) -> History:
    """The game-file part of the attack's log entry (``referee.game.entry.History``)."""
    from referee.game.entry import History, roster_sides

    history = History(plan.info.id, play=plan.game,
                      known_sides=roster_sides(plan.info.id, plan.declaration),
                      ask=ask_beside(stack.under_rewind) if ask_sides else None)

    def collect() -> tuple[Any, Any, Any]:
        given = [(g.question_id, g.value) for g in stack.rewind.given]
        replay = attack_replay(plan, stack.rewind.answers())
        if history.told and any(history.told.values()):  # the resolver named them (issue 27)
            replay["sides"] = dict(history.told)
        return given, stack.odds_so_far() or [], replay

    history.collect = collect
    from referee.play.phones import SeatPort

    seat = stack.answerer
    if isinstance(seat, SeatPort):  # the phones' seat knows who attacks, once asked
        history.attacking = seat.attacking_side
    return history


def attack_replay(plan: AttackPlan, answers: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """What resolves an attack again (``play.replay``): its options (files named
    absolutely), its declaration as written (a roster named absolutely), its answers in order
    (script form), and the digest of every file it names."""
    from referee.catalog import current_language
    from referee.core.text import jsonable
    from referee.game.entry import digest_file

    specs = plan.info.option_specs()
    paths = {s.name for s in specs if s.path}
    options = {k: os.path.abspath(v) if k in paths and isinstance(v, str) and v else v
               for k, v in plan.option_overrides.items()}
    declaration = dict(plan.declaration_raw) if plan.declaration_raw is not None else None
    files = [v for k, v in options.items() if k in paths and isinstance(v, str) and v]
    roster = getattr(plan.declaration, "roster", None)
    if declaration is not None and isinstance(roster, str):
        declaration["roster"] = os.path.abspath(roster)
        files.append(declaration["roster"])
    from referee import __version__

    return {"kind": "attack", "lang": current_language(), "version": __version__,
            "options": jsonable(options), "declaration": jsonable(declaration),
            "answers": [[q, jsonable(a)] for q, a in answers],
            "files": {f: digest_file(f) for f in files}}
