"""What a table's devices follow: the live stream of its changes, and the
witness check of a head a device saw.

``GET /api/sessions/<id>/stream`` is a Server-Sent Events stream: one event
per event of the table's chain, its ``id:`` the event's number (the table's
``seq`` when it is the newest), its ``data:`` ``{"seq", "kind", "hand",
"head", "prev"}`` (``head``: that event's hash, which a device keeps as a
witness; ``prev``: the hash before it, so a device sees its witness extended).
A reconnecting client's ``Last-Event-ID`` gets what it missed; a comment
line every ``HEARTBEAT`` seconds keeps proxies and phones from dropping it.
The stream waits on the table's bell (``service.table.changes``), not on the
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

import random
import re
import threading
import time

from flask import Blueprint, Response, current_app, request

from ..language import N_
from ..rules.numbers import whole
from ..service.access import seats
from ..service.errors import Locked
from ..service.table import changes, following
from . import forms, streams
from .db import get_db
from .errors import ApiError
from .streams import message

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


#: Streams one table, and one link of it (a token; the pages a PIN unlocked
#: count as one), may hold open in this process: one viewer link took all 200
#: and every other table's pages got 503 (issue 34). A table's phones, its TV,
#: the host's pages and a few watchers sharing the viewer link fit well within.
PER_TABLE = 50
PER_LINK = 20


class _Slots:
    """Open streams in this process, at most ``STREAM_LIMIT`` in all (each
    holds a server thread while it is open), ``PER_TABLE`` a table and
    ``PER_LINK`` a link: one more is answered 503 and the page falls back to
    asking every few seconds."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.held: dict[object, int] = {}  # a table's, a link's: streams open

    def take(self, limit: int | None, table: str, link: tuple) -> bool:
        with self.lock:
            if limit is not None and self.open >= limit \
                    or self.held.get(table, 0) >= PER_TABLE \
                    or self.held.get(link, 0) >= PER_LINK:
                return False
            self.open += 1
            for key in (table, link):
                self.held[key] = self.held.get(key, 0) + 1
            return True

    def give_back(self, table: str, link: tuple) -> None:
        with self.lock:
            self.open -= 1
            for key in (table, link):
                left = self.held[key] - 1
                if left:
                    self.held[key] = left
                else:
                    del self.held[key]


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


def _last_seen() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last") or ""
    return whole(raw)


def _catch_up(db, sid: str, last: int) -> tuple[str, int]:
    """What a stream that was sent event ``last`` has not had: (its text, the
    number of the last event in it), from memory, else from the database; a
    "reload" event when that is more than ``CATCH_UP`` events."""
    rows = changes.since(sid, last)
    if rows is None:  # not all in memory: from the database
        rows = following.events_after(db, sid, last, CATCH_UP + 1)
    if len(rows) > CATCH_UP:
        end = following.chain_end(db, sid)
        return message((end[0], "reload", None, end[1], None)), end[0]
    if rows:
        return "".join(message(row) for row in rows), rows[-1][0]
    return "", last


