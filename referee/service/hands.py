"""Hands at a live table: start one, log an action, undo, read a hand's state.

Each function takes plain arguments, returns plain data (a hand's public
state as a dict) and raises the service's errors (``referee.service.errors``):
``NotFound``, ``StaleSeq``, ``Refused`` (the rules refused the action; the
attempt is kept in the history), or the engine's own ``RefereeError``.

Reading a hand must not cost more as a session grows, so each session's live
state (rules, table, the current hand) is kept in ``referee.service.cache``,
and each settled hand's result is stored with the hand, so totals never need
a replay. On a cache miss, or when another process has written, only the
current hand is rebuilt from its events (``Table.resume`` checks a new hand
against the last one's seats and dealer alone).

A write holds the session's lock (threads of this process) and then the
database's write lock (``BEGIN IMMEDIATE``: other processes), re-checks the
hand's version inside the transaction, applies the action to a copy of the
hand, inserts, commits, and only then swaps the copy into the cache: a
refused or failed action changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlite_utils import Database

from ..ledger.money import fmt, parse_stake, quantum_for
from ..ledger.results import void_result
from ..record import load_hand_setup
from ..replay import own_stake, settle_logged, side_bet_outcomes, start_on
from ..rules.actions import parse_action
from ..rules.cards import parse_card
from ..rules.events import disputes_after_undo
from ..rules.hand import VOID, Hand
from ..rules.options import HouseRules, resolve
from ..rules.table import Table
from ..rules.told import check_told_hand, read_ending, tell
from ..rules.words import N_, Words, to_plain
from . import cache, storage, totals
from .cache import Live
from .errors import Closed, NotFound, RefereeError, Refused, RuleViolation, StaleSeq


def session_row(db: Database, sid: str) -> dict:
    row = storage.session_row(db, sid)
    if row is None:
        raise NotFound("no_session", N_("there is no session {session}"), {"session": repr(sid)})
    return row


def quantum(rules: HouseRules, stake: Decimal, currency: str | None) -> Decimal:
    """The places every amount of the session is written with."""
    if rules.scoring == "push_ups":
        return Decimal(1)
    return quantum_for(stake, currency, rules.payment_amounts())


def session_quantum(row: dict, rules: HouseRules) -> Decimal:
    """The session's quantum as stored (an import's hands may have their own
    stakes with more places), else from its stake."""
    if row.get("quantum"):
        return Decimal(row["quantum"])
    return quantum(rules, parse_stake(row["stake"]), row["currency"])


def check_open(live: Live) -> None:
    """Refuse anything sent to a closed table."""
    if live.closed:
        raise Closed("table_closed", N_("the table was closed at {closed}: it takes nothing "
                                        "more, and its settlement is final"),
                                     {"closed": live.closed})


def hand_result(hand: Hand, stake: Decimal, places: Decimal, setup: dict) -> dict:
    """A complete hand's result: the tonk-result/1 entry, the payments in words
    (``story`` in English, ``story_words`` for ``referee.language.story``), and
    the exact nets (totals are summed before rounding, as the replay does). Side
    bets are stored as they came out; their pots are carried in ``standings``."""
    multiplier = setup.get("stake_multiplier", 1)
    r = settle_logged(hand, setup, stake)
    stake = own_stake(setup, stake)
    out = r.to_json(places)
    push_ups = hand.rules.scoring == "push_ups"
    per = Decimal(1) if push_ups else stake * multiplier
    said = r.settlement.words
    out["story"] = [str(words) for words in said]
    out["story_words"] = [to_plain(words) for words in said]
    out["payments"] = [
        {"from": p.payer, "to": p.payee, "stakes": format(p.stakes.normalize(), "f"),
         "amount": fmt(p.stakes * per, places), "reason": p.reason}
        for p in r.settlement.payments
    ]
    out["multiplier"] = multiplier
    out["net_exact"] = {q: str(v) for q, v in r.net.items()}
    out["side_bets"] = [o.to_json() for o in side_bet_outcomes(hand, setup)]
    return out


def void_hand_result(hand: Hand, reason: str, places: Decimal) -> dict:
    """A void hand's stored result: the result line (outcome ``void``, its
    reason, nets of 0) and what ``standings`` reads of a complete hand."""
    r = void_result(hand, reason)
    out = r.to_json(places)
    said = r.settlement.words
    out["story"] = [str(words) for words in said]
    out["story_words"] = [to_plain(words) for words in said]
    out["payments"] = []
    out["multiplier"] = 1
    out["net_exact"] = {q: "0" for q in hand.players}
    out["side_bets"] = []
    return out


# ---------------------------------------------------------------- live state

def _new_hand(rules: HouseRules, n: int, seats: list[str], setup: dict) -> Hand:
    """A stored hand rebuilt without its table (its seating was checked when it
    started); a hand told by its ending, ended as it tells."""
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    hand = Hand(rules, seats, setup["dealer"], deal=deal, upcard=upcard, number=n)
    if "ending" in setup:
        tell(hand, read_ending(setup["ending"]))
    return hand


def _build(db: Database, sid: str) -> Live:
    row = session_row(db, sid)
    # The rules as stored, fully expanded: a later change of a preset never
    # changes an old session.
    rules = resolve(row["rules_expanded"])
    stake = parse_stake(row["stake"])
    players = row["players"]
    everyone = row["everyone"]
    rows = storage.newest_hands(db, sid, 2)
    live = Live(sid, rules, stake, session_quantum(row, rules), players, everyone,
                Table(rules, players), closed=row["header"].get("closed"),
                next_stake=row["next_stake"], next_seats=row["next_seats"])
    if not rows:
        return live
    newest = rows[0]
    if len(rows) > 1:
        last = rows[1]
        live.table = Table.resume(rules, players, started=last["n"], last_seats=last["seats"],
                                  last_dealer=last["dealer"], everyone=everyone,
                                  last_void="void" in last["setup"])
    n, setup = newest["n"], newest["setup"]
    hand = start_on(live.table, setup)
    actions = storage.live_actions(storage.hand_events(db, sid, n))
    for ev in actions:
        hand.apply(ev["payload"]["action"])
    if "void" in setup:
        hand.phase = VOID
    live.n, live.version, live.hand, live.setup = n, newest["last_event"], hand, setup
    live.action_ids = [ev["id"] for ev in actions]
    return live


def _live(db: Database, sid: str, *, check: bool = True) -> Live:
    """The session's cached state, rebuilt if another process has moved it on.
    Without ``check`` the cache is trusted (a write checks it in its
    transaction instead). Call with the session's lock held."""
    live = cache.get(db, sid)
    # Before the first hand the version is (0, 0) whatever the table's events
    # changed (a stake, a seat, a close) in another process: such a state is
    # rebuilt, which costs one row.
    if live is not None and (not check or live.n and
                             (live.n, live.version) == storage.current_version(db, sid)):
        return live
    live = _build(db, sid)
    cache.put(db, live)
    return live


