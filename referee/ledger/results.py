"""Hand results and session totals in money (or points)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from ..rules import match
from ..rules.ending import Outcome
from ..rules.hand import Hand
from ..rules.words import N_, Words
from .money import fmt, written
from .payments import Settlement, settle_ending
from .settlement import Transfer, settle_up

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

# A hand's entry in ``tonk-result/1``: these fields in this order, with the
# notes that may follow its outcome (a void hand's reason, a told hand's
# mark) in ``OUTCOME_NOTES``' order. ``HandResult.to_json`` writes it; the
# printed line is that dict encoded (``record.result_text.item_line``), and
# ``result_entry`` reads it back out of a stored result, which holds more.
RESULT_FIELDS = ("hand", "dealer", "outcome", "winners", "counts", "net")
OUTCOME_NOTES = ("reason", "told")


def result_entry(stored: Mapping[str, Any], *, net: bool = True) -> dict[str, Any]:
    """The ``tonk-result/1`` entry of a hand from a dict that holds it
    (``HandResult.to_json``, or a stored result, which adds its story and
    payments): the fields in their order, the notes present after the
    outcome. ``net=False``: without ``net`` (a running row whose nets move
    with side-bet pots adds its own)."""
    entry = {key: stored[key] for key in RESULT_FIELDS[:3]}  # up to the outcome
    for key in OUTCOME_NOTES:
        if key in stored:
            entry[key] = stored[key]
    for key in RESULT_FIELDS[3:] if net else RESULT_FIELDS[3:-1]:
        entry[key] = stored[key]
    return entry


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
    reason: str | None = None  # why a void hand was cancelled (the log's text)
    told: bool = False  # told by its ending, not logged action by action

    def notes(self) -> dict[str, Any]:
        """What the hand's entry says after its outcome (``OUTCOME_NOTES``):
        a void hand's reason, or the mark of a hand told by its ending."""
        # Named as the attributes that hold them: reason (None: not void), told.
        return {key: value for key in OUTCOME_NOTES
                if (value := getattr(self, key)) is not None and value is not False}

    def to_json(self, quantum: Decimal) -> dict[str, Any]:
        """The hand's ``tonk-result/1`` entry, as plain values (amounts as
        text): its stored form, which the printed line encodes as it is."""
        doc = {"hand": self.number, "dealer": self.dealer, "outcome": self.outcome.value}
        if self.reason is not None or self.told:  # most hands have no note
            doc.update(self.notes())
        doc["winners"] = list(self.winners)
        doc["counts"] = dict(self.counts)
        q = str(quantum)
        texts = _amounts_written(q)
        net = doc["net"] = {}
        for p, v in self.net.items():
            exact = str(v)
            text = texts.get(exact)
            if text is None:
                text = texts[exact] = written(exact, q)
            net[p] = text
        return doc


# A long replay writes tens of thousands of amounts of a few distinct values:
# each quantum keeps them by their exact text (``money.written`` looked up by
# the pair cost a tenth of writing a hand's entry), bounded like ``written``
# for a long-lived server.
_WRITTEN: dict[str, dict[str, str]] = {}


def _amounts_written(quantum: str) -> dict[str, str]:
    texts = _WRITTEN.get(quantum)
    if texts is None or len(texts) > 10_000:
        if len(_WRITTEN) > 100:
            _WRITTEN.clear()
        texts = _WRITTEN[quantum] = {}
    return texts


def settle_hand(hand: Hand, stake: Decimal, multiplier: int = 1) -> HandResult:
    """Settle a complete hand at ``stake`` × ``multiplier`` per stake."""
    ending = hand.ending
    if ending is None:
        raise ValueError(f"hand {hand.number} has no result yet")
    s = settle_ending(ending, hand.rules)  # the hand keeps its ending's counts current
    if hand.rules.scoring == "push_ups":
        net = dict(s.net)
    else:
        per = stake if multiplier == 1 else stake * multiplier
        net = {q: v * per for q, v in s.net.items()}
    return HandResult(hand.number, hand.dealer, hand.players, s.outcome, s.winners,
                      dict(s.counts), net, s, multiplier, told=hand.told is not None)


def hand_standing(hand: Hand) -> tuple[list[str], dict[str, Decimal]]:
    """A complete hand's winners and nets in stakes (push-up points under
    push-ups): what a table whose next hand depends on them asks
    (``Table.settle``: the winner leads, a match to a score)."""
    ending = hand.ending
    if ending is None:
        raise ValueError(f"hand {hand.number} has no result yet")
    s = settle_ending(ending, hand.rules)
    return s.winners, s.net


def match_doc(to: int, totals: dict[str, Decimal], after_hand: int | None,
              q: Decimal) -> dict[str, Any]:
    """The result's ``match`` object: the scores toward ``to``, whether some
    score has reached it, after which hand, and who won (the lowest)."""
    over = after_hand is not None
    return {"to": to, "scores": {p: fmt(v, q) for p, v in totals.items()}, "over": over,
            "after_hand": after_hand, "winners": match.winners(totals) if over else None}


