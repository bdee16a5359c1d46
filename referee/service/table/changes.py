"""Who is told that a table changed: the live streams (``GET
/api/sessions/<id>/stream``) wait here instead of asking the database.

Every event appended to a session's chain marks the session on the writing
connection (``storage.changes.touched``); once that transaction commits, the
storage tells each marked session (``storage.changes.on_commit``), its bell
rings (``ring``) and the streams of that table, and only those, wake up to
read what is new. A rolled-back transaction rings nothing
(a job rolled back inside a group commit may ring for nothing: a stream that
finds no new event sends nothing).

On PostgreSQL several app servers share the database: the transaction also
sends ``NOTIFY referee_changes, '<session id>'`` (delivered at its commit,
to every server), and each server that holds streams listens on its own
connection and rings the same bells (``listen``). On SQLite a second process
writing the same file is seen by a stream's own look every few seconds
(``STREAM_LOOK``)."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Any

from .. import storage

RECENT = 256  # events kept per table in memory, for its streams to send without a query


class _Bell:
    """A table's bell, and its newest events as committed: (seq, kind, hand,
    hash, prev_hash), in order, so that its streams need not ask the database."""

    __slots__ = ("cond", "rung", "recent", "streams")

    def __init__(self) -> None:
        self.cond = threading.Condition(threading.Lock())
        self.rung = 0
        self.recent: deque = deque(maxlen=RECENT)
        self.streams = 0

    def add(self, rows: list[tuple[Any, ...] | None]) -> None:
        for row in rows:
            if row is None:  # written without its row (an import): not known here
                self.recent.clear()
            elif not self.recent or row[0] == self.recent[-1][0] + 1:
                self.recent.append(row)
            elif row[0] > self.recent[-1][0]:  # a gap: what was before is no guide
                self.recent.clear()
                self.recent.append(row)


_bells: dict[str, _Bell] = {}
_guard = threading.Lock()
_hooks: list = []  # told of every ring after the bell's own waiters (web.streams' writer)


def on_ring(hook) -> None:
    """``hook(sid)`` is called after every ring of a watched table's bell."""
    with _guard:
        if hook not in _hooks:
            _hooks.append(hook)


def _bell(sid: str) -> _Bell:
    bell = _bells.get(sid)
    if bell is None:
        with _guard:
            bell = _bells.setdefault(sid, _Bell())
    return bell


def attach(sid: str) -> None:
    """A stream of ``sid`` opens here: its table's bell is kept (with its
    newest events) while any stream of it is open."""
    with _guard:
        bell = _bells.setdefault(sid, _Bell())
        bell.streams += 1


def detach(sid: str) -> None:
    """A stream of ``sid`` ended: the last one takes the bell away (a process
    serving thousands of tables keeps bells only for those watched now)."""
    with _guard:
        bell = _bells.get(sid)
        if bell is not None:
            bell.streams -= 1
            if bell.streams <= 0:
                del _bells[sid]


def ring(sid: str, rows: list[tuple[Any, ...] | None] | None = None) -> None:
    """Wake every stream of ``sid`` in this process (``rows``: the events just
    committed, if known). Nothing to do for a table nobody watches here."""
    bell = _bells.get(sid)
    if bell is None:
        return
    with bell.cond:
        if rows:
            bell.add(rows)
        bell.rung += 1
        bell.cond.notify_all()
    for hook in _hooks:
        hook(sid)


# Every commit in this process rings the bells of the sessions it wrote (the
# storage tells whoever listens: it does not reach up to the table).
storage.changes.on_commit(ring)


def since(sid: str, seq: int) -> list[tuple] | None:
    """The table's events after ``seq`` as this process saw them committed;
    None when it cannot say (not all of them are in memory, or the table is
    not watched here: no bell is made for it, to be kept forever): ask the
    database."""
    bell = _bells.get(sid)
    if bell is None:
        return None
    with bell.cond:
        recent = list(bell.recent)
    if not recent or recent[0][0] > seq + 1:
        return None
    return [row for row in recent if row[0] > seq]


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


def heard(payload: str) -> None:
    """A notice from the database (any app server's commit): ring its bell."""
    said = json.loads(payload)
    ring(said["sid"], [tuple(r) if r else None for r in said["rows"]])


# ---------------------------------------------------------------- PostgreSQL

_listeners: dict[str, threading.Thread] = {}


def listen(url: str, listener) -> None:
    """Ring this process's bells for every commit on the PostgreSQL database at
    ``url``, whichever app server wrote it: ``listener(url, CHANNEL, heard)``
    (``storage.listen``, which reconnects if its connection drops) on a
    thread of its own, one per database, started by the first stream."""
    with _guard:
        if url in _listeners and _listeners[url].is_alive():
            return
        thread = threading.Thread(target=listener, args=(url, storage.changes.CHANNEL, heard),
                                  name="referee-listen", daemon=True)
        _listeners[url] = thread
        thread.start()
