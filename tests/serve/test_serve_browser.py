"""The game night with two phones, in a real browser: the Chromium of the system, driven by
Playwright (never a browser of Playwright's own).

A phone joins Red's seat by the address ``game serve`` prints, sees Grey's attack appear on
its page as the terminal answers, is given the defender's saving throws, has a wrong die
refused with the terminal's own reason, rolls from the page (each program roll's part given
by the phone's own random bytes, shown on it and kept in the log; the latest check code
shown as the terminal shows it), comes back after going away and finds its question again;
the attack at the terminal (a real pseudo-terminal) finishes with the phone's answers. Names
built to attack the page (a right-to-left override, a zero-width space, ESC, an OSC 8 link,
``<script>``) are shown as text and run nothing. Screenshots of the three pages (a seat with
its question, the game page, the report) at phone and desktop size are saved under the
test's folder (and into the folder named by ``REFEREE_SCREENSHOTS``, for docs/serve.md).

Without Chromium these tests, and only these, are skipped, saying how to install it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.support.game import fixed_seed, log_json, run_in, script
from tests.support.pty import ENTER, strip_ansi
from tests.support.serve import SCRIPTS, declaration, make_game, serving, wait_for

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the skip below says how to install it
    sync_playwright = None

# .ci/run sets REFEREE_BROWSER_REQUIRED: there a missing browser fails the tests, never skips them
pytestmark = pytest.mark.skipif(
    (sync_playwright is None or not CHROMIUM.exists())
    and not os.environ.get("REFEREE_BROWSER_REQUIRED"),
    reason="needs Chromium: apt-get install -y chromium chromium-driver "
           "(and pip install playwright)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def _shot(page: Any, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    also = os.environ.get("REFEREE_SCREENSHOTS")
    if also:
        Path(also).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(also) / path.name)
    return path


def _terminal(game: Path, decl: Path) -> pexpect.spawn:
    from tests.support.pty import start

    return start("attack", "epic", "--declaration", str(decl), "--game", str(game))


def _question(page: Any) -> str:
    found = page.query_selector(".question h2")
    return found.inner_text() if found else ""


def test_a_phone_answers_the_defenders_saves_and_the_terminal_finishes(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    game = make_game(tmp_path)
    decl = declaration(tmp_path)
    screens = tmp_path / "screens"
    with serving(game) as served:
        red = served.seat("Red")  # the address printed for Red's seat
        phone = browser.new_page(viewport=PHONE)
        errors: list[str] = []
        phone.on("pageerror", lambda err: errors.append(str(err)))
        phone.goto(red)
        assert "Red" in phone.inner_text(".bar")
        child = _terminal(game, decl)
        try:
            child.expect("What action")
            child.send(ENTER)
            child.expect("Roll to hit for Rifle")
            child.sendline("5 6 5 5 6")
            # the attack appears on the phone as the terminal answers, with the typed dice
            wait_for(lambda: "5 6 5 5 6" in phone.inner_text("#progress"),
                     what="the to-hit roll on the phone")
            child.expect("waiting for Red's phone")
            wait_for(lambda: "Save for A" in _question(phone), what="the save on the phone")
            assert phone.query_selector(".question button.roll") is not None
            # a phone that goes away and comes back finds its question again
            phone.reload()
            assert "Save for A" in _question(phone)
            # a die a d6 cannot show is refused with the terminal's own reason
            phone.fill(".question input[name=typed]", "9 9")
            phone.click(".question button[value=typed]")
            wait_for(lambda: phone.query_selector(".question .error"), what="the refusal")
            assert "9" in phone.inner_text(".question .error")
            _shot(phone, screens, "seat-phone")
            desk = browser.new_page(viewport=DESKTOP)  # a second phone of Red's
            desk.goto(red)
            assert "Save for A" in _question(desk)
            _shot(desk, screens, "seat-desktop")
            desk.close()
            phone.click(".question button.roll")
            child.expect(r"Save for A: 2 dice, 6\+ saves\s+\d \d \(rolled\) \(Red's phone\)")
            for unit in ("C", "D"):
                wait_for(lambda u=unit: f"Save for {u}" in _question(phone)
                         and phone.query_selector(".question button.roll"),
                         what=f"the save of {unit}")
                phone.click(".question button.roll")
                child.expect(rf"Save for {unit}: .*\(Red's phone\)")
            child.expect(pexpect.EOF)
            child.close()
            assert child.exitstatus == 0, strip_ansi(child.before or "")
        finally:
            if child.isalive():
                child.terminate(force=True)
        # the entry arrives on the phone's log, told as a player tells it
        wait_for(lambda: "shot at" in phone.inner_text("#log"), what="the entry on the log")
        assert "Red's Red Hill Battery (invented)" in phone.inner_text("#log")
        assert "No attack in progress" in phone.inner_text("#progress")
        # each program roll's part came from this phone, which shows what it gave
        given = phone.inner_text("#given")
        assert all(f"#1 {roll}: " in given for roll in range(3))
        assert "NOT from this phone" not in given
        # the latest check code, as the terminal's game log shows it
        last = log_json(game)["entries"][-1]["check_code"]  # as game log shows it
        wait_for(lambda: phone.inner_text("#code") == f"Check code: {last}",
                 what="the latest check code on the page")
        assert not errors
        watch = browser.new_page(viewport=PHONE)
        watch.goto(served.watch)
        assert watch.query_selector(".question") is None  # the spectator answers nothing
        _shot(watch, screens, "game-phone")
        watch.set_viewport_size(DESKTOP)
        _shot(watch, screens, "game-desktop")
        watch.click("text=Battle report")
        watch.wait_for_selector("#casualties")
        _shot(watch, screens, "report-desktop")
        watch.set_viewport_size(PHONE)
        _shot(watch, screens, "report-phone")

    log = log_json(game)
    entry = log["entries"][0]
    saves = [r for r in entry["rolls"] if r["question"].startswith("save.")]
    assert len(saves) == 3 and all(r["source"] == "rolled" for r in saves)
    parts = [e["body"] for e in log["events"] if e["kind"] == "contribution"]
    assert [(p["kind"], p["roll"]) for p in parts] == [("phone", 0), ("phone", 1), ("phone", 2)]
    assert all(p["value"][:8] in given for p in parts)  # what the phone showed it gave
    assert len(list(screens.glob("*.png"))) == 6


INJECTED = ("Evil\u202eytrap <script>window.pwned=1</script> <img src=x onerror=pwned=1>"
            "\u200bzero \x1b[31mred \x1b]8;;http://example.invalid\x1b\\link\x1b]8;;\x1b\\")


def test_names_built_to_attack_the_page_are_shown_as_text_and_run_nothing(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    game = make_game(tmp_path, sides=((INJECTED, "Grey"), ("Red Hill Battery (invented)",
                                                           "Red")))
    text = (SCRIPTS / "epic-allocation.toml").read_text(encoding="utf-8")
    run_in(game, script(tmp_path, "evil.toml",
                        text.replace('"Grey Company (invented)"', json.dumps(INJECTED))))
    with serving(game) as served:
        dialogs: list[str] = []

        def dialog(found: Any) -> None:
            dialogs.append(found.message)
            found.dismiss()

        for url in (served.watch, served.seat("Red"), served.watch + "/report"):
            page = browser.new_page(viewport=DESKTOP)
            page.on("dialog", dialog)
            page.goto(url)
            page.wait_for_timeout(300)
            shown = page.inner_text("body")
            assert "Evil\\u202eytrap <script>window.pwned=1</script>" in shown
            assert "\\u200bzero \\x1b[31mred \\x1b]8;;http://example.invalid\\x1b\\link" in shown
            assert "\u202e" not in shown and "\u200b" not in shown and "\x1b" not in shown
            assert page.evaluate("typeof window.pwned") == "undefined"
            assert not dialogs
            scripts = page.evaluate("[...document.scripts].map(s => s.src)")
            assert all(src.endswith("/static/live.js") for src in scripts)
            assert page.query_selector("a[href*='example.invalid']") is None
            page.close()


def test_a_part_given_from_another_device_with_the_seats_address_is_marked(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder of the laptop sees every seat's address: a roll's part given with Red's
    address from another device (before Red's phone could) is shown on Red's phone as not
    its own, for Red to see at once."""
    from referee.game import live
    from tests.support.serve import post

    fixed_seed(monkeypatch)
    game = make_game(tmp_path)
    with serving(game) as served:
        red = served.seat("Red")
        phone = browser.new_page(viewport=PHONE)
        phone.route(red + "/bytes", lambda route: route.abort())  # Red's phone too slow
        phone.goto(red)
        asked = live.ask_bytes(game, 1, 0, "Red")  # as the terminal asks it
        code, _ = post(red + "/bytes", {"r": str(asked), "value": "ab" * 16})  # the holder
        assert code == 204
        wait_for(lambda: "#1 0: abababab (NOT from this phone" in phone.inner_text("#given"),
                 what="the part marked as not this phone's")
        phone.close()
