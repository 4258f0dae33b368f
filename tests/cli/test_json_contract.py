"""The JSON contract (docs/json.md): every document ``--json`` prints
validates against the shipped JSON Schema of its kind, every transcript's JSON output
included; keys and values are the same in every language (display text only in ``text`` and
``*_text`` fields); lookups give their table's data, not its rendered cells, and so do the
tables of every result (each attack, run and phase of the transcripts, and every script of
``transcripts/scripts`` run with ``--json`` and in process); errors under
``--json`` are one JSON document on standard error with the exit code unchanged; the shipped
schemas are the ones the models generate."""

from __future__ import annotations

import functools
import io
import json
import re
import shlex
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from referee.api import plan_script, play
from referee.catalog import DEFAULT_LANG
from referee.cli import app
from referee.cli.app import wants_json
from referee.context import Environment
from referee.core.table import NOTHING, Shown, Table, as_need
from referee.core.text import Msg
from referee.exit_codes import ExitCode
from referee.rulesets import all_rulesets, find_ruleset
from referee.schemas import FOLDER, KINDS, schema_path
from referee.start import load_app, split_lang
from tests.support import ROOT
from tests.support.transcripts import (
    PROMPT,
    Command,
    commands,
    transcript,
    transcript_files,
)


@functools.cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_path(kind).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate(doc: Any) -> str:
    """``doc`` is a document of a known kind and valid by its schema; its kind."""
    assert isinstance(doc, dict), doc
    assert doc.get("schema_version") == 2, doc.get("schema_version")
    kind = doc.get("kind")
    assert kind in KINDS, kind
    errors = sorted(validator(kind).iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return str(kind)


def data_only(doc: Any) -> Any:
    """``doc`` without its display text (``text`` and ``*_text`` fields)."""
    if isinstance(doc, dict):
        return {k: data_only(v) for k, v in doc.items()
                if k != "text" and not k.endswith("_text")}
    if isinstance(doc, list):
        return [data_only(v) for v in doc]
    return doc


def documents(stdout: str, stderr: str, code: int) -> list[Any]:
    """What a ``--json`` command printed: its document on standard output (nothing else
    there), and on failure one error document on standard error with the exit code."""
    docs = []
    if stdout.strip() or code == 0:
        docs.append(json.loads(stdout))
    if code:
        error = json.loads(stderr)
        assert error["kind"] == "error" and error["exit_code"] == code, error
        docs.append(error)
    else:
        assert stderr == "", stderr
    return docs


# --- the shipped schemas ------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_the_shipped_schema_is_the_one_its_model_generates(kind: str) -> None:
    from referee.schemas.__main__ import text

    assert schema_path(kind).read_text(encoding="utf-8") == text(kind), (
        f"{schema_path(kind).name} is stale: run python -m referee.schemas")
    validator(kind)  # and a valid JSON Schema


def test_every_schema_file_is_of_a_document_kind() -> None:
    assert sorted(p.name for p in FOLDER.glob("*.json")) == sorted(
        f"{k}.schema.json" for k in KINDS)


# --- every transcript's JSON --------------------------------------------------------------

def _json_commands(path: Path) -> list[Command]:
    return [c for c in commands(path.read_text(encoding="utf-8"))
            if wants_json(shlex.split(c.line))]


JSON_FILES = [p for p in transcript_files(ROOT) if _json_commands(p)]


def _own_language(command: Command) -> str:
    return split_lang(shlex.split(command.line)[1:])[0] or DEFAULT_LANG


@functools.cache
def replayed(path: Path, lang: str) -> tuple[tuple[str, Any], ...]:
    """Every ``--json`` command of a transcript in ``lang`` (from the state the commands
    before it left), with its documents: in the command's own language, the transcript's
    replay itself."""
    transcript_ = transcript(path)
    out = []
    for i, command in enumerate(transcript_.commands):
        if not wants_json(shlex.split(command.line)):
            continue
        output = (transcript_.output(i) if lang == _own_language(command)
                  else transcript_.variant_kept(i, lang=lang))
        for doc in documents(output.stdout, output.stderr, output.code):
            out.append((command.line, doc))
    return tuple(out)


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_json_output_of_the_transcripts_validates(path: Path) -> None:
    for lang in ("en", "ru"):
        shown = replayed(path, lang)
        assert len(shown) >= len(_json_commands(path))
        for line, doc in shown:
            try:
                validate(doc)
            except AssertionError as err:
                raise AssertionError(f"{path.name} ({lang}): $ {line}\n{err}") from None


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_language_changes_only_the_display_text(path: Path) -> None:
    english, russian = replayed(path, "en"), replayed(path, "ru")
    assert [line for line, _ in english] == [line for line, _ in russian]
    for (line, en), (_, ru) in zip(english, russian, strict=True):
        assert data_only(en) == data_only(ru), f"$ {line}: data differs between en and ru"
    assert any(en != ru for (_, en), (_, ru) in zip(english, russian, strict=True))


def test_the_transcripts_show_every_document_kind() -> None:
    shown = {doc["kind"] for path in JSON_FILES for _, doc in replayed(path, "en")}
    assert shown == set(KINDS)
    assert sum(len(_json_commands(p)) for p in JSON_FILES) >= 19


# --- lookups: the table's data ------------------------------------------------------------

def invoke(args: list[str], **env: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    environment = Environment(stdin=io.StringIO(), stdout=out, stderr=err,
                              stdin_isatty=False, stdout_isatty=False, color=False, **env)
    result = CliRunner().invoke(app, args, obj=environment, catch_exceptions=False)
    return result.exit_code, out.getvalue() + result.stdout, err.getvalue() + result.stderr


def in_language(lang: str, args: list[str]) -> tuple[int, str, str]:
    runner_app = load_app(lang)
    try:
        out, err = io.StringIO(), io.StringIO()
        env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=False,
                          stdout_isatty=False, color=False)
        result = CliRunner().invoke(runner_app, args, obj=env, catch_exceptions=False)
        return result.exit_code, out.getvalue() + result.stdout, err.getvalue() + result.stderr
    finally:
        load_app("en")


LOOKUPS = [
    "epic to-hit", "epic to-hit 8", "epic to-hit 5 --cover --double", "epic to-hit 1",
    "epic modifiers", "epic actions", "epic barrage", "epic barrage 7", "epic barrage 25",
    "epic cover-saves", "epic fire-arcs",
    "cc targeting", "cc targeting 5 --hindrance 2", "cc fire-odds", "cc fire-odds 3",
    "cc triggers", "cc triggers germany", "cc deck germany --seed 3",
    "lnlt ops-complete", "lnlt ops-complete mg", "lnlt ops-complete mg --fp 5 --moved",
    "lnlt phase-end", "lnlt phase-end 1", "lnlt phase-end 3",
    "waw missions", "waw he-odds 2 4+ --defence 1", "waw smoke-fire 4", "waw smoke-fire 4 "
    "--adjacent --neighbour", "waw smoke-fire 6 --neighbour --option smoke-penalty=all-fire",
    "waw move-cost 3 --chemical", "waw effects",
    "fow allocation-rules", "fow allocation-rules F-6",
]
NUMBER_AS_TEXT = re.compile(r"^(|-|[+-]?[0-9]+([+%°]|/[0-9]+|\.[0-9]+%?)?|[0-9]+-[0-9]+|=[0-9]+"
                            r"|[0-9]+([ →]+[0-9]+)+)$")
"""A cell's text where its value should be: nothing (``""``, ``-``), a number, a need, a
modifier, a percentage, a fraction, a range, dice (``5 6 2``, ``6 6 → 4 3``, ``=3``)."""


def _strings(item: Any) -> list[str]:
    if isinstance(item, str):
        return [item]
    if isinstance(item, dict):
        # (an exact number's fraction is text by design)
        return [s for k, v in item.items() if k not in ("text", "fraction")
                for s in _strings(v)]
    if isinstance(item, list):
        return [s for v in item for s in _strings(v)]
    return []


def numbers_as_text(rows: list[dict[str, Any]], ids: tuple[str, ...] = ()) -> list[str]:
    """The cells of ``rows`` written as text where a value belongs (``ids``: the columns
    whose strings are ids that may look like numbers)."""
    return [f"{key}={text!r}" for row in rows for key, cell in row.items() if key not in ids
            for text in _strings(cell) if NUMBER_AS_TEXT.match(text)]


def test_the_lookups_cover_every_table() -> None:
    named = {(words.split()[0], words.split()[1]) for words in LOOKUPS}
    for info in all_rulesets():
        alias = {"epic-armageddon": "epic", "combat-commander": "cc", "lnl-tactical": "lnlt",
                 "world-at-war": "waw", "flames-of-war": "fow"}[info.id]
        for table in info.implementation().lookup_tables():
            assert (alias, table.id) in named, f"no JSON case for {alias} {table.id}"


@pytest.mark.parametrize("words", LOOKUPS)
def test_lookup_json_is_the_tables_data_in_every_language(words: str) -> None:
    code, out, err = invoke(["lookup", *words.split(), "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert validate(doc) == "lookup"
    keys = [c["key"] for c in doc["columns"]]
    assert all(list(row) == keys for row in doc["rows"])
    assert all(len(row) == len(keys) for row in doc["rows_text"])
    shown_as_text = numbers_as_text(doc["rows"])
    assert not shown_as_text, f"numbers written as text in the rows: {shown_as_text}"
    code, out_ru, _ = in_language("ru", ["lookup", *words.split(), "--json"])
    assert code == 0
    assert data_only(json.loads(out_ru)) == data_only(doc)


@pytest.mark.parametrize("alias", ["epic", "cc", "lnlt", "waw", "fow"])
def test_the_list_of_a_rulesets_tables_is_a_document_too(alias: str) -> None:
    code, out, _ = invoke(["lookup", alias, "--json"])
    doc = json.loads(out)
    assert code == 0 and validate(doc) == "lookup-tables"
    assert [c["key"] for c in doc["columns"]] == ["table", "title", "key", "flags"]
    assert all(isinstance(row["flags"], list) for row in doc["rows"])


@pytest.mark.clause("E-9")
def test_epic_to_hit_json_gives_the_need_and_the_exact_chance() -> None:
    code, out, _ = invoke(["lookup", "epic", "to-hit", "8", "--json"])
    assert code == 0
    doc = json.loads(out)
    assert doc["rows"] == [{"need": 8, "roll": {"mode": "two_stage", "target": 6, "then": 5},
                            "chance": {"fraction": "1/18", "float": 0.055556},
                            "percent": {"fraction": "1/18", "float": 0.055556}}]
    assert doc["rows_text"] == [["8+", "a 6, then 5+ on a second die", "1/18", "5.6%"]]
    assert (doc["ruleset"], doc["table"], doc["key"], doc["flags"]) == (
        "epic-armageddon", "to-hit", "8", [])


@pytest.mark.clause("E-8")
def test_epic_modifiers_json_gives_ids_and_signed_integers() -> None:
    _, out, _ = invoke(["lookup", "epic", "modifiers", "--json"])
    rows = {row["modifier"]: row["value"] for row in json.loads(out)["rows"]}
    assert rows["cover"] == -1 and rows["ignore_cover"] == 0
    assert all(isinstance(v, int) for v in rows.values())


@pytest.mark.clause("W-6")
def test_waw_smoke_fire_json_gives_the_need_as_a_number_or_none() -> None:
    _, out, _ = invoke(["lookup", "waw", "smoke-fire", "4", "--adjacent", "--json"])
    (row,) = json.loads(out)["rows"]
    assert (row["base"], row["modifier"], row["need"]) == (4, 1, 5)
    assert row["sight"] == "open"


@pytest.mark.clause("C-5")
def test_cc_fire_odds_json_gives_exact_chances_that_sum_to_one() -> None:
    _, out, _ = invoke(["lookup", "cc", "fire-odds", "--json"])
    for row in json.loads(out)["rows"]:
        assert isinstance(row["difference"], int)
        assert sum(Fraction(row[k]["fraction"]) for k in ("beats", "tie", "holds")) == 1


# --- results: the tables of the working hold values too -----------------------------------

RESULT_COMMANDS = ("attack", "run", "epic-shoot", "phase")
HEX_IDS = ("hex",)
"""The one deliberate exception: a hex is an id (World at War's ``0805`` keeps its leading
zero), not a number."""


def _results_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    if doc["kind"] == "result":
        return [doc]
    if doc["kind"] == "phase":
        return [*doc["impulses"], doc["summary"]]
    return []


def _as_json(command: Command) -> Command | None:
    """A transcript's attack, run or phase shown as text, as the same command with
    ``--json`` (``None`` for any other command)."""
    args = shlex.split(command.line)
    words = [a for a in args[1:] if not a.startswith("-")]
    if (wants_json(args) or not words or words[0] not in RESULT_COMMANDS
            or {"--help", "-h"} & set(args)):
        return None
    return Command(command.line + " --json", command.expected, command.start, command.end)


@functools.cache
def results_replayed(path: Path, lang: str) -> tuple[tuple[str, Any], ...]:
    """Every attack, run and phase of a transcript with ``--json`` (each from the state the
    commands before it left: the game files they fill are the same as with text), in
    ``lang``: its documents."""
    transcript_ = transcript(path)
    out = []
    for i, command in enumerate(transcript_.commands):
        as_json = _as_json(command)
        if as_json is None:
            continue
        # answered at the table: in the transcript's language (the answers are its labels)
        asked = any(PROMPT.match(line) for line in command.expected.splitlines())
        output = transcript_.variant_kept(i, as_json.line, None if asked else lang)
        stdout, stderr, code = output.stdout, output.stderr, output.code
        shown = re.search(r"^\[exit ([0-9]+)\]$", command.expected, re.M)
        assert code == (int(shown.group(1)) if shown else 0), f"$ {as_json.line}: {stderr}"
        # what the harness's terminal showed before the document (a resumed record's line)
        start = stdout.find("{\n")
        for doc in documents(stdout[max(start, 0):], stderr, code):
            out.append((as_json.line, doc))
    return tuple(out)


RESULT_FILES = [p for p in transcript_files(ROOT)
                if any(_as_json(c) for c in commands(p.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("path", RESULT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_result_of_the_transcripts_holds_values_in_its_tables(path: Path) -> None:
    """Each attack, run and phase of the transcripts, as JSON: it validates, the cells of
    its tables hold numbers, needs, modifiers and dice as values (no number written as
    text), and the Russian document differs only in its text."""
    english, russian = results_replayed(path, "en"), results_replayed(path, "ru")
    assert english and [line for line, _ in english] == [line for line, _ in russian]
    for (line, doc), (_, ru) in zip(english, russian, strict=True):
        validate(doc)
        for result in _results_of(doc):
            for table in result["tables"]:
                keys = [c["key"] for c in table["columns"]]
                assert all(list(row) == keys for row in table["rows"])
                assert all(len(row) == len(keys) for row in table["rows_text"])
                bad = numbers_as_text(table["rows"], HEX_IDS)
                assert not bad, f"$ {line}: {table['title']['msg']}: {bad}"
        # (a command without --seed draws its own; a game entry keeps the language it was
        # played in, so that verify makes the same names again: its check code differs)
        assert data_only(_unkeyed(doc)) == data_only(_unkeyed(ru)), (
            f"$ {line}: data differs between en and ru")


def _unkeyed(doc: dict[str, Any]) -> dict[str, Any]:
    game = doc.get("game")
    return {**doc, "seed": None,
            **({"game": {**game, "check_code": None}} if isinstance(game, dict) else {})}


def test_the_transcripts_show_results_of_every_ruleset() -> None:
    docs = [doc for path in RESULT_FILES for _, doc in results_replayed(path, "en")]
    shown = {r["ruleset"] for doc in docs if doc["kind"] in ("result", "phase")
             for r in _results_of(doc)}
    assert shown == {info.id for info in all_rulesets()}
    tables = {t["title"]["msg"] for doc in docs for r in _results_of(doc) for t in r["tables"]}
    # every table of the working the resolvers write (log.table): a new one needs an example
    assert len(tables) == 35, sorted(tables)
    assert len(docs) >= 140


SCRIPTS = sorted((ROOT / "transcripts" / "scripts").glob("*.toml"))
DECLARATIONS = {
    "epic-grey-company.toml", "epic-legal-options.toml", "epic-odds-company.toml",
    "epic-odds-company-ruins.toml", "epic-roster.toml", "epic-suppression.toml",
    "lnlt-odds-fire.toml", "lnlt-odds-unknown.toml", "ru-epic-seraya-rota.toml",
    "ru-waw-smeshannyj-stek.toml",
}
"""The scripts that only declare (``attack --declaration``, ``--roster``): the player answers
the rest at the table, so ``referee run`` cannot finish them (the transcripts show them)."""
RUN_SCRIPTS = [p for p in SCRIPTS if p.name not in DECLARATIONS]
EXPLANATIONS = ("why", "reason", "step")
"""The columns whose messages explain a row in words: a number in them (``round 2``, ``with 1
hit(s)``) is the row's own, given as a value in another of its columns."""


def hidden_numbers(table: Table) -> list[str]:
    """The cells of ``table`` (as a resolver wrote them) whose numbers JSON would give only
    as text: a string that reads as a number, or a message with a number among its
    parameters outside the columns that explain (a cell with a value of its own is fine)."""
    def bad(key: str, cell: Any) -> list[str]:
        if isinstance(cell, Shown):
            return []
        if isinstance(cell, (tuple, list)):
            return [b for c in cell for b in bad(key, c)]
        if isinstance(cell, str) and key not in HEX_IDS and NUMBER_AS_TEXT.match(cell):
            return [f"{key}={cell!r}"]
        if isinstance(cell, Msg) and key not in EXPLANATIONS:
            return [f"{key}={cell.id}({name}={v!r})" for name, v in cell.params
                    if isinstance(v, (int, float, Fraction)) and not isinstance(v, bool)]
        return []
    return [b for row in table.rows
            for key, cell in zip(table.column_keys(), row, strict=True) for b in bad(key, cell)]


def test_the_scripts_that_only_declare_are_declarations() -> None:
    """The list above stays true: each script it names stops for an answer under ``run``."""
    for name in sorted(DECLARATIONS):
        # a seed of its own: with one drawn at random, the dice may end the phase before
        # the next question (lnlt-odds-fire.toml: both Red units eliminated, exit 0)
        code, _, err = invoke(["run", str(ROOT / "transcripts" / "scripts" / name),
                               "--dice", "auto", "--no-odds", "--seed", "1"])
        assert code != 0 and err, name


@pytest.mark.parametrize("path", RUN_SCRIPTS, ids=lambda p: p.name)
def test_every_scripted_run_holds_values_in_its_tables(path: Path) -> None:
    """Each script, run with ``--json``: the document validates and its tables hold numbers,
    needs, modifiers and dice as values; the same run in process: no cell of its tables
    gives a number only as text, not even inside a message."""
    code, out, err = invoke(["run", str(path), "--json", "--seed", "1", "--dice", "auto",
                             "--no-odds"])
    assert code == 0, err
    doc = json.loads(out)
    assert validate(doc) == "result"
    for table in doc["tables"]:
        keys = [c["key"] for c in table["columns"]]
        assert all(list(row) == keys for row in table["rows"])
        bad = numbers_as_text(table["rows"], HEX_IDS)
        assert not bad, f"{table['title']['msg']}: {bad}"
    plan, port = plan_script(path, seed=1, auto_dice=True)
    result = play(plan, port)
    assert [t.title.id for t in result.tables] == [t["title"]["msg"] for t in doc["tables"]]
    for table in result.tables:
        assert not hidden_numbers(table), f"{table.title.id}: {hidden_numbers(table)}"


def test_the_scripted_runs_cover_every_ruleset() -> None:
    rulesets = {find_ruleset(tomllib.loads(p.read_text(encoding="utf-8"))["ruleset"]).id
                for p in RUN_SCRIPTS}
    assert rulesets == {info.id for info in all_rulesets()}


def test_a_cell_that_hides_a_number_is_found() -> None:
    """The check above finds what it looks for (and lets a value with its text pass)."""
    table = Table(Msg.of("t"), (Msg.of("c.need"), Msg.of("c.got"), Msg.of("c.why")),
                  (("4+", Msg.of("x", n=3), Msg.of("y", round=2)),
                   (as_need(4), Shown(3, Msg.of("x", n=3)), NOTHING),
                   ("-", 3, "Sgt 1")))
    assert hidden_numbers(table) == ["need='4+'", "got=x(n=3)", "need='-'"]


@pytest.mark.clause("L-12")
def test_a_lnlt_firepower_row_gives_each_step_and_its_firepower() -> None:
    code, out, err = invoke(["run", "transcripts/scripts/lnlt-op-fire-ops-complete.toml",
                             "--no-odds", "--json"])
    assert code == 0, err
    fp = next(t for t in json.loads(out)["tables"] if t["title"]["msg"] == "lnlt.table.fp")
    squad, moved, total = fp["rows"]
    # Ops Complete's -1 (the default reading) takes the squad's 2 to 1; it leads at full IFP
    assert (squad["base"], squad["fp"]) == (2, 1)
    assert squad["steps"] == [{"step": "ops_minus", "fp": 1}, {"step": "lead", "fp": 1}]
    assert (moved["steps"], moved["fp"], total["fp"]) == ([], 1, 2)
    assert fp["rows_text"][0][2] == "Ops Complete -1 → 1, lead unit, full IFP → 1"
    assert fp["rows_text"][1][1:4] == ["-", "-", "+1"]


@pytest.mark.clause("F-7")
def test_a_fow_save_gives_each_hits_outcome_and_the_firepower_asked() -> None:
    code, out, err = invoke(["run", "transcripts/scripts/fow-example-6.toml", "--no-odds",
                             "--json"])
    assert code == 0, err
    doc = json.loads(out)
    (results,) = [t for t in doc["tables"] if t["title"]["msg"] == "fow.table.results"]
    firepower = doc["options"]["assault-firepower"]
    for row, effects in zip(results["rows"], doc["outcome"]["data"]["effects"].values(),
                            strict=True):
        assert row["result"]["outcomes"] == effects
        saved = set(effects) <= {"bounced", "glancing", "penetrating"}
        assert row["result"]["firepower"] == (firepower if saved else None)


@pytest.mark.clause("E-9")
def test_an_epic_shot_gives_its_need_modifiers_and_dice_as_data() -> None:
    code, out, err = invoke(["run", "transcripts/scripts/epic-to-hit.toml", "--no-odds",
                             "--json"])
    assert code == 0, err
    (shots,) = [t for t in json.loads(out)["tables"] if t["title"]["msg"] == "epic.table.shots"]
    cannon, autogun = shots["rows"]
    assert (cannon["to_hit"], cannon["dice"], cannon["hits"]) == (4, [6, 5, 1], 1)
    assert cannon["modifiers"] == [{"modifier": "double", "value": -1},
                                   {"modifier": "cover", "value": -1}]
    assert autogun["need"] == {"need": 7, "mode": "two_stage", "target": 6, "then": 4}
    assert autogun["dice"] == {"first": [6, 6, 3, 1, 5, 2], "then": [4, 3]}
    assert shots["rows_text"][1][5:7] == ["7: 6 then 4+", "6 6 3 1 5 2 → 4 3"]


# --- the other documents --------------------------------------------------------------------

def test_rulesets_options_and_odds_documents_validate() -> None:
    for args, kind in ((["rulesets", "--json"], "rulesets"),
                       (["options", "epic", "--json"], "options"),
                       (["odds", "epic", "--script", "transcripts/scripts/epic-to-hit.toml",
                         "--vs", "action=sustained-fire", "--json"], "whatif"),
                       (["odds", "epic", "--declaration",
                         "transcripts/scripts/epic-odds-company.toml", "--json"], "odds"),
                       (["run", "transcripts/scripts/epic-to-hit.toml", "--no-odds", "--json"],
                        "result")):
        code, out, err = invoke(args)
        assert code == 0, err
        assert validate(json.loads(out)) == kind


def test_a_run_without_odds_has_no_odds_field_and_one_with_odds_has_it() -> None:
    script = "transcripts/scripts/epic-to-hit.toml"
    _, plain, _ = invoke(["run", script, "--no-odds", "--json"])
    _, with_odds, _ = invoke(["run", script, "--json"])
    assert "odds" not in json.loads(plain)
    odds = json.loads(with_odds)["odds"]
    assert odds and odds[0]["actual"]["percentile"]["fraction"]


def test_a_whatif_compares_exact_values() -> None:
    code, out, _ = invoke(["odds", "epic", "--declaration",
                           "transcripts/scripts/epic-odds-company.toml", "-a", "action=double",
                           "--vs", "action=sustained-fire", "--json"])
    doc = json.loads(out)
    assert code == 0 and validate(doc) == "whatif"
    assert doc["a"]["changes"]["answers"] == ["action=double"]
    assert doc["b"]["changes"] == {"answers": ["action=sustained-fire"], "options": [],
                                   "declaration": None}
    mean = doc["compare"][0]["rows"][0]
    assert mean["what"] == {"row": "mean"}
    assert (mean["a"]["fraction"], mean["b"]["fraction"], mean["diff"]["fraction"]) == (
        "2", "6", "4")  # 12 dice at 1/6 against 12 at 1/2
    at_least = doc["compare"][0]["rows"][1]
    assert at_least["what"] == {"row": "at_least", "k": 1}


def test_the_game_documents_of_a_file_made_by_game_alone(tmp_path: Path) -> None:
    """A file made by ``--game`` alone has no game (``null``), no committed seed, and rolls
    whose side is not known (``side`` ``null``, its word only in ``side_text``)."""
    game = str(tmp_path / "plain.sqlite")
    code, _, err = invoke(["run", "transcripts/scripts/epic-to-hit.toml", "--game", game])
    assert code == 0, err
    docs = {}
    for lang in ("en", "ru"):
        for command in ("log", "verify", "report"):
            code, out, err = in_language(lang, ["game", command, game, "--json"])
            assert code == 0, err
            doc = json.loads(out)
            assert validate(doc) == f"game-{command}"
            docs[lang, command] = doc
    assert docs["en", "log"]["game"] is None
    assert (docs["en", "verify"]["committed"], docs["en", "verify"]["program_rolls"]) == (
        False, None)
    (unknown,) = docs["en", "report"]["luck"]
    assert unknown["side"] is None and unknown["rolls"] == 3
    assert unknown["side_text"] != docs["ru", "report"]["luck"][0]["side_text"]
    for command in ("log", "verify", "report"):
        assert data_only(docs["en", command]) == data_only(docs["ru", command])


# --- errors under --json --------------------------------------------------------------------

def error_of(code: int, out: str, err: str) -> dict[str, Any]:
    doc = json.loads(err)
    assert validate(doc) == "error"
    assert doc["exit_code"] == code and "error:" not in err
    return dict(doc)


def test_a_bad_argument_is_a_json_error_with_the_same_exit_code() -> None:
    code, out, err = invoke(["lookup", "epic", "to-hti", "5", "--json"])
    assert code == ExitCode.USAGE and out == ""
    doc = error_of(code, out, err)
    assert doc["msg"] == "error.unknown_id_suggest"
    assert doc["text"] == "unknown table 'to-hti'; did you mean: to-hit?"
    code, _, plain = invoke(["lookup", "epic", "to-hti", "5"])
    assert code == ExitCode.USAGE and plain.startswith("error: unknown table")


def test_a_file_error_names_the_file_line_and_field() -> None:
    code, out, err = invoke(["run", "transcripts/scripts/broken/bad-field.toml", "--json"])
    assert code == ExitCode.SCRIPT
    doc = error_of(code, out, err)
    assert (doc["file"], doc["line"], doc["field"]) == (
        "transcripts/scripts/broken/bad-field.toml", 8, "declaration.weapons[0].shots")
    assert doc["reason"]["msg"] == "validation.greater_than_equal"
    code, out, err = invoke(["run", "transcripts/scripts/broken/bad-toml.toml", "--json"])
    doc = error_of(code, out, err)
    assert (doc["line"], doc["column"], doc["field"]) == (3, 10, None)


def test_a_game_file_error_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a game", encoding="utf-8")
    code, out, err = invoke(["waw-markers", "--game", str(bad), "--json"])
    assert code == ExitCode.GAME_FILE
    assert error_of(code, out, err)["file"] == str(bad)


def test_no_terminal_is_a_json_error() -> None:
    code, out, err = invoke(["attack", "epic", "--json"])
    assert code == ExitCode.NO_TERMINAL and out == ""
    assert error_of(code, out, err)["msg"] == "error.no_terminal"


class _Stop:
    def __init__(self, rng: Any, error: BaseException) -> None:
        self.error = error

    def ask(self, question: Any) -> Any:
        raise self.error


def test_ctrl_c_is_a_json_error_with_the_hint_to_resume(tmp_path: Path) -> None:
    record = tmp_path / "r.toml"
    code, out, err = invoke(["attack", "epic", "--record", str(record), "--json"],
                            port_factory=lambda rng: _Stop(rng, KeyboardInterrupt()))
    assert code == ExitCode.INTERRUPTED
    doc = error_of(code, out, err)
    assert doc["msg"] == "error.interrupted"
    assert doc["hint"]["msg"] == "error.resume_hint" and str(record) in doc["hint"]["text"]


def test_a_bug_is_a_json_error_with_exit_code_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_DEBUG")  # the suite's: a bug's traceback, not its line
    code, out, err = invoke(["attack", "epic", "--json"],
                            port_factory=lambda rng: _Stop(rng, RuntimeError("boom")))
    assert code == ExitCode.ERROR
    doc = error_of(code, out, err)
    assert doc["msg"] == "error.bug" and "RuntimeError" in doc["text"]


@pytest.mark.parametrize(("args", "msg"), [
    (["rulesets", "--bogus", "--json"], "cli.usage.no_such_option"),
    (["--json", "--bogus"], "cli.usage.no_such_option_possible"),
    (["odds", "--json"], "cli.usage.missing_argument"),
    (["phase", "lnlt", "--game", "g.sqlite", "--impulses", "0", "--json"],
     "cli.usage.invalid_value"),
    (["nosuch", "--json"], "cli.usage.other"),
])
def test_typers_own_usage_errors_follow_json(args: list[str], msg: str) -> None:
    code, out, err = invoke(args)
    assert code == ExitCode.USAGE and out == ""
    assert error_of(code, out, err)["msg"] == msg


def test_typers_usage_errors_without_json_are_as_before() -> None:
    code, _, err = invoke(["rulesets", "--bogus"])
    assert code == ExitCode.USAGE and "No such option: --bogus" in err and "{" not in err
    code, _, err = invoke(["rulesets", "--bogus", "--", "--json"])
    assert code == ExitCode.USAGE and "No such option" in err and '"kind"' not in err


def test_a_usage_error_in_russian_keeps_its_id() -> None:
    code, _, err = in_language("ru", ["rulesets", "--bogus", "--json"])
    doc = error_of(code, "", err)
    assert doc["msg"] == "cli.usage.no_such_option"
    assert doc["text"] == "Нет такой опции: --bogus"


def test_a_bad_language_under_json_is_a_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.start import main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "xx", "rulesets", "--json"])
    assert stop.value.code == ExitCode.USAGE
    assert error_of(ExitCode.USAGE, "", capsys.readouterr().err)["msg"] == "error.unknown_id"
