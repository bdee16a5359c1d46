"""What the referee offers now: the actions and verbs a tablet shows.

Legality is ``referee.rules.legality``'s; this module only proposes
candidates and keeps those ``can`` accepts.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from .actions import Action
from .cards import UNKNOWN
from .legality import can, extends
from .phases import DECLARED, EXTRA_DISCARD, OVER, PLAY, SHOWDOWN, START, START_VERBS, VOID
from .spreads import is_spread

if TYPE_CHECKING:
    from .hand import Hand


def _take_is_usable(hand: Hand, p: str) -> bool:
    """Under ``take_must_meld``, whether the top discard could be used by
    ``p`` this turn. A take that cannot is still a fact the log may record
    (it is refused when the turn ends), but it is not offered: it would
    leave the player no legal way to end the turn but an undo."""
    top = hand.pile[-1] if hand.pile else UNKNOWN
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


def legal_actions(hand: Hand) -> list[Action]:
    """Every concrete action the referee would accept now, as far as the
    known cards allow (a hand with unknown cards may also play cards the
    referee cannot list). A draw is offered without a card."""
    out: list[Action] = []
    phase = hand.phase
    if phase == OVER or phase == VOID:
        return out
    candidates: list[Action] = []
    for q in hand.players:
        if not hand.unknown[q] and not any(c.player == q for c in hand.claims):
            candidates.append(Action(q, "declare", tuple(hand.held[q])))
    if phase in (SHOWDOWN, DECLARED):
        for q in sorted(hand.must_show, key=hand.players.index):
            if not hand.unknown[q]:
                candidates.append(Action(q, "show", tuple(hand.held[q])))
    p = hand.to_act
    if phase == START:
        candidates += [Action(p, v) for v in START_VERBS
                       if v != "take" or _take_is_usable(hand, p)]
        if hand.slap_open:
            for q in hand.players:
                for s in hand.spreads:
                    candidates.append(Action(q, "slap", (), s.number))
    elif phase == EXTRA_DISCARD:
        candidates += [Action(p, "discard", (c,)) for c in hand.held[p]]
    elif phase == PLAY:
        held = hand.held[p]
        melds: list[Action] = []
        for size in range(3, len(held) + 1):
            for combo in combinations(held, size):
                melds.append(Action(p, "spread", combo))
        for s in hand.spreads:
            melds += [Action(p, "hit", (c,), s.number) for c in held]
        taken = hand.this_turn.taken
        if (hand.rules.take_must_meld and taken not in (None, UNKNOWN)
                and taken not in hand.this_turn.melded):
            # Until the taken card is used, only melds that use it are
            # offered: another could leave it unusable, and the turn stuck.
            melds = [a for a in melds if taken in a.cards]
        if hand.this_turn.out_blocked:
            # Not allowed to go out this turn: a meld leaving one card would
            # leave only the discard that empties the hand.
            left = hand.card_count(p)
            melds = [a for a in melds if left - len(a.cards) != 1]
        candidates += melds
        candidates += [Action(p, "discard", (c,)) for c in held]
    for action in candidates:
        if can(hand, action):
            out.append(action)
    return out


def verbs(hand: Hand) -> dict[str, list[str]]:
    """For each player who may act now, the kinds of action open to them
    (ignoring which cards: the tablet picks those). What the tablet shows."""
    out: dict[str, list[str]] = {}
    phase = hand.phase
    if phase == OVER or phase == VOID:
        return out

    def add(q: str, verb: str) -> None:
        out.setdefault(q, [])
        if verb not in out[q]:
            out[q].append(verb)

    if phase in (SHOWDOWN, DECLARED):
        for q in hand.players:
            if q in hand.must_show:
                add(q, "show")
    if phase == DECLARED or phase == START and not hand.this_turn.started:
        for q in hand.players:
            if any(c.player == q for c in hand.claims) or hand.shown:
                continue
            if hand.play_started and (q != hand.to_act or hand.turns[q] or hand.spreads):
                continue
            if hand.unknown[q]:
                if _any_claim_possible(hand, q):
                    add(q, "declare")
            elif can(hand, Action(q, "declare", tuple(hand.held[q]))):
                add(q, "declare")
    p = hand.to_act
    if phase == START:
        for v in START_VERBS:
            if can(hand, Action(p, v)) and (v != "take" or _take_is_usable(hand, p)):
                add(p, v)
        if hand.slap_open:
            for q in hand.players:
                if any(can(hand, Action(q, "slap", (), s.number)) for s in hand.spreads):
                    add(q, "slap")
    elif phase == EXTRA_DISCARD:
        add(p, "discard")
    elif phase == PLAY:
        if hand.card_count(p) >= 3:
            add(p, "spread")
        if hand.spreads and (hand.rules.max_hits_per_turn is None
                             or hand.this_turn.hits < hand.rules.max_hits_per_turn):
            add(p, "hit")
        add(p, "discard")
    return out


def _any_claim_possible(hand: Hand, q: str) -> bool:
    if not hand.rules.deal_wins:
        return False
    if hand.play_started:
        return any(c.timing for c in hand.rules.deal_wins)
    return True
