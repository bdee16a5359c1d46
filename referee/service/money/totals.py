"""Running totals kept as the hands are written: each settled hand's row
carries what the standings read of it (its nets after the side-bet pots, the
session's totals after it, the pots left open), so a page or an API read of a
long session reads one row for the totals and a page of rows for the hands,
never every hand.

Each hand's running row follows from the one before it and its own stored
result; whenever a result changes (an action completes a hand, an undo
reopens it, a void, a rename), the rows from that hand on are written again
in the same transaction (``storage.refresh_running``). That is one row at a
live table (only the newest hand changes); a rename rewrites them all, as it
rewrites every result.
``referee verify`` recomputes them from the replay and compares.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from ...ledger.results import result_entry
from ...ledger.side_bets import Pots, SideBetOutcome


def step(before: dict | None, result: dict | None) -> dict | None:
    """The running row after a hand whose stored result is ``result`` (None:
    the hand is not settled, and carries nothing), given the row of the
    newest settled hand before it (None: the first)."""
    if result is None:
        return None
    totals = {p: Decimal(v) for p, v in (before or {}).get("totals", {}).items()}
    net = result["net_exact"]
    # A hand with side bets: its nets move with the pots, added below.
    line = result_entry(result, net=not result.get("side_bets"))
    out: dict = {"line": line}
    pots_in = (before or {}).get("pots") or {}
    if result.get("side_bets"):
        pots = pots_after(before)
        won, story = pots.settle(SideBetOutcome.from_json(o) for o in result["side_bets"])
        net = {p: str(Decimal(v) + won.get(p, Decimal(0))) for p, v in net.items()}
        out["side_bet_story"] = [str(sentence) for sentence in story]  # stored in English
        pots_in = {kind: {p: str(v) for p, v in pot.items()}
                   for kind, pot in pots.put_in.items() if pot}
    for p, v in net.items():
        totals[p] = totals.get(p, Decimal(0)) + Decimal(v)
    out["net_exact"] = dict(net)
    out["totals"] = {p: str(v) for p, v in totals.items()}
    if pots_in:
        out["pots"] = pots_in
    return out


def pots_after(before: dict | None) -> Pots:
    """The side-bet pots left open after the settled hand whose running row
    is ``before`` (None: the first), as the ledger carries them."""
    pots = Pots()
    pots.put_in = {kind: {p: Decimal(v) for p, v in pot.items()}
                   for kind, pot in ((before or {}).get("pots") or {}).items()}
    return pots


def chain(before: dict | None, results: Iterable[tuple[int, dict | None]]
          ) -> list[tuple[int, dict | None]]:
    """Each hand's running row, in order, from the settled row ``before`` them."""
    out = []
    for n, result in results:
        row = step(before, result)
        out.append((n, row))
        if row is not None:
            before = row
    return out
