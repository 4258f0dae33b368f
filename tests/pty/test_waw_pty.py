"""World at War's HE mission and the marker phase driven through a real pseudo-terminal
(pexpect): select prompts with arrow keys, typed numbers and dice, a refused die, a recording
that `referee run` replays, and `waw-markers` on the game file the mission wrote."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.support.pty import DOWN, ENTER, ROOT, TIMEOUT, Session, child_env

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

UP = "\x1b[A"
KINDS = ["combat vehicle", "infantry", "unarmoured vehicle", "HQ"]  # default: infantry


@pytest.mark.clause("W-3")
def test_W1_W4_he_mission_at_the_terminal_refuses_a_bad_die_and_replays(spawn, tmp_path):
    record = tmp_path / "he.toml"
    s = Session(spawn("attack", "waw", "--seed", "4", "--record", str(record), "--working"))
    s.expect("Which artillery mission?")
    s.child.send(ENTER)  # HE is the first choice and the default
    s.expect("Target hex")
    s.child.sendline("712")
    s.expect("Units in the target hex")
    s.child.sendline("2")
    s.expect("Unit 1: what kind of unit?")
    s.child.send(UP + ENTER)  # combat vehicle, one above the default
    s.expect("Unit 1: its state before the mission?")
    s.child.send(ENTER)
    s.expect("Unit 2: what kind of unit?")
    s.child.send(ENTER)  # infantry
    s.expect("Unit 2: its state before the mission?")
    s.child.send(ENTER)
    s.expect("Mission firepower")
    s.child.sendline("5")
    s.expect("Mission hit number")
    s.child.sendline("4")
    s.expect("Roll the HE attack: 5 dice, 4+ hits")
    s.child.sendline("4 5 6 1 9")
    s.expect("9 is not a face of a d6")
    s.expect("Roll the HE attack: 5 dice, 4+ hits")
    s.child.sendline("4 5 6 1 2")
    s.expect("Infantry defence bonus of the target hex")
    s.child.sendline("1")
    s.expect("Owner: roll terrain defence: 1 die, each 5+ cancels a hit")
    s.child.sendline("5")
    s.expect("What does a first HE hit do to unit 2")
    s.child.send(DOWN + ENTER)  # disorganized, one below the default (no effect)
    s.expect("Outcome:")
    s.expect("2 net hits")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "4 5 6 1 2 (typed) → 3 hits" in shown

    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["attack"] == [4, 5, 6, 1, 2]
    assert script["answers"]["unit.1.kind"] == "combat-vehicle"
    assert script["answers"]["effect.unit-2.first"] == "disorganize"
    replay = subprocess.run([sys.executable, "-m", "referee", "run", str(record), "--json"],
                            cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                            timeout=TIMEOUT, env=child_env())
    assert replay.returncode == 0, replay.stderr
    data = json.loads(replay.stdout)
    assert data["outcome"]["data"]["status"] == {"unit-1": "disorganized",
                                                 "unit-2": "disorganized"}


@pytest.mark.clause("W-6")
def test_W6_smoke_at_the_terminal_then_the_marker_phase(spawn, tmp_path):
    game = tmp_path / "game.sqlite"
    s = Session(spawn("attack", "waw", "--seed", "4", "--game", str(game)))
    s.expect("Which artillery mission?")
    s.child.send(DOWN + ENTER)  # Smoke
    s.expect("Target hex")
    s.child.sendline("805")
    s.expect("Outcome: Smoke 2 in hex 0805")
    assert s.finish() == 0
    for expected in ("Smoke 1", "No markers on the map"):
        s = Session(spawn("waw-markers", "--game", str(game), "--phase"))
        s.expect(expected)
        assert s.finish() == 0


@pytest.mark.clause("W-2")
def test_W2_W3_compact_lines_at_the_terminal_refuse_early_and_lists_filter(spawn):
    """The hex with its defence bonus, the units and the ratings in one line each; a wrong
    part is refused at once with its reason and the same question stays open; typing at a
    list filters it."""
    s = Session(spawn("attack", "waw", "--seed", "4", "--working"))
    s.expect("Which artillery mission?")
    s.child.send(ENTER)
    s.expect("Target hex, and its terrain's infantry defence bonus if you know it?")
    s.child.sendline("0712 x")
    s.expect("'x': the infantry defence bonus is a whole number from 0 to 10")
    s.child.sendline("0712 1")
    s.expect("Units in the target hex")
    s.child.sendline("2 inf tnak")
    s.expect("'tnak' in '2 inf tnak': not a count, kind or state")
    s.child.sendline("2 inf, cv")
    s.expect("Mission firepower and hit number")
    s.child.sendline("5 9+")
    s.expect("'9+': the hit number is from 1+ to 6+")
    s.child.sendline("5 4+")
    s.expect("Roll the HE attack: 5 dice, 4+ hits")
    s.child.sendline("5 5 5 5 5")
    s.expect("Owner: roll terrain defence: 1 die")
    s.child.sendline("6")
    s.expect("Roll a d3 to pick who takes the hit")
    s.child.sendline("3")
    s.expect("What does a first HE hit do to unit 1")
    s.child.send("disorg")  # the list keeps "disorganized"
    s.child.send(ENTER)  # unit 2 reads the same chart: not asked again (issue 27)
    s.expect("Outcome:")
    s.expect("4 net hits")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "What does a first HE hit do to unit 2" not in shown
    assert "unit 1: 1 hit: good order → disorganized" in shown
    assert "unit 2: 1 hit: good order → disorganized" in shown


@pytest.mark.clause("W-3")
def test_W3_compact_lines_in_russian_with_russian_labels(spawn):
    s = Session(spawn("--lang", "ru", "attack", "waw", "--seed", "4"))
    s.expect("Какая артиллерийская задача?")
    s.child.send("ОФ")
    s.child.send(ENTER)
    s.expect("Гекс цели и, если знаете, пехотный защитный бонус его местности?")
    s.child.sendline("0712 1")
    s.expect("Подразделения в гексе цели")
    s.child.sendline("2 пех, бм тнак")
    s.expect("«тнак» в «бм тнак»: это не число, не вид и не состояние")
    s.child.sendline("2 пех, бм")
    s.expect("Огневая мощь и значение попадания задачи")
    s.child.sendline("5 4+")
    s.expect("Бросок атаки ОФ: 5 кубиков, попадание на 4+")
    s.child.sendline("5 5 5 5 5")
    s.expect("Владелец: бросок защиты местности")
    s.child.sendline("6")
    s.expect("Бросьте d3")
    s.child.sendline("3")
    s.expect("подразделение 1: что делает с подразделением первое попадание ОФ")
    s.child.send("дезорг")
    s.child.send(ENTER)  # подразделение 2 читает ту же таблицу: не спрашивается
    s.expect("0712")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "2 пех, бм" in shown  # the answered line, in the words typed
    assert "unit 1" not in shown


@pytest.mark.clause("W-8")
def test_W8_a_strike_on_a_kept_hex_as_the_game_keeps_it_at_the_terminal(spawn, tmp_path):
    """Issue 27: the hex an HE mission left in the game file is offered for a chemical
    strike as the game keeps it (no units line), each ride asked once, then the morale
    checks in one line, a wrong line refused with its reason and asked again."""
    game, again = tmp_path / "game.sqlite", tmp_path / "again.sqlite"

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT,
                              capture_output=True, text=True, encoding="utf-8",
                              timeout=TIMEOUT, env=child_env())

    for each in (game, again):  # the first mission, in two game files
        first = referee("run", str(ROOT / "benchmarks" / "questions" / "waw-first-mission.toml"),
                        "--game", str(each), "--seed", "1")
        assert first.returncode == 0, first.stderr
    record = tmp_path / "strike.toml"
    s = Session(spawn("attack", "waw", "--seed", "1", "--game", str(game),
                      "--record", str(record)))
    s.expect("Which artillery mission?")
    s.expect("Chemical strike on hex 0712, as the game keeps it")
    # kept HE, HE (the default), smoke, FASCAM, chemical, then the kept strike as kept
    s.child.send(DOWN * 4 + ENTER)
    s.expect("Does unit 1 ride in a combat vehicle?")
    s.child.send(ENTER)  # on foot, the default
    s.expect("Does unit 2 ride in a combat vehicle?")
    s.child.send(ENTER)
    s.expect("Morale checks, in this order: unit 1, unit 2, unit 3")
    s.child.sendline("y n")
    s.expect("2 answers for 3 morale checks")
    s.child.sendline("y n y")
    s.expect("Outcome: hex 0712")
    assert s.finish() == 0
    assert "units in the target hex" not in s.text.casefold()  # no units line
    answers = tomllib.loads(record.read_text(encoding="utf-8"))["answers"]
    assert answers["mission"] == "kept-chemical-as-kept:0712"
    assert answers["morale"] == "y n y"
    replay = referee("run", str(record), "--game", str(again), "--json")  # the same strike
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["outcome"]["data"]["passed"] == {
        "unit-1": True, "unit-2": False, "unit-3": True}
