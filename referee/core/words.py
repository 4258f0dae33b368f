"""The words and numbers the referee reads in answers and option values: yes and no, and
whole numbers.

Yes and no in English and Russian, since the rules excerpts are Russian translations (see
issue 9). A whole number is written with the digits 0-9 only (an optional sign, at most 12
digits): Python's ``int`` would also take Arabic-Indic or full-width digits, underscores and
surrounding blanks, which no die shows (issue 17)."""

import re

YES_WORDS = frozenset({"y", "yes", "true", "on", "1", "да", "д"})
NO_WORDS = frozenset({"n", "no", "false", "off", "0", "нет", "н"})

_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")


def whole_number(text: str) -> int | None:
    """The whole number ``text`` spells with ASCII digits (None: it spells none)."""
    return int(text) if _WHOLE.fullmatch(text) else None
