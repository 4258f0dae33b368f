"""Shared by the tests of ``game serve``: a game whose formations' sides are known, the server
as a child process (its addresses read from what it prints, as a player reads them), a phone
that joins a seat (an open event stream) and answers through its form."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"
URL = re.compile(r"https?://[^\s]+")


def make_game(tmp_path: Path, name: str = "night.sqlite",
              sides: tuple[tuple[str, str], ...] = (("Grey Company (invented)", "Grey"),
                                                    ("Red Hill Battery (invented)", "Red"))
              ) -> Path:
    from referee.game import open_game
    from tests.support.game import new_game

    game = tmp_path / name
    new_game(game)
    with open_game(game) as tx:
        for formation, side in sides:
            tx.remember_side(formation, side)
    return game


def declaration(tmp_path: Path, source: str = "epic-allocation") -> Path:
    """A declaration file made of a bundled script (its answers left for the table)."""
    text = (SCRIPTS / f"{source}.toml").read_text(encoding="utf-8")
    text = text.split("\n[answers]")[0]
    text = "\n".join(line for line in text.splitlines() if not line.startswith("title ="))
    path = tmp_path / f"{source}-declaration.toml"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def child_env() -> dict[str, str]:
    from tests.support.pty import child_env as pty_env

    env = pty_env()
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Served:
    """A running ``referee game serve`` and the addresses it printed."""

    def __init__(self, proc: subprocess.Popen[str], urls: dict[str, str], out: list[str]):
        self.proc = proc
        self.urls = urls
        self.out = out

    def seat(self, side: str) -> str:
        return self.urls[side]

    @property
    def watch(self) -> str:
        return self.urls["watch"]


def start_server(game: Path, *extra: str, timeout: float = 30) -> Served:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "game", "serve", str(game),
                             "--port", "0", *extra], cwd=str(ROOT), env=child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            encoding="utf-8")
    assert proc.stdout is not None
    out: list[str] = []
    urls: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line)
        found = URL.search(line)
        if found and line.startswith("Watch"):
            urls["watch"] = found.group()
        elif found and "'s seat" in line:
            urls[line.split("'s seat")[0]] = found.group()
        if line.startswith("Ctrl-C stops"):
            threading.Thread(target=_drain, args=(proc, out), daemon=True).start()
            return Served(proc, urls, out)
    proc.kill()
    raise AssertionError("the server did not start:\n" + "".join(out))


def _drain(proc: subprocess.Popen[str], out: list[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        out.append(line)


def stop_server(served: Served) -> int:
    if served.proc.poll() is None:
        served.proc.send_signal(signal.SIGINT)
        try:
            served.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            served.proc.kill()
            served.proc.wait()
    return served.proc.returncode


@contextmanager
def serving(game: Path, *extra: str) -> Iterator[Served]:
    served = start_server(game, *extra)
    try:
        yield served
    finally:
        stop_server(served)


def _give_bytes(seat_url: str, line: str, given: set[int]) -> None:
    """As the seat's page does: a roll's bytes asked of it are given at once (random)."""
    import json

    if not line.startswith("data: "):
        return
    asked = json.loads(line[len("data: "):]).get("bytes")
    if isinstance(asked, dict) and asked["id"] not in given:
        given.add(asked["id"])
        post(seat_url + "/bytes", {"r": str(asked["id"]), "value": os.urandom(16).hex()})


@contextmanager
def phone(seat_url: str, *, give: bool = True) -> Iterator[list[str]]:
    """A phone with the seat's page open: its event stream, read in a thread (what it
    received is the list yielded); a roll's bytes asked of its seat are given at once, as
    the page's script gives them (``give``: else left to the test)."""
    received: list[str] = []
    stop = threading.Event()
    response: list[Any] = []

    given: set[int] = set()

    def read() -> None:
        try:
            with urllib.request.urlopen(seat_url + "/events", timeout=60) as r:
                response.append(r)
                for raw in r:
                    line = raw.decode("utf-8")
                    received.append(line)
                    if stop.is_set():
                        return
                    if give:
                        _give_bytes(seat_url, line, given)
        except Exception:  # the stream closed under the reader (the phone went away)
            return

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    wait_for(lambda: received, what="the first update of the event stream")
    try:
        yield received
    finally:
        stop.set()
        for r in response:  # the phone goes away: its connection shut under the reader
            try:
                sock = getattr(getattr(getattr(r, "fp", None), "raw", None), "_sock", None)
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
                r.close()
            except OSError:
                pass


def wait_for(check: Any, *, timeout: float = 15, what: str = "a condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def post(url: str, form: dict[str, str], headers: dict[str, str] | None = None
         ) -> tuple[int, str]:
    data = urllib.parse.urlencode(form).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers or {})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8", "replace")


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode("utf-8", "replace")


def open_question(game: Path) -> Any:
    from referee.game import live

    with live.live_read(game) as conn:
        return live.open_question(conn)


def kill9(served: Served) -> None:
    os.kill(served.proc.pid, signal.SIGKILL)
    served.proc.wait(timeout=10)
