"""What the served pages show, read from the game file once a change and drawn once a language
and a role: the game page (the attack in progress, the question put to this phone, each side's
board, the log newest first, the latest check code), the served battle report.

A ``Snapshot`` is the file as one read transaction saw it (checked: ``check_history``); the
pages are drawn from it in the reader's language (``language``) with the battle report's
templates (``game.page``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.text import Msg

LIVE_ENTRIES = 60  # the newest entries the game page shows (the report shows them all)


@dataclass(frozen=True)
class Role:
    """Who holds a token: a spectator (``side`` None: reads only) or a side's seat."""

    side: str | None = None
    base: str = ""  # the address of its pages (``/t/TOKEN``)

    @property
    def key(self) -> str:
        return self.side or ""


@dataclass
class Snapshot:
    """The game file at one commit, as the pages need it."""

    version: int
    path: Path
    name: str
    sides: tuple[str, ...]
    entries: list[Any]
    info: Any
    state: list[Any]
    progress: dict[str, Any] | None
    questions: dict[str, Any]  # the last question put to each side (open or not)
    asked_bytes: dict[str, Any] = field(default_factory=dict)  # each side's open request
    given: dict[str, list[str]] = field(default_factory=dict)  # the parts each seat gave
    error: Any = None  # the file does not hold together (a message): shown, nothing else
    code: str | None = None  # the check code of the log's last event (format 3)
    drawn: dict[tuple[str, str, str], Any] = field(default_factory=dict)


class LogCache:
    """What the server has read of the log, by each entry's row as stored (its
    ``fingerprint``): the entry parsed, its digest worked out after a given one, its story
    in a language. A row seen before, unchanged, is not parsed nor hashed again; a row
    changed in any way is a new row, read and checked afresh."""

    def __init__(self) -> None:
        self.entries: dict[bytes, Any] = {}
        self.digests: dict[tuple[str, bytes], str] = {}
        self.of: dict[int, bytes] = {}  # id() of a parsed entry: its fingerprint
        self.stories: dict[tuple[str, bytes], Any] = {}
        self.views: dict[tuple[str, bytes], Any] = {}
        self.parsed: dict[bytes, Any] = {}  # format 3: each event by its row

    def fingerprint(self, entry: Any) -> bytes:
        """The entry's row as read through the cache (format 2); else (format 3, whose
        events the cache does not read) its chain head, number and standing."""
        found = self.of.get(id(entry))
        if found is None:
            import hashlib

            found = hashlib.blake2b(repr((entry.id, entry.digest, entry.undone)).encode(),
                                    digest_size=20).digest()
        return found

    def digest(self, previous: str, entry: Any) -> str:
        from referee.game import entry_digest

        key = (previous, self.of[id(entry)])
        if key not in self.digests:
            self.digests[key] = entry_digest(previous, entry)
        return self.digests[key]

    def story(self, lang: str, entry: Any) -> Any:
        from referee.game.story import story

        key = (lang, self.fingerprint(entry))
        if key not in self.stories:
            self.stories[key] = story(entry)
        return self.stories[key]

    def view(self, lang: str, entry: Any) -> Any:
        from referee.game.report import entry_view

        key = (lang, self.fingerprint(entry))
        if key not in self.views:
            self.views[key] = entry_view(self.story(lang, entry))
        return self.views[key]

    def events_of(self, tx: Any) -> Any:
        """``tx`` (a file of format 3) reading its events through this cache: a row seen
        before, unchanged in any column, is not parsed again."""
        import hashlib

        from referee.game import GameTransaction

        cache = self

        class Cached(GameTransaction):
            def events(self) -> list[Any]:
                self.seen: set[bytes] = set()
                out: list[Any] = super().events()
                cache.parsed = {k: e for k, e in cache.parsed.items() if k in self.seen}
                return out

            def _event(self, row: dict[str, Any]) -> Any:
                key = hashlib.blake2b(repr(sorted(row.items())).encode("utf-8"),
                                      digest_size=20).digest()
                self.seen.add(key)
                found = cache.parsed.get(key)
                if found is None:
                    found = cache.parsed[key] = super()._event(row)
                return found

        return Cached(tx._conn, tx.name, schema=tx.schema, writable=False)

    def keep(self, rows: set[bytes]) -> None:
        """Forget what belongs to rows no longer in the log (an entry undone since)."""
        if len(self.entries) == len(rows):
            return
        self.entries = {k: e for k, e in self.entries.items() if k in rows}
        self.of = {i: k for i, k in self.of.items() if k in rows}
        self.digests = {k: d for k, d in self.digests.items() if k[1] in rows}
        self.stories = {k: v for k, v in self.stories.items() if k[1] in rows}
        self.views = {k: v for k, v in self.views.items() if k[1] in rows}

    def transaction(self, tx: Any) -> Any:
        """``tx`` reading its log through this cache (a file of format 2; one of format 3
        is read as it is)."""
        from referee.game import HISTORY_COLUMNS, GameTransaction

        cache = self
        if tx.schema >= 3:
            return cache.events_of(tx)

        class Cached(GameTransaction):
            def log(self) -> list[Any]:
                import hashlib

                columns = ["id", "at", "ruleset", "command", "seed", "entry"]
                if self.schema >= 2:
                    columns += HISTORY_COLUMNS
                out = []
                for row in self._conn.execute(
                        "SELECT {} FROM log ORDER BY id".format(", ".join(columns))):
                    key = hashlib.blake2b(repr(row).encode("utf-8"), digest_size=20).digest()
                    entry = cache.entries.get(key)
                    if entry is None:
                        entry = self._entry(dict(zip(columns, row, strict=True)))
                        cache.entries[key] = entry
                        cache.of[id(entry)] = key
                    out.append(entry)
                cache.keep({cache.of[id(e)] for e in out})
                return out

        return Cached(tx._conn, tx.name, schema=tx.schema, writable=False)