class _Follow:
    """One device following a table: who reads, with which token, and the
    number of the last event it was sent."""

    def __init__(self, db, sid: str, who: seats.Access, token: str | None,
                 last: int | None, lifetime: float) -> None:
        self.db, self.sid, self.who, self.token = db, sid, who, token
        self.last, self.lifetime = last, lifetime

    def start(self) -> str:
        """The first write: where the table is now for a new reader (or one
        from before a reset), else what it missed."""
        db, sid = self.db, self.sid
        if self.last is None or self.last > following.chain_end(db, sid)[0]:
            end = following.chain_end(db, sid)
            self.last = end[0]
            return "retry: 2000\n" + message((end[0], "now", None, end[1], None))
        text, self.last = _catch_up(db, sid, self.last)
        return text

    def still_reads(self) -> bool:
        return _still_reads(self.db, self.sid, self.who, self.token)

    def own_thread(self):
        """The stream written by this thread (any server but waitress)."""
        sid = self.sid
        changes.attach(sid)
        try:
            started = time.monotonic()
            rung = changes.rung(sid)
            first = self.start()
            if first:
                yield first
            looked = heard = time.monotonic()
            while time.monotonic() - started < self.lifetime:
                text, self.last = _catch_up(self.db, sid, self.last)
                if text:
                    # One write for what came together: each write wakes the
                    # server's loop and costs a send.
                    yield text
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
                    if not self.still_reads():
                        return
                if now - heard >= HEARTBEAT:
                    heard = now
                    yield ": still here\n\n"
        finally:
            changes.detach(sid)

    def by_writer(self, channel, chunked: bool):
        """The stream written by the one writer of every stream
        (``web.streams``); this thread sleeps, and wakes to check the link and
        the connection, send a heartbeat, or catch up from the database what
        memory no longer holds."""
        changes.attach(self.sid)
        live = None
        try:
            started = time.monotonic()
            # waitress writes the answer's head with the first write: after it
            # the writer's writes follow on the same connection.
            yield self.start() or ": open\n\n"
            live = streams.Stream(self.sid, channel, chunked, self.last)
            live.out = live.leave_loop()
            streams.writer.add(live)
            # Streams opened together (a room of phones, or every phone
            # reconnecting after the wifi came back) would look together every
            # LOOK seconds: 120 database reads in one burst, beside the
            # tablets' requests. Each stream's first look comes at a random
            # point of the period instead (never later than LOOK).
            looked = time.monotonic() - random.uniform(0, LOOK)
            while not live.ended and time.monotonic() - started < self.lifetime:
                live.wake.wait(0.2 if channel.total_outbufs_len else max(
                    0.1, min(LOOK, HEARTBEAT - (time.monotonic() - live.sent))))
                live.wake.clear()
                if live.look or time.monotonic() - looked >= LOOK:
                    live.look, looked = False, time.monotonic()
                    if not self.still_reads() or live.gone():
                        return
                if not self._tend(live):
                    return
        finally:
            if live is not None:
                streams.writer.remove(live)
                live.rejoin_loop()
            changes.detach(self.sid)

    def _tend(self, live: streams.Stream) -> bool:
        """What the writer leaves to the stream's thread: what a full socket
        kept back, a catch-up from the database, the heartbeat. False: ended."""
        with live.lock:
            if live.ended:
                return False
            live.flush()
            if live.behind or changes.since(self.sid, live.last) is None:
                text, last = _catch_up(self.db, self.sid, live.last)
                live.behind = False
                if text and live.send(text.encode()):
                    live.last = last
            if time.monotonic() - live.sent >= HEARTBEAT:
                live.send(b": still here\n\n")
            return True


@bp.get("/sessions/<sid>/stream")
def stream(sid: str):
    who, token = reader(sid)
    db = get_db()
    link = (sid, token)  # in memory only, never written
    if not slots.take(current_app.config.get("STREAM_LIMIT"), sid, link):
        return Response("retry: 5000\n\n", 503, mimetype="text/event-stream",
                        headers={"Retry-After": "5"})
    follow = _Follow(db, sid, who, token, _last_seen(),
                     current_app.config.get("STREAM_LIFETIME", LIFETIME))
    channel = streams.waitress_channel(request.environ)
    following.hear_other_servers(db)
    body = follow.own_thread() if channel is None else follow.by_writer(
        channel, request.environ.get("SERVER_PROTOCOL") == "HTTP/1.1")
    response = Response(body, mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    # Given back when the server closes the answer, even one never started.
    response.call_on_close(lambda: slots.give_back(sid, link))
    return response


@bp.get("/sessions/<sid>/consistency")
def consistency(sid: str):
    reader(sid)
    raw_seq, head = request.args.get("seq", ""), request.args.get("head", "")
    seq_asked = whole(raw_seq)
    if seq_asked is None or not HEAD.match(head):
        raise ApiError(400, "bad_request", N_("seq is an event's number and head its "
                                              "64-character hash"))
    db = get_db()
    return following.consistency(db, sid, seq_asked, head)
