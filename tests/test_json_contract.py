"""The JSON contract (README: ``--json``: the contract): every document ``--json`` prints
validates against the shipped JSON Schema of its kind, every transcript's JSON output
included; keys and values are the same in every language (display text only in ``text`` and
``*_text`` fields); lookups give their table's data, not its rendered cells; errors under
``--json`` are one JSON document on standard error with the exit code unchanged; the shipped
schemas are the ones the models generate."""

from __future__ import annotations

import functools
import io
import json
import re
import shlex
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.app import wants_json
from referee.context import Environment
from referee.entry import load_app
from referee.exit_codes import ExitCode
from referee.rulesets import all_rulesets
from referee.schemas import FOLDER, KINDS, schema_path
from tests.conftest import ROOT
from tests.transcript_harness import (
    Command,
    commands,
    fresh_game_files,
    replay_apart,
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
    assert doc.get("schema_version") == 1, doc.get("schema_version")
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


@functools.cache
def replayed(path: Path, lang: str) -> tuple[tuple[str, Any], ...]:
    """Every ``--json`` command of a transcript (the commands before it replayed too, for
    the game files they fill) in ``lang``, with its documents."""
    text = path.read_text(encoding="utf-8")
    fresh_game_files(text)
    out = []
    for command in commands(text):
        if not wants_json(shlex.split(command.line)):
            replay_apart(command)
            continue
        for doc in documents(*replay_apart(command, lang=lang)):
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
NUMBER_AS_TEXT = re.compile(r"^(-|[+-]?[0-9]+([+%°]|/[0-9]+|\.[0-9]+%?)?|[0-9]+-[0-9]+)$")


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
    shown_as_text = [s for s in _strings(doc["rows"]) if NUMBER_AS_TEXT.match(s)]
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
    from fractions import Fraction

    _, out, _ = invoke(["lookup", "cc", "fire-odds", "--json"])
    for row in json.loads(out)["rows"]:
        assert isinstance(row["difference"], int)
        assert sum(Fraction(row[k]["fraction"]) for k in ("beats", "tie", "holds")) == 1


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
    from referee.entry import main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "xx", "rulesets", "--json"])
    assert stop.value.code == ExitCode.USAGE
    assert error_of(ExitCode.USAGE, "", capsys.readouterr().err)["msg"] == "error.unknown_id"
