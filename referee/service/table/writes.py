"""The one write path of a live table: every hand's action, undo and start
and every table event is written through ``write``.

A write holds the session's lock (threads of this process) and then the
database's write lock (``BEGIN IMMEDIATE``: other processes), re-checks the
hand's version inside the transaction, applies the action to a copy of the
hand, inserts, commits, and only then swaps the copy into the cache: a
refused or failed action changes nothing. A ``client_id`` already answered
gets its first answer again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ...rules.actions import parse_action
from ...rules.hand import Hand
from ...rules.words import N_, Np_
from .. import storage
from ..errors import ClientIdReused, NotFound, RefereeError, Refused, RuleViolation, StaleSeq
from ..money import totals
from ..storage import Database
from . import cache, live_state
from .cache import Live

# A hand can have 0 or 1 action when a tablet is behind.
STALE_HAND = Np_("the hand has {seq} action, not {expected}: another action was logged since "
                 "you looked; look again",
                 "the hand has {seq} actions, not {expected}: another action was logged since "
                 "you looked; look again", "seq")

#: The request being answered, as the interface read it (``Request``): kept
#: beside the answer stored for its client_id, so that the id sent again
#: with another body is refused, not given the first answer. Set by the
#: interface around each write (the web: every request); None: unknown.
REQUEST: ContextVar[Request | None] = ContextVar("referee_request", default=None)


@dataclass(frozen=True)
class Request:
    """A write request: its ``kind`` (what a person reads: ``POST
    /api/sessions/<id>/payments``) and a digest of what it asks (its body
    without the client_id: the same asked by a header or in the body)."""

    kind: str
    digest: str

    def stored(self) -> str:
        return f"{self.digest} {self.kind}"

    @staticmethod
    def make(kind: str, asked: object) -> Request:
        text = json.dumps(asked, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          default=str)
        return Request(kind, hashlib.sha256(text.encode()).hexdigest())


#: How a hand's action is named to a client whose id it first answered: by
#: the API's door for it (the tablet's form is the same request).
ACTION_KIND = "POST /api/sessions/<sid>/hands/<int:n>/actions"


def action_request(n: int, text: str) -> Request:
    """A hand's action as a request: the action as the rules read it (the
    same action written another way is the same request)."""
    try:
        said = str(parse_action(text))
    except RefereeError:
        said = str(text)
    return Request.make(ACTION_KIND, [n, said])


@contextmanager
def asking(request: Request) -> Iterator[None]:
    """While a write is made: the request is ``request``, whichever door it
    came through (the tablet's form or the API), as the service reads it."""
    token = REQUEST.set(request)
    try:
        yield
    finally:
        REQUEST.reset(token)


def asking_action(n: int, text: str) -> AbstractContextManager[None]:
    """While a hand's action is written: the request is that action of that
    hand, whichever door it came through. A tablet's tap posted as a form and
    sent again by the offline queue through the API (its answer was lost) is
    the same request under the same client_id, not a reuse."""
    return asking(action_request(n, text))


def _reused(first: str) -> ClientIdReused:
    kind = first.partition(" ")[2] or first
    return ClientIdReused("client_id_reused", N_("that client_id was already used for {kind} "
                                                 "with another body: send a fresh one"),
                          {"kind": kind})


def answered(db: Database, sid: str, client_id: str | None,
              event: str | None) -> dict | None:
    """The first answer to ``client_id`` again: its state, or its refusal raised.
    ``event``: the kind of request now (None: a hand's action, undo or start);
    a client_id first used for another kind, or for the same kind with
    another body (``REQUEST``), is refused (``client_id_reused``, naming the
    first request's kind), since its first answer says nothing about this
    request."""
    if not client_id:
        return None
    seen = storage.replies.first(db, sid, client_id)
    if seen is None:
        return None
    now = REQUEST.get()
    first = storage.replies.request(db, sid, client_id)
    if now is not None and first is not None and first != now.stored():
        raise _reused(first)
    refused, body = seen
    if refused:
        raise Refused.from_dict(body["error"])
    if body.get("event") != event:
        raise _reused(first or str(body.get("event") or "an action"))
    return body


def check_current(live: Live, n: int) -> Hand:
    if n < 1 or n > live.n or live.hand is None:
        raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                                  {"session": live.sid, "n": n}, hand=n)
    if n < live.n:
        raise RuleViolation("hand_over", N_("this hand is over: hand {hands} has started"),
                                         {"hands": live.n},
                            hand=n)
    return live.hand


