"""``referee game serve``: what a phone may read and answer, and what the server survives.

Tokens: a wrong one finds nothing, the spectator's reads only, a side's answers only its
side's questions; every response under a strict Content-Security-Policy; bodies bounded; a
Host header not the server's own refused. The file: one server a file (a second is refused
with a clear message), WAL while served, the live tables outside the log's history and
revision, a writer holding the lock, a thousand entries more, a page in the phone's language.
No page shows the secret seed; the QR code printed is the seat's address; ``--lan`` warns.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from referee.game import live
from tests.support.game import invoke, log_json, run_in
from tests.support.serve import SCRIPTS, get, make_game, phone, post, serving, wait_for


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tests.support.game import fixed_seed

    fixed_seed(monkeypatch)
    return make_game(tmp_path)


def test_a_wrong_token_finds_nothing_and_every_page_has_a_strict_policy(game: Path) -> None:
    with serving(game) as served:
        base = served.watch.rsplit("/", 1)[0]
        code, _, _ = get(base + "/not-a-token")
        assert code == 404
        code, _, _ = get(base.rsplit("/t", 1)[0] + "/")
        assert code == 404
        code, headers, page = get(served.watch)
        assert code == 200
        policy = headers["content-security-policy"]
        assert policy.startswith("default-src 'none'; script-src 'self'; style-src 'self'")
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["cache-control"] == "no-store"
        assert headers["x-content-type-options"] == "nosniff"
        assert '<script src="/static/live.js" defer>' in page and "<script>" not in page
        code, headers, _report = get(served.watch + "/report")
        assert code == 200 and "default-src 'none'" in headers["content-security-policy"]


def test_a_host_that_is_not_the_server_is_refused(game: Path) -> None:
    with serving(game) as served:
        code, _, _ = get(served.watch, headers={"Host": "evil.example:80"})
        assert code == 404


def test_the_spectator_reads_only_and_a_side_answers_only_its_own_questions(
        game: Path) -> None:
    with serving(game) as served:
        qid = live.put_question(game, 1, "Red", {"id": "save.x", "kind": "dice",
                                                 "text": "Save?"})
        # the spectator's token cannot answer at all
        code, _ = post(served.watch + "/answer", {"q": str(qid), "answer": "roll"})
        assert code == 404
        # Grey's seat cannot answer Red's question
        code, _ = post(served.seat("Grey") + "/answer", {"q": str(qid), "answer": "roll"})
        assert code == 303
        assert live.read_question(game, qid).by is None  # type: ignore[union-attr]
        # Red's can, once: the first answer wins, a second phone of Red's is too late
        code, _ = post(served.seat("Red") + "/answer", {"q": str(qid), "answer": "typed",
                                                        "typed": "6 6"})
        assert code == 303
        code, _ = post(served.seat("Red") + "/answer", {"q": str(qid), "answer": "roll"})
        found = live.read_question(game, qid)
        assert found is not None and (found.by, found.answer) == ("phone", "6 6")


def test_a_request_body_is_bounded(game: Path) -> None:
    with serving(game) as served:
        code, _ = post(served.seat("Red") + "/answer", {"q": "1", "answer": "x" * 5000})
        assert code == 413
        code, _ = post(served.seat("Red") + "/answer", {"q": "1", "answer": "roll"},
                       headers={"Origin": "http://evil.example"})
        assert code == 403


def test_a_second_server_on_the_same_file_is_refused(game: Path) -> None:
    with serving(game) as served:
        code, _out, err = invoke(["game", "serve", str(game), "--port", "0"])
        assert code == 2
        assert f"is already served by process {served.proc.pid}" in err
        assert len(err.strip().splitlines()) == 1


def test_a_server_killed_with_kill_9_leaves_the_file_to_the_next(game: Path) -> None:
    from tests.support.serve import kill9, start_server, stop_server

    served = start_server(game)
    kill9(served)
    assert live.serving(game) is None  # its row stays, its process is gone
    again = start_server(game)  # the file is taken over
    try:
        assert live.serving(game) is not None
    finally:
        assert stop_server(again) == 0  # Ctrl-C: exit code 0, no traceback
    assert "Traceback" not in "".join(again.out) and "Error" not in "".join(again.out)
    assert live.serving(game) is None  # Ctrl-C: the file says nobody serves it


def test_served_the_file_is_in_wal_and_the_live_tables_leave_the_game_alone(
        game: Path, tmp_path: Path) -> None:
    with serving(game) as served:
        conn = sqlite3.connect(game)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.close()
        with phone(served.seat("Red")):
            wait_for(lambda: live.phones(game).get("Red") == 1, what="Red's phone")
            before = log_json(game)
            run_in(game, SCRIPTS / "epic-allocation.toml")  # writes as it always did
        # gone, the seat stays joined a while (a page reloaded comes back to its question)
        wait_for(lambda: live.phones(game) == {"Red": 0}, what="Red's phone gone")
        code, _out, err = invoke(["game", "undo", str(game), "--yes"])  # as it always did
        assert code == 0, err
        run_in(game, SCRIPTS / "epic-allocation.toml")  # redone, served
    entries = log_json(game)["entries"]
    assert len(entries) == len(before["entries"]) + 2 and entries[-2]["undone"] is not None
    code, _out, err = invoke(["game", "verify", str(game)])
    assert code == 0, err  # the live tables are outside the log and its checks


def test_the_page_comes_with_a_writer_holding_the_lock(game: Path) -> None:
    with serving(game) as served:
        holder = sqlite3.connect(game, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another command writing, for a while
        try:
            started = time.monotonic()
            code, _, page = get(served.watch)
            assert code == 200 and "Battle report" in page
            assert time.monotonic() - started < 5
            with phone(served.seat("Red")) as received:
                assert any("event: update" in line for line in received)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        run_in(game, SCRIPTS / "epic-allocation.toml")
        wait_for(lambda: "Red&#39;s Red Hill Battery (invented)" in get(served.watch)[2],
                 what="the entry written meanwhile, on the page")


def test_a_thousand_entries_more_are_served(game: Path) -> None:
    from benchmarks.serve import grow

    with serving(game) as served:
        grow(game, 1000)
        code, _, page = get(served.watch)
        assert code == 200
        assert page.count("<article") == 60  # the newest (the report has them all)
        code, _, report = get(served.watch + "/report")
        assert code == 200 and report.count("<article") == 1000


def test_the_page_is_in_the_phones_language(game: Path) -> None:
    with serving(game) as served:
        _, _, page = get(served.seat("Red"), headers={"Accept-Language": "ru-RU,ru;q=0.9"})
        assert '<html lang="ru">' in page and "Место стороны Red" in page
        _, _, page = get(served.seat("Red"), headers={"Accept-Language": "de, en;q=0.5"})
        assert '<html lang="en">' in page and "Red&#39;s seat" in page


def test_no_page_shows_the_secret_seed(game: Path) -> None:
    """The holder's secret (the seed the program's dice are drawn from) is on no page and in
    no update a phone receives, before the reveal: only its commitment."""
    from referee.game import read_game
    from referee.game.seed import game_info

    run_in(game, SCRIPTS / "epic-allocation.toml")
    with read_game(game) as tx:
        info = game_info(tx)
    assert info is not None and info.revealed is None
    with serving(game) as served:
        shown = [get(url)[2] for url in (served.watch, served.seat("Red"),
                                        served.seat("Grey"), served.watch + "/report")]
        with phone(served.seat("Red")) as received:
            shown.append("".join(received))
    assert all(info.seed not in text for text in shown)
    assert info.commitment in shown[3]  # what the players compare at the reveal


def test_the_qr_code_printed_is_the_seats_address(game: Path) -> None:
    """Each seat's QR code in the terminal encodes its address, token and all (the code the
    opponent scans), and the server listens on the loopback address only."""
    import io

    import segno

    with serving(game) as served:
        printed = "".join(served.out)
        for side in ("Grey", "Red"):
            url = served.seat(side)
            assert url.startswith("http://127.0.0.1:") and len(url.rsplit("/", 1)[1]) == 24
            drawn = io.StringIO()
            segno.make(url, error="m").terminal(out=drawn, compact=True)
            assert drawn.getvalue() in printed
        assert served.seat("Grey") != served.seat("Red") != served.watch


def test_lan_serves_on_the_network_address_with_a_warning_line(game: Path) -> None:
    """``--lan``: the machine's address in its network, said first in one warning line (a
    machine with no network refuses in one line instead)."""
    from referee.core.errors import UsageError
    from referee.serve.run import lan_address

    try:
        address = lan_address()
    except UsageError:
        code, _out, err = invoke(["game", "serve", str(game), "--lan", "--port", "0"])
        assert code == 2 and "no local network address found for --lan" in err
        return
    with serving(game, "--lan") as served:
        assert served.out[0].startswith("Warning: --lan serves this game to every device")
        assert served.seat("Red").startswith(f"http://{address}:")
        assert get(served.seat("Red"))[0] == 200


class Keys:
    """The terminal's keyboard in a test: Enter pressed once ``press`` is set."""

    def __init__(self) -> None:
        import threading

        self.press = threading.Event()

    def enter(self, timeout: float) -> bool:
        if self.press.wait(timeout):
            self.press.clear()
            return True
        return False