def match_after(to: int, hands: list[HandResult]) -> int | None:
    """The hand in which some score reached ``to`` (None: none has yet)."""
    scores: dict[str, Decimal] = {}
    for h in hands:
        for q, v in h.net.items():
            scores[q] = scores.get(q, Decimal(0)) + v
        if h.outcome != Outcome.VOID and match.is_over(to, scores):
            return h.number
    return None


def void_result(hand: Hand, reason: str) -> HandResult:
    """A hand the table cancelled: nobody pays, and it had no end to count."""
    zero = Decimal(0)
    net = dict.fromkeys(hand.players, zero)
    settlement = Settlement(Outcome.VOID, hand.players, [], [],
                            [lambda: Words(N_("The hand was void ({reason}): nobody pays."),
                                           reason=reason)], {},
                            dict(net))
    return HandResult(hand.number, hand.dealer, hand.players, Outcome.VOID, [], {}, net, settlement,
                      reason=reason)


class Money:
    """The session's money besides the hands (``brought_forward``,
    ``payments``), read: present when the log has either key. (A plain
    class: making a dataclass at import costs every replay's start-up.)"""

    __slots__ = ("brought_forward", "payments", "carried_forward")

    def __init__(self, brought_forward: dict[str, Decimal],
                 payments: list[tuple[str, str, Decimal]],
                 carried_forward: dict[str, Decimal] | None = None) -> None:
        self.brought_forward = brought_forward
        self.payments = payments  # payer, payee, amount, in order: those that count
        # What was carried on to later tables (their brought_forward), summed:
        # it is owed there now, not here.
        self.carried_forward = carried_forward or {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and (
            self.brought_forward, self.payments, self.carried_forward) == (
            other.brought_forward, other.payments, other.carried_forward)

    def amounts(self) -> list[Decimal]:
        return [*self.brought_forward.values(), *(p[2] for p in self.payments),
                *self.carried_forward.values()]


@dataclass
class SessionResult:
    players: list[str]  # everyone who sat, in order of arrival
    hands: list[HandResult]
    quantum: Decimal
    push_ups: bool = False
    money: Money | None = None
    closed: str | None = None  # as the log wrote it
    match_to: int | None = None  # the rules' match_to
    totals: dict[str, Decimal] = field(init=False)
    transfers: list[Transfer] = field(init=False)
    balances: dict[str, Decimal] | None = field(init=False)

    def __post_init__(self) -> None:
        self.totals, self.balances, self.transfers = settle_session(
            self.players, [h.net for h in self.hands], self.push_ups, self.money)

    @property
    def balance_quantum(self) -> Decimal:
        if self.money is None:
            return self.quantum
        from .balances import balance_quantum

        return balance_quantum(self.quantum, self.money.amounts())

    def match(self) -> dict[str, Any] | None:
        """Where a match to a score stands (``match_doc``; None: no match)."""
        if self.match_to is None:
            return None
        return match_doc(self.match_to, self.totals, match_after(self.match_to, self.hands),
                         self.quantum)

    def to_json(self) -> dict[str, Any]:
        q = self.quantum
        return result_doc([h.to_json(q) for h in self.hands], self.totals, self.transfers, q,
                          balances=self.balances, bq=self.balance_quantum, closed=self.closed,
                          match=self.match())


def settle_session(players: list[str], nets: list[dict[str, Decimal]], push_ups: bool,
                   money: Money | None) -> tuple[dict[str, Decimal], dict[str, Decimal] | None,
                                                 list[Transfer]]:
    """Totals, balances (None without ``money``) and what is still owed:
    the transfers settle the balances where there are any, else the totals."""
    if money is None:
        totals, transfers = totals_and_transfers(players, nets, push_ups)
        return totals, None, transfers
    from .balances import balances, still_owed  # only sessions with money carried or paid

    totals, _ = totals_and_transfers(players, nets, True)
    owed = balances(players, totals, money.brought_forward, money.payments,
                    money.carried_forward)
    return totals, owed, [] if push_ups else still_owed(owed, players)


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


def result_doc(hands: list[dict[str, Any]], totals: dict[str, Decimal], transfers: list[Transfer],
               q: Decimal, *, balances: dict[str, Decimal] | None = None,
               bq: Decimal | None = None, closed: str | None = None,
               match: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``tonk-result/1`` document (``hands``: each hand's ``to_json``).
    ``bq``: the quantum of balances and of the transfers that settle them;
    ``match``: a match's standing (``match_doc``)."""
    doc = {
        "format": "tonk-result/1",
        "hands": hands,
        "totals": {p: fmt(v, q) for p, v in totals.items()},
    }
    tq = q
    if balances is not None:
        tq = bq or q
        doc["balances"] = {p: fmt(v, tq) for p, v in balances.items()}
    doc["transfers"] = [{"from": t.payer, "to": t.payee, "amount": fmt(t.amount, tq)}
                        for t in transfers]
    if match is not None:
        doc["match"] = match
    if closed is not None:
        doc["closed"] = closed
    return doc
