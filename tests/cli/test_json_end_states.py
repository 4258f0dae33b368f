"""A result's JSON gives a roll's end states where the roll first predicts them, as the
scripted run's text shows them, and ``null`` at the later rolls of the same attack (not
worked out); ``--odds full`` gives every roll's (README, ``--json``: the contract, version 2;
issue 25, item 6: a large attack's JSON run cost thirteen times its text run)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.context import Environment
from referee.frontends.answers import AnswerPort, SequencePort
from referee.odds.report import LazyEndStates, first_predictions
from referee.play.attack import run_script
from referee.render.json_out import SCHEMA_VERSION, result_json
from tests.cli.test_json_contract import validate
from tests.support import ROOT

SCRIPTS = ROOT / "transcripts" / "scripts"
TWO_ROLLS = SCRIPTS / "epic-allocation-at.toml"  # a roll to hit, then a save: one attack


def invoke(args: list[str], **env: Any) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    environment = Environment(stdin=io.StringIO(), stdout=out, stderr=err,
                              stdin_isatty=False, stdout_isatty=False, color=False, **env)
    result = CliRunner().invoke(app, args, obj=environment, catch_exceptions=False)
    assert result.exit_code == 0, err.getvalue() + result.output
    doc: dict[str, Any] = json.loads(out.getvalue() + result.stdout)
    validate(doc)
    return doc


def test_the_contract_is_version_2() -> None:
    assert SCHEMA_VERSION == 2
    assert invoke(["lookup", "epic", "to-hit", "8", "--json"])["schema_version"] == 2


def test_a_later_roll_of_the_same_attack_gives_null_end_states() -> None:
    first, save = invoke(["run", str(TWO_ROLLS), "--json"])["odds"]
    assert (first["question"], save["question"]) == ("to-hit.lascannon", "save.normal.b")
    assert [s["label"]["msg"] for s in first["end_states"]] == [
        "epic.odds.end.destroyed", "epic.odds.end.breaks", "epic.odds.end.wiped_out"]
    assert save["end_states"] is None
    # without its end states, a roll's exactness is its distribution's
    assert save["exact"] is save["distribution_exact"] is True
    assert save["distribution"] and save["actual"]["value"] == 1


def test_odds_full_gives_every_rolls_end_states_and_the_same_first_ones() -> None:
    compact = invoke(["run", str(TWO_ROLLS), "--json"])["odds"]
    full = invoke(["run", str(TWO_ROLLS), "--json", "--odds", "full"])["odds"]
    assert all(isinstance(roll["end_states"], list) and roll["end_states"] for roll in full)
    assert full[0] == compact[0]
    # the save's end states know the save: one unit of four may be destroyed by it
    destroyed = full[1]["end_states"][0]
    assert destroyed["label"]["msg"] == "epic.odds.end.destroyed"
    assert destroyed["value"]["fraction"] == "3/4"
    # apart from the end states, the rolls are the same in both
    for a, b in zip(compact, full, strict=True):
        assert {k: v for k, v in a.items() if k != "end_states"} == \
            {k: v for k, v in b.items() if k != "end_states"}


def test_a_roll_without_end_states_gives_an_empty_list_not_null() -> None:
    odds = invoke(["run", str(SCRIPTS / "epic-to-hit.toml"), "--json"])["odds"]
    then = [r for r in odds if r["title"]["msg"] == "epic.odds.title.then"]
    assert then and then[0]["end_states"] == []


def test_odds_none_leaves_the_odds_out_as_no_odds_does() -> None:
    assert "odds" not in invoke(["run", str(TWO_ROLLS), "--json", "--odds", "none"])


@pytest.mark.parametrize("script", ["epic-allocation.toml", "epic-barrage.toml",
                                    "cc-jammed-group.toml", "lnlt-opposed-roll.toml",
                                    "waw-he-data-file.toml", "lnlt-short-phase.toml"])
def test_the_json_gives_end_states_where_the_text_shows_them(script: str) -> None:
    """The same rule for both: each roll's end states in the JSON exactly where the text
    run's roll shows "How the attack may end", in every ruleset."""
    path = SCRIPTS / script
    odds = invoke(["run", str(path), "--json"])["odds"]
    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=io.StringIO(),
                      stdin_isatty=False, stdout_isatty=False, color=False)
    result = CliRunner().invoke(app, ["run", str(path)], obj=env, catch_exceptions=False)
    text = (out.getvalue() + result.stdout).split("Odds at each roll", 1)[1]
    heading = "How the attack may end:"
    assert text.count(heading) == sum(bool(r["end_states"]) for r in odds) >= 1
    assert any(r["end_states"] is None for r in odds)
    # in the text, a roll's end states follow its title (a line indented by two): the
    # same rolls
    shown: list[bool] = []
    for line in text.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            shown.append(False)
        elif line.strip() == heading:
            shown[-1] = True
    assert shown == [bool(r["end_states"]) for r in odds]


