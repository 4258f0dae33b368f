"""The code stays clean (ruff, mypy --strict: marked ``lint``, run with ``-m lint``), and a
normal install carries the ruleset data."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support import ROOT


@pytest.mark.lint
def test_ruff_finds_nothing() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    proc = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.lint
def test_mypy_strict_finds_nothing() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "--quiet", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (built,) = out.glob("referee-*.whl")
    return built


def test_the_wheel_carries_ruleset_data_and_catalogues(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for rid in ("epic-armageddon", "combat-commander", "lnl-tactical", "world-at-war",
                "flames-of-war"):
        assert f"referee/_rulesets/{rid}/ruleset.toml" in names
    assert "referee/_rulesets/epic-armageddon/tables.toml" in names
    assert "referee/locale/en.toml" in names
    assert "referee/locale/en/epic.toml" in names
    from referee.schemas import KINDS

    for kind in KINDS:  # the JSON Schemas of the documents --json prints
        assert f"referee/schemas/{kind}.schema.json" in names
    assert not any(n.startswith(("tests/", "rulesets/")) for n in names)


def test_the_installed_wheel_answers_a_lookup(wheel: Path, tmp_path: Path) -> None:
    """The unpacked wheel first on the path, run from elsewhere: its own data is used."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = ("import referee.data as d, referee.api as a; "
            "print(d.data_root()); print(a.lookup('epic', 'to-hit', '8').rows[0][0].text)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(site), "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    root, row = proc.stdout.split()
    assert root == str(site / "referee" / "_rulesets")
    assert row == "8+"
