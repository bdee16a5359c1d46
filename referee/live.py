"""The live-table service: sessions, hands and actions on top of the storage.

Used by the JSON API and by the tablet pages; no web framework here.

Reading a hand must not cost more as a session grows, so each session's
live state (rules, table, the current hand) is kept in an in-process cache,
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

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlite_utils import Database

from .ledger.money import fmt, parse_stake, quantum_for
from .ledger.results import settle_hand
from .ledger.settlement import settle_up
from .ledger.side_bets import Pots, SideBetOutcome
from .record import FORMAT, dump_log, load_hand_setup, load_log
from .replay import replay, side_bet_outcomes, start_on
from .rules.actions import parse_action
from .rules.cards import parse_card
from .rules.errors import MalformedInput, RefereeError, RuleViolation
from .rules.hand import Hand
from .rules.options import HouseRules, resolve
from .rules.table import Table
from .service import storage

CACHE_SIZE = 512
RESULT_KEYS = ("hand", "dealer", "outcome", "winners", "counts", "net")


class NotFound(RefereeError):
    """No such session or hand."""


class StaleSeq(RefereeError):
    """The client's ``expected_seq`` is not the hand's number of actions."""


@dataclass(frozen=True)
class SessionInfo:
    id: str
    table_token: str
    audit_token: str


@dataclass
class Live:
    """One session's live state, as cached in this process."""

    sid: str
    rules: HouseRules
    stake: Decimal
    quantum: Decimal
    players: list[str]
    everyone: list[str]
    table: Table
    n: int = 0  # the current (newest) hand, 0 before the first
    version: int = 0  # id of the newest event of the current hand
    hand: Hand | None = None
    setup: dict = field(default_factory=dict)
    action_ids: list[int] = field(default_factory=list)  # events of the actions in force
    state: dict | None = None  # hand_state of the current hand at ``version``


_cache: OrderedDict[tuple[str, str], Live] = OrderedDict()
_locks: dict[tuple[str, str], threading.RLock] = {}
_guard = threading.Lock()


def _session_lock(db: Database, sid: str) -> threading.RLock:
    key = (storage.db_key(db), sid)
    lock = _locks.get(key)
    if lock is None:
        with _guard:
            lock = _locks.setdefault(key, threading.RLock())
    return lock


def forget(db: Database | None = None) -> None:
    """Drop cached state (all of it, or one database's): tests use it to force
    the rebuild a fresh process would do."""
    with _guard:
        if db is None:
            _cache.clear()
            _token_hashes.clear()
            return
        key = storage.db_key(db)
        for k in [k for k in _cache if k[0] == key]:
            del _cache[k]
        for k in [k for k in _token_hashes if k[0] == key]:
            del _token_hashes[k]


# ---------------------------------------------------------------- secrets

def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_pin(pin: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_pin(db: Database, sid: str, pin: str) -> bool:
    """Whether ``pin`` unlocks the session (True when it has no PIN)."""
    stored = _session_row(db, sid)["pin_hash"]
    if not stored:
        return True
    _, salt, digest = stored.split("$")
    got = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    return hmac.compare_digest(got.hex(), digest)


def has_pin(db: Database, sid: str) -> bool:
    return bool(_session_row(db, sid)["pin_hash"])


# A session's token hashes never change: kept here, so that checking a
# request's token costs no query (and no copy of the session's row).
_token_hashes: dict[tuple[str, str], tuple[str, str]] = {}


def _session_tokens(db: Database, sid: str) -> tuple[str, str]:
    key = (storage.db_key(db), sid)
    hashes = _token_hashes.get(key)
    if hashes is None:
        row = db.conn.execute("SELECT table_token_hash, audit_token_hash FROM sessions "
                              "WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise NotFound("no_session", f"there is no session {sid!r}")
        hashes = (row[0], row[1])
        with _guard:
            if len(_token_hashes) >= 4 * CACHE_SIZE:
                _token_hashes.clear()
            _token_hashes[key] = hashes
    return hashes


def token_role(db: Database, sid: str, token: str | None) -> str | None:
    """``"table"``, ``"audit"`` or None for a bearer token of session ``sid``."""
    table_hash, audit_hash = _session_tokens(db, sid)
    if not token:
        return None
    h = _token_hash(token)
    if hmac.compare_digest(h, table_hash):
        return "table"
    if hmac.compare_digest(h, audit_hash):
        return "audit"
    return None


# ---------------------------------------------------------------- sessions

def _session_row(db: Database, sid: str) -> dict:
    cur = db.conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,))
    values = cur.fetchone()
    if values is None:
        raise NotFound("no_session", f"there is no session {sid!r}")
    return dict(zip([d[0] for d in cur.description], values, strict=True))