def live_state(db: Database, sid: str) -> Live:
    """The session's live state, current with the database (read only)."""
    with cache.lock(db, sid):
        return _live(db, sid)


def _state(sid: str, setup: dict, hand: Hand, result: dict | None, *,
           legal: bool = True) -> dict:
    """The hand's public state and the verbs open now; with ``legal``, also every
    concrete action the referee would accept (an enumeration of the spreads,
    hits and discards: what ``GET hands/<n>`` shows, not the answer to a POST)."""
    state = hand.snapshot()
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


def _hand_row(db: Database, sid: str, n: int) -> dict:
    row = storage.hand_row(db, sid, n)
    if row is None:
        raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                                  {"session": sid, "n": n}, hand=n)
    return row


def hand_state(db: Database, sid: str, n: int) -> dict:
    """Hand ``n``'s public state, the verbs and actions open now, and its result
    when complete."""
    with cache.lock(db, sid):
        live = _live(db, sid)
        if n == live.n and live.hand is not None:
            if live.state is None:
                live.state = _current_state(db, live)
            return live.state
    hand, setup, result = _played_hand(db, sid, n, live.rules)
    return _state(sid, setup, hand, result)


def _played_hand(db: Database, sid: str, n: int, rules: HouseRules
                 ) -> tuple[Hand, dict, dict | None]:
    """An earlier hand (not the live one) rebuilt from its events: the hand,
    its setup and its stored result."""
    row = _hand_row(db, sid, n)
    setup = row["setup"]
    hand = _new_hand(rules, n, row["seats"], setup)
    for ev in storage.live_actions(storage.hand_events(db, sid, n)):
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
        live = _live(db, sid)
        if n == live.n and live.hand is not None:
            return _side_bets(db, sid, live.hand, live.setup)
    # An earlier hand is rebuilt outside the session's lock, as hand_state does.
    hand, setup, _ = _played_hand(db, sid, n, live.rules)
    return _side_bets(db, sid, hand, setup)


