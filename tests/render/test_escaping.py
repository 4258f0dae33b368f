"""One escaping rule for every human output (issue 24, P5; reproduction 9), and the report the
same page with or without lxml (issue 28, case 7).

Names come from the players' files and arguments. Whatever they hold, the terminal, the
Markdown report and the HTML page show it as text: a right-to-left override (U+202E) does not
reverse the commitment and the dice after it, a zero-width space (U+200B) does not hide inside
a word, ESC, an OSC 8 link or a C1 CSI does not retitle the window, clear the screen or make a
link. They all pass through ``referee.core.text.visible``; ``--json`` keeps the exact text.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from referee.core.text import visible
from tests.support import ROOT
from tests.support.game import invoke

pytestmark = pytest.mark.usefixtures("game_seed")

RLO, ZWSP = "\u202e", "\u200b"
OSC8 = "\x1b]8;;https://example.invalid/\x07click\x1b]8;;\x07"
HOSTILE = {
    "rlo": f"Grey{RLO}kcatta",  # shown reversed after it: "attack"
    "zero-width": f"Gr{ZWSP}ey",
    "esc": "Grey\x1b[2J\x1b]0;owned\x07",  # clear the screen, retitle the window
    "osc8": f"Grey {OSC8}",  # a clickable link
    "c1": "Grey\x9b2J\x9d0;owned\x9c",  # CSI and OSC as single C1 bytes
    "isolate": "Grey\u2067\u200f\u061c\u2060\ufeff\u00ad",
}
# every character that acts or shows as nothing, found raw in a text
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e"
                 "\u2060-\u2064\u2066-\u206f\ufeff]")
SHOWN = {"rlo": "\\u202e", "zero-width": "\\u200b", "esc": "\\x1b", "osc8": "\\x1b]8;;",
         "c1": "\\x9b", "isolate": "\\u2067"}


def raw_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in RAW.findall(text)})


# --- the rule ---------------------------------------------------------------------------------

def test_every_control_format_and_separator_character_is_shown_as_an_escape() -> None:
    """Every character of Unicode categories Cc (but the line break and the tab), Cf, Zl, Zp
    and Cs in this Python's tables is escaped; nothing else is."""
    missed, touched = [], []
    for code in range(0x110000):
        char = chr(code)
        acts = unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs")
        shown = visible(char)
        if acts and char not in "\n\t" and shown == char:
            missed.append(f"U+{code:04X}")
        if not acts and shown != char and code not in (0x115F, 0x1160, 0x3164, 0xFFA0) and \
                not 0x13439 <= code <= 0x1343F:
            # (the Hangul fillers: letters drawn as nothing; the format characters of
            # Unicode 15, unassigned in older tables)
            touched.append(f"U+{code:04X}")
    assert not missed, missed[:20]
    assert not touched, touched[:20]


def test_the_escapes_say_which_character_it_was() -> None:
    assert visible(f"a{RLO}b{ZWSP}c\x1bd\x9be\U000e0041f\udcffg\u00adh\n\ti") == (
        "a\\u202eb\\u200bc\\x1bd\\x9be\\U000e0041f\\udcffg\\xadh\n\ti")
    assert visible("Модификатор 5+ (héros)") == "Модификатор 5+ (héros)"


# --- reproduction 9 of issue 24: every output shows them as text ----------------------------

@pytest.fixture
def hostile_game(tmp_path: Path) -> Path:
    """A game whose sides, firing formation and weapon have every hostile name in them, with
    one attack whose dice the program rolled and whose side is known (so the report has its
    luck table and chart)."""
    all_of_them = "".join(HOSTILE.values())
    game = tmp_path / "night.sqlite"
    code, _, err = invoke(["game", "new", str(game), "--side", all_of_them, "--side",
                           f"Red{RLO}der", "--json"])
    assert code == 0, err
    declaration = tmp_path / "d.toml"
    declaration.write_text(
        'ruleset = "epic"\nroll_missing_dice = true\n[declaration]\n'
        f'firing = {json.dumps("Company " + all_of_them)}\n'
        'target = "Red Hill Battery (invented)"\n[[declaration.weapons]]\n'
        f'name = {json.dumps("Cannon " + all_of_them)}\nshots = 3\nap = 5\nat = 4\n',
        encoding="utf-8")
    code, _, err = invoke(["attack", "epic", "--declaration", str(declaration), "--game",
                           str(game), "--dice", "auto"],
                          answers=[all_of_them, "sustained-fire", "no", "at", "owls"])
    assert code == 0, err
    return game


def _check_shown(text: str) -> None:
    assert raw_in(text) == [], raw_in(text)
    for escape in SHOWN.values():
        assert escape in text, escape


def test_game_report_markdown_writes_no_escape_sequence_raw(hostile_game: Path) -> None:
    """Reproduction 9: `game report` (Markdown) wrote ESC, OSC and C1 sequences raw to the
    terminal (the title changed, the screen cleared, a clickable link)."""
    code, out, err = invoke(["game", "report", str(hostile_game)])
    assert code == 0, err
    _check_shown(out)
    assert "# Battle report" in out


def test_html_report_right_to_left_override_cannot_reverse_the_commitment_and_dice(
        hostile_game: Path, tmp_path: Path) -> None:
    """Reproduction 9: a right-to-left override in a side or weapon name reversed the
    commitment and the dice as the HTML report showed them; zero-width characters were
    shown nowhere as what they are."""
    page_file = tmp_path / "report.html"
    code, _, err = invoke(["game", "report", str(hostile_game), "--html", str(page_file)])
    assert code == 0, err
    page = page_file.read_text(encoding="utf-8")
    _check_shown(page)
    assert "<svg" in page and page.count("\\u202e") >= 3  # the chart's legend too
    commitment = json.loads(invoke(["game", "log", str(hostile_game), "--json"])[1])[
        "game"]["commitment"]
    assert commitment in page


