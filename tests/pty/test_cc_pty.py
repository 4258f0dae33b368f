"""Combat Commander at a real pseudo-terminal (pexpect): the excerpt's examples C and D typed
card by card, a refused card re-asked, a drawn card recorded and replayed exactly."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.support.pty import ENTER, ROOT, TIMEOUT, Session, child_env, squash

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

DECL = "transcripts/scripts/declarations/cc-example-c-d.toml"
Q_BASE = "Which piece is the base of the fire group?"
Q_FIRE = "Fire roll: draw from the German Fate deck (FP 11)"
Q_DEFENCE = "Defence roll for US squad (invented) (Morale 5)"
CARD_HINT = "or Enter to draw"


def _replay(record: object) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "referee", "run", str(record), "--json"],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                          timeout=TIMEOUT, env=child_env())
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


@pytest.mark.clause("C-8")
@pytest.mark.clause("C-10")
def test_C8_C10_examples_C_D_typed_at_a_terminal_with_a_refused_card(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "cc", "--declaration", DECL, "--seed", "3",
                      "--record", str(record)))
    s.expect(Q_BASE)
    s.expect("Rifle squad L8 (FP 6)")  # the highest, offered first and the default
    s.child.send(ENTER)
    s.expect(Q_FIRE)
    s.expect(CARD_HINT)
    s.child.sendline("4 1 boom")
    s.expect("unknown trigger 'boom'")
    s.expect(Q_FIRE)
    assert "Outcome:" not in s.text
    s.child.sendline("4 1")
    s.expect(Q_DEFENCE)
    s.child.sendline("6-4")
    s.expect("Outcome: Attack total 16.")
    assert s.finish() == 0
    assert "Traceback" not in s.text
    assert "US squad (invented): broken" in squash(s.text)
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"] == {"base": "rifle-squad-l8", "fire": [4, 1],
                                 "defence.us-squad-invented": [6, 4]}
    data = _replay(record)
    assert data["outcome"]["data"]["attack_total"] == 16  # type: ignore[index]


@pytest.mark.clause("C-X8")
def test_CX8_a_drawn_card_is_recorded_as_its_values_and_replays(spawn, tmp_path):
    record = tmp_path / "drawn.toml"
    s = Session(spawn("attack", "cc", "--declaration",
                      "transcripts/scripts/declarations/cc-example-j.toml",
                      "--seed", "5", "--record", str(record)))
    s.expect("Outcome: Attack not allowed")  # FP -1: no card is asked at all
    assert s.finish() == 0
    s = Session(spawn("attack", "cc", "--declaration", DECL, "--seed", "5",
                      "--record", str(record)))
    s.expect(Q_BASE)
    s.child.send(ENTER)
    s.expect(Q_FIRE)
    s.child.send(ENTER)  # draw from the virtual German deck
    s.expect("(rolled)")
    while True:  # an Event! card asks what the event did; a draw answers the defence
        index = s.child.expect_exact(["what did the event do", Q_DEFENCE, "Outcome:"])
        if index == 2:
            break
        s.child.send(ENTER)
    assert s.finish() == 0
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    drawn = script["answers"]["fire"]
    assert isinstance(drawn, dict) and set(drawn) == {"rolled"}
    data = _replay(record)
    steps = data["steps"]
    fire_step = next(st for st in steps if st["clause"] == "C-3")  # type: ignore[union-attr]
    assert fire_step["data"]["source"] == "rolled"
    assert fire_step["data"]["card"].startswith(f"{drawn['rolled'][0]}-{drawn['rolled'][1]}")


# --- the typed-in fire group (issue 14): compact lines, early refusal, type-to-filter ---------


def _play(s: Session, steps: list[tuple[str, str]]) -> None:
    """Wait for each text, then type what follows it (``ENTER`` alone: the default)."""
    for shown, typed in steps:
        s.expect(shown)
        s.child.send(typed)


@pytest.mark.clause("C-6")
@pytest.mark.clause("C-14")
def test_C6_C14_compact_lines_at_a_terminal_a_piece_refused_as_typed_and_typed_again(
        spawn, tmp_path):
    record = tmp_path / "typed.toml"
    s = Session(spawn("attack", "cc", "--seed", "3", "--record", str(record)))
    _play(s, [
        ("Which side fires?", "brit"),  # type-to-filter: only British is left
        ("British", ENTER),
        ("Whose units are in the target hex?", "germ" + ENTER),
        ("Fire group: piece 1?", ""), ("e.g. 'squad 5 6 3'", "squad 5 5 3" + ENTER),
        ("Fire group: piece 2?", "team 4 2 3" + ENTER),
        ("team cannot reach the target hex: 3 hexes, Range with Command 2 (C-6): "
         "not in the group", ""),
        # his Command brings the team in range (example B)
        ("Fire group: piece 2?", "Sgt leader 1" + ENTER),
        ("Fire group: piece 3?", "team 4 2 3" + ENTER),
        ("Fire group: piece 4?", ""), ("Enter for -", ENTER),
        ("FP from actions and terrain, and the target hex's cover?", ENTER),  # cover 0
        ("Target hex: unit 1?", "2x 7" + ENTER),
        ("Target hex: unit 2?", ENTER),  # the questions count lines: no gap (issue 27)
        (Q_BASE, ""), ("squad (FP 6)", ENTER),
        ("Fire roll: draw from the British Fate deck (FP 7)", "2 3" + ENTER),
        ("Defence roll for German unit 1 (Morale 7)", "1 3" + ENTER),
        ("Defence roll for German unit 2 (Morale 7)", "5 6" + ENTER),
        ("Outcome: Attack total 12.", "")])
    assert s.finish() == 0
    assert "Traceback" not in s.text
    assert "German unit 1: broken; German unit 2: no effect" in squash(s.text)
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert {k: v for k, v in script["answers"].items() if k.startswith(("piece", "unit"))} == {
        "piece.1": "squad 5 5 3", "piece.2": "Sgt leader 1", "piece.3": "team 4 2 3",
        "piece.4": "-", "unit.1": "2x 7", "unit.2": "-"}
    assert _replay(record)["outcome"]["data"]["attack_total"] == 12  # type: ignore[index]


@pytest.mark.clause("C-7")
def test_C7_in_russian_lines_in_russian_words_a_white_band_weapon_refused_in_a_group(spawn):
    s = Session(spawn("--lang", "ru", "attack", "cc", "--seed", "3"))
    _play(s, [
        ("Какая сторона стреляет?", "фран"),  # Cyrillic letters filter the list too
        ("Франция", ENTER),
        ("Чьи подразделения в гексе цели?", "итал" + ENTER),
        ("Огневая Группа: фишка 1?", ""),
        ("например 'отделение 5 6 3'", "отделение 5 6 3 с пулемёт 2 8" + ENTER),
        ("Огневая Группа: фишка 2?", "миномёт 6 12 3 белая" + ENTER),
        ("миномёт — Вооружение с белой полосой: всегда стреляет в одиночку, никогда в "
         "группе (C-7): в группу не входит", ""),
        # "-": the group is the squad and its MG (after a refused line, Enter alone takes
        # no default: issue 27)
        ("Огневая Группа: фишка 2?", "-" + ENTER),
        ("ОМ от Действий и местности и Укрытие гекса цели?", "укрытие 1" + ENTER),
        ("Гекс цели: подразделение 1?", "отделение 7" + ENTER),
        ("Гекс цели: подразделение 2?", ENTER),
        ("Какая фишка — базовая в Огневой Группе?", ENTER),
        ("Бросок на Стрельбу", "5 6" + ENTER),
        ("Бросок на Защиту, отделение (Мораль 8)", "1 3" + ENTER),
        ("Итог: Сумма Атаки 17.", "")])
    assert s.finish() == 0
    assert "Traceback" not in s.text
    assert "отделение: сломлено" in squash(s.text)
    assert "отделение 5 6 3 с пулемёт 2 8" in squash(s.text)  # written back in Russian


FIRST_AT = """ruleset = "cc"
use_defaults = true

