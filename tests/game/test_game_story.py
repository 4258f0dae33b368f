"""The battle report as a page worth keeping: each entry told in plain words (who attacked
whom, what was destroyed, broken, suppressed), a casualty table a side, the turning points,
the final state, clause ids and working folded behind each entry, one set of templates for
the written page and the served one, a strict Content-Security-Policy, every name made
visible. And the sides of a Combat Commander fire at a target hex left unnamed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.game import open_game
from tests.support import ROOT
from tests.support.game import fixed_seed, invoke, new_game, run_in, script

SCRIPTS = ROOT / "transcripts" / "scripts"


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game of several rulesets whose formations' sides are known."""
    fixed_seed(monkeypatch)
    game = tmp_path / "night.sqlite"
    new_game(game)
    with open_game(game) as tx:
        for name, side in (("Grey Company (invented)", "Grey"),
                           ("Red Hill Battery (invented)", "Red"),
                           ("Blue Squadron (invented)", "Red"),
                           ("Thunder Battery (invented)", "Grey"),
                           ("cc.nation.germany", "Red")):
            tx.remember_side(name, side)
    for name in ("epic-allocation", "epic-barrage", "cc-moving-tie",
                 "waw-example-2-mixed-stack"):
        run_in(game, SCRIPTS / f"{name}.toml")
    return game


def _report(game: Path) -> str:
    code, out, err = invoke(["game", "report", str(game)])
    assert code == 0, err
    return out


def test_each_entry_is_told_as_a_player_tells_it(night: Path) -> None:
    out = _report(night)
    assert "### 1. Grey's Grey Company (invented) shot at Red's Red Hill Battery (invented)" \
        in out
    assert "- destroyed: A, D" in out  # E-11: the units that failed their saves
    assert "- Red Hill Battery (invented): 3 Blast markers, broken" in out  # E-13, E-14
    assert "fired a barrage at Red's Red Hill Battery" in out
    assert "- broken: Moving US squad (invented)" in out  # C-5: the defence roll's result
    assert "- suppressed: Dug-in US squad (invented)" in out


def test_the_casualties_of_each_side(night: Path) -> None:
    out = _report(night)
    casualties = out.split("## Casualties")[1].split("## Turning points")[0]
    red = next(line for line in casualties.splitlines() if line.startswith("| Red |"))
    # two units of the first Epic attack and four of the barrage, the entry of each named
    assert "| 6: A (destroyed, #1); D (destroyed, #1); Tank 1 (destroyed, #2); Crew 1" in red
    assert "Red Hill Battery (invented) (broken, #2)" in red
    grey = next(line for line in casualties.splitlines() if line.startswith("| Grey |"))
    assert "| 0 |" in grey  # Grey lost nothing


def test_the_turning_points_are_the_rarest_rolls_with_their_chances(night: Path) -> None:
    out = _report(night)
    turning = out.split("## Turning points")[1].split("## Luck")[0]
    items = [line for line in turning.splitlines() if line.startswith("- #")]
    assert items and len(items) <= 5
    chances = [float(re.search(r"chance of ([\d.]+)%", i).group(1))  # type: ignore[union-attr]
               for i in items]
    assert chances == sorted(chances) and all(c <= 25 for c in chances)


def test_a_cc_fire_at_an_unnamed_hex_knows_its_sides(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    game = tmp_path / "cc.sqlite"
    new_game(game)
    with open_game(game) as tx:
        tx.remember_side("cc.nation.germany", "Red")
    text = (SCRIPTS / "cc-moving-tie.toml").read_text(encoding="utf-8")
    unnamed = script(tmp_path, "unnamed.toml", text.replace('target_hex = "H3"\n', ""))
    run_in(game, unnamed)
    from tests.support.game import log_json

    entry = log_json(game)["entries"][0]
    assert (entry["attacker_side"], entry["defender_side"]) == ("Red", "Grey")
    # the defender's defence rolls count for Grey's luck
    assert {r["by"] for r in entry["rolls"]} == {"attacker", "defender"}


def test_the_page_is_one_self_contained_page_under_a_strict_policy(night: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    code, _, err = invoke(["game", "report", str(night), "--html", str(out)])
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None
    assert policy.group(1).startswith("default-src 'none'; style-src 'sha256-")
    assert "unsafe-inline" not in page and "<script" not in page and " style=" not in page
    assert page.count("<details>") == 4 and page.count("<article") == 4  # folded working
    assert '<span class="clause">E-11</span>' in page
    assert "prefers-color-scheme: dark" in page and "@media print" in page
    assert 'id="casualties"' in page and 'id="turning"' in page and 'id="final"' in page
    assert "Formations in the game file" in page or "formations" in page  # the final state


def test_every_name_on_the_page_is_shown_as_data(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    game = tmp_path / "bad.sqlite"
    new_game(game)
    name = "Evil\u202e<script>alert(1)</script>\u200b\x1b]8;;http://x\x1b\\"
    text = (SCRIPTS / "epic-allocation.toml").read_text(encoding="utf-8")
    import json

    run_in(game, script(tmp_path, "bad.toml",
                        text.replace('"Grey Company (invented)"', json.dumps(name))))
    out = tmp_path / "bad.html"
    assert invoke(["game", "report", str(game), "--html", str(out)])[0] == 0
    page = out.read_text(encoding="utf-8")
    assert "<script>" not in page and "\u202e" not in page and "\x1b" not in page
    assert "\u200b" not in page
    assert "Evil\\u202e&lt;script&gt;alert(1)&lt;/script&gt;\\u200b\\x1b]8;;http://x\\x1b\\" \
        in page
    markdown = _report(game)
    assert "\x1b" not in markdown and "\u202e" not in markdown


def test_the_served_report_and_the_written_one_share_their_templates(night: Path) -> None:
    from referee.game.page import render_page
    from referee.game.report import build_report, html, report_context

    report = build_report(night)
    served = render_page("report.html.j2", standalone=False, static="/s",
                         **report_context(report))
    written = html(report)

    def body(page: str) -> str:  # the chart's ids are drawn afresh each time
        return re.sub(r"chart-[0-9a-f-]{36}", "chart", page.split("<body", 1)[1])

    assert body(served) == body(written)
    assert '<link rel="stylesheet" href="/s/referee.css">' in served


def test_each_roll_on_the_page_has_its_chance_and_percentile(night: Path) -> None:
    """The page's entries (the report and the live log share them) give each roll with the
    chance of a roll this good or better for its roller, and its percentile."""
    from referee.game.report import build_report, entry_view
    from tests.support.game import log_json

    views = [entry_view(told) for told in build_report(night).stories]
    rolls = log_json(night)["entries"][0]["rolls"]
    shown = views[0].rolls
    assert len(shown) == len(rolls)
    for roll, line in zip(rolls, shown, strict=True):
        better = roll["at_least"] if roll["higher_is_better"] else roll["at_most"]
        assert f"a roll this good or better had a chance of {better * 100:.1f}%" in line
        assert line.endswith(f"percentile {roll['percentile']:.0f}")
