"""Typing ahead is safe (issue 27, part 5), through a real pseudo-terminal: keys typed at
speed before a question is drawn never answer it (they are dropped, and the player is told
so), a yes/no question takes one key in English and in Russian alike, and no other key answers
it; the recording shows every answer on the question it was meant for."""

from __future__ import annotations

import sys
import tomllib

import pytest

from tests.support.pty import CTRL_C, DOWN, ENTER, Session, squash

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]

SCRIPT = "transcripts/scripts/epic-grey-company.toml"


@pytest.mark.parametrize(("lang", "texts"), [
    ("en", {"action": "What action is Grey Company (invented) taking?",
            "cover": "Is Red Hill Battery (invented) in cover?", "yes_no": "(y/n, Enter for no",
            "fire": "Heavy cannon fires AP5+ or AT4+?", "no": "n", "yes": "y",
            "dropped": "keys typed before this question were not taken",
            "roll": "Roll to hit for Heavy cannon", "interrupted": "Interrupted"}),
    ("ru", {"action": "Какое Действие выполняет «Grey Company (invented)»?",
            "cover": "Формация «Red Hill Battery (invented)» в укрытии?",
            "yes_no": "(д/н, Enter — нет", "fire": "Heavy cannon стреляет как AP5+ или AT4+?",
            "no": "н", "yes": "д", "dropped": "клавиши, нажатые до этого вопроса, не учтены",
            "roll": "Бросок на попадание", "interrupted": "Прервано"}),
])
def test_keys_typed_ahead_never_answer_the_next_question(spawn, tmp_path, lang: str,
                                                         texts: dict[str, str]) -> None:
    record = tmp_path / "rec.toml"
    args = ["--lang", lang] if lang != "en" else []
    s = Session(spawn(*args, "attack", "epic", "--declaration", SCRIPT, "--seed", "11",
                      "--no-odds", "--record", str(record)))
    s.expect(texts["action"])
    # at speed, in one write: Double, and a "yes" meant for nothing yet, and some text
    s.child.send(DOWN + ENTER + texts["yes"] + "yes  " + ENTER)
    s.expect(texts["dropped"])  # told, just above the question they would have answered
    s.expect(texts["cover"])
    s.expect(texts["yes_no"])
    s.child.send("xq? ")  # keys that are no answer (no y, n, д or н) answer nothing
    s.child.send(texts["no"])  # one key, no Enter, in either language
    s.expect(texts["fire"])
    s.child.send(ENTER)  # AP 5+
    s.expect(texts["roll"])
    s.child.send(CTRL_C)  # the record keeps every answer given so far
    s.child.expect(texts["interrupted"])
    assert "Traceback" not in s.text
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    # the typed-ahead "yes" did not take the cover: the player's "no" did
    assert script["answers"]["action"] == "double"
    assert script["answers"]["cover"] is False
    assert squash(texts["cover"]) in squash(s.text)


def test_a_refused_answer_never_flips_a_default_the_player_declined(spawn, tmp_path) -> None:
    """After a refused line, Enter alone takes no default: the player answers again."""
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "epic", "--seed", "11", "--no-odds", "--record",
                      str(record)))
    s.expect("What is to be resolved?")
    s.child.send(DOWN + ENTER)  # only the roll to hit
    s.expect("How many kinds of weapon fire?")
    s.child.sendline("x")
    s.expect("not a whole number")
    s.child.sendline("")  # Enter alone, after the refusal: not the default
    s.expect("after a refused one, Enter alone does not take the default")
    s.child.sendline("2")
    s.expect("Weapon 1: how many shots?")
    s.child.sendline("3")
    s.expect("Weapon 1: AP to-hit value?")
    s.child.send("\x03")
    s.child.expect("Interrupted")
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["weapons"] == 2
