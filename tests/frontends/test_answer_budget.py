"""A script is bounded (issue 28): ``AnswerPort`` spends a budget of questions
(``core.work.Budget``: its answers and 20,000 more), so that a script whose defaults would
never end the attack ends with one line naming it, rather than run for ever."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.game import invoke
from tests.support.lnlt import DEFAULTS_NEVER_END as HANG


def test_a_script_whose_defaults_never_end_is_stopped_by_its_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is the backstop of every loop a script drives: with the old defaults
    (activate and do nothing, for ever) the run ends with one line naming the script."""
    import referee.frontends.answers
    import referee.rulesets.lnlt.phase

    monkeypatch.setattr(referee.rulesets.lnlt.phase, "idle_before", lambda *a: False)
    monkeypatch.setattr(referee.frontends.answers, "MOST_UNANSWERED", 300)
    path = tmp_path / "hang.toml"
    path.write_text(HANG, encoding="utf-8")
    code, out, err = invoke(["run", str(path), "--no-odds"])
    assert code == 3
    assert err.strip() == (f"error: {path}: expected a script that ends: it was still asking "
                           "after 303 questions (its answers, then the questions' defaults); "
                           "an operations phase played by defaults may never end: give its "
                           "answers, or max_impulses")
    assert "Traceback" not in out + err
