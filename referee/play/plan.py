"""Planning an attack: everything fixed before its first question, read in one place.

Every way into an attack comes through ``plan``: the table's ``attack`` and ``epic-shoot``
(everything from the command line), ``run`` (a script), ``attack --resume`` (a record) and
``odds`` (a script read for its declaration, options, answers and seed). Each step is written
once: the ruleset, the options (a file's, then the command line's), the declaration, and the
game's entry with the seed. What differs between them is said by ``Reads``.

Seams for what comes next: armies kept in the game file are read here, before the first
question (the game's entry, ``GamePlay``, is prepared in ``_entry``); the dice an attack rolls
are made by ``attack_dice``, called when the port stack is built (``referee.play.stack``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import GameFileError, ScriptError, UnknownIdError, UsageError
from referee.core.text import Msg
from referee.rulesets import RulesetInfo, find_ruleset

if TYPE_CHECKING:
    from referee.core.dice import KeyedDice
    from referee.core.options import Options
    from referee.frontends.answers import AnswerPort
    from referee.game.entry import GamePlay
    from referee.script import Script


class Reads(Enum):
    """What a plan is read from besides the command line."""

    COMMAND_LINE = "command_line"  # attack, epic-shoot, the Python API
    SCRIPT = "script"  # run FILE: the script names the ruleset and answers
    RECORD = "record"  # attack --resume FILE: the seed, options and declaration recorded
    ODDS = "odds"  # odds --script FILE: a script's declaration, options, answers and seed


@dataclass
class AttackPlan:
    """Everything fixed before the first question: ruleset, options, declaration, seed, the
    game's entry and the file the plan was read from (``source``: a script or a record). In a
    game made by ``game new`` (``game``), the dice come from the game's secret seed and the
    entry's number, and ``seed`` is ``None``."""

    info: RulesetInfo
    options: Options
    seed: int | None
    declaration: Any | None = None
    declaration_raw: Mapping[str, Any] | None = None
    option_overrides: Mapping[str, Any] = field(default_factory=dict)
    game: GamePlay | None = None
    source: Script | None = None

    @cached_property
    def dice(self) -> KeyedDice:
        """The dice of this attack (``attack_dice``), made once, when first needed: every
        port that rolls for it rolls these."""
        return attack_dice(self)

    def source_answers(self) -> list[tuple[str, Any]]:
        """The answers of the file the plan was read from, in order (a record's: the answers
        given before it was interrupted)."""
        return list(self.source.answers.items()) if self.source is not None else []


def attack_dice(plan: AttackPlan) -> KeyedDice:
    """The dice source of an attack: in a game made by ``game new``, the game's dice for the
    entry's number (``EntryDice``: they ask the opponent's contribution when their first die
    is drawn, after the pending entry is written: ``game.entry.GamePlay.begin``); else the
    seed's. The one place an attack's dice are made."""
    from referee.core.dice import KeyedDice, usable_seed

    if plan.game is not None and plan.game.committed:
        return plan.game.dice()
    assert plan.seed is not None
    return KeyedDice(usable_seed(plan.seed))


def plan(ruleset: str | None = None, *, reads: Reads = Reads.COMMAND_LINE,
         file: str | Path | None = None, seed: int | None = None,
         options: Sequence[str] = (), declaration_file: Path | None = None,
         declaration: Mapping[str, Any] | None = None,
         game: Path | None = None) -> AttackPlan:
    """Plan an attack of ``ruleset`` (``None``: the script ``file`` names it). ``options`` as
    ``NAME=VALUE`` win over the file's; the declaration comes from ``declaration_file`` (its
    ``[declaration]`` table), else ``declaration`` as given, else the file's, else it is
    asked. With ``game``, the attack is the game file's next entry (never with ``ODDS``,
    which reads a game's state only: ``referee.play.odds``)."""
    info = _named(ruleset) if ruleset is not None else None
    from referee.script import load_script

    script = load_script(file) if file is not None else None
    info = _ruleset(info, script, reads)
    overrides = _overrides(info, options, script)
    opts = _options(info, overrides, script, reads)
    raw, validated = _declaration(info, script, declaration_file, declaration)
    entry, chosen = _entry(game, seed, script, reads)
    return AttackPlan(info, opts, chosen, validated, raw, overrides, entry, script)


# --- the steps, each written once ----------------------------------------------------------

def _named(ruleset: str) -> RulesetInfo:
    info = find_ruleset(ruleset)
    info.implementation()  # a ruleset that is not ready says so before any question
    return info


def _ruleset(info: RulesetInfo | None, script: Script | None, reads: Reads) -> RulesetInfo:
    """The ruleset: the one named on the command line, which a file read must be of, or the
    one the script names."""
    from referee.files import where

    if script is None:
        assert info is not None
        return info
    if info is None:  # run FILE: the script names it
        try:
            return _named(script.ruleset)
        except UsageError as err:
            raise ScriptError(script.path, where(script.text, ["ruleset"]), err.msg) from None
    if reads is Reads.ODDS:
        if find_ruleset(script.ruleset).id != info.id:
            raise UsageError(Msg.of("odds.error.script_ruleset", given=script.ruleset,
                                    ruleset=info.id))
        return info
    try:
        recorded = find_ruleset(script.ruleset)
    except UsageError as err:
        raise ScriptError(script.path, where(script.text, ["ruleset"]), err.msg) from None
    if recorded.id != info.id:
        raise ScriptError(script.path, where(script.text, ["ruleset"]),
                          Msg.of("script.expected.same_ruleset", ruleset=info.id))
    return info