_CACHES: dict[Path, LogCache] = {}


def cache_of(path: Path) -> LogCache:
    return _CACHES.setdefault(path.resolve(), LogCache())


def read_snapshot(path: Path, version: int) -> Snapshot:
    from referee.core.errors import RefereeError
    from referee.game import read_game
    from referee.game.chain import check_code
    from referee.game.history import check_history
    from referee.game.live import given_bytes, last_question, open_bytes, progress_of
    from referee.game.seed import game_info
    from referee.game.view import state_tables

    cache = cache_of(path)
    try:
        with read_game(path) as plain:
            tx = cache.transaction(plain)
            info = game_info(tx)
            history = check_history(tx, cache.digest)
            entries = history.entries
            last = history.events[-1] if history.events else None
            code = check_code(last.digest) if last is not None and last.digest else None
            state = state_tables(tx)
            conn = tx._conn  # the same snapshot: the live tables at this commit
            progress = progress_of(conn)
            sides = tuple(info.sides) if info is not None else ()
            questions = {s: q for s in sides if (q := last_question(conn, s)) is not None}
            asked = {s: b for s in sides if (b := open_bytes(conn, s)) is not None}
            given = {s: [f"#{b.entry} {b.roll}: {(b.value or '')[:8]}"
                         for b in given_bytes(conn, s)] for s in sides}
    except RefereeError as err:
        return Snapshot(version, path, path.stem, (), [], None, [], None, {}, error=err.msg)
    return Snapshot(version, path, info.name if info else path.stem, sides, entries, info,
                    state, progress, questions, asked, given, code=code)


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Draw in ``lang`` (the pages are drawn one at a time, on one event loop)."""
    from referee.catalog import current_language, set_language

    before = current_language()
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def pick_language(header: str | None, default: str) -> str:
    """The language a phone asks for (``Accept-Language``), among the catalogue's; else the
    game's (the language ``serve`` runs in)."""
    from referee.catalog import available_languages

    if not header:
        return default
    found = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if code in available_languages() and weight > 0:
            found.append((-weight, i, code))
    return min(found)[2] if found else default


# --- drawing --------------------------------------------------------------------------------

def _progress(snap: Snapshot) -> dict[str, Any] | None:
    from referee.catalog import render
    from referee.game.history import message

    found = snap.progress
    if found is None:
        return None

    def text(step: dict[str, Any]) -> str:
        shown = message(step.get("text"))
        return render(shown) if isinstance(shown, Msg) else str(step.get("id", ""))

    steps = [{"text": text(s), "clause": s.get("clause") or "",
              "answer": str(s.get("answer", "")), "who": s.get("who") or ""}
             for s in found["steps"]]
    asking = found.get("asking")
    return {"entry": found.get("entry"), "ruleset": found.get("ruleset") or "",
            "steps": steps, "asking": text(asking) if asking else None,
            "asking_clause": (asking or {}).get("clause") or "",
            "asking_who": (asking or {}).get("who") or ""}


def _log(snap: Snapshot, path: Path) -> list[Any]:
    from referee.catalog import current_language

    cache, lang = cache_of(path), current_language()
    newest = list(reversed(snap.entries))[:LIVE_ENTRIES]
    return [cache.view(lang, e) for e in newest]


