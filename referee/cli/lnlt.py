"""``referee phase lnlt``: the Lock 'n Load Tactical operations phase, impulse by impulse.

The phase lives in a game file: every impulse is one transaction, so a phase stopped at any
point (Ctrl-C, the end of the evening) resumes at the impulse it was on. Registered in
``referee.cli``; the heavy imports stay inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.catalog import t
from referee.cli import complete
from referee.cli.app import _guarded, app
from referee.cli.shared import (
    DiceMode,
    NoOddsFlag,
    OddsMode,
    OddsOpt,
    OptionOpt,
    SeedOpt,
    _console,
    _env,
    _odds_mode,
    _print_json,
    _prompt_console,
    file_option,
    helped,
)

if TYPE_CHECKING:

    from referee.context import Environment
    from referee.core.result import Result
    from referee.rulesets.lnlt.roster import DamageTable, Roster

STATE_OPTIONS = "options"


@app.command("phase", help=helped("phase"))
def phase(ctx: typer.Context,
          ruleset: Annotated[str, typer.Argument(help=t("cli.phase.arg.ruleset"), metavar="RULESET",
                                                     autocompletion=complete.rulesets)],
          game: Annotated[Path, file_option("--game", "cli.phase.opt.game")],
          roster: Annotated[Path | None, file_option("--roster", "cli.phase.opt.roster")] = None,
          dct: Annotated[Path | None, file_option("--dct", "cli.phase.opt.dct")] = None,
          impulses: Annotated[int | None, typer.Option(
              "--impulses", metavar="N", min=1, help=t("cli.phase.opt.impulses"))] = None,
          show: Annotated[bool, typer.Option("--show", help=t("cli.phase.opt.show"))] = False,
          restart: Annotated[bool, typer.Option("--restart",
                                                help=t("cli.phase.opt.restart"))] = False,
          dice: Annotated[DiceMode, typer.Option("--dice", help=t("cli.opt.dice"))] =
          DiceMode.typed,
          seed: SeedOpt = None,
          option: OptionOpt = None,
          odds: OddsOpt = OddsMode.compact,
          no_odds: NoOddsFlag = False,
          json_: Annotated[bool, typer.Option("--json", help=t("cli.opt.json"))] = False
          ) -> None:
    env = _env(ctx)
    with _guarded(env, json_):
        _phase(env, ruleset, game, roster, dct, impulses, show, restart, dice, seed,
               option or [], json_, _odds_mode(odds, no_odds))


def _phase(env: Environment, ruleset: str, game: Path, roster_file: Path | None,
           dct_file: Path | None, impulses: int | None, show: bool, restart: bool,
           dice: DiceMode,
           seed: int | None, option: list[str], json_: bool,
           odds: OddsMode = OddsMode.compact) -> None:
    """Odds (unless ``odds`` is off) show before each die and its percentile after it, as in
    ``referee attack``; with --json each impulse's odds are in its record."""
    import functools

    from referee import api
    from referee.cli.table import (
        _announce,
        _odds_records,
        _terminal_port,
        _whatif_show,
        show_code,
    )
    from referee.core.dice import KeyedDice, new_seed, usable_seed
    from referee.core.errors import GameFileError, UsageError
    from referee.core.options import parse_assignments, resolve_options
    from referee.core.port import resolve
    from referee.core.text import Msg
    from referee.game import open_game
    from referee.game.replay import impulse
    from referee.rulesets import find_ruleset
    from referee.rulesets.lnlt import play as engine

    info = find_ruleset(ruleset)
    if info.id != "lnl-tactical":
        raise UsageError(Msg.of("lnlt.cli.not_phase", ruleset=info.id))
    overrides = parse_assignments(option)
    resolve_options(info.option_specs(), overrides)  # a bad --option fails before anything
    roster = _read_roster(roster_file) if roster_file is not None else None
    if dct_file is not None:
        table = _read_dct(dct_file)
        if roster is None:
            raise UsageError(Msg.of("lnlt.cli.dct_needs_roster"))
        roster.damage_table = table
    from referee.game.record import History, ask_at_table, odds_records, prepare

    play = prepare(game, seed_given=seed is not None)
    chosen_seed: int | None = None
    if play.committed:  # a game made by ``game new``: each impulse's dice are the game's
        keyed = play.dice()
    else:
        chosen_seed = seed if seed is not None else new_seed()
        keyed = KeyedDice(usable_seed(chosen_seed))
    played: list[Result] = []
    played_odds: list[list[Any]] = []
    codes: list[str | None] = []  # each impulse's check code (a game made by game new)
    model = info.implementation().state_model()
    with open_game(game) as tx:
        saved = tx.state(info.id, model)
    if restart:
        if roster is None:
            raise UsageError(Msg.of("lnlt.cli.restart_needs_roster"))
        saved = {}
    phase = engine.load_state(saved)
    if show and saved.get(engine.STATE_KEY):
        phase, roster = None, None
    elif phase is not None and roster is not None:
        raise GameFileError(Msg.of("lnlt.error.roster_and_phase", file=str(game),
                                   n=phase.impulses))
    elif phase is None and roster is None:
        if saved.get(engine.STATE_KEY):
            raise GameFileError(Msg.of("lnlt.error.phase_over", file=str(game),
                                       reason=saved[engine.STATE_KEY].get("end_reason")))
        raise UsageError(Msg.of("lnlt.error.no_roster"))
    if not show:
        port = _terminal_port(env, keyed, auto_dice=dice is DiceMode.auto, json_=json_,
                              odds=odds, game=play)
        seen = 0
        shows_whatif = _whatif_show(env, port)
        _announce(env, chosen_seed, json_, play)
        if roster is None and (not json_ or env.prompts_apart):  # resuming: the phase first
            from referee.render.console import print_table

            for view in info.implementation().state_view(saved):
                print_table(_prompt_console(env), view)
        count = 0
        while impulses is None or count < impulses:
            # read, then ask with the file unlocked (another command may use the game file
            # meanwhile), then write only if nobody wrote in between, as an attack does
            history = History(info.id, play=play, ask=ask_at_table(port.inner))
            with open_game(game) as tx:
                if count:  # the next impulse: the game's next entry
                    play.next_entry(tx.next_number())
                state, revision = tx.state(info.id, model), tx.revision
                history.check(tx)
                keyed.attack = play.number if play.committed else keyed.attack
            kept = dict(state.get(STATE_OPTIONS, {})) if roster is None else {}
            kept.update(overrides)
            options = resolve_options(info.option_specs(), kept)
            port.reset()
            flow = _impulse_dice(env, play, keyed, port, history, kept, roster)
            if shows_whatif is not None:  # each option of a marked choice, from this impulse
                port.before_live = api.whatif(info, options, roster,
                                              functools.partial(dict, state), shows_whatif)
            try:
                phase, log = resolve(port, impulse(roster, state, options))
                result = engine.impulse_result(phase, log, options)
                history.complete(result, [(g.question_id, g.value) for g in port.given],
                                 odds_records(port)[seen:],
                                 {"kind": "phase", "options": kept, "answers": port.answers(),
                                  "roster": roster.model_dump(mode="json")
                                  if roster is not None else None})
                with open_game(game, owner=history.owner) as tx:
                    if tx.revision != history.revision(revision):
                        raise GameFileError(Msg.of("lnlt.error.phase_changed", file=str(game)))
                    tx.update_state(info.id, {**result.state_updates, STATE_OPTIONS: kept})
                    history.store(tx, "phase", result, chosen_seed)
            except BaseException as err:
                if flow is not None:
                    flow.abandon("interrupted" if isinstance(err, KeyboardInterrupt)
                                 else "failed")
                raise
            roster = None
            play.typed_then.clear()  # only the first impulse can redo an undone one
            played.append(result)
            records = _odds_records(port)
            if json_:
                played_odds.append(records[seen:])
            seen = len(records)
            if not json_:
                _print_steps(env, result)
                show_code(env, play, json_)
            else:
                codes.append(history.code)
            count += 1
            if phase.ended:
                break
    with open_game(game) as tx:
        state = tx.state(info.id, model)
    final = engine.summary(state, resolve_options(info.option_specs(),
                                                  state.get(STATE_OPTIONS, {})))
    if json_:
        from referee.render.json_out import document, result_json

        impulses_json = [result_json(r, o if odds != OddsMode.none else None)
                         for r, o in zip(played, played_odds, strict=True)]
        # with --show nothing is rolled: no seed to repeat (unless one was given)
        _print_json(env, document("phase", ruleset=info.id, seed=seed if show else chosen_seed,
                                  impulses=impulses_json, summary=result_json(final),
                                  check_codes=codes if play.committed else None))
        return
    from referee.render.console import print_message, print_table

    console = _console(env)
    for summary_table in final.tables:
        print_table(console, summary_table)
    print_message(console, Msg.of("result.outcome", outcome=final.outcome))


