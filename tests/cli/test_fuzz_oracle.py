"""The fuzzer's oracle of hangs and memory (issue 28): a case runs in a child under limits of
processor time and memory (``tests.support.fuzz.run_bounded``, as ``benchmarks/fuzz.py`` runs
every case), so a case that would never end, or eat the machine's memory, is a finding; and
the fuzzer reaches the walks only the defaults decide (a script of defaults under the
ruleset's other options), where the LnLT hang of case 3 was."""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

import tests.support.fuzz as fuzz
from tests.support.fuzz import ALLOWED, Case, Outcome, cases, run_bounded, run_timed

CASE = Case("lnlt", 0, b"", ("run", "FILE"))


def test_a_case_that_never_ends_is_a_finding_not_a_hung_fuzzer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def forever(case: Case, folder: Path) -> Outcome:
        while True:
            pass

    monkeypatch.setattr(fuzz, "run_case", forever)
    began = time.monotonic()
    outcome = run_bounded(CASE, tmp_path, seconds=1)
    assert outcome.code is None and outcome.error.startswith("hang:")
    assert outcome.code not in ALLOWED
    assert time.monotonic() - began < 30


def test_the_suites_fuzzer_stops_a_case_that_never_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def forever(case: Case, folder: Path) -> Outcome:
        while True:
            pass

    monkeypatch.setattr(fuzz, "run_case", forever)
    outcome = run_timed(CASE, tmp_path, seconds=0.5)
    assert outcome.code is None and outcome.error.startswith("hang:")


def test_a_case_that_sleeps_past_its_clock_is_a_finding(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def asleep(case: Case, folder: Path) -> Outcome:
        time.sleep(600)  # no processor time spent: the clock catches it
        return Outcome(0)

    monkeypatch.setattr(fuzz, "run_case", asleep)
    outcome = run_bounded(CASE, tmp_path, seconds=1)
    assert outcome.code is None and "on the clock" in outcome.error


def test_a_case_that_eats_memory_is_a_finding(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def hungry(case: Case, folder: Path) -> Outcome:
        eaten: list[bytes] = []
        while True:
            eaten.append(bytes(16 * 1024 * 1024))

    monkeypatch.setattr(fuzz, "run_case", hungry)
    outcome = run_bounded(CASE, tmp_path, seconds=20, megabytes=64)
    assert outcome.code is None and outcome.error.startswith("memory")


def test_a_case_within_its_budget_reports_its_exit_code(tmp_path: Path) -> None:
    case = next(c for c in cases("epic", 40) if c.args[0] == "run")
    outcome = run_bounded(case, tmp_path)
    assert outcome.code in ALLOWED, outcome.error


def test_the_fuzzer_plays_scripts_of_defaults_under_other_options() -> None:
    """Some cases take every default under house rules: where a phase of defaults that never
    ended was (case 3); the in-suite fuzzer and the benchmark run them."""
    def script(case: Case) -> dict[str, Any]:
        try:
            return tomllib.loads(case.content.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return {}

    found = [data for case in cases("lnlt", 200) if (data := script(case)).get("use_defaults")
             and data.get("options")]
    assert len(found) >= 5
    assert any(d["options"].get("empty-activation") == "resets" for d in found)
