"""The decks behind the odds of Fate cards drawn without replacement (C-10, brief section 3).

A deck's draws from now on are a sequence: first the cards left in the virtual deck, then, when
it runs out, a reshuffled full deck (``Attack.draw`` reshuffles an empty deck), and so on. Draws
from one deck are exchangeable: the cards at any k positions of one pass through the deck are
distributed as its first k cards. So the joint odds of the draws that decide the outcome (the
fire card, the defence cards of the leaders before a unit, the unit's own card) are walked
exactly (``odds_walk``) over the classes of card they need: the dice total (or the totals no
unit tells apart), and for a targeting card also whether its product hits.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.rulesets.cc.deck import card_key, parse_key

ALL_PAIRS = tuple(card_key((a, b)) for a, b in itertools.product(range(1, 7), repeat=2))
"""A deck whose composition is not known: each draw is two independent dice."""

Cls = tuple[bool, int]
"""A card's class: (its targeting product hits, its dice total)."""


@dataclass(frozen=True)
class DeckRun:
    """One nation's Fate deck from now on. ``remaining`` ``None``: the composition is not
    public, so every draw is two independent dice (with replacement)."""

    nation: str
    remaining: tuple[str, ...] | None
    full: tuple[str, ...] | None

    @property
    def known(self) -> bool:
        return self.remaining is not None

    def group(self, position: int) -> tuple[int, tuple[str, ...]]:
        """The pass through the deck that draws the card at ``position`` (0: the next card),
        with the cards that pass starts from."""
        if self.remaining is None or self.full is None:
            return position, ALL_PAIRS
        left = len(self.remaining)
        if position < left:
            return 0, self.remaining
        return 1 + (position - left) // len(self.full), self.full

    def first(self) -> tuple[str, ...]:
        return self.group(0)[1]


def classes(cards: Sequence[str], threshold: int | None) -> Counter[Cls]:
    out: Counter[Cls] = Counter()
    for key in cards:
        (a, b), _ = parse_key(key)
        out[(threshold is not None and a * b > threshold, a + b)] += 1
    return out


@functools.cache
def _faces(cards: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(parse_key(key)[0] for key in cards)


def shuffled(deck: DeckRun, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """The dice of ``count`` draws of ``deck`` as the attack would draw them (for the seeded
    simulation): cards left drawn at random without replacement, then reshuffled full
    decks."""
    out: list[tuple[int, int]] = []
    while len(out) < count:
        _, cards = deck.group(len(out))
        faces = _faces(cards)
        if not deck.known:
            out.append(rng.choice(faces))
            continue
        out += rng.sample(faces, min(len(faces), count - len(out)))
    return out


def distribution(cards: Sequence[str], value: Callable[[tuple[int, int], str], int]
                 ) -> Counter[int]:
    """How many of ``cards`` give each value (the next draw's odds, as counts)."""
    out: Counter[int] = Counter()
    for key in cards:
        faces, trigger = parse_key(key)
        out[value(faces, trigger)] += 1
    return out
