"""A session's hash-chained, append-only events: appended (one, or a new
session's many at once) and read back (a hand's actions, the table's own
events, the corrections of names, what changed since an event). The chain's
hashes as verify and a witness read them are ``chain``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any

from ...record.chain import (
    CHAIN,
    GENESIS,
    canonical,
    event_hash,
    event_hashes_v2,
    in_force,
    renamed_payload,
    without_reply,
)
from ...record.kinds import PLAY as _PLAY
from ...record.kinds import EventKind
from . import anchors, changes
from .columns import fits, insert_rows, now
from .handle import Database

# The kinds as plain text: bound in the statements' parameters and compared
# once per event read.
PLAY = tuple(map(str, _PLAY))


_REFUSAL, _SETTLE, _RENAME = map(str, (EventKind.REFUSAL, EventKind.SETTLE, EventKind.RENAME))


_HAND_START = str(EventKind.HAND_START)


class Moved(Exception):
    """The session has a newer event than the writer expected (another process
    wrote): the transaction's job gives up, to be worked out again."""


def append(db: Database, session_id: str, hand: int | None, kind: str, payload: Any,
           client_id: str | None = None, *, table: str = "events",
           after: int | None = None) -> dict:
    """Append one event to the session's chain (inside a ``write`` transaction).
    With ``after``, raise ``Moved`` unless the session's newest event has that id.
    ``table`` is only for the benchmark's floor, which times this same insert."""
    last = db.conn.execute(
        f"SELECT seq, hash, id FROM {table} WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    if after is not None and (last is None or last[2] != after):
        raise Moved(session_id)
    # Ids are given here, one more than the newest (the write lock is held), so
    # that they are dense: a deleted event or session leaves a hole verify sees.
    newest = db.conn.execute(f"SELECT id, hash FROM {table} ORDER BY id DESC LIMIT 1"
                             ).fetchone()
    new_id = newest[0] + 1 if newest else 1
    if last:
        seq, prev = last[0] + 1, last[1]
    else:  # a session's first event hangs on the database's newest one
        seq, prev = 1, newest[1] if newest else GENESIS
    row = {
        "id": new_id,
        "chain": CHAIN,
        "session_id": session_id,
        "hand": hand,
        "seq": seq,
        "kind": kind,
        "payload": canonical(payload),
        "client_id": client_id,
        "created": now(),
        "prev_hash": prev,
    }
    row["hash"] = event_hash(prev, row)
    db.conn.execute(
        f"INSERT INTO {table} (id, chain, session_id, hand, seq, kind, payload, client_id, "
        "created, prev_hash, hash) VALUES (:id, :chain, :session_id, :hand, :seq, :kind, "
        ":payload, :client_id, :created, :prev_hash, :hash)",
        row,
    )
    if table in (anchors.EVENTS, anchors.CLUB_EVENTS):
        anchors.moved(db, table, new_id, row["hash"])
    if table == "events":
        changes.touched(db, session_id, (seq, kind, hand, row["hash"], prev))
    return row


#: Events hashed and inserted at a time by ``append_many``: a 200,000-hand
#: import has about 3 million, which held 1 GB more at once than in runs.
EVENTS_AT_A_TIME = 20_000


def append_many(db: Database, session_id: str,
                events: Iterable[tuple[int | None, str, Any]]) -> int:
    """Append a new session's events ``(hand, kind, payload)`` in one go
    (``payload``: data, or its canonical text already)
    (inside a ``write`` transaction): the rows ``append`` would write
    one by one, hashed the same way, inserted ``EVENTS_AT_A_TIME`` at once
    (``insert_rows``; ``events`` may be a generator, read as they go). An
    import of 10,000 hands spent most of its time in the two selects and the
    insert that each event costs there. Returns the first event's id (the
    others follow it)."""
    if db.conn.execute("SELECT 1 FROM events WHERE session_id = ? LIMIT 1",
                       (session_id,)).fetchone():
        raise ValueError(f"session {session_id} has events already")
    newest = db.conn.execute("SELECT id, hash FROM events ORDER BY id DESC LIMIT 1"
                             ).fetchone()
    first, prev = (newest[0] + 1, newest[1]) if newest else (1, GENESIS)
    created = now()
    assert CHAIN == 2, "event_hashes_v2 writes format 2"
    shared = {"chain": CHAIN, "session_id": session_id, "client_id": None, "created": created}
    done = 0
    events = iter(events)
    while run := list(islice(events, EVENTS_AT_A_TIME)):
        short = [(first + done + i, hand, done + i + 1, kind,
                  payload if isinstance(payload, str) else canonical(payload))
                 for i, (hand, kind, payload) in enumerate(run)]
        hashes = event_hashes_v2(prev, session_id, created, short)
        prevs = [prev, *hashes[:-1]]
        insert_rows(db, "events", ("id", "hand", "seq", "kind", "payload", "prev_hash", "hash"),
                     [(*row, before, after)
                      for row, before, after in zip(short, prevs, hashes, strict=True)],
                     shared=shared)
        prev, done = hashes[-1], done + len(run)
    if done:
        anchors.moved(db, anchors.EVENTS, first + done - 1, prev)
    changes.touched(db, session_id)
    return first


def of_hand(db: Database, session_id: str, n: int, *,
            refusals: bool = False) -> list[dict]:
    """The hand's actions and corrections in order (and the refused attempts,
    with ``refusals``: the audit shows them)."""
    if not fits(n):
        return []
    kinds = (*PLAY, _REFUSAL) if refusals else PLAY
    rows = db.conn.execute(
        "SELECT id, seq, kind, payload FROM events WHERE session_id = ? AND hand = ? "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq",
        (session_id, n, *kinds),
    ).fetchall()
    return _rename_payloads(
        [{"id": r[0], "seq": r[1], "kind": r[2], "payload": json.loads(r[3])} for r in rows],
        renames(db, session_id))


def of_kinds(db: Database, session_id: str, kinds: tuple[str, ...]) -> list[dict]:
    """The session's events of ``kinds`` in order (the table's own events, for
    the papers: who accepted when, what was disputed)."""
    rows = db.conn.execute(
        "SELECT id, seq, hand, kind, payload, created FROM events WHERE session_id = ? "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq", (session_id, *kinds),
    ).fetchall()
    return [{"id": r[0], "seq": r[1], "hand": r[2], "kind": r[3], "payload": _said(r[4]),
             "created": r[5]} for r in rows]


def session_level(db: Database, session_id: str, kinds: tuple[str, ...]) -> list[dict]:
    """The session's own events of ``kinds`` (``hand`` null: a stake change,
    a leave, a seat taken, a dispute settled) in order, with when each was
    kept; a short walk of the index, for the pages."""
    rows = db.conn.execute(
        "SELECT seq, kind, payload, created FROM events WHERE session_id = ? AND hand IS NULL "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq", (session_id, *kinds),
    ).fetchall()
    return [{"seq": r[0], "kind": r[1], "payload": _said(r[2]), "created": r[3]}
            for r in rows]


def hand_level(db: Database, session_id: str, n: int,
               kinds: tuple[str, ...]) -> list[dict]:
    """Hand ``n``'s own events of ``kinds`` in order, with when each was kept."""
    if not fits(n):
        return []
    rows = db.conn.execute(
        "SELECT seq, kind, payload, created FROM events WHERE session_id = ? AND hand = ? "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq", (session_id, n, *kinds),
    ).fetchall()
    return [{"seq": r[0], "kind": r[1], "payload": _said(r[2]), "created": r[3]}
            for r in rows]


def _said(payload: str) -> dict:
    """A table event's payload as what it says: without the digests of its
    answer and request, which are the chain's (``record.chain.with_reply``)."""
    return without_reply(json.loads(payload))


def hand_start_id(db: Database, session_id: str, n: int) -> int | None:
    """The id of hand ``n``'s start as it stands (a told hand corrected has
    been started again: its newest)."""
    row = db.conn.execute("SELECT id FROM events WHERE session_id = ? AND hand = ? AND kind = ? "
                          "ORDER BY seq DESC LIMIT 1", (session_id, n, _HAND_START)).fetchone()
    return row[0] if row else None


def settled_between(db: Database, session_id: str, first: int, last: int) -> dict[int, int]:
    """How many disputes of each hand numbered ``first`` to ``last`` are settled."""
    first, last = max(first, -(2**63)), min(last, 2**63 - 1)
    out: dict[int, int] = {}
    for (n,) in db.conn.execute(
            "SELECT hand FROM events WHERE session_id = ? AND hand BETWEEN ? AND ? "
            "AND kind = ?", (session_id, first, last, _SETTLE)):
        out[n] = out.get(n, 0) + 1
    return out


def renames(db: Database, session_id: str) -> list[tuple[int, str, str]]:
    """The session's name corrections in order: (seq, old, new). Session-level
    events only (``hand`` null): a short walk of the index."""
    return [(seq, p["old"], p["new"]) for seq, p in (
        (r[0], json.loads(r[1])) for r in db.conn.execute(
            "SELECT seq, payload FROM events WHERE session_id = ? AND hand IS NULL AND "
            "kind = ? ORDER BY seq", (session_id, _RENAME)))]


def _rename_payloads(events: list[dict], names: list[tuple[int, str, str]]) -> list[dict]:
    if not names:
        return events
    for ev in events:
        renamed_payload(ev["payload"], ev["seq"], names)
    return events


def live_actions(events: list[dict]) -> list[dict]:
    """The hand's actions in force (``record.chain.in_force``) among its
    events as read here, their payloads decoded."""
    return in_force(events, _cancelled)


def _cancelled(ev: Mapping[str, Any]) -> object:
    return ev["payload"]["cancels"]


def newest_seq(db: Database, sid: str) -> int:
    """The number of the session's newest event (0: none): every change to
    what its result says is an event, so this says whether it changed."""
    row = db.conn.execute("SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row else 0


def touched_since(db: Database, sid: str, seq: int) -> tuple[int | None, bool]:
    """What the session's events after event ``seq`` touched: the lowest hand
    number among them (None: none was about a hand), and whether one of them
    corrected a name (which rewrites every hand)."""
    row = db.conn.execute(
        "SELECT min(hand), max(CASE WHEN kind = ? THEN 1 ELSE 0 END) FROM events "
        "WHERE session_id = ? AND seq > ?", (_RENAME, sid, seq)).fetchone()
    return row[0], bool(row[1])


def actions_by_hand(db: Database, sid: str) -> dict[int, list[dict]]:
    """Every hand's actions and corrections, in order, by hand."""
    events: dict[int, list[dict]] = {}
    names = renames(db, sid)
    for ev_id, seq, hand, kind, payload in db.conn.execute(
            "SELECT id, seq, hand, kind, payload FROM events WHERE session_id = ? AND kind IN "
            f"({', '.join('?' * len(PLAY))}) ORDER BY seq", (sid, *PLAY)):
        events.setdefault(hand, []).append({"id": ev_id, "seq": seq, "kind": kind,
                                            "payload": json.loads(payload)})
    if names:
        for evs in events.values():
            _rename_payloads(evs, names)
    return events


def since(db: Database, sid: str, seq: int, limit: int) -> list[tuple]:
    """The session's events after event ``seq``, oldest first, at most
    ``limit``: (seq, kind, hand, hash, prev_hash) each, what a live stream tells."""
    return [tuple(r) for r in db.conn.execute(
        "SELECT seq, kind, hand, hash, prev_hash FROM events WHERE session_id = ? AND seq > ? "
        "ORDER BY seq LIMIT ?", (sid, seq, limit)).fetchall()]
