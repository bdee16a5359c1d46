"""What the referee offers now: the actions and the verbs a tablet shows.

One generator, ``offers``, proposes every kind of action worth offering now,
each as an ``Offer``: the action with its cards still to pick, where the
player picks them, and the actions the referee can list itself from the
cards it knows. Whether any of them is allowed is ``verify``'s to say
(``referee.rules.legality``, the one statement of legality): the legal
actions are the listed actions it accepts, the verbs open those of which it
accepts one. The generator decides only where to look (shows once the
play has ended, declarations where a hand may take a claim at all, a
spread from three cards or more: never narrower than what ``verify``
accepts), and keeps from offering what would lead nowhere (a take that
cannot be used, a meld that would strand the turn) and what no rule pays
(a declaration where the rules have no deal wins).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .cards import UNKNOWN
from .legality import TO_PICK, can, extends
from .phases import DECLARED, EXTRA_DISCARD, OVER, PLAY, SHOWDOWN, START, START_VERBS, VOID
from .spreads import MIN_SPREAD, is_spread

if TYPE_CHECKING:
    from .hand import Hand

_NONE: tuple[Action, ...] = ()


class Offer(NamedTuple):
    """One kind of action offered to a player now: ``to_pick``, the action with
    its cards still to pick (None where the referee lists every choice), and
    ``listed``, the actions the referee can name from the cards it knows
    (a hand with unknown cards may also play cards it cannot list)."""

    player: str
    verb: str
    to_pick: Action | None
    listed: Iterable[Action]


def offers(hand: Hand) -> Iterator[Offer]:
    """Every kind of action worth offering now, in the order the tablet shows
    them: the shows, the declarations, then what the player to act may do."""
    phase = hand.phase
    if phase is OVER or phase is VOID:
        return
    players, held, unknown = hand.players, hand.held, hand.unknown
    # The listed actions are made only when asked for (the verbs seldom ask).
    if phase is SHOWDOWN or phase is DECLARED:
        for q in players:
            if q in hand.must_show:
                yield Offer(q, "show", _to_pick(q, "show"),
                            _NONE if unknown[q] else _whole_hand(q, "show", held[q]))
    if phase is DECLARED or phase is START and not hand.this_turn.started:
        # Where a hand may take a claim at all (before a turn has begun, or
        # joining one declared); verify judges who, when and what.
        for q in players:
            if not unknown[q]:
                yield Offer(q, "declare", None, _whole_hand(q, "declare", held[q]))
            elif hand.rules.deal_wins:
                yield Offer(q, "declare", _to_pick(q, "declare"), _NONE)
    p = hand.to_act
    if p is None:  # nobody's turn: the play is over
        return
    if phase is START:
        yield from _turn_start_offers(hand, p)
    elif phase is EXTRA_DISCARD:
        yield Offer(p, "discard", _to_pick(p, "discard"),
                    (Action(p, "discard", (c,)) for c in held[p]))
    elif phase is PLAY:
        if hand.card_count(p) >= MIN_SPREAD:
            yield Offer(p, "spread", _to_pick(p, "spread"), _melds(hand, p, "spread"))
        yield Offer(p, "hit", _to_pick(p, "hit"), _melds(hand, p, "hit"))
        yield Offer(p, "discard", _to_pick(p, "discard"),
                    (Action(p, "discard", (c,)) for c in held[p]))


def _turn_start_offers(hand: Hand, p: str) -> Iterator[Offer]:
    """What ``p`` may do to start a turn, and the slaps open to everyone."""
    for v in START_VERBS:
        if v != "take" or _take_is_usable(hand, p):
            yield Offer(p, v, None, (_no_cards(p, v),))
    if hand.rules.pickup_depth == 2 and len(hand.pile) > 1:
        # The card below the top, taken by naming it (the top stays).
        second = hand.pile[-2]
        if second != UNKNOWN and _take_is_usable(hand, p, second):
            yield Offer(p, "take", None, (Action(p, "take", (second,)),))
    if hand.slap_open:
        for q in hand.players:
            yield Offer(q, "slap", None,
                        (Action(q, "slap", (), s.number) for s in hand.spreads))


def legal_actions(hand: Hand) -> list[Action]:
    """Every concrete action the referee would accept now, as far as the
    known cards allow (a hand with unknown cards may also play cards the
    referee cannot list). A draw is offered without a card."""
    return [action for offer in offers(hand) for action in offer.listed if can(hand, action)]


def verbs(hand: Hand) -> dict[str, list[str]]:
    """For each player who may act now, the kinds of action open to them: the
    action with its cards still to pick is accepted, or, where the referee
    lists every choice, one of them is. What the tablet shows."""
    out: dict[str, list[str]] = {}
    for player, verb, to_pick, listed in offers(hand):
        if verb in out.get(player, ()):
            continue
        if can(hand, to_pick) if to_pick is not None else \
                any(can(hand, action) for action in listed):
            out.setdefault(player, []).append(verb)
    return out


@lru_cache(maxsize=1024)
def _to_pick(player: str, verb: str) -> Action:
    """``player``'s ``verb`` with its cards still to pick (made once: an action
    never changes). The first spread stands for any spread a hit may pick."""
    return Action(player, verb, TO_PICK, 1 if verb == "hit" else None)


@lru_cache(maxsize=1024)
def _no_cards(player: str, verb: str) -> Action:
    """A turn's start, which names no card (made once, as ``_to_pick``)."""
    return Action(player, verb)


