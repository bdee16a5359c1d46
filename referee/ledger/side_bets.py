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

HIGH_ORDER = "A23456789TJQK"  # ace low: the king is the highest card of a suit
KINDS = ("suit_high", "first_spread")


@dataclass(frozen=True)
class SideBet:
    kind: str
    stake: Decimal
    players: tuple[str, ...]
    suit: str | None = None

    def describe(self) -> str:
        if self.kind == "suit_high":
            return f"the highest {SUIT_NAMES[self.suit][:-1]} dealt"
        return "the first to spread"


@dataclass(frozen=True)
class SideBetOutcome:
    bet: SideBet
    winner: str | None
    why: str

    def to_json(self) -> dict:
        """As stored with a hand's result (the pots are carried at session level)."""
        b = self.bet
        return {"kind": b.kind, "suit": b.suit, "stake": str(b.stake),
                "players": list(b.players), "winner": self.winner, "why": self.why}

    @classmethod
    def from_json(cls, data: Mapping) -> SideBetOutcome:
        bet = SideBet(data["kind"], Decimal(data["stake"]), tuple(data["players"]),
                      data.get("suit"))
        return cls(bet, data.get("winner"), data["why"])


def _bad(sentence: str) -> RuleViolation:
    return RuleViolation("bad_side_bet", sentence)


def read_side_bets(raw: Iterable[Mapping], seats: Sequence[str], *,
                   push_ups: bool = False) -> list[SideBet]:
    """The hand's side bets, checked against its seats."""
    bets = []
    kinds = set()
    for i, entry in enumerate(raw, 1):
        if push_ups:
            raise _bad("side bets are money and cannot be played with push-up scoring")
        kind = entry.get("kind")
        if kind not in KINDS:
            raise _bad(f"side bet {i}: unknown kind {kind!r} (suit_high or first_spread)")
        if kind in kinds:
            raise _bad(f"side bet {i}: the hand already has a {kind} bet")
        kinds.add(kind)
        players = tuple(entry.get("players") or ())
        missing = [p for p in players if p not in seats]
        if missing:
            raise _bad(f"side bet {i}: {', '.join(missing)} not seated in this hand")
        if len(set(players)) != len(players) or len(players) < 2:
            raise _bad(f"side bet {i}: a side bet needs two or more different players")
        try:
            stake = Decimal(str(entry.get("stake")))
        except InvalidOperation:
            stake = Decimal(0)
        if not stake.is_finite() or stake <= 0:
            raise _bad(f"side bet {i}: the stake must be an amount greater than 0")
        suit = entry.get("suit")
        if kind == "suit_high" and suit not in SUIT_NAMES:
            raise _bad(f"side bet {i}: a suit_high bet names a suit (c, d, h or s)")
        bets.append(SideBet(kind, stake, players, suit if kind == "suit_high" else None))
    return bets


def check_deal_known(bets: Sequence[SideBet], deal: Mapping[str, Sequence[str]]) -> None:
    """A suit-high bet is judged from its players' dealt cards: they must be logged."""
    for bet in bets:
        if bet.kind != "suit_high":
            continue
        unknown = [p for p in bet.players if p not in deal or UNKNOWN in deal[p]]
        if unknown:
            raise _bad(f"the suit-high bet is judged from the dealt cards, so the deal of "
                       f"{', '.join(unknown)} must be logged")


def judge(bet: SideBet, deal: Mapping[str, Sequence[str]],
          spread_owners: Sequence[str]) -> SideBetOutcome:
    if bet.kind == "suit_high":
        best, winner = -1, None
        for p in bet.players:
            for card in deal.get(p, ()):
                if card[1:] == bet.suit and HIGH_ORDER.index(card[0]) > best:
                    best, winner = HIGH_ORDER.index(card[0]), p
                    top = card
        if winner is None:
            return SideBetOutcome(bet, None, f"nobody in the bet was dealt a "
                                  f"{SUIT_NAMES[bet.suit][:-1]}")
        return SideBetOutcome(bet, winner, f"{winner} was dealt {top}, {bet.describe()}")
    for owner in spread_owners:
        if owner in bet.players:
            return SideBetOutcome(bet, owner, f"{owner} laid the first spread")
    return SideBetOutcome(bet, None, "nobody in the bet laid a spread")


class Pots:
    """The side-bet pots of a session, carried over from hand to hand."""

    def __init__(self) -> None:
        self.put_in: dict[str, dict[str, Decimal]] = {}

    def settle(self, outcomes: Iterable[SideBetOutcome]) -> tuple[dict[str, Decimal], list[str]]:
        """Nets (money) and sentences for one hand's side bets."""
        net: dict[str, Decimal] = {}
        story: list[str] = []
        for o in outcomes:
            pot = self.put_in.setdefault(o.bet.kind, {})
            for p in o.bet.players:
                pot[p] = pot.get(p, Decimal(0)) + o.bet.stake
            total = sum(pot.values())
            label = f"Side bet ({o.bet.describe()})"
            if o.winner is None:
                story.append(f"{label}: {o.why}; the pot of {_amount(total)} carries over.")
                continue
            for p, amount in pot.items():
                if p != o.winner:
                    net[p] = net.get(p, Decimal(0)) - amount
                    net[o.winner] = net.get(o.winner, Decimal(0)) + amount
            story.append(f"{label}: {o.why} and takes the pot of {_amount(total)}.")
            pot.clear()
        return net, story


def _amount(d: Decimal) -> str:
    return format(d.normalize(), "f")
