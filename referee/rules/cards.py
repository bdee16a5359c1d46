"""Cards and the deck a table plays with.

A card is its canonical two-character string: rank upper-case, suit
lower-case (``"Ts"``, ``"Ah"``), a joker ``"X1"``…``"X4"``, or ``"??"`` for a
card the referee does not know. Strings keep logs, errors and state readable
and are as fast as anything else as dictionary keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import itemgetter

from .errors import MalformedInput, RefereeError
from .numbers import is_whole
from .words import CARD_PARAMS, N_, LoggedAction, Names, Phrases, Words

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
            N_("{text} is not a card (write rank A 2-9 T J Q K and suit c d h s, like 'Ts' or "
               "'Ah'; jokers X1-X4; ?? for an unknown card)"), {"text": repr(text)},
        ) from None


def parse_cards(texts: Sequence[str]) -> tuple[str, ...]:
    """``parse_card`` of each (a replay parses every dealt and shown card)."""
    try:
        if len(texts) > 1:  # for one card itemgetter returns the card, not a tuple
            cards: tuple[str, ...] = itemgetter(*texts)(_SPELLINGS)
            return cards
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
    ace_high: bool = False  # in a run the ace may also stand above the king
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
        wild: set[str] = set()
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

    def most_count(self, cards: int) -> int:
        """The most a hand of ``cards`` cards of this deck can count."""
        return self.count_range(cards)[1]

    def count_range(self, cards: int, besides: Iterable[str] = ()) -> tuple[int, int]:
        """The least and the most ``cards`` cards of this deck can count, drawn
        from the deck without the cards ``besides`` (those known to be in the
        same hand): each card exists once, so five cards of a standard deck
        count at least 6 (A A A A 2), not five aces' 5."""
        kept = set(besides)
        values = sorted(v for c, v in self.values.items() if c not in kept)
        if cards <= 0:
            return 0, 0
        return sum(values[:cards]), sum(values[-cards:])

    def hand_range(self, known: Iterable[str], unknown: int) -> tuple[int, int]:
        """The least and the most a hand can count that holds the cards
        ``known`` and ``unknown`` more: the known ones' count, and for the
        others what as many other cards of the deck can count."""
        kept = tuple(known)
        least, most = self.count_range(unknown, kept)
        return self.count(kept) + least, self.count(kept) + most

    def describe(self) -> str:
        return f"{self.size}-card deck"


# ---------------------------------------------------------------- in words

SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_RANK_LABELS = {"T": "10"}


def card_label(card: str | None) -> str:
    """``Th`` as a person reads it: ``10♥`` (a joker ``Joker 1``, unknown ``??``)."""
    if not card:
        return ""
    if card == UNKNOWN:
        return UNKNOWN
    if card[0] == "X":
        return "Joker " + card[1:]
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return card
    return _RANK_LABELS.get(card[0], card[0]) + SUIT_SYMBOLS[card[1]]


def cards_label(text: str) -> str:
    """Cards named in the log's notation (``8c 8d 8h``) as a person reads
    them (``8♣ 8♦ 8♥``); text that is not all cards stays as it is."""
    words = text.split(" ")
    if not all(w in _SPELLINGS for w in words):
        return text
    return " ".join(card_label(_SPELLINGS[w]) for w in words)


def shown(params: Mapping[str, object]) -> dict[str, object]:
    """A sentence's ``params`` with their cards (``words.CARD_PARAMS``) as a
    person reads them; a spread (``spreads.Spread``) is its cards as text."""
    return {name: value if name not in CARD_PARAMS or isinstance(value, _SAID)
            else cards_label(str(value)) for name, value in params.items()}


_SAID = (Words, Names, Phrases, int, Decimal)


def message_shown(err: RefereeError) -> str:
    """A refusal's English ``message`` as a person reads it: its cards as the
    pages write them (``Q♦ does not extend S1 (8♣ 8♦ 8♥)``); ``message``
    keeps the log's notation, the result format's words. Without Babel: the
    command line's English (``language.message`` says it so too)."""
    return str(as_read(err.message_words))


def as_read(words: object) -> object:
    """``words`` (``rules.words``) with every card as a person reads it."""
    if isinstance(words, Words):
        return Words(words.template, **{name: as_read(value)
                                        for name, value in shown(words.params).items()})
    if isinstance(words, (Names, Phrases)):
        return type(words)(map(as_read, words))
    if isinstance(words, LoggedAction):
        return pretty(words)
    return words


def pretty(text: str) -> str:
    """A log line with every card written as a person reads it: ``hit S1 7c``
    -> ``hit S1 7♣``. Words that are not cards (names, verbs, spreads) stay;
    a name that happens to spell a card keeps its place before the colon."""
    head, colon, rest = text.rpartition(": ") if ": " in text else ("", "", text)
    words = [card_label(w) if w in _SPELLINGS and w != UNKNOWN else w
             for w in rest.split(" ")]
    return head + colon + " ".join(words)


_VERB_WORDS = {"draw": "draws", "take": "takes", "drop": "drops", "spread": "spreads",
               "hit": "hits", "discard": "discards", "show": "shows",
               "declare": "declares", "slap": "slaps"}


def action_words(text: str) -> str:
    """An action as a sentence for the table: ``Ben: hit S1 7c`` -> ``Ben hits
    S1 with 7♣``; ``Ben: draw`` -> ``Ben draws (card not seen)``."""
    player, _, rest = text.rpartition(": ")
    verb, *args = rest.split()
    spread = args.pop(0) if args and args[0][:1] == "S" and is_whole(args[0][1:]) else None
    cards = " ".join(card_label(c) for c in args)
    out = f"{player} {_VERB_WORDS.get(verb, verb)}"
    if verb == "draw" and (not args or args == [UNKNOWN]):
        return out + " (card not seen)"
    if verb == "show" and args and args[0].startswith("="):  # a count, not the cards
        return f"{out} a count of {args[0][1:]}"
    if spread and cards:
        return f"{out} {cards} on {spread}" if verb == "slap" else f"{out} {spread} with {cards}"
    if spread:
        return f"{out} on {spread}"
    return f"{out} {cards}" if cards else out