def _side_bets(db: Database, sid: str, hand: Hand, setup: dict
               ) -> tuple[list[Words], dict[str, Decimal]]:
    if not setup.get("side_bets") or not hand.is_complete:
        return [], {}
    won, story = totals.pots_after(storage.running_before(db, sid, hand.number)).settle(
        side_bet_outcomes(hand, setup))
    return story, won


def _current_state(db: Database, live: Live) -> dict:
    hand = live.hand
    result = _hand_row(db, live.sid, live.n)["result"] \
        if hand.is_complete or hand.phase == VOID else None
    return _state(live.sid, live.setup, hand, result)


def history(db: Database, sid: str, n: int) -> list[dict]:
    """The hand's logged actions in order, undone ones marked (they stay in the
    history). One indexed read of this hand's events only."""
    events = storage.hand_events(db, sid, n)
    cancelled = {ev["payload"]["cancels"] for ev in events if ev["kind"] == "correction"}
    return [{"text": ev["payload"]["action"], "undone": ev["id"] in cancelled}
            for ev in events if ev["kind"] == "action"]


def last_undone(db: Database, sid: str, n: int) -> str | None:
    """The action the hand's newest correction cancelled."""
    undone = [ev["payload"]["action"] for ev in storage.hand_events(db, sid, n)
              if ev["kind"] == "correction"]
    return undone[-1] if undone else None


def suggest_dealer(db: Database, sid: str) -> str:
    """Who deals next: the rotation's choice, or the first seat before the first hand."""
    with cache.lock(db, sid):
        live = _live(db, sid)
        if live.hand is None:
            return (live.next_seats or live.players)[0]
        seats = live.next_seats or live.hand.players
        return live.table.expected_dealer(seats) or seats[0]


# ---------------------------------------------------------------- writes

def _answered(db: Database, sid: str, client_id: str | None,
              event: str | None) -> dict | None:
    """The first answer to ``client_id`` again: its state, or its refusal raised.
    ``event``: the kind of request now (None: a hand's action, undo or start);
    a client_id first used for another kind is refused, since its first
    answer says nothing about this request."""
    if not client_id:
        return None
    seen = storage.reply(db, sid, client_id)
    if seen is None:
        return None
    refused, body = seen
    if refused:
        raise Refused.from_dict(body["error"])
    if body.get("event") != event:
        raise RuleViolation("client_id_reused", N_("that client_id was already used for "
                                                   "another kind of request: send a fresh one"))
    return body


def _check_current(live: Live, n: int) -> Hand:
    if n < 1 or n > live.n or live.hand is None:
        raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                                  {"session": live.sid, "n": n}, hand=n)
    if n < live.n:
        raise RuleViolation("hand_over", N_("this hand is over: hand {hands} has started"),
                                         {"hands": live.n},
                            hand=n)
    return live.hand


def _check_table_seq(seq: int, expected_seq: int) -> None:
    if expected_seq != seq:
        raise StaleSeq("stale_seq", N_("the table's newest event is number {seq}, not "
                                       "{expected}: something was logged since you looked; "
                                       "look again"), {"seq": seq, "expected": expected_seq})


