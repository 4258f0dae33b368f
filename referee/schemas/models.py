"""pydantic models of every document ``--json`` prints: the source of the shipped JSON
Schemas (``referee.schemas``). Only the schema generator and the tests import this module;
the commands build their documents as plain data (``referee.render.json_out``).

The contract every model keeps: a document carries ``schema_version`` and ``kind``; keys are
English ids in every language; numbers are numbers (an exact value is an ``Exact``, a need or
a modifier an integer); display text is only in fields named ``text`` or ``*_text`` (and in
``Message.text``), never in a field a program reads as data.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 2


CODE_PATTERN = r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- shared parts --------------------------------------------------------------------------

class Message(_Model):
    """A message: its catalogue id, the same in every language, and its text in the
    user's language (``--lang``)."""

    msg: str = Field(description="the catalogue id (English, the same in every language)")
    text: str = Field(description="the message in the user's language, for display")


class Exact(_Model):
    """An exact number (a probability, a mean, a percentile): a fraction in lowest terms and
    its float rounded to six places."""

    fraction: str = Field(pattern=r"^-?[0-9]+(/[0-9]+)?$",
                          description='"1/18", "0", "5/3": numerator/denominator, or an integer')
    float_: float = Field(alias="float", description="the fraction as a float, six places")


class Column(_Model):
    key: str = Field(description="the column's English key: the key of its cells in `rows`")
    text: str = Field(description="the column's header, for display")


class Table(_Model):
    """A table: rows as values by column key, and the same rows as shown."""

    title: Message
    clause: str | None = Field(description="the rule clause the table applies (E-9, C-5...)")
    columns: list[Column]
    rows: list[dict[str, Any]] = Field(description=(
        "each row by column key: a cell's value is a number, a boolean, null (nothing: "
        'shown as "-"), a string (an id or a name, the same in every language), an Exact, '
        "a Message, a list of these, or an object the table documents (Epic's to-hit roll: "
        '{"mode": "two_stage", "target": 6, "then": 5})'))
    rows_text: list[list[str]] = Field(description="the cells as the table shows them, "
                                                   "in column order, for display")


class _Document(_Model):
    schema_version: Literal[2] = Field(description="the version of the document's shape")


# --- referee rulesets ------------------------------------------------------------------------

class Ruleset(_Model):
    id: str
    aliases: list[str]
    name: Message
    edition: Message
    covers: Message
    available: list[str] = Field(description="what it offers: lookup, attack, odds...")
    tables: list[str] = Field(description="the ids of its lookup tables")


class RulesetsDocument(_Document):
    """``referee rulesets --json``: the rulesets there are."""

    kind: Literal["rulesets"]
    rulesets: list[Ruleset]


# --- referee lookup ---------------------------------------------------------------------------

class LookupDocument(_Document, Table):
    """``referee lookup RULESET TABLE [KEY] [FLAGS] --json``: one rule table (or its row for
    KEY), built from the table's data."""

    kind: Literal["lookup"]
    ruleset: str = Field(description="the ruleset's id")
    table: str = Field(description="the table's id")
    key: str | None = Field(description="the KEY as given, or null")
    flags: list[str] = Field(description="the table's flags as given (--cover, --defence 2)")


class LookupTablesDocument(_Document, Table):
    """``referee lookup RULESET --json``: the tables a ruleset offers (columns ``table``,
    ``title``, ``key``, ``flags``)."""

    kind: Literal["lookup-tables"]
    ruleset: str


# --- referee options --------------------------------------------------------------------------

class Option(_Model):
    name: str = Field(description="as --option NAME=VALUE takes it")
    kind: Literal["choice", "bool", "int", "text", "path"]
    values: list[Any] = Field(description="the values it takes (empty: any of its kind)")
    default: Any
    clause: str | None
    reason_text: str = Field(description="why the option exists, for display")


