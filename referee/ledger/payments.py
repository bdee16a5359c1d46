"""What each ending of a hand pays, in stakes, with the reasons in words.

The ledger reads an ``Ending`` (the facts) and the house rules and returns
the payments one by one, so that a disputed hand can be explained payment by
payment; nets are derived from the payments and always sum to zero.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from ..rules.ending import DEAL_WIN, DROP, OUT, STOCK_OUT, THROWN_IN, TONK_OUT, Ending
from ..rules.options import HouseRules

ZERO = Decimal(0)
ONE = Decimal(1)
TWO = Decimal(2)


# One payment of a hand (a tuple: a replay makes tens of thousands). Made
# by collections.namedtuple, not typing.NamedTuple: typing costs a replay
# 5 ms to import.
Payment = namedtuple("Payment", ["payer", "payee", "stakes", "reason"])


# ``Payment(...)`` runs a Python ``__new__``; made straight from a tuple, in C,
# a payment costs a fifth of that.
_payment = tuple.__new__


@dataclass
class Settlement:
    """A hand settled in stakes (or push-up points)."""

    outcome: str  # deal_win, thrown_in, tonk_out, out, drop_won, caught, stock_out, dead
    players: tuple[str, ...]
    winners: list[str]
    payments: list[Payment]
    # The payment worked out in words, a function per sentence: the sentences
    # are written only when ``story`` is read (the audit, the tablet), not for
    # each of the thousands of hands a replay settles.
    tellers: list[Callable[[], str]] = field(compare=False, repr=False)
    counts: dict[str, int | None]
    net: dict[str, Decimal] = field(default_factory=dict)  # stakes, or push-up points

    @property
    def story(self) -> list[str]:
        """The payment worked out in words, sentence by sentence."""
        return [tell() for tell in self.tellers]

    @property
    def double(self) -> bool:
        """A double win (for push-ups): a tonk out or deal win paying 2 or more."""
        if self.outcome not in (TONK_OUT, DEAL_WIN):
            return False
        return any(p.stakes >= TWO for p in self.payments)


def _plural(n: Decimal) -> str:
    text = format(n.normalize(), "f")
    return f"{text} stake" if n == ONE else f"{text} stakes"


def _pays_each(payer: str, stakes: Decimal, payees: list[str]) -> str:
    if len(payees) == 1:
        return f"{payer} pays {payees[0]} {_plural(stakes)}."
    return f"{payer} pays {_plural(stakes)} to each of {_names(payees)}."


def _names(names: Iterable[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def settle_ending(ending: Ending, rules: HouseRules) -> Settlement:
    kind = ending.kind
    players = ending.players
    counts = ending.counts
    payments: list[Payment] = []
    tellers: list[Callable[[], str]] = []  # see Settlement.tellers
    tell = tellers.append

    def pay(payer: str, payee: str, stakes: Decimal, reason: str) -> None:
        if payer != payee and stakes:
            payments.append(_payment(Payment, (payer, payee, stakes, reason)))

    if kind == THROWN_IN:
        outcome = THROWN_IN
        tell(lambda: ending.why or "The hand was thrown in: no payments.")
    elif kind == DEAL_WIN:
        outcome = DEAL_WIN
        claimants = {c.player for c in ending.claims}
        if ending.why:
            tell(lambda: ending.why + ".")
        for c in ending.claims:
            tell(partial(_deal_win_sentence, c, len(claimants) > 1))
            for q in players:
                if q not in claimants:
                    pay(q, c.player, c.claim.pays, f"deal win ({c.claim.when})")
    elif kind in (TONK_OUT, OUT):
        outcome = kind
        p = ending.player
        label = "tonk out" if kind == TONK_OUT else "out"
        tell(lambda: f"{ending.why}: {label}, each other player pays {p} "
             f"{_plural(ending.pays)}.")
        for q in players:
            pay(q, p, ending.pays, label)
    elif kind == DROP:
        outcome = _settle_drop(ending, rules, pay, tell)
    elif kind == STOCK_OUT:
        outcome = _settle_stock_out(ending, rules, pay, tell)
    else:  # pragma: no cover - the hand produces no other kinds
        raise ValueError(f"unknown ending {kind}")

    net = dict.fromkeys(players, ZERO)
    for payer, payee, stakes, _reason in payments:
        net[payer] -= stakes
        net[payee] += stakes
    winners = [q for q in players if net[q] > ZERO]
    settlement = Settlement(outcome, players, winners, payments, tellers, dict(counts), net)
    if rules.scoring == "push_ups":
        _push_ups(settlement)
    return settlement


def _deal_win_sentence(c, several_claimants: bool) -> str:
    return (f"{c.player} was dealt {c.count}: {c.claim.describe()}; every "
            f"{'non-claimant' if several_claimants else 'other player'} pays "
            f"{c.player} {_plural(c.claim.pays)}.")


def _lowest(counts: dict[str, int | None], among: Iterable[str]) -> tuple[int, list[str]]:
    among = list(among)
    low = min(map(counts.__getitem__, among))
    return low, [q for q in among if counts[q] == low]


def _settle_drop(ending: Ending, rules: HouseRules, pay, tell) -> str:
    players, counts, d = ending.players, ending.counts, ending.player
    others = list(players)
    others.remove(d)
    mine = counts[d]
    low = min(map(counts.__getitem__, others))
    if mine < low:
        tell(lambda: f"{d} dropped with {mine}; every other count is higher "
             f"(lowest {low}), so the drop wins: each other player pays {d} "
             f"{_plural(rules.drop_pays)}.")
        for q in others:
            pay(q, d, rules.drop_pays, "drop won")
        return "drop_won"
    lowest = [q for q in others if counts[q] == low]
    beaters = [q for q in others if counts[q] <= mine]
    scheme = rules.caught
    n = len(players)
    tell(lambda: f"{d} dropped with {mine}; "
         + _names(f"{q} has {counts[q]}" for q in beaters)
         + ", equal or lower"
         + "".join(f"; {q} has {counts[q]}" for q in others if q not in beaters)
         + f"; so {d} is caught (catch scheme {scheme}).")
    reason = f"caught ({scheme})"
    not_lowest = [q for q in players if q not in lowest]
    if scheme in ("pagat", "single_to_beaters"):
        each = TWO if scheme == "pagat" else ONE
        for b in beaters:
            pay(d, b, each, reason)
        tell(lambda: _pays_each(d, each, beaters))
        for lo in lowest:
            for q in not_lowest:
                pay(q, lo, ONE, f"lowest count ({scheme})")
        tell(lambda: f"{_names(lowest)}, lowest with {low}, "
             f"collect{'s' if len(lowest) == 1 else ''} 1 stake from each of "
             f"{_names(not_lowest)}.")
    elif scheme == "low_collects_double":
        for lo in lowest:
            for q in not_lowest:
                pay(q, lo, TWO if q == d else ONE, reason)
        verb = "collects" if len(lowest) == 1 else "collect"
        tell(lambda: f"{_names(lowest)}, lowest with {low}, {verb}"
             f" 2 stakes from {d} and 1 from each other player not among the lowest.")
    elif scheme == "dropper_pays_table":
        amount = Decimal(n - 1)
        for lo in lowest:
            pay(d, lo, amount, reason)
        tell(lambda: _pays_each(d, amount, lowest)[:-1] + " (the table's stakes).")
    elif scheme == "double_to_all":
        for q in others:
            pay(d, q, TWO, reason)
        tell(lambda: f"{d} pays 2 stakes to every other player.")
    elif scheme == "five_to_low":
        order = ending.left_of_dealer()
        lo = min(lowest, key=order.index)
        pay(d, lo, Decimal(5), reason)
        tie = " (nearest the dealer's left of those tied)" if len(lowest) > 1 else ""
        tell(lambda: f"{d} pays 5 stakes to {lo}{tie}.")
    elif scheme == "pay_beaters":
        amount = rules.caught_amount(n)
        for b in beaters:
            pay(d, b, amount, reason)
        tell(lambda: _pays_each(d, amount, beaters))
    elif scheme == "pay_lowest":
        amount = rules.caught_amount(n)
        for lo in lowest:
            pay(d, lo, amount, reason)
        tell(lambda: _pays_each(d, amount, lowest))
    return "caught"


def _settle_stock_out(ending: Ending, rules: HouseRules, pay, tell) -> str:
    players, counts = ending.players, ending.counts
    who = ending.player
    if rules.stock_out == "dead":
        tell(lambda: f"{who} wanted to draw from the empty stock; with these rules the hand "
             "is then dead: no payments.")
        return "dead"
    low, lowest = _lowest(counts, players)
    if len(lowest) > 1 and rules.stock_out_tie == "dead":
        tell(lambda: f"The stock ran out and {_names(lowest)} tie for lowest with {low}; "
             "with these rules the hand is dead: no payments.")
        return "dead"
    rest = [q for q in players if q not in lowest]
    for lo in lowest:
        for q in rest:
            pay(q, lo, rules.stock_out_pays, "stock out, lowest count")
    tell(lambda: f"The stock ran out; {_names(lowest)} "
         f"{'has' if len(lowest) == 1 else 'share'} the lowest count ({low}) and "
         f"collect{'s' if len(lowest) == 1 else ''} {_plural(rules.stock_out_pays)} "
         f"from each of {_names(rest)}.")
    return STOCK_OUT


def _push_ups(s: Settlement) -> None:
    """Push-up scoring: winners score 0, every loser the count of their hand,
    twice that after a double win. Lower is better."""
    factor = TWO if s.double else ONE
    net = {q: ZERO for q in s.players}
    if s.outcome not in (THROWN_IN, "dead"):
        for q in s.players:
            if q in s.winners:
                continue
            count = s.counts.get(q)
            net[q] = Decimal(count or 0) * factor
        losers = [q for q in s.players if q not in s.winners]
        s.tellers.append(lambda: (
            f"Push-ups: {_names(s.winners) or 'nobody'} score 0; "
            f"{_names(losers)} go up by their counts"
            + (" times two (a double win)." if factor == TWO else ".")
        ))
    s.net = net


__all__ = ["Payment", "Settlement", "settle_ending", "OUT", "DROP"]
