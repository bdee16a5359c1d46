"""Spreads: books and runs, and whether a set of cards is one.

With wild cards a set of cards is a valid spread when some assignment of the
wild cards makes it one; the log never says what a wild card stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import Deck, sort_cards

MIN_SPREAD = 3
MAX_BOOK = 4


class Spread:
    """A spread on the table: its number (S1, S2, ...), who laid it down, its
    cards (hits and slaps add to them)."""

    __slots__ = ("number", "owner", "cards")

    def __init__(self, number: int, owner: str, cards: list[str]) -> None:
        self.number = number
        self.owner = owner
        self.cards = cards

    def __str__(self) -> str:
        return " ".join(self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spread) and (self.number, self.owner, self.cards) == (
            other.number, other.owner, other.cards)

    # No __hash__: a class that defines __eq__ alone is unhashable, as a
    # spread must be (hits and slaps add to it).


def is_book(cards: Sequence[str], deck: Deck) -> bool:
    if not MIN_SPREAD <= len(cards) <= MAX_BOOK:
        return False
    wild = deck.wild
    ranks = {c[0] for c in cards if c not in wild}
    if any(r == "X" for r in ranks):  # a dead joker cannot be spread
        return False
    return len(ranks) <= 1


def is_run(cards: Sequence[str], deck: Deck) -> bool:
    order = deck.run_order
    n = len(cards)
    if n < MIN_SPREAD or n > len(order):
        return False
    wild = deck.wild
    naturals = [c for c in cards if c not in wild]
    if not naturals:
        return True
    if any(c[0] == "X" for c in naturals):
        return False
    suit = naturals[0][1]
    positions = set()
    for c in naturals:
        if c[1] != suit:
            return False
        pos = order.find(c[0])
        if pos < 0 or pos in positions:
            return False
        positions.add(pos)
    # The wild cards fill the gaps and, where needed, extend either end; the
    # window must fit inside the rank order, where the ace is low (A-2-3).
    if max(positions) - min(positions) + 1 <= n:
        return True
    # With ace low or high, the ace may instead stand above the king (Q-K-A),
    # never at both ends at once (K-A-2 fits neither way).
    if deck.ace_high and 0 in positions:
        positions.discard(0)
        positions.add(len(order))
        return max(positions) - min(positions) + 1 <= n
    return False


def is_spread(cards: Sequence[str], deck: Deck, *, books: bool = True) -> bool:
    """A valid new spread (``books=False``: only a run will do)."""
    return is_run(cards, deck) or (books and is_book(cards, deck))


def holds_spread(cards: Sequence[str], deck: Deck, *, aces_exempt: bool = False) -> bool:
    """Whether the cards contain a spread (three cards are enough to show one:
    any longer book or run holds a three-card one). ``aces_exempt``: a book of
    aces does not count."""
    for trio in combinations(cards, 3):
        if aces_exempt and is_book(trio, deck) and all(
            c[0] == "A" or c in deck.wild for c in trio
        ) and any(c[0] == "A" for c in trio):
            if not is_run(trio, deck):
                continue
        if is_spread(trio, deck):
            return True
    return False


def in_rank_order(cards: Sequence[str], deck: Deck) -> list[str]:
    """A spread's cards as a person reads them, whatever order they were laid
    and hit in: a run by rank (3♦ 4♦ 5♦ 6♦ 7♦, not 4♦ 5♦ 6♦ 7♦ 3♦ for a
    hit below it; Q-K-A with the ace above the king where it stands there),
    a book by suit; wild cards after the cards they join (the log never says
    what a wild card stands for)."""
    wild = deck.wild
    naturals = [c for c in cards if c not in wild]
    wilds = sort_cards(c for c in cards if c in wild)
    if len({c[1] for c in naturals}) != 1 or len({c[0] for c in naturals}) == 1:
        return sort_cards(naturals) + wilds  # a book (or not a run at all)
    order = deck.run_order
    place = {r: i for i, r in enumerate(order)}
    ranks = [place.get(c[0], -1) for c in naturals]
    if deck.ace_high and 0 in ranks and max(ranks) - min(ranks) + 1 > len(cards):
        place["A"] = len(order)  # the run fits only with the ace above the king
    return sorted(naturals, key=lambda c: place.get(c[0], -1)) + wilds


def describe_kind(cards: Sequence[str], deck: Deck) -> str:
    if is_run(cards, deck) and not is_book(cards, deck):
        return "run"
    if is_book(cards, deck) and not is_run(cards, deck):
        return "book"
    return "spread"
