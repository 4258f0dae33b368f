"""The commands in-process (Typer's CliRunner with an injected Environment): output modes,
--json, recording and replay, Ctrl-C, no terminal, game files, exit codes."""

from __future__ import annotations

import io
import json
import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment
from referee.exit_codes import ExitCode
from referee.frontends.answers import AnswerPort, SequencePort

SCRIPT = "transcripts/scripts/epic-to-hit.toml"
DECLARATION = "transcripts/scripts/epic-grey-company.toml"
TYPED = ["to-hit", "1", "4", "5", "none", "double", "no", "5 6 2 1"]


def invoke(args: list[str], *, tty: bool = False, color: bool = True,
           port_factory: Any = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=tty,
                      stdout_isatty=tty, color=color, port_factory=port_factory)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


def typed(answers: list[str]) -> Any:
    return lambda rng: SequencePort(answers, rng)


def test_help_lists_every_command() -> None:
    code, out, _ = invoke(["--help"])
    assert code == 0
    for command in ("rulesets", "lookup", "attack", "run"):
        assert command in out


@pytest.mark.parametrize("command", ["rulesets", "lookup", "attack", "run"])
def test_every_command_has_help_text(command: str) -> None:
    code, out, _ = invoke([command, "--help"])
    assert code == 0 and "--json" in out


def test_rulesets_json_lists_ids_and_aliases_from_the_rules_readme() -> None:
    code, out, _ = invoke(["rulesets", "--json"])
    data = {r["id"]: r for r in json.loads(out)["rulesets"]}
    assert code == 0
    assert data["epic-armageddon"]["aliases"] == ["epic", "ea"]
    assert data["combat-commander"]["aliases"] == ["cc", "cce"]
    assert data["lnl-tactical"]["aliases"] == ["lnlt"]
    assert data["world-at-war"]["aliases"] == ["waw"]
    assert data["flames-of-war"]["aliases"] == ["fow"]
    assert data["epic-armageddon"]["available"] == ["lookup", "attack"]


@pytest.mark.parametrize("alias", ["epic", "ea", "EPIC", "epic-armageddon"])
def test_lookup_by_id_or_alias(alias: str) -> None:
    code, out, _ = invoke(["lookup", alias, "to-hit", "8", "--json"])
    assert code == 0
    assert json.loads(out)["rows_text"][0][1] == "a 6, then 5+ on a second die"
    assert json.loads(out)["ruleset"] == "epic-armageddon"


def test_plain_output_without_a_terminal_or_with_no_color() -> None:
    _, plain, _ = invoke(["lookup", "epic", "to-hit", "8"])
    _, colourless, _ = invoke(["lookup", "epic", "to-hit", "8"], tty=True, color=False)
    _, coloured, _ = invoke(["run", SCRIPT], tty=True)
    assert "\x1b[" not in plain and "+------" in plain
    assert "\x1b[" not in colourless
    assert "\x1b[" in coloured


def test_unknown_ids_get_suggestions_and_exit_2() -> None:
    code, _, err = invoke(["lookup", "epc", "to-hit"])
    assert code == ExitCode.USAGE and "did you mean: epic?" in err
    code, _, err = invoke(["lookup", "epic", "tohit"])
    assert code == ExitCode.USAGE and "did you mean: to-hit?" in err
    code, _, err = invoke(["attack", "epic", "--option", "alocation-by=x"],
                          port_factory=typed([]))
    assert code == ExitCode.USAGE and "did you mean: allocation-by" in err


def test_attack_typed_answers_and_json() -> None:
    code, out, _ = invoke(["attack", "epic", "--seed", "3", "--json"],
                          port_factory=typed(TYPED))
    data = json.loads(out)
    assert code == 0
    assert data["seed"] == 3
    assert data["outcome"]["data"]["hits"] == {"ap": 1, "at": 0}
    roll = next(s for s in data["steps"] if s["kind"] == "roll")
    assert roll["clause"] == "E-8" and roll["data"]["source"] == "typed"


