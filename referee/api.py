"""The Python API under the ``referee`` command. Each command is a few lines over these.

>>> from referee import api
>>> api.lookup("epic", "to-hit", "8").rows[0][0]
Shown(value=8, text='8+')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import (
    GameFileError,
    RefereeError,
    ScriptError,
    UnknownIdError,
    UsageError,
)
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.rulesets import RulesetInfo, find_ruleset

if TYPE_CHECKING:
    from referee.core.options import Options
    from referee.core.port import Port
    from referee.core.result import Result
    from referee.game.record import GamePlay

# The attack side (dice, options, ports, results) is imported inside the functions that use
# it, so that a lookup starts without it.


def lookup_tables(ruleset: str) -> Table:
    """The lookup tables a ruleset offers, as a table."""
    info = find_ruleset(ruleset)
    module = info.implementation()
    rows = []
    for lt in module.lookup_tables():
        flags = [f"--{f.name}" for f in lt.flags]
        rows.append((lt.id, lt.title, lt.key_help or Shown(None, "-"),
                     Shown(flags, " ".join(flags) or "-")))
    return Table(Msg.of("lookup.tables_title", ruleset=info.name),
                 tuple(Msg.of(f"lookup.col.{c}") for c in ("table", "title", "key", "flags")),
                 tuple(rows))


def ruleset_options(ruleset: str) -> list[dict[str, Any]]:
    """Every named reading and house rule of a ruleset (``--option NAME=VALUE``): its name,
    the values it takes, its default, the clause it serves and why, in the user's language."""
    from referee.catalog import render

    out = []
    for spec in find_ruleset(ruleset).option_specs():
        if spec.choices:
            values: list[Any] = list(spec.choices)
        elif isinstance(spec.default, bool):
            values = [True, False]
        else:
            values = []
        kind = ("path" if spec.path else "choice" if spec.choices else
                "bool" if isinstance(spec.default, bool) else
                "int" if isinstance(spec.default, int) else "text")
        out.append({"name": spec.name, "kind": kind, "values": values,
                    "default": spec.default, "clause": spec.clause,
                    "reason_text": render(spec.help)})
    return out


def options_table(ruleset: str) -> Table:
    """``ruleset_options`` as a table."""
    info = find_ruleset(ruleset)
    rows = []
    for option in ruleset_options(ruleset):
        values = (" | ".join(str(v).lower() for v in option["values"]) if option["values"]
                  else Msg.of(f"options.kind.{option['kind']}"))
        default = (str(option["default"]).lower() if option["default"] not in ("", None)
                   else "-")
        rows.append((option["name"], values, default, option["clause"] or "-",
                     option["reason_text"]))
    return Table(Msg.of("options.title", ruleset=info.name),
                 tuple(Msg.of(f"options.col.{c}") for c in
                       ("name", "values", "default", "clause", "reason")), tuple(rows))


def lookup_words(ruleset: str, words: Sequence[str]) -> tuple[str | None, str | None,
                                                                list[str]]:
    """The table, key and flags of ``referee lookup RULESET WORDS...``, with the flags
    anywhere: ``to-hit --cover 5`` reads as ``to-hit 5 --cover``. A flag of the table that
    takes a value (``--hindrance 3``) keeps the word after it; the rest of the words, in
    order, are the table, the key and any further keys (after the flags)."""
    words = list(words)
    named = next((w for w in words if not w.startswith("--")), None)
    tables = {lt.id: lt for lt in find_ruleset(ruleset).implementation().lookup_tables()}
    valued = ({f.name for f in tables[named].flags if f.value} if named in tables else set())
    flags: list[str] = []
    plain: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word.startswith("--"):
            name, has_value, value = word[2:].partition("=")
            if has_value and name in valued:  # --name=VALUE: as --name VALUE
                flags += [f"--{name}", value]
            else:
                flags.append(word)
            if not has_value and name in valued and at + 1 < len(words):
                at += 1
                flags.append(words[at])
        else:
            plain.append(word)
        at += 1
    table = plain[0] if plain else None
    key = plain[1] if len(plain) > 1 else None
    return table, key, [*flags, *plain[2:]]