def _impulse_dice(env: Environment, play: Any, keyed: Any, port: Any, history: Any,
                  kept: dict[str, Any], roster: Any) -> Any:
    """An impulse of a game made by ``game new``: its dice wait for the pending entry and
    the opponent's word (``GamePlay.begin``), the overrides of its program rolls agreed at
    the table (``frontends.fixed``) are kept with it. ``None`` elsewhere."""
    if not play.committed:
        return None
    from referee.cli.table import _asked_word
    from referee.render.console import print_message

    keyed.begin(play.number)

    def say(msg: Any) -> None:
        print_message(_prompt_console(env), msg)

    if port.fixed is not None:  # each impulse keeps its own overrides
        port.fixed.overrides = history.overrides
    return play.begin(keyed, ruleset="lnl-tactical", command="phase",
                      source=_asked_word(port), options=kept,
                      declaration=roster.model_dump(mode="json") if roster is not None else None,
                      answers=port.answers, say=say)


def _print_steps(env: Environment, result: Result) -> None:
    from referee.render.console import print_result

    print_result(_console(env), result, outcome=False)


def _read_roster(path: Path) -> Roster:
    """A roster file: the roster's keys at the top, or a script with a [declaration]."""
    from referee.files import read_toml, validate
    from referee.rulesets.lnlt.roster import Roster

    text, raw = read_toml(path)
    if "declaration" in raw and isinstance(raw["declaration"], dict):
        return validate(Roster, raw["declaration"], str(path), text, ["declaration"])  # type: ignore[no-any-return]
    return validate(Roster, raw, str(path), text)  # type: ignore[no-any-return]


def _read_dct(path: Path) -> DamageTable:
    from referee.files import read_toml, validate
    from referee.rulesets.lnlt.roster import DamageTable

    text, raw = read_toml(path)
    return validate(DamageTable, raw, str(path), text)  # type: ignore[no-any-return]
