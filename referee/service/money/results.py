"""A settled hand's result as the service stores it: at the hand's own stake,
in the session's places (its quantum), with the payments in words and the
exact nets (``ledger/results.py`` makes the result lines these come from)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NotRequired, TypedDict, cast

from ...ledger.money import fmt, parse_stake, quantum_for
from ...ledger.results import void_result
from ...replay import own_stake, settle_logged, side_bet_outcomes
from ...rules.hand import Hand
from ...rules.options import HouseRules
from ...rules.words import to_plain

# A payment of the hand's settlement as stored ("from" is a keyword, hence the
# functional form).
StoredPayment = TypedDict("StoredPayment", {
    "from": str, "to": str, "stakes": str, "amount": str, "reason": str})


class StoredSideBet(TypedDict):
    """A side bet as it came out (``SideBetOutcome.to_json``)."""

    kind: str
    suit: str | None
    stake: str
    players: list[str]
    winner: str | None
    why: str


class StoredResult(TypedDict):
    """A settled hand's result as stored with its row and answered by the
    API: the ``tonk-result/1`` entry (``HandResult.to_json``: hand, dealer,
    outcome, its notes, winners, counts, net) and what the service adds."""

    hand: int
    dealer: str
    outcome: str
    reason: NotRequired[str]  # a void hand's (OUTCOME_NOTES)
    told: NotRequired[bool]  # a hand told by its ending
    winners: list[str]
    counts: dict[str, Any]
    net: dict[str, str]  # in the session's places
    story: list[str]  # the payments in English
    story_words: list[Any]  # the same, as plain words for ``language.story``
    payments: list[StoredPayment]
    multiplier: int
    net_exact: dict[str, str]  # before rounding: totals are summed from these
    side_bets: list[StoredSideBet]


def quantum(rules: HouseRules, stake: Decimal, currency: str | None) -> Decimal:
    """The places every amount of the session is written with."""
    if rules.scoring == "push_ups":
        return Decimal(1)
    return quantum_for(stake, currency, rules.payment_amounts())


def session_quantum(row: dict[str, Any], rules: HouseRules) -> Decimal:
    """The session's quantum as stored (an import's hands may have their own
    stakes with more places), else from its stake."""
    if row.get("quantum"):
        return Decimal(row["quantum"])
    return quantum(rules, parse_stake(row["stake"]), row["currency"])


def hand_result(hand: Hand, stake: Decimal, places: Decimal, setup: dict[str, Any]) -> StoredResult:
    """A complete hand's result: the tonk-result/1 entry, the payments in words
    (``story`` in English, ``story_words`` for ``referee.language.story``), and
    the exact nets (totals are summed before rounding, as the replay does). Side
    bets are stored as they came out; their pots are carried in ``standings``."""
    multiplier = setup.get("stake_multiplier", 1)
    r = settle_logged(hand, setup, stake)
    assert r is not None, "a complete hand settles"  # None is a hand still in play
    stake = own_stake(setup, stake)
    out = cast(StoredResult, r.to_json(places))
    push_ups = hand.rules.scoring == "push_ups"
    per = Decimal(1) if push_ups else stake * multiplier
    said = r.settlement.words
    out["story"] = [str(words) for words in said]
    out["story_words"] = [to_plain(words) for words in said]
    out["payments"] = [
        {"from": p.payer, "to": p.payee, "stakes": format(p.stakes.normalize(), "f"),
         "amount": fmt(p.stakes * per, places), "reason": p.reason}
        for p in r.settlement.payments
    ]
    out["multiplier"] = multiplier
    out["net_exact"] = {q: str(v) for q, v in r.net.items()}
    out["side_bets"] = cast(list[StoredSideBet],
                            [o.to_json() for o in side_bet_outcomes(hand, setup)])
    return out


def void_hand_result(hand: Hand, reason: str, places: Decimal) -> StoredResult:
    """A void hand's stored result: the result line (outcome ``void``, its
    reason, nets of 0) and what ``standings`` reads of a complete hand."""
    r = void_result(hand, reason)
    out = cast(StoredResult, r.to_json(places))
    said = r.settlement.words
    out["story"] = [str(words) for words in said]
    out["story_words"] = [to_plain(words) for words in said]
    out["payments"] = []
    out["multiplier"] = 1
    out["net_exact"] = {q: "0" for q in hand.players}
    out["side_bets"] = []
    return out
