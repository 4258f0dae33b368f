"""The opponent's seat at the terminal (``play.phones``), through a real pseudo-terminal and
a served game file, the phone played by its form (the browser plays it in
``test_serve_browser.py``).

Whichever answers first wins: Enter at the terminal claims the question (the phone's answer
after it is not taken); a phone's ``<`` goes back as at the terminal; a server killed with
kill -9 leaves the question to the terminal, which finishes the attack; who attacks is asked
once when the declaration does not say (and the program's dice take their part from the
opponent's phone, roll by roll, no word asked); the attack's progress is published while it
runs and cleared at its end; questions that are either player's stay at the terminal.
"""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from referee.game import live
from tests.support.game import fixed_seed, log_json
from tests.support.pty import ENTER, start, strip_ansi
from tests.support.serve import (
    declaration,
    kill9,
    make_game,
    open_question,
    phone,
    post,
    serving,
    start_server,
    stop_server,
    wait_for,
)

pytestmark = pytest.mark.pty


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fixed_seed(monkeypatch)
    return make_game(tmp_path)


def _to_the_first_save(game: Path, decl: Path) -> pexpect.spawn:
    child = start("attack", "epic", "--declaration", str(decl), "--game", str(game))
    child.expect("What action")
    child.send(ENTER)
    child.expect("Roll to hit for Rifle")
    child.sendline("5 6 5 5 6")
    child.expect("waiting for Red's phone")
    return child


def _finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    text = strip_ansi(child.before or "")
    assert child.exitstatus == 0, text
    return text


def test_enter_at_the_terminal_wins_and_the_phone_is_too_late(game: Path,
                                                              tmp_path: Path) -> None:
    with serving(game) as served, phone(served.seat("Red")):
        child = _to_the_first_save(game, declaration(tmp_path))
        asked = wait_for(lambda: open_question(game), what="the question put to Red")
        child.send(ENTER)  # answer here
        child.expect("Save for A: 2 dice")
        code, _ = post(served.seat("Red") + "/answer", {"q": str(asked.id), "answer": "roll"})
        assert code == 303
        found = live.read_question(game, asked.id)
        assert found is not None and found.by == "terminal" and found.answer is None
        child.sendline("6 6")
        for _ in range(2):  # C and D: each answered here too
            child.expect("waiting for Red's phone")
            child.send(ENTER)
            child.expect("Save for")
            child.sendline("=1")
        _finish(child)
    rolls = {r["question"]: r for r in log_json(game)["entries"][0]["rolls"]}
    assert rolls["save.normal.a"]["dice"] == [6, 6]
    assert rolls["save.normal.a"]["source"] == "typed"


def test_the_phones_back_goes_back_as_at_the_terminal(game: Path, tmp_path: Path) -> None:
    with serving(game) as served, phone(served.seat("Red")):
        child = _to_the_first_save(game, declaration(tmp_path))
        asked = wait_for(lambda: open_question(game), what="the question put to Red")
        assert asked.question["can_back"] is True
        post(served.seat("Red") + "/answer", {"q": str(asked.id), "answer": "<"})
        child.expect(r"Save for A.*<.*\(Red's phone\)")
        child.expect("Roll to hit for Rifle")  # the attacker's question, at the terminal
        child.sendline("1 1 1 1 1")  # no hit: no save to ask
        text = _finish(child)
        assert "waiting for Red's phone" not in text.split("Roll to hit for Rifle")[-1]
    entry = log_json(game)["entries"][0]
    assert [r["question"] for r in entry["rolls"]] == ["to-hit.rifle"]