def _whole_hand(player: str, verb: str, cards: list[str]) -> Iterator[Action]:
    """A known hand shown or declared (made when asked for)."""
    yield Action(player, verb, tuple(cards))


def _melds(hand: Hand, p: str, verb: str) -> Iterator[Action]:
    """The spreads (or hits) ``p`` could make from the cards known to be in
    their hand, less those that would strand the turn (made when asked for)."""
    held = hand.held[p]
    if verb == "spread":
        melds: Iterable[Action] = (Action(p, "spread", combo)
                                   for size in range(MIN_SPREAD, len(held) + 1)
                                   for combo in combinations(held, size))
    else:
        melds = (Action(p, "hit", (c,), s.number) for s in hand.spreads for c in held)
    taken = hand.this_turn.taken
    if (hand.rules.take_must_meld and taken not in (None, UNKNOWN)
            and taken not in hand.this_turn.melded):
        # Until the taken card is used, only melds that use it are
        # offered: another could leave it unusable, and the turn stuck.
        melds = (a for a in melds if taken in a.cards)
    if hand.this_turn.out_blocked:
        # Not allowed to go out this turn: a meld leaving one card would
        # leave only the discard that empties the hand.
        left = hand.card_count(p)
        melds = (a for a in melds if left - len(a.cards) != 1)
    yield from melds


def _take_is_usable(hand: Hand, p: str, card: str | None = None) -> bool:
    """Under ``take_must_meld``, whether the top discard (or ``card``, the
    one below it) could be used by ``p`` this turn. A take that cannot is
    still a fact the log may record (it is refused when the turn ends), but
    it is not offered: it would leave the player no legal way to end the
    turn but an undo."""
    top = card or (hand.pile[-1] if hand.pile else UNKNOWN)
    if not hand.rules.take_must_meld or top == UNKNOWN or hand.unknown[p]:
        return True
    return _can_meld(hand, p, top)


def _can_meld(hand: Hand, p: str, card: str) -> bool:
    """Whether ``card`` could be hit on a spread on the table, or spread with
    some of ``p``'s cards."""
    if any(extends(hand, s, card) for s in hand.spreads):
        return True
    held = hand.held[p]
    return any(is_spread(combo + (card,), hand.deck)
               for size in range(2, len(held) + 1) for combo in combinations(held, size))
