"""World at War lookups: the missions, the exact odds of an HE mission, fire through smoke,
the cost of moving near a chemical strike, and the HE effects table."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from referee.core.errors import UnknownIdError, UsageError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets.base import LookupFlag, LookupTable
from referee.rulesets.waw.declaration import MISSIONS
from referee.rulesets.waw.tables import tables

MISSION_CLAUSES = {"he": "W-1 W-2 W-3 W-4 W-5", "smoke": "W-6", "fascam": "W-7",
                   "chemical": "W-8"}


def lookup_tables() -> tuple[LookupTable, ...]:
    return (
        LookupTable("missions", Msg.of("waw.lookup.missions.title")),
        LookupTable("he-odds", Msg.of("waw.lookup.he_odds.title"),
                    Msg.of("waw.lookup.he_odds.key"),
                    (LookupFlag("defence", Msg.of("waw.flag.defence"), value=True),)),
        LookupTable("smoke-fire", Msg.of("waw.lookup.smoke_fire.title"),
                    Msg.of("waw.lookup.smoke_fire.key"),
                    (LookupFlag("adjacent", Msg.of("waw.flag.adjacent")),
                     LookupFlag("advanced", Msg.of("waw.flag.advanced")),
                     LookupFlag("neighbour", Msg.of("waw.flag.neighbour")),
                     LookupFlag("option", Msg.of("waw.flag.option"), value=True))),
        LookupTable("move-cost", Msg.of("waw.lookup.move_cost.title"),
                    Msg.of("waw.lookup.move_cost.key"),
                    (LookupFlag("chemical", Msg.of("waw.flag.chemical")),)),
        LookupTable("effects", Msg.of("waw.lookup.effects.title")),
    )


def _int(text: str, what: str, low: int, high: int) -> int:
    value = whole_number(text.strip())
    if value is None or not low <= value <= high:
        raise UsageError(Msg.of("waw.error.number", what=Msg.of(f"waw.what.{what}"),
                                given=text, low=low, high=high))
    return value


def _split(args: Sequence[str], flags: set[str],
           valued: set[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Positional words and flags (``--name`` or ``--name VALUE`` / ``--name=VALUE``)."""
    words: list[str] = []
    seen: dict[str, list[str]] = {}
    items = list(args)
    i = 0
    while i < len(items):
        item = items[i]
        if item.startswith("--"):
            name, eq, value = item[2:].partition("=")
            if name not in flags | valued:
                raise UnknownIdError("flag", item, sorted(f"--{f}" for f in flags | valued))
            if name in valued:
                if not eq:
                    if i + 1 >= len(items):
                        raise UsageError(Msg.of("waw.error.flag_value", flag=f"--{name}"))
                    i += 1
                    value = items[i]
                seen.setdefault(name, []).append(value)
            else:
                if eq:
                    raise UsageError(Msg.of("waw.error.flag_no_value", flag=f"--{name}"))
                seen.setdefault(name, []).append("")
        else:
            words.append(item)
        i += 1
    return words, seen


def _chance(p: Fraction) -> Shown:
    return Shown(p, f"{p.numerator}/{p.denominator}" if p not in (0, 1) else str(int(p)))


def _pct(p: Fraction) -> Shown:
    return Shown(p, f"{float(p):.1%}")


def he_odds(key: str | None, args: Sequence[str]) -> Table:
    from referee.rulesets.waw.odds import net_hit_distribution

    t = tables()
    words, flags = _split(args, set(), {"defence"})
    if key is None or len(words) != 1:
        raise UsageError(Msg.of("waw.error.he_odds_usage"))
    fp = _int(key, "firepower", 1, t.max_firepower)
    hit = _int(words[0].rstrip("+"), "hit_number", t.lowest_hit_number, t.highest_hit_number)
    defence = _int(flags["defence"][-1], "defence", 0, t.max_defence) \
        if "defence" in flags else 0
    dist = net_hit_distribution(fp, hit, defence, t.defence_cancel_on)
    mean = sum((k * p for k, p in enumerate(dist)), Fraction(0))
    rows = []
    at_least = Fraction(1)
    for k, p in enumerate(dist):
        rows.append((k, _chance(p), _pct(p), _pct(at_least)))
        at_least -= p
    title = Msg.of("waw.lookup.he_odds.row_title", fp=fp, hit=hit, defence=defence,
                   cancel=t.defence_cancel_on, mean=f"{float(mean):.2f}")
    return Table(title, tuple(Msg.of(f"waw.col.{c}") for c in
                              ("net_hits", "chance", "percent", "at_least")), tuple(rows),
                 "W-2")


