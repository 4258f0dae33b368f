"""Fate cards and Fate decks (brief section 3, C-10, C-X8): every roll is a card.

A card has two dice and at most one trigger. A deck is versioned data
(``rulesets/combat-commander/decks.toml``); a virtual deck is drawn without replacement and its
remaining cards are kept as a sorted list of card keys (``"1-1:jammed"``, ``"3-4"``), the form a
game file stores. ``FateCardQuestion`` asks for a card: typed from a physical card, or drawn.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee import data
from referee.core.dice import (
    ROLL,
    DiceRoll,
    DiceSource,
    DiceSpec,
    DieStream,
    KeyedDice,
    program_source,
    script_dice,
)
from referee.core.errors import AnswerError
from referee.core.questions import DiceQuestion
from referee.core.text import Msg

RULESET_ID = "combat-commander"
TRIGGERS = ("jammed", "event", "sniper", "time")
NATIONS = ("germany", "america", "russia", "britain", "france", "italy")
EDITIONS = ("cc_20th", "cce_2006")
DRAW_WORDS = frozenset({"", "roll", "draw"})
_SPLIT = re.compile(r"[\s,;\-]+")


def card_key(faces: tuple[int, int], trigger: str = "") -> str:
    return f"{faces[0]}-{faces[1]}" + (f":{trigger}" if trigger else "")


def parse_key(key: str) -> tuple[tuple[int, int], str]:
    dice, _, trigger = key.partition(":")
    a, b = dice.split("-")
    return (int(a), int(b)), trigger


@dataclass(frozen=True)
class FateCard(DiceRoll):
    """A drawn or typed Fate card: its two dice (``faces``) and its trigger (``""``: none)."""

    trigger: str = ""

    @property
    def total(self) -> int:
        assert self.faces is not None
        return sum(self.faces)

    @property
    def product(self) -> int:
        assert self.faces is not None
        return self.faces[0] * self.faces[1]

    @property
    def key(self) -> str:
        assert self.faces is not None
        return card_key((self.faces[0], self.faces[1]), self.trigger)

    def label(self) -> Msg | None:
        return Msg.of(f"cc.trigger.{self.trigger}") if self.trigger else None

    def to_script(self) -> object:
        assert self.faces is not None
        value: list[object] = [*self.faces, *([self.trigger] if self.trigger else [])]
        return script_dice(value, self.source)


@dataclass(frozen=True)
class DeckEdition:
    id: str
    decks: dict[str, tuple[str, ...]]  # nation -> the 72 card keys, sorted
    # nation -> (option, value): the reading of an unpublished placement this deck was built
    # with ([UNVERIFIED], e.g. which Italian 4-5/5-4/6-3 card has no Sniper!)
    readings: dict[str, tuple[str, str]] = field(default_factory=dict)

    def composition(self, nation: str) -> tuple[str, ...] | None:
        return self.decks.get(nation)

    def reading(self, nation: str) -> tuple[str, str] | None:
        return self.readings.get(nation)


class DeckDataError(ValueError):
    """Deck data that does not make a deck; ``msg`` says why (for a user's deck file)."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.id)
        self.msg = msg


_DICE = re.compile(r"^[1-6]-[1-6]$")
MAX_CARDS_PER_PAIR = 6  # a deck holds each ordered pair of dice this many times at most


def build_deck(spec: dict[str, Any], cards_per_pair: int) -> tuple[str, ...]:
    """The card keys of one deck: every ordered pair ``cards_per_pair`` times, with the
    listed trigger cards placed on their dice."""
    placed: Counter[str] = Counter()
    counts = spec.get("counts")
    if not isinstance(counts, dict):
        raise DeckDataError(Msg.of("cc.error.deck_counts"))
    for trigger in TRIGGERS:
        listed = spec.get(trigger, [])
        if not isinstance(listed, list) or not all(isinstance(d, str) and _DICE.match(d)
                                                   for d in listed):
            raise DeckDataError(Msg.of("cc.error.deck_dice", trigger=trigger))
        if len(listed) != counts.get(trigger, 0):
            raise DeckDataError(Msg.of("cc.error.deck_count", trigger=trigger,
                                       listed=len(listed), counted=counts.get(trigger, 0)))
        placed.update(f"{dice}:{trigger}" for dice in listed)
    cards: list[str] = []
    for a in range(1, 7):
        for b in range(1, 7):
            dice = f"{a}-{b}"
            with_trigger = [k for k in placed.elements() if k.startswith(dice + ":")]
            if len(with_trigger) > cards_per_pair:
                raise DeckDataError(Msg.of("cc.error.deck_crowded", dice=dice,
                                           cards=cards_per_pair))
            cards += with_trigger + [dice] * (cards_per_pair - len(with_trigger))
    return tuple(sorted(cards))


def option_default(name: str) -> str:
    """The default of a ruleset option, read from ``options.toml`` (one source)."""
    for spec in data.load(RULESET_ID, "options")["option"]:
        if spec["name"] == name:
            return str(spec["default"])
    raise KeyError(name)


def unverified_blank(spec: dict[str, Any], chosen: dict[str, str]
                     ) -> tuple[dict[str, Any], tuple[str, str] | None]:
    """A deck whose ``unverified_blank`` names a trigger listed on one card more than it has:
    one of those cards carries no trigger and which one is not public. The named option
    (``chosen``, else its default) says which dice that card shows; it is removed from the
    trigger's list. Returns the deck spec to build and the (option, value) used."""
    blank = spec.get("unverified_blank")
    if blank is None:
        return spec, None
    if not isinstance(blank, dict) or not {"trigger", "option"} <= set(blank):
        raise DeckDataError(Msg.of("cc.error.deck_blank"))
    trigger, option = str(blank["trigger"]), str(blank["option"])
    try:
        value = chosen.get(option) or option_default(option)
    except KeyError:  # an option that does not exist: a deck file's mistake
        raise DeckDataError(Msg.of("cc.error.deck_blank")) from None
    listed = spec.get(trigger, [])
    if not isinstance(listed, list):
        raise DeckDataError(Msg.of("cc.error.deck_dice", trigger=trigger))
    listed = list(listed)
    if value not in listed:
        raise DeckDataError(Msg.of("cc.error.deck_blank_dice", dice=value, trigger=trigger))
    listed.remove(value)
    out = {k: v for k, v in spec.items() if k != "unverified_blank"}
    out[trigger] = listed
    return out, (option, value)


def _edition(edition_id: str, raw: dict[str, Any], chosen: dict[str, str]) -> DeckEdition:
    decks: dict[str, tuple[str, ...]] = {}
    readings: dict[str, tuple[str, str]] = {}
    for nation, spec in raw.get("nation", {}).items():
        spec, reading = unverified_blank(spec, chosen)
        decks[nation] = build_deck(spec, int(raw.get("cards_per_pair", 2)))
        if reading is not None:
            readings[nation] = reading
    return DeckEdition(edition_id, decks, readings)


@functools.cache
def _bundled(edition_id: str, chosen: tuple[tuple[str, str], ...]) -> DeckEdition:
    raw = data.load(RULESET_ID, "decks")["edition"][edition_id]
    return _edition(edition_id, raw, dict(chosen))


def edition(edition_id: str, chosen: dict[str, str] | None = None) -> DeckEdition:
    """The bundled decks of an edition; ``chosen`` gives the readings of the options that
    place unpublished cards (option name -> value; missing: the option's default)."""
    return _bundled(edition_id, tuple(sorted((chosen or {}).items())))


def edition_from_file(path: str, edition_id: str,
                      chosen: dict[str, str] | None = None) -> DeckEdition:
    """A deck edition the user supplies (decision 3: tables that are not public are read
    from the user's file), in the layout of the bundled ``decks.toml``."""
    from referee.core.errors import ScriptError
    from referee.files import read_toml, where

    text, raw = read_toml(path)
    editions = raw.get("edition")
    table = editions.get(edition_id) if isinstance(editions, dict) else None
    nations = table.get("nation", {}) if isinstance(table, dict) else None
    if not isinstance(table, dict) or not isinstance(nations, dict):
        raise ScriptError(path, f"edition.{edition_id}",
                          Msg.of("cc.error.deck_file_edition", edition=edition_id))
    per_pair = table.get("cards_per_pair", 2)
    if type(per_pair) is not int or not 1 <= per_pair <= MAX_CARDS_PER_PAIR:
        raise ScriptError(path, where(text, ["edition", edition_id, "cards_per_pair"]),
                          Msg.of("cc.error.deck_per_pair", most=MAX_CARDS_PER_PAIR))
    decks: dict[str, tuple[str, ...]] = {}
    readings: dict[str, tuple[str, str]] = {}
    for nation, spec in nations.items():
        field_path: list[str | int] = ["edition", edition_id, "nation", nation]
        if nation not in NATIONS:
            raise ScriptError(path, where(text, field_path),
                              Msg.of("cc.error.unknown_nation", given=nation,
                                     known=", ".join(NATIONS)))
        try:
            if not isinstance(spec, dict):
                raise DeckDataError(Msg.of("cc.error.deck_counts"))
            spec, reading = unverified_blank(spec, chosen or {})
            decks[nation] = build_deck(spec, per_pair)
        except DeckDataError as err:
            raise ScriptError(path, where(text, field_path), err.msg) from None
        if reading is not None:
            readings[nation] = reading
    return DeckEdition(edition_id, decks, readings)


def parse_card(raw: Any, source: DiceSource = DiceSource.TYPED) -> FateCard | str:
    """A card as typed (``1 6 event``, ``1-6 Event!``) or scripted (``[1, 6, "event"]``,
    ``{rolled = [1, 6]}``); an empty answer, ``roll`` or ``draw`` asks for a draw."""
    if isinstance(raw, FateCard):
        raw = raw.to_script()
    if isinstance(raw, dict):
        source = program_source(raw)  # first: it refuses a table without 'rolled'
        return parse_card(raw["rolled"], source)
    if isinstance(raw, str):
        text = raw.strip()
        if text.casefold() in DRAW_WORDS:
            return ROLL
        parts: list[Any] = [p for p in _SPLIT.split(text) if p]
        parts = [int(p) if p.isascii() and p.isdigit() else p for p in parts]
    elif isinstance(raw, list):
        parts = list(raw)
    else:
        raise AnswerError(Msg.of("cc.error.card_syntax", text=str(raw)))
    faces = [p for p in parts if isinstance(p, int) and not isinstance(p, bool)]
    words = [p for p in parts if isinstance(p, str)]
    if len(faces) + len(words) != len(parts) or len(faces) != 2 or len(words) > 1:
        raise AnswerError(Msg.of("cc.error.card_syntax", text=str(raw)))
    for face in faces:
        if not 1 <= face <= 6:
            raise AnswerError(Msg.of("dice.error.face", face=face, sides=6))
    trigger = words[0].strip("!").casefold() if words else ""
    if trigger == "none":
        trigger = ""
    if trigger and trigger not in TRIGGERS:
        raise AnswerError(Msg.of("cc.error.trigger", given=words[0],
                                 legal=", ".join(TRIGGERS)))
    return FateCard((faces[0], faces[1]), 0, source, trigger)


def draw_card(remaining: tuple[str, ...], index: int) -> FateCard:
    faces, trigger = parse_key(remaining[index])
    return FateCard(faces, 0, DiceSource.ROLLED, trigger)


def draw_whole_deck(cards: tuple[str, ...], dice: KeyedDice) -> list[FateCard]:
    """Every card of a deck, drawn one at a time without replacement as a virtual deck
    draws them (C-10), until none is left."""
    remaining = list(cards)
    drawn = []
    stream = dice.stream("deck")
    while remaining:
        index = stream.below(len(remaining))
        drawn.append(draw_card(tuple(remaining), index))
        del remaining[index]
    return drawn


@dataclass(frozen=True, kw_only=True)
class FateCardQuestion(DiceQuestion):
    """Draw a Fate card for a roll. ``composition`` is the edition's deck of this nation
    (``None``: not public, any card is accepted); ``remaining`` the virtual deck's cards
    not yet drawn (``None``: no virtual deck, cards must be typed)."""

    spec: DiceSpec = field(default_factory=lambda: DiceSpec(count=2))
    nation: str
    edition_id: str
    composition: tuple[str, ...] | None = None
    remaining: tuple[str, ...] | None = None

    def accept(self, raw: Any) -> FateCard | str:
        card = parse_card(raw)
        if card == ROLL:
            self._need_virtual_deck()
            return ROLL
        assert isinstance(card, FateCard)
        if self.composition is not None and card.key not in self.composition:
            dice = card_key((card.faces[0], card.faces[1])) if card.faces else ""
            shown = sorted({parse_key(k)[1] for k in self.composition
                            if k.partition(":")[0] == dice} - {""})
            if not card.trigger and shown:
                # the dice are right, the trigger was left out: say how to type it
                a, b = dice.split("-")
                raise AnswerError(Msg.of("cc.error.card_trigger_missing", dice=dice,
                                         nation=Msg.of(f"cc.nation.{self.nation}"),
                                         typed=", ".join(f"'{a} {b} {t}'" for t in shown)))
            raise AnswerError(Msg.of("cc.error.card_not_in_deck", card=card.key,
                                     nation=Msg.of(f"cc.nation.{self.nation}"),
                                     edition=self.edition_id))
        if card.source.by_program:
            remaining = self._need_virtual_deck()
            if card.key not in remaining:
                raise AnswerError(Msg.of("cc.error.card_drawn", card=card.key,
                                         nation=Msg.of(f"cc.nation.{self.nation}")))
        return card

    def _need_virtual_deck(self) -> tuple[str, ...]:
        if self.remaining is None:
            raise AnswerError(Msg.of("cc.error.no_virtual_deck",
                                     nation=Msg.of(f"cc.nation.{self.nation}"),
                                     edition=self.edition_id))
        return self.remaining

    def roll_key(self) -> object:
        return (self.spec, self.remaining)

    def roll(self, dice: DieStream) -> FateCard:
        """Draw one card of the remaining deck, uniformly, from the dice of this question."""
        remaining = self._need_virtual_deck()
        return draw_card(remaining, dice.roll_die(len(remaining)) - 1)

    def to_script(self, value: Any) -> Any:
        return value.to_script() if isinstance(value, FateCard) else value


class VirtualDecks:
    """The remaining cards of each nation's virtual deck in one run (C-10, C-X8); starts
    from a game file's state and gives back what to store."""

    def __init__(self, edition_id: str, state: dict[str, list[str]],
                 deck_file: str = "", chosen: dict[str, str] | None = None) -> None:
        self.edition = edition_from_file(deck_file, edition_id, chosen) if deck_file \
            else edition(edition_id, chosen)
        self.state = {k: list(v) for k, v in state.items()}

    def _slot(self, nation: str) -> str:
        return f"{self.edition.id}/{nation}"

    def remaining(self, nation: str) -> tuple[str, ...] | None:
        full = self.edition.composition(nation)
        if full is None:
            return None
        return tuple(self.state.get(self._slot(nation), full))

    def needs_reshuffle(self, nation: str) -> bool:
        left = self.remaining(nation)
        return left is not None and not left

    def reshuffle(self, nation: str) -> None:
        self.state.pop(self._slot(nation), None)

    def take(self, nation: str, card: FateCard) -> None:
        left = self.remaining(nation)
        assert left is not None and card.key in left
        cards = list(left)
        cards.remove(card.key)
        self.state[self._slot(nation)] = cards