class OptionsDocument(_Document):
    """``referee options RULESET --json``: every named reading and house rule."""

    kind: Literal["options"]
    ruleset: str
    options: list[Option]


# --- odds -------------------------------------------------------------------------------------

class Outcome(_Model):
    value: int = Field(description="the roll's outcome (a count of hits, a total...)")
    label: Message | None = Field(description="the outcome's name when it is not a count")
    p: Exact = Field(description="its probability")
    at_least: Exact = Field(description="the probability of this outcome or more")


class EndState(_Model):
    label: Message
    kind: Literal["chance", "expected"] = Field(
        description="chance: `value` is a probability; expected: an expected count")
    value: Exact
    exact: bool = Field(description="false: estimated by a seeded simulation of `runs` runs")
    runs: int | None
    interval: list[float] | None = Field(
        description="the estimate's 95% interval [low, high]; null when exact")


class Actual(_Model):
    """The roll that followed the odds."""

    value: int
    percentile: Exact = Field(description="mid-rank percentile, 0 to 100")
    at_least: Exact = Field(description="the probability of this outcome or more")
    at_most: Exact = Field(description="the probability of this outcome or less")


class Odds(_Model):
    """A dice question's odds."""

    question: str = Field(description="the dice question's id (to-hit.autogun)")
    clause: str | None
    title: Message
    unit: Message = Field(description="what the outcome counts")
    exact: bool = Field(description="every number given here is exact (the distribution's "
                        "and the end states', where given)")
    distribution_exact: bool
    runs: int | None
    mean: Exact
    distribution: list[Outcome]
    end_states: list[EndState] | None = Field(description=(
        "how the attack may end; in a result, null at a later roll of the same attack (the "
        "same prediction updated, not worked out: --odds full gives every roll's)"))
    notes: list[Message] = Field(description="what the odds assume")
    actual: Actual | None = Field(description="the roll that followed; null when none was")


# --- results ------------------------------------------------------------------------------------

class Step(_Model):
    kind: Literal["input", "modifier", "roll", "outcome", "note", "warning"]
    clause: str | None
    msg: str = Field(description="the step's catalogue id")
    text: str = Field(description="the step as the working shows it, for display")
    data: dict[str, Any] = Field(description="the step's facts, by English key")


class ResultOutcome(_Model):
    msg: str
    text: str
    data: dict[str, Any] = Field(description="the outcome as data (hits, units lost...)")


class Fate(_Model):
    group_text: str = Field(description="the formation, hex or side, as shown")
    unit_text: str | None = Field(description="the unit, as shown; null: the group as a "
                                              "whole (its Blast markers, broken)")
    effects: list[Message] = Field(description="what the attack left it with; none: "
                                               "unharmed")


class Result(_Model):
    """A result: the options in force, the working and the outcome."""

    ruleset: str
    options: dict[str, Any] = Field(description="every option's value, by name")
    non_default_options: list[str]
    steps: list[Step]
    tables: list[Table] = Field(description=(
        "the tables of the working: a need, a count or a modifier is an integer, dice a "
        "list of faces ({\"successes\": 3} for a count typed alone), a list [] where the "
        "table shows -, nothing null (the attack's facts are in the steps' and the "
        "outcome's data too)"))
    outcome: ResultOutcome
    fates: list[Fate] = Field(description="what the attack did to each unit, by name "
                                          "(empty where it names none: a roll to hit only)")
    odds: list[Odds] | None = Field(None, description=(
        "each dice question's odds, in order; absent when the odds were not worked out "
        "(--no-odds, --odds none)"))


class GameWritten(_Model):
    """The game file entry a result was written as."""

    file: str
    number: int = Field(description="its number in the game")
    check_code: str = Field(pattern=CODE_PATTERN, description=(
        "the check code after it (12 Crockford base32 characters of the chain's head, "
        "grouped by four): game verify --check CODE proves the log up to it unchanged"))


