"""Combat Commander lookups: ordnance targeting (C-1), fire odds (C-5), deck triggers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from referee.core.errors import UnknownIdError, UsageError
from referee.core.table import Shown, Table
from referee.core.text import Msg
from referee.core.words import whole_number
from referee.rulesets.base import LookupFlag, LookupTable

if TYPE_CHECKING:
    from referee.rulesets.cc.deck import DeckEdition

MAX_RANGE = 36
ODDS_SPAN = 10


ITALY_BLANK = LookupFlag("italy-sniper-blank", Msg.of("cc.flag.italy_sniper_blank"), value=True)


def lookup_tables() -> tuple[LookupTable, ...]:
    return (
        LookupTable("targeting", Msg.of("cc.lookup.targeting.title"),
                    Msg.of("cc.lookup.targeting.key"),
                    (LookupFlag("hindrance", Msg.of("cc.flag.hindrance"), value=True),)),
        LookupTable("fire-odds", Msg.of("cc.lookup.fire_odds.title"),
                    Msg.of("cc.lookup.fire_odds.key")),
        LookupTable("triggers", Msg.of("cc.lookup.triggers.title"),
                    Msg.of("cc.lookup.triggers.key"),
                    (LookupFlag("edition", Msg.of("cc.flag.edition"), value=True),
                     ITALY_BLANK)),
        LookupTable("deck", Msg.of("cc.lookup.deck.title"), Msg.of("cc.lookup.deck.key"),
                    (LookupFlag("seed", Msg.of("cc.flag.seed"), value=True),
                     LookupFlag("edition", Msg.of("cc.flag.edition"), value=True),
                     ITALY_BLANK)),
    )


def _flags(args: Sequence[str], known: tuple[str, ...]) -> dict[str, str]:
    """``--name VALUE`` pairs, refusing anything else."""
    out: dict[str, str] = {}
    items = list(args)
    while items:
        flag = items.pop(0)
        name = flag.removeprefix("--")
        if not flag.startswith("--"):
            raise UsageError(Msg.of("error.stray_args", args=" ".join([flag, *items])))
        if name not in known:
            raise UnknownIdError("flag", flag, [f"--{k}" for k in known])
        if not items:
            raise UsageError(Msg.of("cc.error.flag_value", flag=flag))
        out[name] = items.pop(0)
    return out


def _int(text: str, what: str, low: int, high: int) -> int:
    value = whole_number(text.strip())
    if value is None or not low <= value <= high:
        raise UsageError(Msg.of("cc.error.number", what=what, given=text, low=low, high=high))
    return value


def _pct(chance: Fraction) -> Shown:
    return Shown(chance, f"{float(chance):.1%}")


def targeting(key: str | None, args: Sequence[str]) -> Table:
    from referee.rulesets.cc.arithmetic import targeting_chance

    flags = _flags(args, ("hindrance",))
    hindrance = _int(flags["hindrance"], "--hindrance", 0, 20) if "hindrance" in flags else 0
    columns = tuple(Msg.of(f"cc.col.{c}") for c in ("range", "hindrance", "pairs", "chance",
                                                      "smallest"))
    ranges = [_int(key, "RANGE", 0, 40)] if key is not None else list(range(1, MAX_RANGE + 1))
    rows = []
    for distance in ranges:
        count, smallest = targeting_chance(distance, hindrance)
        rows.append((distance, hindrance, Shown(count, f"{count}/36"),
                     _pct(Fraction(count, 36)),
                     smallest if smallest is not None else Shown(None, Msg.of("cc.word.none"))))
    return Table(Msg.of("cc.lookup.targeting.title"), columns, tuple(rows), "C-1")


def fire_odds(key: str | None, args: Sequence[str]) -> Table:
    from referee.rulesets.cc.arithmetic import fire_odds as odds

    if args:
        raise UsageError(Msg.of("error.flags_not_taken", table="fire-odds"))
    columns = tuple(Msg.of(f"cc.col.{c}") for c in ("difference", "beats", "tie", "holds"))
    diffs = ([_int(key.replace("+", ""), "DIFFERENCE", -20, 20)] if key is not None
             else list(range(-ODDS_SPAN, ODDS_SPAN + 1)))
    rows = []
    for d in diffs:
        beats, tie = odds(d)
        rows.append((Shown(d, f"{d:+d}"), _pct(beats), _pct(tie), _pct(1 - beats - tie)))
    return Table(Msg.of("cc.lookup.fire_odds.title"), columns, tuple(rows), "C-5")


BLANK_CHOICES = ("4-5", "5-4", "6-3")


def _edition(flags: dict[str, str]) -> DeckEdition:
    from referee.rulesets.cc.deck import EDITIONS, edition

    edition_id = flags.get("edition", "cc_20th")
    if edition_id not in EDITIONS:
        raise UsageError(Msg.of("cc.error.unknown_edition", given=edition_id,
                                    known=", ".join(EDITIONS)))
    chosen = {}
    if "italy-sniper-blank" in flags:
        blank = flags["italy-sniper-blank"]
        if blank not in BLANK_CHOICES:
            raise UsageError(Msg.of("cc.error.blank_choice", given=blank,
                                    known=", ".join(BLANK_CHOICES)))
        chosen["italy-sniper-blank"] = blank
    ed = edition(edition_id, chosen)
    if not ed.decks:
        raise UsageError(Msg.of("cc.error.no_deck_data", edition=edition_id))
    return ed


def _nation_deck(ed: DeckEdition, key: str) -> tuple[str, tuple[str, ...]]:
    from referee.rulesets.cc.deck import NATIONS
    from referee.rulesets.cc.words import nation_of

    nation = nation_of(key) or key.casefold()  # also 'german', 'germans', 'немцы'
    if nation not in NATIONS:
        raise UsageError(Msg.of("cc.error.unknown_nation", given=key, known=", ".join(NATIONS)))
    deck = ed.composition(nation)
    if deck is None:
        raise UsageError(Msg.of("cc.error.nation_not_bundled", nation=Msg.of(
            f"cc.nation.{nation}"), edition=ed.id))
    return nation, deck


def _deck_title(ed: DeckEdition, nation: str, cards: int) -> Msg:
    reading = ed.reading(nation)
    if reading is None:
        return Msg.of("cc.lookup.triggers.nation_title", nation=Msg.of(f"cc.nation.{nation}"),
                      edition=ed.id, cards=cards)
    return Msg.of("cc.lookup.triggers.nation_title_reading",
                  nation=Msg.of(f"cc.nation.{nation}"), edition=ed.id, cards=cards,
                  option=reading[0], value=reading[1])


def deck(key: str | None, args: Sequence[str]) -> Table:
    """Example 12: a whole deck drawn from a seed without replacement, and how often each
    ordered pair of dice came up (every pair on exactly ``cards_per_pair`` cards)."""
    from referee.core.dice import KeyedDice
    from referee.rulesets.cc.deck import draw_whole_deck

    flags = _flags(args, ("seed", "edition", "italy-sniper-blank"))
    if key is None:
        raise UsageError(Msg.of("cc.error.deck_nation"))
    seed = _int(flags.get("seed", "1"), "--seed", 0, 10**9)
    ed = _edition(flags)
    nation, cards = _nation_deck(ed, key)
    drawn = draw_whole_deck(cards, KeyedDice(seed))
    counts = Counter(c.faces for c in drawn)
    keys = Counter(c.key for c in drawn)
    columns = (Msg.of("cc.col.first_die"),
               *(Msg.of("cc.col.second_die", die=b) for b in range(1, 7)))
    column_keys = ("first_die", *(f"second_die_{b}" for b in range(1, 7)))
    rows = tuple((a, *(counts[(a, b)] for b in range(1, 7))) for a in range(1, 7))
    even = min(counts.values()) == max(counts.values())
    held = Counter(cards)
    title = Msg.of("cc.lookup.deck.drawn_even" if even else "cc.lookup.deck.drawn",
                   deck=_deck_title(ed, nation, len(cards)), seed=seed, draws=len(drawn),
                   repeats=sum(1 for k, n in keys.items() if n > held[k]),
                   pairs=len(counts), low=min(counts.values()), high=max(counts.values()),
                   first=", ".join(c.key for c in drawn[:6]))
    return Table(title, columns, rows, "C-10", column_keys)


def triggers(key: str | None, args: Sequence[str]) -> Table:
    from referee.rulesets.cc.deck import NATIONS, TRIGGERS, parse_key

    flags = _flags(args, ("edition", "italy-sniper-blank"))
    ed = _edition(flags)
    edition_id = ed.id
    if key is None:
        columns = tuple(Msg.of(f"cc.col.{c}") for c in ("nation", *TRIGGERS, "none"))
        rows: list[tuple[object, ...]] = []
        for nation in NATIONS:
            deck = ed.composition(nation)
            name = Shown(nation, Msg.of(f"cc.nation.{nation}"))
            if deck is None:
                rows.append((name, *[Shown(None, "-")] * 4,
                             Shown(None, Msg.of("cc.word.not_bundled"))))
                continue
            counts = Counter(parse_key(k)[1] for k in deck)
            rows.append((name, *(counts[t] for t in TRIGGERS), counts[""]))
        return Table(Msg.of("cc.lookup.triggers.deck_title", edition=edition_id), columns,
                     tuple(rows), "C-X8")
    nation, cards = _nation_deck(ed, key)
    columns = tuple(Msg.of(f"cc.col.{c}") for c in ("trigger", "cards", "chance", "dice",
                                                      "effect"))
    rows = []
    for trig in TRIGGERS:
        dice = [parse_key(k)[0] for k in cards if parse_key(k)[1] == trig]
        shown = ", ".join(f"{a}-{b}" for a, b in dice)
        rows.append((Shown(trig, Msg.of(f"cc.trigger.{trig}")), len(dice),
                     _pct(Fraction(len(dice), len(cards))),
                     Shown([[a, b] for a, b in dice], shown or "-"),
                     Msg.of(f"cc.effect.{trig}")))
    return Table(_deck_title(ed, nation, len(cards)), columns, tuple(rows), "C-10")


def lookup(table: str, key: str | None, args: Sequence[str]) -> Table:
    if table == "targeting":
        return targeting(key, args)
    if table == "fire-odds":
        return fire_odds(key, args)
    if table == "triggers":
        return triggers(key, args)
    if table == "deck":
        return deck(key, args)
    raise UnknownIdError("table", table, [lt.id for lt in lookup_tables()])
