"""One hand of Tonk as a state machine: its state, each action applied, and
how the hand ends.

Like pokerkit's state: every action is checked by one ``verify`` (which
raises an ``IllegalAction`` naming the rule), asked by ``can``, applied by
``apply``; ``actions`` is the append-only list of what was applied, and a
refused action leaves the state exactly as it was. What is allowed is
stated once, in ``referee.rules.legality``; what is offered (the legal
actions, the verbs open) in ``referee.rules.offers``; the hand answers for
both.

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
from functools import lru_cache

from . import legality, offers
from .actions import Action, CountedShow
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
    tonk_out_pays,
)
from .errors import RefereeError, RuleViolation
from .legality import (
    DEALT_TO,
    DECLARED_BY,
    DISCARDED_BY,
    DRAWN_BY,
    HIT_BY,
    SHOWN_BY,
    SPREAD_BY,
    TAKEN_BY,
    Seen,
    check_new,
    eligible_claim,
    taken_from,
)
from .options import HouseRules
from .phases import (  # noqa: F401 (START_VERBS and Phase: their callers import them here)
    DECLARED,
    EXTRA_DISCARD,
    OVER,
    PLAY,
    SHOWDOWN,
    START,
    START_VERBS,
    VOID,
    Phase,
    TurnState,
)
from .spreads import Spread, in_rank_order
from .words import N_, Np_, Words

DEALT_CARDS = Np_("{player} is dealt {listed} card; the rules deal {size}",
                  "{player} is dealt {listed} cards; the rules deal {size}", "listed")

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

    from .ending import EndingKind
    from .told import Told

_UPCARD = (N_("the upcard"),)


@lru_cache(maxsize=1000)
def _per_player(players: tuple[str, ...], size: int
                ) -> tuple[dict[str, int], dict[str, bool], dict[str, int]]:
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
                    raise RuleViolation("bad_deal", DEALT_CARDS.pick(len(cards)),
                                        {"player": p, "listed": len(cards), "size": size})
                where = (DEALT_TO, p)
                if UNKNOWN in cards:  # a partly known hand
                    mine = [card for card in cards if card != UNKNOWN]
                    self.unknown[p] = size - len(mine)
                else:
                    mine = list(cards)
                    self.unknown[p] = 0
                for card in mine:
                    if card not in deck_cards or card in seen:
                        check_new(self, card, where, code="bad_deal")
                    seen[card] = where
                self.held[p] = mine
        self.pile: list[str] = []
        if rules.upcard:
            card = UNKNOWN if upcard is None else upcard
            if card != UNKNOWN:
                if card not in self.deck.cards or card in self.seen:  # only then word it
                    check_new(self, card, _UPCARD, code="bad_upcard")
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
        self.told: Told | None = None
        self.claims: list[Claim] = []
        self.actions: list[Action] = []
        self.phase: Phase = START
        self.play_started = False
        self.turn = (self.players.index(dealer) + 1) % n
        self.this_turn = TurnState()
        self.extra_by: str | None = None  # who slapped and owes an extra discard
        # How the play ended (DROP or STOCK_OUT), and who ended it: dropped, or
        # drew from the empty stock.
        self.play_ended: tuple[EndingKind, str] | None = None
        self.must_show: set[str] = set()
        self.ending: Ending | None = None

    # ------------------------------------------------------------ queries

    @property
    def to_act(self) -> str | None:
        """The player whose turn it is (``None`` once the play is over)."""
        if self.phase in (START, PLAY):
            return self.players[self.turn]
        if self.phase is EXTRA_DISCARD:
            return self.extra_by
        return None

    @property
    def is_complete(self) -> bool:
        """The hand's result is settled (a declared deal win may still be
        joined by other claims until the next hand starts)."""
        return self.phase is OVER or (self.phase is DECLARED and not self.must_show)

    @property
    def slap_open(self) -> bool:
        """The top discard may be slapped: it was the last action, and the next
        turn has not begun."""
        return (self.phase is START and self.rules.slapping != "off" and bool(self.actions)
                and self.actions[-1].verb == "discard")

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

    def count_range(self, p: str) -> tuple[int, int]:
        """The least and the most ``p``'s cards could count: the cards known to
        be in the hand, and for the others the least and the most as many other
        cards of the deck can count (whatever was seen elsewhere; each card of
        the deck once)."""
        return self.deck.hand_range(self.held[p], self.unknown[p])

    # ------------------------------------------------------------ judge and offer

    # The one statement of legality is referee.rules.legality, what is offered
    # referee.rules.offers; the hand answers for them (bound here, so a call
    # costs what a method did).
    verify = legality.verify
    can = legality.can
    legal_actions = offers.legal_actions
    verbs = offers.verbs

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
            self._end_play(STOCK_OUT, p)
            return
        self.stock -= 1
        cards = action.cards
        if not cards or cards[0] == UNKNOWN:
            self.unknown[p] += 1
        else:
            card = cards[0]
            self.held[p].append(card)
            self.seen[card] = (DRAWN_BY, p)
        self.phase = PLAY

    def _apply_take(self, action: Action) -> None:
        p = action.player
        self._begin_turn(p)
        card = action.card
        # Under pickup_depth 2 the card below the top may be taken instead.
        top = self.pile.pop(taken_from(self, card) if self.rules.pickup_depth == 2 else -1)
        if top == UNKNOWN and card is not None and card != UNKNOWN:
            top = card
            self.seen[card] = (TAKEN_BY, p)
        if top == UNKNOWN:
            self.unknown[p] += 1
        else:
            self.held[p].append(top)
        self.this_turn.taken = top
        self.phase = PLAY

    def _apply_drop(self, action: Action) -> None:
        p = action.player
        self._begin_turn(p)
        self._end_play(DROP, p)

    def _apply_spread(self, action: Action) -> None:
        p = action.player
        number = len(self.spreads) + 1
        for card in action.cards:
            self._take_from_hand(p, card, (SPREAD_BY, p, number))
            self.this_turn.melded += (card,)
        self.spreads.append(Spread(number, p, list(action.cards)))
        self.this_turn.spreads += 1
        self.wait[p] += self.rules.spread_wait
        if not self.card_count(p):
            self._went_out(p, by_discard=False)

    def _apply_hit(self, action: Action) -> None:
        p, k, card = action.player, action.spread, action.cards[0]
        assert k is not None  # a hit names its spread
        left = self._take_from_hand(p, card, (HIT_BY, p, k))
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
        self.seen[card] = (DISCARDED_BY, p)
        if card in held:
            held.remove(card)
        else:
            self.unknown[p] -= 1
        self.pile.append(card)
        if not held and not self.unknown[p]:
            if self._went_out(p, by_discard=True):
                return
        if self.phase is EXTRA_DISCARD:
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
        assert k is not None  # a slap names its spread
        card = self.pile.pop()
        self.spreads[k - 1].cards.append(card)
        self._hit_waits(p, self.spreads[k - 1].owner)
        discarder = self.actions[-1].player  # the slapped discard was the last action
        next_player = self.players[self.turn]
        owes = p != discarder and not (
            p == next_player and self.rules.slapping == "next_player_priority"
        )
        if owes and self.card_count(p):
            self.extra_by = p
            self.phase = EXTRA_DISCARD

    def _apply_declare(self, action: Action) -> None:
        p = action.player
        claim = eligible_claim(self, p, action.cards)
        assert claim is not None  # verified: the declared cards make a claim
        self._reveal(p, action.cards, DECLARED_BY)
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
        if type(action) is CountedShow:
            self.counted[p] = action.count
            if self.ending is not None:  # as _reveal keeps the ending's counts current
                self.ending = dataclasses.replace(self.ending, counts=self.counts())
        elif self.unknown[p]:
            self._reveal(p, action.cards, SHOWN_BY)
        else:  # a fully known hand: shown as listed
            self.held[p] = list(action.cards)
        self.shown[p] = action.cards
        self.must_show.discard(p)
        if self.must_show:
            return
        if self.phase is SHOWDOWN and self.ending is None:
            self.ending = self._showdown_ending()
            if self.rules.scoring == "push_ups":
                self.must_show = self._push_up_losers(self.ending) - set(self.shown)
                if self.must_show:
                    return
        if self.phase is SHOWDOWN or self.phase is DECLARED and self.claims[-1].claim.timing:
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

    def _push_up_losers(self, ending: Ending | None) -> set[str]:
        """In push-up scoring every loser with cards shows after any ending."""
        if ending is None or ending.kind is THROWN_IN:
            return set()
        winners = {ending.player} if ending.player and ending.kind in (TONK_OUT, OUT) else set()
        winners |= {c.player for c in ending.claims}
        return {q for q in self.players if q not in winners and q not in self.shown
                and self.card_count(q)}

    def _end_play(self, kind: EndingKind, ender: str) -> None:
        self.phase = SHOWDOWN
        self.play_ended = (kind, ender)
        held, unknown = self.held, self.unknown
        self.must_show = {q for q in self.players if held[q] or unknown[q]}
        if not self.must_show:
            self.ending = self._showdown_ending()
            self.phase = OVER

    def _showdown_ending(self) -> Ending:
        assert self.play_ended is not None  # a showdown without an ending follows _end_play
        kind, ender = self.play_ended
        return Ending(kind, self.players, self.dealer, player=ender, counts=self._known_counts())

    def _known_counts(self) -> dict[str, int | None]:
        return self.counts()

    def _deal_win_ending(self) -> Ending:
        """Which of the declared claims are paid (``deal_win_conflict``)."""
        rules, claims = self.rules, self.claims
        paid: list[Claim] = list(claims)
        why: Words | None = None
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
        if self.phase is DECLARED and not self.must_show:
            self.phase = OVER

    # ------------------------------------------------------------ views

    def snapshot(self) -> dict[str, Any]:
        """A plain description of the public state, for pages, the API and
        the audit trail."""
        return {
            "hand": self.number,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "stock": self.stock,
            "top": self.top,
            **({"second": self.pile[-2] if len(self.pile) > 1 else None}
               if self.rules.pickup_depth == 2 else {}),
            "pile": len(self.pile),
            "spreads": [
                {"id": f"S{s.number}", "owner": s.owner,
                 "cards": in_rank_order(s.cards, self.deck)}
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


# What ``verify`` checks for the player to act, by phase and verb: one
# How ``apply`` carries out each verb once verified.
_APPLY = {
    verb: getattr(Hand, "_apply_" + verb)
    for verb in ("declare", "draw", "take", "spread", "hit", "discard", "drop", "show", "slap")
}


# The phases its callers read off a hand, imported from here as from phases.
__all__ = ["Hand", "DECLARED", "EXTRA_DISCARD", "OVER", "PLAY", "SHOWDOWN", "START", "VOID"]
