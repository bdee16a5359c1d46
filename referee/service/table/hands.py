"""Hands at a live table: start one, undo, read a hand's state (an action is
logged by ``action.py``).

Each function takes plain arguments, returns plain data (a hand's public
state as a dict) and raises the service's errors (``referee.service.errors``):
``NotFound``, ``StaleSeq``, or the engine's own ``RefereeError``. The
session's live state is ``live_state.py``'s, every write goes through
``writes.py``, and a settled hand's stored result is ``money/results.py``'s."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from ...ledger.running import pots_after
from ...record import load_hand_setup
from ...record.chain import with_reply
from ...replay import side_bet_outcomes, start_on
from ...rules.events import setup_after_undo
from ...rules.hand import VOID, Hand
from ...rules.options import HouseRules
from ...rules.table import check_printable
from ...rules.told import check_told_hand
from ...rules.words import N_, Words
from .. import storage
from ..errors import Closed, MalformedInput, NotFound, RuleViolation, StaleSeq
from ..kinds import EventKind
from ..money import totals
from ..money.results import StoredResult, hand_result
from ..storage import Database
from . import cache
from .cache import Live
from .live_state import check_open, current, new_hand
from .state import HandState
from .writes import (
    Plan,
    answered,
    asked,
    check_current,
    check_seq,
    check_table_seq,
    store_hand,
    write,
)

_HAND_START, _CORRECTION = map(str, (EventKind.HAND_START, EventKind.CORRECTION))


def public_state(sid: str, setup: dict[str, Any], hand: Hand, result: StoredResult | None, *,
           legal: bool = True) -> HandState:
    """The hand's public state and the verbs open now; with ``legal``, also every
    concrete action the referee would accept (an enumeration of the spreads,
    hits and discards: what ``GET hands/<n>`` shows, not the answer to a POST)."""
    state = cast(HandState, hand.snapshot())
    state["session"] = sid
    state["seq"] = len(hand.actions)
    state["stake_multiplier"] = setup.get("stake_multiplier", 1)
    for key in ("stake", "void", "accepted", "disputes"):
        if key in setup:
            state[key] = setup[key]
    if hand.phase == VOID:  # nothing more to do in it
        state["verbs"] = {}
        if legal:
            state["legal"] = []
        state["result"] = result
        return state
    state["verbs"] = hand.verbs()
    if legal:
        state["legal"] = [str(a) for a in hand.legal_actions()]
    if hand.is_complete:
        state["result"] = result
    return state


def hand_row(db: Database, sid: str, n: int) -> dict[str, Any]:
    row = storage.hands.row(db, sid, n)
    if row is None:
        raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                                  {"session": sid, "n": n}, hand=n)
    return row


def hand_state(db: Database, sid: str, n: int) -> HandState:
    """Hand ``n``'s public state, the verbs and actions open now, and its result
    when complete."""
    with cache.lock(db, sid):
        live = current(db, sid)
        hand = live.hand
        if n == live.n and hand is not None:
            if live.state is None:
                live.state = _current_state(db, live, hand)
            return live.state
    hand, setup, result = _played_hand(db, sid, n, live.rules)
    return public_state(sid, setup, hand, result)


def _played_hand(db: Database, sid: str, n: int, rules: HouseRules
                 ) -> tuple[Hand, dict[str, Any], StoredResult | None]:
    """An earlier hand (not the live one) rebuilt from its events: the hand,
    its setup and its stored result."""
    row = hand_row(db, sid, n)
    setup = row["setup"]
    hand = new_hand(rules, n, row["seats"], setup)
    for ev in storage.events.live_actions(storage.events.of_hand(db, sid, n)):
        hand.apply(ev["payload"]["action"])
    hand.finish_declarations()  # a later hand has started
    if "void" in setup:
        hand.phase = VOID
    return hand, setup, row["result"]


def side_bets(db: Database, sid: str, n: int) -> tuple[list[Words], dict[str, Decimal]]:
    """How a settled hand's side bets came out, and where their pots went: a
    sentence each (in words any language can say: the stored result keeps
    them in English only), and what each player took from or put into the
    pots, which the hand's own nets leave out and its totals count. Nothing
    for a hand without side bets, or not settled."""
    with cache.lock(db, sid):
        live = current(db, sid)
        if n == live.n and live.hand is not None:
            return _side_bets(db, sid, live.hand, live.setup)
    # An earlier hand is rebuilt outside the session's lock, as hand_state does.
    hand, setup, _ = _played_hand(db, sid, n, live.rules)
    return _side_bets(db, sid, hand, setup)


def _side_bets(db: Database, sid: str, hand: Hand, setup: dict[str, Any]
               ) -> tuple[list[Words], dict[str, Decimal]]:
    if not setup.get("side_bets") or not hand.is_complete:
        return [], {}
    won, story = pots_after(storage.running.before(db, sid, hand.number)).settle(
        side_bet_outcomes(hand, setup))
    return story, won


def _current_state(db: Database, live: Live, hand: Hand) -> HandState:
    result = hand_row(db, live.sid, live.n)["result"] \
        if hand.is_complete or hand.phase == VOID else None
    return public_state(live.sid, live.setup, hand, result)


def last_undone(db: Database, sid: str, n: int) -> str | None:
    """The action the hand's newest correction cancelled."""
    undone = [ev["payload"]["action"] for ev in storage.events.of_hand(db, sid, n)
              if "action" in ev["payload"]
              if ev["kind"] == _CORRECTION]
    return undone[-1] if undone else None


