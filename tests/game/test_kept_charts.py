"""Charts typed once a game (issue 27, part 2): an answer read off the players' own chart is
kept keyed by what the chart reads, answered by the referee itself next time (saying so),
asked once for identical units of one mission, and listed, corrected, exported and imported
by ``referee game charts``; every change is an entry of the log. Units invented."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from referee import api
from referee.catalog import render
from referee.core.charts import ChartKey, Charts
from referee.core.errors import AnswerError
from referee.core.questions import Choice, ChoiceQuestion
from referee.core.text import Msg
from tests.support import ROOT
from tests.support.game import invoke, new_game
from tests.support.lnlt import roster, unit

WAW_TYPED = ["he", "0712 1", "2 inf, cv", "5 4+", "5 5 5 5 5", "6", "3"]
"""A World at War HE mission typed at the table: two infantry units and a combat vehicle
take 4 net hits (one each, the vehicle a second)."""


def _questions(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("? ")]


def _waw(game: Path, answers: list[str], *extra: str) -> tuple[int, str, str]:
    return invoke(["attack", "waw", "--game", str(game), "--no-odds", "--seed", "3",
                   "--working", *extra], answers=answers)


class _Port:
    """Answers each question from a list, by id; keeps the ids asked."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def ask(self, question: Any) -> Any:
        self.asked.append(question.id)
        return question.accept(self.answers[question.id])


def _effect_question(unit_name: str) -> ChoiceQuestion:
    return ChoiceQuestion(id=f"effect.{unit_name}.first", text=Msg.of("waw.q.effect_first",
                                                                      unit=unit_name),
                          choices=tuple(Choice(e, e) for e in ("none", "disorganize")),
                          default_value="none")


def test_a_chart_is_asked_once_for_the_same_reading_and_kept_for_the_next_entry() -> None:
    key = ChartKey("waw.he-effect", "soft", "first")
    port = _Port({"effect.a.first": "disorganize", "effect.b.first": "none"})
    charts = Charts({}, entry=4)
    first = charts.ask(port, _effect_question("a"), key)
    second = charts.ask(port, _effect_question("b"), key)
    assert port.asked == ["effect.a.first"]  # the second unit reads the same chart
    assert (first.value, first.source) == ("disorganize", None)
    assert second.value == "disorganize"
    assert second.source == Msg.of("kept.chart.source_here")
    kept = charts.updates()["charts"]
    assert kept == [{"chart": "waw.he-effect", "row": "soft", "column": "first",
                     "answer": "disorganize", "at": 4}]
    later = Charts({"charts": kept}, entry=9).ask(_Port({}), _effect_question("c"), key)
    assert later.value == "disorganize"
    assert render(later.source) == "from your chart, entered at #4"
    assert Charts({"charts": kept}).updates() == {}  # nothing new: nothing to write


def test_a_kept_answer_the_question_no_longer_takes_is_asked_again() -> None:
    key = ChartKey("waw.he-effect", "soft", "further")
    kept = [{"chart": key.chart, "row": key.row, "column": key.column, "answer": "weaken",
             "at": 1}]
    port = _Port({"effect.a.first": "none"})
    found = Charts({"charts": kept}, entry=2).ask(port, _effect_question("a"), key)
    assert port.asked == ["effect.a.first"] and found.value == "none"
    with pytest.raises(AnswerError):
        _effect_question("a").accept("weaken")


def test_waw_identical_soft_units_of_one_mission_are_asked_once(tmp_path: Path) -> None:
    code, out, err = _waw(tmp_path / "g.sqlite", [*WAW_TYPED, "disorganize"])
    assert code == 0, err
    asked = [q for q in _questions(out) if "first HE hit" in q]
    assert asked == ["? What does a first HE hit do to unit 1 (read it in your rules)?  "
                     "disorganized"]
    assert ("first HE hit on a soft target for unit 2: disorganized (from your chart, as "
            "answered above)") in out
    assert "| unit 2 | infantry       | 1    | good order | disorganized |" in out


