"""Running ``game serve``: the file taken for this server (a second one is refused), the file
in WAL mode, the tokens drawn, the addresses and a QR code of each seat printed, uvicorn on the
loopback address (or, with ``--lan``, on this machine's address in the local network, with a
one-line warning), and Ctrl-C ending it all cleanly: the file's live tables say that nobody
serves it any more.

A server killed with kill -9 leaves its row in ``serving``; its process is gone, so the
terminal's commands take it for no server (they ask at the terminal), and the next ``serve``
takes the file over."""

from __future__ import annotations

import secrets
import socket
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg

if TYPE_CHECKING:
    from referee.context import Environment

DEFAULT_PORT = 8765
TOKEN_BYTES = 18  # 144 bits from ``secrets``: 24 characters in the address


def lan_address() -> str:
    """This machine's address in its local network (the one a packet to a private address
    would leave from; nothing is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        found: str = probe.getsockname()[0]
    except OSError:
        found = ""
    finally:
        probe.close()
    if not found or found.startswith("127."):
        raise UsageError(Msg.of("game.serve.error.no_lan"))
    return found


def _bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UsageError(Msg.of("game.serve.error.port", host=host, port=port,
                                reason=err.strerror or str(err))) from None
    sock.listen(64)
    return sock


def _wal(path: Path) -> None:
    """The file in WAL mode: the server's readers and the terminal's writer never wait for
    each other (the mode stays with the file)."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
    except sqlite3.Error as err:
        raise GameFileError(Msg.of("error.game_open", file=str(path), reason=str(err))) from None


def serve(path: Path, env: Environment, *, lan: bool = False, port: int = DEFAULT_PORT,
          ready: Any = None) -> None:
    """Serve the game file ``path`` until Ctrl-C. ``ready``: called with the addresses once
    the server listens (tests)."""
    import uvicorn

    from referee.catalog import current_language, render
    from referee.game import live, read_game
    from referee.game.seed import game_info
    from referee.render.console import print_message
    from referee.serve.app import Config, make_app
    from referee.serve.pages import Role

    if not path.is_file():
        raise GameFileError(Msg.of("game.error.no_file", file=str(path)))
    with read_game(path) as tx:  # a game file of ours, whole
        info = game_info(tx)
    sides = tuple(info.sides) if info is not None else ()
    host = lan_address() if lan else "127.0.0.1"
    sock = _bind(host, port)
    address = f"http://{host}:{sock.getsockname()[1]}"
    try:
        other = live.start_serving(path, address)
    except live.LiveBusy:
        sock.close()
        raise GameFileError(Msg.of("game.serve.error.busy", file=str(path))) from None
    if other is not None:
        sock.close()
        raise UsageError(Msg.of("game.serve.error.served", file=str(path), pid=other.pid,
                                address=other.address))
    try:
        _wal(path)
        watch = secrets.token_urlsafe(TOKEN_BYTES)
        tokens = {watch: Role(None, f"/t/{watch}")}
        seats = {}
        for side in sides:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            tokens[token] = Role(side, f"/t/{token}")
            seats[side] = f"{address}/t/{token}"
        port_number = sock.getsockname()[1]
        hosts = frozenset({f"{host}:{port_number}"} | ({f"localhost:{port_number}"}
                                                        if host == "127.0.0.1" else set()))
        config = Config(path, tokens, current_language(), hosts)
        out = env.stdout
        console_lines = [render(Msg.of("game.serve.serving", file=str(path), address=address)),
                         render(Msg.of("game.serve.watch", url=f"{address}/t/{watch}"))]
        console_lines += [render(Msg.of("game.serve.seat", side=side, url=url))
                          for side, url in seats.items()]
        from referee.render.console import make_console

        console = make_console(out, terminal=env.stdout_isatty, color=env.color)
        if lan:
            print_message(console, Msg.of("game.serve.lan_warning"), style="yellow")
        for line in console_lines:
            print_message(console, line)
        _qr_codes(out, seats, f"{address}/t/{watch}")
        print_message(console, Msg.of("game.serve.stop"), style="dim")
        out.flush()
        server = uvicorn.Server(uvicorn.Config(
            make_app(config), log_level="warning", access_log=False, lifespan="on",
            timeout_graceful_shutdown=3, server_header=False, date_header=False))
        config.stopping = lambda: server.should_exit
        restore = _stop_on_signals(server)
        try:
            if ready is not None:
                ready({"watch": f"{address}/t/{watch}", **seats})
            server.run(sockets=[sock])
        finally:
            restore()
    finally:
        sock.close()
        try:
            live.stop_serving(path)
        except (live.LiveBusy, GameFileError, sqlite3.Error):
            pass  # the next serve sees a dead process and takes the file over


def _stop_on_signals(server: Any) -> Any:
    """Ctrl-C and SIGTERM end the server by asking it to stop, from before it runs to after
    it has shut down: uvicorn handles them while it serves and hands them on once it has
    stopped, and a signal raised as an exception then (or before it listened) left its
    event loop unclosed, with a traceback on the way out, and could end the process before
    the file says nobody serves it. Returns what puts the handlers back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum: int, frame: Any) -> None:
        server.should_exit = True

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in before.items():
            signal.signal(sig, handler)

    return restore


def _qr_codes(out: Any, seats: dict[str, str], watch: str) -> None:
    """A QR code of each seat's address (the one the opponent's phone scans), else of the
    page that watches, drawn with half blocks."""
    import segno

    from referee.catalog import render

    shown = seats or {render(Msg.of("game.serve.qr_watch")): watch}
    for label, url in shown.items():
        out.write(render(Msg.of("game.serve.qr", label=label)) + "\n")
        segno.make(url, error="m").terminal(out=out, compact=True)