def test_the_end_states_not_given_are_never_worked_out() -> None:
    """The point of the rule: the later rolls' end states stay lazy through the JSON."""
    _, played = run_script(TWO_ROLLS)
    assert played.odds is not None
    body = result_json(played.result, played.odds)
    states = [roll.report.end_states for roll in played.odds]
    assert isinstance(states[1], LazyEndStates)
    assert not states[1].forced and body["odds"][1]["end_states"] is None
    result_json(played.result, played.odds, every_end_state=True)
    assert states[1].forced


def test_first_predictions_marks_a_new_fire_as_new() -> None:
    _, played = run_script(SCRIPTS / "lnlt-short-phase.toml")
    assert played.odds is not None
    fresh = first_predictions(played.odds)
    assert fresh[0] and not all(fresh)
    labels = [set(r.report.end_labels) for r in played.odds]
    seen: set[Any] = set()
    for roll_labels, new in zip(labels, fresh, strict=True):
        assert new == bool(roll_labels - seen)
        if new:
            seen = roll_labels


def test_attack_at_the_board_follows_odds_full_in_json(tmp_path: Path) -> None:
    """``attack --json`` (its questions answered by a port): compact gives null at the
    save, ``--odds full`` its end states."""
    def port(dice: Any) -> AnswerPort:
        return AnswerPort({"action": "advance", "to-hit.lascannon": "5 6",
                           "save.normal.b": "4 3"}, dice, use_defaults=True)

    text = TWO_ROLLS.read_text(encoding="utf-8")
    declaration = tmp_path / "declaration.toml"
    declaration.write_text(text[:text.index("[answers]")], encoding="utf-8")
    args = ["attack", "epic", "--declaration", str(declaration), "--json"]
    compact = invoke(args, port_factory=port)["odds"]
    full = invoke([*args, "--odds", "full"], port_factory=port)["odds"]
    assert [r["end_states"] is None for r in compact] == [False, True]
    assert all(r["end_states"] for r in full)


def test_a_phase_impulse_follows_odds_full_in_json(tmp_path: Path) -> None:
    """``phase lnlt --json``: each impulse's rolls by the same rule, ``--odds full`` too."""
    roster = str(ROOT / "transcripts" / "rosters" / "lnlt-crossroads.toml")
    dct = tmp_path / "dct.toml"
    dct.write_text('source = "our chart"\ncompare = "over-morale"\n'
                   '[[leg]]\nat_least = 1\nresult = "shaken"\n', encoding="utf-8")
    typed = ["activate", "C4", "", "fire:C4", "able", "D4", "0", "0", "6", "1", "4", "done"]

    def impulse(*extra: str) -> list[Any]:
        game = tmp_path / f"g{len(extra)}.sqlite"
        doc = invoke(["phase", "lnlt", "--game", str(game), "--roster", roster, "--dct",
                      str(dct), "--impulses", "1", "--seed", "1", "--json", *extra],
                     port_factory=lambda dice: SequencePort(typed, dice))
        odds: list[Any] = doc["impulses"][0]["odds"]
        return odds

    compact, full = impulse(), impulse("--odds", "full")
    assert len(compact) == len(full) >= 2
    assert compact[0]["end_states"] and all(r["end_states"] is None for r in compact[1:])
    assert all(r["end_states"] for r in full) and full[0] == compact[0]