def check_table_seq(seq: int, expected_seq: int) -> None:
    if expected_seq != seq:
        raise StaleSeq("stale_seq", N_("the table's newest event is number {seq}, not "
                                       "{expected}: something was logged since you looked; "
                                       "look again"), {"seq": seq, "expected": expected_seq})


def check_seq(n: int, seq: int, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != seq:
        raise StaleSeq("stale_seq", STALE_HAND.pick(seq),
                       {"seq": seq, "expected": expected_seq}, hand=n)


def store_hand(w: Database, live: Live, hand: Hand, event_id: int, result: dict | None,
                client_id: str | None, state_json: str, *, undo: bool = False) -> None:
    """Store the hand's new derived rows (and the reply) inside the transaction:
    an action that settles it, or an undo that may reopen it, moves the
    running totals too."""
    storage.hands.update(w, live.sid, hand.number, len(hand.actions), event_id,
                         storage.to_json(result) if result else None)
    if result is not None or undo:
        totals.refresh(w, live.sid, hand.number)
    if client_id:
        storage.replies.store(w, live.sid, client_id, False, state_json)


@dataclass
class Plan:
    """A write worked out on the cached state, outside the transaction: the
    answer (a state, or an error to raise), what to insert (``job``, run by the
    writer inside the transaction) and how the cache moves on after the commit."""

    state: Any = None  # a state dict (``action.log_action``'s: its ``Logged``)
    error: RefereeError | None = None  # raised once the write (if any) is committed
    job: Any = None  # (w) -> None, inside the transaction; None: nothing to write
    after_commit: Any = None  # () -> None
    touched: bool = False  # the cached state was changed already (dropped on failure)

    def answer(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.state


RETRIES = 5


def asked() -> str | None:
    """The request being written as it is stored beside its answer (None:
    unknown), for the event to hold its digest (``record.chain.with_reply``)."""
    now = REQUEST.get()
    return None if now is None else now.stored()


def _noting(job, sid: str, client_id: str | None):
    """``job``, then what the request was noted beside its answer (read here,
    in the request's own thread: the job may run in the committer's, where
    it is the request again while the job chains its digest: ``asked``)."""
    now = REQUEST.get()
    if not client_id or now is None:
        return job

    def noted(w: Database) -> None:
        token = REQUEST.set(now)
        try:
            job(w)
        finally:
            REQUEST.reset(token)
        storage.replies.note_request(w, sid, client_id, now.stored())

    return noted


def write(db: Database, sid: str, client_id: str | None, plan, *,
           check: bool = False, kind: str | None = None) -> Any:
    """A write under the session's lock.

    ``plan(live)`` checks the request against the cached state and prepares
    everything costly (the rules, the new state, its JSON) in the request's
    own thread; the writer thread then only runs the plan's ``job``: the
    inserts, inside a ``BEGIN IMMEDIATE`` transaction, where the event's
    insert first checks that the session's newest event is still the one the
    cache knows (``storage.events.Moved`` if another process wrote since). The cache
    moves on after the commit; if the commit fails, or the session moved, the
    session's cached state is dropped and rebuilt from the database: nothing
    half-applied stays visible. A ``client_id`` already answered gets its
    first answer (the replies table's key refuses a second one). Answers
    without a write (a stale ``expected_seq``, a hand that is over) are not
    stored, and are only given on a cache checked against the database."""
    with cache.lock(db, sid):
        for attempt in range(RETRIES):
            checked = check or attempt > 0
            live = live_state.current(db, sid, check=checked)
            try:
                p: Plan = plan(live)
            except BaseException as err:
                cache.drop(db, sid)  # it may have got half-way: rebuild from the database
                if checked or not isinstance(err, Exception):
                    raise
                continue  # a refusal is only given on the database's state
            if p.job is None:
                seen = answered(db, sid, client_id, kind)
                if seen:
                    return seen
                if not checked and (live.n, live.version) != storage.hands.current_version(db, sid):
                    cache.drop(db, sid)
                    continue
                return p.answer()
            try:
                storage.run_write(db, _noting(p.job, sid, client_id))
            except storage.events.Moved:
                cache.drop(db, sid)
                continue
            except storage.INTEGRITY_ERRORS:
                cache.drop(db, sid)
                seen = answered(db, sid, client_id, kind)
                if seen:
                    return seen
                raise
            except BaseException:
                if p.touched:
                    cache.drop(db, sid)
                raise
            if p.after_commit is not None:
                p.after_commit()
            return p.answer()
    raise RuntimeError(f"session {sid} kept changing under this write")
