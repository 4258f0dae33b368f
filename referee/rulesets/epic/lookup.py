"""Epic Armageddon lookups: the to-hit table with the 7+ chart, modifiers, actions."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.errors import UnknownIdError, UsageError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets.base import LookupFlag, LookupTable
from referee.rulesets.epic.tables import tables
from referee.rulesets.epic.tohit import HitPlan, hit_plan, required_roll


def lookup_tables() -> tuple[LookupTable, ...]:
    t = tables()
    action_flags = tuple(LookupFlag(a.id, Msg.of("epic.flag.action", value=f"{a.modifier:+d}",
                                                 action=Msg.of(f"epic.action.{a.id}")))
                         for a in t.actions if a.modifier)
    return (
        LookupTable("to-hit", Msg.of("epic.lookup.to_hit.title"),
                    Msg.of("epic.lookup.to_hit.key"),
                    (LookupFlag("cover", Msg.of("epic.flag.cover",
                                                value=f"{t.cover_modifier:+d}")),
                     *action_flags)),
        LookupTable("modifiers", Msg.of("epic.lookup.modifiers.title")),
        LookupTable("actions", Msg.of("epic.lookup.actions.title")),
        LookupTable("barrage", Msg.of("epic.lookup.barrage.title"),
                    Msg.of("epic.lookup.barrage.key")),
        LookupTable("cover-saves", Msg.of("epic.lookup.cover_saves.title")),
        LookupTable("fire-arcs", Msg.of("epic.lookup.fire_arcs.title")),
    )


def _flag_modifiers(flags: Sequence[str]) -> list[tuple[str, int]]:
    t = tables()
    by_flag = {"cover": t.cover_modifier}
    by_flag.update({a.id: a.modifier for a in t.actions if a.modifier})
    out: list[tuple[str, int]] = []
    stray = [f for f in flags if not f.startswith("--")]
    if stray:
        raise UsageError(Msg.of("error.stray_args", args=" ".join(stray)))
    for flag in flags:
        name = flag.removeprefix("--")
        if name not in by_flag:
            raise UnknownIdError("flag", flag, [f"--{n}" for n in by_flag])
        if any(n == name for n, _ in out):
            raise UsageError(Msg.of("epic.error.repeated_flag", flag=flag))
        out.append((name, by_flag[name]))
    actions = [n for n, _ in out if n != "cover"]
    if len(actions) > 1:
        raise UsageError(Msg.of("epic.error.two_actions", actions=", ".join(actions)))
    return out


def _how(plan: HitPlan) -> Msg:
    if plan.mode == "impossible":
        return Msg.of("epic.how.impossible")
    if plan.mode == "two_stage":
        return Msg.of("epic.how.two_stage", first=plan.target, then=plan.then)
    return Msg.of("epic.how.direct", target=plan.target)


def _row(need: int) -> tuple[object, ...]:
    plan = hit_plan(need)
    chance = plan.chance
    roll = {"mode": plan.mode, "target": plan.target, "then": plan.then}
    return (Shown(need, f"{need}+"), Shown(roll, _how(plan)),
            Shown(chance, f"{chance.numerator}/{chance.denominator}" if chance else "0"),
            Shown(chance, f"{float(chance):.1%}"))


def _mods_text(mods: Sequence[tuple[str, int]]) -> Msg:
    """The flags' modifiers as the attack's working names them (``-1 cover, -1 Double``)."""
    parts = [Msg.of("epic.mod.cover", value=f"{v:+d}") if n == "cover" else
             Msg.of("epic.mod.action", value=f"{v:+d}", action=Msg.of(f"epic.action.{n}"))
             for n, v in mods]
    out = parts[0]
    for part in parts[1:]:
        out = Msg.of("epic.list.pair", first=out, then=part)
    return out


def to_hit(key: str | None, flags: Sequence[str]) -> Table:
    t = tables()
    columns = tuple(Msg.of(f"epic.col.{c}") for c in ("need", "roll", "chance", "percent"))
    mods = _flag_modifiers(flags)
    if key is None:
        if mods:
            raise UsageError(Msg.of("epic.error.flags_need_key"))
        rows = tuple(_row(n) for n in range(2, t.highest_key + 1))
        return Table(Msg.of("epic.lookup.to_hit.title"), columns, rows, "E-9")
    base = whole_number(key.strip().rstrip("+"))
    if base is None or not t.lowest_key <= base <= t.highest_key:
        raise UsageError(Msg.of("epic.error.to_hit_key", given=key, low=t.lowest_key,
                                high=t.highest_key))
    modifier = sum(v for _, v in mods)
    need = required_roll(base, modifier)
    if mods:
        title = Msg.of("epic.lookup.to_hit.row_title", base=base, need=need,
                       mods=_mods_text(mods))
    else:
        title = Msg.of("epic.lookup.to_hit.row_title_plain", base=base, need=need)
    return Table(title, columns, (_row(need),), "E-9" if need > 6 else "E-8")


def _signed(number: int) -> Shown:
    return Shown(number, f"{number:+d}")


def _need(number: int) -> Shown:
    return Shown(number, f"{number}+")


def _yes_no(flag: bool) -> Shown:
    return Shown(flag, Msg.of("word.yes" if flag else "word.no"))


def modifiers_table() -> Table:
    t = tables()
    def named(name: str) -> Shown:
        return Shown(name, Msg.of(f"epic.mod.name.{name}"))

    rows: list[tuple[Shown, Shown | int, str]] = [
        (named("cover"), _signed(t.cover_modifier), "E-8")]
    rows += [(Shown(a.id, Msg.of(f"epic.action.{a.id}")), _signed(a.modifier), "E-8")
             for a in t.actions if a.modifier]
    rows += [(named("ignore_cover"), 0, "E-8"),
             (named("crossfire"), _signed(t.crossfire_save), "E-11"),
             (named("save_limit"), _need(t.save_impossible_from), "E-11"),
             (named("invulnerable"), _need(t.invulnerable_save), "E-11")]
    return Table(Msg.of("epic.lookup.modifiers.title"),
                 (Msg.of("epic.col.modifier"), Msg.of("epic.col.value"),
                  Msg.of("epic.col.clause")), tuple(rows))


def actions_table() -> Table:
    rows = tuple((Msg.of(f"epic.action.{a.id}"), a.id, _signed(a.modifier),
                  _yes_no(a.may_shoot)) for a in tables().actions)
    return Table(Msg.of("epic.lookup.actions.title"),
                 tuple(Msg.of(f"epic.col.{c}") for c in ("action", "id", "modifier",
                                                         "may_shoot")), rows)


def barrage_table(key: str | None, flags: Sequence[str]) -> Table:
    """E-17 (and E-X5 above the table): the barrage row for a number of barrage points."""
    from referee.rulesets.epic.barrage import extra_markers

    t = tables()
    if flags:
        raise UsageError(Msg.of("epic.error.barrage_flags", flags=" ".join(flags)))
    cols = tuple(Msg.of(f"epic.col.{c}") for c in ("points", "templates", "extra_markers",
                                                  "all_markers", "ap", "at"))
    if key is None:
        rows = tuple((Shown({"low": r.low, "high": r.high},
                            f"{r.low}" if r.low == r.high else f"{r.low}-{r.high}"),
                      r.templates, r.markers, 1 + r.markers, _need(r.ap), _need(r.at))
                     for r in t.barrage)
        return Table(Msg.of("epic.lookup.barrage.title"), cols, rows, "E-17")
    points = whole_number(key.strip())
    if points is None or points < 1:
        raise UsageError(Msg.of("epic.error.barrage_key", given=key))
    row = t.barrage_row(min(points, t.barrage_highest))
    assert row is not None
    title = Msg.of("epic.lookup.barrage.row_title", points=points)
    clause = "E-17"
    if points > t.barrage_highest:
        title = Msg.of("epic.lookup.barrage.over", points=points, highest=t.barrage_highest)
        clause = "E-X5"
    extra = extra_markers(row, {})
    return Table(title, cols, ((Shown({"low": points, "high": points}, str(points)),
                                row.templates, extra, 1 + extra, _need(row.ap),
                                _need(row.at)),), clause)


def cover_saves_table() -> Table:
    rows = tuple((x.id, _yes_no(x.cover), _need(x.save) if x.save else Shown(None, "-"))
                 for x in tables().terrain)
    return Table(Msg.of("epic.lookup.cover_saves.title"),
                 tuple(Msg.of(f"epic.col.{c}") for c in ("terrain", "cover", "cover_save")),
                 rows, "E-11")


def fire_arcs_table() -> Table:
    def bearings(low: int, high: int) -> Shown:
        return Shown({"from": low, "to": high}, f"{low}°-{high}°")

    rows = tuple((a.id, Shown(None, Msg.of("epic.arc.all_round")) if a.half_width >= 180 else
                  bearings((a.centre - a.half_width) % 360, (a.centre + a.half_width) % 360),
                  Shown(2 * a.half_width, f"{2 * a.half_width}°")) for a in tables().arcs)
    return Table(Msg.of("epic.lookup.fire_arcs.title"),
                 tuple(Msg.of(f"epic.col.{c}") for c in ("arc", "bearings", "width")), rows,
                 "E-3")


def lookup(table: str, key: str | None, flags: Sequence[str]) -> Table:
    if table == "to-hit":
        return to_hit(key, flags)
    if table == "barrage":
        return barrage_table(key, flags)
    if flags or key is not None:
        raise UsageError(Msg.of("error.flags_not_taken", table=table))
    if table == "modifiers":
        return modifiers_table()
    if table == "actions":
        return actions_table()
    if table == "cover-saves":
        return cover_saves_table()
    if table == "fire-arcs":
        return fire_arcs_table()
    raise UnknownIdError("table", table, [lt.id for lt in lookup_tables()])
