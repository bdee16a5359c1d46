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

import copy
import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlite_utils import Database

from . import storage
from .ledger.money import fmt, parse_stake, quantum_for
from .ledger.results import settle_hand
from .ledger.settlement import settle_up
from .log import FORMAT, dump_log, load_hand_setup, load_log
from .replay import replay
from .rules.actions import parse_action
from .rules.cards import parse_card
from .rules.errors import MalformedInput, RefereeError, RuleViolation
from .rules.hand import Hand
from .rules.options import HouseRules, resolve
from .rules.table import Table

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
            return
        key = storage.db_key(db)
        for k in [k for k in _cache if k[0] == key]:
            del _cache[k]


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


def token_role(db: Database, sid: str, token: str | None) -> str | None:
    """``"table"``, ``"audit"`` or None for a bearer token of session ``sid``."""
    row = _session_row(db, sid)
    if not token:
        return None
    h = _token_hash(token)
    if hmac.compare_digest(h, row["table_token_hash"]):
        return "table"
    if hmac.compare_digest(h, row["audit_token_hash"]):
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
    return quantum_for(stake, currency)


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
                result = _hand_result(hand, stake, quantum, given.get("stake_multiplier", 1))
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


def _hand_result(hand: Hand, stake: Decimal, quantum: Decimal, multiplier: int) -> dict:
    """A complete hand's result: the tonk-result/1 entry, the payments in words, and
    the exact nets (totals are summed before rounding, as the replay does)."""
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
    return out


# ---------------------------------------------------------------- live state

def _new_hand(rules: HouseRules, n: int, seats: list[str], setup: dict) -> Hand:
    """A stored hand rebuilt without its table (its seating was checked when it started)."""
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    return Hand(rules, seats, setup["dealer"], deal=deal, upcard=upcard, number=n)


def _start_on(table: Table, setup: dict) -> Hand:
    number = table.started + 1
    try:
        deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
        upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    except MalformedInput as err:
        raise err.at(hand=number) from None
    return table.start_hand(setup["dealer"], players=setup.get("players"), deal=deal,
                            upcard=upcard)


def _build(db: Database, sid: str) -> Live:
    row = _session_row(db, sid)
    rules = resolve(json.loads(row["rules_source"]))
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


def _live(db: Database, sid: str) -> Live:
    """The session's cached state, rebuilt if another process has moved it on.
    Call with the session's lock held."""
    key = (storage.db_key(db), sid)
    live = _cache.get(key)
    if live is not None and (live.n, live.version) == _current_version(db, sid):
        _cache.move_to_end(key)
        return live
    live = _build(db, sid)
    with _guard:
        _cache[key] = live
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return live


def _copy_hand(hand: Hand) -> Hand:
    # The rules and deck are shared, immutable: do not copy them.
    return copy.deepcopy(hand, {id(hand.rules): hand.rules, id(hand.deck): hand.deck})


def _state(sid: str, setup: dict, hand: Hand, result: dict | None) -> dict:
    state = hand.snapshot()
    state["session"] = sid
    state["seq"] = len(hand.actions)
    state["stake_multiplier"] = setup.get("stake_multiplier", 1)
    state["verbs"] = hand.verbs()
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


