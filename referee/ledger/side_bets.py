"""Side bets: pots of their own, beside the hand's stakes.

Two kinds are known (the log format reserves ``side_bets`` on a hand):

- ``suit_high``: before the deal the dealer calls a suit; each player in the
  bet puts ``stake`` in the pot, and whoever among them is dealt the highest
  card of that suit takes it (king high, ace low, as in Tonk's runs).
- ``first_spread`` ("natural"): the first player in the bet to lay a spread
  in the hand takes the pot.

**Decided:** a pot nobody wins is carried over to the next hand that carries
a bet of the same kind, and its players add their stakes again, until it is
won. So that every hand's nets sum to zero, stakes count as paid only when a
pot is won: the winner then collects from each other player what that player
has put in since the pot was last won. A pot still unwon when the session
ends is returned (no payments). Side bets are money: the hand's
``stake_multiplier`` does not apply, and they cannot be played with push-up
scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..rules.cards import SUIT_NAMES, UNKNOWN
from ..rules.errors import RuleViolation
from ..rules.words import N_, Words

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

HIGH_ORDER = "A23456789TJQK"  # ace low: the king is the highest card of a suit
KINDS = ("suit_high", "first_spread")


@dataclass(frozen=True)
class SideBet:
    kind: str
    stake: Decimal
    players: tuple[str, ...]
    suit: str | None = None

    def describe(self) -> Words:
        if self.kind == "suit_high":
            assert self.suit is not None  # read_side_bets: a suit_high bet names its suit
            return Words(_HIGHEST[self.suit])
        return Words(N_("the first to spread"))


@dataclass(frozen=True)
class SideBetOutcome:
    bet: SideBet
    winner: str | None
    why: Words | str  # Words when judged, the stored English when read back

    def to_json(self) -> dict[str, Any]:
        """As stored with a hand's result (the pots are carried at session level)."""
        b = self.bet
        return {"kind": b.kind, "suit": b.suit, "stake": str(b.stake),
                "players": list(b.players), "winner": self.winner, "why": str(self.why)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SideBetOutcome:
        bet = SideBet(data["kind"], Decimal(data["stake"]), tuple(data["players"]),
                      data.get("suit"))
        return cls(bet, data.get("winner"), data["why"])


def _bad(template: str, **params: object) -> RuleViolation:
    return RuleViolation("bad_side_bet", template, params)


def read_side_bets(raw: Iterable[Mapping[str, Any]], seats: Sequence[str], *,
                   push_ups: bool = False) -> list[SideBet]:
    """The hand's side bets, checked against its seats."""
    bets = []
    kinds = set()
    for i, entry in enumerate(raw, 1):
        if push_ups:
            raise _bad(N_("side bets are money and cannot be played with push-up scoring"))
        kind = entry.get("kind")
        if kind not in KINDS:
            raise _bad(N_("side bet {number}: unknown kind {kind} (suit_high or first_spread)"),
                       number=i, kind=repr(kind))
        if kind in kinds:
            raise _bad(N_("side bet {number}: the hand already has a {kind} bet"), number=i,
                       kind=kind)
        kinds.add(kind)
        players = tuple(entry.get("players") or ())
        missing = [p for p in players if p not in seats]
        if missing:
            raise _bad(N_("side bet {number}: {players} not seated in this hand"), number=i,
                       players=", ".join(missing))
        if len(set(players)) != len(players) or len(players) < 2:
            raise _bad(N_("side bet {number}: a side bet needs two or more different players"),
                       number=i)
        try:
            stake = Decimal(str(entry.get("stake")))
        except InvalidOperation:
            stake = Decimal(0)
        if not stake.is_finite() or stake <= 0:
            raise _bad(N_("side bet {number}: the stake must be an amount greater than 0"),
                       number=i)
        suit = entry.get("suit")
        if kind == "suit_high" and suit not in SUIT_NAMES:
            raise _bad(N_("side bet {number}: a suit_high bet names a suit (c, d, h or s)"),
                       number=i)
        bets.append(SideBet(kind, stake, players, suit if kind == "suit_high" else None))
    return bets


def check_deal_known(bets: Sequence[SideBet], deal: Mapping[str, Sequence[str]]) -> None:
    """A suit-high bet is judged from its players' dealt cards: they must be logged."""
    for bet in bets:
        if bet.kind != "suit_high":
            continue
        unknown = [p for p in bet.players if p not in deal or UNKNOWN in deal[p]]
        if unknown:
            raise _bad(N_("the suit-high bet is judged from the dealt cards, so the deal of "
                          "{players} must be logged"), players=", ".join(unknown))


def judge(bet: SideBet, deal: Mapping[str, Sequence[str]],
          spread_owners: Sequence[str]) -> SideBetOutcome:
    if bet.kind == "suit_high":
        assert bet.suit is not None  # read_side_bets: a suit_high bet names its suit
        best, winner = -1, None
        for p in bet.players:
            for card in deal.get(p, ()):
                if card[1:] == bet.suit and HIGH_ORDER.index(card[0]) > best:
                    best, winner = HIGH_ORDER.index(card[0]), p
                    top = card
        if winner is None:
            return SideBetOutcome(bet, None, Words(_NOBODY[bet.suit]))
        return SideBetOutcome(bet, winner, Words(N_("{player} was dealt {card}, {bet}"),
                                                 player=winner, card=top, bet=bet.describe()))
    for owner in spread_owners:
        if owner in bet.players:
            return SideBetOutcome(bet, owner, Words(N_("{player} laid the first spread"),
                                                    player=owner))
    return SideBetOutcome(bet, None, Words(N_("nobody in the bet laid a spread")))


class Pots:
    """The side-bet pots of a session, carried over from hand to hand."""

    def __init__(self) -> None:
        self.put_in: dict[str, dict[str, Decimal]] = {}

    def settle(self, outcomes: Iterable[SideBetOutcome]) -> tuple[dict[str, Decimal],
                                                                  list[Words]]:
        """Nets (money) and sentences for one hand's side bets."""
        net: dict[str, Decimal] = {}
        story: list[Words] = []
        for o in outcomes:
            pot = self.put_in.setdefault(o.bet.kind, {})
            for p in o.bet.players:
                pot[p] = pot.get(p, Decimal(0)) + o.bet.stake
            total = sum(pot.values(), Decimal(0))
            if o.winner is None:
                story.append(Words(N_("Side bet ({bet}): {why}; the pot of {pot} carries over."),
                                   bet=o.bet.describe(), why=o.why, pot=_amount(total)))
                continue
            for p, amount in pot.items():
                if p != o.winner:
                    net[p] = net.get(p, Decimal(0)) - amount
                    net[o.winner] = net.get(o.winner, Decimal(0)) + amount
            story.append(Words(N_("Side bet ({bet}): {why} and takes the pot of {pot}."),
                               bet=o.bet.describe(), why=o.why, pot=_amount(total)))
            pot.clear()
        return net, story


def _amount(d: Decimal) -> Decimal:
    """``d`` as the referee writes a pot (``1.5``, never ``1.50`` or ``1E+1``)."""
    return Decimal(format(d.normalize(), "f"))


# Each suit's phrases, whole: the suit's name takes its own article in French
# and Portuguese.
_HIGHEST = {
    "c": N_("the highest club dealt"), "d": N_("the highest diamond dealt"),
    "h": N_("the highest heart dealt"), "s": N_("the highest spade dealt"),
}
_NOBODY = {
    "c": N_("nobody in the bet was dealt a club"), "d": N_("nobody in the bet was dealt a diamond"),
    "h": N_("nobody in the bet was dealt a heart"), "s": N_("nobody in the bet was dealt a spade"),
}