def _check_seq(n: int, seq: int, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != seq:
        raise StaleSeq("stale_seq", N_("the hand has {seq} actions, not {expected}: another "
                                       "action was logged since you looked; look again"),
                                    {"seq": seq, "expected": expected_seq}, hand=n)


def _store_hand(w: Database, live: Live, hand: Hand, event_id: int, result: dict | None,
                client_id: str | None, state_json: str, *, undo: bool = False) -> None:
    """Store the hand's new derived rows (and the reply) inside the transaction:
    an action that settles it, or an undo that may reopen it, moves the
    running totals too."""
    storage.update_hand(w, live.sid, hand.number, len(hand.actions), event_id,
                        storage.to_json(result) if result else None)
    if result is not None or undo:
        storage.refresh_running(w, live.sid, hand.number)
    if client_id:
        storage.store_reply(w, live.sid, client_id, False, state_json)


@dataclass
class _Plan:
    """A write worked out on the cached state, outside the transaction: the
    answer (a state, or an error to raise), what to insert (``job``, run by the
    writer inside the transaction) and how the cache moves on after the commit."""

    state: dict | None = None
    error: RefereeError | None = None  # raised once the write (if any) is committed
    job: Any = None  # (w) -> None, inside the transaction; None: nothing to write
    after_commit: Any = None  # () -> None
    touched: bool = False  # the cached state was changed already (dropped on failure)

    def answer(self) -> dict:
        if self.error is not None:
            raise self.error
        return self.state


_RETRIES = 5


def _write(db: Database, sid: str, client_id: str | None, plan, *,
           check: bool = False, kind: str | None = None) -> dict:
    """A write under the session's lock.

    ``plan(live)`` checks the request against the cached state and prepares
    everything costly (the rules, the new state, its JSON) in the request's
    own thread; the writer thread then only runs the plan's ``job``: the
    inserts, inside a ``BEGIN IMMEDIATE`` transaction, where the event's
    insert first checks that the session's newest event is still the one the
    cache knows (``storage.Moved`` if another process wrote since). The cache
    moves on after the commit; if the commit fails, or the session moved, the
    session's cached state is dropped and rebuilt from the database: nothing
    half-applied stays visible. A ``client_id`` already answered gets its
    first answer (the replies table's key refuses a second one). Answers
    without a write (a stale ``expected_seq``, a hand that is over) are not
    stored, and are only given on a cache checked against the database."""
    with cache.lock(db, sid):
        for attempt in range(_RETRIES):
            checked = check or attempt > 0
            live = _live(db, sid, check=checked)
            try:
                p: _Plan = plan(live)
            except BaseException as err:
                cache.drop(db, sid)  # it may have got half-way: rebuild from the database
                if checked or not isinstance(err, Exception):
                    raise
                continue  # a refusal is only given on the database's state
            if p.job is None:
                seen = _answered(db, sid, client_id, kind)
                if seen:
                    return seen
                if not checked and (live.n, live.version) != storage.current_version(db, sid):
                    cache.drop(db, sid)
                    continue
                return p.answer()
            try:
                storage.run_write(db, p.job)
            except storage.Moved:
                cache.drop(db, sid)
                continue
            except storage.INTEGRITY_ERRORS:
                cache.drop(db, sid)
                seen = _answered(db, sid, client_id, kind)
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


def _refusal(live: Live, n: int, text: str, err: RefereeError,
             client_id: str | None) -> _Plan:
    """A refused action changes nothing in the hand, but the attempt is kept in
    the session's history (a ``refusal`` event with the rule that decided it),
    so a dispute can be told later what was tried and why it was refused."""
    refused = Refused.of(err)
    refused.__cause__ = err
    body_json = storage.to_json({"error": refused.to_stored()})
    event: dict = {}

    def job(w: Database) -> None:
        event.update(storage.append_event(
            w, live.sid, n, "refusal", {"action": text, "code": err.code,
                                        "message": err.message}, client_id,
            after=live.version))
        storage.touch_hand(w, live.sid, n, event["id"])
        if client_id:
            storage.store_reply(w, live.sid, client_id, True, body_json)

    def after_commit() -> None:
        live.version = event["id"]

    return _Plan(error=refused, job=job, after_commit=after_commit)


def post_action(db: Database, sid: str, n: int, action_text: str, client_id: str | None,
                expected_seq: int | None) -> dict:
    """Log one action; returns the hand's new state, or the first answer again
    for a known ``client_id``. Raises ``Refused`` (kept in the history),
    ``StaleSeq``, ``NotFound``, or ``RuleViolation`` for a hand that is over.

    The state has the verbs open now but not the list of legal actions
    (``hand_state`` has it): enumerating them costs more than the rest of the
    request."""

    def plan(live: Live) -> _Plan:
        try:
            check_open(live)
            hand = _check_current(live, n)
        except (RuleViolation, Closed) as err:
            return _Plan(error=err)
        seq = len(hand.actions)
        try:
            _check_seq(n, seq, expected_seq)
        except StaleSeq as err:
            return _Plan(error=err)
        try:
            action = hand.verify(parse_action(action_text))  # never changes the hand
        except RefereeError as err:
            err.at(hand=n, action=seq + 1, action_text=str(action_text))
            return _refusal(live, n, str(action_text), err, client_id)
        # Applied in place: from here on a failure drops the cached state.
        p = _Plan(touched=True)
        hand.apply_verified(action)
        result = hand_result(hand, live.stake, live.quantum, live.setup) \
            if hand.is_complete else None
        p.state = state = _state(sid, live.setup, hand, result, legal=False)
        state_json = storage.to_json(state)
        text = str(action)
        event: dict = {}

        def job(w: Database) -> None:
            event.update(storage.append_event(w, sid, n, "action",
                                              {"action": text, "text": text}, client_id,
                                              after=live.version))
            _store_hand(w, live, hand, event["id"], result, client_id, state_json)

        def after_commit() -> None:
            live.version, live.state = event["id"], None
            live.action_ids.append(event["id"])

        p.job, p.after_commit = job, after_commit
        return p

    return _write(db, sid, client_id, plan)


def _check_undo_events(setup: dict, n: int, actions: int) -> None:
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
         expected_seq: int | None = None) -> dict:
    """Cancel the hand's last action with a correction event (the original stays
    in the history); returns the state without it. Raises as ``post_action``
    (``RuleViolation`` when there is nothing to undo)."""

    def plan(live: Live) -> _Plan:
        try:
            check_open(live)
            hand = _check_current(live, n)
            if not hand.actions:
                raise RuleViolation("nothing_to_undo", N_("the hand has no action to undo"),
                                    hand=n)
            _check_seq(n, len(hand.actions), expected_seq)
            _check_undo_events(live.setup, n, len(hand.actions))
            if hand.is_complete:
                # Its money has moved: only a dispute settled by a correction
                # takes it back (``table_events.settle_dispute``), on the record.
                raise RuleViolation("undo_settled", N_("hand {n} is settled: to correct it, "
                                                       "dispute the action and settle the "
                                                       "dispute by correcting the record"),
                                                    {"n": n}, hand=n)
        except (RuleViolation, StaleSeq, Closed) as err:
            return _Plan(error=err)
        cancelled = str(hand.actions[-1])
        cancels = live.action_ids[-1]
        setup = live.setup
        if any(d["action"] == len(hand.actions) for d in setup.get("disputes", ())):
            setup = {**setup, "disputes": disputes_after_undo(
                setup["disputes"], len(hand.actions), cancelled)}
        work = _new_hand(live.rules, n, list(hand.players), setup)
        for action in hand.actions[:-1]:
            work.apply(action)
        state = _state(sid, setup, work, None, legal=False)
        state_json = storage.to_json(state)
        event: dict = {}

        def job(w: Database) -> None:
            event.update(storage.append_event(w, sid, n, "correction",
                                              {"cancels": cancels, "action": cancelled},
                                              client_id, after=live.version))
            _store_hand(w, live, work, event["id"], None, client_id, state_json, undo=True)
            if setup is not live.setup:
                storage.set_hand(w, sid, n, setup, event["id"])

        def after_commit() -> None:
            live.table.hands[-1] = work
            live.hand, live.version, live.state = work, event["id"], None
            live.setup = setup
            live.action_ids.pop()

        return _Plan(state, None, job, after_commit)

    return _write(db, sid, client_id, plan)


