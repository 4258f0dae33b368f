"""The pages: one set of Jinja2 templates (``referee/templates/``) for the battle report that
``game report --html`` writes and the pages ``game serve`` shows (the report, the game page,
the seat of a side).

Every text a page shows passes through the one escaping rule, ``core.text.visible`` (Jinja2's
``finalize``), before it is escaped for HTML: a name's control, bidirectional and invisible
characters appear as visible escapes (``\\u202e``), never as what they do, and nothing a
player typed can become markup. A page written to a file carries its CSS inline under a
Content-Security-Policy that lets nothing else load or run (its inline styles allowed by their
SHA-256, no script at all); the served pages get the same policy as a header (``csp``), with
their own script and style files. Jinja2 is imported only here, when a page is drawn.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from typing import Any

from referee.core.text import visible

# what a page may load: nothing but itself (the served pages: their own files, and the
# event stream of the game they show)
POLICY_FILE = ("default-src 'none'; style-src {styles}; img-src data:; base-uri 'none'; "
               "form-action 'none'")
POLICY_SERVED = ("default-src 'none'; script-src 'self'; style-src 'self' {styles}; "
                 "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                 "base-uri 'none'; frame-ancestors 'none'")
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.S)
_PLACEHOLDER = "referee-csp-placeholder"


def _finalize(value: Any) -> Any:
    from markupsafe import Markup

    if isinstance(value, Markup):
        return value  # drawn by the referee itself (the chart)
    if isinstance(value, str):
        return visible(value)
    return "" if value is None else value


@cache
def environment() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("referee", "templates"),
                              autoescape=True, keep_trailing_newline=True,
                              finalize=_finalize, undefined=jinja2.StrictUndefined)


@cache
def css() -> str:
    from importlib.resources import files

    return (files("referee") / "templates" / "referee.css").read_text(encoding="utf-8")


def style_hashes(page: str) -> str:
    """The CSP sources of every inline style block of ``page`` (by their SHA-256). A block
    inside an SVG is hashed as the browser reads it there, its character references decoded
    (the chart's ``&quot;``)."""
    import html

    found = []
    for block in _STYLE.findall(page):
        for text in dict.fromkeys((block, html.unescape(block))):
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            found.append(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return " ".join(dict.fromkeys(found))


def csp(page: str, *, standalone: bool) -> str:
    """The Content-Security-Policy of a drawn page."""
    styles = style_hashes(page)
    if standalone:
        return POLICY_FILE.format(styles=styles or "'none'")
    return POLICY_SERVED.format(styles=styles).replace("  ", " ").strip()


def words() -> dict[str, str]:
    """The words the templates show around the game's own texts, in the reader's language."""
    from referee.catalog import render
    from referee.core.text import Msg

    keys = ("story", "casualties", "no_casualties", "turning", "turning_note", "no_turning",
            "luck", "final", "no_final", "abandoned")
    out = {k: render(Msg.of(f"game.report.{k}")) for k in keys}
    for key in ("working", "back_to_game", "report", "log", "board", "progress", "no_entries",
                "waiting", "offline", "check", "watching", "answered_here",
                "answered_there", "roll", "typed", "send", "back", "no_progress", "yes", "no",
                "back_title", "checking", "no_question", "given",
                "foreign"):
        out[key] = render(Msg.of(f"game.page.{key}"))
    return out


def render_page(name: str, *, standalone: bool, **context: Any) -> str:
    """Draw the template ``name``; a page written to a file gets its CSS inline and its
    policy as a meta element."""
    from markupsafe import Markup

    from referee.catalog import current_language

    context.setdefault("words", words())
    context.setdefault("lang", current_language())
    context.setdefault("static", "")
    context.setdefault("live", None)
    page: str = environment().get_template(name).render(
        standalone=standalone, css=Markup(css()) if standalone else "", csp=_PLACEHOLDER,
        **context)
    if standalone:
        page = page.replace(_PLACEHOLDER, csp(page, standalone=True), 1)
    return page
