"""Whether an action is allowed now: the one statement of a hand's legality.

``verify`` checks an action against the house rules and the hand's state,
and raises an ``IllegalAction`` naming the rule (a code and a sentence a
player can read); ``can`` asks the same question without the sentence. Both
only read the hand (``referee.rules.hand`` applies what they allow); what
the tablet offers is ``referee.rules.offers``, which asks them.

The referee works with cards it has not seen: a card played from a hand is
a card it is known to hold, or one of its unknown slots if the card has
not been seen anywhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .actions import Action, CountedShow, parse_action
from .cards import UNKNOWN, sort_cards
from .ending import Claim
from .errors import IllegalAction, RefereeError, RuleViolation
from .phases import DECLARED, OVER, PLAY, SHOWDOWN, START, VOID
from .spreads import Spread, holds_spread, is_book, is_run, is_spread
from .words import N_, Np_, Words

HIT_LIMIT = Np_("{player} may hit only {limit} time a turn",
                "{player} may hit only {limit} times a turn", "limit")
CANNOT_COUNT = Np_("{player}'s {n} card cannot count {count}: it counts {low}",
                   "{player}'s {n} cards cannot count {count}: they count {low}")
CANNOT_COUNT_RANGE = Np_("{player}'s {n} card cannot count {count}: it counts {low} to {high}",
                         "{player}'s {n} cards cannot count {count}: they count {low} to "
                         "{high}")
HOLDS = Np_("{player} holds {n} card but {what} lists {listed}",
            "{player} holds {n} cards but {what} lists {listed}")

if TYPE_CHECKING:
    from .hand import Hand

# Verbs not bound to the turn: checked whoever is to act.
_ANY_TURN = frozenset(("declare", "slap", "show"))

# Where a card was seen: a template and its player (and spread), made into
# words only for a refusal (a tuple costs a replay no more than the text did).
Seen = tuple[str, ...] | tuple[str, str, int]
# The templates, each said once for the hand that records a sighting and the
# check that refuses a second one.
DEALT_TO = N_("dealt to {player}")
DRAWN_BY = N_("drawn by {player}")
TAKEN_BY = N_("taken by {player}")
SPREAD_BY = N_("spread by {player} in S{spread}")
HIT_BY = N_("hit on S{spread} by {player}")
DISCARDED_BY = N_("discarded by {player}")
DECLARED_BY = N_("declared by {player}")
SHOWN_BY = N_("shown by {player}")

#: A show refused while the play goes on (a page then says when hands are shown).
SHOW_TOO_EARLY = "show_too_early"


class _ToPick(tuple[str, ...]):
    __slots__ = ()

    def __repr__(self) -> str:
        return "TO_PICK"


#: The cards of an action the player is still to pick (the tablet offers the
#: verb, then the player picks the cards): ``verify`` judges such an action on
#: everything up to its cards (whose turn, the phase, the verb's own limits),
#: and stops where its cards would be judged. ``referee.rules.offers`` asks so
#: which verbs are open. Told apart from any logged action by identity.
TO_PICK: tuple[str, ...] = _ToPick()


def _seen(where: Seen) -> Words:
    template, *who = where
    return Words(template, **dict(zip(("player", "spread")[:len(who)], who, strict=True)))


def _illegal(code: str, template: str, params: dict[str, object] | None = None
             ) -> IllegalAction:
    return IllegalAction(code, template, params)


def can(hand: Hand, action: Action | str) -> bool:
    try:
        verify(hand, action)
    except RefereeError:
        return False
    return True


def verify(hand: Hand, action: Action | str) -> Action:
    """Check ``action`` against the rules; raise ``IllegalAction`` if refused.

    Returns the parsed action. Never changes the state.
    """
    if isinstance(action, str):
        action = parse_action(action)
    p = action.player
    if p not in hand.held:  # keyed by the seated players
        raise _illegal("not_seated", N_("{player} is not seated in this hand"),
                                     {"player": p})
    verb = action.verb
    phase = hand.phase
    # The turn's own actions in play, by table (one check per phase and verb).
    if (phase is START or phase is PLAY) and verb not in _ANY_TURN:
        if p != hand.players[hand.turn]:
            raise _illegal("out_of_turn", N_("it is {turn}'s turn, not {player}'s"),
                                          {"turn": hand.players[hand.turn], "player": p})
        if phase is START:
            _START_CHECKS[verb](hand, action)
        else:
            _PLAY_CHECKS[verb](hand, action)
        return action
    if phase is OVER:
        raise _illegal("hand_over", N_("the hand is over; start the next hand"))
    if phase is VOID:
        raise _illegal("hand_over", N_("the hand is void; the same dealer deals again"))
    if verb == "declare":
        _verify_declare(hand, action)
    elif verb == "slap":
        _verify_slap(hand, action)
    elif verb == "show":
        _verify_show(hand, action)
    elif phase is DECLARED:
        raise _illegal(
            "hand_over",
            N_("a deal win was declared, so the hand is not played; the losers show their "
               "hands") if hand.must_show else
            N_("a deal win was declared, so the hand is not played"),
        )
    elif phase is SHOWDOWN:
        raise _illegal("hand_over", N_("the play has ended; every player with cards shows "
                                       "them"))
    else:  # EXTRA_DISCARD
        if p != hand.extra_by:
            raise _illegal("out_of_turn", N_("{player} slapped and must discard one extra "
                                             "card first"), {"player": hand.extra_by})
        if verb != "discard":
            raise _illegal("must_discard", N_("{player} slapped and must now discard one "
                                              "extra card"), {"player": p})
        _verify_discard(hand, action)
    return action


def _must_draw_first(hand: Hand, action: Action) -> None:
    raise _illegal("must_draw_first", N_("{player} must draw or take before they {verb}"),
                                      {"player": action.player, "verb": action.verb})


def _already_drew(hand: Hand, action: Action) -> None:
    if action.verb == "drop":
        raise _illegal("drop_after_draw", N_("{player} has drawn already; a drop is only "
                                             "allowed at the start of a turn"),
                                          {"player": action.player})
    raise _illegal("already_drew", N_("{player} has already drawn or taken this turn"),
                                   {"player": action.player})


# The start of a turn: drop, draw or take (one check each, by verify's table).


def _verify_drop(hand: Hand, action: Action) -> None:
    if not hand.play_started:
        _verify_no_undeclared_claim(hand)
    p = action.player
    if hand.wait[p]:
        w = hand.wait[p]
        raise _illegal("drop_while_waiting", N_(
            "{player} may not drop: {player} must wait {turns} more turn (this one "
            "included)") if w == 1 else N_(
            "{player} may not drop: {player} must wait {turns} more turns (this one "
            "included)"), {"player": p, "turns": w})


def _verify_draw(hand: Hand, action: Action) -> None:
    if not hand.play_started:
        _verify_no_undeclared_claim(hand)
    if action.cards and action.cards[0] != UNKNOWN:
        if hand.stock == 0:
            raise _illegal("stock_empty", N_("the stock is empty: a draw now ends the "
                                             "play (log it without a card)"))
        card = action.cards[0]
        if card not in hand.deck.cards or card in hand.seen:  # only then word it
            check_new(hand, card, (DRAWN_BY, action.player))


def _verify_take(hand: Hand, action: Action) -> None:
    if not hand.play_started:
        _verify_no_undeclared_claim(hand)
    p = action.player
    if not hand.pile:
        raise _illegal("empty_discard_pile", N_("the discard pile is empty: draw from the "
                                                "stock"))
    card = action.card
    top = hand.pile[-1]
    if card is not None and card != UNKNOWN and card != top:
        if hand.rules.pickup_depth == 2 and len(hand.pile) > 1:
            second = hand.pile[-2]
            if card == second:
                return
            if top != UNKNOWN:
                if second == UNKNOWN:  # the second card, not known till now
                    check_new(hand, card, (TAKEN_BY, p))
                    return
                raise _illegal("take_mismatch", N_("the top two cards of the discard pile "
                                                   "are {top} and {second}, not {card}"),
                               {"top": top, "second": second, "card": card})
        if top == UNKNOWN:
            check_new(hand, card, (TAKEN_BY, p))
        else:
            raise _illegal("take_mismatch", N_("the top of the discard pile is {top}, not "
                                               "{card}"), {"top": top, "card": card})


def taken_from(hand: Hand, card: str | None) -> int:
    """Where in the discard pile a take takes its card: the top (-1), or under
    ``pickup_depth`` 2 the card below it (-2) when the take names that card,
    or names a card the top is known not to be while the second is unknown
    (``verify`` has judged the take)."""
    pile = hand.pile
    if card is None or card == UNKNOWN or card == pile[-1] or len(pile) < 2:
        return -1
    second = pile[-2]
    return -2 if card == second or second == UNKNOWN and pile[-1] != UNKNOWN else -1


def _verify_no_undeclared_claim(hand: Hand, besides: str | None = None) -> None:
    if hand.rules.deal_win_declare != "must" or hand.play_started and besides:
        return
    values, possible = hand.deck.values, hand.rules.deal_win_counts
    for q in hand.players:
        if hand.unknown[q] or q == besides:
            continue
        if possible is not None:  # most dealt hands are ruled out by their count
            count = 0
            for card in hand.held[q]:
                count += values[card]
            if count not in possible:
                continue
        best = best_claim(hand, hand.held[q], first_turn=False)
        if best is not None:
            raise _illegal(
                "undeclared_deal_win",
                N_("{player} was dealt {count} ({cards}), a deal win ({claim}), and must "
                   "declare it before play starts"),
                {"player": q, "count": hand.deck.count(hand.held[q]),
                 "cards": ' '.join(hand.held[q]), "claim": best.claim.describe()},
            )


def _cards_from_hand(hand: Hand, player: str, cards: Iterable[str]) -> None:
    """Check that ``player`` can play ``cards`` (distinct cards the hand holds,
    or unseen cards for its unknown slots)."""
    held = hand.held[player]
    slots = hand.unknown[player]
    used: set[str] = set()
    for card in cards:
        if card in used:
            raise _illegal("duplicate_card", N_("{card} is named twice"), {"card": card})
        used.add(card)
        if card in held:
            continue
        if card not in hand.deck.cards:
            raise _illegal("card_not_in_deck", N_("{card} is not in this {deck}-card deck"),
                                               {"card": card, "deck": hand.deck.size})
        if card in hand.seen:
            raise _illegal("duplicate_card", N_("{card} cannot be in {player}'s hand: it "
                                                "was already seen ({seen})"),
                                             {"card": card, "player": player,
                                              "seen": _seen(hand.seen[card])})
        if slots == 0:
            raise _illegal("card_not_in_hand", N_("{player} does not hold {card} (their "
                                                  "hand is {held})"),
                           {"player": player, "card": card,
                            "held": " ".join(sort_cards(held)) or Words(N_("empty"))})
        slots -= 1


def _card_from_hand(hand: Hand, player: str, card: str) -> None:
    """``_cards_from_hand`` for one card (a hit, a discard): a card the hand
    is known to hold needs no other check."""
    if card not in hand.held[player]:
        _cards_from_hand(hand, player, (card,))


def check_new(hand: Hand, card: str, what: Seen, code: str = "duplicate_card") -> None:
    if card not in hand.deck.cards:
        raise RuleViolation("card_not_in_deck",
                            N_("{card} is not in this {deck}-card deck"),
                            {"card": card, "deck": hand.deck.size})
    if card in hand.seen:
        raise RuleViolation(code, N_("{card} cannot be {what}: it was already seen "
                                     "({seen})"),
                                  {"card": card, "what": _seen(what),
                                   "seen": _seen(hand.seen[card])})


def _verify_spread(hand: Hand, action: Action) -> None:
    p, cards = action.player, action.cards
    if cards is TO_PICK:
        return
    _cards_from_hand(hand, p, cards)
    if not is_spread(cards, hand.deck):
        raise _illegal("invalid_spread", N_("{cards} is neither a book (3 or 4 of a rank) "
                                            "nor a run (3 or more in sequence of one "
                                            "suit, the ace low or high but not both: "
                                            "K-A-2 is no run)") if hand.deck.ace_high else
                       N_("{cards} is neither a book (3 or 4 of a rank) "
                          "nor a run (3 or more in sequence of one "
                          "suit, ace low)"), {"cards": ' '.join(cards)})
    if len(cards) == hand.card_count(p):
        _verify_going_out(hand, p)


def _verify_hit(hand: Hand, action: Action) -> None:
    p, k = action.player, action.spread
    assert k is not None  # parse_action reads a hit's spread, or refuses it
    rules = hand.rules
    if k > len(hand.spreads):
        raise _illegal("no_such_spread", N_("there is no spread S{spread} on the table "
                                            "({spreads} so far)"),
                                         {"spread": k, "spreads": len(hand.spreads)})
    if rules.max_hits_per_turn is not None and hand.this_turn.hits >= rules.max_hits_per_turn:
        limit = rules.max_hits_per_turn
        raise _illegal("hit_limit", HIT_LIMIT.pick(limit),
                       {"player": p, "limit": limit})
    if action.cards is TO_PICK:
        return
    card = action.cards[0]
    _card_from_hand(hand, p, card)
    spread = hand.spreads[k - 1]
    if not extends(hand, spread, card):
        raise _illegal("illegal_hit", N_("{card} does not extend S{spread} ({cards})"),
                                      {"card": card, "spread": k, "cards": spread})
    if hand.card_count(p) == 1:
        _verify_going_out(hand, p)
    elif rules.hit_replaces_discard and rules.checks_turn_end:
        _verify_turn_end(hand, p, leaving=[card], melded_now=[card])


def extends(hand: Hand, spread: Spread, card: str) -> bool:
    cards = spread.cards + [card]
    if is_run(cards, hand.deck):
        return True
    return hand.rules.book_extendable and is_book(cards, hand.deck)


def _verify_discard(hand: Hand, action: Action) -> None:
    if action.cards is TO_PICK:
        return
    p, card = action.player, action.cards[0]
    held = hand.held[p]
    if card not in held:
        _cards_from_hand(hand, p, (card,))
    if len(held) + hand.unknown[p] == 1:  # the discard empties the hand
        _verify_going_out(hand, p)
    if hand.phase is PLAY and hand.rules.checks_turn_end:
        _verify_turn_end(hand, p, leaving=[card], melded_now=[])


def _verify_turn_end(hand: Hand, p: str, *, leaving: list[str], melded_now: list[str]) -> None:
    """What must hold when a turn ends with ``leaving`` gone from the hand
    (called only when ``rules.checks_turn_end``)."""
    rules = hand.rules
    taken = hand.this_turn.taken
    if rules.take_must_meld and taken not in (None, UNKNOWN) and \
            taken not in hand.this_turn.melded and taken not in melded_now:
        raise _illegal("take_not_melded", N_("{player} took {card} from the discard pile "
                                             "and must spread or hit with it this turn"),
                                          {"player": p, "card": taken})
    if rules.must_spread != "never":
        rest = list(hand.held[p])
        for c in leaving:
            if c in rest:
                rest.remove(c)
        if holds_spread(rest, hand.deck, aces_exempt=rules.must_spread == "except_aces"):
            raise _illegal("held_spread", N_("{player} may not end the turn holding a "
                                             "spread ({cards}): spreads must be laid down"),
                                          {"player": p, "cards": ' '.join(sort_cards(rest))})


def _verify_going_out(hand: Hand, p: str) -> None:
    if hand.this_turn.out_blocked and hand.phase is PLAY:
        raise _illegal("going_out_blocked", N_("{player} was hit since their last turn "
                                               "and may not go out this turn"),
                                            {"player": p})


def _verify_slap(hand: Hand, action: Action) -> None:
    k = action.spread
    assert k is not None  # parse_action reads a slap's spread, or refuses it
    if hand.rules.slapping == "off":
        raise _illegal("slap_not_allowed", N_("these rules do not allow slapping"))
    if not hand.slap_open:
        raise _illegal("slap_too_late", N_("only a discard may be slapped, before the "
                                           "next player draws or takes"))
    if k > len(hand.spreads):
        raise _illegal("no_such_spread", N_("there is no spread S{spread} on the table"),
                                         {"spread": k})
    card = hand.pile[-1]
    if not extends(hand, hand.spreads[k - 1], card):
        raise _illegal("illegal_slap", N_("{card} does not extend S{spread} ({cards})"),
                                       {"card": card, "spread": k,
                                        "cards": hand.spreads[k - 1]})


def _verify_show(hand: Hand, action: Action) -> None:
    p = action.player
    if p in hand.shown:
        raise _illegal("already_shown", N_("{player} has already shown their hand"),
                                        {"player": p})
    if hand.phase not in (SHOWDOWN, DECLARED) or (
        hand.phase is DECLARED and p not in hand.must_show
    ):
        if hand.phase is DECLARED:
            raise _illegal("show_not_needed", N_("{player} need not show: only the losers "
                                                 "show after a deal win in push-up scoring"),
                                              {"player": p})
        raise _illegal(SHOW_TOO_EARLY, N_("hands are shown only when the play has ended "
                                            "(after a drop or when the stock runs out)"))
    if p not in hand.must_show and hand.card_count(p):
        raise _illegal("show_not_needed", N_("{player} need not show"), {"player": p})
    if action.cards is TO_PICK:
        return
    if type(action) is CountedShow:
        _verify_count(hand, p, action.count)
        return  # no cards to judge: must_spread is never judged on a count
    held, cards = hand.held[p], action.cards
    if hand.unknown[p] or len(cards) != len(held) or not all(map(cards.__contains__, held)):
        # Words the fault (or checks new cards).
        verify_reveal(hand, p, cards, THE_SHOW)
    _verify_no_spread_held(hand, action)


def _verify_no_spread_held(hand: Hand, action: Action) -> None:
    # A shown hand is the hand as its last turn ended (nothing enters a hand
    # between turns), so it breaks must_spread only for a player who has
    # ended a turn; the check catches a spread hidden among cards the
    # referee did not know then. A player dealt a spread who never had a
    # turn to lay it down (or dropped at the start of the first) broke nothing.
    p = action.player
    must_spread = hand.rules.must_spread
    if must_spread == "never":
        return
    ended = hand.turns[p]
    if hand.play_ended is not None and hand.play_ended[1] == p:
        ended -= 1  # the turn that ended the play did not end
    if ended > 0 and holds_spread(action.cards, hand.deck,
                                  aces_exempt=must_spread == "except_aces"):
        raise _illegal("held_spread", N_("{player}'s hand holds a spread ({cards}), which "
                                         "the rules say must be laid down"),
                                      {"player": p, "cards": ' '.join(action.cards)})


def _verify_count(hand: Hand, p: str, count: int) -> None:
    low, high = hand.count_range(p)
    if not low <= count <= high:
        raise impossible_count(p, hand.card_count(p), count, low, high)


def impossible_count(p: str, n: int, count: object, low: int, high: int) -> IllegalAction:
    """The refusal of ``p``'s count ``count`` for a hand of ``n`` cards that
    counts ``low`` to ``high`` (the tablet's pad says it before a tap too)."""
    # A range of one number (every card known) is said as that count.
    sentence = (CANNOT_COUNT if low == high else CANNOT_COUNT_RANGE).pick(n)
    return _illegal("impossible_count", sentence,
                    {"player": p, "n": n, "count": count, "low": low, "high": high})


#: What a show of all of a hand's cards is called, by the engine's refusals.
THE_SHOW = Words(N_("the show"))


def wrong_count(p: str, n: int, what: Words, listed: int) -> IllegalAction:
    """The refusal of ``what`` (a show, a declaration) that lists ``listed``
    cards of ``p``'s ``n`` (a page offline says it too: ``web.forward``)."""
    return _illegal("wrong_show", HOLDS.pick(n),
                    {"player": p, "n": n, "what": what, "listed": listed})


def verify_reveal(hand: Hand, p: str, cards: tuple[str, ...], what: Words) -> None:
    held = hand.held[p]
    n = len(held) + hand.unknown[p]
    if len(cards) != n:
        raise wrong_count(p, n, what, len(cards))
    for card in held:
        if card not in cards:
            missing = [c for c in held if c not in cards]
            raise _illegal("wrong_show", N_("{player}'s hand holds {cards}, which {what} "
                                            "leaves out"),
                                         {"player": p, "cards": ' '.join(missing),
                                          "what": what})
    if hand.unknown[p]:
        # Only cards for unknown slots need checking: a fully known hand's
        # n cards, all listed among n, are exactly the cards listed.
        _cards_from_hand(hand, p, cards)


def _verify_declare(hand: Hand, action: Action) -> None:
    p = action.player
    if hand.phase not in (START, DECLARED) or hand.phase is START and hand.this_turn.started:
        raise _illegal("declare_too_late", N_("deal wins are declared before play starts"))
    if any(c.player == p for c in hand.claims):
        raise _illegal("already_declared", N_("{player} has already declared"),
                                           {"player": p})
    if hand.shown:
        raise _illegal("declare_too_late", N_("the losers have begun to show; no more "
                                              "claims"))
    first_turn = hand.play_started
    if first_turn:
        if not any(c.timing for c in hand.rules.deal_wins):
            raise _illegal("declare_too_late", N_("deal wins are declared before play "
                                                  "starts"))
        if p != hand.players[hand.turn] or hand.turns[p]:
            raise _illegal("declare_too_late", N_("the play has started: only a "
                                                  "first-turn claim may be made, by the "
                                                  "player to act at the start of their "
                                                  "first turn"))
        if hand.spreads:
            raise _illegal("declare_too_late", N_("a first-turn claim may only be made "
                                                  "while no spread is on the table"))
    if action.cards is TO_PICK:
        return
    verify_reveal(hand, p, action.cards, Words(N_("the declaration")))
    claim = eligible_claim(hand, p, action.cards)
    if claim is None:
        total = hand.deck.count(action.cards)
        raise _illegal("false_declaration", N_(
            "{player}'s hand {cards} counts {total} and wins nothing on the deal under "
            "these rules at this moment") if hand.rules.deal_wins else N_(
            "{player}'s hand {cards} counts {total} and wins nothing on the deal under "
            "these rules"), {"player": p, "cards": " ".join(action.cards), "total": total})
    if claim.claim.timing:
        # A first-turn claim ends the hand at once: claims held before play
        # must have been declared already.
        _verify_no_undeclared_claim(hand, besides=p)


def best_claim(hand: Hand, cards: Sequence[str], *, first_turn: bool | None) -> Claim | None:
    """The best claim ``cards`` hold; ``first_turn``: None for any timing,
    False for claims made before play, True for first-turn claims."""
    rules = hand.rules
    if not rules.deal_wins:
        return None
    count = hand.deck.count(cards)  # once, for every claim
    possible = rules.deal_win_counts
    if possible is not None and count not in possible:
        return None
    for rank, claim in enumerate(rules.deal_wins):
        if first_turn is not None and bool(claim.timing) != first_turn:
            continue
        if claim.holds(cards, hand.deck, rules.hand_size, count):
            return Claim("", claim, rank, count)
    return None


def eligible_claim(hand: Hand, p: str, cards: Sequence[str]) -> Claim | None:
    if hand.play_started:
        timing = True
    elif hand.phase is START and p == hand.players[hand.turn]:
        timing = None  # the first player's first turn is about to start
    else:
        timing = False
    best = best_claim(hand, cards, first_turn=timing)
    return None if best is None else Claim(p, best.claim, best.rank, best.count)


# What ``verify`` checks for the player to act, by phase and verb: one
# look-up instead of a chain of comparisons on every action.
_START_CHECKS = {
    "drop": _verify_drop, "draw": _verify_draw, "take": _verify_take,
    "spread": _must_draw_first, "hit": _must_draw_first, "discard": _must_draw_first,
}
_PLAY_CHECKS = {
    "drop": _already_drew, "draw": _already_drew, "take": _already_drew,
    "spread": _verify_spread, "hit": _verify_hit, "discard": _verify_discard,
}
