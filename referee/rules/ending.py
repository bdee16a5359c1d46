"""How a hand's play ended: the facts the ledger settles from, and what a tonk
out pays."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from .allowed import DealWin
from .options import HouseRules
from .words import N_, Words

ONE = Decimal(1)


class EndingKind(StrEnum):
    """How the play ended; the ledger turns a drop into drop_won or caught
    and a stock out into stock_out or dead."""

    DEAL_WIN = "deal_win"
    THROWN_IN = "thrown_in"
    TONK_OUT = "tonk_out"
    OUT = "out"
    DROP = "drop"
    STOCK_OUT = "stock_out"


DEAL_WIN, THROWN_IN, TONK_OUT, OUT, DROP, STOCK_OUT = EndingKind


class Outcome(StrEnum):
    """A settled hand's outcome, as the result format writes it."""

    DEAL_WIN = "deal_win"
    THROWN_IN = "thrown_in"
    TONK_OUT = "tonk_out"
    OUT = "out"
    DROP_WON = "drop_won"
    CAUGHT = "caught"
    STOCK_OUT = "stock_out"
    DEAD = "dead"
    VOID = "void"  # a cancelled hand


#: Each outcome's name, as every page, paper and refusal says it.
OUTCOME_WORDS: dict[str, str] = {
    Outcome.DEAL_WIN: N_("deal win"),
    Outcome.THROWN_IN: N_("thrown in"),
    Outcome.TONK_OUT: N_("tonk out"),
    Outcome.OUT: N_("out"),
    Outcome.DROP_WON: N_("drop won"),
    Outcome.CAUGHT: N_("caught"),
    Outcome.STOCK_OUT: N_("stock out"),
    Outcome.DEAD: N_("dead"),
    Outcome.VOID: N_("void"),
}
#: Each way play ends, as a refusal names it: its outcome's name, and a drop
#: (the ledger makes it drop won or caught) its own.
ENDING_WORDS: dict[str, str] = {kind: OUTCOME_WORDS.get(kind, N_("drop")) for kind in EndingKind}


@dataclass(frozen=True)
class Claim:
    player: str
    claim: DealWin
    rank: int  # place in the deal_wins list: 0 is the best
    count: int


@dataclass(slots=True)
class Ending:
    """The facts of how a hand ended, read by the ledger. Read-only by
    convention (``dataclasses.replace`` makes a changed copy), not frozen:
    every hand makes one, and a frozen one costs three times as much."""

    kind: EndingKind
    players: tuple[str, ...]  # the hand's seats, in order
    dealer: str
    player: str | None = None  # who went out or dropped
    pays: Decimal | None = None  # stakes each other player pays (tonk out, out)
    why: Words | None = None  # how that payment was decided, for the audit
    claims: tuple[Claim, ...] = ()
    counts: dict[str, int | None] = field(default_factory=dict)

    def left_of_dealer(self) -> list[str]:
        """Seats in playing order, starting left of the dealer."""
        i = self.players.index(self.dealer)
        return list(self.players[i + 1:] + self.players[: i + 1])


def tonk_out_pays(rules: HouseRules, p: str, *, first_turn: bool, two_spreads: bool,
                  by_hits: bool, hit_a_spread: bool) -> tuple[Decimal, Words]:
    """What a tonk out by ``p`` pays each other player, and why, from the
    facts of how it happened (a played hand knows them; a told one states
    them): out in the first turn; with two spreads of one's own in it; the
    last cards gone by hits alone; having hit a spread this hand."""
    if rules.first_turn_two_spreads_pays is not None and first_turn and two_spreads:
        return rules.first_turn_two_spreads_pays, Words(
            N_("{player} went out in their first turn with two spreads of their own"),
            player=p)
    if rules.tonk_out_by_hits_pays is not None and by_hits:
        pays, why = rules.tonk_out_by_hits_pays, Words(
            N_("{player}'s last cards went by hits alone"), player=p)
    else:
        pays, why = rules.tonk_out_pays, Words(
            N_("{player} emptied their hand with no final discard"), player=p)
    if rules.tonk_out_double_first_turn_only and not first_turn and pays > ONE:
        pays, why = ONE, Words(
            N_("{why}, after their first turn (a tonk out then pays 1)"), why=why)
    if rules.tonk_out_double_lost_by_hitting and hit_a_spread and pays > ONE:
        pays, why = ONE, Words(
            N_("{why}, having hit a spread this hand (so it pays 1)"), why=why)
    return pays, why
