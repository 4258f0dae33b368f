"""The documentation holds together (issue 25, item 5): every relative link of the README, of
the pages of ``docs/`` (the rule briefs included) and of the transcripts points to a file that
exists and, with ``#anchor``, to a heading of that file; every page of ``docs/`` is reached
from the README; the README stays short; the rule briefs are named where they live,
``docs/rules/``, never at a path outside the repository. Their console blocks are replayed by
``tests/transcripts/test_transcripts.py``.

A page written on another branch may be linked before it lands: ``PENDING`` names it, and a
link to it passes only while the file is missing; once it exists its links and anchors are
checked like any other's (then take it out of ``PENDING``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.support import ROOT

PENDING: dict[str, str] = {}  # (docs/dice.md landed with the branch dice)
README_LINES = 250
TEXT = {".md", ".py", ".toml", ".txt", ".j2", ".json", ".yml", ".yaml", ".cfg", ""}

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md")),
            *sorted((ROOT / "transcripts").glob("**/*.md"))]


def prose(text: str) -> str:
    """The Markdown outside code blocks and code spans, where links are links."""
    return CODE.sub("", FENCE.sub("", text))


def links(path: Path) -> list[str]:
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, markup and punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"[`*_]|<[^>]*>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken(path: Path, target: str) -> str | None:
    """Why a link of ``path`` to ``target`` leads nowhere, or None."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not checked here
        return None
    file, _, anchor = target.partition("#")
    dest = (path.parent / file).resolve() if file else path
    name = dest.relative_to(ROOT).as_posix() if dest.is_relative_to(ROOT) else str(dest)
    if not dest.exists():
        return None if name in PENDING else f"{name} does not exist"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"{name} has no heading #{anchor}"
    return None


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_leads_somewhere(path: Path) -> None:
    wrong = [f"({target}): {why}" for target in links(path)
             if (why := broken(path, target)) is not None]
    assert not wrong, f"{path.relative_to(ROOT)}: " + "; ".join(wrong)


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    page = ROOT / "README.md"
    assert broken(page, "docs/no-such-page.md") == "docs/no-such-page.md does not exist"
    assert (broken(page, "docs/json.md#no-such-heading")
            == "docs/json.md has no heading #no-such-heading")
    assert broken(page, "docs/promises.md#exit-codes") is None
    assert broken(page, "#set-up-two-commands") is None
    assert broken(page, "#setup") == "README.md has no heading #setup"


def test_a_heading_anchor_is_githubs() -> None:
    assert slug("`--json`: the contract") == "--json-the-contract"
    assert slug("At the table: `referee attack`") == "at-the-table-referee-attack"
    assert slug("The program's dice") == "the-programs-dice"


def test_a_pending_page_is_excused_only_while_it_is_missing() -> None:
    for name in PENDING:
        target = ROOT / name
        if target.exists():  # landed: its own links are checked by the test above
            assert target in pages()
        else:
            assert broken(ROOT / "README.md", name) is None
            assert any(link.partition("#")[0] == name for link in links(ROOT / "README.md"))


def test_every_page_of_docs_is_reached_from_the_readme() -> None:
    reached, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in reached or not page.exists() or page.suffix != ".md":
            continue
        reached.add(page)
        for target in links(page):
            file = target.partition("#")[0]
            if file and not re.match(r"[a-z][a-z0-9+.-]*:", file):
                todo.append((page.parent / file).resolve())
    unreached = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "docs").glob("*.md"))
                 if p not in reached]
    assert not unreached, f"pages of docs/ no link reaches from the README: {unreached}"


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= README_LINES, f"README.md has {lines} lines; long text goes to docs/"


def test_the_rule_briefs_are_named_where_they_live() -> None:
    """The briefs the code follows are ``docs/rules/*.md``; no file of the repository names
    the seed briefs' old place outside it (``shared/rules/``)."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    here = Path(__file__).relative_to(ROOT).as_posix()
    naming = [name for name in files if name != here and Path(name).suffix in TEXT
              and (ROOT / name).is_file()
              and "shared/rules/" in (ROOT / name).read_text(encoding="utf-8", errors="ignore")]
    assert not naming, f"files naming shared/rules/ (use docs/rules/): {naming}"