def _quantum(rules: HouseRules, stake: Decimal, currency: str | None) -> Decimal:
    if rules.scoring == "push_ups":
        return Decimal(1)
    return quantum_for(stake, currency, rules.payment_amounts())


def create_session(db: Database, header: dict, pin: str | None = None) -> SessionInfo:
    """A new session from a ``tonk-log/1`` header (a document with hands is an import)."""
    if isinstance(header, dict) and "format" not in header:
        header = {"format": FORMAT, **header}
    return import_log(db, header, pin)


def import_log(db: Database, doc: dict, pin: str | None = None) -> SessionInfo:
    """Store a whole ``tonk-log/1`` document (its last hand may be still open)."""
    log = load_log(doc)
    played = replay(log, allow_open_last_hand=True)
    rules, stake = played.rules, played.stake
    if pin is not None and not (isinstance(pin, str) and 4 <= len(pin) <= 64):
        raise MalformedInput("bad_pin", "a PIN has 4 to 64 characters")
    header = {k: v for k, v in log.items() if k != "hands"}
    if "hands" in log:
        header["hands"] = []
    sid = secrets.token_hex(6)
    info = SessionInfo(sid, secrets.token_urlsafe(24), secrets.token_urlsafe(24))
    quantum = _quantum(rules, stake, log.get("currency"))
    with storage.write(db):
        db.conn.execute(
            "INSERT INTO sessions (id, created, table_name, started, currency, stake, header, "
            "rules_source, rules_expanded, players, everyone, pin_hash, table_token_hash, "
            "audit_token_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (sid, storage.now(), log.get("table"), log.get("started"), log.get("currency"),
             str(log["stake"]), json.dumps(header), json.dumps(log["rules"]),
             json.dumps(rules.to_json()), json.dumps(log["players"]),
             json.dumps(played.table.everyone), hash_pin(pin) if pin else None,
             _token_hash(info.table_token), _token_hash(info.audit_token)),
        )
        db.conn.executemany(
            "INSERT INTO seats (session_id, hand, position, name) VALUES (?, 0, ?, ?)",
            [(sid, i, name) for i, name in enumerate(log["players"])])
        storage.append_event(db, sid, None, "session", header)
        for given, hand in zip(log.get("hands", []), played.table.hands, strict=True):
            setup = {k: v for k, v in given.items() if k != "actions"}
            ev = storage.append_event(db, sid, hand.number, "hand_start", setup)
            last = ev["id"]
            for text, action in zip(given.get("actions", []), hand.actions, strict=True):
                last = storage.append_event(
                    db, sid, hand.number, "action", {"action": str(action), "text": text})["id"]
            result = None
            if hand.is_complete:
                result = _hand_result(hand, stake, quantum, given)
            _insert_hand(db, sid, hand, setup, "actions" in given, last, result)
    return info


def _insert_hand(db: Database, sid: str, hand: Hand, setup: dict, actions_key: bool,
                 last_event: int, result: dict | None) -> None:
    db.conn.execute(
        "INSERT INTO hands (session_id, n, setup, actions_key, seats, dealer, status, seq, "
        "last_event, result) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (sid, hand.number, json.dumps(setup), int(actions_key), json.dumps(hand.players),
         hand.dealer, "complete" if result else "open", len(hand.actions), last_event,
         json.dumps(result) if result else None),
    )
    db.conn.executemany(
        "INSERT INTO seats (session_id, hand, position, name) VALUES (?, ?, ?, ?)",
        [(sid, hand.number, i, name) for i, name in enumerate(hand.players)])


