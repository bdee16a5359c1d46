"""What ``referee verify`` must see the end of, kept in the transaction of
every write it follows (issue 34): a deleted tail of a chain leaves nothing
else behind.

One row of ``anchors`` each:

- ``events``: the database's newest event, its id and hash. Every session's
  chain hangs on the event stored before it, so the events are one chain
  whose end only this row keeps (the newest session deleted, or a session's
  last events cut while nothing followed them, went unseen).
- ``club_events``: the club's newest event, its number and hash.

The wrong tries are anchored beside their rows, a group each
(``attempts``). Their one anchor here (``ATTEMPTS``: the table's count of
rows and the sum of their digests), from before, is left only where it did
not add up when they moved (``retire_attempts``): verify says so while it
stands.

Whoever holds the file can write this row too, as they can a whole chain
again: what sees that is a head kept outside the file (docs/decisions.md).
"""

from __future__ import annotations

from ...record.chain import GENESIS
from .attempts import all_rows, anchor_of
from .handle import Database

EVENTS, CLUB_EVENTS, ATTEMPTS = "events", "club_events", "attempts"
NAMES = (EVENTS, CLUB_EVENTS, ATTEMPTS)


def moved(db: Database, name: str, n: int, digest: str) -> None:
    """The chain ``name``'s newest event is now number ``n`` with hash
    ``digest`` (inside the write that appended it)."""
    db.conn.execute("UPDATE anchors SET n = ?, digest = ? WHERE name = ?", (n, digest, name))


def read(db: Database) -> dict[str, tuple[int, str]]:
    """Every anchor: name -> (n, digest)."""
    return {r[0]: (r[1], r[2]) for r in db.conn.execute("SELECT name, n, digest FROM anchors")}


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
              ATTEMPTS: anchor_of(all_rows(db))}
    for name in NAMES:
        db.conn.execute("INSERT INTO anchors (name, n, digest) VALUES (?, ?, ?)",
                        (name, *values[name]))


def retire_attempts(db: Database) -> None:
    """The wrong tries' one anchor goes, where their rows add up to it (a
    migration, before the groups are anchored on what is left)."""
    kept = read(db).get(ATTEMPTS)
    if kept is None or tuple(kept) == anchor_of(all_rows(db)):
        db.conn.execute("DELETE FROM anchors WHERE name = ?", (ATTEMPTS,))