def lookup(ruleset: str, table: str, key: str | None = None,
           flags: Sequence[str] = ()) -> Table:
    """One lookup table, or its row for ``key``; ``flags`` are the table's own (``--cover``)."""
    info = find_ruleset(ruleset)
    module = info.implementation()
    known = [lt.id for lt in module.lookup_tables()]
    if table not in known:
        raise UnknownIdError("table", table, known)
    return module.lookup(table, key, list(flags))


@dataclass
class AttackPlan:
    """Everything fixed before the first question: ruleset, options, declaration, seed.
    In a game made by ``game new`` (``game``), the dice come from the game's secret seed and
    the entry's number, and ``seed`` is ``None``."""

    info: RulesetInfo
    options: Options
    seed: int | None
    declaration: Any | None = None
    declaration_raw: Mapping[str, Any] | None = None
    option_overrides: Mapping[str, Any] = field(default_factory=dict)
    game: GamePlay | None = None

    def __post_init__(self) -> None:
        from referee.core.dice import KeyedDice, usable_seed

        if self.game is not None and self.game.committed:
            self.dice = self.game.dice()
        else:
            assert self.seed is not None
            self.dice = KeyedDice(usable_seed(self.seed))


def _game_seed(game: Path | None, seed: int | None) -> tuple[GamePlay | None, int | None]:
    """The game entry to be played (``None``: no game file) and the seed to roll from: none
    in a game made by ``game new``, whose dice come from its own seed."""
    from referee.core.dice import new_seed

    play = None
    if game is not None:
        from referee.game.record import prepare

        play = prepare(game, seed_given=seed is not None)
        if play.committed:
            return play, None
    return play, seed if seed is not None else new_seed()


def plan_attack(ruleset: str, *, seed: int | None = None, options: Sequence[str] = (),
                declaration_file: Path | None = None,
                declaration: Mapping[str, Any] | None = None,
                game: Path | None = None) -> AttackPlan:
    """Prepare an attack: ``options`` as ``NAME=VALUE``; the declaration from a file (its
    ``[declaration]`` table) or given directly; no declaration means it is asked for. With
    ``game``, the attack is the game file's next entry (see ``AttackPlan``)."""
    from referee.core.options import parse_assignments, resolve_options
    from referee.session import validate_declaration

    info = find_ruleset(ruleset)
    info.implementation()  # a ruleset that is not ready says so before any question
    overrides = parse_assignments(options)
    opts = resolve_options(info.option_specs(), overrides)
    raw: Mapping[str, Any] | None
    if declaration_file is not None:
        raw, validated = load_declaration(info, declaration_file)
    else:
        raw = declaration
        validated = (validate_declaration(info, raw, "<declaration>")
                     if raw is not None else None)
    play, chosen = _game_seed(game, seed)
    return AttackPlan(info, opts, chosen, validated, raw, overrides, play)


def load_declaration(info: RulesetInfo, path: Path) -> tuple[Mapping[str, Any], Any]:
    """A declaration file (a script holding only ``ruleset`` and ``[declaration]``): its
    table as written, and as the ruleset's declaration model."""
    from referee.script import load_script
    from referee.session import validate_declaration

    script = load_script(path)
    if script.declaration is None:
        raise ScriptError(str(path), "declaration", Msg.of("script.expected.declaration_table"))
    if find_ruleset(script.ruleset).id != info.id:
        raise ScriptError(str(path), "ruleset",
                          Msg.of("script.expected.same_ruleset", ruleset=info.id))
    if script.answers or script.options:
        raise ScriptError(str(path), "answers" if script.answers else "options",
                          Msg.of("script.expected.declaration_only"))
    return script.declaration, validate_declaration(info, script.declaration, str(path),
                                                    script.text, base=Path(path).parent)


