"""Running totals kept as the hands are written: each settled hand's row
carries what the standings read of it (its nets after the side-bet pots, the
session's totals after it, the pots left open), so a page or an API read of a
long session reads one row for the totals and a page of rows for the hands,
never every hand.

Each hand's running row follows from the one before it and its own stored
result; whenever a result changes (an action completes a hand, an undo
reopens it, a void, a rename), the rows from that hand on are written again
in the same transaction (``storage.running.refresh``). That is one row at a
live table (only the newest hand changes); a rename rewrites them all, as it
rewrites every result.
``referee verify`` recomputes them from the replay and compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from ...ledger.balances import balance_quantum
from ...ledger.results import match_doc, result_entry, settle_session
from ...ledger.side_bets import Pots, SideBetOutcome
from ...replay.sequential import session_money
from ...rules.match import is_over as match_is_over
from ...rules.options import HouseRules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def step(before: dict | None, result: Mapping[str, Any] | None) -> dict | None:
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


class RunningResult:
    """A session's result as its running totals give it, without a replay:
    the same facts the replay's ``SessionResult`` gives the result's sections
    (``referee.reports.sections``), worked out by the same
    ``settle_session`` from the newest settled hand's totals (exact sums, so
    one net of them settles as the hands' nets did). ``header``: the stored
    log's header (its money, its closing); ``newest``: the newest settled
    hand's running row (None: none yet). Its ``hands`` is None: the pages
    read the hands a page at a time (``sessions.standings``), the papers
    replay them."""

    hands = None

    def __init__(self, header: dict[str, Any], rules: HouseRules, players: list[str],
                 quantum: Decimal, newest: dict[str, Any] | None) -> None:
        self.header, self.rules = header, rules
        self.players, self.quantum = players, quantum
        self.push_ups = rules.scoring == "push_ups"
        self.money = money = session_money(header)
        self.closed = header.get("closed")
        nets = [{p: Decimal(v) for p, v in newest["totals"].items()}] if newest else []
        self.totals, self.balances, self.transfers = settle_session(players, nets,
                                                                    self.push_ups, money)
        self.balance_quantum = quantum if money is None else \
            balance_quantum(quantum, money.amounts())
        # Nothing is dealt after a match is over: the newest settled hand ended it.
        self._ended_by = newest["line"]["hand"] if newest else None

    def match(self) -> dict[str, Any] | None:
        """Where a match to a score stands (``match_doc``; None: no match)."""
        to = self.rules.match_to
        if to is None:
            return None
        over = match_is_over(to, self.totals)
        return match_doc(to, self.totals, self._ended_by if over else None, self.quantum)
