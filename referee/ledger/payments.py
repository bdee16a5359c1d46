"""What each ending of a hand pays, in stakes, with the reasons in words.

The ledger reads an ``Ending`` (the facts) and the house rules and returns
the payments one by one, so that a disputed hand can be explained payment by
payment; nets are derived from the payments and always sum to zero.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from ..rules.catches import CATCH_SCHEMES, Catch, Pay, Tell, names, plural
from ..rules.ending import (
    DEAL_WIN,
    DROP,
    OUT,
    OUTCOME_WORDS,
    STOCK_OUT,
    THROWN_IN,
    TONK_OUT,
    Claim,
    Ending,
    Outcome,
)
from ..rules.options import VALUE_WORDS, HouseRules
from ..rules.words import N_, Phrases, Words

ZERO = Decimal(0)
ONE = Decimal(1)
TWO = Decimal(2)


# One payment of a hand (collections.namedtuple rather than typing.NamedTuple:
# typing costs a replay's start-up 5 ms to import).
Payment = namedtuple("Payment", ["payer", "payee", "stakes", "reason"])


@dataclass
class Settlement:
    """A hand settled in stakes (or push-up points)."""

    outcome: Outcome
    players: tuple[str, ...]
    winners: list[str]
    payments: list[Payment]
    # The payment worked out in words, a function per sentence: the sentences
    # are made only when ``story`` or ``words`` is read (the audit, the
    # tablet), not for each of the thousands of hands a replay settles.
    tellers: list[Callable[[], Words]] = field(compare=False, repr=False)
    counts: dict[str, int]  # the counts known (a hand never shown has none)
    net: dict[str, Decimal] = field(default_factory=dict)  # stakes, or push-up points

    @property
    def story(self) -> list[str]:
        """The payment worked out in words, sentence by sentence, in English."""
        return [str(tell()) for tell in self.tellers]

    @property
    def words(self) -> list[Words]:
        """The same sentences, for a shell to say in a language
        (``referee.language.say``)."""
        return [tell() for tell in self.tellers]

    @property
    def double(self) -> bool:
        """A double win (for push-ups): a tonk out or deal win paying 2 or more."""
        if self.outcome not in (Outcome.TONK_OUT, Outcome.DEAL_WIN):
            return False
        return any(p.stakes >= TWO for p in self.payments)


def settle_ending(ending: Ending, rules: HouseRules) -> Settlement:
    kind = ending.kind
    players = ending.players
    # The counts known: a hand never shown has none (a drop or a stock out is
    # settled once every hand has been shown, or its count given).
    counts = {q: count for q, count in ending.counts.items() if count is not None}
    payments: list[Payment] = []
    tellers: list[Callable[[], Words]] = []  # see Settlement.tellers
    tell = tellers.append

    def pay(payer: str, payee: str, stakes: Decimal, reason: str) -> None:
        if payer != payee and stakes:
            payments.append(Payment(payer, payee, stakes, reason))

    if kind is THROWN_IN:
        outcome = Outcome.THROWN_IN
        tell(lambda: ending.why or Words(N_("The hand was thrown in: no payments.")))
    elif kind is DEAL_WIN:
        outcome = _settle_deal_win(ending, pay, tell)
    elif kind in (TONK_OUT, OUT):
        outcome = _settle_out(ending, pay, tell)
    elif kind is DROP:
        outcome = _settle_drop(ending, counts, rules, pay, tell)
    elif kind is STOCK_OUT:
        outcome = _settle_stock_out(ending, counts, rules, pay, tell)
    else:  # pragma: no cover - the hand produces no other kinds
        raise ValueError(f"unknown ending {kind}")

    net = dict.fromkeys(players, ZERO)
    for payer, payee, stakes, _reason in payments:
        net[payer] -= stakes
        net[payee] += stakes
    winners = [q for q in players if net[q] > ZERO]
    settlement = Settlement(outcome, players, winners, payments, tellers, counts, net)
    if rules.scoring == "push_ups":
        _push_ups(settlement)
    return settlement


def _settle_out(ending: Ending, pay: Pay, tell: Tell) -> Outcome:
    """A tonk out or an out: each other player pays who went out."""
    kind = ending.kind
    p, pays = ending.player, ending.pays
    assert p is not None and pays is not None  # who went out, and what it pays
    label = "tonk out" if kind is TONK_OUT else "out"
    tell(lambda: Words(
        N_("{why}: tonk out, each other player pays {player} {stakes}.") if kind is TONK_OUT
        else N_("{why}: out, each other player pays {player} {stakes}."),
        why=ending.why, player=p, stakes=plural(pays)))
    for q in ending.players:
        pay(q, p, pays, label)
    return Outcome(kind)


def _settle_deal_win(ending: Ending, pay: Pay, tell: Tell) -> Outcome:
    claimants = {c.player for c in ending.claims}
    if ending.why:
        tell(lambda: Words(N_("{why}."), why=ending.why))
    for c in ending.claims:
        tell(partial(_deal_win_sentence, c, len(claimants) > 1))
        for q in ending.players:
            if q not in claimants:
                pay(q, c.player, c.claim.pays, f"deal win ({c.claim.when})")
    return Outcome.DEAL_WIN


def _deal_win_sentence(c: Claim, several_claimants: bool) -> Words:
    template = N_("{player} was dealt {count}: {claim}; every non-claimant pays {player} "
                  "{stakes}.") if several_claimants else \
        N_("{player} was dealt {count}: {claim}; every other player pays {player} {stakes}.")
    return Words(template, player=c.player, count=c.count, claim=c.claim.describe(),
                 stakes=plural(c.claim.pays))


def _lowest(counts: Mapping[str, int], among: Iterable[str]) -> tuple[int, list[str]]:
    among = list(among)
    low = min(map(counts.__getitem__, among))
    return low, [q for q in among if counts[q] == low]


def _settle_drop(ending: Ending, counts: Mapping[str, int], rules: HouseRules, pay: Pay,
                 tell: Tell) -> Outcome:
    players, d = ending.players, ending.player
    assert d is not None  # a drop names its dropper
    others = list(players)
    others.remove(d)
    mine = counts[d]
    low = min(map(counts.__getitem__, others))
    if mine < low:
        tell(lambda: Words(N_("{player} dropped with {count}; every other count is higher "
                              "(lowest {low}), so the drop wins: each other player pays "
                              "{player} {stakes}."),
                           player=d, count=mine, low=low, stakes=plural(rules.drop_pays)))
        for q in others:
            pay(q, d, rules.drop_pays, "drop won")
        return Outcome.DROP_WON
    lowest = [q for q in others if counts[q] == low]
    beaters = [q for q in others if counts[q] <= mine]
    scheme = CATCH_SCHEMES[rules.caught]
    tell(lambda: Words(
        N_("{player} dropped with {count}; {beaters}, equal or lower{others}; so {player} is "
           "caught (catch scheme: {scheme})."),
        player=d, count=mine,
        beaters=names(Words(N_("{player} has {count}"), player=q, count=counts[q])
                      for q in beaters),
        others=Phrases(Words(N_("; {player} has {count}"), player=q, count=counts[q])
                       for q in others if q not in beaters),
        # the scheme in the words the rules' data states for it: a player
        # reads "pay the lowest", not the option's value "pay_lowest"
        scheme=Words(VALUE_WORDS["caught"][scheme.name])))
    catch = Catch(scheme.name, d, ending.dealer, players, others, beaters, lowest, low,
                  rules.caught_amount(len(players)), rules.drop_pays)
    scheme.pays(catch, pay, tell)
    return Outcome.CAUGHT


def _settle_stock_out(ending: Ending, counts: Mapping[str, int], rules: HouseRules, pay: Pay,
                      tell: Tell) -> Outcome:
    players = ending.players
    who = ending.player
    if rules.stock_out == "dead":
        if who is None:  # a stock out told by its ending need not say who drew
            tell(lambda: Words(N_("The stock ran out; with these rules the hand is then dead: "
                                  "no payments.")))
            return Outcome.DEAD
        tell(lambda: Words(N_("{player} wanted to draw from the empty stock; with these rules "
                              "the hand is then dead: no payments."), player=who))
        return Outcome.DEAD
    low, lowest = _lowest(counts, players)
    if len(lowest) > 1 and rules.stock_out_tie == "dead":
        tell(lambda: Words(N_("The stock ran out and {lowest} tie for lowest with {low}; with "
                              "these rules the hand is dead: no payments."),
                           lowest=names(lowest), low=low))
        return Outcome.DEAD
    rest = [q for q in players if q not in lowest]
    for lo in lowest:
        for q in rest:
            pay(q, lo, rules.stock_out_pays, "stock out, lowest count")
    tell(lambda: Words(
        N_("The stock ran out; {lowest} has the lowest count ({low}) and collects {stakes} "
           "from each of {rest}.") if len(lowest) == 1 else
        N_("The stock ran out; {lowest} share the lowest count ({low}) and collect {stakes} "
           "from each of {rest}."),
        lowest=names(lowest), low=low, stakes=plural(rules.stock_out_pays), rest=names(rest)))
    return Outcome.STOCK_OUT


def _push_ups(s: Settlement) -> None:
    """Push-up scoring: winners score 0, every loser the count of their hand,
    twice that after a double win. Lower is better. Nothing is paid: the
    stakes the ending would pay only say who wins and whether the win is
    double, so the payments give way to the scores, said in their place."""
    double = s.double
    factor = TWO if double else ONE
    net = {q: ZERO for q in s.players}
    if s.outcome not in (Outcome.THROWN_IN, Outcome.DEAD):
        for q in s.players:
            if q not in s.winners:
                net[q] = Decimal(s.counts.get(q) or 0) * factor
        s.tellers[:] = [partial(_push_up_sentence, s.winners, [
            (q, s.counts.get(q) or 0, net[q]) for q in s.players if q not in s.winners],
            s.outcome if double else None)]
        s.payments = []
    s.net = net


def _push_up_sentence(winners: list[str], losers: list[tuple[str, int, Decimal]],
                      double: str | None) -> Words:
    """The push-up scores of a hand in one sentence: who scores 0 and what each
    loser goes up by (``double``: the outcome of a double win, said by its
    name: a push-up table stakes nothing, so a win is not "worth 2 stakes")."""
    if double is None:
        rises = names(Words(N_("{player} {count}"), player=q, count=count)
                      for q, count, _score in losers)
        template = (N_("Push-ups, nothing is paid: every player goes up by their count "
                       "({rises}).") if not winners else
                    N_("Push-ups, nothing is paid: {winners} scores 0 and every loser goes up "
                       "by their count ({rises}).") if len(winners) == 1 else
                    N_("Push-ups, nothing is paid: {winners} score 0 and every loser goes up "
                       "by their count ({rises})."))
        return Words(template, winners=names(winners), rises=rises)
    rises = names(Words(N_("{player} {count} × 2 = {score}"), player=q, count=count,
                        score=score) for q, count, score in losers)
    template = (N_("Push-ups, nothing is paid: {winners} scores 0 with a double win "
                   "({ending}), so every loser goes up by twice their count ({rises}).")
                if len(winners) == 1 else
                N_("Push-ups, nothing is paid: {winners} score 0 with a double win "
                   "({ending}), so every loser goes up by twice their count ({rises})."))
    return Words(template, winners=names(winners), ending=Words(OUTCOME_WORDS[double]),
                 rises=rises)


__all__ = ["Payment", "Settlement", "settle_ending", "OUT", "DROP"]
