"""Field types the rulesets' declaration models share (pydantic)."""

from __future__ import annotations

import os
from typing import Annotated

from pydantic import AfterValidator, StringConstraints, ValidationInfo
from pydantic_core import PydanticCustomError


def _not_blank(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("validation.blank", "expected a name, not only blanks")
    return value


# A name or label from a file: never empty, never only blanks ("   " names nothing).
Name = Annotated[str, StringConstraints(min_length=1), AfterValidator(_not_blank)]


def _from_base(value: str, info: ValidationInfo) -> str:
    """A relative path in a file is relative to that file's folder (the ``base`` of the
    validation context); given on the command line (no base), to the current folder."""
    base = (info.context or {}).get("base")
    if base and not os.path.isabs(value):
        return os.path.normpath(os.path.join(base, value))
    return value


# A file named inside another file (an Epic roster named in a script's declaration).
FilePath = Annotated[Name, AfterValidator(_from_base)]