def _with_pending(live: Live, setup: dict) -> dict:
    """The hand's setup with what the table's events left for it: the stake
    changed from this hand on (written on every later hand, as the log format
    wants it), and the seats after a player left (listed on this hand)."""
    if live.next_stake is not None and "stake" not in setup:
        setup = {**setup, "stake": live.next_stake}
    if live.next_seats is not None and "players" not in setup:
        setup = {**setup, "players": list(live.next_seats)}
    return setup


def start_hand(db: Database, sid: str, setup: dict, client_id: str | None = None,
               expected_seq: int | None = None) -> dict:
    """Start the session's next hand; returns its state. A hand told by its
    ending (``setup["ending"]``) is started and settled in the same event.
    ``expected_seq``: the table's newest event the request was made on
    (``StaleSeq`` if another has been written since). Raises ``RefereeError``
    (a setup the rules refuse, or one that cannot be read)."""
    seen = _answered(db, sid, client_id, None)
    if seen:
        return seen
    given = load_hand_setup(setup)
    if "ending" in given:
        check_told_hand(given)

    def plan(live: Live) -> _Plan:
        check_open(live)
        setup = _with_pending(live, given)
        # Started on the cached table itself: a refusal or a failed commit drops
        # the cache (``_write``), so nothing of it stays visible.
        table = live.table
        hand = start_on(table, setup)  # raises when the rules refuse it
        del table.hands[:-1]  # only the newest hand is needed to start the next
        result = hand_result(hand, live.stake, live.quantum, setup) \
            if hand.is_complete else None  # told by its ending
        state = _state(sid, setup, hand, result, legal=False)
        state_json = storage.to_json(state)
        event: dict = {}

        version = (live.n, live.version)

        def job(w: Database) -> None:
            if storage.current_version(w, sid) != version:
                raise storage.Moved(sid)
            if expected_seq is not None:
                _check_table_seq(storage.newest_seq(w, sid), expected_seq)
            event.update(storage.append_event(w, sid, hand.number, "hand_start", setup,
                                              client_id))
            storage.insert_hand(w, sid, hand.number, setup, "ending" not in setup,
                                list(hand.players), hand.dealer, len(hand.actions),
                                event["id"], result)
            if result is not None:
                storage.refresh_running(w, sid, hand.number)
            if table.everyone != live.everyone:
                storage.set_everyone(w, sid, table.everyone)
            if live.next_seats is not None:  # listed on this hand: the table moves on
                storage.set_next(w, sid, stake=live.next_stake, seats=None)
            if client_id:
                storage.store_reply(w, sid, client_id, False, state_json)

        def after_commit() -> None:
            live.everyone = list(table.everyone)
            live.n, live.version, live.hand, live.setup = hand.number, event["id"], hand, setup
            live.action_ids, live.state = [], None
            live.next_seats = None

        return _Plan(state, None, job, after_commit, touched=True)

    return _write(db, sid, client_id, plan, check=True)


def preview_hand(db: Database, sid: str, setup: dict) -> dict:
    """What starting the next hand with ``setup`` would do, without storing
    anything: for a hand told by its ending, its result (who pays whom), the
    second tap's question. Raises as ``start_hand`` would."""
    given = load_hand_setup(setup)
    if "ending" in given:
        check_told_hand(given)
    with cache.lock(db, sid):
        live = _live(db, sid)
        check_open(live)
        setup = _with_pending(live, given)
        hand = start_on(live.table.fork(), setup)
        stake, places = live.stake, live.quantum
    return {"hand": hand.number, "dealer": hand.dealer, "players": list(hand.players),
            "setup": setup,
            "result": hand_result(hand, stake, places, setup) if hand.is_complete else None}