def _hand_result(hand: Hand, stake: Decimal, quantum: Decimal, setup: dict) -> dict:
    """A complete hand's result: the tonk-result/1 entry, the payments in words, and
    the exact nets (totals are summed before rounding, as the replay does). Side
    bets are stored as they came out; their pots are carried in ``standings``."""
    multiplier = setup.get("stake_multiplier", 1)
    r = settle_hand(hand, stake, multiplier)
    out = r.to_json(quantum)
    push_ups = hand.rules.scoring == "push_ups"
    per = Decimal(1) if push_ups else stake * multiplier
    out["story"] = list(r.settlement.story)
    out["payments"] = [
        {"from": p.payer, "to": p.payee, "stakes": format(p.stakes.normalize(), "f"),
         "amount": fmt(p.stakes * per, quantum), "reason": p.reason}
        for p in r.settlement.payments
    ]
    out["multiplier"] = multiplier
    out["net_exact"] = {q: str(v) for q, v in r.net.items()}
    out["side_bets"] = [o.to_json() for o in side_bet_outcomes(hand, setup)]
    return out


# ---------------------------------------------------------------- live state

def _new_hand(rules: HouseRules, n: int, seats: list[str], setup: dict) -> Hand:
    """A stored hand rebuilt without its table (its seating was checked when it started)."""
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    return Hand(rules, seats, setup["dealer"], deal=deal, upcard=upcard, number=n)


def _start_on(table: Table, setup: dict) -> Hand:
    return start_on(table, setup)


def _build(db: Database, sid: str) -> Live:
    row = _session_row(db, sid)
    # The rules as stored, fully expanded: a later change of a preset never
    # changes an old session.
    rules = resolve(json.loads(row["rules_expanded"]))
    stake = parse_stake(row["stake"])
    players = json.loads(row["players"])
    everyone = json.loads(row["everyone"])
    rows = db.conn.execute(
        "SELECT n, setup, seats, dealer, last_event FROM hands WHERE session_id = ? "
        "ORDER BY n DESC LIMIT 2", (sid,)).fetchall()
    live = Live(sid, rules, stake, _quantum(rules, stake, row["currency"]), players, everyone,
                Table(rules, players))
    if not rows:
        return live
    n, setup_json, _seats, _dealer, version = rows[0]
    if len(rows) > 1:
        pn, _, pseats, pdealer, _ = rows[1]
        live.table = Table.resume(rules, players, started=pn, last_seats=json.loads(pseats),
                                  last_dealer=pdealer, everyone=everyone)
    setup = json.loads(setup_json)
    hand = _start_on(live.table, setup)
    actions = storage.live_actions(storage.hand_events(db, sid, n))
    for ev in actions:
        hand.apply(ev["payload"]["action"])
    live.n, live.version, live.hand, live.setup = n, version, hand, setup
    live.action_ids = [ev["id"] for ev in actions]
    return live