def test_waw_the_next_mission_answers_from_the_chart_entered_before(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "weaken"])[0] == 0
    code, out, err = _waw(game, ["he", "0712 1", "2 inf, cv", "5 4+", "5 5 5 5 5", "6", "3"])
    assert code == 0, err
    assert not [q for q in _questions(out) if "first HE hit" in q]
    assert "first HE hit on a soft target for unit 1: weakened (from your chart, entered at #1)" \
        in out


def test_waw_without_a_game_file_each_mission_asks_again(tmp_path: Path) -> None:
    for _ in range(2):
        code, out, _err = invoke(["attack", "waw", "--no-odds", "--seed", "3"],
                                 answers=[*WAW_TYPED, "disorganize"])
        assert code == 0
        assert len([q for q in _questions(out) if "first HE hit" in q]) == 1


def test_lnlt_the_same_damage_check_reading_is_asked_once() -> None:
    # two alike squads in D4 both fail with total 4: the chart reads the same row and total
    decl = roster(unit("able", "G", "C4", ifp=4), unit("pawn", "R", "D4", morale=6),
                  unit("pike", "R", "D4", morale=6), adjacent={"C4": ["D4"]})
    answers = {"i1.do": "fire:C4", "i1.fire.C4.mods": "0 0", "i1.fire.C4.opposed": [4, 2],
               "i1.fire.C4.dc.pawn": [2], "i1.fire.C4.dc.pike": [2],
               "i1.fire.C4.result.pawn": "shaken", "i2.do": "pass", "i3.do": "pass",
               "i4.do": "pass"}
    result = api.attack("lnlt", answers, declaration=decl)
    dc = next(t for t in result.tables if "Damage" in render(t.title))
    reads = [render(row[-1]) for row in dc.rows]
    assert reads == ["asked (your chart)", "from your chart, as answered above"]
    assert result.state_updates["charts"] == [
        {"chart": "lnlt.dct", "row": "mmc/6", "column": "8", "answer": "shaken",
         "at": None}]


def test_lnlt_a_different_morale_reads_another_row() -> None:
    decl = roster(unit("able", "G", "C4", ifp=4), unit("pawn", "R", "D4", morale=6),
                  unit("pike", "R", "D4", morale=5), adjacent={"C4": ["D4"]})
    answers = {"i1.do": "fire:C4", "i1.fire.C4.mods": "0 0", "i1.fire.C4.opposed": [4, 2],
               "i1.fire.C4.dc.pawn": [2], "i1.fire.C4.dc.pike": [2],
               "i1.fire.C4.result.pawn": "shaken", "i1.fire.C4.result.pike": "no-effect",
               "i2.do": "pass", "i3.do": "pass", "i4.do": "pass"}
    result = api.attack("lnlt", answers, declaration=decl)
    assert len(result.state_updates["charts"]) == 2


def test_game_charts_lists_sets_undoes_exports_and_imports(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "disorganize"])[0] == 0
    code, out, _ = invoke(["game", "charts", str(game)])
    assert code == 0
    assert "| 1 | world-at-war | first HE hit on a soft target | soft | first  | " \
           "disorganized | #1         |" in out
    chart_file = tmp_path / "charts.toml"
    code, out, _ = invoke(["game", "charts", str(game), "--set", "1=weaken",
                           "--export", str(chart_file)])
    assert code == 0
    assert "first HE hit on a soft target: disorganized → weakened" in out
    assert 'answer = "weaken"' in chart_file.read_text(encoding="utf-8")
    log = json.loads(invoke(["game", "log", str(game), "--json"])[1])
    assert [e["command"] for e in log["entries"]] == ["attack", "game-charts"]
    assert log["entries"][1]["outcome"]["text"] == ("first HE hit on a soft target: "
                                                    "disorganized → weakened")
    assert invoke(["game", "undo", str(game)])[0] == 0
    rows = json.loads(invoke(["game", "charts", str(game), "--json"])[1])["charts"]
    assert [(r["answer"], r["at"]) for r in rows] == [("disorganize", 1)]
    code, out, _ = invoke(["game", "charts", str(game), "--import", str(chart_file),
                           "--json"])
    doc = json.loads(out)
    assert [(r["answer"], r["at"]) for r in doc["charts"]] == [("weaken", 2)]
    assert doc["changes"] == [{"chart": "waw.he-effect", "row": "soft", "column": "first",
                               "before": "disorganize", "after": "weaken"}]
    # removed, it is asked again at the next mission
    assert invoke(["game", "charts", str(game), "--remove", "1"])[0] == 0
    code, out, _ = _waw(game, [*WAW_TYPED, "none"])
    assert code == 0 and [q for q in _questions(out) if "first HE hit" in q]


