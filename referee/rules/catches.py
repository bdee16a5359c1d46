"""The catch schemes: who pays what when a dropper is caught.

A registry, in the order of ``rules.md``: each scheme is a name, a one-line
description and its payment function. The ``caught`` option's allowed values,
``referee rules``, the reference page and the tablet's control are all read
from here, so a new scheme is one registered function (and its row in the
test table of ``tests/test_options.py``).

A payment function reads the facts of the catch (a ``Catch``) and calls
``pay(payer, payee, stakes, reason)`` for each payment and ``tell(sentence)``
with a function that words them (``Words``, put into a language by the
shell): the sentences are made only when a person reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from .words import N_, Names, Np_, Words

ONE = Decimal(1)
#: A number of stakes, said as each language counts it ("1 stake", "0 mise").
STAKES = Np_("{n} stake", "{n} stakes")
TWO = Decimal(2)

Pay = Callable[[str, str, Decimal, str], None]
Tell = Callable[[Callable[[], Words]], None]


@dataclass(slots=True)
class Catch:
    """The facts of a caught drop (read-only by convention).

    A *beater* is a non-dropper whose count is equal to or lower than the
    dropper's; the *lowest* are the non-droppers with the lowest count.
    """

    scheme: str
    dropper: str
    dealer: str
    players: tuple[str, ...]  # seat order
    others: list[str]  # everyone but the dropper, in seat order
    beaters: list[str]
    lowest: list[str]
    low: int  # the lowest count
    amount: Decimal  # caught_pays for this many players
    drop_pays: Decimal = ONE  # what a drop won pays (lowest_wins pays the lowest so)

    def left_of_dealer(self) -> list[str]:
        """Seats in playing order, starting left of the dealer."""
        i = self.players.index(self.dealer)
        return list(self.players[i + 1:] + self.players[: i + 1])

    @property
    def reason(self) -> str:
        return f"caught ({self.scheme})"

    @property
    def not_lowest(self) -> list[str]:
        """Everyone (the dropper included) not among the lowest."""
        return [q for q in self.players if q not in self.lowest]


@dataclass(frozen=True)
class CatchScheme:
    name: str
    description: str  # one line, as in rules.md (an English template; {amount}: see below)
    pays: Callable[[Catch, Pay, Tell], None]
    # The option whose amount the scheme pays ("caught_pays"), said where the
    # description says {amount}, and what one such payment is at a table
    # ("{amount} to each beater": the house-rules sheet's money column).
    amount: str | None = None
    each: str | None = None

    def said(self, amount: object = None) -> Words:
        """The scheme in one line; ``amount`` says the option it pays (its
        name as the log writes it, where the options are listed by name)."""
        if self.amount is None:
            return Words(self.description)
        return Words(self.description, amount=self.amount if amount is None else amount)


CATCH_SCHEMES: dict[str, CatchScheme] = {}


def catch_scheme(name: str, description: str, *, amount: str | None = None,
                 each: str | None = None):
    """Register the decorated payment function as the scheme ``name``."""

    def register(pays: Callable[[Catch, Pay, Tell], None]):
        CATCH_SCHEMES[name] = CatchScheme(name, description, pays, amount, each)
        return pays

    return register


# ------------------------------------------------------------------ wording


def plural(n: Decimal) -> Words:
    """``n`` stakes, written as the referee writes them (``2``, ``0.5``)."""
    amount = Decimal(format(n.normalize(), "f"))
    return STAKES.words(n=amount)


def names(items: Iterable[str | Words]) -> Names:
    return Names(items)


def pays_each(payer: str, stakes: Decimal, payees: Iterable[str], *,
              table: bool = False) -> Words:
    """``payer`` pays ``stakes`` to each of ``payees``; ``table``: those are the
    table's stakes."""
    payees = list(payees)
    if len(payees) == 1:
        template = N_("{payer} pays {payee} {stakes} (the table's stakes).") if table else \
            N_("{payer} pays {payee} {stakes}.")
        return Words(template, payer=payer, payee=payees[0], stakes=plural(stakes))
    template = N_("{payer} pays {stakes} to each of {payees} (the table's stakes).") if table \
        else N_("{payer} pays {stakes} to each of {payees}.")
    return Words(template, payer=payer, stakes=plural(stakes), payees=names(payees))


def _lowest_collect(c: Catch, pay: Pay, tell: Tell, payers: list[str]) -> None:
    """Each lowest collects 1 stake from each of ``payers``."""
    for lo in c.lowest:
        for q in payers:
            pay(q, lo, ONE, f"lowest count ({c.scheme})")
    tell(lambda: Words(
        N_("{lowest}, lowest with {low}, collects 1 stake from each of {payers}.")
        if len(c.lowest) == 1 else
        N_("{lowest}, lowest with {low}, collect 1 stake from each of {payers}."),
        lowest=names(c.lowest), low=c.low, payers=names(payers)))


def _to_beaters(c: Catch, pay: Pay, tell: Tell, each: Decimal) -> None:
    for b in c.beaters:
        pay(c.dropper, b, each, c.reason)
    tell(lambda: pays_each(c.dropper, each, c.beaters))


# ------------------------------------------------------------------ schemes


