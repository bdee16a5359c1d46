"""Reports from a stored session: its log, the final hash of its event chain,
and one hand's events (with the corrections) for the audit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..rules.errors import MalformedInput


@dataclass
class StoredSession:
    log: dict
    final_hash: str | None
    db: object
    session_id: str

    def hand_events(self, n: int) -> list[dict]:
        from ..service import storage
        from .audit import events_from_storage

        return events_from_storage(storage.hand_events(self.db, self.session_id, n,
                                                       refusals=True))


def final_hash(db, session_id: str) -> str | None:
    row = db.conn.execute("SELECT hash FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (session_id,)).fetchone()
    return row[0] if row else None


def load_stored(db, session_id: str) -> StoredSession:
    """``db`` is an open storage database or a path to one (which must exist:
    a report never creates an empty database by mistake)."""
    from .. import live
    from ..service import storage

    if isinstance(db, (str, Path)):
        if not Path(db).is_file():
            raise MalformedInput("no_database", f"there is no database at {db}")
        db = storage.connect(db)
    log = live.get_log(db, session_id, expanded=True)
    return StoredSession(log, final_hash(db, session_id), db, session_id)
