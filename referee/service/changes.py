"""Who is told that a table changed: the live streams (``GET
/api/sessions/<id>/stream``) wait here instead of asking the database.

Every event appended to a session's chain marks the session on the writing
connection (``touched``); once that transaction commits, each marked
session's bell rings (``committed``) and the streams of that table, and only
those, wake up to read what is new. A rolled-back transaction rings nothing
(a job rolled back inside a group commit may ring for nothing: a stream that
finds no new event sends nothing).

On PostgreSQL several app servers share the database: the transaction also
sends ``NOTIFY referee_changes, '<session id>'`` (delivered at its commit,
to every server), and each server that holds streams listens on its own
connection and rings the same bells (``listen``). On SQLite a second process
writing the same file is seen by a stream's own look every few seconds
(``STREAM_LOOK``)."""

from __future__ import annotations

import threading
from typing import Any

CHANNEL = "referee_changes"
_PENDING = "_referee_touched"  # the connection's attribute: sessions marked, not yet committed


class _Bell:
    __slots__ = ("cond", "rung")

    def __init__(self) -> None:
        self.cond = threading.Condition(threading.Lock())
        self.rung = 0


_bells: dict[str, _Bell] = {}
_guard = threading.Lock()


def _bell(sid: str) -> _Bell:
    bell = _bells.get(sid)
    if bell is None:
        with _guard:
            bell = _bells.setdefault(sid, _Bell())
    return bell


def ring(sid: str) -> None:
    """Wake every stream of ``sid`` in this process."""
    bell = _bell(sid)
    with bell.cond:
        bell.rung += 1
        bell.cond.notify_all()


def rung(sid: str) -> int:
    """How often ``sid``'s bell has rung: what ``wait`` compares with."""
    return _bell(sid).rung


def wait(sid: str, seen: int, timeout: float) -> int:
    """Until ``sid``'s bell has rung since ``seen`` (or ``timeout`` seconds):
    the count now."""
    bell = _bell(sid)
    with bell.cond:
        bell.cond.wait_for(lambda: bell.rung != seen, timeout)
        return bell.rung


def touched(db: Any, sid: str) -> None:
    """An event of ``sid`` was written in ``db``'s open transaction."""
    pending = getattr(db, _PENDING, None)
    if pending is None:
        pending = set()
        setattr(db, _PENDING, pending)
    pending.add(sid)


def before_commit(db: Any, pg: bool) -> None:
    """On PostgreSQL, the transaction's notices to every app server (sent by
    the database at its commit, never for a rollback)."""
    pending = getattr(db, _PENDING, None)
    if pg and pending:
        for sid in pending:
            db.conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, sid))


def committed(db: Any) -> None:
    """The transaction committed: ring the bells of the sessions it wrote."""
    pending = getattr(db, _PENDING, None)
    if pending:
        setattr(db, _PENDING, None)
        for sid in pending:
            ring(sid)


def rolled_back(db: Any) -> None:
    setattr(db, _PENDING, None)


# ---------------------------------------------------------------- PostgreSQL

_listeners: dict[str, threading.Thread] = {}


def listen(url: str) -> None:
    """Ring this process's bells for every commit on the PostgreSQL database at
    ``url``, whichever app server wrote it (one thread per database, started
    by the first stream; it reconnects if the connection drops)."""
    with _guard:
        if url in _listeners and _listeners[url].is_alive():
            return
        thread = threading.Thread(target=_listen, args=(url,), name="referee-listen",
                                  daemon=True)
        _listeners[url] = thread
        thread.start()


def _listen(url: str) -> None:
    import time

    import psycopg

    while True:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                for note in conn.notifies():
                    ring(note.payload)
        except psycopg.Error:
            time.sleep(1.0)  # the database restarted or the network dropped: again