def suggest_dealer(db: Database, sid: str) -> str:
    """Who deals next: the rotation's choice, or the first seat before the first hand."""
    return next_dealer(db, sid)[0]


def next_dealer(db: Database, sid: str) -> tuple[str, Words | None]:
    """Who deals next and why (``Table.next_dealer``; None: the first hand,
    or nobody the rotation names, where the first seat is offered)."""
    with cache.lock(db, sid):
        live = current(db, sid)
        if live.hand is None:
            return (live.next_seats or live.players)[0], None
        seats = live.next_seats or live.hand.players
        dealer, why = live.table.next_dealer(seats)
        return (dealer, why) if dealer else (seats[0], None)


def check_undo_events(setup: dict[str, Any], n: int, actions: int) -> None:
    """An undo may not take away what the table's events stand on: the hand's
    accepted result. (A disputed action may be undone: that is how a table
    settles the dispute; see ``disputes_after_undo``.)"""
    if setup.get("void"):
        raise RuleViolation("hand_void", N_("the hand is void: nothing in it can be undone"),
                            hand=n)
    if setup.get("accepted"):
        raise RuleViolation("undo_accepted", N_("{names} accepted this hand's result, so its "
                                                "actions stand; note a dispute instead"),
                                             {"names": ', '.join(setup['accepted'])},
                            hand=n)


def undo(db: Database, sid: str, n: int, client_id: str | None = None,
         expected_seq: int | None = None) -> HandState:
    """Cancel the hand's last action with a correction event (the original stays
    in the history); returns the state without it. Raises as ``action.log_action``
    (``RuleViolation`` when there is nothing to undo)."""

    def plan(live: Live) -> Plan:
        try:
            check_open(live)
            hand = check_current(live, n)
            if not hand.actions:
                raise RuleViolation("nothing_to_undo", N_("the hand has no action to undo"),
                                    hand=n)
            check_seq(n, len(hand.actions), expected_seq)
            check_undo_events(live.setup, n, len(hand.actions))
            if hand.is_complete:
                # Its money has moved: only a dispute settled by a correction
                # takes it back (``disputes.settle_dispute``), on the record.
                raise RuleViolation("undo_settled", N_("hand {n} is settled: to correct it, "
                                                       "dispute the action and settle the "
                                                       "dispute by correcting the record"),
                                                    {"n": n}, hand=n)
        except (RuleViolation, StaleSeq, Closed) as err:
            return Plan(error=err)
        cancelled = str(hand.actions[-1])
        cancels = live.action_ids[-1]
        setup = live.setup
        setup = setup_after_undo(setup, len(hand.actions), cancelled)
        work = new_hand(live.rules, n, list(hand.players), setup)
        for action in hand.actions[:-1]:
            work.apply(action)
        state = public_state(sid, setup, work, None, legal=False)
        state_json = storage.to_json(state)
        event: dict[str, Any] = {}

        def job(w: Database) -> None:
            event.update(storage.events.append(
                w, sid, n, _CORRECTION, with_reply({"cancels": cancels, "action": cancelled},
                                                    client_id, state_json, asked()),
                client_id, after=live.version))
            store_hand(w, live, work, event["id"], None, client_id, state_json, undo=True)
            if setup is not live.setup:
                storage.hands.set_setup(w, sid, n, setup, event["id"])

        def after_commit() -> None:
            live.table.hands[-1] = work
            live.hand, live.version, live.state = work, event["id"], None
            live.setup = setup
            live.action_ids.pop()

        return Plan(state, None, job, after_commit)

    answer: HandState = write(db, sid, client_id, plan)
    return answer


