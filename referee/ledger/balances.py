"""What each player stands at once the session's money is counted: what was
carried in, what the hands gave, and what was handed over at the table.

The spec's sign: a balance is brought forward + totals + paid - received
(less what was carried on to a later table),
so a loser who pays what they lost stands at 0, and a winner who is paid
stands at 0 too. Every term sums to zero over the players, so the balances
do; ``settle_up`` then says what is still owed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from .money import places_written
from .settlement import Transfer, settle_up


def balances(
    players: Sequence[str],
    totals: Mapping[str, Decimal],
    brought_forward: Mapping[str, Decimal],
    payments: Iterable[tuple[str, str, Decimal]],
    carried_forward: Mapping[str, Decimal] | None = None,
) -> dict[str, Decimal]:
    """Each player's balance (positive: owed money), in ``players``' order.
    ``carried_forward``: what was carried on to a later table (owed there
    now, so no longer here)."""
    out = {q: brought_forward.get(q, Decimal(0)) + totals.get(q, Decimal(0)) for q in players}
    for payer, payee, amount in payments:
        out[payer] += amount
        out[payee] -= amount
    for q, v in (carried_forward or {}).items():
        out[q] -= v
    return out


def still_owed(balances: Mapping[str, Decimal], players: Sequence[str]) -> list[Transfer]:
    """The fewest payments that clear the balances."""
    return settle_up(balances, players)


def balance_quantum(quantum: Decimal, amounts: Iterable[Decimal]) -> Decimal:
    """The session's quantum, or finer where an amount carried in or paid
    has more places as written (3.505 carried in is not rounded away, and
    -3.50 is written -3.50 in a session played for points)."""
    most = max(map(places_written, amounts), default=0)
    return min(quantum, Decimal(1).scaleb(-most))
