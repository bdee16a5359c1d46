"""What a device following a table reads of its chain, for the live streams
and the witness check: the events after the last one it was sent, where the
chain ends, whether the chain still holds what the device saw, and (on
PostgreSQL) this server hearing every other server's commits. The web asks
here, never the storage."""

from __future__ import annotations

from typing import Any

from .. import storage
from ..storage import Database
from . import changes


def events_after(db: Database, sid: str, last: int, most: int) -> list[tuple[Any, ...]]:
    """Up to ``most`` events of the table after event ``last``, as the streams send them."""
    return storage.events.since(db, sid, last, most)


def chain_end(db: Database, sid: str) -> tuple[int, str | None]:
    """The number and hash of the table's newest event ((0, None) without events)."""
    return storage.chain.end(db, sid)


def consistency(db: Database, sid: str, seq: int, head: str) -> dict[str, Any]:
    """Whether event ``seq`` of the chain still has the hash ``head`` a
    device saw, with where the chain ends now."""
    end, newest = storage.chain.end(db, sid)
    return {"consistent": storage.chain.hash_at(db, sid, seq) == head, "seq": end, "head": newest}


def hear_other_servers(db: Database) -> None:
    """On PostgreSQL, listen for the commits of every app server sharing the
    database (``changes.listen``); SQLite needs nothing."""
    if storage.is_pg(db):
        changes.listen(db.url, storage.listen)
