"""One hand of Tonk as a state machine.

Like pokerkit's state: every action is checked by one ``verify`` (which
raises an ``IllegalAction`` naming the rule), asked by ``can``, applied by
``apply``; ``actions`` is the append-only list of what was applied, and a
refused action leaves the state exactly as it was.

The referee tracks every card it has seen and works with cards it has not:
a hand may hold unknown cards (``??``); a card played from it is a known
card it holds, or else one of its unknown slots, provided the card has not
been seen anywhere else. A fully logged table is refereed completely, a table
that logs only public actions as far as the facts allow.

Every step costs the same however long the hand is: nothing rescans the
history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from itertools import combinations

from .actions import Action, parse_action
from .cards import UNKNOWN, sort_cards
from .ending import (
    DEAL_WIN,
    DROP,
    OUT,
    STOCK_OUT,
    THROWN_IN,
    TONK_OUT,
    Claim,
    Ending,
)
from .errors import IllegalAction, RefereeError, RuleViolation
from .options import HouseRules
from .spreads import holds_spread, is_book, is_run, is_spread
from .words import N_, Words


class Phase(StrEnum):
    START = "start"  # the player to act may drop, draw or take (and, before play, claims)
    PLAY = "play"  # after drawing or taking: spread, hit, discard
    EXTRA_DISCARD = "extra_discard"  # a slapper owes one extra discard
    DECLARED = "declared"  # a deal win was declared: the hand is not played
    SHOWDOWN = "showdown"  # the play ended: players show their hands
    OVER = "over"
    VOID = "void"  # the table cancelled the hand (referee.rules.events): no result


START, PLAY, EXTRA_DISCARD, DECLARED, SHOWDOWN, OVER, VOID = Phase

START_VERBS = ("drop", "draw", "take")
# Verbs not bound to the turn: checked whoever is to act.
_ANY_TURN = frozenset(("declare", "slap", "show"))
ONE = Decimal(1)


# Where a card was seen: a template and its player (and spread), made into
# words only for a refusal (a tuple costs a replay no more than the text did).
Seen = tuple
_UPCARD = (N_("the upcard"),)


def _seen(where: Seen) -> Words:
    template, *who = where
    return Words(template, **dict(zip(("player", "spread")[:len(who)], who, strict=True)))


def _illegal(code: str, template: str, params: dict | None = None) -> IllegalAction:
    return IllegalAction(code, template, params)


class Spread:
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

    __hash__ = None  # mutable


@dataclass(slots=True)
class TurnState:
    """What the current turn has done so far (a new one when a turn passes)."""

    started: bool = False
    taken: str | None = None  # the card taken from the discard pile
    hits: int = 0
    spreads: int = 0
    melded: tuple[str, ...] = ()  # spread or hit with this turn
    out_blocked: bool = False  # hit by another since their last turn (hit_blocks_going_out)


@lru_cache(maxsize=1000)
def _per_player(players: tuple[str, ...], size: int) -> tuple[dict, dict, dict]:
    """Templates (copied, never changed) of every player at 0, at False, and
    at ``size``: a session keeps the same seats for long."""
    return dict.fromkeys(players, 0), dict.fromkeys(players, False), dict.fromkeys(players, size)


class Hand:
    """The state of one hand, from the deal to the last show."""

    def __init__(
        self,
        rules: HouseRules,
        players: Sequence[str],
        dealer: str,
        *,
        deal: Mapping[str, Sequence[str]] | None = None,
        upcard: str | None = None,
        number: int = 1,
    ) -> None:
        self.rules = rules
        self.deck = rules.deck_info
        self.number = number
        self.players: tuple[str, ...] = tuple(players)
        self.dealer = dealer
        n = len(self.players)
        if n < 2:
            raise RuleViolation("too_few_players", N_("a hand needs at least 2 players"))
        if len(set(self.players)) != n:
            raise RuleViolation("bad_seating", N_("a player cannot sit twice at the table"))
        if dealer not in self.players:
            raise RuleViolation("wrong_dealer", N_("the dealer {dealer} is not seated in this "
                                                   "hand"), {"dealer": dealer})
        size = rules.hand_size
        stock = self.deck.size - n * size - (1 if rules.upcard else 0)
        if stock < 0:
            raise RuleViolation(
                "too_many_players",
                N_("{n} players cannot be dealt {size} cards each from a {deck}-card deck"),
                {"n": n, "size": size, "deck": self.deck.size},
            )
        self.stock = stock
        # Where each seen card was seen, for the sentence that refuses a second sighting.
        self.seen: dict[str, Seen] = {}  # each card's first sighting
        self.held: dict[str, list[str]] = {p: [] for p in self.players}
        zeros, falses, sizes = _per_player(self.players, size)
        self.unknown: dict[str, int] = sizes.copy()
        if deal:
            # One pass over the dealt cards; _check_new only words the refusal.
            seen, deck_cards = self.seen, self.deck.cards
            for p, cards in deal.items():
                if p not in self.held:
                    raise RuleViolation("bad_deal", N_("the deal names {player}, who is not "
                                                       "seated"), {"player": p})
                if len(cards) != size:
                    raise RuleViolation(
                        "bad_deal", N_("{player} is dealt {listed} cards; the rules deal "
                                       "{size}"),
                                    {"player": p, "listed": len(cards), "size": size}
                    )
                where = (N_("dealt to {player}"), p)
                if UNKNOWN in cards:  # a partly known hand
                    mine = [card for card in cards if card != UNKNOWN]
                    self.unknown[p] = size - len(mine)
                else:
                    mine = list(cards)
                    self.unknown[p] = 0
                for card in mine:
                    if card not in deck_cards or card in seen:
                        self._check_new(card, where, code="bad_deal")
                    seen[card] = where
                self.held[p] = mine
        self.pile: list[str] = []
        if rules.upcard:
            card = UNKNOWN if upcard is None else upcard
            if card != UNKNOWN:
                if card not in self.deck.cards or card in self.seen:  # only then word it
                    self._check_new(card, _UPCARD, code="bad_upcard")
                self.seen[card] = _UPCARD
            self.pile.append(card)
        elif upcard is not None:
            raise RuleViolation(
                "bad_upcard", N_("these rules turn no upcard, but the hand names one")
            )
        self.spreads: list[Spread] = []
        self.wait = zeros.copy()
        self.hit_since = falses.copy()  # hit by another since their turn
        self.has_hit = falses.copy()
        self.turns = zeros.copy()  # turns begun
        self.shown: dict[str, tuple[str, ...]] = {}
        # Shows given as a count (quick logging): the count stands for cards
        # that stay unknown.
        self.counted: dict[str, int] = {}
        # Set when the hand was told by its ending, not played (referee.rules.told).
        self.told = None
        self.claims: list[Claim] = []
        self.actions: list[Action] = []
        self.phase: Phase = START
        self.play_started = False
        self.turn = (self.players.index(dealer) + 1) % n
        self.this_turn = TurnState()
        self.slap_open = False  # the top discard may be slapped
        self.discarder: str | None = None
        self.extra_by: str | None = None
        self.ender: str | None = None  # who dropped, or drew from the empty stock
        self.play_kind: str | None = None  # how the play ended (DROP or STOCK_OUT)
        self.must_show: set[str] = set()
        self.ending: Ending | None = None

    # ------------------------------------------------------------ queries

    @property
    def to_act(self) -> str | None:
        """The player whose turn it is (``None`` once the play is over)."""
        if self.phase in (START, PLAY):
            return self.players[self.turn]
        if self.phase == EXTRA_DISCARD:
            return self.extra_by
        return None

    @property
    def is_complete(self) -> bool:
        """The hand's result is settled (a declared deal win may still be
        joined by other claims until the next hand starts)."""
        return self.phase == OVER or (self.phase == DECLARED and not self.must_show)

    @property
    def top(self) -> str | None:
        return self.pile[-1] if self.pile else None

    def card_count(self, player: str) -> int:
        return len(self.held[player]) + self.unknown[player]

    def count(self, player: str) -> int | None:
        """The count of a player's hand, if every card in it is known."""
        if self.unknown[player]:
            return self.counted.get(player)
        return self.deck.count(self.held[player])

    def counts(self) -> dict[str, int | None]:
        """``count`` of every player, in seat order (summed here, not by
        ``count``: every ending asks, and the calls cost a replay 2%)."""
        values, held, unknown = self.deck.values, self.held, self.unknown
        out: dict[str, int | None] = {}
        for q in self.players:
            if unknown[q]:
                out[q] = self.counted.get(q)
            else:
                total = 0
                for card in held[q]:
                    total += values[card]
                out[q] = total
        return out

    def waiting(self, player: str) -> int:
        """Turns this player must still start without the right to drop."""
        return self.wait[player]

    def spread_owner(self, k: int) -> str:
        return self.spreads[k - 1].owner

    # ------------------------------------------------------------ verify

    def can(self, action: Action | str) -> bool:
        try:
            self.verify(action)
        except RefereeError:
            return False
        return True

    def verify(self, action: Action | str) -> Action:
        """Check ``action`` against the rules; raise ``IllegalAction`` if refused.

        Returns the parsed action. Never changes the state.
        """
        if isinstance(action, str):
            action = parse_action(action)
        p = action.player
        if p not in self.held:  # keyed by the seated players
            raise _illegal("not_seated", N_("{player} is not seated in this hand"),
                                         {"player": p})
        verb = action.verb
        phase = self.phase
        # The turn's own actions in play, by table (one check per phase and verb).
        if (phase == START or phase == PLAY) and verb not in _ANY_TURN:
            if p != self.players[self.turn]:
                raise _illegal("out_of_turn", N_("it is {turn}'s turn, not {player}'s"),
                                              {"turn": self.players[self.turn], "player": p})
            if phase == START:
                _START_CHECKS[verb](self, action)
            else:
                _PLAY_CHECKS[verb](self, action)
            return action
        if phase == OVER:
            raise _illegal("hand_over", N_("the hand is over; start the next hand"))
        if phase == VOID:
            raise _illegal("hand_over", N_("the hand is void; the same dealer deals again"))
        if verb == "declare":
            self._verify_declare(action)
        elif verb == "slap":
            self._verify_slap(action)
        elif verb == "show":
            self._verify_show(action)
        elif phase == DECLARED:
            raise _illegal(
                "hand_over",
                N_("a deal win was declared, so the hand is not played; the losers show their "
                   "hands") if self.must_show else
                N_("a deal win was declared, so the hand is not played"),
            )
        elif phase == SHOWDOWN:
            raise _illegal("hand_over", N_("the play has ended; every player with cards shows "
                                           "them"))
        else:  # EXTRA_DISCARD
            if p != self.extra_by:
                raise _illegal("out_of_turn", N_("{player} slapped and must discard one extra "
                                                 "card first"), {"player": self.extra_by})
            if verb != "discard":
                raise _illegal("must_discard", N_("{player} slapped and must now discard one "
                                                  "extra card"), {"player": p})
            self._verify_discard(action)
        return action

    def _must_draw_first(self, action: Action) -> None:
        raise _illegal("must_draw_first", N_("{player} must draw or take before they {verb}"),
                                          {"player": action.player, "verb": action.verb})

    def _already_drew(self, action: Action) -> None:
        if action.verb == "drop":
            raise _illegal("drop_after_draw", N_("{player} has drawn already; a drop is only "
                                                 "allowed at the start of a turn"),
                                              {"player": action.player})
        raise _illegal("already_drew", N_("{player} has already drawn or taken this turn"),
                                       {"player": action.player})

    # The start of a turn: drop, draw or take (one check each, by verify's table).

    def _verify_drop(self, action: Action) -> None:
        if not self.play_started:
            self._verify_no_undeclared_claim()
        p = action.player
        if self.wait[p]:
            w = self.wait[p]
            raise _illegal("drop_while_waiting", N_(
                "{player} may not drop: {player} must wait {turns} more turn (this one "
                "included)") if w == 1 else N_(
                "{player} may not drop: {player} must wait {turns} more turns (this one "
                "included)"), {"player": p, "turns": w})

    def _verify_draw(self, action: Action) -> None:
        if not self.play_started:
            self._verify_no_undeclared_claim()
        if action.cards and action.cards[0] != UNKNOWN:
            if self.stock == 0:
                raise _illegal("stock_empty", N_("the stock is empty: a draw now ends the "
                                                 "play (log it without a card)"))
            card = action.cards[0]
            if card not in self.deck.cards or card in self.seen:  # only then word it
                self._check_new(card, (N_("drawn by {player}"), action.player))

    def _verify_take(self, action: Action) -> None:
        if not self.play_started:
            self._verify_no_undeclared_claim()
        p = action.player
        if not self.pile:
            raise _illegal("empty_discard_pile", N_("the discard pile is empty: draw from the "
                                                    "stock"))
        card = action.card
        top = self.pile[-1]
        if card is not None and card != UNKNOWN:
            if top == UNKNOWN:
                self._check_new(card, (N_("taken by {player}"), p))
            elif card != top:
                raise _illegal("take_mismatch", N_("the top of the discard pile is {top}, not "
                                                   "{card}"), {"top": top, "card": card})

    def _take_is_usable(self, p: str) -> bool:
        """Under ``take_must_meld``, whether the top discard could be used by
        ``p`` this turn. A take that cannot is still a fact the log may record
        (it is refused when the turn ends), but it is not offered: it would
        leave the player no legal way to end the turn but an undo."""
        top = self.pile[-1] if self.pile else UNKNOWN
        if not self.rules.take_must_meld or top == UNKNOWN or self.unknown[p]:
            return True
        return self._can_meld(p, top)

    def _can_meld(self, p: str, card: str) -> bool:
        """Whether ``card`` could be hit on a spread on the table, or spread with
        some of ``p``'s cards."""
        if any(self._extends(s, card) for s in self.spreads):
            return True
        held = self.held[p]
        return any(is_spread(combo + (card,), self.deck)
                   for size in range(2, len(held) + 1) for combo in combinations(held, size))

    def _verify_no_undeclared_claim(self, besides: str | None = None) -> None:
        if self.rules.deal_win_declare != "must" or self.play_started and besides:
            return
        values, possible = self.deck.values, self.rules.deal_win_counts
        for q in self.players:
            if self.unknown[q] or q == besides:
                continue
            if possible is not None:  # most dealt hands are ruled out by their count
                count = 0
                for card in self.held[q]:
                    count += values[card]
                if count not in possible:
                    continue
            best = self._best_claim(self.held[q], first_turn=False)
            if best is not None:
                raise _illegal(
                    "undeclared_deal_win",
                    N_("{player} was dealt {count} ({cards}), a deal win ({claim}), and must "
                       "declare it before play starts"),
                    {"player": q, "count": self.deck.count(self.held[q]),
                     "cards": ' '.join(self.held[q]), "claim": best.claim.describe()},
                )

    def _cards_from_hand(self, player: str, cards: Iterable[str]) -> None:
        """Check that ``player`` can play ``cards`` (distinct cards the hand holds,
        or unseen cards for its unknown slots)."""
        held = self.held[player]
        slots = self.unknown[player]
        used: set[str] = set()
        for card in cards:
            if card in used:
                raise _illegal("duplicate_card", N_("{card} is named twice"), {"card": card})
            used.add(card)
            if card in held:
                continue
            if card not in self.deck.cards:
                raise _illegal("card_not_in_deck", N_("{card} is not in this {deck}-card deck"),
                                                   {"card": card, "deck": self.deck.size})
            if card in self.seen:
                raise _illegal("duplicate_card", N_("{card} cannot be in {player}'s hand: it "
                                                    "was already seen ({seen})"),
                                                 {"card": card, "player": player,
                                                  "seen": _seen(self.seen[card])})
            if slots == 0:
                raise _illegal("card_not_in_hand", N_("{player} does not hold {card} (their "
                                                      "hand is {held})"),
                               {"player": player, "card": card,
                                "held": " ".join(sort_cards(held)) or Words(N_("empty"))})
            slots -= 1

    def _card_from_hand(self, player: str, card: str) -> None:
        """``_cards_from_hand`` for one card (a hit, a discard): a card the hand
        is known to hold needs no other check."""
        if card not in self.held[player]:
            self._cards_from_hand(player, (card,))

    def _check_new(self, card: str, what: Seen, code: str = "duplicate_card") -> None:
        if card not in self.deck.cards:
            raise RuleViolation("card_not_in_deck",
                                N_("{card} is not in this {deck}-card deck"),
                                {"card": card, "deck": self.deck.size})
        if card in self.seen:
            raise RuleViolation(code, N_("{card} cannot be {what}: it was already seen "
                                         "({seen})"),
                                      {"card": card, "what": _seen(what),
                                       "seen": _seen(self.seen[card])})

    def _verify_spread(self, action: Action) -> None:
        p, cards = action.player, action.cards
        self._cards_from_hand(p, cards)
        if not is_spread(cards, self.deck):
            raise _illegal("invalid_spread", N_("{cards} is neither a book (3 or 4 of a rank) "
                                                "nor a run (3 or more in sequence of one "
                                                "suit, ace low)"), {"cards": ' '.join(cards)})
        if len(cards) == self.card_count(p):
            self._verify_going_out(p)

    def _verify_hit(self, action: Action) -> None:
        p, k = action.player, action.spread
        rules = self.rules
        if k > len(self.spreads):
            raise _illegal("no_such_spread", N_("there is no spread S{spread} on the table "
                                                "({spreads} so far)"),
                                             {"spread": k, "spreads": len(self.spreads)})
        if rules.max_hits_per_turn is not None and self.this_turn.hits >= rules.max_hits_per_turn:
            limit = rules.max_hits_per_turn
            raise _illegal("hit_limit", N_("{player} may hit only {limit} time a turn")
                           if limit == 1 else N_("{player} may hit only {limit} times a turn"),
                           {"player": p, "limit": limit})
        card = action.cards[0]
        self._card_from_hand(p, card)
        spread = self.spreads[k - 1]
        if not self._extends(spread, card):
            raise _illegal("illegal_hit", N_("{card} does not extend S{spread} ({cards})"),
                                          {"card": card, "spread": k, "cards": spread})
        if self.card_count(p) == 1:
            self._verify_going_out(p)
        elif rules.hit_replaces_discard and rules.checks_turn_end:
            self._verify_turn_end(p, leaving=[card], melded_now=[card])

    def _extends(self, spread: Spread, card: str) -> bool:
        cards = spread.cards + [card]
        if is_run(cards, self.deck):
            return True
        return self.rules.book_extendable and is_book(cards, self.deck)

    def _verify_discard(self, action: Action) -> None:
        p, card = action.player, action.cards[0]
        held = self.held[p]
        if card not in held:
            self._cards_from_hand(p, (card,))
        if len(held) + self.unknown[p] == 1:  # the discard empties the hand
            self._verify_going_out(p)
        if self.phase == PLAY and self.rules.checks_turn_end:
            self._verify_turn_end(p, leaving=[card], melded_now=[])

    def _verify_turn_end(self, p: str, *, leaving: list[str], melded_now: list[str]) -> None:
        """What must hold when a turn ends with ``leaving`` gone from the hand
        (called only when ``rules.checks_turn_end``)."""
        rules = self.rules
        taken = self.this_turn.taken
        if rules.take_must_meld and taken not in (None, UNKNOWN) and \
                taken not in self.this_turn.melded and taken not in melded_now:
            raise _illegal("take_not_melded", N_("{player} took {card} from the discard pile "
                                                 "and must spread or hit with it this turn"),
                                              {"player": p, "card": taken})
        if rules.must_spread != "never":
            rest = list(self.held[p])
            for c in leaving:
                if c in rest:
                    rest.remove(c)
            if holds_spread(rest, self.deck, aces_exempt=rules.must_spread == "except_aces"):
                raise _illegal("held_spread", N_("{player} may not end the turn holding a "
                                                 "spread ({cards}): spreads must be laid down"),
                                              {"player": p, "cards": ' '.join(sort_cards(rest))})

    def _verify_going_out(self, p: str) -> None:
        if self.this_turn.out_blocked and self.phase == PLAY:
            raise _illegal("going_out_blocked", N_("{player} was hit since their last turn "
                                                   "and may not go out this turn"),
                                                {"player": p})

    def _verify_slap(self, action: Action) -> None:
        k = action.spread
        if self.rules.slapping == "off":
            raise _illegal("slap_not_allowed", N_("these rules do not allow slapping"))
        if not self.slap_open or self.phase != START:
            raise _illegal("slap_too_late", N_("only a discard may be slapped, before the "
                                               "next player draws or takes"))
        if k > len(self.spreads):
            raise _illegal("no_such_spread", N_("there is no spread S{spread} on the table"),
                                             {"spread": k})
        card = self.pile[-1]
        if not self._extends(self.spreads[k - 1], card):
            raise _illegal("illegal_slap", N_("{card} does not extend S{spread} ({cards})"),
                                           {"card": card, "spread": k,
                                            "cards": self.spreads[k - 1]})

    def _verify_show(self, action: Action) -> None:
        p = action.player
        if p in self.shown:
            raise _illegal("already_shown", N_("{player} has already shown their hand"),
                                            {"player": p})
        if self.phase not in (SHOWDOWN, DECLARED) or (
            self.phase == DECLARED and p not in self.must_show
        ):
            if self.phase == DECLARED:
                raise _illegal("show_not_needed", N_("{player} need not show: only the losers "
                                                     "show after a deal win in push-up scoring"),
                                                  {"player": p})
            raise _illegal("show_too_early", N_("hands are shown only when the play has ended "
                                                "(after a drop or when the stock runs out)"))
        if p not in self.must_show and self.card_count(p):
            raise _illegal("show_not_needed", N_("{player} need not show"), {"player": p})
        if action.count is not None:
            self._verify_count(p, action.count)
            return  # no cards to judge: must_spread is never judged on a count
        held, cards = self.held[p], action.cards
        if self.unknown[p] or len(cards) != len(held) or not all(map(cards.__contains__, held)):
            # Words the fault (or checks new cards).
            self._verify_reveal(p, cards, Words(N_("the show")))
        # A shown hand is the hand as its last turn ended (nothing enters a hand
        # between turns), so it breaks must_spread only for a player who has
        # ended a turn; the check catches a spread hidden among cards the
        # referee did not know then. A player dealt a spread who never had a
        # turn to lay it down (or dropped at the start of the first) broke nothing.
        ended = self.turns[p] - (1 if p == self.ender else 0)
        if ended > 0 and self.rules.must_spread != "never" and holds_spread(
            action.cards, self.deck, aces_exempt=self.rules.must_spread == "except_aces"
        ):
            raise _illegal("held_spread", N_("{player}'s hand holds a spread ({cards}), which "
                                             "the rules say must be laid down"),
                                          {"player": p, "cards": ' '.join(action.cards)})

    def count_range(self, p: str) -> tuple[int, int]:
        """The least and the most ``p``'s cards could count: the cards known to
        be in the hand, and any value a card of the deck can have for each of
        the others (whatever was seen elsewhere)."""
        least, most = self.deck.card_values()
        known, unknown = self.deck.count(self.held[p]), self.unknown[p]
        return known + unknown * least, known + unknown * most

    def _verify_count(self, p: str, count: int) -> None:
        low, high = self.count_range(p)
        if not low <= count <= high:
            n = self.card_count(p)
            raise _illegal("impossible_count", N_(
                "{player}'s {n} card cannot count {count}: it counts {low} to {high}")
                if n == 1 else N_(
                "{player}'s {n} cards cannot count {count}: they count {low} to {high}"),
                {"player": p, "n": n, "count": count, "low": low, "high": high})

    def _verify_reveal(self, p: str, cards: tuple[str, ...], what: Words) -> None:
        held = self.held[p]
        n = len(held) + self.unknown[p]
        if len(cards) != n:
            raise _illegal("wrong_show", N_("{player} holds {n} card but {what} lists {listed}")
                           if n == 1 else N_("{player} holds {n} cards but {what} lists {listed}"),
                           {"player": p, "n": n, "what": what, "listed": len(cards)})
        for card in held:
            if card not in cards:
                missing = [c for c in held if c not in cards]
                raise _illegal("wrong_show", N_("{player}'s hand holds {cards}, which {what} "
                                                "leaves out"),
                                             {"player": p, "cards": ' '.join(missing),
                                              "what": what})
        if self.unknown[p]:
            # Only cards for unknown slots need checking: a fully known hand's
            # n cards, all listed among n, are exactly the cards listed.
            self._cards_from_hand(p, cards)

    def _verify_declare(self, action: Action) -> None:
        p = action.player
        if self.phase not in (START, DECLARED) or self.phase == START and self.this_turn.started:
            raise _illegal("declare_too_late", N_("deal wins are declared before play starts"))
        if any(c.player == p for c in self.claims):
            raise _illegal("already_declared", N_("{player} has already declared"),
                                               {"player": p})
        if self.shown:
            raise _illegal("declare_too_late", N_("the losers have begun to show; no more "
                                                  "claims"))
        first_turn = self.play_started
        if first_turn:
            if not any(c.timing for c in self.rules.deal_wins):
                raise _illegal("declare_too_late", N_("deal wins are declared before play "
                                                      "starts"))
            if p != self.players[self.turn] or self.turns[p]:
                raise _illegal("declare_too_late", N_("the play has started: only a "
                                                      "first-turn claim may be made, by the "
                                                      "player to act at the start of their "
                                                      "first turn"))
            if self.spreads:
                raise _illegal("declare_too_late", N_("a first-turn claim may only be made "
                                                      "while no spread is on the table"))
        self._verify_reveal(p, action.cards, Words(N_("the declaration")))
        claim = self._eligible_claim(p, action.cards)
        if claim is None:
            total = self.deck.count(action.cards)
            raise _illegal("false_declaration", N_(
                "{player}'s hand {cards} counts {total} and wins nothing on the deal under "
                "these rules at this moment") if self.rules.deal_wins else N_(
                "{player}'s hand {cards} counts {total} and wins nothing on the deal under "
                "these rules"), {"player": p, "cards": " ".join(action.cards), "total": total})
        if claim.claim.timing:
            # A first-turn claim ends the hand at once: claims held before play
            # must have been declared already.
            self._verify_no_undeclared_claim(besides=p)

    def _best_claim(self, cards: Sequence[str], *, first_turn: bool | None) -> Claim | None:
        """The best claim ``cards`` hold; ``first_turn``: None for any timing,
        False for claims made before play, True for first-turn claims."""
        rules = self.rules
        if not rules.deal_wins:
            return None
        count = self.deck.count(cards)  # once, for every claim
        possible = rules.deal_win_counts
        if possible is not None and count not in possible:
            return None
        for rank, claim in enumerate(rules.deal_wins):
            if first_turn is not None and bool(claim.timing) != first_turn:
                continue
            if claim.holds(cards, self.deck, rules.hand_size, count):
                return Claim("", claim, rank, count)
        return None

    def _eligible_claim(self, p: str, cards: Sequence[str]) -> Claim | None:
        if self.play_started:
            timing = True
        elif self.phase == START and p == self.players[self.turn]:
            timing = None  # the first player's first turn is about to start
        else:
            timing = False
        best = self._best_claim(cards, first_turn=timing)
        return None if best is None else Claim(p, best.claim, best.rank, best.count)

    # ------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> Action:
        """Verify and apply ``action``; on refusal nothing changes."""
        action = self.verify(action)
        _APPLY[action.verb](self, action)
        self.actions.append(action)
        return action

    def apply_verified(self, action: Action) -> Action:
        """Apply an action ``verify`` returned, without judging it again (the
        service verifies a tap once, on a copy of the live hand)."""
        _APPLY[action.verb](self, action)
        self.actions.append(action)
        return action

    def _begin_turn(self, p: str) -> None:
        self.this_turn.started = True
        self.play_started = True
        self.slap_open = False
        self.turns[p] += 1
        self.this_turn.out_blocked = self.rules.hit_blocks_going_out and self.hit_since[p]
        self.hit_since[p] = False
        if self.wait[p]:
            self.wait[p] -= 1

    def _take_from_hand(self, p: str, card: str, where: Seen) -> int:
        """Play ``card`` from ``p``'s hand; returns how many cards are left."""
        held = self.held[p]
        self.seen[card] = where
        if card in held:
            held.remove(card)
            return len(held) + self.unknown[p]
        self.unknown[p] -= 1
        return len(held) + self.unknown[p]

    def _apply_draw(self, action: Action) -> None:
        p = action.player
        self._begin_turn(p)
        if self.stock == 0:
            self.ender = p
            self._end_play(STOCK_OUT)
            return
        self.stock -= 1
        cards = action.cards
        if not cards or cards[0] == UNKNOWN:
            self.unknown[p] += 1
        else:
            card = cards[0]
            self.held[p].append(card)
            self.seen[card] = (N_("drawn by {player}"), p)
        self.phase = PLAY

    def _apply_take(self, action: Action) -> None:
        p = action.player
        self._begin_turn(p)
        top = self.pile.pop()
        card = action.card
        if top == UNKNOWN and card is not None and card != UNKNOWN:
            top = card
            self.seen[card] = (N_("taken by {player}"), p)
        if top == UNKNOWN:
            self.unknown[p] += 1
        else:
            self.held[p].append(top)
        self.this_turn.taken = top
        self.phase = PLAY

    def _apply_drop(self, action: Action) -> None:
        p = action.player
        self._begin_turn(p)
        self.ender = p
        self._end_play(DROP)

    def _apply_spread(self, action: Action) -> None:
        p = action.player
        number = len(self.spreads) + 1
        for card in action.cards:
            self._take_from_hand(p, card, (N_("spread by {player} in S{spread}"), p, number))
            self.this_turn.melded += (card,)
        self.spreads.append(Spread(number, p, list(action.cards)))
        self.this_turn.spreads += 1
        self.wait[p] += self.rules.spread_wait
        if not self.card_count(p):
            self._went_out(p, by_discard=False)

    def _apply_hit(self, action: Action) -> None:
        p, k, card = action.player, action.spread, action.cards[0]
        left = self._take_from_hand(p, card, (N_("hit on S{spread} by {player}"), p, k))
        self.this_turn.melded += (card,)
        self.spreads[k - 1].cards.append(card)
        self.this_turn.hits += 1
        self.has_hit[p] = True
        self._hit_waits(p, self.spreads[k - 1].owner)
        if not left:
            self._went_out(p, by_discard=False)
        elif self.rules.hit_replaces_discard:
            self._pass_turn()

    def _hit_waits(self, hitter: str, owner: str) -> None:
        rules = self.rules
        if owner == hitter:
            self.wait[hitter] += rules.self_hit_wait
            return
        if not (rules.hit_wait_once_per_round and self.hit_since[owner]):
            self.wait[owner] += rules.hit_wait
        self.hit_since[owner] = True

    def _apply_discard(self, action: Action) -> None:
        p, card = action.player, action.cards[0]
        # _take_from_hand and _pass_turn written out: most actions are
        # discards, and the two calls cost a replay 2% (measured).
        held = self.held[p]
        self.seen[card] = (N_("discarded by {player}"), p)
        if card in held:
            held.remove(card)
        else:
            self.unknown[p] -= 1
        self.pile.append(card)
        if not held and not self.unknown[p]:
            if self._went_out(p, by_discard=True):
                return
        self.discarder = p
        self.slap_open = self.rules.slapping != "off"
        if self.phase == EXTRA_DISCARD:
            # The turn already belongs to the player after the first discarder.
            self.extra_by = None
            self.phase = START
            return
        self.turn = (self.turn + 1) % len(self.players)
        self.phase = START
        self.this_turn = TurnState()

    def _pass_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.players)
        self.phase = START
        self.this_turn = TurnState()

    def _apply_slap(self, action: Action) -> None:
        p, k = action.player, action.spread
        card = self.pile.pop()
        self.spreads[k - 1].cards.append(card)
        self._hit_waits(p, self.spreads[k - 1].owner)
        self.slap_open = False
        next_player = self.players[self.turn]
        owes = p != self.discarder and not (
            p == next_player and self.rules.slapping == "next_player_priority"
        )
        if owes and self.card_count(p):
            self.extra_by = p
            self.phase = EXTRA_DISCARD

    def _apply_declare(self, action: Action) -> None:
        p = action.player
        claim = self._eligible_claim(p, action.cards)
        self._reveal(p, action.cards, N_("declared by {player}"))
        self.claims.append(claim)
        if claim.claim.timing:
            self._begin_turn(p)
        self.phase = DECLARED
        self.ending = self._deal_win_ending()
        if self.rules.scoring == "push_ups":
            self.must_show = self._push_up_losers(self.ending)
        if claim.claim.timing and not self.must_show:
            self.phase = OVER

    def _apply_show(self, action: Action) -> None:
        p = action.player
        if action.count is not None:
            self.counted[p] = action.count
            if self.ending is not None:  # as _reveal keeps the ending's counts current
                self.ending = dataclasses.replace(self.ending, counts=self.counts())
        elif self.unknown[p]:
            self._reveal(p, action.cards, N_("shown by {player}"))
        else:  # a fully known hand: shown as listed
            self.held[p] = list(action.cards)
        self.shown[p] = action.cards
        self.must_show.discard(p)
        if self.must_show:
            return
        if self.phase == SHOWDOWN and self.ending is None:
            self.ending = self._showdown_ending()
            if self.rules.scoring == "push_ups":
                self.must_show = self._push_up_losers(self.ending) - set(self.shown)
                if self.must_show:
                    return
        if self.phase == SHOWDOWN or self.phase == DECLARED and self.claims[-1].claim.timing:
            self.phase = OVER

    def _reveal(self, p: str, cards: tuple[str, ...], what: str) -> None:
        if not self.unknown[p]:  # a fully known hand reveals nothing new
            self.held[p] = list(cards)
            return
        held = self.held[p]
        for card in cards:
            if card not in held:
                self.seen[card] = (what, p)
        self.unknown[p] = 0
        self.held[p] = list(cards)
        if self.ending is not None:
            # A hand shown after the ending: the ending's counts stay current,
            # so the ledger can settle from them.
            self.ending = dataclasses.replace(self.ending, counts=self.counts())

    # ------------------------------------------------------------ endings

    def _went_out(self, p: str, *, by_discard: bool) -> bool:
        """``p``'s hand is empty. Returns whether that ended the hand."""
        rules = self.rules
        if rules.boobed and self.stock <= len(self.players):
            # The deck is boobed: an empty hand counts 0 and waits to drop;
            # with nothing left to discard, the turn ends here.
            if not by_discard:
                self._pass_turn()
            return False
        first_turn = self.turns[p] == 1
        if by_discard:
            pays, why = rules.out_pays, Words(N_("{player}'s last card was the discard"), player=p)
            kind = OUT
        else:
            kind = TONK_OUT
            turn = self.this_turn
            pays, why = tonk_out_pays(
                rules, p, first_turn=first_turn,
                two_spreads=first_turn and turn.spreads >= 2 and turn.hits == 0,
                by_hits=turn.spreads == 0, hit_a_spread=self.has_hit[p])
        self.ending = Ending(kind, self.players, self.dealer, player=p, pays=pays, why=why,
                             counts=self._known_counts())
        self._finish_with_ending()
        return True

    def _finish_with_ending(self) -> None:
        if self.rules.scoring == "push_ups":
            self.must_show = self._push_up_losers(self.ending)
            if self.must_show:
                self.phase = SHOWDOWN
                return
        self.phase = OVER

    def _push_up_losers(self, ending: Ending) -> set[str]:
        """In push-up scoring every loser with cards shows after any ending."""
        if ending is None or ending.kind == THROWN_IN:
            return set()
        winners = {ending.player} if ending.player and ending.kind in (TONK_OUT, OUT) else set()
        winners |= {c.player for c in ending.claims}
        return {q for q in self.players if q not in winners and q not in self.shown
                and self.card_count(q)}

    def _end_play(self, kind: str) -> None:
        self.phase = SHOWDOWN
        self.play_kind = kind
        held, unknown = self.held, self.unknown
        self.must_show = {q for q in self.players if held[q] or unknown[q]}
        if not self.must_show:
            self.ending = self._showdown_ending()
            self.phase = OVER

    def _showdown_ending(self) -> Ending:
        return Ending(self.play_kind, self.players, self.dealer, player=self.ender,
                      counts=self._known_counts())

    def _known_counts(self) -> dict[str, int | None]:
        return self.counts()

    def _deal_win_ending(self) -> Ending:
        """Which of the declared claims are paid (``deal_win_conflict``)."""
        rules, claims = self.rules, self.claims
        paid: list[Claim] = list(claims)
        why: Words | str = ""
        if len(claims) > 1:
            names: Words | str = claims[0].player
            for c in claims[1:]:  # "A and B and C", said in each language
                names = Words(N_("{names} and {last}"), names=names, last=c.player)
            if rules.deal_win_conflict == "void":
                paid, why = [], Words(N_("{players} both hold deal wins, so the hand is thrown "
                                         "in"), players=names)
            elif rules.deal_win_conflict == "all_paid":
                why = Words(N_("{players} hold deal wins and every claimant is paid"),
                            players=names)
            else:
                def strength(c: Claim) -> tuple[int, int]:
                    return (c.rank, c.count if c.claim.kind == "low" else 0)
                best = min(strength(c) for c in claims)
                paid = [c for c in claims if strength(c) == best]
                if len(paid) == 1:
                    why = Words(N_("{player}'s claim is the best, so only it is paid"),
                                player=paid[0].player)
                elif rules.deal_win_tie == "void":
                    paid, why = [], Words(N_("the best claims are equally good, so the hand is "
                                             "thrown in"))
                else:
                    order = Ending(DEAL_WIN, self.players, self.dealer).left_of_dealer()
                    paid = [min(paid, key=lambda c: order.index(c.player))]
                    why = Words(N_("the best claims tie; {player}, nearest the dealer's left, "
                                   "is paid"), player=paid[0].player)
        kind = DEAL_WIN if paid else THROWN_IN
        return Ending(kind, self.players, self.dealer, claims=tuple(paid), why=why,
                      counts=self._known_counts())

    def finish_declarations(self) -> None:
        """Close a declared deal win to further claims (the next hand starts)."""
        if self.phase == DECLARED and not self.must_show:
            self.phase = OVER

    # ------------------------------------------------------------ offers

    def legal_actions(self) -> list[Action]:
        """Every concrete action the referee would accept now, as far as the
        known cards allow (a hand with unknown cards may also play cards the
        referee cannot list). A draw is offered without a card."""
        out: list[Action] = []
        phase = self.phase
        if phase == OVER or phase == VOID:
            return out
        candidates: list[Action] = []
        for q in self.players:
            if not self.unknown[q] and not any(c.player == q for c in self.claims):
                candidates.append(Action(q, "declare", tuple(self.held[q])))
        if phase in (SHOWDOWN, DECLARED):
            for q in sorted(self.must_show, key=self.players.index):
                if not self.unknown[q]:
                    candidates.append(Action(q, "show", tuple(self.held[q])))
        p = self.to_act
        if phase == START:
            candidates += [Action(p, v) for v in START_VERBS
                           if v != "take" or self._take_is_usable(p)]
            if self.slap_open:
                for q in self.players:
                    for s in self.spreads:
                        candidates.append(Action(q, "slap", (), s.number))
        elif phase == EXTRA_DISCARD:
            candidates += [Action(p, "discard", (c,)) for c in self.held[p]]
        elif phase == PLAY:
            held = self.held[p]
            melds: list[Action] = []
            for size in range(3, len(held) + 1):
                for combo in combinations(held, size):
                    melds.append(Action(p, "spread", combo))
            for s in self.spreads:
                melds += [Action(p, "hit", (c,), s.number) for c in held]
            taken = self.this_turn.taken
            if (self.rules.take_must_meld and taken not in (None, UNKNOWN)
                    and taken not in self.this_turn.melded):
                # Until the taken card is used, only melds that use it are
                # offered: another could leave it unusable, and the turn stuck.
                melds = [a for a in melds if taken in a.cards]
            if self.this_turn.out_blocked:
                # Not allowed to go out this turn: a meld leaving one card would
                # leave only the discard that empties the hand.
                left = self.card_count(p)
                melds = [a for a in melds if left - len(a.cards) != 1]
            candidates += melds
            candidates += [Action(p, "discard", (c,)) for c in held]
        for action in candidates:
            if self.can(action):
                out.append(action)
        return out

    def verbs(self) -> dict[str, list[str]]:
        """For each player who may act now, the kinds of action open to them
        (ignoring which cards: the tablet picks those). What the tablet shows."""
        out: dict[str, list[str]] = {}
        phase = self.phase
        if phase == OVER or phase == VOID:
            return out

        def add(q: str, verb: str) -> None:
            out.setdefault(q, [])
            if verb not in out[q]:
                out[q].append(verb)

        if phase in (SHOWDOWN, DECLARED):
            for q in self.players:
                if q in self.must_show:
                    add(q, "show")
        if phase == DECLARED or phase == START and not self.this_turn.started:
            for q in self.players:
                if any(c.player == q for c in self.claims) or self.shown:
                    continue
                if self.play_started and (q != self.to_act or self.turns[q] or self.spreads):
                    continue
                if self.unknown[q]:
                    if self._any_claim_possible(q):
                        add(q, "declare")
                elif self.can(Action(q, "declare", tuple(self.held[q]))):
                    add(q, "declare")
        p = self.to_act
        if phase == START:
            for v in START_VERBS:
                if self.can(Action(p, v)) and (v != "take" or self._take_is_usable(p)):
                    add(p, v)
            if self.slap_open:
                for q in self.players:
                    if any(self.can(Action(q, "slap", (), s.number)) for s in self.spreads):
                        add(q, "slap")
        elif phase == EXTRA_DISCARD:
            add(p, "discard")
        elif phase == PLAY:
            if self.card_count(p) >= 3:
                add(p, "spread")
            if self.spreads and (self.rules.max_hits_per_turn is None
                                 or self.this_turn.hits < self.rules.max_hits_per_turn):
                add(p, "hit")
            add(p, "discard")
        return out

    def _any_claim_possible(self, q: str) -> bool:
        if not self.rules.deal_wins:
            return False
        if self.play_started:
            return any(c.timing for c in self.rules.deal_wins)
        return True

    # ------------------------------------------------------------ views

    def snapshot(self) -> dict:
        """A plain description of the public state, for pages, the API and
        the audit trail."""
        return {
            "hand": self.number,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "stock": self.stock,
            "top": self.top,
            "pile": len(self.pile),
            "spreads": [
                {"id": f"S{s.number}", "owner": s.owner, "cards": list(s.cards)}
                for s in self.spreads
            ],
            "players": [
                {
                    "name": q,
                    "cards": self.card_count(q),
                    "known": sort_cards(self.held[q]),
                    "unknown": self.unknown[q],
                    "count": self.count(q),
                    "waiting": self.wait[q],
                    "shown": q in self.shown,
                }
                for q in self.players
            ],
            "declared": [c.player for c in self.claims],
            "must_show": sorted(self.must_show, key=self.players.index),
            "complete": self.is_complete,
            "actions": len(self.actions),
        }

    def card_total(self) -> int:
        """Every card accounted for: stock, pile, spreads and hands (for the
        conservation invariant)."""
        return (self.stock + len(self.pile) + sum(len(s.cards) for s in self.spreads)
                + sum(self.card_count(q) for q in self.players))

    def apply_all(self, actions: Iterable[str | Action]) -> None:
        for i, action in enumerate(actions, 1):
            try:
                self.apply(action)
            except RefereeError as err:
                raise err.at(hand=self.number, action=i, action_text=str(action)) from None


