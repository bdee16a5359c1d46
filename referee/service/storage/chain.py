"""A session's chain as stored, for what checks it: its events every column,
their hashes (the database's head, a receipt's hash still held, a session's
end), and the chain verified (the checks themselves, a pure function over
the rows, are ``record.chain.session_chain_fault``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...record.chain import CHAIN, GENESIS, session_chain_fault
from ...record.kinds import UNSEEN_BY_THE_SETTLEMENT
from . import anchors, sessions
from .columns import fits, named
from .handle import Database


def iter_rows(db: Database, sid: str) -> Iterator[dict]:
    """The session's events as stored, every column, in order, as the cursor
    reads them."""
    cur = db.conn.execute(
        "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))
    keys = [d[0] for d in cur.description]
    for values in cur:
        yield dict(zip(keys, values, strict=True))


def rows(db: Database, sid: str) -> list[dict]:
    """The session's events as stored, every column, in order."""
    return list(iter_rows(db, sid))


def rows_by_name(db: Database, sid: str) -> list:
    """The session's events as stored, every column, in order, each read by
    column name or position (``named``)."""
    return named(
        db, "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))


def _hash_of(db: Database, event_id: int) -> str | None:
    row = db.conn.execute("SELECT hash FROM events WHERE id = ?", (event_id,)).fetchone()
    return row[0] if row else None


def database_head(db: Database) -> str | None:
    """The hash of the database's newest event: every session's chain hangs on
    the one stored before it, so this vouches for them all (a database's
    receipt)."""
    row = db.conn.execute("SELECT hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else None


def holds_hash(db: Database, h: str) -> bool:
    """Whether an event of the database has the hash ``h``."""
    return db.conn.execute("SELECT 1 FROM events WHERE hash = ? LIMIT 1", (h,)
                           ).fetchone() is not None


def holders(db: Database, digits: str) -> list[tuple[str, str]]:
    """The session and hash of up to two events whose hash begins with
    ``digits`` (lower-case hex, all 64 or the first ones)."""
    return [(r[0], r[1]) for r in db.conn.execute(
        "SELECT session_id, hash FROM events WHERE hash >= ? AND hash < ? LIMIT 2",
        (digits, digits + "g"))]  # "g": past every hash that begins with them


def still_named(db: Database, digits: str) -> bool:
    """Whether the file names a hash beginning with ``digits`` (as
    ``holders``) that no event holds: an event links to it (its
    ``prev_hash``), or the anchor of the database's end keeps it."""
    end = digits + "g"
    if db.conn.execute("SELECT 1 FROM events WHERE prev_hash >= ? AND prev_hash < ? "
                       "AND prev_hash <> ? LIMIT 1", (digits, end, GENESIS)).fetchone():
        return True
    kept = anchors.read(db).get(anchors.EVENTS)
    return kept is not None and digits <= kept[1] < end


def heads_from(db: Database, digits: str, sid: str | None = None) -> list[str]:
    """The hashes of up to two events (of session ``sid``, else of the
    database) that begin with ``digits`` (lower-case hex): a receipt's head
    as a paper prints it, shortened."""
    end = digits + "g"  # past every hash that begins with them (hex sorts below "g")
    if sid is None:
        rows = db.conn.execute("SELECT hash FROM events WHERE hash >= ? AND hash < ? LIMIT 2",
                               (digits, end))
    else:
        rows = db.conn.execute("SELECT hash FROM events WHERE session_id = ? AND hash >= ? "
                               "AND hash < ? LIMIT 2", (sid, digits, end))
    return [r[0] for r in rows]


def first_new_event(db: Database) -> int | None:
    """The id of the database's first event of the current chain format
    (None: none yet)."""
    return db.conn.execute("SELECT min(id) FROM events WHERE chain >= ?",
                           (CHAIN,)).fetchone()[0]


_READ = object()


def verify_session(db: Database, sid: str, *,
                   rows: list | None = None, first_new: Any = _READ) -> dict | None:
    """The first fault of the session's chain (None: intact). ``rows``: the
    session's events as ``rows_by_name`` read them, and ``first_new``:
    ``first_new_event`` (verify reads both in its snapshot, for everything it
    checks), else they are read here. The checks are
    ``record.chain.session_chain_fault``'s; the only rows it reads itself
    are the hashes of events stored before ones in ``rows`` (events are
    never changed, so any later read of them sees what the snapshot did)."""
    if first_new is _READ:
        first_new = first_new_event(db)
    if rows is None:
        rows = rows_by_name(db, sid)
    return session_chain_fault(rows, sid, first_new, lambda i: _hash_of(db, i))


def verify_all(db: Database) -> dict[str, dict | None]:
    """For each session, the first event whose hash does not match (None: intact)."""
    return {sid: verify_session(db, sid) for sid in sessions.ids(db)}


def orphan_sessions(db: Database) -> list[str]:
    return [r[0] for r in db.conn.execute(
        "SELECT DISTINCT session_id FROM events WHERE session_id NOT IN "
        "(SELECT id FROM sessions) ORDER BY session_id")]


def hash_at(db: Database, sid: str, seq: int) -> str | None:
    """The hash of the session's event number ``seq`` (None: no such event)."""
    if not fits(seq):
        return None
    row = db.conn.execute("SELECT hash FROM events WHERE session_id = ? AND seq = ?",
                          (sid, seq)).fetchone()
    return row[0] if row else None


def end(db: Database, sid: str) -> tuple[int, str | None]:
    """(number, hash) of the session's newest event, read together: (0, None)
    without events. What a witness keeps."""
    row = db.conn.execute("SELECT seq, hash FROM events WHERE session_id = ? ORDER BY seq "
                          "DESC LIMIT 1", (sid,)).fetchone()
    return (row[0], row[1]) if row else (0, None)


def final_hash(db: Database, sid: str) -> str | None:
    """The hash of the session's newest event: the end of its chain."""
    row = db.conn.execute("SELECT hash FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row else None


def settled_head(db: Database, sid: str, closed: bool) -> str | None:
    """The head the session's settlement paper names: ``final_hash``, or for
    a closed table the hash of its newest event the paper reads (as
    ``record.chain.settled_head`` finds it in an exported chain)."""
    if not closed:
        return final_hash(db, sid)
    unseen = tuple(map(str, UNSEEN_BY_THE_SETTLEMENT))
    row = db.conn.execute(
        "SELECT hash FROM events WHERE session_id = ? AND kind NOT IN "
        f"({', '.join('?' * len(unseen))}) ORDER BY seq DESC LIMIT 1", (sid, *unseen)
    ).fetchone()
    return row[0] if row else None


def end_id(db: Database, sid: str) -> int | None:
    """The id of the session's newest event (None: it has none)."""
    row = db.conn.execute("SELECT id FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row else None


def first_missing(db: Database, first: int, last: int) -> int | None:
    """The first id from ``first`` to ``last`` that no event has (None: every
    one is there). Counted first: ids are dense, so the count says at once."""
    if last < first or db.conn.execute(
            "SELECT count(*) FROM events WHERE id BETWEEN ? AND ?", (first, last)
    ).fetchone()[0] == last - first + 1:
        return None
    expected = first
    for (found,) in db.conn.execute("SELECT id FROM events WHERE id BETWEEN ? AND ? "
                                    "ORDER BY id", (first, last)):
        if found != expected:
            break
        expected += 1
    return expected
