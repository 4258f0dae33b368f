"""Issue 17: a seeded fuzzer over every ruleset's input files (``tests/support/fuzz.py``):
each mutated script, roster, deck or data file ends with an exit code of docs/promises.md
(0, 2, 3, 4 or 5) and no traceback, within its time (``run_timed``). ``benchmarks/fuzz.py``
runs the same cases, many more, each in a child under limits of time and memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fuzz import RULESETS, Tally, cases, run_timed

CASES_PER_RULESET = 200


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fuzzed_input_ends_with_a_documented_exit_code(ruleset: str,
                                                             tmp_path: Path) -> None:
    tally = Tally()
    for case in cases(ruleset, CASES_PER_RULESET):
        tally.add(case, run_timed(case, tmp_path))
    findings = [f"case {c.number} {' '.join(c.args)}: {o.code} {o.error}"
                for c, o in tally.findings]
    assert not findings, "\n".join(findings[:5])
    assert tally.runs == CASES_PER_RULESET
    assert len(tally.codes) >= 2  # the cases reach both refusals and finished runs