class ResultDocument(_Document, Result):
    """``referee attack``, ``referee run``, ``referee epic-shoot`` with ``--json``."""

    kind: Literal["result"]
    seed: int | None = Field(description="the seed of the program's dice; null in a game "
                                         "made by game new (its dice come from the game's "
                                         "secret seed and the opponent's word)")
    game: GameWritten | None = Field(description="the entry of a game made by game new it "
                                                 "was written as; null: none")


class PhaseDocument(_Document):
    """``referee phase lnlt ... --json``: the impulses played, and the phase after them."""

    kind: Literal["phase"]
    ruleset: str
    seed: int | None = Field(description="the seed of the program's dice; null with --show "
                                         "(nothing is rolled) unless --seed was given")
    impulses: list[Result] = Field(description="each impulse played by this command")
    summary: Result = Field(description="the phase as the game file holds it now")
    check_codes: list[str | None] | None = Field(description=(
        "in a game made by game new, the check code after each impulse played; null "
        "elsewhere"))


# --- referee odds -------------------------------------------------------------------------------

class Assumed(_Model):
    question: str = Field(description="the question's id")
    text: str = Field(description="the question, for display")
    answer: Any = Field(description="the answer assumed, as data")
    answer_text: str = Field(description="the answer as shown")


class OddsDocument(_Document):
    """``referee odds RULESET ... --json``: the odds of an attack without rolling."""

    kind: Literal["odds"]
    ruleset: str
    assumed: list[Assumed] = Field(description="the answers taken at their defaults")
    odds: list[Odds]
    stopped_at: str | None = Field(description="the first roll the answers did not give")


class Changes(_Model):
    answers: list[str] = Field(description="ID=VALUE: --answer (A) or --vs (B)")
    options: list[str] = Field(description="NAME=VALUE: --option (A) or --vs-option (B)")
    declaration: str | None = Field(description="--vs-declaration FILE (B)")


class Variant(_Model):
    changes: Changes
    changes_text: str = Field(description="the changes as the table's header shows them")
    assumed: list[Assumed]
    odds: list[Odds]
    stopped_at: str | None


class WhatIfDocument(_Document):
    """``referee odds RULESET ... --vs ... --json``: two variants side by side. Each
    comparison table has the columns ``what`` (``{"row": "mean"}``, ``{"row": "at_least",
    "k": 3}`` or ``{"row": "end_state", "kind": ..., "label": Message}``), ``a``, ``b`` (an
    Exact, or null where the variant has no such roll) and ``diff`` (B minus A)."""

    kind: Literal["whatif"]
    ruleset: str
    a: Variant
    b: Variant
    compare: list[Table]


# --- referee waw-markers ---------------------------------------------------------------------

class Marker(_Model):
    id: int
    kind: str = Field(description="smoke, mines, chemical")
    hex: str
    level: int = Field(description="a Smoke marker's level (2, then 1); 0 for the others")
    placed_after_phase: int


class MarkerChange(_Model):
    marker: Marker
    after: str = Field(description="smoke-1, removed, stays")
    clause: str


class WawMarkersDocument(_Document):
    """``referee waw-markers --game FILE [--phase] [--clear] --json``."""

    kind: Literal["waw-markers"]
    ruleset: str
    phases: int = Field(description="marker-removal phases played so far")
    markers: list[Marker]
    changes: list[MarkerChange] = Field(description="what this command's --phase changed")


# --- referee game ------------------------------------------------------------------------------