def plan_script(path: str | Path, *, seed: int | None = None, options: Sequence[str] = (),
                auto_dice: bool = False, game: Path | None = None) -> tuple[AttackPlan, Any]:
    """Prepare a scripted run: the plan and the strict port that answers from the script.
    Dice the script does not give are an error, unless ``auto_dice`` or the script's
    ``roll_missing_dice = true`` let the seed roll them (in a game made by ``game new``, the
    game's dice roll them)."""
    from referee.core.options import (
        OptionValueError,
        from_folder,
        parse_assignments,
        resolve_options,
    )
    from referee.files import where
    from referee.frontends.answers import AnswerPort
    from referee.script import load_script
    from referee.session import validate_declaration

    script = load_script(path)
    try:
        info = find_ruleset(script.ruleset)
        info.implementation()
    except UsageError as err:
        raise ScriptError(script.path, where(script.text, ["ruleset"]), err.msg) from None
    from_cli = parse_assignments(options)
    resolve_options(info.option_specs(), from_cli)  # a bad --option is a usage error
    # paths in the script start at its folder; the command line wins
    folder = str(Path(script.path).parent)
    overrides: dict[str, Any] = {**from_folder(info.option_specs(), script.options, folder),
                                 **from_cli}
    try:
        opts = resolve_options(info.option_specs(), overrides)
    except (UnknownIdError, OptionValueError) as err:
        name = err.given if isinstance(err, UnknownIdError) else err.name
        field: list[str | int] = ["options", name] if name in script.options else ["options"]
        raise ScriptError(script.path, where(script.text, field), err.msg) from None
    validated = (validate_declaration(info, script.declaration, script.path, script.text,
                                      base=Path(script.path).parent)
                 if script.declaration is not None else None)
    # a script's own seed gives way to the game's dice; --seed is refused in a game
    play, chosen = _game_seed(game, seed)
    if chosen is not None and seed is None and script.seed is not None:
        chosen = script.seed
    plan = AttackPlan(info, opts, chosen, validated, script.declaration, overrides, play)
    port = AnswerPort(script.answers, plan.dice, file=script.path, text=script.text,
                      use_defaults=script.use_defaults,
                      roll_missing_dice=script.roll_missing_dice or auto_dice)
    return plan, port


def plan_resume(ruleset: str, path: Path) -> tuple[AttackPlan, list[tuple[str, Any]]]:
    """Prepare to resume an attack from its ``--record`` file: the plan as recorded (seed,
    options, declaration) and the answers given so far, in order."""
    from referee.core.options import from_folder, resolve_options
    from referee.files import where
    from referee.script import load_script
    from referee.session import validate_declaration

    info = find_ruleset(ruleset)
    info.implementation()
    script = load_script(path)
    try:
        recorded = find_ruleset(script.ruleset)
    except UsageError as err:
        raise ScriptError(script.path, where(script.text, ["ruleset"]), err.msg) from None
    if recorded.id != info.id:
        raise ScriptError(script.path, where(script.text, ["ruleset"]),
                          Msg.of("script.expected.same_ruleset", ruleset=info.id))
    # as in ``plan_script``: paths in the record start at its folder
    folder = Path(script.path).parent
    play = None
    if script.game is not None:  # an attack of a game made by ``game new``
        from referee.game.record import prepare

        game = Path(os.path.normpath(folder / script.game))
        play = prepare(game)
        if not play.committed or play.number != script.attack:
            raise GameFileError(Msg.of("game.error.resume_moved", file=str(game),
                                       record=script.path, attack=script.attack or "?"))
    elif script.seed is None:
        raise ScriptError(script.path, "seed", Msg.of("script.expected.resume_seed"))
    overrides = from_folder(info.option_specs(), script.options, str(folder))
    opts = resolve_options(info.option_specs(), overrides)
    validated = (validate_declaration(info, script.declaration, script.path, script.text,
                                      base=folder)
                 if script.declaration is not None else None)
    plan = AttackPlan(info, opts, None if play else script.seed, validated,
                      script.declaration, overrides, play)
    return plan, list(script.answers.items())


