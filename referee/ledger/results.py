"""Hand results and session totals in money (or points)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from decimal import Decimal

from ..rules.hand import Hand
from .money import fmt
from .payments import Settlement, settle_ending
from .settlement import Transfer, settle_up


@dataclass
class HandResult:
    number: int
    dealer: str
    players: tuple[str, ...]
    outcome: str
    winners: list[str]
    counts: dict[str, int]
    net: dict[str, Decimal]  # money, or points (push-ups)
    settlement: Settlement
    multiplier: int = 1
    side_bets: list[str] = field(default_factory=list)  # what the side bets did, in words

    def to_json(self, quantum: Decimal) -> dict:
        return {
            "hand": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome,
            "winners": list(self.winners),
            "counts": dict(self.counts),
            "net": {q: fmt(v, quantum) for q, v in self.net.items()},
        }


def settle_hand(hand: Hand, stake: Decimal, multiplier: int = 1) -> HandResult:
    """Settle a complete hand at ``stake`` × ``multiplier`` per stake."""
    if hand.ending is None:
        raise ValueError(f"hand {hand.number} has no result yet")
    counts = {q: hand.count(q) for q in hand.players}
    ending = hand.ending
    if counts != ending.counts:  # cards shown after the ending (replace is slow: only then)
        ending = dataclasses.replace(ending, counts=counts)
    s = settle_ending(ending, hand.rules)
    if hand.rules.scoring == "push_ups":
        net = dict(s.net)
    else:
        per = stake * multiplier
        net = {q: v * per for q, v in s.net.items()}
    return HandResult(
        number=hand.number,
        dealer=hand.dealer,
        players=hand.players,
        outcome=s.outcome,
        winners=s.winners,
        counts={q: c for q, c in counts.items() if c is not None},
        net=net,
        settlement=s,
        multiplier=multiplier,
    )


@dataclass
class SessionResult:
    players: list[str]  # everyone who sat, in order of arrival
    hands: list[HandResult]
    quantum: Decimal
    push_ups: bool = False
    totals: dict[str, Decimal] = field(init=False)
    transfers: list[Transfer] = field(init=False)

    def __post_init__(self) -> None:
        totals = {q: Decimal(0) for q in self.players}
        for h in self.hands:
            for q, v in h.net.items():
                totals[q] += v
        self.totals = totals
        # Push-up scores are points to compare, not money owed: nothing to transfer.
        self.transfers = [] if self.push_ups else settle_up(totals, self.players)

    def to_json(self) -> dict:
        q = self.quantum
        return {
            "format": "tonk-result/1",
            "hands": [h.to_json(q) for h in self.hands],
            "totals": {p: fmt(v, q) for p, v in self.totals.items()},
            "transfers": [
                {"from": t.payer, "to": t.payee, "amount": fmt(t.amount, q)}
                for t in self.transfers
            ],
        }
