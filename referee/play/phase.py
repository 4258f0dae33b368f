"""Lock 'n Load Tactical's operations phase, impulse by impulse, kept in a game file.

The phase lives in the game file: every impulse is one transaction, so a phase stopped at any
point (Ctrl-C, the end of the evening) resumes at the impulse it was on. Each impulse reads
the state, asks its questions with the file unlocked (another command may use the file
meanwhile), then writes only if nobody wrote in between, as an attack does; it is resolved as
every attack is (``play.resolve``), through the port stack of the board (``play.stack``). In a
game made by ``game new`` each impulse is an entry with its own number and the opponent's
word, asked when its first program die is drawn, as an attack's (``referee.game.pending``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.core.charts import Charts
    from referee.core.dice import KeyedDice
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result, StepLog
    from referee.core.table import Table
    from referee.game.entry import GamePlay
    from referee.play.attack import Played
    from referee.play.stack import Seat
    from referee.rulesets import RulesetInfo
    from referee.rulesets.lnlt.roster import DamageTable, Roster

STATE_OPTIONS = "options"  # where a phase keeps the options it plays with


@dataclass(frozen=True)
class Impulse:
    """One impulse, from the roster (the first) or the state the game file holds; called
    with a port, it is played from there (a fresh copy each time the player goes back). It
    gives the phase, the working and the charts read (``core.charts``: the Damage Check
    results entered in the game; ``entry``: the game entry being played).
    ``damage_table``: a Damage Check Table given in the middle of the phase (``--dct``),
    used from this impulse on. ``typed``: a phase with no roster, whose units the first
    impulse asks at the board (``sides``: the game's, else asked too; issue 27)."""

    roster: Roster | None
    state: Any
    options: Options
    entry: int | None = None
    damage_table: Any = None
    typed: Any = None

    def __call__(self, port: Port) -> tuple[Any, StepLog, Charts]:
        from referee.core.charts import Charts
        from referee.core.result import StepLog
        from referee.rulesets.lnlt import play as engine

        log = StepLog()
        charts = Charts(self.state, self.entry)
        kept = engine.load_state(self.state) if self.roster is None else None
        if kept is None and self.roster is None and self.typed is not None:
            from referee.rulesets.lnlt.typed import ask_roster

            phase = engine.begin(ask_roster(port, self.typed.get("sides")), port, log)
        elif self.roster is not None:
            phase = engine.begin(self.roster.model_copy(deep=True), port, log)
        else:
            assert kept is not None  # the loop plays a phase the file holds, not ended
            phase = kept
            if self.damage_table is not None:
                from referee.rulesets.lnlt.roster import DamageTable

                table = DamageTable.model_validate(self.damage_table)
                phase.roster.damage_table = table
                log.input(Msg.of("lnlt.step.dct_from_now", source=table.source), "L-5")
        if not phase.ended:
            engine.play(phase, port, self.options, log, 1, charts)
        return phase, log, charts


@dataclass
class PhasePlan:
    """A phase about to be played (or shown): its game file and entry, the dice, the
    options given, the roster of a new phase (``None``: the phase the file holds goes on) and
    the state the file held. ``seed``: the seed rolled from (``None`` in a game made by
    ``game new``)."""

    info: RulesetInfo
    game: Path
    entry: GamePlay
    seed: int | None
    dice: KeyedDice
    overrides: dict[str, Any]
    roster: Roster | None
    saved: dict[str, Any] = field(default_factory=dict)
    # issue 27: a Damage Check Table given in the middle of a phase (its first impulse
    # uses it from then on), and a new phase with no roster whose units are typed
    later_table: dict[str, Any] | None = None
    typed: dict[str, Any] | None = None

    def state_tables(self) -> Sequence[Table]:
        """The phase the game file holds, as a player reads it."""
        return self.info.implementation().state_view(self.saved)


def plan_phase(ruleset: str, game: Path, *, roster_file: Path | None = None,
               dct_file: Path | None = None, show: bool = False, restart: bool = False,
               seed: int | None = None, options: Sequence[str] = ()) -> PhasePlan:
    """Everything fixed before the phase's first question, each mistake refused before
    anything is asked: a phase goes on from the game file, or starts from ``roster_file``
    (``restart``: over the one the file holds); ``show`` plays nothing."""
    from referee.core.dice import KeyedDice, new_seed, usable_seed
    from referee.core.options import parse_assignments, resolve_options
    from referee.game import open_game
    from referee.game.entry import prepare
    from referee.rulesets import find_ruleset
    from referee.rulesets.lnlt import play as engine

    info = find_ruleset(ruleset)
    if info.id != "lnl-tactical":
        raise UsageError(Msg.of("lnlt.cli.not_phase", ruleset=info.id))
    overrides = parse_assignments(options)
    resolve_options(info.option_specs(), overrides)  # a bad --option fails before anything
    roster = read_roster(roster_file) if roster_file is not None else None
    later_table = None  # a Damage Check Table given in the middle of a phase (issue 27)
    if dct_file is not None:
        table = read_dct(dct_file)
        if roster is not None:
            roster.damage_table = table
        elif show:
            raise UsageError(Msg.of("lnlt.cli.dct_show"))
        else:
            later_table = table.model_dump(mode="json")
    entry = prepare(game, seed_given=seed is not None)
    chosen: int | None = None
    if entry.committed:  # a game made by ``game new``: each impulse's dice are the game's
        dice = entry.dice()
    else:
        chosen = seed if seed is not None else new_seed()
        dice = KeyedDice(usable_seed(chosen))
    with open_game(game) as tx:
        saved = tx.state(info.id, info.implementation().state_model())
    if restart:
        if roster is None:
            raise UsageError(Msg.of("lnlt.cli.restart_needs_roster"))
        saved = {}
    phase = engine.load_state(saved)
    typed: dict[str, Any] | None = None  # no roster: the units are asked at the board
    if show and saved.get(engine.STATE_KEY):
        roster = None
    elif phase is not None and roster is not None:
        raise GameFileError(Msg.of("lnlt.error.roster_and_phase", file=str(game),
                                   n=phase.impulses))
    elif phase is None and roster is None:
        if saved.get(engine.STATE_KEY):
            raise GameFileError(Msg.of("lnlt.error.phase_over", file=str(game),
                                       reason=saved[engine.STATE_KEY].get("end_reason")))
        if show:
            raise UsageError(Msg.of("lnlt.error.no_roster"))
        if saved.get("army"):  # a roster brought in (game roster --import): it starts
            from referee.rulesets.lnlt.roster import Roster as KeptRoster

            roster = KeptRoster.model_validate(saved["army"])
        else:
            typed = {"sides": list(entry.info.sides) if entry.info is not None else None}
    return PhasePlan(info, game, entry, chosen, dice, overrides, roster, saved,
                     later_table, typed)


def play_phase(phase: PhasePlan, seat: Seat, *, impulses: int | None = None,
               on_impulse: Callable[[Played], None] | None = None) -> list[Played]:
    """Play ``impulses`` impulses (``None``: to the phase's end) at ``seat``, each written to
    the game file as it ends and handed to ``on_impulse``. A phase that goes on is shown
    first, where the questions are asked."""
    from referee.play.phones import opponents
    from referee.play.stack import PortStack

    info, entry, dice, roster = phase.info, phase.entry, phase.dice, phase.roster
    seat, phones = opponents(seat, entry, info.id, None)
    stack = PortStack.at_seat(dice, seat, typed_then=entry.typed_then,
                              fixed_rolls=entry.committed)
    if roster is None and phase.typed is None and not seat.quiet:  # resuming: the phase
        seat.screen.tables(phase.state_tables())
    try:
        return _impulses(phase, seat, stack, impulses, on_impulse, phones)
    finally:
        for port in phones:  # the phones stop showing the phase
            port.finish()


def _impulses(phase: PhasePlan, seat: Seat, stack: Any, impulses: int | None,
              on_impulse: Callable[[Played], None] | None, phones: list[Any]) -> list[Played]:
    """The impulses of ``play_phase``, each a new attack for the phones' seat (``phones``)."""
    import referee
    from referee import catalog
    from referee.core.options import resolve_options
    from referee.game import open_game
    from referee.game.entry import History
    from referee.play.attack import Played
    from referee.play.odds import whatif
    from referee.play.stack import ask_beside
    from referee.rulesets.lnlt import play as engine

    info, game, entry, dice, roster = phase.info, phase.game, phase.entry, phase.dice, phase.roster
    later_table, typed = phase.later_table, phase.typed
    model = info.implementation().state_model()
    rewind = stack.rewind
    whatif_shown = seat.screen.lines if stack.shows_odds else None
    played: list[Played] = []
    seen = 0
    while impulses is None or len(played) < impulses:
        history = History(info.id, play=entry, ask=ask_beside(stack.under_rewind))
        with open_game(game) as tx:
            if played:  # the next impulse: the game's next entry
                entry.next_entry(tx.next_number())
            state, revision = tx.state(info.id, model), tx.revision
            history.check(tx)
            number = tx.next_number()
            dice.attack = entry.number if entry.committed else dice.attack
        current = (state.get(engine.STATE_KEY) or {}).get("current")
        for port in phones:  # a new impulse: its entry, and whose impulse it is
            port.new_attack(dice.attack, current if isinstance(current, str) else None)
        kept = dict(state.get(STATE_OPTIONS, {})) if roster is None else {}
        kept.update(phase.overrides)
        options = resolve_options(info.option_specs(), kept)
        rewind.reset()
        flow = _impulse_dice(entry, dice, stack, history, kept, roster, seat)
        if whatif_shown is not None and typed is None:  # each option of a marked choice
            rewind.before_live = whatif(info, options, roster, functools.partial(dict, state),
                                        whatif_shown)
        try:
            now, log, charts = rewind.resolve(Impulse(roster, state, options, number,
                                                      later_table, typed))
            result = impulse_result(now, log, options, charts)
            odds = stack.odds_so_far()
            history.complete(result, [(g.question_id, g.value) for g in rewind.given],
                             (odds or [])[seen:],
                             {"kind": "phase", "options": kept, "answers": rewind.answers(),
                              "lang": catalog.current_language(),
                              "version": referee.__version__,
                              "roster": roster.model_dump(mode="json")
                              if roster is not None else None,
                              **({"damage_table": later_table} if later_table else {}),
                              **({"typed": typed} if typed is not None else {})})
            with open_game(game, owner=history.owner) as tx:
                if tx.revision != history.revision(revision):
                    raise GameFileError(Msg.of("lnlt.error.phase_changed", file=str(game)))
                tx.update_state(info.id, {**result.state_updates, STATE_OPTIONS: kept})
                history.store(tx, "phase", result, phase.seed)
        except BaseException as err:
            if flow is not None:
                flow.abandon("interrupted" if isinstance(err, KeyboardInterrupt) else "failed")
            raise
        roster = later_table = typed = None
        entry.typed_then.clear()  # only the first impulse can redo an undone one
        played.append(Played(result, odds[seen:] if odds is not None else None,
                             history.number if entry.committed else None,
                             history.code if entry.committed else None))
        seen = len(odds or [])
        if on_impulse is not None:
            on_impulse(played[-1])
        if now.ended:
            break
    return played


def _impulse_dice(entry: GamePlay, dice: KeyedDice, stack: Any, history: Any,
                  kept: dict[str, Any], roster: Roster | None, seat: Seat) -> Any:
    """An impulse of a game made by ``game new``: its dice wait for the pending entry and
    the opponent's word, asked beside the stack (``GamePlay.begin``); the overrides of its
    program rolls agreed at the board (``frontends.fixed``) are kept with it. ``None``
    elsewhere."""
    if not entry.committed:
        return None
    from referee.core.dice import EntryDice
    from referee.game.contribution import AskedWord
    from referee.play.stack import ask_beside

    if isinstance(dice, EntryDice):
        dice.begin(entry.number)
    if stack.fixed is not None:  # each impulse keeps its own overrides
        stack.fixed.overrides = history.overrides
    from referee.play.phones import phone_source

    source = phone_source(AskedWord(ask_beside(stack.under_rewind)), entry.file,
                          seat.screen.say)
    return entry.begin(dice, ruleset="lnl-tactical", command="phase", source=source,
                       options=kept,
                       declaration=roster.model_dump(mode="json") if roster is not None
                       else None, answers=stack.rewind.answers, say=seat.screen.say)


def phase_summary(phase: PhasePlan) -> Result:
    """The impulse log and the units of the phase the game file keeps (ended or not)."""
    from referee.core.options import resolve_options
    from referee.game import open_game
    from referee.rulesets.lnlt import play as engine

    info = phase.info
    with open_game(phase.game) as tx:
        state = tx.state(info.id, info.implementation().state_model())
    return engine.summary(state, resolve_options(info.option_specs(),
                                                 state.get(STATE_OPTIONS, {})))


def roster_of(raw: Any) -> Roster | None:
    """The roster a phase's first impulse kept in its log entry (``None``: a later one)."""
    if raw is None:
        return None
    from referee.rulesets.lnlt.roster import Roster

    return Roster.model_validate(raw)


def impulse_result(phase: Any, log: StepLog, options: Options,
                   charts: Charts | None = None) -> Result:
    """One impulse's working, with the state to keep (``rulesets.lnlt.play``; the chart
    results entered in it too)."""
    from referee.rulesets.lnlt import play as engine

    return engine.impulse_result(phase, log, options, charts)


def read_roster(path: Path) -> Roster:
    """A roster file: the roster's keys at the top, or a script with a [declaration]."""
    from referee.rulesets.lnlt.roster import read_roster as read

    return read(str(path))


def read_dct(path: Path) -> DamageTable:
    from referee.files import read_toml, validate
    from referee.rulesets.lnlt.roster import DamageTable

    text, raw = read_toml(path)
    return validate(DamageTable, raw, str(path), text)  # type: ignore[no-any-return]
