"""Hand results and session totals in money (or points)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ..rules.ending import Outcome
from ..rules.hand import Hand
from .money import fmt
from .payments import Settlement, settle_ending
from .settlement import Transfer, settle_up


@dataclass
class HandResult:
    number: int
    dealer: str
    players: tuple[str, ...]
    outcome: Outcome
    winners: list[str]
    counts: dict[str, int]
    net: dict[str, Decimal]  # money, or points (push-ups)
    settlement: Settlement
    multiplier: int = 1
    side_bets: list[str] = field(default_factory=list)  # what the side bets did, in words

    def to_json(self, quantum: Decimal) -> dict:
        """The hand in the result format, as plain values (amounts as text)."""
        return {
            "hand": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "winners": list(self.winners),
            "counts": dict(self.counts),
            "net": {q: fmt(v, quantum) for q, v in self.net.items()},
        }


def settle_hand(hand: Hand, stake: Decimal, multiplier: int = 1) -> HandResult:
    """Settle a complete hand at ``stake`` × ``multiplier`` per stake."""
    ending = hand.ending
    if ending is None:
        raise ValueError(f"hand {hand.number} has no result yet")
    s = settle_ending(ending, hand.rules)  # the hand keeps its ending's counts current
    counts = ending.counts
    if hand.rules.scoring == "push_ups":
        net = dict(s.net)
    else:
        per = stake if multiplier == 1 else stake * multiplier
        net = {q: v * per for q, v in s.net.items()}
    if None in counts.values():
        counts = {q: c for q, c in counts.items() if c is not None}
    else:
        counts = dict(counts)
    return HandResult(hand.number, hand.dealer, hand.players, s.outcome, s.winners, counts,
                      net, s, multiplier)


@dataclass
class SessionResult:
    players: list[str]  # everyone who sat, in order of arrival
    hands: list[HandResult]
    quantum: Decimal
    push_ups: bool = False
    totals: dict[str, Decimal] = field(init=False)
    transfers: list[Transfer] = field(init=False)

    def __post_init__(self) -> None:
        self.totals, self.transfers = totals_and_transfers(
            self.players, [h.net for h in self.hands], self.push_ups)

    def to_json(self) -> dict:
        q = self.quantum
        return result_doc([h.to_json(q) for h in self.hands], self.totals, self.transfers, q)


def totals_and_transfers(players: list[str], nets: list[dict[str, Decimal]],
                         push_ups: bool) -> tuple[dict[str, Decimal], list[Transfer]]:
    """Each player's total over the hands' nets (added in hand order), and
    who pays whom to settle up."""
    totals = {q: Decimal(0) for q in players}
    for net in nets:
        for q, v in net.items():
            totals[q] += v
    # Push-up scores are points to compare, not money owed: nothing to transfer.
    return totals, [] if push_ups else settle_up(totals, players)


def result_doc(hands: list, totals: dict[str, Decimal], transfers: list[Transfer],
               q: Decimal) -> dict:
    """The ``tonk-result/1`` document (``hands``: each hand's ``to_json``)."""
    return {
        "format": "tonk-result/1",
        "hands": hands,
        "totals": {p: fmt(v, q) for p, v in totals.items()},
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": fmt(t.amount, q)}
            for t in transfers
        ],
    }
