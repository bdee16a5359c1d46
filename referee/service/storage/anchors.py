"""What ``referee verify`` must see the end of, kept in the transaction of
every write it follows (issue 34): a deleted tail of a chain, or a deleted
or edited row of a table the service rewrites, leaves nothing else behind.

One row of ``anchors`` each:

- ``events``: the database's newest event, its id and hash. Every session's
  chain hangs on the event stored before it, so the events are one chain
  whose end only this row keeps (the newest session deleted, or a session's
  last events cut while nothing followed them, went unseen).
- ``club_events``: the club's newest event, its number and hash.
- ``attempts``: how many rows the table of wrong tries holds, and the sum of
  their digests modulo 2**256 (moved by each write's old and new row): a row
  deleted or edited to lift a lock, or to forget tries, no longer adds up.

Whoever holds the file can write this row too, as they can a whole chain
again: what sees that is a head kept outside the file (docs/decisions.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ...record.chain import GENESIS
from .handle import Database

EVENTS, CLUB_EVENTS, ATTEMPTS = "events", "club_events", "attempts"
NAMES = (EVENTS, CLUB_EVENTS, ATTEMPTS)
_MODULUS = 2 ** 256

#: A row of ``attempts``: (session_id, kind, failures, last, locked_until).
Attempt = tuple[str, str, int, float, float]


def moved(db: Database, name: str, n: int, digest: str) -> None:
    """The chain ``name``'s newest event is now number ``n`` with hash
    ``digest`` (inside the write that appended it)."""
    db.conn.execute("UPDATE anchors SET n = ?, digest = ? WHERE name = ?", (n, digest, name))


def read(db: Database) -> dict[str, tuple[int, str]]:
    """Every anchor: name -> (n, digest)."""
    return {r[0]: (r[1], r[2]) for r in db.conn.execute("SELECT name, n, digest FROM anchors")}


def _attempt_value(row: Attempt) -> int:
    sid, kind, failures, last, until = row
    # Floats as repr writes them: both databases give back the double stored.
    text = f"{sid}\x00{kind}\x00{int(failures)}\x00{float(last)!r}\x00{float(until)!r}"
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def attempts_anchor(rows: Iterable[Attempt]) -> tuple[int, str]:
    """The anchor of ``attempts`` holding ``rows``: their count and the sum
    of their digests."""
    n = total = 0
    for row in rows:
        n += 1
        total += _attempt_value(row)
    return n, format(total % _MODULUS, "064x")


def attempt_changed(db: Database, old: Attempt | None, new: Attempt | None) -> None:
    """A row of ``attempts`` was written (``old`` None: inserted) or deleted
    (``new`` None): the anchor moves by the difference."""
    n, digest = db.conn.execute("SELECT n, digest FROM anchors WHERE name = ?",
                                (ATTEMPTS,)).fetchone()
    total = int(digest, 16)
    if old is not None:
        n, total = n - 1, total - _attempt_value(old)
    if new is not None:
        n, total = n + 1, total + _attempt_value(new)
    moved(db, ATTEMPTS, n, format(total % _MODULUS, "064x"))


def attempt_rows(db: Database) -> list[Attempt]:
    return [(r[0], r[1], r[2], r[3], r[4]) for r in db.conn.execute(
        "SELECT session_id, kind, failures, last, locked_until FROM attempts")]


def newest(db: Database, table: str) -> tuple[int, str]:
    """The newest event of ``table`` (``events`` or ``club_events``) as an
    anchor keeps it: (id, hash), (0, GENESIS) without any."""
    row = db.conn.execute(f"SELECT id, hash FROM {table} ORDER BY id DESC LIMIT 1").fetchone()
    return (row[0], row[1]) if row else (0, GENESIS)


def create(db: Database, *, pg: bool) -> None:
    """The table, its rows as the database holds now (a migration: what was
    deleted before it cannot be told)."""
    db.conn.execute(f"CREATE TABLE anchors (name TEXT PRIMARY KEY, "
                    f"n {'BIGINT' if pg else 'INTEGER'} NOT NULL, digest TEXT NOT NULL)"
                    f"{'' if pg else ' STRICT'}")
    values = {EVENTS: newest(db, "events"), CLUB_EVENTS: newest(db, "club_events"),
              ATTEMPTS: attempts_anchor(attempt_rows(db))}
    for name in NAMES:
        db.conn.execute("INSERT INTO anchors (name, n, digest) VALUES (?, ?, ?)",
                        (name, *values[name]))
