"""Running totals kept as the hands are written: each settled hand's row
carries what the standings read of it (its nets after the side-bet pots, the
session's totals after it, the pots left open), so a page or an API read of a
long session reads one row for the totals and a page of rows for the hands,
never every hand.

Each hand's running row follows from the one before it and its own stored
result (the ledger's arithmetic: ``ledger/running.py``); whenever a result
changes (an action completes a hand, an undo reopens it, a void, a rename),
the rows from that hand on are written again in the same transaction
(``refresh``). That is one row at a live table (only the newest hand
changes); a rename rewrites them all, as it rewrites every result.
``referee verify`` recomputes them from the replay and compares.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ...ledger.balances import balance_quantum
from ...ledger.results import match_doc, settle_session
from ...ledger.running import chain
from ...replay.sequential import session_money
from ...rules.match import is_over as match_is_over
from ...rules.options import HouseRules
from .. import storage
from ..storage import Database

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def refresh(db: Database, sid: str, n: int) -> None:
    """Write the running rows again from hand ``n`` on (inside the write that
    changed hand ``n``'s result)."""
    storage.running.store(db, sid, chain(storage.running.before(db, sid, n),
                                         storage.hands.results_from(db, sid, n)))


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