[answers]
attacker = "germany"
defender = "america"
"piece.1" = "squad 5 6 3"
"piece.2" = "team 3 8 3"
situation = "@{hex} cover 1"
"unit.1" = "{unit} 7"
fire = "4 5"
"defence.unit-1" = "4 5"
"""


def test_a_later_attack_picks_the_kept_pieces_by_name_at_the_table(spawn, tmp_path):
    """Issue 27: in a game file the pieces an attack typed are offered by name; typing a
    name filters the list, Enter takes it; nothing else of the pieces is asked."""
    game = tmp_path / "game.sqlite"
    for hex_name, unit in (("H3", "Rifles"), ("H5", "Gunners")):
        script = tmp_path / f"{hex_name}.toml"
        script.write_text(FIRST_AT.replace("{hex}", hex_name).replace("{unit}", unit),
                          encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "referee", "run", str(script), "--game",
                               str(game), "--word", "oak"], cwd=ROOT, capture_output=True,
                              text=True, encoding="utf-8", timeout=TIMEOUT, env=child_env())
        assert done.returncode == 0, done.stderr
    s = Session(spawn("attack", "cc", "--game", str(game), "--no-odds"))
    s.expect("Which side fires? (or which kept pieces fire at which)")
    s.expect("Italian")  # the whole list is drawn
    s.child.send("Gunners")  # filters: the two lines of the Gunners' hex
    s.expect("Gunners in H5")
    s.child.send(ENTER)  # the first: as the game keeps them
    s.expect(Q_BASE)
    s.child.send(ENTER)
    s.expect("Fire roll: draw from the German Fate deck (FP 6)")
    s.child.sendline("4 5")
    s.expect("Defence roll for Gunners (Morale 8)")
    s.child.sendline("4 5")
    s.expect("Outcome: Attack total 15. hex H5")
    assert s.finish() == 0
    text = squash(s.text)
    assert "Traceback" not in text
    assert "Fire group: piece" not in text and "Target hex: unit" not in text
    assert "Rifles" not in text.split("Which side fires?")[-1].split(
        "Gunners in H5")[-1]
