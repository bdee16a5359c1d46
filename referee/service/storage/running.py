"""The running totals: each settled hand's running row (the table's totals
after it) and the session's count of settled hands, written with each hand
and again from a hand whose result changed, read a page or a range at a
time."""

from __future__ import annotations

import json

from .columns import to_json
from .handle import Database


def before(db: Database, sid: str, n: int) -> dict | None:
    """The running row of the newest settled hand before hand ``n``."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND n < ? AND "
                          "running IS NOT NULL ORDER BY n DESC LIMIT 1", (sid, n)).fetchone()
    return json.loads(row[0]) if row else None


def store(db: Database, sid: str, rows: list[tuple[int, dict | None]]) -> None:
    """The running rows of hands ``n`` (None: not settled), and the session's
    count of settled hands moved by as many as became or stopped being settled."""
    if not rows:
        return
    was = db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND n >= ? AND "
                          "running IS NOT NULL", (sid, min(n for n, _ in rows))).fetchone()[0]
    db.conn.executemany("UPDATE hands SET running = ? WHERE session_id = ? AND n = ?",
                        [(to_json(r) if r is not None else None, sid, n) for n, r in rows])
    now_settled = sum(r is not None for _, r in rows)
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (now_settled - was, sid))


def settled_count(db: Database, sid: str) -> int:
    row = db.conn.execute("SELECT settled FROM sessions WHERE id = ?", (sid,)).fetchone()
    return row[0] if row else 0


def counted_settled(db: Database, sid: str) -> int:
    """The settled hands counted again (verify holds ``settled_count`` to it)."""
    return db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND "
                           "running IS NOT NULL", (sid,)).fetchone()[0]


def rows(db: Database, sid: str, *, offset: int = 0,
         limit: int = -1) -> list[tuple[int, dict]]:
    """The settled hands' running rows in order of hands, ``limit`` of them
    (-1: all) after the first ``offset``."""
    settled = settled_count(db, sid)
    end = settled if limit < 0 else min(settled, offset + limit)
    if end <= offset:
        return []
    # Counted from the newest end of the settled hands' index: the pages read
    # most are the newest, which this reaches without stepping over the rest.
    rows = db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND running IS NOT NULL "
        "ORDER BY n DESC LIMIT ? OFFSET ?", (sid, end - offset, settled - end)).fetchall()
    return [(n, json.loads(r)) for n, r in reversed(rows)]


def between(db: Database, sid: str, first: int, last: int) -> list[tuple[int, dict]]:
    """The running rows of the settled hands numbered ``first`` to ``last``."""
    return [(n, json.loads(r)) for n, r in db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND n BETWEEN ? AND ? AND "
        "running IS NOT NULL ORDER BY n", (sid, first, last))]


def newest(db: Database, sid: str) -> dict | None:
    """The running row of the session's newest settled hand: its totals."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND running IS NOT "
                          "NULL ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return json.loads(row[0]) if row else None
