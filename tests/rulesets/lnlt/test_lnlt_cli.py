"""`referee phase lnlt`: a phase kept in a game file, one transaction per impulse, resumed
by the next command; rosters and damage tables from files; lookups; one flow through a real
pseudo-terminal."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment
from referee.frontends.answers import SequencePort
from referee.game import open_game
from tests.support import ROOT

ROSTER = str(ROOT / "transcripts" / "rosters" / "lnlt-crossroads.toml")


def invoke(args: list[str], answers: list[str] | None = None,
           port: Any = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    factory = port or ((lambda rng: SequencePort(answers, rng)) if answers is not None
                       else None)
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=err, stdin_isatty=False,
                      stdout_isatty=False, color=False, port_factory=factory)
    result = CliRunner().invoke(app, args, obj=env, catch_exceptions=False)
    return result.exit_code, out.getvalue() + result.output, err.getvalue()


def state(game: Path) -> dict[str, Any]:
    with open_game(game) as tx:
        return tx.state("lnl-tactical")["phase"]  # type: ignore[no-any-return]


@pytest.mark.clause("L-1")
def test_L1_phase_is_played_saved_and_resumed_impulse_by_impulse(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--roster", ROSTER,
                             "--impulses", "1", "--seed", "1"], ["pass"])
    assert code == 0, err
    assert state(game)["impulses"] == 1 and state(game)["current"] == "Red"
    code, out, _ = invoke(["phase", "lnlt", "--game", str(game), "--seed", "1"],
                          ["pass", "pass"])
    assert code == 0
    saved = state(game)
    assert saved["ended"] and saved["end_reason"] == "three-passes" and saved["impulses"] == 3
    assert "three consecutive passes" in out
    with open_game(game) as tx:  # every impulse in the log, in order
        assert [e.result["outcome"]["data"]["impulses"] for e in tx.log()] == [1, 2, 3]


def test_ctrl_c_keeps_the_impulses_already_played(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"

    class StopAtImpulse2:
        def __init__(self, rng: Any) -> None:
            pass

        def ask(self, question: Any) -> Any:
            if question.id.startswith("i2."):
                raise KeyboardInterrupt
            return "pass"

    code, _, err = invoke(["phase", "lnlt", "--game", str(game), "--roster", ROSTER,
                           "--seed", "1"], port=StopAtImpulse2)
    assert code == 130 and "Interrupted" in err
    assert state(game)["impulses"] == 1  # impulse 1 kept, impulse 2 rolled back


def test_json_output_and_the_options_kept_with_the_phase(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    code, out, _ = invoke(["phase", "lnlt", "--game", str(game), "--roster", ROSTER,
                           "--impulses", "1", "--json", "--seed", "1",
                           "-o", "pass-count=forced-passes-ignored"], ["pass"])
    assert code == 0
    data = json.loads(out)
    assert data["summary"]["non_default_options"] == ["pass-count"]
    assert data["impulses"][0]["outcome"]["data"]["passes"] == 1
    assert data["seed"] == 1
    code, out, _ = invoke(["phase", "lnlt", "--game", str(game), "--show", "--json"])
    shown = json.loads(out)
    assert shown["summary"]["non_default_options"] == ["pass-count"]
    assert shown["impulses"] == [] and shown["seed"] is None  # nothing rolled


def test_damage_table_file_answers_the_results(tmp_path: Path) -> None:
    game, dct = tmp_path / "g.sqlite", tmp_path / "dct.toml"
    dct.write_text('source = "our chart"\ncompare = "over-morale"\n'
                   '[[leg]]\nat_least = 1\nresult = "shaken"\n', encoding="utf-8")
    answers = ["activate", "C4", "", "fire:C4", "able", "D4", "0", "0", "6", "1", "4"]
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--roster", ROSTER,
                             "--dct", str(dct), "--impulses", "1", "--seed", "1"], answers)
    assert code == 3 and "no answer" in err  # the activation goes on: the script ran out
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--roster", ROSTER,
                             "--dct", str(dct), "--restart", "--impulses", "1", "--seed", "1",
                             "--working"],
                            [*answers, "done"])
    assert code == 0, err
    # 6 + 2 = 8 against 1 + 0: DC 4 + 7 = 11, 6 over Pawn's morale 5: Shaken, from the file
    assert "table: our chart" in out and "Shaken" in out


def test_bad_rosters_and_tables_name_the_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text('sides = ["A", "B"]\n[[units]]\nid = "x"\nside = "A"\nhex = "H1"\n'
                   'kind = "tank"\n', encoding="utf-8")
    code, _, err = invoke(["phase", "lnlt", "--game", str(tmp_path / "g"), "--roster",
                           str(bad)])
    assert code == 3 and "r.toml, line 6 (units[0].kind)" in err
    dct = tmp_path / "d.toml"
    dct.write_text('source = "x"\n[[leg]]\nat_least = 1\nresult = "routed"\n',
                   encoding="utf-8")
    code, _, err = invoke(["phase", "lnlt", "--game", str(tmp_path / "g"), "--roster",
                           ROSTER, "--dct", str(dct)])
    assert code == 3 and "routed" in err and "Traceback" not in err


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    game = str(tmp_path / "g.sqlite")
    assert invoke(["phase", "epic", "--game", game])[0] == 2
    # no roster: the units are asked at the table (issue 27), which needs a terminal
    code, _, err = invoke(["phase", "lnlt", "--game", game])
    assert code == 4 and "no terminal" in err
    code, _, err = invoke(["phase", "lnlt", "--game", game, "--show"])
    assert code == 2 and "--roster" in err
    assert invoke(["phase", "lnlt", "--game", game, "--restart"])[0] == 2
    assert invoke(["phase", "lnlt", "--game", game, "--roster", ROSTER, "-o", "x=y"])[0] == 2


def test_no_terminal_exits_4(tmp_path: Path) -> None:
    code, _, err = invoke(["phase", "lnlt", "--game", str(tmp_path / "g"), "--roster",
                           ROSTER])
    assert code == 4 and "referee run" in err


def test_phase_has_help_text() -> None:
    code, out, _ = invoke(["phase", "--help"])
    assert code == 0 and "--roster" in out and "--game" in out and "--json" in out
    assert "phase" in invoke(["--help"])[1]


@pytest.mark.clause("L-2")
def test_L2_phase_end_lookup() -> None:
    code, out, _ = invoke(["lookup", "lnlt", "phase-end", "3"])
    assert code == 0 and "the phase ends" in out
    code, out, _ = invoke(["lookup", "lnlt", "phase-end", "2"])
    assert "1 more consecutive pass ends it" in out
    code, out, _ = invoke(["lookup", "lnlt", "phase-end"])
    assert "any activation" in out
    assert invoke(["lookup", "lnlt", "phase-end", "x"])[0] == 2


@pytest.mark.clause("L-13")
def test_L13_ops_complete_lookup_and_its_refusals() -> None:
    code, out, _ = invoke(["lookup", "lnlt", "ops-complete", "mg", "--fp", "3"])
    assert code == 0 and "FP 3 → 2" in out
    assert invoke(["lookup", "lnlt", "ops-complete", "oft", "--fp", "3"])[0] == 2
    assert invoke(["lookup", "lnlt", "ops-complete", "mg", "--fp", "x"])[0] == 2
    assert invoke(["lookup", "lnlt", "ops-complete", "mg", "--cover"])[0] == 2
    assert invoke(["lookup", "lnlt", "ops-complete", "--fp", "3"])[0] == 2
    assert invoke(["lookup", "lnlt", "ops-complete", "bogus"])[0] == 2


# --- a real pseudo-terminal --------------------------------------------------------------

UP, ENTER, SPACE, CTRL_C = "\x1b[A", "\r", " ", "\x03"


@pytest.mark.pty
@pytest.mark.clause("L-10")
@pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty")
def test_L10_pty_leader_activates_a_hex_then_ctrl_c_keeps_the_saved_impulses(
        tmp_path: Path) -> None:
    import pexpect

    from tests.support.pty import Session, at_a_terminal, child_env

    game = str(tmp_path / "g.sqlite")

    def spawn(*args: str) -> Session:
        return Session(pexpect.spawn(sys.executable, ["-m", "referee", *args], cwd=str(ROOT),
                                     env=child_env(), encoding="utf-8", timeout=15,
                                     dimensions=(50, 200), preexec_fn=at_a_terminal))

    s = spawn("phase", "lnlt", "--game", game, "--roster", ROSTER, "--seed", "5", "--working")
    s.expect("Impulse 1, Grey: activate units or pass?")
    s.child.send(ENTER)  # the default is Activate, never Pass (issue 18)
    s.expect("Grey: which hex do you activate?")
    s.child.send(ENTER)  # C4, Lt. Ash's hex
    s.expect("Activate adjacent hexes through Lt. Ash?")
    s.child.send(SPACE + ENTER)  # tick C5, the only hex he may reach
    s.expect("Impulse 1: what next?")
    s.child.send(ENTER)  # the default: end the activation
    s.expect("Impulse 2, Red: activate units or pass?")
    s.child.send(CTRL_C)
    assert s.finish() == 130
    shown = s.text
    assert "Traceback" not in shown
    assert "Lt. Ash only activated other units this impulse: Ops Complete" in shown
    saved = state(Path(game))
    assert saved["impulses"] == 1 and saved["current"] == "Red"
    ash = next(u for u in saved["roster"]["units"] if u["id"] == "ash")
    assert ash["markers"] == ["ops-complete"]


@pytest.mark.clause("L-3")
def test_L3_a_misspelt_status_in_a_script_is_refused_with_its_line_and_field(
        tmp_path: Path) -> None:
    """Review /tmp/rv2/st.toml: 'good_order' is a typo, not 'out of Good Order'."""
    script = tmp_path / "st.toml"
    script.write_text('ruleset = "lnlt"\n[declaration]\nsides = ["G", "R"]\ninitiative = "G"\n'
                      '[[declaration.units]]\nid = "lt"\nside = "G"\nhex = "H1"\n'
                      'kind = "smc"\nleader = true\nlm = 1\nstatus = "good_order"\n'
                      '[[declaration.units]]\nid = "r"\nside = "R"\nhex = "H3"\n'
                      'kind = "mmc"\n[answers]\n', encoding="utf-8")
    code, _, err = invoke(["run", str(script)])
    assert code != 0
    assert "line 12 (declaration.units[0].status)" in err
    assert "'good_order' is not one of good-order" in err