def test_attack_with_auto_dice_marks_rolls_as_rolled_and_repeats_with_the_seed() -> None:
    answers = TYPED[:-1]
    runs = [invoke(["attack", "epic", "--dice", "auto", "--seed", "8", "--json"],
                   port_factory=typed(answers)) for _ in range(2)]
    assert runs[0] == runs[1]
    roll = next(s for s in json.loads(runs[0][1])["steps"] if s["kind"] == "roll")
    assert roll["data"]["source"] == "rolled"


def test_recorded_attack_replays_identically(tmp_path: Path) -> None:
    record = tmp_path / "rec.toml"
    answers = ["to-hit", "2", "3", "4", "none", "2", "5", "none", "sustained-fire", "yes", "",
               "=1"]
    code, live, _ = invoke(["attack", "epic", "--seed", "21", "--record", str(record),
                            "--json"], port_factory=typed(answers))
    assert code == 0
    code, replayed, _ = invoke(["run", str(record), "--json"])
    assert code == 0
    assert json.loads(replayed) == json.loads(live)
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["to-hit.weapon-1"]["rolled"]  # the program's roll, kept
    assert script["answers"]["to-hit.weapon-2"] == "=1"  # the typed count, kept


def test_declaration_file_asks_only_the_situation(tmp_path: Path) -> None:
    code, out, _ = invoke(["attack", "epic", "--declaration", DECLARATION, "--seed", "1",
                           "--json"], port_factory=typed(["advance", "no", "at", "", ""]))
    data = json.loads(out)
    assert code == 0
    assert data["steps"][0]["text"].startswith("Grey Company (invented) shoots at")


class Interrupting:
    """A port that answers from a list, then behaves as if the player pressed Ctrl-C."""

    def __init__(self, rng: Any, answers: dict[str, Any]) -> None:
        self.inner = AnswerPort(answers, rng)

    def ask(self, question: Any) -> Any:
        if question.id not in self.inner.answers:
            raise KeyboardInterrupt
        return self.inner.ask(question)


def test_ctrl_c_exits_130_keeps_the_answers_and_leaves_no_half_written_game(
        tmp_path: Path) -> None:
    record, game = tmp_path / "partial.toml", tmp_path / "game.sqlite"
    answers = {"attack-kind": "to-hit", "weapons": 1, "weapon.1.shots": 2, "weapon.1.ap": "4",
               "weapon.1.at": "none"}
    code, _, err = invoke(["attack", "epic", "--seed", "2", "--record", str(record),
                           "--game", str(game)],
                          port_factory=lambda rng: Interrupting(rng, answers))
    assert code == ExitCode.INTERRUPTED
    assert "Interrupted." in err
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"] == answers
    assert "roll_missing_dice" not in script  # strict: a replay stops where the player did
    with sqlite3.connect(game) as conn:  # nothing of the interrupted attack was written
        assert conn.execute("SELECT count(*) FROM log").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM state").fetchone() == (0,)
    # the partial recording replays up to where the player stopped, then names the question
    code, _, err = invoke(["run", str(record)])
    assert code == ExitCode.SCRIPT and "no answer for question 'action'" in err


def test_no_terminal_names_the_flags_to_use_instead() -> None:
    code, out, err = invoke(["attack", "epic"])
    assert code == ExitCode.NO_TERMINAL
    assert "referee run FILE" in err and out == ""


def test_game_file_logs_every_attack_in_order(tmp_path: Path) -> None:
    game = tmp_path / "game.sqlite"
    for _ in range(2):
        code, _, _ = invoke(["run", SCRIPT, "--game", str(game)])
        assert code == 0
    with sqlite3.connect(game) as conn:
        rows = conn.execute("SELECT command, ruleset, seed FROM log ORDER BY id").fetchall()
    assert rows == [("run", "epic-armageddon", 2024)] * 2


def test_game_file_that_is_not_a_game_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("these are not the droids", encoding="utf-8")
    code, _, err = invoke(["run", SCRIPT, "--game", str(bad)])
    assert code == ExitCode.GAME_FILE and "cannot use game file" in err


def test_broken_scripts_exit_3_with_file_and_reason(tmp_path: Path) -> None:
    for name in ("bad-toml", "bad-field", "bad-die", "missing-answer", "misspelt-answer",
                 "unused-answer", "unknown-option"):
        code, _, err = invoke(["run", f"transcripts/scripts/broken/{name}.toml"])
        assert code == ExitCode.SCRIPT, name
        assert err.startswith(f"error: transcripts/scripts/broken/{name}.toml"), err


