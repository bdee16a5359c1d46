"""What a table's devices follow: the live stream of its changes, and the
witness check of a head a device saw.

``GET /api/sessions/<id>/stream`` is a Server-Sent Events stream: one event
per event of the table's chain, its ``id:`` the event's number (the table's
``seq`` when it is the newest), its ``data:`` ``{"seq", "kind", "hand",
"head", "prev"}`` (``head``: that event's hash, which a device keeps as a
witness; ``prev``: the hash before it, so a device sees its witness extended).
A reconnecting client's ``Last-Event-ID`` gets what it missed; a comment
line every ``HEARTBEAT`` seconds keeps proxies and phones from dropping it.
The stream waits on the table's bell (``service.changes``), not on the
database; it also looks every ``LOOK`` seconds (a second process on the same
SQLite file) and checks again that its link has not been revoked.

``GET /api/sessions/<id>/consistency?seq=N&head=H``: whether the chain's
event ``N`` still has hash ``H`` (a device's witness: a deleted tail or a
rewritten record answers false).

Both read with any of the table's tokens: ``Authorization: Bearer``, or
``?token=`` (a browser's ``EventSource`` cannot send headers), or the
browser's own access to the table's pages (its PIN or the link it joined by).
"""

from __future__ import annotations

import json
import re
import threading
import time

from flask import Blueprint, Response, current_app, request

from ..language import N_
from ..service import changes, seats, storage
from ..service.errors import Locked
from . import forms
from .db import get_db
from .errors import ApiError

bp = Blueprint("live", __name__, url_prefix="/api")

HEARTBEAT = 10.0  # seconds between keep-alive comments (the issue asks at most 15)
LOOK = 5.0  # seconds between a stream's own looks at the database
LIFETIME = 1800.0  # a stream ends after this; the browser reconnects with Last-Event-ID
# A stream writes at most every GAP seconds: at a table's pace (an action every
# few seconds) each change goes out at once; at a busy one the changes of the
# last GAP go out in one write (each write wakes the server's loop and costs a send).
GAP = 0.1
CATCH_UP = 500  # events sent at most on a reconnect; more: one "reload" event
HEAD = re.compile(r"^[0-9a-f]{64}$")


class _Slots:
    """Open streams in this process, at most ``STREAM_LIMIT`` (each holds a
    server thread while it is open): one more is answered 503 and the page
    falls back to asking every few seconds."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0

    def take(self, limit: int | None) -> bool:
        with self.lock:
            if limit is not None and self.open >= limit:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self.lock:
            self.open -= 1


slots = _Slots()


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.args.get("token") or None


def reader(sid: str) -> tuple[seats.Access, str | None]:
    """Who reads (any of the table's tokens, or this browser's page access) and
    the token it came with. Raises ``NotFound``, then ``Locked``."""
    token = _bearer()
    found = seats.token_access(get_db(), sid, token)  # NotFound first, whatever the token
    if not token and forms.is_unlocked(sid):
        found = seats.Access(seats.HOST)  # this browser unlocked the table with its PIN
    elif not token and forms.link_token(sid):
        token = forms.link_token(sid)  # the link this browser joined by, checked again later
        found = seats.token_access(get_db(), sid, token)
    if found is None:
        raise Locked("unauthorized", N_("this needs 'Authorization: Bearer <token>' with one "
                                        "of the table's tokens"))
    return found, token


def _still_reads(db, sid: str, who: seats.Access, token: str | None) -> bool:
    if who.role in (seats.SEAT, seats.VIEWER) and token:
        return seats.token_access(db, sid, token) is not None
    return True


def _message(row: tuple) -> str:
    seq, kind, hand, head, prev = row
    data = json.dumps({"seq": seq, "kind": kind, "hand": hand, "head": head, "prev": prev},
                      separators=(",", ":"))
    return f"id: {seq}\nevent: change\ndata: {data}\n\n"


def _last_seen() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last") or ""
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


@bp.get("/sessions/<sid>/stream")
def stream(sid: str):
    who, token = reader(sid)
    db = get_db()
    if not slots.take(current_app.config.get("STREAM_LIMIT")):
        return Response("retry: 5000\n\n", 503, mimetype="text/event-stream",
                        headers={"Retry-After": "5"})
    last = _last_seen()
    lifetime = current_app.config.get("STREAM_LIFETIME", LIFETIME)

    def events():
        nonlocal last
        changes.attach(sid)
        try:
            started = time.monotonic()
            rung = changes.rung(sid)
            end = storage.chain_end(db, sid)
            if last is None or last > end[0]:
                # A new reader (or one from before a reset): where the table is now.
                yield "retry: 2000\n" + _message((end[0], "now", None, end[1], None))
                last = end[0]
            looked = heard = time.monotonic()
            while time.monotonic() - started < lifetime:
                rows = changes.since(sid, last)
                if rows is None:  # not all in memory: from the database
                    rows = storage.events_since(db, sid, last, CATCH_UP + 1)
                if len(rows) > CATCH_UP:
                    end = storage.chain_end(db, sid)
                    yield _message((end[0], "reload", None, end[1], None))
                    last = end[0]
                    rows = []
                if rows:
                    # One write for what came together: each write wakes the
                    # server's loop and costs a send.
                    yield "".join(_message(row) for row in rows)
                    last = rows[-1][0]
                    heard = time.monotonic()
                before = rung
                rung = changes.wait(sid, rung, LOOK)
                if rung != before:
                    wait = GAP - (time.monotonic() - heard)
                    if wait > 0:
                        time.sleep(wait)
                now = time.monotonic()
                if now - looked >= LOOK:
                    looked = now
                    if not _still_reads(db, sid, who, token):
                        return
                if now - heard >= HEARTBEAT:
                    heard = now
                    yield ": still here\n\n"
        finally:
            changes.detach(sid)

    if storage.is_pg(db):
        changes.listen(db.url, storage.listen)
    response = Response(events(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    # Given back when the server closes the answer, even one never started.
    response.call_on_close(slots.give_back)
    return response


@bp.get("/sessions/<sid>/consistency")
def consistency(sid: str):
    reader(sid)
    raw_seq, head = request.args.get("seq", ""), request.args.get("head", "")
    if not raw_seq.isdigit() or len(raw_seq) > 18 or not HEAD.match(head):
        raise ApiError(400, "bad_request", N_("seq is an event's number and head its "
                                              "64-character hash"))
    db = get_db()
    seq, newest = storage.chain_end(db, sid)
    return {"consistent": storage.hash_at(db, sid, int(raw_seq)) == head,
            "seq": seq, "head": newest}