class Game(_Model):
    """What ``game new`` wrote in a game file: anyone may see it; the seed only once it is
    revealed."""

    name: str
    sides: list[str] = Field(min_length=2, max_length=2, description="the two sides' names")
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$",
                            description="the SHA-256 (hex) of the seed's text")
    opponent_seed: str | None = Field(description=(
        "the opponent's text of a game made before format 3 (--opponent-seed), mixed into "
        "its program dice; null since"))
    created: str = Field(description="when the game was made (ISO 8601)")
    revealed: str | None = Field(description="when the seed was revealed (ISO 8601); null: "
                                             "not yet")
    holder: str = Field(description="the side that holds the game file (the other side "
                                    "gives each entry's word)")
    holder_dice: bool = Field(description="true: made with --holder-dice, no word: the "
                                          "holder could foresee the program's dice")
    seed: str | None = Field(description="the seed (32 hex digits); null until revealed")


class Override(_Model):
    """A program roll the players agreed to override at the table."""

    kind: Literal["typed", "back"] = Field(description="typed: dice typed over it; back: "
                                                        "gone back past it")
    question: str | None
    roll: int | None = Field(description="its number among the entry's program rolls")
    program: list[int] | None = Field(description="what the program rolled")
    typed: list[int] | None = Field(description="the dice typed instead (typed)")


class Redoes(_Model):
    id: int = Field(description="the undone entry's row")
    changed: list[str] = Field(description="options, declaration and the answers that "
                                           "differ from it")


class CheckedCode(_Model):
    code: str = Field(pattern=CODE_PATTERN)
    id: int = Field(description="the event's row")
    kind: str
    number: int | None


class GameDocument(_Document):
    """``referee game new FILE --json``, ``referee game reveal FILE --json``."""

    kind: Literal["game"]
    file: str
    game: Game


class LoggedRoll(_Model):
    """A roll as the game's log keeps it: the dice, typed or rolled by the program, and the
    odds known when it was rolled (rounded as kept; null when the odds were off)."""

    question: str = Field(description="the dice question's id (to-hit.autogun)")
    dice: list[int] | None = Field(description="the faces; null when only the count of "
                                               "successes was typed (=3)")
    successes: int | None
    label: Message | None = Field(description="what is shown after the faces (a Fate card's "
                                              "trigger), or null")
    dice_text: str = Field(description="the dice as the log shows them, for display")
    source: Literal["typed", "rolled", "retaken"]
    by_program: bool = Field(description="false: typed from real dice")
    title: Message | None = Field(description="the roll's odds title; null without odds")
    unit: str | None = Field(description="the message id of what the roll counts")
    value: int | None = Field(description="the roll's outcome as its odds count it")
    percentile: float | None = Field(description="mid-rank percentile, 0 to 100 (two places)")
    at_least: float | None = Field(description="the chance of this outcome or more")
    at_most: float | None = Field(description="the chance of this outcome or less")
    by: Literal["attacker", "defender"] | None = Field(description="who rolled it")
    higher_is_better: bool | None = Field(description="whether more is luckier for its roller")


class LogEntry(_Model):
    """An entry of a game file's log: an attack, an impulse, a phase of markers."""

    number: int | None = Field(description="its number in the game (null: an entry of a "
                                           "file of format 1)")
    id: int = Field(description="its row in the file (unique, never reused)")
    at: str = Field(description="when it was played (ISO 8601)")
    ruleset: str
    command: str = Field(description="attack, run, epic-shoot, phase, waw-markers")
    title: Message | None = Field(description="what it was (its declaring step)")
    outcome: Message | None
    undone: str | None = Field(description="when it was undone (ISO 8601); null: it stands")
    attacker_side: str | None
    defender_side: str | None
    history: bool = Field(description="false: written by a referee of format 1 (no "
                                      "state before it to check or put back)")
    rolls: list[LoggedRoll]
    check_code: str | None = Field(pattern=CODE_PATTERN, description=(
        "the check code after it; null: written before format 3"))
    scheme: int = Field(description="the scheme of its program dice: 2 (the seed, the "
                                    "number, the roll, the word), 1 (older games, --seed)")
    word: str | None = Field(description="the opponent's word of its dice; null: none (no "
                                         "program die, --holder-dice, or not read here)")
    overrides: list[Override] = Field(description="the program's rolls the players agreed "
                                                  "to override")
    redoes: Redoes | None = Field(description="the undone entry it redoes; null: none")