def _current_version(db: Database, sid: str) -> tuple[int, int]:
    row = db.conn.execute("SELECT n, last_event FROM hands WHERE session_id = ? "
                          "ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return (row[0], row[1]) if row else (0, 0)


def _live(db: Database, sid: str, *, check: bool = True) -> Live:
    """The session's cached state, rebuilt if another process has moved it on.
    Without ``check`` the cache is trusted (a write checks it in its
    transaction instead). Call with the session's lock held."""
    key = (storage.db_key(db), sid)
    live = _cache.get(key)
    if live is not None and (not check or (live.n, live.version) == _current_version(db, sid)):
        _cache.move_to_end(key)
        return live
    live = _build(db, sid)
    with _guard:
        _cache[key] = live
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return live


def _state(sid: str, setup: dict, hand: Hand, result: dict | None, *,
           legal: bool = True) -> dict:
    """The hand's public state and the verbs open now; with ``legal``, also every
    concrete action the referee would accept (an enumeration of the spreads,
    hits and discards: what ``GET hands/<n>`` shows, not the answer to a POST)."""
    state = hand.snapshot()
    state["session"] = sid
    state["seq"] = len(hand.actions)
    state["stake_multiplier"] = setup.get("stake_multiplier", 1)
    state["verbs"] = hand.verbs()
    if legal:
        state["legal"] = [str(a) for a in hand.legal_actions()]
    if hand.is_complete:
        state["result"] = result
    return state


def _hand_row(db: Database, sid: str, n: int) -> dict:
    cur = db.conn.execute("SELECT * FROM hands WHERE session_id = ? AND n = ?", (sid, n))
    values = cur.fetchone()
    if values is None:
        raise NotFound("no_hand", f"session {sid} has no hand {n}", hand=n)
    return dict(zip([d[0] for d in cur.description], values, strict=True))


def hand_state(db: Database, sid: str, n: int) -> dict:
    """Hand ``n``'s public state, the verbs and actions open now, and its result
    when complete."""
    with _session_lock(db, sid):
        live = _live(db, sid)
        if n == live.n and live.hand is not None:
            if live.state is None:
                live.state = _current_state(db, live)
            return live.state
    row = _hand_row(db, sid, n)
    setup = json.loads(row["setup"])
    hand = _new_hand(live.rules, n, json.loads(row["seats"]), setup)
    for ev in storage.live_actions(storage.hand_events(db, sid, n)):
        hand.apply(ev["payload"]["action"])
    hand.finish_declarations()  # a later hand has started
    return _state(sid, setup, hand, json.loads(row["result"]) if row["result"] else None)


def _current_state(db: Database, live: Live) -> dict:
    hand = live.hand
    result = None
    if hand.is_complete:
        stored = _hand_row(db, live.sid, live.n)["result"]
        result = json.loads(stored) if stored else None
    return _state(live.sid, live.setup, hand, result)


def _reply(db: Database, sid: str, client_id: str | None, *,
           as_json: bool = False) -> tuple[int, Any] | None:
    """The stored first answer to ``client_id`` (its body as JSON text with ``as_json``)."""
    if not client_id:
        return None
    row = db.conn.execute("SELECT status, body FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    if row is None:
        return None
    return (row[0], row[1]) if as_json else (row[0], json.loads(row[1]))


def _error(err: RefereeError) -> dict:
    return {"error": err.to_dict()}


def _check_current(live: Live, n: int) -> Hand:
    if n < 1 or n > live.n or live.hand is None:
        raise NotFound("no_hand", f"session {live.sid} has no hand {n}", hand=n)
    if n < live.n:
        raise RuleViolation("hand_over", f"this hand is over: hand {live.n} has started",
                            hand=n)
    return live.hand


def _store_hand(w: Database, live: Live, hand: Hand, event_id: int, result: dict | None,
                client_id: str | None, body_json: str) -> None:
    """Store the hand's new derived row (and the reply) inside the transaction."""
    w.conn.execute(
        "UPDATE hands SET seq = ?, last_event = ?, status = ?, result = ? "
        "WHERE session_id = ? AND n = ?",
        (len(hand.actions), event_id, "complete" if result else "open",
         json.dumps(result) if result else None, live.sid, hand.number))
    if client_id:
        w.conn.execute("INSERT INTO replies (session_id, client_id, status, body) "
                       "VALUES (?, ?, 201, ?)", (live.sid, client_id, body_json))


def _refusal(live: Live, n: int, text: str, err: RefereeError,
             client_id: str | None) -> _Plan:
    """A refused action changes nothing in the hand, but the attempt is kept in
    the session's history (a ``refusal`` event with the rule that decided it),
    so a dispute can be told later what was tried and why it was refused."""
    body = _error(err)
    body_json = json.dumps(body)
    event: dict = {}

    def job(w: Database) -> None:
        event.update(storage.append_event(
            w, live.sid, n, "refusal", {"action": text, "code": err.code,
                                        "message": err.message}, client_id,
            after=live.version))
        w.conn.execute("UPDATE hands SET last_event = ? WHERE session_id = ? AND n = ?",
                       (event["id"], live.sid, n))
        if client_id:
            w.conn.execute("INSERT INTO replies (session_id, client_id, status, body) "
                           "VALUES (?, ?, 422, ?)", (live.sid, client_id, body_json))

    def after_commit() -> None:
        live.version = event["id"]

    return _Plan(422, body, body_json, job, after_commit)


def _settle(live: Live, hand: Hand) -> dict | None:
    if not hand.is_complete:
        return None
    return _hand_result(hand, live.stake, live.quantum, live.setup)


def _stale(n: int, seq: int, expected_seq: int) -> tuple[int, dict]:
    return 409, _error(StaleSeq(
        "stale_seq", f"the hand has {seq} actions, not {expected_seq}: another "
        "action was logged since you looked; look again", hand=n))


def _drop(db: Database, sid: str) -> None:
    with _guard:
        _cache.pop((storage.db_key(db), sid), None)


@dataclass
class _Plan:
    """A write worked out on the cached state, outside the transaction: the
    answer, what to insert (``job``, run by the writer inside the transaction)
    and how the cache moves on after the commit."""

    status: int
    body: dict
    body_json: str | None = None  # the body as JSON text, when already made
    job: Any = None  # (w) -> None, inside the transaction; None: nothing to write
    after_commit: Any = None  # () -> None
    touched: bool = False  # the cached state was changed already (dropped on failure)


_RETRIES = 5


def _write(db: Database, sid: str, client_id: str | None, plan, *,
           as_json: bool = False, check: bool = False) -> tuple[int, Any]:
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
    without a write (409, 422) are not stored, and are only given on a cache
    checked against the database. With ``as_json`` the answer's body comes as
    JSON text (the API sends it as is)."""

    def answer(p: _Plan) -> tuple[int, Any]:
        if not as_json:
            return p.status, p.body
        return p.status, p.body_json if p.body_json is not None else json.dumps(p.body)

    with _session_lock(db, sid):
        for attempt in range(_RETRIES):
            checked = check or attempt > 0
            live = _live(db, sid, check=checked)
            try:
                p: _Plan = plan(live)
            except BaseException as err:
                _drop(db, sid)  # it may have got half-way: rebuild from the database
                if checked or not isinstance(err, Exception):
                    raise
                continue  # a refusal is only given on the database's state
            if p.job is None:
                seen = _reply(db, sid, client_id, as_json=as_json)
                if seen:
                    return seen
                if not checked and (live.n, live.version) != _current_version(db, sid):
                    _drop(db, sid)
                    continue
                return answer(p)
            try:
                storage.run_write(db, p.job)
            except storage.Moved:
                _drop(db, sid)
                continue
            except sqlite3.IntegrityError:
                _drop(db, sid)
                seen = _reply(db, sid, client_id, as_json=as_json)
                if seen:
                    return seen
                raise
            except BaseException:
                if p.touched:
                    _drop(db, sid)
                raise
            if p.after_commit is not None:
                p.after_commit()
            return answer(p)
    raise RuntimeError(f"session {sid} kept changing under this write")


def post_action(db: Database, sid: str, n: int, action_text: str, client_id: str | None,
                expected_seq: int | None, *, as_json: bool = False) -> tuple[int, Any]:
    """Log one action: (201, new state), (422, error) when refused, (409, error)
    when ``expected_seq`` is stale, or the first answer again for a known
    ``client_id``. Raises ``NotFound``.

    The 201 state has the verbs open now but not the list of legal actions
    (``hand_state`` has it): enumerating them costs more than the rest of the
    request. With ``as_json`` the body comes as JSON text."""

    def plan(live: Live) -> _Plan:
        try:
            hand = _check_current(live, n)
        except RuleViolation as err:
            return _Plan(422, _error(err))
        seq = len(hand.actions)
        if expected_seq is not None and expected_seq != seq:
            return _Plan(*_stale(n, seq, expected_seq))
        try:
            action = hand.verify(parse_action(action_text))  # never changes the hand
        except RefereeError as err:
            err.at(hand=n, action=seq + 1, action_text=str(action_text))
            return _refusal(live, n, str(action_text), err, client_id)
        # Applied in place: from here on a failure drops the cached state.
        p = _Plan(201, {}, touched=True)
        hand.apply(action)
        result = _settle(live, hand)
        p.body = body = _state(sid, live.setup, hand, result, legal=False)
        p.body_json = body_json = json.dumps(body)
        text = str(action)
        event: dict = {}

        def job(w: Database) -> None:
            event.update(storage.append_event(w, sid, n, "action",
                                              {"action": text, "text": text}, client_id,
                                              after=live.version))
            _store_hand(w, live, hand, event["id"], result, client_id, body_json)

        def after_commit() -> None:
            live.version, live.state = event["id"], None
            live.action_ids.append(event["id"])

        p.job, p.after_commit = job, after_commit
        return p

    return _write(db, sid, client_id, plan, as_json=as_json)


def undo(db: Database, sid: str, n: int, client_id: str | None = None,
         expected_seq: int | None = None, *, as_json: bool = False) -> tuple[int, Any]:
    """Cancel the hand's last action with a correction event (the original stays
    in the history). Same answers as ``post_action``."""

    def plan(live: Live) -> _Plan:
        try:
            hand = _check_current(live, n)
            if not hand.actions:
                raise RuleViolation("nothing_to_undo", "the hand has no action to undo",
                                    hand=n)
        except RuleViolation as err:
            return _Plan(422, _error(err))
        seq = len(hand.actions)
        if expected_seq is not None and expected_seq != seq:
            return _Plan(*_stale(n, seq, expected_seq))
        cancelled = str(hand.actions[-1])
        cancels = live.action_ids[-1]
        work = _new_hand(live.rules, n, list(hand.players), live.setup)
        for action in hand.actions[:-1]:
            work.apply(action)
        body = _state(sid, live.setup, work, None, legal=False)
        body_json = json.dumps(body)
        event: dict = {}

        def job(w: Database) -> None:
            event.update(storage.append_event(w, sid, n, "correction",
                                              {"cancels": cancels, "action": cancelled},
                                              client_id, after=live.version))
            _store_hand(w, live, work, event["id"], None, client_id, body_json)

        def after_commit() -> None:
            live.table.hands[-1] = work
            live.hand, live.version, live.state = work, event["id"], None
            live.action_ids.pop()

        return _Plan(201, body, body_json, job, after_commit)

    return _write(db, sid, client_id, plan, as_json=as_json)


def start_hand(db: Database, sid: str, setup: dict, client_id: str | None = None) -> dict:
    """Start the session's next hand; returns its state. Raises ``RefereeError``."""
    seen = _reply(db, sid, client_id)
    if seen:
        return seen[1]
    setup = load_hand_setup(setup)

    def plan(live: Live) -> _Plan:
        # Started on the cached table itself: a refusal or a failed commit drops
        # the cache (``_write``), so nothing of it stays visible.
        table = live.table
        hand = _start_on(table, setup)  # raises when the rules refuse it
        del table.hands[:-1]  # only the newest hand is needed to start the next
        body = _state(sid, setup, hand, None, legal=False)
        body_json = json.dumps(body)
        event: dict = {}

        version = (live.n, live.version)

        def job(w: Database) -> None:
            if _current_version(w, sid) != version:
                raise storage.Moved(sid)
            event.update(storage.append_event(w, sid, hand.number, "hand_start", setup,
                                              client_id))
            _insert_hand(w, sid, hand, setup, True, event["id"], None)
            if table.everyone != live.everyone:
                w.conn.execute("UPDATE sessions SET everyone = ? WHERE id = ?",
                               (json.dumps(table.everyone), sid))
            if client_id:
                w.conn.execute("INSERT INTO replies (session_id, client_id, status, body) "
                               "VALUES (?, ?, 201, ?)", (sid, client_id, body_json))

        def after_commit() -> None:
            live.everyone = list(table.everyone)
            live.n, live.version, live.hand, live.setup = hand.number, event["id"], hand, setup
            live.action_ids, live.state = [], None

        return _Plan(201, body, body_json, job, after_commit, touched=True)

    return _write(db, sid, client_id, plan, check=True)[1]


# ---------------------------------------------------------------- reading

def get_log(db: Database, sid: str, *, expanded: bool = False) -> dict:
    """The session's ``tonk-log/1`` document (an import comes back as given).
    ``expanded``: with the rules as stored, every option written out, so that
    reports settle it as it was played whatever presets mean today."""
    row = _session_row(db, sid)
    doc = json.loads(row["header"])
    if expanded:
        doc["rules"] = json.loads(row["rules_expanded"])
    hands = db.conn.execute("SELECT n, setup, actions_key FROM hands WHERE session_id = ? "
                            "ORDER BY n", (sid,)).fetchall()
    events: dict[int, list[dict]] = {}
    for ev_id, hand, kind, payload in db.conn.execute(
            "SELECT id, hand, kind, payload FROM events WHERE session_id = ? AND kind IN "
            "('action', 'correction') ORDER BY seq", (sid,)):
        events.setdefault(hand, []).append({"id": ev_id, "kind": kind,
                                            "payload": json.loads(payload)})
    if hands:
        doc["hands"] = []
    for n, setup, actions_key in hands:
        h = json.loads(setup)
        texts = [ev["payload"]["text"] for ev in storage.live_actions(events.get(n, []))]
        if texts or actions_key:
            h["actions"] = texts
        doc["hands"].append(h)
    return dump_log(doc)


def _results(db: Database, sid: str) -> list[dict]:
    return [json.loads(r[0]) for r in db.conn.execute(
        "SELECT result FROM hands WHERE session_id = ? AND status = 'complete' ORDER BY n",
        (sid,))]


def _session_facts(db: Database, sid: str) -> tuple[dict, HouseRules, Decimal, list[str]]:
    row = _session_row(db, sid)
    # The rules as stored, fully expanded: a later change of a preset never
    # changes an old session.
    rules = resolve(json.loads(row["rules_expanded"]))
    stake = parse_stake(row["stake"])
    return row, rules, _quantum(rules, stake, row["currency"]), json.loads(row["everyone"])


def get_result(db: Database, sid: str) -> dict:
    """``tonk-result/1`` of the session's complete hands, from their stored results."""
    return standings(db, sid)["result"]


def standings(db: Database, sid: str) -> dict:
    """Each complete hand's nets with the running totals after it, and the settle-up."""
    row, rules, q, everyone = _session_facts(db, sid)
    totals = {p: Decimal(0) for p in everyone}
    hands = []
    pots = Pots()
    for r in _results(db, sid):
        if r.get("side_bets"):
            won, r["side_bet_story"] = pots.settle(
                SideBetOutcome.from_json(o) for o in r["side_bets"])
            exact = {p: Decimal(v) + won.get(p, Decimal(0)) for p, v in r["net_exact"].items()}
            r["net_exact"] = {p: str(v) for p, v in exact.items()}
            r["net"] = {p: fmt(v, q) for p, v in exact.items()}
        for p, v in r["net_exact"].items():
            totals[p] = totals.get(p, Decimal(0)) + Decimal(v)
        hands.append({**{k: r[k] for k in RESULT_KEYS},
                      "totals": {p: fmt(v, q) for p, v in totals.items()}})
    push_ups = rules.scoring == "push_ups"
    transfers = [] if push_ups else settle_up(totals, everyone)
    result = {
        "format": "tonk-result/1",
        "hands": [{k: h[k] for k in RESULT_KEYS} for h in hands],
        "totals": {p: fmt(v, q) for p, v in totals.items()},
        "transfers": [{"from": t.payer, "to": t.payee, "amount": fmt(t.amount, q)}
                      for t in transfers],
    }
    return {"players": everyone, "hands": hands, "totals": result["totals"],
            "transfers": result["transfers"], "push_ups": push_ups,
            "currency": row["currency"], "result": result}


def suggest_dealer(db: Database, sid: str) -> str:
    """Who deals next: the rotation's choice, or the first seat before the first hand."""
    with _session_lock(db, sid):
        live = _live(db, sid)
        if live.hand is None:
            return live.players[0]
        seats = live.hand.players
        return live.table.expected_dealer(seats) or seats[0]


def session_summary(db: Database, sid: str) -> dict:
    row = _session_row(db, sid)
    with _session_lock(db, sid):
        live = _live(db, sid)
        hand = live.hand
        current = None
        if hand is not None:
            current = {"hand": live.n, "phase": hand.phase, "to_act": hand.to_act,
                       "complete": hand.is_complete, "seq": len(hand.actions),
                       "dealer": hand.dealer, "players": list(hand.players)}
    return {
        "id": sid,
        "created": row["created"],
        "table": row["table_name"],
        "started": row["started"],
        "currency": row["currency"],
        "stake": row["stake"],
        "rules_source": json.loads(row["rules_source"]),
        "rules": json.loads(row["rules_expanded"]),
        "players": live.players,
        "everyone": list(live.everyone),
        "hands": live.n,
        "current": current,
        "next_dealer": suggest_dealer(db, sid),
        "has_pin": bool(row["pin_hash"]),
    }


def list_sessions(db: Database) -> list[dict]:
    return [
        {"id": r[0], "created": r[1], "table": r[2], "players": json.loads(r[3])}
        for r in db.conn.execute("SELECT id, created, table_name, players FROM sessions "
                                 "ORDER BY created DESC")
    ]


def json_dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)
