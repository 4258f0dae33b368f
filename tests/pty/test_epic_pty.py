"""The Epic allocation question driven through a real pseudo-terminal (pexpect): the defender
is offered the legal units only, picks with the arrow keys, and the recording replays."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from tests.support.pty import DOWN, ENTER, ROOT, TIMEOUT, Session, child_env

pytestmark = [pytest.mark.pty,
              pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pty")]

DECLARATION = "transcripts/scripts/epic-legal-options.toml"  # a declaration only


@pytest.mark.clause("E-10")
def test_E10_defender_offered_only_legal_units_at_a_terminal(spawn, tmp_path) -> None:
    record = tmp_path / "alloc.toml"
    s = Session(spawn("attack", "epic", "--declaration", DECLARATION, "--seed", "4",
                      "--record", str(record)))
    s.expect("What action is Grey Company (invented) taking?")
    s.child.send(ENTER)  # Advance, the default
    s.expect("Roll to hit for Rifle: 1 die, 5+ hits")
    s.child.sendline("6")
    s.expect("Hit 1 (AP): which unit takes it?")
    s.expect("Crew 2 (INF, 12 cm, 0 hits so far)")
    # the tank is nearest, but AP hits cannot go to armour: it is not offered (E-10)
    assert "Tank" not in s.text
    s.child.send(DOWN + ENTER)
    s.expect("Save for Crew 2: 1 die, 6+ saves")
    s.child.sendline("4")
    s.expect("Outcome: Red Hill Battery (invented): 1 unit destroyed")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["allocate.normal.1"] == "crew-2"
    replay = subprocess.run([sys.executable, "-m", "referee", "run", str(record)], cwd=ROOT,
                            capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT,
                            env=child_env())
    assert replay.returncode == 0, replay.stderr
    assert "Crew 2 is destroyed" in replay.stdout


def _replays(record, expected: str) -> None:
    """The recording runs again as a script, to the same end."""
    replay = subprocess.run([sys.executable, "-m", "referee", "run", str(record)], cwd=ROOT,
                            capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT,
                            env=child_env())
    assert replay.returncode == 0, replay.stderr
    assert expected in replay.stdout


def _talk(s: Session, steps: list[tuple[str, str | None]]) -> None:
    """Each step: what the terminal shows, then what is typed (None: nothing yet)."""
    for shown, typed in steps:
        s.expect(shown)
        if typed is not None:
            s.child.send(typed)


def test_compact_lines_at_a_terminal_a_bad_line_refused_and_asked_again(spawn, tmp_path):
    """The whole attack typed in one line per formation (issue 27): the firing formation
    named before a colon, the target's left to its label, a weapon and the units named
    (``Lascannon``, ``Rifles``) and the crossfire in the target's line (``xf1``); a line
    missing its save is refused at once with the part that is wrong and asked again, the
    action list filters as one types, both weapons' dice are one prompt (a wrong count
    refused with its reason), and the recording holds the lines and replays."""
    record = tmp_path / "lines.toml"
    s = Session(spawn("attack", "epic", "--seed", "4", "--record", str(record)))
    _talk(s, [
        ("What is to be resolved?", ENTER),  # the whole attack
        ("Firing formation?", None),
        ("a name and : first (without one: 'Firing formation')", None),
        ("E.g. 4 ap4", "Grey Company (invented): 3 ap4, Lascannon 1 ap5" + ENTER),
        ("Target formation?", None),
        ("xf1 for the other friendly formations", "Rifles 3 inf woods 30" + ENTER),
        ("✗ the armour save is missing: 5+, or - for none", None),
        ("Target formation?", "Rifles 3 inf 6+ woods 30, xf1" + ENTER),
        ("Is Target formation broken already", ENTER),  # No (E-14)
        ("What action is Grey Company (invented) taking?", "sus"),  # the list filters
        ("Sustained Fire", ENTER),
        # every weapon's roll in one prompt, the groups in the order of the table above it
        # (+1 SF, -1 cover): a wrong count in all, then in a group, refused and asked again
        ("Rolls to hit, in order", None),
        ("Lascannon", None),
        ("Roll to hit: 4 dice, the 2 groups in the order of the table", "6 6 6" + ENTER),
        ("✗ 4 dice in all, 3 given", None),
        ("Roll to hit: 4 dice", "6 6, 6" + ENTER),
        ("✗ part 1 (AP4+): 3 dice, 2 given", None),
        ("Roll to hit: 4 dice", "6 6 6, 1" + ENTER),
        # three alike units, a hit each: their saves are one roll, a die a unit; the
        # crossfire makes the woods' 5+ a 6+ (E-11)
        ("Save for Rifles 1 to Rifles 3, a die each: 3 dice, 6+ saves", "6 6 5" + ENTER),
        # under fire, the kill and one more for the crossfire (E-13): 3 on 2 units left
        ("Outcome: Target formation: 1 unit destroyed, 3 Blast markers, broken", None)])
    assert s.finish() == 0
    assert "Traceback" not in s.text
    answers = tomllib.loads(record.read_text(encoding="utf-8"))["answers"]
    assert answers["firing"] == "Grey Company (invented): 3 ap4, Lascannon 1 ap5"
    assert answers["to-hit"] == [6, 6, 6, 1]
    assert answers["target"] == "xf1, Rifles 3 inf 6+ woods 30"
    assert answers["action"] == "sustained-fire"
    assert answers["save.normal.rifles-1..rifles-3"] == [6, 6, 5]
    _replays(record, "Target formation: 1 unit destroyed")


def test_compact_lines_in_russian_and_overwatch_fire_found_by_typing(spawn, tmp_path):
    """In Russian: the labels of unnamed formations, Russian words in the lines (refused
    in Russian when one is missing), the action list filtered by Russian letters to
    overwatch fire, whose questions follow."""
    record = tmp_path / "ru.toml"
    s = Session(spawn("--lang", "ru", "attack", "epic", "--seed", "4", "--record",
                      str(record)))
    _talk(s, [
        ("Что разбираем?", ENTER),
        ("Стреляющая формация?", None),
        ("название и : в начале (без него — «Стреляющая формация»)", "2 АР5" + ENTER),
        ("Формация-цель?", "2 пех 6+ лес" + ENTER),
        ("✗ нет расстояния до ближайшего атакующего", None),
        ("Формация-цель?", "2 пех 6+ лес 25" + ENTER),
        ("2 пех 6+ лес 25", None),  # shown back in Russian words
        ("уже разбита", ENTER),  # нет (E-14)
        ("Какое Действие выполняет «Стреляющая формация»?", "Огонь"),  # Russian letters filter
        ("Огонь из «Надзора»", ENTER),
        ("«Стреляющая формация» в «Надзоре»: что сделала формация «Формация-цель»?", ENTER),
        ("Какое Действие выполняет формация «Формация-цель»?", ENTER),  # Advance: one move
        ("2 кубика, попадание на 6+", "6 6" + ENTER),  # cover -1: both units in woods
        # units typed without a name are named by their type, in Russian (issue 27)
        ("Спас-броски, Пехота 1 — Пехота 2, по кубику на юнит", "1 6" + ENTER),
        ("Итог: «Формация-цель»: уничтожен 1 юнит", None)])
    assert s.finish() == 0
    assert "Traceback" not in s.text
    answers = tomllib.loads(record.read_text(encoding="utf-8"))["answers"]
    assert answers["firing"] == "2 ap5"
    assert answers["target"] == "2 пех 6+ лес 25"
    assert answers["action"] == "overwatch-fire" and answers["overwatch.trigger"] == "move"
    _replays(record, "1 unit destroyed")