class GameEvent(_Model):
    """An event of a game file's chain other than an entry."""

    id: int = Field(description="its row in the file")
    kind: Literal["game", "migrated", "pending", "resume", "contribution", "abandon", "undo",
                  "reveal", "side"]
    number: int | None = Field(description="the entry it is about")
    at: str = Field(description="when it was written (ISO 8601)")
    check_code: str | None = Field(pattern=CODE_PATTERN)
    body: dict[str, Any] | None = Field(description=(
        "what it says: a pending entry's options, declaration and answers; a contribution's "
        "kind, roll and value; an abandon's pending entry, reason and answers; an undo's "
        "entry; the reveal's seed; a side's name, side and the side it was on (null: none)"))


class GameLogDocument(_Document):
    """``referee game log FILE --json``: every entry in order, undone ones included."""

    kind: Literal["game-log"]
    file: str
    game: Game | None = Field(description="null: a file made by --game alone")
    entries: list[LogEntry]
    events: list[GameEvent] = Field(description="the chain's events other than entries")


class GameUndoDocument(_Document):
    """``referee game undo FILE [--to N] --json``."""

    kind: Literal["game-undo"]
    file: str
    undone: list[LogEntry] = Field(description="the entries undone, the last first (empty: "
                                               "the confirmation was declined)")
    next_number: int = Field(description="the number the next entry takes")
    check_code: str | None = Field(pattern=CODE_PATTERN, description=(
        "the check code after the undo; null: nothing undone"))


class GameVerifyDocument(_Document):
    """``referee game verify FILE --json``: a file that does not hold together is an error
    document instead (exit code 5)."""

    kind: Literal["game-verify"]
    file: str
    entries: int = Field(description="the entries checked")
    committed: bool = Field(description="false: a file made by --game alone (no seed)")
    program_rolls: int | None = Field(description="the program rolls recomputed from the "
                                                  "revealed seed; null: not revealed yet")
    checks: list[CheckedCode] = Field(description="each --check code, with its event")
    overrides: int = Field(description="overrides of the program's rolls agreed (standing "
                                       "entries)")
    abandoned: int = Field(description="attacks abandoned after their pending entry")
    holder_dice: bool = Field(description="the holder rolled alone (--holder-dice)")
    verdict: Message


class WorkingStep(_Model):
    kind: Literal["roll", "outcome"]
    clause: str | None
    msg: str
    text: str


class ReportAttack(LogEntry):
    working: list[WorkingStep] = Field(description="the working in brief: its rolls and "
                                                   "what each step decided")


class NotableRoll(_Model):
    number: int = Field(description="the entry it was rolled in")
    question: str
    title: Message | None
    dice: list[int] | None
    dice_text: str
    luck: float = Field(description="its percentile from its roller's side (50: average)")
    chance: float = Field(description="the chance of a roll this good or better (the "
                                      "luckiest), this bad or worse (the unluckiest)")


class SideLuck(_Model):
    side: str | None = Field(description="the side's name; null: rolls whose side is not "
                                          "known")
    side_text: str = Field(description="the side as the report shows it")
    rolls: int
    mean: float | None = Field(description="the mean of its rolls' luck; null: no rolls")
    above: int = Field(description="rolls above the median")
    below: int = Field(description="rolls below the median")
    luckiest: NotableRoll | None
    unluckiest: NotableRoll | None
    expected_destroyed: float | None = Field(
        description="the units the odds expected its attacks to destroy, where they knew; "
                    "null: never known")
    destroyed: int | None = Field(description="the units those attacks destroyed")
    attacks_known: int = Field(description="the attacks both are known for")