def test_a_wrong_answer_from_the_phone_is_refused_and_the_question_stays(
        game: Path, tmp_path: Path) -> None:
    with serving(game) as served, phone(served.seat("Red")):
        child = _to_the_first_save(game, declaration(tmp_path))
        asked = wait_for(lambda: open_question(game), what="the question put to Red")
        post(served.seat("Red") + "/answer", {"q": str(asked.id), "answer": "typed",
                                              "typed": "1 2 3"})
        refused = wait_for(lambda: (q := live.read_question(game, asked.id)) is not None
                           and q.error is not None and q, what="the refusal")
        assert refused.by is None and not refused.done  # open again, its reason kept
        assert refused.error["msg"].startswith("dice.error")
        post(served.seat("Red") + "/answer", {"q": str(asked.id), "answer": "typed",
                                              "typed": "6 2"})
        child.expect(r"Save for A: 2 dice, 6\+ saves\s+6 2 \(Red's phone\)")
        child.expect("waiting for Red's phone")  # the next save
        child.terminate(force=True)
    entries = log_json(game)["entries"]
    assert entries == []  # interrupted: nothing written


def test_a_server_killed_with_kill_9_leaves_the_question_to_the_terminal(
        game: Path, tmp_path: Path) -> None:
    served = start_server(game)
    try:
        with phone(served.seat("Red")):
            child = _to_the_first_save(game, declaration(tmp_path))
            kill9(served)
            child.expect("Red's phone is gone")
            child.expect("Save for A: 2 dice")
            child.sendline("6 6")
            child.expect("Save for C")  # no server: the rest at the terminal, as always
            child.sendline("6 6")
            child.expect("Save for D")
            child.sendline("6")
            text = _finish(child)
            assert "Outcome" in text
    finally:
        stop_server(served)
    assert len(log_json(game)["entries"]) == 1


def test_who_attacks_is_asked_once_when_the_declaration_does_not_say(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    game = make_game(tmp_path, sides=())  # no formation's side known yet
    with serving(game) as served, phone(served.seat("Red")):
        child = start("attack", "epic", "--declaration", str(declaration(tmp_path)),
                      "--game", str(game))
        child.expect("Which side is attacking now")  # at its first question of a side's
        child.send(ENTER)  # Grey, the first
        child.expect("What action")
        child.send(ENTER)
        child.expect("Roll to hit for Rifle")
        child.sendline("5 6 5 5 6")
        child.expect("waiting for Red's phone")
        for _ in range(3):
            asked = wait_for(lambda: open_question(game), what="a question put to Red")
            post(served.seat("Red") + "/answer", {"q": str(asked.id), "answer": "roll"})
            wait_for(lambda a=asked: (q := live.read_question(game, a.id)) is not None
                     and q.done, what="the answer taken")
        text = _finish(child)
        assert "Which side is Grey Company (invented) on" not in text  # not asked again
        # the program's dice took their part from Red's phone, roll by roll, no word asked
        assert "waiting for Red's phone to add its part to roll 0 of #1" in text
        assert "type a word for this attack's dice" not in text
    log = log_json(game)
    entry = log["entries"][0]
    assert (entry["attacker_side"], entry["defender_side"]) == ("Grey", "Red")
    parts = [e["body"] for e in log["events"] if e["kind"] == "contribution"]
    assert [(p["kind"], p["roll"]) for p in parts] == [("phone", j) for j in range(3)]


def test_the_attack_in_progress_is_published_and_cleared(game: Path, tmp_path: Path) -> None:
    with serving(game):
        child = start("attack", "epic", "--declaration", str(declaration(tmp_path)),
                      "--game", str(game))
        child.expect("What action")
        child.send(ENTER)
        child.expect("Roll to hit for Rifle")

        def progress() -> dict | None:
            with live.live_read(game) as conn:
                return live.progress_of(conn)

        found = wait_for(lambda: (p := progress()) and p["asking"] and p, what="progress")
        assert found["asking"]["id"] == "to-hit.rifle"
        assert [s["id"] for s in found["steps"]] == ["action"]
        child.sendline("5 6 5 5 6")
        for _ in range(3):  # no phone joined: the saves are asked here
            child.expect("Save for")
            child.sendline("6 6" if _ < 2 else "6")
        _finish(child)
        assert progress() is None