def smoke_fire_table(key: str | None, args: Sequence[str]) -> Table:
    from referee.core.options import parse_assignments, resolve_options
    from referee.rulesets import option_specs
    from referee.rulesets.waw.smoke import smoke_fire

    t = tables()
    words, flags = _split(args, {"adjacent", "advanced", "neighbour"}, {"option"})
    if key is None or words:
        raise UsageError(Msg.of("waw.error.smoke_usage"))
    hit = _int(key.rstrip("+"), "hit_number", t.lowest_hit_number, t.highest_hit_number)
    opts = resolve_options(option_specs("world-at-war"),
                           parse_assignments(flags.get("option", [])))
    verdict = smoke_fire(adjacent="adjacent" in flags, advanced="advanced" in flags,
                         into_neighbour="neighbour" in flags,
                         neighbours=opts["smoke-neighbours"],
                         penalty_reading=opts["smoke-penalty"], penalty=t.smoke_penalty)
    total = hit + verdict.penalty
    need = (Shown(None, Msg.of("waw.smoke.no_fire")) if verdict.blocked else
            Shown(total, Msg.of("waw.smoke.cannot_hit", need=total)) if total > 6 else
            Shown(total, f"{total}+"))
    readings = ", ".join(f"{n}={opts[n]}" for n in ("smoke-neighbours", "smoke-penalty"))
    sight = "blocked" if verdict.blocked else "open"
    row = (Shown(hit, f"{hit}+"), Shown(sight, Msg.of(f"waw.smoke.{sight}")),
           Shown(None, "-") if verdict.blocked else Shown(verdict.penalty,
                                                          f"+{verdict.penalty}"),
           need, Shown(verdict.why, Msg.of(f"waw.smoke.why.{verdict.why}")))
    return Table(Msg.of("waw.lookup.smoke_fire.row_title", readings=readings),
                 tuple(Msg.of(f"waw.col.{c}") for c in ("base", "sight", "modifier", "need",
                                                         "why")), (row,), "W-6")


def move_cost(key: str | None, args: Sequence[str]) -> Table:
    t = tables()
    words, flags = _split(args, {"chemical"}, set())
    if key is None or words:
        raise UsageError(Msg.of("waw.error.move_usage"))
    base = _int(key, "mp", 0, 99)
    extra = t.chemical_extra_mp if "chemical" in flags else 0
    why = Msg.of("waw.move.chemical", mp=extra) if extra else Msg.of("waw.move.plain")
    return Table(Msg.of("waw.lookup.move_cost.title"),
                 tuple(Msg.of(f"waw.col.{c}") for c in ("base_mp", "extra", "total", "why")),
                 ((base, Shown(extra, f"+{extra}"), base + extra, why),), "W-8")


def missions_table() -> Table:
    rows = tuple((m, Msg.of(f"waw.mission.{m}"), Msg.of(f"waw.does.{m}"),
                  Msg.of(f"waw.marker_of.{m}"), MISSION_CLAUSES[m]) for m in MISSIONS)
    return Table(Msg.of("waw.lookup.missions.title"),
                 tuple(Msg.of(f"waw.col.{c}") for c in ("id", "mission", "does", "marker",
                                                         "clause")), rows)


def effects_table() -> Table:
    t = tables()
    rows = []
    for kind, row in t.he_effects.items():
        rows.append((Shown(kind, Msg.of(f"waw.effects_kind.{kind}")),
                     *(Shown(cell, Msg.of(f"waw.cell_value.{cell}"))
                       for cell in (row.first, row.further, row.weakened_again))))
    return Table(Msg.of("waw.lookup.effects.title"),
                 tuple(Msg.of(f"waw.col.{c}") for c in ("target", "first", "further",
                                                         "weakened_again")), tuple(rows), "W-4")


def lookup(table: str, key: str | None, args: Sequence[str]) -> Table:
    if table == "he-odds":
        return he_odds(key, args)
    if table == "smoke-fire":
        return smoke_fire_table(key, args)
    if table == "move-cost":
        return move_cost(key, args)
    if args or key is not None:
        raise UsageError(Msg.of("error.flags_not_taken", table=table))
    if table == "missions":
        return missions_table()
    if table == "effects":
        return effects_table()
    raise UnknownIdError("table", table, [lt.id for lt in lookup_tables()])