class GameReportDocument(_Document):
    """``referee game report FILE --json``: the battle report as data (undone entries are
    left out; they are in ``game log``)."""

    kind: Literal["game-report"]
    file: str
    name: str
    sides: list[str]
    commitment: str | None
    seed: str | None = Field(description="null until revealed")
    undone: int = Field(description="the entries undone, left out")
    rolls: int = Field(description="the rolls counted for a side")
    attacks: list[ReportAttack]
    luck: list[SideLuck]


# --- what the game keeps besides the rulesets' states (issue 27) -----------------------------

class KeptChart(_Model):
    number: int = Field(description="its number in the list (--set N=VALUE, --remove N)")
    ruleset: str
    chart: str = Field(description="the chart's id (waw.he-effect, lnlt.dct, cc.vp...)")
    row: str = Field(description="the row the chart reads (a unit's kind and morale...)")
    column: str = Field(description="the column or die it reads (first, a total...)")
    answer: str | int | bool = Field(description="the answer, as a script gives it")
    answer_text: str
    what_text: str = Field(description="what the chart reads, as a player reads it")
    at: int | None = Field(description="the game entry it was entered at")


class ChartChange(_Model):
    chart: str
    row: str
    column: str
    before: str | int | bool | None = Field(description="null: a new answer")
    after: str | int | bool | None = Field(description="null: removed")


class GameChartsDocument(_Document):
    """``referee game charts FILE --json``: the answers read off the players' charts that
    the game keeps, and what the command changed."""

    kind: Literal["game-charts"]
    file: str
    charts: list[KeptChart]
    changes: list[ChartChange]


class KeptUnit(_Model):
    name_text: str
    profile_text: str = Field(description="what it is, as a player reads it")
    state_text: str | None = Field(description="its state; null: as typed, unharmed")


class KeptGroup(_Model):
    ruleset: str
    name_text: str = Field(description="the formation, hex or platoon")
    side: str | None = Field(description="its side in the game; null: not known")
    state: list[Message] = Field(description="what the group itself carries (Blast "
                                             "markers, broken, Pinned Down)")
    units: list[KeptUnit]


class GameRosterDocument(_Document):
    """``referee game roster FILE --json``: the armies the game keeps, and what the command
    brought in or wrote."""

    kind: Literal["game-roster"]
    file: str
    groups: list[KeptGroup]
    imported: int | None = Field(description="the entry that brought a roster in (--import)")
    exported: str | None = Field(description="the ruleset whose roster --export wrote")


# --- errors -----------------------------------------------------------------------------------

class ErrorDocument(_Document):
    """Any command's error under ``--json``: one document on standard error instead of the
    ``error: ...`` line; the exit code is the same (see docs/promises.md)."""

    kind: Literal["error"]
    exit_code: int
    msg: str = Field(description="the message's catalogue id (cli.usage.* for a command "
                                 "line Typer could not parse)")
    text: str = Field(description="the message in the user's language")
    file: str | None = Field(description="the file the error is in, where there is one")
    line: int | None
    column: int | None
    field: str | None = Field(description="the field in the file (declaration.action)")
    reason: Message | None = Field(description="what the file's field should hold")
    hint: Message | None = Field(description="what to do next (how to resume)")


MODELS: dict[str, type[BaseModel]] = {
    "rulesets": RulesetsDocument, "lookup": LookupDocument,
    "lookup-tables": LookupTablesDocument, "options": OptionsDocument,
    "result": ResultDocument, "odds": OddsDocument, "whatif": WhatIfDocument,
    "phase": PhaseDocument, "waw-markers": WawMarkersDocument, "game": GameDocument,
    "game-log": GameLogDocument, "game-undo": GameUndoDocument,
    "game-verify": GameVerifyDocument, "game-report": GameReportDocument,
    "game-charts": GameChartsDocument, "game-roster": GameRosterDocument,
    "error": ErrorDocument}
"""The model of each document kind."""


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a document kind, as shipped."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            **MODELS[kind].model_json_schema(by_alias=True)}