def _overrides(info: RulesetInfo, options: Sequence[str],
               script: Script | None) -> dict[str, Any]:
    """The options as given: the file's (a path in it starts at its folder), then the command
    line's, which win. A bad ``--option`` is the command line's mistake, said first."""
    from referee.core.options import from_folder, parse_assignments, resolve_options

    from_cli = parse_assignments(options)
    if script is None:
        return from_cli
    resolve_options(info.option_specs(), from_cli)
    folder = str(Path(script.path).parent)
    return {**from_folder(info.option_specs(), script.options, folder), **from_cli}


def _options(info: RulesetInfo, overrides: Mapping[str, Any], script: Script | None,
             reads: Reads) -> Options:
    """The options resolved; a script's bad option names the script's line (``run``)."""
    from referee.core.options import OptionValueError, resolve_options

    if script is None or reads is not Reads.SCRIPT:
        return resolve_options(info.option_specs(), overrides)
    try:
        return resolve_options(info.option_specs(), overrides)
    except (UnknownIdError, OptionValueError) as err:
        from referee.files import where

        name = err.given if isinstance(err, UnknownIdError) else err.name
        at: list[str | int] = ["options", name] if name in script.options else ["options"]
        raise ScriptError(script.path, where(script.text, at), err.msg) from None


def _declaration(info: RulesetInfo, script: Script | None, declaration_file: Path | None,
                 declaration: Mapping[str, Any] | None
                 ) -> tuple[Mapping[str, Any] | None, Any | None]:
    """The declaration as written and as the ruleset's model: a declaration file's, else the
    one given, else the file's (a roster it names is found from its folder), else none (the
    ruleset asks for it)."""
    if declaration_file is not None:
        return load_declaration(info, declaration_file)
    if declaration is not None:
        return declaration, validate_declaration(info, declaration, "<declaration>")
    if script is not None and script.declaration is not None:
        return script.declaration, validate_declaration(
            info, script.declaration, script.path, script.text, base=Path(script.path).parent)
    return None, None


def _entry(game: Path | None, seed: int | None, script: Script | None,
           reads: Reads) -> tuple[GamePlay | None, int | None]:
    """The game entry to be played (``None``: no game file) and the seed to roll from: none
    in a game made by ``game new``, whose dice come from its own seed. A script's seed gives
    way to the command line's and to a game's; a record's is the seed it was played with."""
    from referee.core.dice import new_seed

    if reads is Reads.ODDS:  # nothing is rolled but the dice a script says to roll
        return None, seed if seed is not None or script is None else script.seed
    if reads is Reads.RECORD:
        assert script is not None
        return _recorded_entry(script)
    entry = None
    if game is not None:
        from referee.game.entry import prepare

        entry = prepare(game, seed_given=seed is not None)
        if entry.committed:
            return entry, None
    if seed is not None:
        return entry, seed
    if script is not None and script.seed is not None:
        return entry, script.seed
    return entry, new_seed()


def _recorded_entry(record: Script) -> tuple[GamePlay | None, int | None]:
    """A record's attack: of a game made by ``game new`` (still that game's next entry), or
    of a seed."""
    import os

    if record.game is not None:
        from referee.game.entry import prepare

        game = Path(os.path.normpath(Path(record.path).parent / record.game))
        entry = prepare(game, resume=record.attack)
        if not entry.committed or entry.number != record.attack:
            raise GameFileError(Msg.of("game.error.resume_moved", file=str(game),
                                       record=record.path, attack=record.attack or "?"))
        if entry.resume is not None:
            _same_as_kept(record, entry)
        return entry, None
    if record.seed is None:
        raise ScriptError(record.path, "seed", Msg.of("script.expected.resume_seed"))
    return None, record.seed


def _same_as_kept(record: Script, entry: GamePlay) -> None:
    """A record that takes up an abandoned attack of a game says what the game kept of it:
    its declaration and, first, the answers it was abandoned with (its program rolls are
    recomputed from the game as the record is replayed, never compared here)."""
    from referee.core.text import jsonable
    from referee.game import open_game
    from referee.game.pending import abandoned_answers

    assert entry.resume is not None
    kept = entry.resume.body or {}
    with open_game(entry.file) as tx:
        answers = abandoned_answers(tx, entry.resume)

    def plain(pairs: Any) -> list[Any]:
        return [[q, "program" if isinstance(a, dict) and "rolled" in a else a]
                for q, a in pairs]

    given = [[q, jsonable(a)] for q, a in record.answers.items()]
    if (jsonable(record.declaration) != kept.get("declaration")
            or plain(given[:len(answers)]) != plain(answers)):
        raise ScriptError(record.path, "answers",
                          Msg.of("game.error.resume_answers", file=str(entry.file),
                                 attack=entry.number))


# --- declarations ---------------------------------------------------------------------------

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


def load_declaration(info: RulesetInfo, path: Path) -> tuple[Mapping[str, Any], Any]:
    """A declaration file (a script holding only ``ruleset`` and ``[declaration]``): its
    table as written, and as the ruleset's declaration model."""
    from referee.script import load_script

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


def script_answerer(plan: AttackPlan, *, auto_dice: bool = False) -> AnswerPort:
    """The strict answerer of a script's plan (``run``): its answers by question id. Dice
    the script does not give are an error, unless ``auto_dice`` or the script's
    ``roll_missing_dice = true`` let the plan's dice roll them."""
    from referee.frontends.answers import AnswerPort

    script = plan.source
    assert script is not None
    return AnswerPort(script.answers, plan.dice, file=script.path, text=script.text,
                      use_defaults=script.use_defaults,
                      roll_missing_dice=script.roll_missing_dice or auto_dice)
