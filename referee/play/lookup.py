"""The rule tables: what a ruleset offers (``referee lookup RULESET``), one table or its row
(``referee lookup RULESET TABLE KEY``), and the named readings and house rules
(``referee options``).

>>> from referee.play.lookup import lookup
>>> lookup("epic", "to-hit", "8").rows[0][0]
Shown(value=8, text='8+')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core.errors import UnknownIdError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.rulesets import find_ruleset


def lookup_tables(ruleset: str) -> Table:
    """The lookup tables a ruleset offers, as a table."""
    info = find_ruleset(ruleset)
    module = info.implementation()
    rows = []
    for lt in module.lookup_tables():
        flags = [f"--{f.name}" for f in lt.flags]
        rows.append((lt.id, lt.title, lt.key_help or Shown(None, "-"),
                     Shown(flags, " ".join(flags) or "-")))
    return Table(Msg.of("lookup.tables_title", ruleset=info.name),
                 tuple(Msg.of(f"lookup.col.{c}") for c in ("table", "title", "key", "flags")),
                 tuple(rows))


def ruleset_options(ruleset: str) -> list[dict[str, Any]]:
    """Every named reading and house rule of a ruleset (``--option NAME=VALUE``): its name,
    the values it takes, its default, the clause it serves and why, in the user's language."""
    from referee.catalog import render

    out = []
    for spec in find_ruleset(ruleset).option_specs():
        if spec.choices:
            values: list[Any] = list(spec.choices)
        elif isinstance(spec.default, bool):
            values = [True, False]
        else:
            values = []
        kind = ("path" if spec.path else "choice" if spec.choices else
                "bool" if isinstance(spec.default, bool) else
                "int" if isinstance(spec.default, int) else "text")
        out.append({"name": spec.name, "kind": kind, "values": values,
                    "default": spec.default, "clause": spec.clause,
                    "reason_text": render(spec.help)})
    return out


def options_table(ruleset: str) -> Table:
    """``ruleset_options`` as a table."""
    info = find_ruleset(ruleset)
    rows = []
    for option in ruleset_options(ruleset):
        values = (" | ".join(str(v).lower() for v in option["values"]) if option["values"]
                  else Msg.of(f"options.kind.{option['kind']}"))
        default = (str(option["default"]).lower() if option["default"] not in ("", None)
                   else "-")
        rows.append((option["name"], values, default, option["clause"] or "-",
                     option["reason_text"]))
    return Table(Msg.of("options.title", ruleset=info.name),
                 tuple(Msg.of(f"options.col.{c}") for c in
                       ("name", "values", "default", "clause", "reason")), tuple(rows))


def lookup_words(ruleset: str, words: Sequence[str]) -> tuple[str | None, str | None,
                                                                list[str]]:
    """The table, key and flags of ``referee lookup RULESET WORDS...``, with the flags
    anywhere: ``to-hit --cover 5`` reads as ``to-hit 5 --cover``. A flag of the table that
    takes a value (``--hindrance 3``) keeps the word after it; the rest of the words, in
    order, are the table, the key and any further keys (after the flags)."""
    words = list(words)
    named = next((w for w in words if not w.startswith("--")), None)
    tables = {lt.id: lt for lt in find_ruleset(ruleset).implementation().lookup_tables()}
    valued = ({f.name for f in tables[named].flags if f.value} if named in tables else set())
    flags: list[str] = []
    plain: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word.startswith("--"):
            name, has_value, value = word[2:].partition("=")
            if has_value and name in valued:  # --name=VALUE: as --name VALUE
                flags += [f"--{name}", value]
            else:
                flags.append(word)
            if not has_value and name in valued and at + 1 < len(words):
                at += 1
                flags.append(words[at])
        else:
            plain.append(word)
        at += 1
    table = plain[0] if plain else None
    key = plain[1] if len(plain) > 1 else None
    return table, key, [*flags, *plain[2:]]


def lookup(ruleset: str, table: str, key: str | None = None,
           flags: Sequence[str] = ()) -> Table:
    """One lookup table, or its row for ``key``; ``flags`` are the table's own (``--cover``)."""
    info = find_ruleset(ruleset)
    module = info.implementation()
    known = [lt.id for lt in module.lookup_tables()]
    if table not in known:
        raise UnknownIdError("table", table, known)
    return module.lookup(table, key, list(flags))