@catch_scheme("pagat", N_("the dropper pays 2 to every beater; in addition each lowest collects "
              "1 from every player not among the lowest, the dropper included"))
def _pagat(c: Catch, pay: Pay, tell: Tell) -> None:
    _to_beaters(c, pay, tell, TWO)
    _lowest_collect(c, pay, tell, c.not_lowest)


@catch_scheme("double_to_beaters", N_("the dropper pays 2 to every beater; in addition each "
              "lowest collects 1 from every player who is neither the dropper nor among the "
              "lowest (the dropper pays only the double)"))
def _double_to_beaters(c: Catch, pay: Pay, tell: Tell) -> None:
    _to_beaters(c, pay, tell, TWO)
    payers = [q for q in c.not_lowest if q != c.dropper]
    if payers:
        _lowest_collect(c, pay, tell, payers)


@catch_scheme("low_collects_double", N_("each lowest collects 1 from every player who is not "
              "among the lowest, and 2 (not 1) from the dropper"))
def _low_collects_double(c: Catch, pay: Pay, tell: Tell) -> None:
    for lo in c.lowest:
        for q in c.not_lowest:
            pay(q, lo, TWO if q == c.dropper else ONE, c.reason)
    tell(lambda: Words(
        N_("{lowest}, lowest with {low}, collects 2 stakes from {dropper} and 1 from each "
           "other player not among the lowest.") if len(c.lowest) == 1 else
        N_("{lowest}, lowest with {low}, collect 2 stakes from {dropper} and 1 from each "
           "other player not among the lowest."),
        lowest=names(c.lowest), low=c.low, dropper=c.dropper))


@catch_scheme("dropper_pays_table", N_("the dropper pays each lowest n-1 stakes (n: the players "
              "in the hand); nobody else pays"))
def _dropper_pays_table(c: Catch, pay: Pay, tell: Tell) -> None:
    amount = Decimal(len(c.players) - 1)
    for lo in c.lowest:
        pay(c.dropper, lo, amount, c.reason)
    tell(lambda: pays_each(c.dropper, amount, c.lowest, table=True))


@catch_scheme("single_to_beaters", N_("the dropper pays 1 to every beater; in addition each "
              "lowest collects 1 from every player not among the lowest"))
def _single_to_beaters(c: Catch, pay: Pay, tell: Tell) -> None:
    _to_beaters(c, pay, tell, ONE)
    _lowest_collect(c, pay, tell, c.not_lowest)


@catch_scheme("double_to_all", N_("the dropper pays 2 to every other player"))
def _double_to_all(c: Catch, pay: Pay, tell: Tell) -> None:
    for q in c.others:
        pay(c.dropper, q, TWO, c.reason)
    tell(lambda: Words(N_("{dropper} pays 2 stakes to every other player."),
                       dropper=c.dropper))


@catch_scheme("five_to_low", N_("the dropper pays 5 to one lowest player and nobody else pays; "
              "of several tied for lowest, the one nearest the dealer's left"))
def _five_to_low(c: Catch, pay: Pay, tell: Tell) -> None:
    lo = min(c.lowest, key=c.left_of_dealer().index)
    pay(c.dropper, lo, Decimal(5), c.reason)
    tell(lambda: Words(
        N_("{dropper} pays 5 stakes to {lowest} (nearest the dealer's left of those tied).")
        if len(c.lowest) > 1 else N_("{dropper} pays 5 stakes to {lowest}."),
        dropper=c.dropper, lowest=lo))


@catch_scheme("pay_beaters", N_("the dropper pays {amount} to every beater; nothing else"),
              amount="caught_pays", each=N_("{amount} to each beater"))
def _pay_beaters(c: Catch, pay: Pay, tell: Tell) -> None:
    _to_beaters(c, pay, tell, c.amount)


@catch_scheme("pay_lowest", N_("the dropper pays {amount} to each lowest; nothing else"),
              amount="caught_pays", each=N_("{amount} to each of the lowest"))
def _pay_lowest(c: Catch, pay: Pay, tell: Tell) -> None:
    for lo in c.lowest:
        pay(c.dropper, lo, c.amount, c.reason)
    tell(lambda: pays_each(c.dropper, c.amount, c.lowest))


@catch_scheme("lowest_wins", N_("a caught drop pays like a drop won by the lowest: each lowest "
              "collects {amount} from every player not among the lowest, the dropper "
              "included, and nothing more"), amount="drop_pays",
              each=N_("{amount} to each lowest from every player not among the lowest"))
def _lowest_wins(c: Catch, pay: Pay, tell: Tell) -> None:
    for lo in c.lowest:
        for q in c.not_lowest:
            pay(q, lo, c.drop_pays, f"lowest count ({c.scheme})")
    tell(lambda: Words(
        N_("{lowest}, lowest with {low}, wins as a drop would: collects {stakes} from each of "
           "{payers}.") if len(c.lowest) == 1 else
        N_("{lowest}, lowest with {low}, win as a drop would: each collects {stakes} from "
           "each of {payers}."),
        lowest=names(c.lowest), low=c.low, stakes=plural(c.drop_pays),
        payers=names(c.not_lowest)))