def _with_pending(live: Live, setup: dict[str, Any]) -> dict[str, Any]:
    """The hand's setup with what the table's events left for it: the stake
    changed from this hand on (written on every later hand, as the log format
    wants it), and the seats after a player left (listed on this hand)."""
    if live.next_stake is not None and "stake" not in setup:
        setup = {**setup, "stake": live.next_stake}
    if live.next_seats is not None and "players" not in setup:
        setup = {**setup, "players": list(live.next_seats)}
    return setup


def _newcomers_printable(setup: dict[str, Any], everyone: list[str]) -> None:
    """A newcomer seated by a hand's own seats (the API's) with a name the
    papers cannot print is refused, as one sitting down by the table's
    event is (``table_events.seat``)."""
    for name in setup.get("players", ()):
        why = check_printable(name) if isinstance(name, str) and name not in everyone \
            else None
        if why:
            raise MalformedInput("bad_name", why.template, why.params)


def start_hand(db: Database, sid: str, setup: dict[str, Any], client_id: str | None = None,
               expected_seq: int | None = None) -> dict[str, Any]:
    """Start the session's next hand; returns its state (a ``HandState``, or
    as the first answer to ``client_id`` stored it). A hand told by its
    ending (``setup["ending"]``) is started and settled in the same event.
    ``expected_seq``: the table's newest event the request was made on
    (``StaleSeq`` if another has been written since). Raises ``RefereeError``
    (a setup the rules refuse, or one that cannot be read)."""
    seen = answered(db, sid, client_id, None)
    if seen:
        return seen
    given = load_hand_setup(setup)
    if "ending" in given:
        check_told_hand(given)

    def plan(live: Live) -> Plan:
        check_open(live)
        setup = _with_pending(live, given)
        _newcomers_printable(setup, live.everyone)
        # Started on the cached table itself: a refusal or a failed commit drops
        # the cache (``write``), so nothing of it stays visible.
        table = live.table
        hand = start_on(table, setup)  # raises when the rules refuse it
        del table.hands[:-1]  # only the newest hand is needed to start the next
        result = hand_result(hand, live.stake, live.quantum, setup) \
            if hand.is_complete else None  # told by its ending
        state = public_state(sid, setup, hand, result, legal=False)
        state_json = storage.to_json(state)
        event: dict[str, Any] = {}

        version = (live.n, live.version)

        def job(w: Database) -> None:
            if storage.hands.current_version(w, sid) != version:
                raise storage.events.Moved(sid)
            if expected_seq is not None:
                check_table_seq(storage.events.newest_seq(w, sid), expected_seq)
            event.update(storage.events.append(w, sid, hand.number, _HAND_START,
                                               with_reply(setup, client_id, state_json,
                                                          asked()),
                                               client_id))
            storage.hands.insert(w, sid, hand.number, setup, "ending" not in setup,
                                 list(hand.players), hand.dealer, len(hand.actions),
                                 event["id"], result)
            if result is not None:
                totals.refresh(w, sid, hand.number)
            if table.everyone != live.everyone:
                storage.sessions.set_everyone(w, sid, table.everyone)
            if live.next_seats is not None:  # listed on this hand: the table moves on
                storage.sessions.set_next(w, sid, stake=live.next_stake, seats=None)
            if client_id:
                storage.replies.store(w, sid, client_id, False, state_json)

        def after_commit() -> None:
            live.everyone = list(table.everyone)
            live.n, live.version, live.hand, live.setup = hand.number, event["id"], hand, setup
            live.action_ids, live.state = [], None
            live.next_seats = None

        return Plan(state, None, job, after_commit, touched=True)

    answer: dict[str, Any] = write(db, sid, client_id, plan, check=True)
    return answer


def preview_hand(db: Database, sid: str, setup: dict[str, Any]) -> dict[str, Any]:
    """What starting the next hand with ``setup`` would do, without storing
    anything: for a hand told by its ending, its result (who pays whom), the
    second tap's question. Raises as ``start_hand`` would."""
    given = load_hand_setup(setup)
    if "ending" in given:
        check_told_hand(given)
    with cache.lock(db, sid):
        live = current(db, sid)
        check_open(live)
        setup = _with_pending(live, given)
        _newcomers_printable(setup, live.everyone)
        hand = start_on(live.table.fork(), setup)
        stake, places = live.stake, live.quantum
    return {"hand": hand.number, "dealer": hand.dealer, "players": list(hand.players),
            "setup": setup,
            "result": hand_result(hand, stake, places, setup) if hand.is_complete else None}
