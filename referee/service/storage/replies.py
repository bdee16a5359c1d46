"""The stored answers: the first answer to each client id (a retry gets it
again), with what its request was."""

from __future__ import annotations

import json

from .handle import Database


def first(db: Database, sid: str, client_id: str) -> tuple[bool, dict] | None:
    """The first answer to ``client_id``: (refused, body)."""
    row = db.conn.execute("SELECT refused, body FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return None if row is None else (bool(row[0]), json.loads(row[1]))


def request(db: Database, sid: str, client_id: str) -> str | None:
    """What the first request with ``client_id`` was (``note_request``), if known."""
    row = db.conn.execute("SELECT request FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return None if row is None else row[0]


def note_request(db: Database, sid: str, client_id: str, request: str) -> None:
    """Keep what the request answered under ``client_id`` was, beside its answer."""
    db.conn.execute("UPDATE replies SET request = ? WHERE session_id = ? AND client_id = ?",
                    (request, sid, client_id))


def store(db: Database, sid: str, client_id: str, refused: bool, body_json: str) -> None:
    """Keep the first answer to ``client_id``; a second one breaks the key
    (one of ``INTEGRITY_ERRORS``), which is how a racing retry is noticed."""
    db.conn.execute("INSERT INTO replies (session_id, client_id, refused, body) "
                    "VALUES (?, ?, ?, ?)", (sid, client_id, int(refused), body_json))


def of_session(db: Database, sid: str) -> list[tuple[str, bool, str, str | None]]:
    """Every stored first answer of the session: (client id, refused, body
    text, what its request was)."""
    return [(r[0], bool(r[1]), r[2], r[3]) for r in db.conn.execute(
        "SELECT client_id, refused, body, request FROM replies WHERE session_id = ? "
        "ORDER BY client_id", (sid,))]
