"""How a hand's play ended: the facts the ledger settles from."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .options import DealWin

# Kinds of ending; the ledger turns "drop" into drop_won or caught and
# "stock_out" into stock_out or dead.
DEAL_WIN = "deal_win"
THROWN_IN = "thrown_in"
TONK_OUT = "tonk_out"
OUT = "out"
DROP = "drop"
STOCK_OUT = "stock_out"


@dataclass(frozen=True)
class Claim:
    player: str
    claim: DealWin
    rank: int  # place in the deal_wins list: 0 is the best
    count: int


@dataclass(slots=True)
class Ending:
    """The facts of how a hand ended, read by the ledger. Read-only by
    convention (``dataclasses.replace`` makes a changed copy) but not frozen:
    a frozen dataclass takes three times as long to make, and every hand
    makes one."""

    kind: str
    players: tuple[str, ...]  # the hand's seats, in order
    dealer: str
    player: str | None = None  # who went out or dropped
    pays: Decimal | None = None  # stakes each other player pays (tonk out, out)
    why: str = ""  # how that payment was decided, for the audit
    claims: tuple[Claim, ...] = ()
    counts: dict[str, int | None] = field(default_factory=dict)

    def left_of_dealer(self) -> list[str]:
        """Seats in playing order, starting left of the dealer."""
        i = self.players.index(self.dealer)
        return list(self.players[i + 1:] + self.players[: i + 1])
