"""Cards and the deck a table plays with.

A card is its canonical two-character string: rank upper-case, suit
lower-case (``"Ts"``, ``"Ah"``), a joker ``"X1"``…``"X4"``, or ``"??"`` for a
card the referee does not know. Strings keep logs, errors and state readable
and are as fast as anything else as dictionary keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from .errors import MalformedInput

RANKS = "A23456789TJQK"
SUITS = "cdhs"
UNKNOWN = "??"
JOKERS = ("X1", "X2", "X3", "X4")
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {
    "A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
    **{r: r for r in "23456789"},
}

# Every accepted spelling mapped to its canonical form, built once: parsing a
# card is then one dictionary look-up, which keeps replay fast.
_SPELLINGS: dict[str, str] = {UNKNOWN: UNKNOWN}
for _r in RANKS:
    for _s in SUITS:
        _canon = _r + _s
        for _rr in {_r, _r.lower()} | ({"10"} if _r == "T" else set()):
            for _ss in (_s, _s.upper()):
                _SPELLINGS[_rr + _ss] = _canon
for _j in JOKERS:
    _SPELLINGS[_j] = _j
    _SPELLINGS[_j.lower()] = _j


def parse_card(text: str) -> str:
    """The canonical form of ``text``; raises ``MalformedInput`` if it is no card."""
    try:
        return _SPELLINGS[text]
    except (KeyError, TypeError):
        raise MalformedInput(
            "bad_card",
            f"{text!r} is not a card (write rank A 2-9 T J Q K and suit c d h s, "
            "like 'Ts' or 'Ah'; jokers X1-X4; ?? for an unknown card)",
        ) from None


def parse_cards(texts: Sequence[str]) -> tuple[str, ...]:
    """``parse_card`` of each (a replay parses every dealt and shown card)."""
    try:
        if len(texts) > 1:  # for one card itemgetter returns the card, not a tuple
            return itemgetter(*texts)(_SPELLINGS)
        return tuple(map(_SPELLINGS.__getitem__, texts))
    except (KeyError, TypeError):
        return tuple(map(parse_card, texts))  # raises, naming the first bad card


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def is_joker(card: str) -> bool:
    return card[0] == "X"


def card_sort_key(card: str) -> tuple[int, int]:
    if card == UNKNOWN:
        return (99, 99)
    if card[0] == "X":
        return (98, int(card[1]))
    return (SUITS.index(card[1]), RANKS.index(card[0]))


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


@dataclass(frozen=True)
class Deck:
    """What the house rules make of the cards: which exist, what each counts,
    which are wild, and how ranks follow one another in a run."""

    size_52: bool = True
    jokers: int = 0
    jokers_wild: bool = False
    deuces_wild: bool = False
    court_high: bool = False  # J/Q/K count 11/12/13
    cards: frozenset[str] = field(init=False)
    values: dict[str, int] = field(init=False, compare=False)
    wild: frozenset[str] = field(init=False)
    run_order: str = field(init=False)

    def __post_init__(self) -> None:
        order = RANKS if self.size_52 else "A234567JQK"
        cards = {r + s for r in order for s in SUITS}
        cards.update(JOKERS[: self.jokers])
        values = {}
        for card in cards:
            r = card[0]
            if r == "X":
                values[card] = 0
            elif r == "A":
                values[card] = 1
            elif r in "23456789":
                values[card] = int(r)
            elif r == "T":
                values[card] = 10
            else:
                values[card] = {"J": 11, "Q": 12, "K": 13}[r] if self.court_high else 10
        wild = set()
        if self.jokers_wild:
            wild.update(JOKERS[: self.jokers])
        if self.deuces_wild:
            wild.update("2" + s for s in SUITS)
        object.__setattr__(self, "cards", frozenset(cards))
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "wild", frozenset(wild))
        object.__setattr__(self, "run_order", order)

    @property
    def size(self) -> int:
        return len(self.cards)

    def count(self, cards: Iterable[str]) -> int:
        """The count of a hand: the sum of its cards' values."""
        values, total = self.values, 0
        for card in cards:
            total += values[card]
        return total

    def describe(self) -> str:
        return f"{self.size}-card deck"
