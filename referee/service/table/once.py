"""A night is stored once: an import of a log whose table is stored already
is refused, naming the table it is stored as, unless a copy is asked for.
Imported twice, every hand and debt of the night counted twice at the club
(newcomer 44's P1; docs/decisions.md, import44)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from ...rules.words import N_
from .. import storage
from ..errors import AlreadyStored
from ..storage import Database

#: The one sentence of every door (the API's, the command's): what is
#: refused, why, and how to store the copy anyway.
STORED_AS_NAMED = N_("this log is already stored, as {table} (table {id}): importing it "
                     "again would count its hands and its debts twice. To store a second "
                     "copy anyway, ask for one: referee import --copy, or \"copy\": true "
                     "in the API's body")
STORED_AS = N_("this log is already stored, as table {id}: importing it again would count "
               "its hands and its debts twice. To store a second copy anyway, ask for one: "
               "referee import --copy, or \"copy\": true in the API's body")


def refuse_stored(db: Database, log: dict, read_log: Callable[[Database, str], dict]) -> None:
    """Refused (``already_stored``) when ``stored_as`` finds the night stored."""
    row = stored_as(db, log, read_log)
    if row is not None:
        params = {"id": row["id"], "table": row["table"]}
        raise AlreadyStored("already_stored", STORED_AS_NAMED if row["table"] else STORED_AS,
                            params if row["table"] else {"id": row["id"]})


def stored_as(db: Database, log: dict, read_log: Callable[[Database, str], dict]
              ) -> dict | None:
    """The stored table ``log`` is the night of (a copy asked for is marked a
    copy of it), None: none. ``log`` (loaded) is a night stored already
    when it is such a table. One opened at a time (``started``, which the service records
    for every table and an export gives back) is a table that opened then
    with the same players, rules, stake and currency, and dealt its first
    hand alike (the same dealer, deal and upcard), whatever hands either
    holds since: a later export of it doubles its first hands just the
    same. A log with no time is a stored one only when it is that log
    again, hand for hand (``read_log``: a stored session's log)."""
    started = log.get("started")
    for row in storage.sessions.opened_at(db, started):
        if _alike(row, log) and (_first_deal_alike(db, row["id"], log) if started is not None
                                 else _same(read_log(db, row["id"]), log)):
            return row
    return None


def _alike(row: dict, log: dict) -> bool:
    return (row["players"] == log["players"] and row["rules"] == log["rules"]
            and Decimal(row["stake"]) == Decimal(str(log["stake"]))
            and (row["currency"] or None) == (log.get("currency") or None))


def _first_deal_alike(db: Database, sid: str, log: dict) -> bool:
    """Hand 1 dealt alike at table ``sid`` and in ``log``; alike too when
    either has none yet (a table exported as it opened is the night)."""
    stored = storage.hands.row(db, sid, 1)
    if stored is None or not log.get("hands"):
        return True
    return all(stored["setup"].get(k) == log["hands"][0].get(k) for k in _DEALT)


#: What a hand's deal fixes once dealt: a correction, an acceptance or a
#: dispute changes the rest of its setup, never these.
_DEALT = ("dealer", "players", "deal", "upcard")


def _same(stored: dict, log: dict) -> bool:
    """The same log, as an export gives it back (its receipt, if it has one,
    aside: a log is the same with or without it)."""
    return stored == {k: v for k, v in log.items() if k not in ("head", "chain")}