def test_html_report_sets_a_strict_content_security_policy_and_wraps_long_words(
        hostile_game: Path, tmp_path: Path) -> None:
    page_file = tmp_path / "report.html"
    assert invoke(["game", "report", str(hostile_game), "--html", str(page_file)])[0] == 0
    page = page_file.read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert policy is not None
    rules = dict(part.strip().split(" ", 1) for part in policy.group(1).split(";"))
    assert rules["default-src"] == "'none'"  # no script, nothing fetched, no frame
    assert "script-src" not in rules and rules["base-uri"] == "'none'"
    assert page.index("Content-Security-Policy") < page.index("<style>")
    assert "overflow-wrap: anywhere" in page
    assert "<script" not in page


@pytest.mark.parametrize("command", [["game", "log"], ["game", "verify"]])
def test_game_commands_at_the_terminal_show_the_names_as_text(hostile_game: Path,
                                                              command: list[str]) -> None:
    code, out, err = invoke([*command, str(hostile_game)])
    assert code == 0, err
    assert raw_in(out + err) == []
    if command[1] == "log":
        _check_shown(out)


def test_game_follow_shows_the_names_as_text(hostile_game: Path) -> None:
    import io

    from referee.context import Environment
    from referee.game.follow import follow

    out = io.StringIO()
    follow(hostile_game, Environment(stdout=out, stdout_isatty=False), interval=0.01,
           rounds=1)
    _check_shown(out.getvalue())


def test_an_attack_at_the_terminal_and_its_json(tmp_path: Path) -> None:
    """The terminal shows the escapes; ``--json`` keeps the exact text (JSON escapes)."""
    name = "".join(HOSTILE.values())
    script = tmp_path / "s.toml"
    script.write_text(
        'ruleset = "epic"\nroll_missing_dice = true\nseed = 3\n[declaration]\n'
        f'firing = {json.dumps(name)}\ntarget = "Red Hill Battery (invented)"\n'
        '[[declaration.weapons]]\nname = "Cannon"\nshots = 3\nap = 5\nat = 4\n[answers]\n'
        'action = "double"\ncover = true\n"fire-type.cannon" = "at"\n', encoding="utf-8")
    code, out, err = invoke(["run", str(script), "--no-odds"])
    assert code == 0, err
    _check_shown(out)
    code, out, err = invoke(["run", str(script), "--no-odds", "--json"])
    assert code == 0, err
    assert raw_in(out) == []  # written as JSON escapes...

    def strings(value: object) -> list[str]:
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return [value] if isinstance(value, str) else []

    assert any(name in text for text in strings(json.loads(out)))  # ...the exact text


def test_json_escapes_characters_beyond_the_basic_plane_as_surrogate_pairs() -> None:
    from referee.render.json_out import dumps

    text = f"tag\U000e0041 lone\udcff {RLO}"
    written = dumps({"name": text})
    assert "\\udb40\\udc41" in written and "\\udcff" in written and "\\u202e" in written
    assert json.loads(written)["name"] == text


def test_an_error_message_shows_the_name_as_text(tmp_path: Path) -> None:
    bad = tmp_path / f"bad{RLO}.toml"
    bad.write_text("ruleset = 3\n", encoding="utf-8")
    code, _, err = invoke(["run", str(bad)])
    assert code == 3 and "bad\\u202e.toml" in err and raw_in(err) == []


# --- issue 28, case 7: the same page with or without lxml ----------------------------------

RENDER = """
import sys
if sys.argv[2] == "without":
    sys.modules["lxml"] = None  # as if lxml were not installed
import pygal.etree
assert (pygal.etree.etree._lxml_etree is not None) == (sys.argv[2] == "with")
from pathlib import Path
from referee.game.report import build_report, html
sys.stdout.buffer.write(html(build_report(Path(sys.argv[1]))).encode("utf-8"))
"""


def test_html_report_with_lxml_installed_takes_a_control_character_in_a_side_name(
        tmp_path: Path) -> None:
    """Case 7: with lxml installed (pygal uses it when present), ``game report --html``
    exited 1 on a control character in a side name."""
    import lxml  # noqa: F401  (installed with the test extras: this case needs it)

    game = tmp_path / "night.sqlite"
    assert invoke(["game", "new", str(game), "--side", "Gr\x1bey", "--side", "Red"])[0] == 0
    assert invoke(["attack", "epic", "--declaration",
                   str(ROOT / "transcripts/scripts/epic-grey-company.toml"), "--game",
                   str(game)], answers=["Gr\x1bey", "sustained-fire", "no", "at", "6 5 1",
                                        "", "owls"])[0] == 0
    # the formation is on the first side, whose name holds the control character
    code, _, err = invoke(["game", "report", str(game), "--html", str(tmp_path / "r.html")])
    assert code == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Gr\\x1bey" in page and "<svg" in page and "\x1b" not in page


def test_html_report_is_the_same_page_with_and_without_lxml(hostile_game: Path) -> None:
    pages = {}
    for how in ("with", "without"):
        done = subprocess.run([sys.executable, "-c", RENDER, str(hostile_game), how],
                              capture_output=True, cwd=ROOT, timeout=120, check=False)
        assert done.returncode == 0, done.stderr.decode()
        pages[how] = done.stdout
    assert pages["with"] == pages["without"]
    assert b"<svg" in pages["with"]
