"""Lock 'n Load Tactical's fire from a hex through a real pseudo-terminal (pexpect), in English
and Russian: type-to-filter at the impulse list, the DRM and TM in one line refused early
with the wrong part named, both opposed dice in one answer, the result picked by filtering."""

from __future__ import annotations

import sys

import pytest

from tests.support.pty import ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

ROSTER = "benchmarks/questions/lnlt-fire.toml"


@pytest.mark.clause("L-5")
def test_L5_fire_from_a_hex_at_the_terminal(spawn, tmp_path):
    s = Session(spawn("phase", "lnlt", "--game", str(tmp_path / "g.sqlite"), "--roster",
                      ROSTER, "--seed", "1", "--impulses", "1", "--working"))
    s.expect("Impulse 1, Grey: activate units or pass?")
    s.child.send("fire")  # the list keeps "Fire from C4: Able squad"
    s.child.send(ENTER)
    s.expect("Fire at D4: Direct Fire Table modifiers (DRM), then the terrain modifier (TM)")
    s.child.sendline("0 x")
    s.expect("'x': the terrain modifier is a whole number from -5 to +10")
    s.child.sendline("0 1")
    s.expect("Opposed roll: attack die of Able squad, then defence die of D4")
    s.child.sendline("5")
    s.expect("expected 2 dice, got 1")
    s.child.sendline("5 1")
    s.expect("Damage-check die of Pawn half-squad")
    s.child.sendline("3")
    s.expect("damage check total 8")
    s.child.send("shak")
    s.child.send(ENTER)
    s.expect("the phase goes on: impulse 2, Red to play")
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "Able squad fires: the only unit or weapon of C4 that may fire" in shown
    assert "Attack 7 (die 5 + FP 2 + LM 0, DRM +0) against defence 2" in shown


@pytest.mark.clause("L-5")
def test_L5_fire_from_a_hex_in_russian(spawn, tmp_path):
    s = Session(spawn("--lang", "ru", "phase", "lnlt", "--game", str(tmp_path / "g.sqlite"),
                      "--roster", ROSTER, "--seed", "1", "--impulses", "1", "--working"))
    s.expect("Импульс 1, Grey: активировать юниты или пропустить?")
    s.child.send("огонь")
    s.child.send(ENTER)
    s.expect("Огонь по D4: модификаторы таблицы прямого огня (DRM), затем модификатор местности")
    s.child.sendline("+1 ъ")
    s.expect("«ъ»: модификатор местности — целое число от -5 до +10")
    s.child.sendline("+1 1")
    s.expect("Встречный бросок: кубик атаки (Able squad), затем кубик защиты (D4)")
    s.child.sendline("5 1")
    s.expect("Кубик проверки повреждений: Pawn half-squad")
    s.child.sendline("3")
    s.expect("сумма проверки повреждений 9")
    s.child.send("потряс")
    s.child.send(ENTER)
    assert s.finish() == 0
    shown = s.text
    assert "Traceback" not in shown
    assert "единственный юнит или оружие в C4" in shown
