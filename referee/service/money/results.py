"""A settled hand's result as the service stores it: at the hand's own stake,
in the session's places (its quantum), with the payments in words and the
exact nets (``ledger/results.py`` makes the result lines these come from)."""

from __future__ import annotations

from decimal import Decimal

from ...ledger.money import fmt, parse_stake, quantum_for
from ...ledger.results import void_result
from ...replay import own_stake, settle_logged, side_bet_outcomes
from ...rules.hand import Hand
from ...rules.options import HouseRules
from ...rules.words import to_plain


def quantum(rules: HouseRules, stake: Decimal, currency: str | None) -> Decimal:
    """The places every amount of the session is written with."""
    if rules.scoring == "push_ups":
        return Decimal(1)
    return quantum_for(stake, currency, rules.payment_amounts())


def session_quantum(row: dict, rules: HouseRules) -> Decimal:
    """The session's quantum as stored (an import's hands may have their own
    stakes with more places), else from its stake."""
    if row.get("quantum"):
        return Decimal(row["quantum"])
    return quantum(rules, parse_stake(row["stake"]), row["currency"])


def hand_result(hand: Hand, stake: Decimal, places: Decimal, setup: dict) -> dict:
    """A complete hand's result: the tonk-result/1 entry, the payments in words
    (``story`` in English, ``story_words`` for ``referee.language.story``), and
    the exact nets (totals are summed before rounding, as the replay does). Side
    bets are stored as they came out; their pots are carried in ``standings``."""
    multiplier = setup.get("stake_multiplier", 1)
    r = settle_logged(hand, setup, stake)
    stake = own_stake(setup, stake)
    out = r.to_json(places)
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
    out["side_bets"] = [o.to_json() for o in side_bet_outcomes(hand, setup)]
    return out


def void_hand_result(hand: Hand, reason: str, places: Decimal) -> dict:
    """A void hand's stored result: the result line (outcome ``void``, its
    reason, nets of 0) and what ``standings`` reads of a complete hand."""
    r = void_result(hand, reason)
    out = r.to_json(places)
    said = r.settlement.words
    out["story"] = [str(words) for words in said]
    out["story_words"] = [to_plain(words) for words in said]
    out["payments"] = []
    out["multiplier"] = 1
    out["net_exact"] = {q: "0" for q in hand.players}
    out["side_bets"] = []
    return out
