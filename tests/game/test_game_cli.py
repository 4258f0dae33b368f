"""``referee game ...`` from the command line: every subcommand, the JSON shapes, both
languages, the sides, the seed kept secret, records and resuming in a game."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.context import Environment
from tests.support import ROOT
from tests.support.game import (
    EPIC_PROGRAM,
    FIXED_SEED,
    invoke,
    log_json,
    new_game,
    run_in,
    script,
)

pytestmark = pytest.mark.usefixtures("game_seed")

DECLARATION = "transcripts/scripts/epic-grey-company.toml"
# the situation of the Grey Company declaration, the heavy cannon's dice typed, the autogun's
# rolled by the program after Red's word (a redo keeps its word: none asked)
AT_THE_TABLE = ["sustained-fire", "no", "at", "6 5 1", "", "owls"]
REDONE_AT_THE_TABLE = AT_THE_TABLE[:-1]


def test_game_help_lists_every_subcommand() -> None:
    code, out, _ = invoke(["game", "--help"])
    assert code == 0
    for command in ("new", "log", "undo", "report", "follow", "reveal", "verify"):
        assert command in out
    assert "game" in invoke(["--help"])[1]


def test_new_prints_the_commitment_and_never_the_seed(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    code, out, err = invoke(["game", "new", str(path), "--name", "Friday"],
                            answers=["Grey", "Red"])
    assert code == 0, err
    import hashlib

    assert hashlib.sha256(FIXED_SEED.encode()).hexdigest() in out
    assert FIXED_SEED not in out
    assert "Name of the first side?" in out and "Grey against Red" in out
    data = new_game(tmp_path / "h.sqlite", "--holder", "red")
    assert (data["kind"], set(data)) == ("game", {"schema_version", "kind", "file", "game"})
    game = data["game"]
    assert set(game) == {"name", "sides", "commitment", "opponent_seed", "created", "revealed",
                         "holder", "holder_dice", "seed"}
    assert game["sides"] == ["Grey", "Red"] and game["opponent_seed"] is None
    assert game["holder"] == "Red" and game["holder_dice"] is False
    assert game["seed"] is None and game["revealed"] is None


@pytest.mark.parametrize(("args", "code", "says"), [
    (["--side", "Grey"], 2, "two sides"),
    (["--side", "Grey", "--side", "grey"], 2, "two sides"),
    ([], 4, "--side"),  # no terminal to ask the sides on
    (["--side", "A", "--side", "B", "--opponent-seed", " "], 2, "--opponent-seed"),
])
def test_new_refuses_what_it_cannot_use(tmp_path: Path, args: list[str], code: int,
                                        says: str) -> None:
    got, _, err = invoke(["game", "new", str(tmp_path / "g.sqlite"), *args])
    assert got == code and says in err and err.count("\n") == 1
    assert not (tmp_path / "g.sqlite").exists()


def test_new_never_overwrites_a_file(game: Path) -> None:
    code, _, err = invoke(["game", "new", str(game), "--side", "A", "--side", "B"])
    assert code == 2 and "exists already" in err


def test_an_attack_in_a_game_shows_no_seed_and_refuses_one(game: Path, tmp_path: Path) -> None:
    path = script(tmp_path, "a.toml", EPIC_PROGRAM)
    code, out, _ = invoke(["run", str(path), "--game", str(game), "--word", "owls"])
    assert code == 0 and "Game entry 1" in out and FIXED_SEED not in out and "Seed" not in out
    data = run_in(game, path)
    assert data["seed"] is None
    code, _, err = invoke(["run", str(path), "--game", str(game), "--seed", "4"])
    assert code == 2 and "--seed is not taken" in err


def test_log_json_shape(game: Path, tmp_path: Path) -> None:
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    data = log_json(game)
    assert data["kind"] == "game-log" and set(data) == {"schema_version", "kind", "file",
                                                        "game", "entries", "events"}
    assert data["game"]["seed"] is None
    entry = data["entries"][0]
    assert set(entry) == {"number", "id", "at", "ruleset", "command", "title", "outcome",
                          "undone", "attacker_side", "defender_side", "history", "rolls",
                          "check_code", "scheme", "word", "overrides", "redoes"}
    assert entry["word"] == "owls" and entry["scheme"] == 2 and entry["redoes"] is None
    assert entry["title"]["msg"] == "epic.step.declared"
    assert entry["title"]["text"].startswith("Grey Company (invented) shoots at")
    assert entry["outcome"]["msg"] == "epic.outcome.hits"
    roll = entry["rolls"][0]
    assert set(roll) == {"question", "dice", "successes", "label", "dice_text", "source",
                         "by_program", "title", "unit", "value", "percentile", "at_least",
                         "at_most", "by", "higher_is_better"}
    assert roll["question"] == "to-hit.heavy-cannon" and roll["by_program"]
    assert all(isinstance(face, int) for face in roll["dice"])
    assert roll["dice_text"] == " ".join(map(str, roll["dice"]))
    assert 0 <= roll["percentile"] <= 100 and roll["by"] == "attacker"


def test_the_side_is_asked_once_per_formation_and_remembered(game: Path) -> None:
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds"]
    code, out, err = invoke(args, answers=["Grey", *AT_THE_TABLE])
    assert code == 0, err
    assert "Which side is Grey Company (invented) on?" in out
    # asked once the formations are known, before any question of the attack or die
    assert out.index("Which side") < out.index("What action is") < out.index("Roll to hit")
    code, out, err = invoke(args, answers=AT_THE_TABLE)
    assert code == 0, err
    assert "Which side" not in out
    sides = [(e["attacker_side"], e["defender_side"]) for e in log_json(game)["entries"]]
    assert sides == [("Grey", "Red"), ("Grey", "Red")]


def test_a_side_said_before_an_abandoned_attack_is_kept_and_shown_in_the_log(
        game: Path) -> None:
    """Issue 27: the side is kept as soon as it is said, an event of the chain: an attack
    abandoned after it (Ctrl-C) does not ask it again; the log shows it; verify holds."""
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds"]
    code, out, _ = invoke(args, answers=["Grey", "^C"])
    assert code == 130 and "Which side is Grey Company (invented) on?" in out
    code, out, err = invoke(args, answers=AT_THE_TABLE)
    assert code == 0, err
    assert "Which side" not in out
    code, out, err = invoke(["game", "log", str(game)])
    assert code == 0, err
    said = [line for line in out.splitlines() if line.startswith("Side at")]
    assert [line.split(": ", 1)[1].split(". Check")[0] for line in said] == [
        "Grey Company (invented) is on Grey", "Red Hill Battery (invented) is on Red"]
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "The log holds together" in out, err


def test_a_formation_moved_to_the_other_side_in_the_file_is_refused(game: Path) -> None:
    """The holder cannot move a formation to the other side silently: the sides the file
    keeps must be those its side events say; the next attack and verify refuse the file."""
    import sqlite3

    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds"]
    assert invoke(args, answers=["Grey", *AT_THE_TABLE])[0] == 0
    with sqlite3.connect(game) as conn:
        conn.execute("UPDATE sides SET side = 'Red' WHERE name = 'Grey Company (invented)'")
    code, _out, err = invoke(args, answers=AT_THE_TABLE)
    assert code != 0 and "sides" in err and "moved to the other side" in err
    code, _out, err = invoke(["game", "verify", str(game)])
    assert code != 0 and "moved to the other side" in err


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Side at {at}: Grey Company moves from Grey to Red. Check code: {code}"),
    ("ru", "Сторона в {at}: Grey Company переходит со стороны Grey на сторону Red. "
           "Код проверки: {code}")])
def test_a_change_of_side_is_an_event_the_log_shows(game: Path, lang: str, line: str) -> None:
    from referee.game import open_game

    with open_game(game) as tx:
        tx.remember_side("Grey Company", "Grey")
        tx.remember_side("Grey Company", "Grey")  # the side kept: nothing written
        tx.remember_side("Grey Company", "Red")
        moved = tx.last
    assert moved is not None and moved.kind == "side"
    assert moved.body == {"name": "Grey Company", "side": "Red", "was": "Grey"}
    code, out, err = invoke(["game", "log", str(game)], lang=lang)
    assert code == 0, err
    shown = [x for x in out.splitlines() if x.startswith(line.split("{at}")[0])]
    assert len(shown) == 2
    assert shown[1].endswith(line.split("{at}")[1].format(code=moved.code))
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0, err


def test_a_roster_says_which_side_a_formation_is_on(game: Path, tmp_path: Path) -> None:
    roster = (ROOT / "transcripts/scripts/epic-roster.toml").read_text(encoding="utf-8")
    roster = roster.replace('name = "Red Hill Battery (invented)"',
                            'name = "Red Hill Battery (invented)"\nside = "Red"')
    (tmp_path / "roster.toml").write_text(roster, encoding="utf-8")
    from referee.game.entry import roster_sides
    from referee.play.plan import validate_declaration
    from referee.rulesets import find_ruleset

    declaration = validate_declaration(find_ruleset("epic"), {
        "roster": "roster.toml", "firing": "Grey Company (invented)",
        "target": "Red Hill Battery (invented)"}, "<t>", base=tmp_path)
    assert roster_sides("epic-armageddon", declaration) == {"Red Hill Battery (invented)": "Red"}


def test_redoing_an_undone_attack_shows_the_dice_typed_then(game: Path) -> None:
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds"]
    code, first, err = invoke(args, answers=["Grey", *AT_THE_TABLE])
    assert code == 0, err
    assert invoke(["game", "undo", str(game)])[0] == 0
    code, again, err = invoke(args, answers=REDONE_AT_THE_TABLE)
    assert code == 0, err
    assert "typed then: 6 5 1" in again and "typed then" not in first
    autogun = [line for line in again.splitlines() if line.startswith("? Roll to hit for Auto")]
    assert autogun and autogun[0].split("  ")[-1] in first  # the program's dice, the same


def test_a_record_in_a_game_names_the_game_not_the_seed(game: Path, tmp_path: Path) -> None:
    record = tmp_path / "rec.toml"
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds",
            "--record", str(record)]
    code, _, _ = invoke(args, answers=["Grey", "sustained-fire", "no", "at", "^C"])
    assert code == 130
    text = record.read_text(encoding="utf-8")
    assert "game = \"night.sqlite\"" in text and "attack = 1" in text
    assert "seed" not in text and FIXED_SEED not in text
    code, _out, err = invoke(["attack", "epic", "--resume", str(record), "--no-odds"],
                            answers=["6 5 1", "", "owls"])  # the side kept when said
    assert code == 0, err
    assert [e["number"] for e in log_json(game)["entries"]] == [1]
    # another entry written meanwhile: the record is no longer the game's next attack
    invoke(["game", "undo", str(game)])
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    code, _, err = invoke(["attack", "epic", "--resume", str(record)],
                          answers=[""])
    assert code == 5 and "moved on" in err


def test_report_markdown_counts_each_sides_luck(game: Path, tmp_path: Path) -> None:
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game)]
    assert invoke(args, answers=["Grey", *AT_THE_TABLE])[0] == 0
    code, out, err = invoke(["game", "report", str(game)])
    assert code == 0, err
    assert out.startswith("# Battle report: night")
    assert "### 1. Grey's Grey Company (invented) shot at Red's Red Hill Battery" in out
    luck = out.split("## Luck")[1]
    table = [line for line in luck.splitlines() if line.startswith("| Grey |")]
    assert table and "| 2 |" in table[0]  # the two to-hit rolls are Grey's


def test_report_counts_expected_and_destroyed_units(game: Path) -> None:
    run_in(game, ROOT / "transcripts/scripts/epic-allocation.toml")
    entry = log_json(game)["entries"][0]
    assert entry["rolls"][0]["by"] == "attacker" and entry["rolls"][1]["by"] == "defender"
    from referee.game import read_game

    with read_game(game) as tx:
        about = tx.log()[0].about
    assert about["destroyed"] == 2 and 0 < about["expected"]["value"] < 5


def test_report_html_is_one_self_contained_page(game: Path, tmp_path: Path) -> None:
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game)]
    assert invoke(args, answers=["Grey", *AT_THE_TABLE])[0] == 0
    out_file = tmp_path / "report.html"
    code, _out, err = invoke(["game", "report", str(game), "--html", str(out_file)])
    assert code == 0, err
    page = out_file.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "<svg" in page
    assert "<script" not in page and "<link" not in page and "src=" not in page
    assert "Grey Company (invented) shoots at" in page
    code, _, err = invoke(["game", "report", str(game), "--html", str(tmp_path / "no/x.html")])
    assert code == 2 and "cannot write the report" in err


def test_report_in_russian(game: Path, tmp_path: Path) -> None:
    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    proc = subprocess.run([sys.executable, "-m", "referee", "--lang", "ru", "game", "report",
                           str(game)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Отчёт о сражении: night")
    assert "## Удача" in proc.stdout and "Grey против Red" in proc.stdout


def test_verify_json_and_a_file_made_without_game_new(tmp_path: Path) -> None:
    plain = tmp_path / "plain.sqlite"
    run_in(plain, script(tmp_path, "a.toml", EPIC_PROGRAM), "--seed", "3")
    code, out, _ = invoke(["game", "verify", str(plain), "--json"])
    data = json.loads(out)
    assert code == 0 and data["kind"] == "game-verify"
    assert data["committed"] is False and data["program_rolls"] is None
    assert data["verdict"]["msg"] == "game.verify.no_seed"
    code, _, err = invoke(["game", "reveal", str(plain)])
    assert code == 5 and "without game new" in err


def test_follow_without_a_terminal_prints_the_log(game: Path, tmp_path: Path) -> None:
    from referee.game.follow import follow

    run_in(game, script(tmp_path, "a.toml", EPIC_PROGRAM))
    out = io.StringIO()
    follow(game, Environment(stdout=out, stdout_isatty=False), interval=0.01, rounds=2)
    text = out.getvalue()
    assert "#1" in text and "Working of #1" in text and "Ctrl-C" in text
    with open(game, "rb") as before:
        assert before.read()  # it only read


def test_follow_shows_state_tables(game: Path, tmp_path: Path) -> None:
    from referee.game.follow import follow

    run_in(game, ROOT / "transcripts/scripts/epic-allocation.toml")
    out = io.StringIO()
    follow(game, Environment(stdout=out, stdout_isatty=False), interval=0.01, rounds=1)
    assert "Red Hill" in out.getvalue() or "Blast" in out.getvalue()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Grey Company (invented) is on Red from now on"),
    ("ru", "Grey Company (invented) теперь на стороне Red")])
def test_a_side_said_wrongly_is_corrected_by_an_event_the_log_shows(
        game: Path, lang: str, said: str) -> None:
    """A side said wrongly at the table, then the attack abandoned: kept (issue 27), so it
    is corrected openly, by ``game roster --side``: a side event with the side it was on;
    the next attack is not asked and the entry names the corrected sides."""
    args = ["attack", "epic", "--declaration", DECLARATION, "--game", str(game), "--no-odds"]
    assert invoke(args, answers=["Grey", "^C"])[0] == 130
    code, out, err = invoke(["game", "roster", str(game), "--side",
                             "grey company (INVENTED)=red"], lang=lang)
    assert code == 0, err
    assert said in out
    code, out, err = invoke(["game", "roster", str(game), "--side", "Grey Company=Blue"])
    assert code == 2 and "one of the game's sides (Grey, Red)" in err
    code, out, err = invoke(["game", "log", str(game)])
    assert "Grey Company (invented) moves from Grey to Red" in out
    code, out, err = invoke(args, answers=AT_THE_TABLE)
    assert code == 0 and "Which side" not in out, err
    assert [(e["attacker_side"], e["defender_side"])
            for e in log_json(game)["entries"]] == [("Red", "Grey")]
