"""Helpers shared by the tests (imported as ``tests.support.<module>``; no test here).

* ``ROOT``: the repository root (transcripts, scripts and data are named from it);
* ``tables``: a table row's values and its text as the console shows it;
* ``epic``, ``fow``, ``lnlt``: builders of declarations and runners for one ruleset;
  ``cc_reference``: independent code the Combat Commander odds are checked against;
* ``game``: game files made and played through the command line;
* ``pty``: driving ``python -m referee`` through a real pseudo-terminal (pexpect);
* ``transcripts``: replaying the console blocks of transcripts, README.md and docs;
* ``fuzz``: the seeded fuzzer of every ruleset's input files (also ``benchmarks/fuzz.py``);
* ``work``: the generated scripts of the scale benchmark, run with their work counted.

The fixtures (``root``, ``spawn``, ``game_seed``, ``game``) are in ``tests/conftest.py``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
