"""A copy out of the club's books: a night imported again on purpose (its
session row's ``copy_of``, ``table.once``) is named as one everywhere, but
its hands and debts count in the club's ledger, balances and season as the
night's do, twice. The host takes it out with an event of the club's chain
(``out_of_books``, naming the table); ``club.tables`` leaves it out from
then on. The copy itself stays, with its pages, papers and export: only the
club no longer counts it. Nothing takes it back in (a copy is never the
night: counted again, the night would count twice).
"""

from __future__ import annotations

from ...rules.errors import RuleViolation
from ...rules.words import N_
from ..storage import Database
from ..table.live_state import session_row, table_named
from . import OUT_OF_BOOKS, _append, out_of_books

#: A copy taken out, as the page and ``referee ledger --take-out`` say it.
TAKEN_OUT = N_("{table} is out of the club's books: the club counts its night once.")


def copy_in_books(db: Database, sid: str) -> dict:
    """Table ``sid``'s stored row, when it is a copy the club's books still
    count (what ``take_out`` takes out). Refused: no such table
    (``no_session``), a table that is no copy (``not_a_copy``: it is the night
    itself, or a night stored once), a copy out of the books already
    (``out_already``)."""
    row = session_row(db, sid)
    if not row.get("copy_of"):
        raise RuleViolation("not_a_copy", N_(
            "{table} is no copy: only a night imported again as a copy can be taken out "
            "of the club's books"), {"table": table_named(row)})
    if sid in out_of_books(db):
        raise RuleViolation("out_already", N_(
            "{table} is out of the club's books already: the club counts its night once"),
            {"table": table_named(row)})
    return row


def take_out(db: Database, sid: str) -> dict:
    """Copy ``sid`` out of the club's books, as one event of the club's chain
    (``session``: the copy, ``copy_of``: the night it copies), refused as
    ``copy_in_books`` refuses, under the write's lock."""

    def check():
        return {"session": sid, "copy_of": copy_in_books(db, sid)["copy_of"]}

    return _append(db, OUT_OF_BOOKS, {}, check)
