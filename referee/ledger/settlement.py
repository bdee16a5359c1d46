"""Settling up: the fewest payments that clear everyone's balance.

The minimum number of transfers among n players with non-zero balances is
n minus the largest number of groups the players can be split into whose
balances each sum to zero. For up to ``EXACT_LIMIT`` players that split is
found exactly by dynamic programming over subsets; beyond that a greedy
match (largest debtor to largest creditor) is used, which is usually but not
always minimal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

EXACT_LIMIT = 10


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: Decimal


def settle_up(
    balances: Mapping[str, Decimal], order: Sequence[str] | None = None
) -> list[Transfer]:
    """Transfers that bring every balance (positive: owed money) to zero.

    ``order`` (seat order) breaks ties so the answer is deterministic.
    """
    order = list(order or balances)
    seat = {p: i for i, p in enumerate(order)}
    people = sorted((p for p, b in balances.items() if b), key=lambda p: (seat.get(p, 1e9), p))
    if sum(balances[p] for p in people) != 0:
        raise ValueError("balances do not sum to zero")
    if len(people) <= EXACT_LIMIT:
        groups = _zero_sum_groups(people, balances)
    else:
        groups = [people]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group, balances, seat))
    transfers.sort(key=lambda t: (seat.get(t.payer, 1e9), seat.get(t.payee, 1e9)))
    return transfers


def _zero_sum_groups(people: list[str], balances: Mapping[str, Decimal]) -> list[list[str]]:
    n = len(people)
    full = (1 << n) - 1
    total = [Decimal(0)] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        total[mask] = total[mask ^ low] + balances[people[low.bit_length() - 1]]
    # best[mask]: most zero-sum groups that the players of mask split into,
    # counting a trailing remainder as part of the last group.
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        b = 0
        m = mask
        while m:
            low = m & -m
            b = max(b, best[mask ^ low])
            m ^= low
        best[mask] = b + (1 if total[mask] == 0 else 0)
    # Walk back: peel players off one at a time; a zero-sum prefix closes a group.
    groups: list[list[str]] = []
    mask = full
    current: list[str] = []
    while mask:
        target = best[mask] - (1 if total[mask] == 0 else 0)
        m = mask
        chosen = None
        while m:
            low = m & -m
            if best[mask ^ low] == target:
                chosen = low
                break
            m ^= low
        assert chosen is not None  # best[mask] was reached by peeling someone off
        current.append(people[chosen.bit_length() - 1])
        prev = mask
        mask ^= chosen
        if total[mask] == 0 and mask:
            # What was removed since the last zero-sum point forms a group.
            groups.append(current)
            current = []
        del prev
    if current:
        groups.append(current)
    return groups


def _greedy(group: list[str], balances: Mapping[str, Decimal], seat: Mapping[str, int]
            ) -> list[Transfer]:
    left = {p: balances[p] for p in group}
    out: list[Transfer] = []
    while True:
        debtors = [p for p in left if left[p] < 0]
        creditors = [p for p in left if left[p] > 0]
        if not debtors:
            break
        d = min(debtors, key=lambda p: (left[p], seat.get(p, 1e9)))
        c = max(creditors, key=lambda p: (left[p], -seat.get(p, 1e9)))
        amount = min(-left[d], left[c])
        out.append(Transfer(d, c, amount))
        left[d] += amount
        left[c] -= amount
    return out
