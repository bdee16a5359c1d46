"""What a write transaction wrote, kept on its connection until it ends:
each event appended marks its session (``touched``, by ``events``); inside
the transaction, on PostgreSQL, the engine sends the marks as ``notices`` to
every app server (the database delivers them at the commit, never for a
rollback); once it commits, the sessions it wrote are told to whoever
listens in this process (``on_commit``: the tables' bells,
``service/table/changes.py``, which rings them for the live streams). A
rolled-back transaction tells nothing.

The storage tells; it does not know who listens (the table's bells are a
context above it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

CHANNEL = "referee_changes"
_PENDING = "_referee_touched"  # the connection's attribute: (session, event) not yet committed

_listeners: list[Callable[[str, list[tuple[Any, ...] | None]], None]] = []


def on_commit(listener: Callable[[str, list[tuple[Any, ...] | None]], None]) -> None:
    """``listener(sid, rows)`` for each session a committed transaction wrote
    (``rows``: its events' (seq, kind, hand, hash, prev_hash), None for many
    written at once)."""
    if listener not in _listeners:
        _listeners.append(listener)


def touched(db: Any, sid: str, row: tuple | None = None) -> None:
    """An event of ``sid`` was written in ``db``'s open transaction (``row``:
    its (seq, kind, hand, hash, prev_hash); None for many at once)."""
    pending = getattr(db, _PENDING, None)
    if pending is None:
        pending = []
        setattr(db, _PENDING, pending)
    pending.append((sid, row))


def mark(db: Any) -> int:
    """Where the transaction's marks stand (before a savepoint)."""
    return len(getattr(db, _PENDING, None) or ())


def undo_to(db: Any, where: int) -> None:
    """A savepoint rolled back: its marks go (its events were never committed)."""
    pending = getattr(db, _PENDING, None)
    if pending:
        del pending[where:]


def _by_session(pending: list) -> dict[str, list]:
    out: dict[str, list] = {}
    for sid, row in pending:
        out.setdefault(sid, []).append(row)
    return out


def notices(db: Any) -> list[str]:
    """The transaction's notices to every app server on PostgreSQL (storage
    sends them inside it: the database delivers them at its commit, never
    for a rollback): each session, and its events when they fit in a notice."""
    out = []
    for sid, rows in _by_session(getattr(db, _PENDING, None) or []).items():
        said = json.dumps({"sid": sid, "rows": rows}, separators=(",", ":"))
        if len(said) > 7000 or None in rows:
            said = json.dumps({"sid": sid, "rows": [None]})
        out.append(said)
    return out


def committed(db: Any) -> None:
    """The transaction committed: tell the listeners the sessions it wrote."""
    pending = getattr(db, _PENDING, None)
    if pending:
        setattr(db, _PENDING, None)
        for sid, rows in _by_session(pending).items():
            for listener in _listeners:
                listener(sid, rows)


def rolled_back(db: Any) -> None:
    setattr(db, _PENDING, None)
