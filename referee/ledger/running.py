"""A session's running totals, hand after hand: each settled hand's running
row (its line, its nets after the side-bet pots, the session's totals after
it, the pots left open) follows from the row of the settled hand before it
and its own stored result. Exact sums, written as text; the service keeps
the rows with the hands (``service/money/totals.py``) and ``referee verify``
works them out again from a replay."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from .results import result_entry
from .side_bets import Pots, SideBetOutcome


def step(before: dict[str, Any] | None, result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The running row after a hand whose stored result is ``result`` (None:
    the hand is not settled, and carries nothing), given the row of the
    newest settled hand before it (None: the first)."""
    if result is None:
        return None
    totals = {p: Decimal(v) for p, v in (before or {}).get("totals", {}).items()}
    net = result["net_exact"]
    # A hand with side bets: its nets move with the pots, added below.
    line = result_entry(result, net=not result.get("side_bets"))
    out: dict[str, Any] = {"line": line}
    pots_in = (before or {}).get("pots") or {}
    if result.get("side_bets"):
        net, out["side_bet_story"], pots_in = _side_bets(before, result["side_bets"], net)
    for p, v in net.items():
        totals[p] = totals.get(p, Decimal(0)) + Decimal(v)
    out["net_exact"] = dict(net)
    out["totals"] = {p: str(v) for p, v in totals.items()}
    if pots_in:
        out["pots"] = pots_in
    return out


def _side_bets(before: dict[str, Any] | None, outcomes: list[dict[str, Any]],
               net: Mapping[str, str]) -> tuple[dict[str, str], list[str], dict[str, Any]]:
    """A hand's nets with what its side bets won, their story (stored in
    English), and the pots left open after it."""
    pots = pots_after(before)
    won, story = pots.settle(SideBetOutcome.from_json(o) for o in outcomes)
    net = {p: str(Decimal(v) + won.get(p, Decimal(0))) for p, v in net.items()}
    pots_in = {kind: {p: str(v) for p, v in pot.items()}
               for kind, pot in pots.put_in.items() if pot}
    return net, [str(sentence) for sentence in story], pots_in


def pots_after(before: dict[str, Any] | None) -> Pots:
    """The side-bet pots left open after the settled hand whose running row
    is ``before`` (None: the first), as the ledger carries them."""
    pots = Pots()
    pots.put_in = {kind: {p: Decimal(v) for p, v in pot.items()}
                   for kind, pot in ((before or {}).get("pots") or {}).items()}
    return pots


def chain(before: dict[str, Any] | None, results: Iterable[tuple[int, dict[str, Any] | None]]
          ) -> list[tuple[int, dict[str, Any] | None]]:
    """Each hand's running row, in order, from the settled row ``before`` them."""
    out = []
    for n, result in results:
        row = step(before, result)
        out.append((n, row))
        if row is not None:
            before = row
    return out