@pytest.mark.parametrize(("args", "expected"), [
    (["--set", "1=bogus"], "'bogus' is not an answer of this chart (expected none, "
                           "disorganize, weaken, eliminate)"),
    (["--set", "7=none"], "no answer number 7: the list has 1"),
    (["--set", "1"], "--set 1: expected N=VALUE"),
])
def test_game_charts_refuses_a_wrong_edit_and_writes_nothing(tmp_path: Path, args: list[str],
                                                             expected: str) -> None:
    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "disorganize"])[0] == 0
    code, _out, err = invoke(["game", "charts", str(game), *args])
    assert code == 2 and expected in err
    log = json.loads(invoke(["game", "log", str(game), "--json"])[1])
    assert len(log["entries"]) == 1


def test_a_chart_file_with_a_wrong_answer_names_its_line(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "disorganize"])[0] == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('[[chart]]\nchart = "lnlt.dct"\nrow = "mmc/6"\ncolumn = "5"\n'
                   'answer = "weaken"\n', encoding="utf-8")
    code, _out, err = invoke(["game", "charts", str(game), "--import", str(bad)])
    assert code == 3
    assert "bad.toml" in err and "line 5" in err and "'weaken'" in err


def test_a_chart_edited_in_the_file_outside_the_referee_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "disorganize"])[0] == 0
    conn = sqlite3.connect(game)
    (value,) = conn.execute("SELECT value FROM state WHERE key = 'charts'").fetchone()
    conn.execute("UPDATE state SET value = ? WHERE key = 'charts'",
                 (value.replace("disorganize", "eliminate"),))
    conn.commit()
    conn.close()
    code, _out, err = invoke(["game", "charts", str(game)])
    assert code == 5 and "state.world-at-war" in err


def test_verify_replays_a_chart_entry_from_the_revealed_seed(tmp_path: Path,
                                                             game_seed: str) -> None:
    game = tmp_path / "g.sqlite"
    new_game(game)
    answers = ["he", "0712 1", "2 inf, cv", "5 4+", "5 5 5 5 5", "6", "", "owls",
               "disorganize"]  # Enter: the program rolls, Red's word first
    code, _out, err = invoke(["attack", "waw", "--game", str(game), "--no-odds"],
                             answers=answers)
    assert code == 0, err
    assert invoke(["game", "charts", str(game), "--set", "1=eliminate"])[0] == 0
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0, err
    assert "The log holds together (2 entries)" in out