def _board(snap: Snapshot, path: Path) -> dict[str, Any]:
    from referee.catalog import current_language, render
    from referee.game.report import casualties_of, casualty_rows, table_view

    cache, lang = cache_of(path), current_language()
    stories = [cache.story(lang, e) for e in snap.entries if e.standing]
    casualties = casualties_of(stories, snap.sides,
                               render(Msg.of("game.report.side_unknown")))
    headers, rows = casualty_rows(casualties)
    return {"casualty_headers": headers, "casualties": rows,
            "any_casualties": any(c.losses for c in casualties),
            "tables": [table_view(t) for t in snap.state]}


def _question(snap: Snapshot, role: Role) -> dict[str, Any] | None:
    """The question put to this seat's phone, drawn for it (``None``: none yet)."""
    if role.side is None:
        return None
    found = snap.questions.get(role.side)
    if found is None:
        return None
    from referee.game.asked import view

    return view(found)


def draw(snap: Snapshot, role: Role, lang: str, part: str) -> Any:
    """One part of the game page (``progress``, ``question``, ``board``, ``log``, ``head``)
    for ``role`` in ``lang``, drawn once a snapshot."""
    key = (lang, role.key if part in ("question", "head") else "", part)
    if key not in snap.drawn:
        with language(lang):
            snap.drawn[key] = _draw(snap, role, part)
    return snap.drawn[key]


def _draw(snap: Snapshot, role: Role, part: str) -> Any:
    from referee.game.page import render_page

    if part == "progress":
        return render_page("live_progress.html.j2", standalone=False, progress=_progress(snap))
    if part == "question":
        return render_page("live_question.html.j2", standalone=False,
                           question=_question(snap, role), side=role.side, base=role.base)
    if part == "board":
        return render_page("live_board.html.j2", standalone=False, **_board(snap, snap.path))
    if part == "log":
        return render_page("live_log.html.j2", standalone=False, entries=_log(snap, snap.path),
                           count=len(snap.entries))
    if part == "head":
        return _head(snap, role)
    raise ValueError(part)


def _head(snap: Snapshot, role: Role) -> dict[str, Any]:
    from referee.catalog import render

    who = (render(Msg.of("game.page.seat_of", side=role.side)) if role.side
           else render(Msg.of("game.page.watching")))
    sides = (render(Msg.of("game.report.sides", first=snap.sides[0], second=snap.sides[1]))
             if len(snap.sides) == 2 else "")
    error = render(snap.error) if snap.error is not None else None
    return {"title": snap.name, "who": who, "sides": sides, "code": check_code(snap),
            "error": error, "question_key": question_key(snap, role),
            "given": snap.given.get(role.side, []) if role.side is not None else []}


def question_key(snap: Snapshot, role: Role) -> str:
    """What tells a phone its question changed (so that a half-typed answer is kept until
    then): the question's id and its state."""
    if role.side is None:
        return ""
    found = snap.questions.get(role.side)
    if found is None:
        return "none"
    return f"{found.id}:{found.done}:{found.by}:{found.error is not None}:{found.answer}"


def check_code(snap: Snapshot) -> str | None:
    """The latest check code of the log (its last event's), for the players to note and
    compare with the terminal's (``game log``)."""
    return snap.code


def page(snap: Snapshot, role: Role, lang: str, base: str) -> str:
    """The whole game page (the parts as first drawn; the script keeps them live)."""
    from markupsafe import Markup

    from referee.game.page import render_page

    parts = {p: Markup(draw(snap, role, lang, p))
             for p in ("progress", "question", "board", "log")}
    head = draw(snap, role, lang, "head")
    with language(lang):
        return render_page("game.html.j2", standalone=False, static="/static", base=base,
                           head=head, parts=parts, seat=role.side is not None,
                           title=head["title"])


def update(snap: Snapshot, role: Role, lang: str) -> dict[str, Any]:
    """What the event stream sends a phone after a change: every part, drawn."""
    parts = {p: draw(snap, role, lang, p) for p in ("progress", "question", "board", "log")}
    head = draw(snap, role, lang, "head")
    with language(lang):
        from referee.catalog import render

        code = (f"{render(Msg.of('game.page.check'))}: {head['code']}" if head["code"]
                else "")
    asked = snap.asked_bytes.get(role.side) if role.side is not None else None
    request = ({"id": asked.id, "entry": asked.entry, "roll": asked.roll}
               if asked is not None else None)
    return {"version": snap.version, "code": code, "error": head["error"],
            "question_key": head["question_key"], "bytes": request,
            "given": head["given"], **parts}


def report(path: Path, lang: str, base: str) -> str:
    from referee.game.page import render_page
    from referee.game.report import build_report, report_context

    with language(lang):
        return render_page("report.html.j2", standalone=False, static="/static", live=base,
                           **report_context(build_report(path)))
