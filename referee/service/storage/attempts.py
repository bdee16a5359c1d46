"""The wrong tries at a session's secret (its PIN, a token), counted before
each is checked, and the uses of what is allowed only so often a window."""

from __future__ import annotations

from collections.abc import Callable

from . import anchors
from .handle import Database


def claim(db: Database, sid: str, kind: str, now: float,
          wait_after: Callable[[int], float]) -> float:
    """Count one try at a session's secret before it is checked (so parallel
    tries from many processes are all counted); 0 if it may go ahead, else the
    time (epoch seconds) until which the session refuses tries.
    ``wait_after(failures)``: the wait that many tries earn."""
    row = db.conn.execute("SELECT failures, last, locked_until FROM attempts "
                          "WHERE session_id = ? AND kind = ?", (sid, kind)).fetchone()
    failures, until = (row[0], row[2]) if row else (0, 0.0)
    if until > now:
        return until
    failures += 1
    _put(db, (sid, kind, *row) if row else None,
         (sid, kind, failures, now, now + wait_after(failures)))
    return 0.0


def _put(db: Database, old: anchors.Attempt | None, new: anchors.Attempt) -> None:
    """Write a row of ``attempts``, its anchor moved with it."""
    db.conn.execute(
        "INSERT INTO attempts (session_id, kind, failures, last, locked_until) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, kind) DO UPDATE SET "
        "failures = excluded.failures, last = excluded.last, "
        "locked_until = excluded.locked_until", new)
    anchors.attempt_changed(db, old, new)


def claim_in_window(db: Database, sid: str, kind: str, now: float, most: int,
                    window: float) -> float:
    """Count one use of something allowed ``most`` times a ``window`` of
    seconds (the window starting at its first use), before it is done; 0 if it
    may go ahead, else the time (epoch seconds) the window ends. Kept in the
    ``attempts`` row as ``failures`` (uses), ``last`` (the window's start) and
    ``locked_until`` (its end)."""
    row = db.conn.execute("SELECT failures, last, locked_until FROM attempts "
                          "WHERE session_id = ? AND kind = ?", (sid, kind)).fetchone()
    used, since = row[:2] if row and row[1] > now - window else (0, now)
    if used >= most:
        return since + window
    _put(db, (sid, kind, *row) if row else None, (sid, kind, used + 1, since, since + window))
    return 0.0


def clear(db: Database, sid: str, kind: str) -> None:
    for row in db.conn.execute("DELETE FROM attempts WHERE session_id = ? AND kind = ? "
                               "RETURNING failures, last, locked_until",
                               (sid, kind)).fetchall():
        anchors.attempt_changed(db, (sid, kind, *row), None)