def tonk_out_pays(rules: HouseRules, p: str, *, first_turn: bool, two_spreads: bool,
                  by_hits: bool, hit_a_spread: bool) -> tuple[Decimal, Words]:
    """What a tonk out by ``p`` pays each other player, and why, from the
    facts of how it happened (a played hand knows them; a told one states
    them): out in the first turn; with two spreads of one's own in it; the
    last cards gone by hits alone; having hit a spread this hand."""
    if rules.first_turn_two_spreads_pays is not None and first_turn and two_spreads:
        return rules.first_turn_two_spreads_pays, Words(
            N_("{player} went out in their first turn with two spreads of their own"),
            player=p)
    if rules.tonk_out_by_hits_pays is not None and by_hits:
        pays, why = rules.tonk_out_by_hits_pays, Words(
            N_("{player}'s last cards went by hits alone"), player=p)
    else:
        pays, why = rules.tonk_out_pays, Words(
            N_("{player} emptied their hand with no final discard"), player=p)
    if rules.tonk_out_double_first_turn_only and not first_turn and pays > ONE:
        pays, why = ONE, Words(
            N_("{why}, after their first turn (a tonk out then pays 1)"), why=why)
    if rules.tonk_out_double_lost_by_hitting and hit_a_spread and pays > ONE:
        pays, why = ONE, Words(
            N_("{why}, having hit a spread this hand (so it pays 1)"), why=why)
    return pays, why


# What ``verify`` checks for the player to act, by phase and verb: one
# look-up instead of a chain of comparisons on every action.
_START_CHECKS = {
    "drop": Hand._verify_drop, "draw": Hand._verify_draw, "take": Hand._verify_take,
    "spread": Hand._must_draw_first, "hit": Hand._must_draw_first,
    "discard": Hand._must_draw_first,
}
_PLAY_CHECKS = {
    "drop": Hand._already_drew, "draw": Hand._already_drew, "take": Hand._already_drew,
    "spread": Hand._verify_spread, "hit": Hand._verify_hit, "discard": Hand._verify_discard,
}
# How ``apply`` carries out each verb once verified.
_APPLY = {
    verb: getattr(Hand, "_apply_" + verb)
    for verb in ("declare", "draw", "take", "spread", "hit", "discard", "drop", "show", "slap")
}
