"""The JSON Schemas of the documents ``--json`` prints, one file per document kind
(``<kind>.schema.json`` beside this module, shipped in the package).

They are generated from the pydantic models in ``referee.schemas.models``:
``python -m referee.schemas`` writes them again, and a test fails when a shipped file differs
from its model. The commands never load the models: they build their documents as plain
data (``referee.render.json_out``), and the tests validate what they print against these
files.
"""

from __future__ import annotations

from pathlib import Path

KINDS = ("rulesets", "lookup", "lookup-tables", "options", "result", "odds", "whatif",
         "phase", "waw-markers", "game", "game-log", "game-undo", "game-verify", "game-report",
         "game-charts", "game-roster", "error")
"""Every document kind (the ``kind`` field of a document)."""

FOLDER = Path(__file__).resolve().parent


def schema_path(kind: str) -> Path:
    """The shipped schema file of a document kind."""
    if kind not in KINDS:
        raise ValueError(f"no document kind {kind!r}; known: {', '.join(KINDS)}")
    return FOLDER / f"{kind}.schema.json"
