"""A hand's action, logged by one path whichever door it came through: the
API's ``POST …/hands/<n>/actions`` (a program, or a phone's kept tap sent
again) and the tablet's tap (``web/tablet/hand.py``). The doors differ only
in how they read the request and show the answer.

``log_action``, top to bottom:

1. the request is named (``asking_action``: the same action under the same
   client_id is the same request through either door) and handed to
   ``writes.write``, which holds the session's lock, gives a client_id
   already answered its first answer again, and runs the plan's job in one
   transaction;
2. ``_judge`` checks that the table is open, the hand is the current one and
   the client saw its newest action (nothing is written otherwise), then
   verifies each action once (``Hand.verify`` never changes a hand;
   ``apply_verified`` applies what it returned), stopping at the first one
   refused (a tap of several actions is judged on a copy of the live hand
   and, one refused, writes nothing: a drop is logged with every count
   typed on its confirm page or not at all); an action that would end
   play, sent without ``confirm``, is judged on a copy of the live hand and
   only previewed;
3. ``_write`` stores, in the transaction: each action's event and its client
   id's reply (the state after it), the hand's row, the running totals when
   the hand settled, and a refusal's event and reply (a refused action
   changes nothing in the hand, but the attempt is kept in the session's
   history, so a dispute can be told later what was tried and why it was
   refused);
4. after the commit the cache moves on (a failed write drops the live hand
   it changed, which is rebuilt from the database: nothing half-applied
   stays visible).

The write's statements, in order (SQLite; PostgreSQL takes an advisory lock
after its ``BEGIN``)::

    BEGIN IMMEDIATE
    -- each action logged (a tap of every show logs several), then a refusal:
    SELECT seq, hash, id FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1
    SELECT id, hash FROM events ORDER BY id DESC LIMIT 1
    INSERT INTO events ...
    INSERT INTO replies ...                  -- under a client id
    -- after the actions:
    UPDATE hands SET seq, last_event, status, result ...
    ...                                      -- the running totals, when it settled
    -- after a refusal:
    UPDATE hands SET last_event ...
    UPDATE replies SET request ...           -- what the client id asked (``writes``)
    COMMIT
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any

from ...record.chain import with_reply
from ...rules.actions import parse_action
from ...rules.hand import VOID, Hand
from .. import storage
from ..errors import Closed, RefereeError, Refused, RuleViolation, StaleSeq
from ..kinds import EventKind
from ..money import totals
from ..money.results import StoredResult, hand_result
from ..storage import Database
from . import cache
from .cache import Live
from .hands import public_state
from .live_state import check_open, current
from .state import HandState
from .writes import (
    Plan,
    action_request,
    asked,
    asking_action,
    check_current,
    check_seq,
    write,
)

_ACTION, _REFUSAL = str(EventKind.ACTION), str(EventKind.REFUSAL)


@dataclass
class Logged:
    """What an action did: the actions logged (as the referee writes them), the
    hand's state after them (with ``legal``, also every action the referee
    would accept now), and the action refused and why (kept in the history
    when it was the tap's one action; a tap of several logs none); or, for
    an action that would end play and is not confirmed, the ``preview`` of
    what it settles (nothing logged). ``replayed``: the
    client_id was answered before; ``state`` is that first answer."""

    logged: list[str]
    state: HandState | None = None
    refused: RefereeError | None = None
    refused_text: str | None = None
    preview: dict[str, Any] | None = None
    replayed: bool = False

    def answer(self) -> HandState | None:
        """The state, or the refusal raised (the API's answer)."""
        if self.refused is not None:
            raise self.refused
        return self.state


def log_action(db: Database, sid: str, n: int, texts: list[str], client_id: str | None,
               expected_seq: int | None, *, confirm: bool = True,
               legal: bool = False) -> Logged:
    """Log ``texts`` on hand ``n``: one action, or several shows tapped at once
    (each under a client id of its own: ``client_id``, then ``client_id-1``,
    ...). A refused action is logged as a refusal; a tap of several actions
    is logged whole or not at all (one refused, nothing is written, no
    refusal either: the client ids stay free for the tap sent again,
    corrected; the answer has the refusal and the state as it was).
    ``expected_seq``: how many actions the client
    saw in the hand. Without ``confirm``, actions that would end play are
    only previewed. With ``legal``, the state has the legal actions (the
    tablet's page is drawn from it, and it becomes the cached state;
    enumerating them costs more than the rest of the request).

    Raises, with nothing written: ``StaleSeq``, ``RuleViolation`` (the hand
    is over), ``Closed``, ``NotFound``; and the client_id's first answer, if
    it was a refusal (``Refused``), or ``ClientIdReused``."""
    ids = _client_ids(client_id, len(texts))

    def plan(live: Live) -> Plan:
        return _judge(live, n, texts, ids, expected_seq, confirm=confirm, legal=legal,
                      whole=len(texts) > 1)

    with asking_action(n, texts[0]):  # the client_id is the first action's own
        answer = write(db, sid, client_id, plan)
    if isinstance(answer, Logged):
        return answer
    return Logged(list(texts), answer, replayed=True)


def preview(db: Database, sid: str, n: int, texts: list[str],
            expected_seq: int | None) -> dict[str, Any] | None:
    """What ``texts`` would settle if logged now, judged on a copy of the live
    hand and never written (the confirm page a tap led to, read again by its
    GET): None when they would not end play, are refused, or the hand moved
    on (``StaleSeq`` and the like are raised as ``log_action`` raises them)."""
    with cache.lock(db, sid):
        plan = _judge(current(db, sid), n, texts, [None] * len(texts), expected_seq,
                      confirm=False, legal=False)
    if plan.error is not None:
        raise plan.error
    return plan.state.preview if isinstance(plan.state, Logged) else None


def _client_ids(client_id: str | None, count: int) -> list[str | None]:
    """One client id for each action of a tap (a tap of every show logs several)."""
    return [client_id if k == 0 or client_id is None else f"{client_id}-{k}"
            for k in range(count)]


@dataclass(frozen=True)
class _Event:
    """An event to write for a judged action: its kind and payload, the client
    id it answers, and that answer as stored (an action's: the hand's state
    after it; a refusal's: the error)."""

    kind: str
    payload: dict[str, str]
    client_id: str | None
    reply: str
    # What a tap's second, third... show asked under its own client id (the
    # first one's is noted by ``writes.write``), so that id resent with
    # another body is refused as reused, as the first one is.
    asked: str | None = None

    @property
    def refused(self) -> bool:
        return self.kind == _REFUSAL


def _judge(live: Live, n: int, texts: list[str], ids: list[str | None],
           expected_seq: int | None, *, confirm: bool, legal: bool,
           whole: bool = False) -> Plan:
    try:
        check_open(live)
        hand = check_current(live, n)
        check_seq(n, len(hand.actions), expected_seq)
    except (RuleViolation, StaleSeq, Closed) as err:
        return Plan(error=err)  # nothing written
    # Judged on the live hand itself, which a failed write drops from the
    # cache (``touched``); on a copy when it may only be previewed, which must
    # leave the live hand as it was (the copy cost an API action 8% of its CPU),
    # or when a refusal after the first action must leave it as it was (``whole``).
    work = hand if confirm and not whole else _copy_hand(hand)
    asked = [None] + [action_request(n, text).stored() if cid else None
                      for text, cid in zip(texts[1:], ids[1:], strict=True)]
    steps, state, result, refused = _applied(live, work, texts, ids, asked)
    if not confirm and refused is None and _ends(hand, work):
        return Plan(state=Logged([], preview=_preview(work, steps, result)))
    if whole and refused is not None:
        return _refused_whole(live, hand, texts[len(steps)], refused, legal=legal)
    if legal:
        if state is None:  # refused at once: the hand as it was
            state, result = _after(live, work)
        state = _with_legal(work, state, result)
    logged = Logged([e.payload["action"] for e in steps], state)
    refusal = None
    if refused is not None:
        told = Refused.of(refused)  # as a retry under its client id is told it again
        told.__cause__ = refused
        k = len(steps)
        logged.refused, logged.refused_text = told, str(texts[k])
        refusal = _Event(_REFUSAL, {"action": str(texts[k]), "code": refused.code,
                                    "message": refused.message},
                         ids[k], storage.to_json({"error": told.to_stored()}), asked[k])
    return _write(live, work, steps, result, refusal, logged, legal=legal)


def _applied(live: Live, work: Hand, texts: list[str], ids: list[str | None],
             asked: list[str | None]) -> tuple[list[_Event], HandState | None,
                                              StoredResult | None, RefereeError | None]:
    """Each action verified and applied to ``work`` in turn, up to the first
    refused: the events to write, the state and result after the last one
    applied (None: none was), and the refusal."""
    steps: list[_Event] = []
    state: HandState | None = None
    result: StoredResult | None = None
    for k, (text, client_id) in enumerate(zip(texts, ids, strict=True)):
        try:
            action = work.verify(parse_action(text))
        except RefereeError as err:
            err.at(hand=work.number, action=len(work.actions) + 1, action_text=str(text))
            return steps, state, result, err
        work.apply_verified(action)
        state, result = _after(live, work)
        said = str(action)
        steps.append(_Event(_ACTION, {"action": said, "text": said}, client_id,
                            storage.to_json(state), asked[k]))
    return steps, state, result, None


def _refused_whole(live: Live, hand: Hand, text: str, refused: RefereeError, *,
                   legal: bool) -> Plan:
    """A tap judged whole and refused at ``text``: nothing to write, the
    hand's state as it was and the refusal (the tablet's pad says it)."""
    state, result = _after(live, hand)
    if legal:
        state = _with_legal(hand, state, result)
    told = Refused.of(refused)
    told.__cause__ = refused
    return Plan(state=Logged([], state, refused=told, refused_text=str(text)))


def _ends(hand: Hand, work: Hand) -> bool:
    """Whether the actions applied to ``work`` (a copy of ``hand``) end play:
    nobody is to act any more, or the hand is complete (money moves)."""
    return (hand.to_act is not None and work.to_act is None) or \
        (work.is_complete and not hand.is_complete)


def _after(live: Live, hand: Hand) -> tuple[HandState, StoredResult | None]:
    """The hand's state as an action's answer (without the legal actions), and
    its result when complete."""
    result = hand_result(hand, live.stake, live.quantum, live.setup) \
        if hand.is_complete else None
    return public_state(live.sid, live.setup, hand, result, legal=False), result


def _with_legal(hand: Hand, state: HandState, result: StoredResult | None) -> HandState:
    """The state the hand's page is drawn from (and the cached state): with
    the legal actions, and the result as stored (as ``hand_state`` reads it)."""
    page = state.copy()
    if result is not None:
        page["result"] = json.loads(storage.to_json(result))
    if hand.phase != VOID:
        page["legal"] = [str(a) for a in hand.legal_actions()]
    return page


def _preview(work: Hand, steps: list[_Event], result: StoredResult | None) -> dict[str, Any]:
    return {
        "actions": [e.payload["action"] for e in steps],
        "ends": True,
        "complete": work.is_complete,
        "must_show": sorted(work.must_show, key=work.players.index),
        "players": list(work.players),
        "result": result,
        # the shows the referee could log by itself (hands it knows entirely):
        # the confirm page offers them with the tap (newcomer F3)
        "known_shows": [] if work.is_complete else
        [str(a) for a in work.legal_actions() if a.verb == "show"],
    }


def _write(live: Live, work: Hand, steps: list[_Event], result: StoredResult | None,
           refusal: _Event | None, logged: Logged, *, legal: bool) -> Plan:
    """The write of a judged request, and how the cache moves on after it."""
    sid, n = live.sid, work.number
    result_json = storage.to_json(result) if result is not None else None
    events: list[int] = []

    def append(w: Database, event: _Event) -> int:
        after = events[-1] if events else live.version
        # The first event's request is the one ``writes.write`` notes; a
        # tap's later shows note their own.
        request = event.asked if events else asked()
        events.append(storage.events.append(
            w, sid, n, event.kind,
            with_reply(event.payload, event.client_id, event.reply, request),
            event.client_id, after=after)["id"])
        if event.client_id:
            storage.replies.store(w, sid, event.client_id, event.refused, event.reply)
            if event.asked:
                storage.replies.note_request(w, sid, event.client_id, event.asked)
        return events[-1]

    def job(w: Database) -> None:
        for event in steps:
            append(w, event)
        if steps:
            storage.hands.update(w, sid, n, len(work.actions), events[-1], result_json)
            if result is not None:
                totals.refresh(w, sid, n)
        if refusal is not None:
            storage.hands.touch(w, sid, n, append(w, refusal))

    def after_commit() -> None:
        if steps:
            live.table.hands[-1] = live.hand = work
            live.action_ids.extend(events[:len(steps)])
            live.state = logged.state if legal else None
        live.version = events[-1]

    return Plan(state=logged, job=job, after_commit=after_commit,
                touched=bool(steps) and work is live.hand)


_SHARED = frozenset((str, int, bool, float, type(None), Decimal, tuple, frozenset))


def _copy_hand(hand: Hand) -> Hand:
    """A copy of the live hand to judge an action that may only be previewed
    on: the cached hand stays as it was. Its containers are copied (a dict, list or set in
    it, and theirs), its other mutable parts deep-copied; what cannot change
    (text, numbers, tuples, enums, frozen dataclasses: the rules, the deck,
    the logged actions) is shared. A 100-action hand copies in about 0.15 ms,
    where ``copy.deepcopy`` took 0.25 ms and applying its actions again 0.5
    ms."""
    work = copy.copy(hand)
    for name, value in vars(hand).items():
        setattr(work, name, _copied(value))
    return work


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind in _SHARED or isinstance(value, Enum):
        return value
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    if kind is set:
        return set(value)
    params = getattr(kind, "__dataclass_params__", None)
    return value if params is not None and params.frozen else copy.deepcopy(value)