def _whatif(plan: AttackPlan, game: Path | None, show: Callable[[list[str]], None]) -> Any:
    """The what-if before a choice of an attack (the game's state read once, when first
    needed)."""
    state: list[Mapping[str, Any]] = []

    def state_now() -> Mapping[str, Any]:
        if not state:
            state.append(_game_state(plan.info, game) if game is not None else {})
        return state[0]

    return whatif(plan.info, plan.options, plan.declaration, state_now, show, seed=plan.seed)


def whatif(info: RulesetInfo, options: Options, declaration: Any | None,
           state: Callable[[], Mapping[str, Any]], show: Callable[[list[str]], None], *,
           seed: int | None = None) -> Any:
    """The what-if before a choice (``frontends.whatif``): each option walked on by
    ``probe`` from the answers so far, from ``state()`` (the state the attack, or the impulse
    of a phase, started from)."""
    from referee.frontends.whatif import WhatIf

    def walk(answers: Mapping[str, Any]) -> OddsRun:
        return probe(info, options, declaration, answers, seed=seed, state=state())

    return WhatIf(walk, show)


class RecordWriteError(UsageError):
    """The ``--record`` file could not be written at the end of a resolved attack: the
    result is kept here, so that it is shown before the error."""

    def __init__(self, msg: Msg, result: Result) -> None:
        super().__init__(msg)
        self.result = result


def play(plan: AttackPlan, port: Port, *, game: Path | None = None,
         record: Path | None = None, command: str = "attack",
         resume: Sequence[tuple[str, Any]] = (),
         show_state: Callable[[Sequence[Table]], None] | None = None,
         whatif: Callable[[list[str]], None] | None = None,
         ask_sides: bool = False) -> Result:
    """Resolve the attack through ``port``, going back as often as the player asks (see
    ``frontends.rewind``). ``resume``: answers to replay first (an interrupted attack's). With
    ``record``, every answer is written at once (atomically) as a script that ``referee run``
    replays exactly and ``referee attack --resume`` continues: an interruption (Ctrl-C, a
    closed terminal, a crash) loses at most the answer being typed. ``show_state`` is given
    the game file's state as tables before the first question (``--game``). ``whatif`` is
    given, before a choice whose options change how the attack may end, each option's end
    states (``frontends.whatif``). The game file's entry keeps the rolls, the sides
    (``ask_sides``: a formation's side not known yet is asked at the table) and what resolves
    the attack again (``referee.game.record``)."""
    from referee.frontends.rewind import RewindPort
    from referee.session import run_attack

    rewind = port if isinstance(port, RewindPort) else RewindPort(port, plan.dice)
    history = _history(plan, rewind, ask_sides) if game is not None else None
    if resume:
        rewind.preload(resume)
    if whatif is not None:
        rewind.before_live = _whatif(plan, game, whatif)
    recorder = None
    if record is not None:
        from referee.record import Recorder

        # before the first question: a destination that cannot take the record says so now
        recorder = Recorder(record, plan)
        recorder.write(rewind.answers(), complete=False)
        keep = recorder.keep

        def after_each_answer(_given: Any) -> None:
            keep(rewind.answers())

        rewind.on_change = after_each_answer
    try:
        result = run_attack(plan.info, rewind, plan.options, plan.declaration, game=game,
                            seed=plan.seed, command=command, show_state=show_state,
                            history=history)
        finish = getattr(rewind.inner, "finish", None)
        if finish is not None:
            finish()
    except (KeyboardInterrupt, RefereeError):
        if recorder is not None:
            recorder.keep(rewind.answers())
        raise
    if recorder is not None:
        failed = recorder.keep(rewind.answers(), complete=True)
        if failed is not None:
            raise RecordWriteError(failed, result)
    return result