class Refusing:
    """A port that must not be asked anything (the command should stop before)."""

    def __init__(self, rng: Any) -> None:
        pass

    def ask(self, question: Any) -> Any:
        raise AssertionError(f"asked {question.id} although the command should have stopped")


@pytest.mark.parametrize("where", ["no-such-folder/rec.toml", "."])
def test_unwritable_recording_is_refused_before_the_first_question(where: str,
                                                                    tmp_path: Path) -> None:
    target = tmp_path / where
    code, _, err = invoke(["attack", "epic", "--record", str(target)], port_factory=Refusing)
    assert code == ExitCode.USAGE and "cannot write the recording" in err


def test_names_with_brackets_are_shown_as_written(tmp_path: Path) -> None:
    script = tmp_path / "s.toml"
    script.write_text('ruleset = "epic"\n[declaration]\nfiring = "[/bold] Squad [red]X[/]"\n'
                      '[[declaration.weapons]]\nname = "Gun [mk2]"\nshots = 1\nap = 4\n'
                      '[answers]\naction = "advance"\ncover = false\n"to-hit.gun-mk2" = [4]\n',
                      encoding="utf-8")
    code, out, _ = invoke(["run", str(script)])
    assert code == 0
    assert "[/bold] Squad [red]X[/] shoots at" in out and "Gun [mk2]" in out


def test_absurdly_long_numbers_are_refused_not_crashed(tmp_path: Path) -> None:
    big = "9" * 5000
    code, _, err = invoke(["attack", "epic", "--seed", "1"],
                          port_factory=typed(["to-hit", "1", "2", "4", "none", "advance", "no",
                                              "=" + big]))
    assert code == ExitCode.SCRIPT and "cannot read" in err
    script = tmp_path / "s.toml"
    script.write_text(f'ruleset = "epic"\nseed = {big}\n', encoding="utf-8")
    code, _, err = invoke(["run", str(script)])
    assert code == ExitCode.SCRIPT and "expected valid TOML" in err


def test_a_folder_is_not_a_script(tmp_path: Path) -> None:
    code, _, err = invoke(["run", str(tmp_path)])
    assert code == ExitCode.SCRIPT and "expected a file, not a folder" in err


def test_declaration_file_must_hold_a_declaration_only() -> None:
    code, _, err = invoke(["attack", "epic", "--declaration", SCRIPT], port_factory=Refusing)
    assert code == ExitCode.SCRIPT and "declaration only" in err


class Meddling:
    """Answers like a player while another command writes to the same game file."""

    def __init__(self, rng: Any, game: Path) -> None:
        self.inner = SequencePort(TYPED, rng)
        self.game = game

    def ask(self, question: Any) -> Any:
        if question.id == "cover":
            from referee.game import open_game

            with open_game(self.game) as tx:
                tx.append_log("epic-armageddon", "attack", {"by": "someone else"})
        return self.inner.ask(question)


def test_the_game_file_is_free_during_questions_and_a_clash_writes_nothing(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    code, _, err = invoke(["attack", "epic", "--seed", "1", "--game", str(game)],
                          port_factory=lambda rng: Meddling(rng, game))
    assert code == ExitCode.GAME_FILE and "changed by another command" in err
    with sqlite3.connect(game) as conn:
        assert conn.execute("SELECT count(*) FROM log").fetchone() == (1,)  # theirs only


def test_an_empty_no_color_leaves_colour_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "")
    assert Environment.from_system().color is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert Environment.from_system().color is False


def test_a_named_command_runs_alone_and_help_sees_them_all() -> None:
    # the app as it is now (a test in another language before this one loads it again)
    from referee.cli import _app_for, app

    names = {(c.name or c.callback.__name__).replace("_", "-") for c in app.registered_commands}
    assert {"rulesets", "lookup", "attack", "run"} <= names
    for name in names:
        single = _app_for([name, "x"])
        assert len(single.registered_commands) == 1
    assert _app_for(["--help"]) is app
    assert _app_for(["lokup"]) is app  # the whole app says which commands exist
