"""``python -m referee.schemas``: write the JSON Schema of every document kind again, from
its pydantic model (``referee.schemas.models``), beside this module."""

from __future__ import annotations

import json

from referee.schemas import KINDS, schema_path


def text(kind: str) -> str:
    """The schema file's text: the model's schema, indented, with a final line break."""
    from referee.schemas.models import schema

    return json.dumps(schema(kind), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    for kind in KINDS:
        path = schema_path(kind)
        path.write_text(text(kind), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