def _fetching(game: Path, roll: int, keys: Keys, said: list[str]) -> Any:
    """``PhoneBytes.fetch(roll)`` for Red's phone, in a thread (it waits as the terminal
    does): the thread and where its value lands."""
    import threading

    from referee.play.phones import PhoneBytes

    got: list[str] = []
    source = PhoneBytes(game, "Red", 3, ask_word=lambda: "typed at the terminal",
                        say=said.append, keyboard=keys)
    thread = threading.Thread(target=lambda: got.append(source.fetch(roll)), daemon=True)
    thread.start()
    return thread, got


def _asked(game: Path) -> Any:
    with live.live_read(game) as conn:
        return live.open_bytes(conn, "Red")


def test_a_rolls_part_comes_from_the_opponents_phone_and_only_from_it(game: Path) -> None:
    """The opponent's part of a roll (the trusted dice' contribution) is asked of Red's phone
    through the file; only Red's seat may give it, as random bytes, once; the spectator and
    Grey's seat cannot, nor a form from another site."""
    with serving(game) as served, phone(served.seat("Red"), give=False) as received:
        wait_for(lambda: "Red" in live.phones(game), what="Red's phone")
        said: list[str] = []
        thread, got = _fetching(game, 2, Keys(), said)
        asked = wait_for(lambda: _asked(game), what="the request for Red's bytes")
        assert (asked.entry, asked.roll, asked.side) == (3, 2, "Red")
        wait_for(lambda: any(f'"bytes": {{"id": {asked.id}, "entry": 3, "roll": 2}}' in line
                             for line in received),
                 what="the request on Red's event stream")
        value = "0123456789abcdef" * 2
        form = {"r": str(asked.id), "value": value}
        assert post(served.watch + "/bytes", form)[0] == 404  # the spectator gives nothing
        assert post(served.seat("Grey") + "/bytes", form)[0] == 409  # nor Grey, Red's part
        assert post(served.seat("Red") + "/bytes", {**form, "value": "XYZ" * 11})[0] == 409
        assert post(served.seat("Red") + "/bytes", form,
                    headers={"Origin": "http://evil.example"})[0] == 403
        assert post(served.seat("Red") + "/bytes", form)[0] == 204
        assert post(served.seat("Red") + "/bytes", {**form, "value": "f" * 32})[0] == 409
        thread.join(10)
        assert got == [value]
        # the seat shows what its phone gave, to compare with the terminal's game log
        wait_for(lambda: "#3 2: 01234567" in get(served.seat("Red"))[2],
                 what="the part on Red's page")
        assert "#3 2: 01234567" not in get(served.seat("Grey"))[2] + get(served.watch)[2]
        assert said[0] == ("waiting for Red's phone to add its part to roll 2 of #3 "
                           "(Enter: Red types a word here instead)")
        assert said[1] == f"Red's phone gave its part of roll 2 of #3: {value}"
    assert _asked(game) is None  # closed