def _history(plan: AttackPlan, rewind: Any, ask_sides: bool) -> Any:
    """The game-file part of the attack's log entry (``referee.game.record.History``)."""
    from referee.game.record import History, ask_at_table, attack_replay, odds_records, roster_sides

    history = History(plan.info.id, play=plan.game,
                      known_sides=roster_sides(plan.info.id, plan.declaration),
                      ask=ask_at_table(rewind.inner) if ask_sides else None)

    def collect() -> tuple[Any, Any, Any]:
        given = [(g.question_id, g.value) for g in rewind.given]
        return given, odds_records(rewind), attack_replay(plan, rewind.answers())

    history.collect = collect
    from referee.core.port import below

    seat = below(rewind, "progress")  # the phones' seat knows who attacks, once asked
    if seat is not None:
        history.attacking = lambda: seat.attacking
    return history


def attack(ruleset: str, answers: Mapping[str, Any], *, seed: int = 1,
           declaration: Mapping[str, Any] | None = None,
           options: Sequence[str] = ()) -> Result:
    """Resolve an attack with answers by question id (dice not answered are rolled from
    ``seed``): the programmatic front end, for tests and for other programs."""
    from referee.frontends.answers import AnswerPort

    plan = plan_attack(ruleset, seed=seed, options=options, declaration=declaration)
    port = AnswerPort(answers, plan.dice, roll_missing_dice=True)
    return play(plan, port)


@dataclass
class OddsRun:
    """What ``referee odds`` found: each roll's odds (``records``), the answers it assumed,
    and the roll where the walk stopped for want of dice (``None``: the attack finished)."""

    ruleset: str
    records: list[Any]
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
    from referee.core.options import from_folder, parse_assignments, resolve_options
    from referee.script import load_script

    info = find_ruleset(ruleset)
    info.implementation()
    given: dict[str, Any] = {}
    overrides: dict[str, Any] = {}
    file, text = "<odds>", ""
    raw = None
    if script is not None:
        loaded = load_script(script)
        if find_ruleset(loaded.ruleset).id != info.id:
            raise UsageError(Msg.of("odds.error.script_ruleset", given=loaded.ruleset,
                                    ruleset=info.id))
        given.update(loaded.answers)
        overrides.update(from_folder(info.option_specs(), loaded.options,
                                     str(Path(loaded.path).parent)))
        raw, file, text = loaded.declaration, loaded.path, loaded.text
        seed = loaded.seed if seed is None else seed
    overrides.update(parse_assignments(options))
    flags: dict[str, str] = {}
    for flag, pairs in (("--answer", answers), ("--vs", vs)):
        parsed = parse_assignments(pairs)
        given.update(parsed)
        flags.update(dict.fromkeys(parsed, flag))
    if declaration_file is not None:
        declaration = load_declaration(info, declaration_file)[1]
    else:
        from referee.session import validate_declaration

        declaration = (validate_declaration(info, raw, file, text,
                                            base=Path(file).parent if script else None)
                       if raw is not None else None)
    state: Mapping[str, Any] = {}
    if game is not None:
        if not game.is_file():
            raise UsageError(Msg.of("odds.error.no_game", file=str(game)))
        state = _game_state(info, game)
    run = probe(info, resolve_options(info.option_specs(), overrides), declaration, given,
                seed=seed, state=state, file=file, text=text, flags=flags)
    if not run.records and require_dice:
        from referee.frontends.display import answer_text

        assumed = ", ".join(f"{q.id}={answer_text(q, v)}" for q, v in run.assumed) or "-"
        raise UsageError(Msg.of("odds.error.no_dice", assumed=assumed))
    return run


def _game_state(info: RulesetInfo, game: Path) -> Mapping[str, Any]:
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
    import copy

    from referee.core.dice import KeyedDice
    from referee.frontends.probe import ProbePort, ProbeStop
    from referee.rulesets.base import AttackContext

    port = ProbePort(answers, KeyedDice(seed if seed is not None else 1), file=file,
                     text=text, flags=flags)
    stopped = None
    try:
        info.implementation().attack(AttackContext(
            port, options, copy.deepcopy(declaration), state=copy.deepcopy(dict(state or {}))))
    except ProbeStop as stop:
        stopped = str(stop)
    return OddsRun(info.id, port.records, port.assumed, stopped, set(port.answers.used))
