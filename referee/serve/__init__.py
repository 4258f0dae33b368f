"""``referee game serve``: the game on every phone at the table.

A small web server over one game file, running beside the terminal's commands for the whole
game night. It only reads the game; it writes nothing but the game file's live tables
(``referee.game.live``: who serves it, which sides have a phone connected, a side's answer to
the question the terminal put to its phone). The commands at the terminal never talk to it:
they write the game file, and the server sees each commit (SQLite's ``data_version``, the
file in WAL mode so that readers and the writer never wait for each other) and pushes the
pages it changes to every phone (server-sent events).

Why Starlette with uvicorn: an ASGI toolkit and server that are small (pure Python, h11 for
HTTP, no build step, no C extension needed), well kept, and made for exactly this: a few
routes, a long-lived event stream per phone on one event loop (a thread per phone with the
standard library's ``http.server`` or a WSGI framework such as bottle, and no event stream at
all in WSGI without workarounds), graceful shutdown on Ctrl-C. aiohttp is a larger client and
server in one; Litestar and Quart bring far more than four routes need. Jinja2 draws the pages
(the battle report's templates, shared), segno the QR code printed in the terminal. All of it
is imported only by ``game serve`` (and Jinja2 by ``game report --html``).

Modules: ``pages`` (what each page shows, drawn for a language and a role), ``app`` (the
routes, the tokens, the event stream), ``run`` (the address, the QR code, the lock on the
file, Ctrl-C).
"""
