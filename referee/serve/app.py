"""The routes of ``game serve`` (Starlette): the game page, the served battle report, the event
stream that keeps the page live, the answer of a seat, the random bytes a seat's phone gives
for a roll, and the page's own two files.

Every page is reached through a token (``/t/TOKEN``) drawn by ``secrets`` for this run of the
server and compared in constant time: the spectator's token reads only; a side's token also
answers that side's questions (``live.answer`` checks the side again, in the transaction that
takes the answer). Requests are bounded (a form of at most ``MAX_BODY`` bytes; a Host header
other than the server's own address is refused, so a web page elsewhere cannot reach it through
a name that points here), every response says what it may load (``game.page.csp``) and is
never cached. The game file is watched for commits by one task (``Watcher``), and each phone's
event stream sends its page again after each.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from referee.serve import pages

MAX_BODY = 4096  # bytes of an answer's form
POLL_SECONDS = 0.2  # how often the watcher looks for a commit (a read of data_version)
KEEPALIVE_SECONDS = 15.0  # a comment on an idle event stream, so that proxies keep it open
WAKE_SECONDS = 0.5  # how soon an idle stream sees that the server stops (Ctrl-C)
HTML = "text/html;charset=utf-8"
STATIC = {"referee.css": "text/css;charset=utf-8", "live.js": "text/javascript;charset=utf-8"}


@dataclass
class Config:
    path: Path
    tokens: dict[str, pages.Role]  # token: who holds it
    lang: str  # the game's language (the one ``serve`` runs in)
    hosts: frozenset[str]  # the Host headers this server answers to
    poll: float = POLL_SECONDS
    on_answer: Any = None  # for tests: called after a seat's answer is taken
    stopping: Any = None  # () -> whether the server is shutting down (the streams end)


@dataclass
class Watcher:
    """Reads the game file again after each commit (``PRAGMA data_version`` on a connection
    of its own, which changes whenever another connection commits)."""

    config: Config
    version: int = 0
    snapshot: pages.Snapshot | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def current(self) -> pages.Snapshot:
        if self.snapshot is None or self.snapshot.version != self.version:
            self.snapshot = pages.read_snapshot(self.config.path, self.version)
        return self.snapshot

    async def run(self) -> None:
        from referee.game import connect_read_only

        seen = None
        conn: sqlite3.Connection | None = None
        while True:
            try:
                if conn is None:
                    conn = connect_read_only(self.config.path)
                (found,) = conn.execute("PRAGMA data_version").fetchone()
            except Exception:  # the file is busy, moved or damaged: try again, keep serving
                if conn is not None:
                    conn.close()
                conn, found = None, None
            if found is not None and found != seen:
                seen = found
                self.version += 1
                self.snapshot = None
                self.changed.set()
                self.changed = asyncio.Event()
            await asyncio.sleep(self.config.poll)


def _role(config: Config, token: str) -> pages.Role | None:
    """Who holds ``token`` (compared with each known token in constant time)."""
    found = None
    for known, role in config.tokens.items():
        if hmac.compare_digest(known.encode("utf-8"), token.encode("utf-8")):
            found = role
    return found


def _headers(page: str | None = None) -> dict[str, str]:
    from referee.game.page import csp

    return {"Content-Security-Policy": csp(page or "", standalone=False),
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def _not_found() -> Response:
    return PlainTextResponse("404", status_code=404, headers=_headers())


def make_app(config: Config) -> Starlette:
    watcher = Watcher(config)

    def allowed(request: Request) -> bool:
        return request.headers.get("host", "") in config.hosts

    def same_site(request: Request) -> bool:
        """Not a form sent from another site's page (the token must be known besides; a
        page under no-referrer sends its origin as "null")."""
        origin = request.headers.get("origin")
        return origin in (None, "null") or origin.split("://", 1)[-1] in config.hosts

    def lang(request: Request) -> str:
        return pages.pick_language(request.headers.get("accept-language"), config.lang)

    def who(request: Request) -> pages.Role | None:
        if not allowed(request):
            return None
        return _role(config, str(request.path_params.get("token", "")))

    async def game(request: Request) -> Response:
        role = who(request)
        if role is None:
            return _not_found()
        text = pages.page(watcher.current(), role, lang(request), _base(request))
        return Response(text, media_type=HTML, headers=_headers(text))

    async def report(request: Request) -> Response:
        role = who(request)
        if role is None:
            return _not_found()
        from referee.core.errors import RefereeError

        try:
            text = pages.report(config.path, lang(request), _base(request))
        except RefereeError as err:
            from referee.catalog import render

            return PlainTextResponse(render(err.msg), status_code=409, headers=_headers())
        return Response(text, media_type=HTML, headers=_headers(text))

    async def events(request: Request) -> Response:
        role = who(request)
        if role is None:
            return _not_found()
        language = lang(request)

        async def stream() -> AsyncIterator[bytes]:
            from referee.game import live

            joined = role.side is not None
            if joined:
                _quietly(live.seat_joined, config.path, role.side, 1)
            try:
                sent = -1
                quiet = 0.0
                while config.stopping is None or not config.stopping():
                    if watcher.version != sent:
                        snap = watcher.current()
                        sent = snap.version
                        data = json.dumps(pages.update(snap, role, language),
                                          ensure_ascii=False)
                        yield b"event: update\ndata: " + data.encode("utf-8") + b"\n\n"
                        quiet = 0.0
                    try:
                        await asyncio.wait_for(watcher.changed.wait(), WAKE_SECONDS)
                    except TimeoutError:
                        quiet += WAKE_SECONDS
                        if quiet >= KEEPALIVE_SECONDS:
                            quiet = 0.0
                            yield b": still here\n\n"
            finally:
                if joined:
                    _quietly(live.seat_joined, config.path, role.side, -1)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**_headers(), "X-Accel-Buffering": "no"})

    async def seat_form(request: Request) -> tuple[str, dict[str, list[str]]] | Response:
        """A form a seat's phone sent: its side and fields, or the refusal (a token that is
        no seat's, another site's page, a body over ``MAX_BODY``)."""
        role = who(request)
        if role is None or role.side is None:
            return _not_found()
        if not same_site(request):
            return PlainTextResponse("403", status_code=403, headers=_headers())
        body = await _bounded_body(request)
        if body is None:
            return PlainTextResponse("413", status_code=413, headers=_headers())
        return role.side, parse_qs(body.decode("utf-8", "replace"), max_num_fields=64)

    async def answer(request: Request) -> Response:
        sent = await seat_form(request)
        if isinstance(sent, Response):
            return sent
        taken = _take(config, *sent)
        if taken and config.on_answer is not None:
            config.on_answer()
        return RedirectResponse(_base(request), status_code=303, headers=_headers())

    async def give(request: Request) -> Response:
        """A seat's phone gives its random bytes for the roll asked of it (its script sends
        them as soon as its page shows the request)."""
        sent = await seat_form(request)
        if isinstance(sent, Response):
            return sent
        side, form = sent
        request_id = (form.get("r") or [""])[0]
        if not request_id.isdigit():
            return PlainTextResponse("400", status_code=400, headers=_headers())
        from referee.core.errors import GameFileError
        from referee.game import live

        try:
            taken = live.give_bytes(config.path, int(request_id), side,
                                    (form.get("value") or [""])[0])
        except (live.LiveBusy, GameFileError, sqlite3.Error):
            taken = False
        return Response(status_code=204 if taken else 409, headers=_headers())

    async def static(request: Request) -> Response:
        from importlib.resources import files

        name = str(request.path_params.get("name", ""))
        if name not in STATIC or not allowed(request):
            return _not_found()
        text = (files("referee") / "templates" / name).read_text(encoding="utf-8")
        return Response(text, media_type=STATIC[name], headers=_headers())

    async def nothing(request: Request) -> Response:
        return _not_found()

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204, headers=_headers())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watcher.task = asyncio.get_running_loop().create_task(watcher.run())
        try:
            yield
        finally:
            watcher.task.cancel()

    routes = [Route("/t/{token}", game), Route("/t/{token}/report", report),
              Route("/t/{token}/events", events),
              Route("/t/{token}/answer", answer, methods=["POST"]),
              Route("/t/{token}/bytes", give, methods=["POST"]),
              Route("/static/{name}", static), Route("/favicon.ico", no_icon),
              Route("/", nothing)]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.watcher = watcher
    return app


def _base(request: Request) -> str:
    return f"/t/{request.path_params.get('token', '')}"


async def _bounded_body(request: Request) -> bytes | None:
    """The request's body, or ``None`` when it is longer than ``MAX_BODY``."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def _quietly(write: Any, *args: Any) -> None:
    """A write to the live tables that may find the file busy: tried once more, then left."""
    from referee.core.errors import GameFileError
    from referee.game.live import LiveBusy

    for _ in range(2):
        try:
            write(*args)
            return
        except (LiveBusy, GameFileError, sqlite3.Error):
            continue


def _take(config: Config, side: str, form: dict[str, list[str]]) -> bool:
    """A seat's answer from its form: which question, and what was chosen, typed or
    rolled."""
    from referee.core.errors import GameFileError
    from referee.game import live

    def one(name: str) -> str:
        values = form.get(name) or [""]
        return values[0]

    qid = one("q")
    if not qid.isdigit():
        return False
    choice = one("answer")
    if choice == "typed":
        text = one("typed")
    elif choice == "" and "pick" in form:
        text = " ".join(form["pick"][:64])
    else:
        text = choice
    try:
        return live.answer(config.path, int(qid), side, text)
    except (live.LiveBusy, GameFileError, sqlite3.Error):
        return False
