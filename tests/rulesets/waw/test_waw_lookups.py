"""World at War lookups: `he-odds` (exact, checked against enumeration of every roll),
`missions`, `effects`, `smoke-fire` and `move-cost`, and how they refuse bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import UnknownIdError, UsageError
from referee.rulesets.waw.odds import net_hit_distribution
from tests.support.tables import texts, values


def enumerate_net(firepower: int, hit: int, defence: int) -> list[Fraction]:
    out = [Fraction(0)] * (firepower + 1)
    total = 6 ** (firepower + defence)
    for faces in itertools.product(range(1, 7), repeat=firepower + defence):
        hits = sum(1 for f in faces[:firepower] if f >= hit)
        cancels = sum(1 for f in faces[firepower:] if f >= 5)
        out[max(hits - cancels, 0)] += Fraction(1, total)
    return out


@pytest.mark.clause("W-2")
@pytest.mark.parametrize(("fp", "hit", "defence"), [(2, 4, 3), (3, 5, 1), (1, 6, 0),
                                                     (4, 3, 2)])
def test_W2_he_odds_match_enumeration_of_every_roll(fp: int, hit: int, defence: int) -> None:
    assert net_hit_distribution(fp, hit, defence, 5) == enumerate_net(fp, hit, defence)


@pytest.mark.clause("W-1")
def test_W1_he_odds_lookup_rows_and_title() -> None:
    table = api.lookup("waw", "he-odds", "2", ["4", "--defence", "1"])
    # 2 dice at 4+: 0/1/2 hits with 1/4, 1/2, 1/4; one defence die cancels on 5+ (1/3):
    # 0 net = 1/4 + 1/2 * 1/3; 1 net = 1/2 * 2/3 + 1/4 * 1/3; 2 net = 1/4 * 2/3
    assert [values(r)[1] for r in table.rows] == [Fraction(5, 12), Fraction(5, 12),
                                                  Fraction(1, 6)]
    assert [texts(r)[1] for r in table.rows] == ["5/12", "5/12", "1/6"]
    assert values(table.rows[0])[3] == 1 and texts(table.rows[0])[3] == "100.0%"
    assert "Firepower 2 at 4+, 1 defence die (5+ cancels)" in render(table.title)
    assert api.lookup("waw", "he-odds", "2", ["4+", "--defence=1"]).rows == table.rows


@pytest.mark.parametrize(("key", "args", "words"), [
    ("0", ["4"], "firepower must be a whole number from 1 to 40"),
    ("3", ["7"], "hit number must be a whole number from 1 to 6"),
    ("3", [], "usage: lookup waw he-odds"),
    ("3", ["4", "--defence"], "--defence needs a value"),
    ("3", ["4", "--defence", "x"], "defence dice must be a whole number"),
])
def test_he_odds_refuses_bad_input_with_one_line(key: str, args: list[str], words: str) -> None:
    with pytest.raises(UsageError) as err:
        api.lookup("waw", "he-odds", key, args)
    text = render(err.value.msg)
    assert words in text and "\n" not in text


def test_unknown_flag_suggests_the_known_ones() -> None:
    with pytest.raises(UnknownIdError) as err:
        api.lookup("waw", "he-odds", "3", ["4", "--defense", "1"])
    assert "--defence" in err.value.suggestions


@pytest.mark.clause("W-7")
def test_W7_missions_table_names_every_mission_and_its_clauses() -> None:
    table = api.lookup("waw", "missions")
    assert [r[0] for r in table.rows] == ["he", "smoke", "fascam", "chemical"]
    assert table.rows[2][4] == "W-7"
    with pytest.raises(UsageError):
        api.lookup("waw", "missions", "x")


@pytest.mark.clause("W-4")
def test_W4_effects_lookup_shows_the_cells_left_open() -> None:
    table = api.lookup("waw", "effects")
    soft = table.rows[1]
    assert "asked" in texts(soft)[1] and texts(soft)[2] == "weakened"
    assert values(soft)[1:] == ("ask", "weaken", "ask")  # the ids of the table's data


@pytest.mark.parametrize("argv", [["lookup", "waw", "he-odds", "6", "5", "--defence", "2"],
                                  ["lookup", "waw", "missions"], ["lookup", "waw"],
                                  ["waw-markers", "--help"]])
def test_waw_lookups_load_no_heavy_module(argv: list[str]) -> None:
    import subprocess
    import sys

    from tests.project.test_imports import PROBE
    from tests.support import ROOT

    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "HEAVY:"


def test_markers_command_has_help_with_json_and_phase() -> None:
    import io

    from typer.testing import CliRunner

    from referee.cli import app
    from referee.context import Environment

    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=out, color=False)
    result = CliRunner().invoke(app, ["waw-markers", "--help"], obj=env)
    assert result.exit_code == 0
    for word in ("--game", "--phase", "--clear", "--json"):
        assert word in result.output