def _reply(db: Database, sid: str, client_id: str | None) -> tuple[int, dict] | None:
    if not client_id:
        return None
    row = db.conn.execute("SELECT status, body FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return (row[0], json.loads(row[1])) if row else None


def _error(err: RefereeError) -> dict:
    return {"error": err.to_dict()}


def _check_current(live: Live, n: int) -> Hand:
    if n < 1 or n > live.n or live.hand is None:
        raise NotFound("no_hand", f"session {live.sid} has no hand {n}", hand=n)
    if n < live.n:
        raise RuleViolation("hand_over", f"this hand is over: hand {live.n} has started",
                            hand=n)
    return live.hand


def _commit_hand(db: Database, live: Live, hand: Hand, event_id: int,
                 client_id: str | None) -> tuple[dict, dict | None]:
    """Store the hand's new derived row (and the reply) inside the transaction."""
    result = None
    if hand.is_complete:
        result = _hand_result(hand, live.stake, live.quantum,
                              live.setup.get("stake_multiplier", 1))
    db.conn.execute(
        "UPDATE hands SET seq = ?, last_event = ?, status = ?, result = ? "
        "WHERE session_id = ? AND n = ?",
        (len(hand.actions), event_id, "complete" if result else "open",
         json.dumps(result) if result else None, live.sid, hand.number))
    body = _state(live.sid, live.setup, hand, result)
    if client_id:
        db.conn.execute("INSERT INTO replies (session_id, client_id, status, body) "
                        "VALUES (?, ?, 201, ?)", (live.sid, client_id, json.dumps(body)))
    return body, result


def _stale(n: int, seq: int, expected_seq: int) -> tuple[int, dict, None]:
    return 409, _error(StaleSeq(
        "stale_seq", f"the hand has {seq} actions, not {expected_seq}: another "
        "action was logged since you looked; look again", hand=n)), None


def _write(db: Database, sid: str, client_id: str | None, job) -> tuple[int, dict]:
    """Run a write job under the session's lock; the cache moves on only after
    the commit (the job returns the change to make)."""
    seen = _reply(db, sid, client_id)
    if seen:
        return seen
    with _session_lock(db, sid):
        status, body, after_commit = storage.run_write(db, job)
        if after_commit is not None:
            after_commit()
    return status, body


def post_action(db: Database, sid: str, n: int, action_text: str, client_id: str | None,
                expected_seq: int | None) -> tuple[int, dict]:
    """Log one action: (201, new state), (422, error) when refused, (409, error)
    when ``expected_seq`` is stale, or the first answer again for a known
    ``client_id``. Raises ``NotFound``."""

    def job(w: Database):
        seen = _reply(w, sid, client_id)
        if seen:
            return (*seen, None)
        live = _live(w, sid)
        try:
            hand = _check_current(live, n)
        except RuleViolation as err:
            return 422, _error(err), None
        seq = len(hand.actions)
        if expected_seq is not None and expected_seq != seq:
            return _stale(n, seq, expected_seq)
        try:
            action = parse_action(action_text)
            work = _copy_hand(hand)
            work.apply(action)
        except RefereeError as err:
            err.at(hand=n, action=seq + 1, action_text=str(action_text))
            return 422, _error(err), None
        ev = storage.append_event(w, sid, n, "action",
                                  {"action": str(action), "text": str(action)}, client_id)
        body, _ = _commit_hand(w, live, work, ev["id"], client_id)

        def after_commit() -> None:
            live.table.hands[-1] = work
            live.hand, live.version, live.state = work, ev["id"], body
            live.action_ids.append(ev["id"])
        return 201, body, after_commit

    return _write(db, sid, client_id, job)


def undo(db: Database, sid: str, n: int, client_id: str | None = None,
         expected_seq: int | None = None) -> tuple[int, dict]:
    """Cancel the hand's last action with a correction event (the original stays
    in the history). Same answers as ``post_action``."""

    def job(w: Database):
        seen = _reply(w, sid, client_id)
        if seen:
            return (*seen, None)
        live = _live(w, sid)
        try:
            hand = _check_current(live, n)
            if not hand.actions:
                raise RuleViolation("nothing_to_undo", "the hand has no action to undo",
                                    hand=n)
        except RuleViolation as err:
            return 422, _error(err), None
        seq = len(hand.actions)
        if expected_seq is not None and expected_seq != seq:
            return _stale(n, seq, expected_seq)
        cancelled = str(hand.actions[-1])
        work = _new_hand(live.rules, n, list(hand.players), live.setup)
        for action in hand.actions[:-1]:
            work.apply(action)
        ev = storage.append_event(w, sid, n, "correction",
                                  {"cancels": live.action_ids[-1], "action": cancelled},
                                  client_id)
        body, _ = _commit_hand(w, live, work, ev["id"], client_id)

        def after_commit() -> None:
            live.table.hands[-1] = work
            live.hand, live.version, live.state = work, ev["id"], body
            live.action_ids.pop()
        return 201, body, after_commit

    return _write(db, sid, client_id, job)


def start_hand(db: Database, sid: str, setup: dict, client_id: str | None = None) -> dict:
    """Start the session's next hand; returns its state. Raises ``RefereeError``."""
    seen = _reply(db, sid, client_id)
    if seen:
        return seen[1]
    setup = load_hand_setup(setup)

    def job(w: Database):
        seen = _reply(w, sid, client_id)
        if seen:
            return (*seen, None)
        live = _live(w, sid)
        table = copy.deepcopy(live.table, {id(live.rules): live.rules})
        hand = _start_on(table, setup)
        del table.hands[:-1]  # only the newest hand is needed to start the next
        ev = storage.append_event(w, sid, hand.number, "hand_start", setup, client_id)
        _insert_hand(w, sid, hand, setup, True, ev["id"], None)
        if table.everyone != live.everyone:
            w.conn.execute("UPDATE sessions SET everyone = ? WHERE id = ?",
                           (json.dumps(table.everyone), sid))
        new = Live(sid, live.rules, live.stake, live.quantum, live.players,
                   list(table.everyone), table, hand.number, ev["id"], hand, setup, [])
        body = _state(sid, setup, hand, None)
        if client_id:
            w.conn.execute("INSERT INTO replies (session_id, client_id, status, body) "
                           "VALUES (?, ?, 201, ?)", (sid, client_id, json.dumps(body)))

        def after_commit() -> None:
            new.state = body
            with _guard:
                _cache[(storage.db_key(w), sid)] = new
        return 201, body, after_commit

    return _write(db, sid, client_id, job)[1]


# ---------------------------------------------------------------- reading

def get_log(db: Database, sid: str) -> dict:
    """The session's ``tonk-log/1`` document (an import comes back as given)."""
    row = _session_row(db, sid)
    doc = json.loads(row["header"])
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
    rules = resolve(json.loads(row["rules_source"]))
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
    for r in _results(db, sid):
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