def test_enter_at_the_terminal_takes_a_word_and_the_phones_bytes_are_too_late(
        game: Path) -> None:
    with serving(game) as served, phone(served.seat("Red"), give=False):
        wait_for(lambda: "Red" in live.phones(game), what="Red's phone")
        keys = Keys()
        thread, got = _fetching(game, 0, keys, [])
        asked = wait_for(lambda: _asked(game), what="the request for Red's bytes")
        keys.press.set()
        thread.join(10)
        assert got == ["typed at the terminal"]
        code, _ = post(served.seat("Red") + "/bytes", {"r": str(asked.id), "value": "a" * 32})
        assert code == 409
        found = live.read_bytes(game, asked.id)
        assert found is not None and found.by == "terminal" and found.value is None


def test_without_the_opponents_phone_the_word_is_asked_at_the_terminal(game: Path) -> None:
    said: list[str] = []
    with serving(game):
        thread, got = _fetching(game, 0, Keys(), said)
        thread.join(10)
        assert got == ["typed at the terminal"] and said == []
        assert _asked(game) is None


def test_the_contribution_comes_from_the_opponents_phone_only_while_it_is_joined(
        game: Path) -> None:
    """The contribution port while the file is served (``play.phones.PhoneSource``): the
    opponent's joined seat gives each roll's part (``PerRoll``, asked as each die is
    drawn); without it, the word asked at the terminal, as when nothing is served."""
    from referee.game.contribution import AskedWord, PerRoll, Word
    from referee.play.phones import PhoneSource, phone_source

    asked: list[Any] = []
    word = AskedWord(lambda question: asked.append(question) or "owls")
    assert phone_source(word, game, print) is word  # nothing served: as before
    with serving(game) as served:
        source = phone_source(word, game, print)
        assert isinstance(source, PhoneSource)
        assert source.contribution(1, "Red") == Word("owls")  # no phone of Red's joined
        assert asked[-1].id == "game.word"
        with phone(served.seat("Red")):
            wait_for(lambda: "Red" in live.phones(game), what="Red's phone")
            parts = source.contribution(2, "Red")
            assert isinstance(parts, PerRoll) and parts.kind == "phone"
            value = parts.value(0)  # given by the phone as the page gives it
            assert live.well_formed_bytes(value) and parts.value(0) == value
        assert len(asked) == 1  # no word asked while the phone gave the part
