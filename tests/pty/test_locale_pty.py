"""The interactive attack in Russian through a real pseudo-terminal: ``--lang ru`` before the
command, Russian questions and tables, a yes/no question answered by one key as in English
(н, no Enter; other keys answer nothing: issue 27), and a recording that holds the
language-independent values."""

from __future__ import annotations

import sys
import tomllib

import pytest

from tests.support.pty import DOWN, ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


def test_russian_attack_at_the_terminal(spawn, tmp_path):
    record = tmp_path / "rec.toml"
    s = Session(spawn("--lang", "ru", "attack", "epic", "--seed", "11", "--record",
                      str(record), "--working"))
    s.expect("Сид 11")
    s.expect("Что разбираем?")
    s.child.send(DOWN + ENTER)  # the whole attack → only the roll to hit
    s.expect("Сколько видов оружия стреляет?")
    s.child.sendline("1")
    s.expect("Оружие 1: сколько выстрелов?")
    s.child.sendline("4")
    s.expect("Оружие 1: значение попадания AP?")
    s.expect("(стрелки или буквы названия — выбор, Enter — ответ)")
    s.child.send(DOWN * 4 + ENTER)  # нет, 2+, 3+, 4+, 5+
    s.expect("Оружие 1: значение попадания AT?")
    s.child.send(ENTER)  # нет
    s.expect("Какое Действие выполняет «Стреляющая формация»?")
    s.child.send(DOWN + ENTER)  # Advance → Double
    s.expect("Формация «Формация-цель» в укрытии?")
    s.expect("(д/н, Enter — нет)")
    s.child.send("может")  # keys that are no answer answer nothing
    s.child.send("н")  # one key, as n in English
    s.expect("Бросок на попадание, ")
    s.expect(": 4 кубика, попадание на 6+")
    s.child.sendline("5 6 2 1")
    s.expect("Итог: 1 попадание AP и 0 попаданий AT")
    assert s.finish() == 0
    assert "Traceback" not in s.text and "Outcome" not in s.text
    assert "Ход расчёта" in s.text and "5 6 2 1 (введено) → 1" in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"] == {
        "attack-kind": "to-hit", "weapons": 1, "weapon.1.shots": 4, "weapon.1.ap": "5",
        "weapon.1.at": "none", "action": "double", "cover": False, "to-hit.weapon-1": [5, 6, 2, 1],
    }