def test_game_charts_in_russian(tmp_path: Path) -> None:
    import subprocess
    import sys

    game = tmp_path / "g.sqlite"
    assert _waw(game, [*WAW_TYPED, "disorganize"])[0] == 0
    done = subprocess.run([sys.executable, "-m", "referee", "--lang", "ru", "game", "charts",
                           str(game), "--set", "1=weaken"], capture_output=True, text=True,
                          encoding="utf-8", env={**os.environ, "NO_COLOR": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert "первое попадание ОФ по уязвимой цели: дезорганизовано → ослаблено" in done.stdout
    assert "Ваши таблицы, как их ввели в партии" in done.stdout


LNLT_THREE = """sides = ["Grey", "Red"]
initiative = "Grey"
adjacent = { C4 = ["D4", "E4"] }
""" + "".join(f"""
[[units]]
id = "{uid}"
name = "{name}"
side = "{side}"
hex = "{hex_}"
kind = "mmc"
ifp = 2
morale = {morale}
""" for uid, name, side, hex_, morale in (("able", "Able squad", "Grey", "C4", 6),
                                          ("pawn", "Pawn squad", "Red", "D4", 5),
                                          ("rook", "Rook squad", "Red", "E4", 5)))


def test_lnlt_a_damage_table_given_in_the_middle_of_a_phase_is_used_from_then_on(
        tmp_path: Path, game_seed: str) -> None:
    game, roster_file, dct = tmp_path / "g.sqlite", tmp_path / "r.toml", tmp_path / "dct.toml"
    roster_file.write_text(LNLT_THREE, encoding="utf-8")
    dct.write_text('source = "our chart"\ncompare = "over-morale"\n'
                   '[[leg]]\nat_least = 1\nresult = "shaken"\n', encoding="utf-8")
    new_game(game)
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--roster",
                             str(roster_file), "--impulses", "1", "--no-odds"],
                            answers=["fire:C4", "D4", "0 0", "5 1", "5", "shaken"])
    assert code == 0, err
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--dct", str(dct),
                             "--impulses", "1", "--no-odds", "--working"],
                            answers=["fire:E4", "0 0", "5 1", "5"])
    assert code == 0, err  # once refused: "--dct goes with --roster, when a phase starts"
    assert ("From this impulse on, Damage Check results are read from the table you gave "
            "(our chart)") in out
    assert "| Able squad | 5   | +6               | -      | 11    | Shaken | table: our " \
           "chart |" in out
    assert not [q for q in _questions(out) if "Damage Check Table" in q]
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "The log holds together (2 entries)" in out, err
    code, _out, err = invoke(["phase", "lnlt", "--game", str(game), "--dct", str(dct),
                              "--show"])
    assert code == 2 and "--show plays none" in err


def test_a_script_whose_chart_answer_the_game_has_already_runs(tmp_path: Path) -> None:
    """A scripted phase played again in a game that kept its Damage Check result: the
    script's answer for it is not refused as unused, the game's chart answers it."""
    game = tmp_path / "g.sqlite"
    phase = str(ROOT / "transcripts" / "scripts" / "lnlt-short-phase.toml")
    assert invoke(["run", phase, "--game", str(game), "--no-odds"])[0] == 0
    code, out, err = invoke(["run", phase, "--game", str(game), "--no-odds"])
    assert code == 0, err
    assert "from your chart, entered at #1" in out


@pytest.mark.parametrize(("lang", "source", "result"), [
    ("en", "from your chart, entered at #1", "Shaken"),
    ("ru", "по вашей таблице, введено в записи #1", "потрясён (Shaken)")])
def test_lnlt_the_next_impulse_reads_a_damage_check_off_the_chart_entered_before(
        tmp_path: Path, lang: str, source: str, result: str) -> None:
    """The next impulse of a phase the game keeps (its first one a script: a squad of morale
    6 checks 8, Shaken): Red's squad fires back at Grey's, alike, which checks 8 too. Four
    questions: the activation, the modifiers, the opposed roll, the damage-check die; the
    result is the chart's, as entered at #1 (benchmarks/questions.py, lnlt-impulse-game)."""
    game = tmp_path / "g.sqlite"
    first = ROOT / "benchmarks" / "questions" / "lnlt-first-impulse.toml"
    assert invoke(["run", str(first), "--game", str(game), "--seed", "1"])[0] == 0
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--seed", "1",
                             "--impulses", "1", "--no-odds", "--working"],
                            answers=["fire:D5", "0 0", "5 2", "3"], lang=lang)
    assert code == 0, err
    assert len(_questions(out)) == 4
    assert not [q for q in _questions(out) if "Damage Check Table" in q or "Результат" in q]
    row = [c.strip() for c in next(line for line in out.splitlines()
                                   if line.startswith("| Able squad | 3")).split("|")]
    assert row[5:8] == ["8", result, source]
