"""The service's rows: sessions, hands and their seats and running totals,
the stored answers to client ids, the wrong tries at a secret, the club's
people. JSON columns go in and come out as data; the service never sees SQL
or JSON text."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast, overload

import orjson

from .handle import Database
from .pg import is_pg


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_seconds() -> str:
    """A time for the log (``started``, ``closed``, a payment's ``at``): UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _insert_rows(db: Database, table: str, columns: tuple[str, ...], rows: list[tuple],
                 shared: dict[str, Any]) -> None:
    """A new session's many rows of ``table`` at once (an import): ``rows``
    give ``columns``, ``shared`` what every row holds alike. SQLite takes
    one ``executemany``, with the shared values written once in the
    statement (binding them for each of 143,000 events was a sixth of their
    insert); PostgreSQL one COPY (its ``executemany`` sends a statement a row:
    4 s for those events)."""
    if is_pg(db):
        alike = tuple(shared.values())
        db.conn.copy_rows(table, (*columns, *shared), (row + alike for row in rows))
        return
    values = ", ".join(["?"] * len(columns) + [_literal(v) for v in shared.values()])
    db.conn.executemany(
        f"INSERT INTO {table} ({', '.join((*columns, *shared))}) VALUES ({values})", rows)


def _literal(value: str | int | None) -> str:
    """``value`` as an SQL literal (both databases quote alike)."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    return "'" + value.replace("'", "''") + "'"


def session_ids(db: Database) -> list[str]:
    return [r[0] for r in db.conn.execute("SELECT id FROM sessions ORDER BY created, id")]



class NamedRow(tuple):
    """A row read by position or by column name, as ``sqlite3.Row`` is (on
    PostgreSQL, whose rows come as plain tuples)."""

    __slots__ = ()
    names: dict[str, int] = {}

    def __getitem__(self, key):
        return tuple.__getitem__(self, self.names[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self.names)


def _named_rows(db: Database, sql: str, params: tuple) -> list:
    """A statement's rows, each read by position or column name: SQLite's own
    ``sqlite3.Row`` (made in C: verify reads 140,000 at a time), else
    ``NamedRow``."""
    if is_pg(db):
        cur = db.conn.execute(sql, params)
        names = {d[0]: i for i, d in enumerate(cur.description)}
        row = type("Row", (NamedRow,), {"__slots__": (), "names": names})
        return [row(values) for values in cur.fetchall()]
    cur = db.conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


def all_hand_rows(db: Database, sid: str) -> list[dict]:
    """Every hand's row, its JSON columns read."""
    cur = db.conn.execute("SELECT * FROM hands WHERE session_id = ? ORDER BY n", (sid,))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def hand_rows_as_stored(db: Database, sid: str) -> list:
    """Every hand's row, its JSON columns as the text stored (verify compares
    most of them as text, and decodes only what differs), each read by column
    name (``_named_rows``)."""
    return _named_rows(db, "SELECT n, setup, actions_key, seats, dealer, status, seq, "
                       "last_event, result, running FROM hands WHERE session_id = ? ORDER BY n",
                       (sid,))


def session_replies(db: Database, sid: str) -> list[tuple[str, bool, str]]:
    """Every stored first answer of the session: (client id, refused, body text)."""
    return [(r[0], bool(r[1]), r[2]) for r in db.conn.execute(
        "SELECT client_id, refused, body FROM replies WHERE session_id = ? ORDER BY client_id",
        (sid,))]


def seat_rows(db: Database, sid: str) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = {}
    for hand, name in db.conn.execute("SELECT hand, name FROM seats WHERE session_id = ? "
                                      "ORDER BY hand, position", (sid,)):
        seats.setdefault(hand, []).append(name)
    return seats


def to_json(data: Any) -> str:
    """A row's JSON column, as every JSON column is written (also made by
    callers outside the write, so that the writer thread only inserts).
    orjson: a 10,000-hand import encodes 40,000 columns (its results, running
    rows, seats and setups), which took ``json.dumps`` 0.5-0.7 s and orjson
    a tenth of that; verify compares the stored text with this again. What
    orjson refuses (an integer past 64 bits, a lone surrogate) is written
    by ``json.dumps``, which reads back the same."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data)


def _row(cur: Any) -> dict | None:
    values = cur.fetchone()
    if values is None:
        return None
    return dict(zip([d[0] for d in cur.description], values, strict=True))


_SESSION_JSON = ("header", "rules_source", "rules_expanded", "players", "everyone")


def _an_id(text: str) -> bool:
    """Text that may be a stored id: a URL's may hold a NUL, which no id has
    (PostgreSQL refuses it outright, where the session is simply not found)."""
    return "\x00" not in text


def session_row(db: Database, sid: str) -> dict | None:
    """The session's row, its JSON columns read."""
    if not _an_id(sid):
        return None
    row = _row(db.conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,)))
    if row is not None:
        for key in _SESSION_JSON:
            row[key] = json.loads(row[key])
        row["next_seats"] = json.loads(row["next_seats"]) if row["next_seats"] else None
    return row


def set_header(db: Database, sid: str, header: dict) -> None:
    """The session's header after a table event (closed, payments, ...)."""
    db.conn.execute("UPDATE sessions SET header = ? WHERE id = ?", (to_json(header), sid))


def set_quantum(db: Database, sid: str, quantum: str) -> None:
    db.conn.execute("UPDATE sessions SET quantum = ? WHERE id = ?", (quantum, sid))


def set_next(db: Database, sid: str, *, stake: str | None, seats: list[str] | None) -> None:
    """What the next hand takes from the table's events: its stake (None: the
    session's) and its seats (None: the last hand's)."""
    db.conn.execute("UPDATE sessions SET next_stake = ?, next_seats = ? WHERE id = ?",
                    (stake, to_json(seats) if seats is not None else None, sid))


def set_hand(db: Database, sid: str, n: int, setup: dict, last_event: int,
             result: dict | None = None, *, void: bool = False) -> None:
    """A hand's setup after an event about it (void, accepted, disputes); a
    void hand gets its void result."""
    if void:
        db.conn.execute("UPDATE hands SET setup = ?, last_event = ?, status = 'void', "
                        "result = ? WHERE session_id = ? AND n = ?",
                        (to_json(setup), last_event, to_json(result), sid, n))
    else:
        newer = "GREATEST" if is_pg(db) else "MAX"
        db.conn.execute(f"UPDATE hands SET setup = ?, last_event = {newer}(last_event, ?) "
                        "WHERE session_id = ? AND n = ?", (to_json(setup), last_event, sid, n))


def session_token_hashes(db: Database, sid: str) -> tuple[str, str] | None:
    if not _an_id(sid):
        return None
    row = db.conn.execute("SELECT table_token_hash, audit_token_hash FROM sessions "
                          "WHERE id = ?", (sid,)).fetchone()
    return (row[0], row[1]) if row else None


def insert_session(db: Database, sid: str, log: dict, header: dict, rules_expanded: dict,
                   everyone: list[str], pin_hash: str | None, table_token_hash: str,
                   audit_token_hash: str) -> None:
    db.conn.execute(
        "INSERT INTO sessions (id, created, table_name, started, currency, stake, header, "
        "rules_source, rules_expanded, players, everyone, pin_hash, table_token_hash, "
        "audit_token_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (sid, now(), log.get("table"), log.get("started"), log.get("currency"),
         str(log["stake"]), to_json(header), to_json(log["rules"]),
         to_json(rules_expanded), to_json(log["players"]), to_json(everyone),
         pin_hash, table_token_hash, audit_token_hash),
    )
    db.conn.executemany(
        "INSERT INTO seats (session_id, hand, position, name) VALUES (?, 0, ?, ?)",
        [(sid, i, name) for i, name in enumerate(log["players"])])


def set_everyone(db: Database, sid: str, everyone: list[str]) -> None:
    db.conn.execute("UPDATE sessions SET everyone = ? WHERE id = ?",
                    (to_json(everyone), sid))


def list_sessions(db: Database, ids: list[str]) -> list[dict]:
    """The sessions named by ``ids`` that exist, as ``ids`` orders them (each
    found by its key: the cost is theirs, not the database's)."""
    if not ids:
        return []
    found = {r[0]: {"id": r[0], "created": r[1], "table": r[2], "players": json.loads(r[3])}
             for r in db.conn.execute(
                 "SELECT id, created, table_name, players FROM sessions WHERE id IN "
                 f"({', '.join('?' * len(ids))})", ids)}
    return [found[i] for i in ids if i in found]


def insert_hand(db: Database, sid: str, n: int, setup: dict, actions_key: bool,
                seats: list[str], dealer: str, seq: int, last_event: int,
                result: dict | None) -> None:
    db.conn.execute(
        "INSERT INTO hands (session_id, n, setup, actions_key, seats, dealer, status, seq, "
        "last_event, result) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (sid, n, to_json(setup), int(actions_key), to_json(seats), dealer,
         _status(result), seq, last_event,
         to_json(result) if result else None),
    )
    db.conn.executemany(
        "INSERT INTO seats (session_id, hand, position, name) VALUES (?, ?, ?, ?)",
        [(sid, n, i, name) for i, name in enumerate(seats)])


def encode_hands(hands: list[tuple]) -> list[tuple]:
    """Many hands' rows (an import), encoded as ``insert_hands`` writes them:
    each ``insert_hand``'s arguments after ``sid``, with ``last_event``
    counted from the session's first event, and the hand's running row, as a
    tuple. Encoding needs no database: a long import's second process does
    it while this one writes the events."""
    return [(n, to_json(setup), int(actions_key), to_json(seats), dealer, _status(result), seq,
             last_event, to_json(result) if result else None,
             to_json(running) if running is not None else None, tuple(seats))
            for n, setup, actions_key, seats, dealer, seq, last_event, result, running in hands]


def insert_hands(db: Database, sid: str, rows: list[tuple], first_event: int) -> None:
    """The ``encode_hands`` rows of a new session whose first event has the id
    ``first_event``, its hands' seats, and its count of settled hands."""
    _insert_rows(db, "hands", ("n", "setup", "actions_key", "seats", "dealer", "status", "seq",
                               "last_event", "result", "running"),
                 [(n, setup, actions_key, seats, dealer, status, seq, first_event + last_event,
                   result, running)
                  for n, setup, actions_key, seats, dealer, status, seq, last_event, result,
                  running, _ in rows],
                 shared={"session_id": sid})
    _insert_rows(db, "seats", ("hand", "position", "name"),
                 [(row[0], i, name) for row in rows for i, name in enumerate(row[10])],
                 shared={"session_id": sid})
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (sum(row[9] is not None for row in rows), sid))


def running_before(db: Database, sid: str, n: int) -> dict | None:
    """The running row of the newest settled hand before hand ``n``."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND n < ? AND "
                          "running IS NOT NULL ORDER BY n DESC LIMIT 1", (sid, n)).fetchone()
    return json.loads(row[0]) if row else None


def results_from(db: Database, sid: str, n: int) -> list[tuple[int, dict | None]]:
    """Each hand's stored result from hand ``n`` on (None: not settled)."""
    return [(k, json.loads(r) if r else None) for k, r in db.conn.execute(
        "SELECT n, result FROM hands WHERE session_id = ? AND n >= ? ORDER BY n", (sid, n))]


def set_running(db: Database, sid: str, rows: list[tuple[int, dict | None]]) -> None:
    """The running rows of hands ``n`` (None: not settled), and the session's
    count of settled hands moved by as many as became or stopped being settled."""
    if not rows:
        return
    was = db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND n >= ? AND "
                          "running IS NOT NULL", (sid, min(n for n, _ in rows))).fetchone()[0]
    db.conn.executemany("UPDATE hands SET running = ? WHERE session_id = ? AND n = ?",
                        [(to_json(r) if r is not None else None, sid, n) for n, r in rows])
    now_settled = sum(r is not None for _, r in rows)
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (now_settled - was, sid))


def refresh_running(db: Database, sid: str, n: int) -> None:
    """Write the running rows again from hand ``n`` on (inside the write that
    changed hand ``n``'s result)."""
    from ..money import totals

    set_running(db, sid, totals.chain(running_before(db, sid, n), results_from(db, sid, n)))


def settled_count(db: Database, sid: str) -> int:
    row = db.conn.execute("SELECT settled FROM sessions WHERE id = ?", (sid,)).fetchone()
    return row[0] if row else 0


def counted_settled(db: Database, sid: str) -> int:
    """The settled hands counted again (verify holds ``settled_count`` to it)."""
    return db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND "
                           "running IS NOT NULL", (sid,)).fetchone()[0]


def running_rows(db: Database, sid: str, *, offset: int = 0,
                 limit: int = -1) -> list[tuple[int, dict]]:
    """The settled hands' running rows in order of hands, ``limit`` of them
    (-1: all) after the first ``offset``."""
    settled = settled_count(db, sid)
    end = settled if limit < 0 else min(settled, offset + limit)
    if end <= offset:
        return []
    # Counted from the newest end of the settled hands' index: the pages read
    # most are the newest, which this reaches without stepping over the rest.
    rows = db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND running IS NOT NULL "
        "ORDER BY n DESC LIMIT ? OFFSET ?", (sid, end - offset, settled - end)).fetchall()
    return [(n, json.loads(r)) for n, r in reversed(rows)]


def running_between(db: Database, sid: str, first: int, last: int) -> list[tuple[int, dict]]:
    """The running rows of the settled hands numbered ``first`` to ``last``."""
    return [(n, json.loads(r)) for n, r in db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND n BETWEEN ? AND ? AND "
        "running IS NOT NULL ORDER BY n", (sid, first, last))]


def newest_running(db: Database, sid: str) -> dict | None:
    """The running row of the session's newest settled hand: its totals."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND running IS NOT "
                          "NULL ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return json.loads(row[0]) if row else None


def _status(result: dict | None) -> str:
    if not result:
        return "open"
    return "void" if result.get("outcome") == "void" else "complete"


def update_hand(db: Database, sid: str, n: int, seq: int, last_event: int,
                result_json: str | None) -> None:
    """A hand's derived row after an action or a correction (``result_json``:
    its result when complete)."""
    db.conn.execute(
        "UPDATE hands SET seq = ?, last_event = ?, status = ?, result = ? "
        "WHERE session_id = ? AND n = ?",
        (seq, last_event, "complete" if result_json else "open", result_json, sid, n))


def touch_hand(db: Database, sid: str, n: int, last_event: int) -> None:
    """The hand's newest event moved on without changing it (a refusal)."""
    db.conn.execute("UPDATE hands SET last_event = ? WHERE session_id = ? AND n = ?",
                    (last_event, sid, n))


@overload
def _hand(row: dict) -> dict: ...


@overload
def _hand(row: None) -> None: ...


def _hand(row: dict | None) -> dict | None:
    if row is None:
        return None
    for key in ("setup", "seats", "result", "running"):
        if row.get(key) is not None:
            row[key] = json.loads(row[key])
    return row


def _fits(n: int) -> bool:
    """A number the database can hold (SQLite's INTEGER, PostgreSQL's BIGINT):
    a hand number from a URL may be any size, and none beyond this is stored."""
    return -(2**63) <= n < 2**63


def hand_row(db: Database, sid: str, n: int) -> dict | None:
    """Hand ``n``'s row, its JSON columns read."""
    if not _fits(n):
        return None
    return _hand(_row(db.conn.execute("SELECT * FROM hands WHERE session_id = ? AND n = ?",
                                      (sid, n))))


def newest_hands(db: Database, sid: str, count: int) -> list[dict]:
    """The session's ``count`` newest hands, newest first (seating and setup)."""
    cur = db.conn.execute("SELECT n, setup, seats, dealer, last_event FROM hands "
                          "WHERE session_id = ? ORDER BY n DESC LIMIT ?", (sid, count))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def current_version(db: Database, sid: str) -> tuple[int, int]:
    """(newest hand, id of its newest event): what the live cache is checked against."""
    row = db.conn.execute("SELECT n, last_event FROM hands WHERE session_id = ? "
                          "ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return (row[0], row[1]) if row else (0, 0)


def hand_setups(db: Database, sid: str) -> list[tuple[int, dict, bool]]:
    """Each hand's (number, setup as given, whether it had an ``actions`` key)."""
    return [(n, json.loads(setup), bool(actions_key)) for n, setup, actions_key in
            db.conn.execute("SELECT n, setup, actions_key FROM hands WHERE session_id = ? "
                            "ORDER BY n", (sid,))]


def disputed_hands(db: Database, sid: str) -> list[tuple[int, list[dict]]]:
    """Each hand of the session that carries a dispute, with its disputes, in
    order of hands."""
    return [(n, json.loads(setup).get("disputes", [])) for n, setup in db.conn.execute(
        "SELECT n, setup FROM hands WHERE session_id = ? AND setup LIKE ? ORDER BY n",
        (sid, '%"disputes"%'))]


def void_count(db: Database, sid: str) -> int:
    """How many of the session's hands are void (settled, yet never played)."""
    return db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND status = 'void'",
                           (sid,)).fetchone()[0]


def disputes_between(db: Database, sid: str, first: int, last: int) -> dict[int, int]:
    """How many disputes each hand numbered ``first`` to ``last`` carries (the
    hands without one left out): a page of hands, read by its key's range."""
    first, last = max(first, -(2**63)), min(last, 2**63 - 1)
    return {n: len(json.loads(setup).get("disputes", ())) for n, setup in db.conn.execute(
        "SELECT n, setup FROM hands WHERE session_id = ? AND n BETWEEN ? AND ? "
        "AND setup LIKE ?", (sid, first, last, '%"disputes"%'))}


def rewrite_names(db: Database, sid: str, old: str, new: str,
                  rewrite: Callable[[Any], Any], rewrite_result: Callable[[dict], dict]) -> None:
    """Write a corrected name (``old`` now ``new``) into the session's derived
    rows: ``rewrite(data)`` gives the header's, the seats' and every hand's
    setup with the new name, ``rewrite_result(result)`` a hand's result (the
    service says what a name is: ``table_events.renamed``); the events keep
    the old one."""
    row = db.conn.execute("SELECT header, players, everyone, next_seats FROM sessions "
                          "WHERE id = ?", (sid,)).fetchone()
    values = [to_json(rewrite(json.loads(v))) if v else v for v in row]
    db.conn.execute("UPDATE sessions SET header = ?, players = ?, everyone = ?, "
                    "next_seats = ? WHERE id = ?", (*values, sid))
    for n, setup, seats, dealer, result in db.conn.execute(
            "SELECT n, setup, seats, dealer, result FROM hands WHERE session_id = ?",
            (sid,)).fetchall():
        r = json.loads(result) if result else None
        db.conn.execute(
            "UPDATE hands SET setup = ?, seats = ?, dealer = ?, result = ? "
            "WHERE session_id = ? AND n = ?",
            (to_json(rewrite(json.loads(setup))), to_json(rewrite(json.loads(seats))),
             new if dealer == old else dealer,
             to_json(rewrite_result(r)) if r is not None else None, sid, n))
    db.conn.execute("UPDATE seats SET name = ? WHERE session_id = ? AND name = ?",
                    (new, sid, old))


def complete_results(db: Database, sid: str) -> list[dict]:
    """The stored results of the session's complete and void hands, in order."""
    return [json.loads(r[0]) for r in db.conn.execute(
        "SELECT result FROM hands WHERE session_id = ? AND status IN ('complete', 'void') "
        "ORDER BY n",
        (sid,))]


def claim_attempt(db: Database, sid: str, kind: str, now: float,
                  wait_after: Callable[[int], float]) -> float:
    """Count one try at a session's secret before it is checked (so parallel
    tries from many processes are all counted); 0 if it may go ahead, else the
    time (epoch seconds) until which the session refuses tries.
    ``wait_after(failures)``: the wait that many tries earn."""
    row = db.conn.execute("SELECT failures, locked_until FROM attempts WHERE session_id = ? "
                          "AND kind = ?", (sid, kind)).fetchone()
    failures, until = row if row else (0, 0.0)
    if until > now:
        return until
    failures += 1
    db.conn.execute(
        "INSERT INTO attempts (session_id, kind, failures, last, locked_until) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, kind) DO UPDATE SET "
        "failures = excluded.failures, last = excluded.last, "
        "locked_until = excluded.locked_until",
        (sid, kind, failures, now, now + wait_after(failures)))
    return 0.0


def claim_in_window(db: Database, sid: str, kind: str, now: float, most: int,
                    window: float) -> float:
    """Count one use of something allowed ``most`` times a ``window`` of
    seconds (the window starting at its first use), before it is done; 0 if it
    may go ahead, else the time (epoch seconds) the window ends. Kept in the
    ``attempts`` row as ``failures`` (uses), ``last`` (the window's start) and
    ``locked_until`` (its end)."""
    row = db.conn.execute("SELECT failures, last FROM attempts WHERE session_id = ? "
                          "AND kind = ?", (sid, kind)).fetchone()
    used, since = row if row and row[1] > now - window else (0, now)
    if used >= most:
        return since + window
    db.conn.execute(
        "INSERT INTO attempts (session_id, kind, failures, last, locked_until) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, kind) DO UPDATE SET "
        "failures = excluded.failures, last = excluded.last, "
        "locked_until = excluded.locked_until",
        (sid, kind, used + 1, since, since + window))
    return 0.0


def clear_attempts(db: Database, sid: str, kind: str) -> None:
    db.conn.execute("DELETE FROM attempts WHERE session_id = ? AND kind = ?", (sid, kind))


def reply(db: Database, sid: str, client_id: str) -> tuple[bool, dict] | None:
    """The first answer to ``client_id``: (refused, body)."""
    row = db.conn.execute("SELECT refused, body FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return None if row is None else (bool(row[0]), json.loads(row[1]))


def reply_request(db: Database, sid: str, client_id: str) -> str | None:
    """What the first request with ``client_id`` was (``note_request``), if known."""
    row = db.conn.execute("SELECT request FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return None if row is None else row[0]


def note_request(db: Database, sid: str, client_id: str, request: str) -> None:
    """Keep what the request answered under ``client_id`` was, beside its answer."""
    db.conn.execute("UPDATE replies SET request = ? WHERE session_id = ? AND client_id = ?",
                    (request, sid, client_id))


def store_reply(db: Database, sid: str, client_id: str, refused: bool, body_json: str) -> None:
    """Keep the first answer to ``client_id``; a second one breaks the key
    (one of ``INTEGRITY_ERRORS``), which is how a racing retry is noticed."""
    db.conn.execute("INSERT INTO replies (session_id, client_id, refused, body) "
                    "VALUES (?, ?, ?, ?)", (sid, client_id, int(refused), body_json))



# ---------------------------------------------------------------- the club

def aliases(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT spelling, person FROM aliases ORDER BY spelling"))


def nicknames(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT person, nickname FROM nicknames ORDER BY person"))


def set_people(db: Database, spellings: dict[str, str], nicks: dict[str, str]) -> None:
    """Write the people rows as the club's events now say (a handful of rows:
    rewritten whole after each event)."""
    db.conn.execute("DELETE FROM aliases")
    db.conn.execute("DELETE FROM nicknames")
    db.conn.executemany("INSERT INTO aliases (spelling, person) VALUES (?, ?)",
                        sorted(spellings.items()))
    db.conn.executemany("INSERT INTO nicknames (person, nickname) VALUES (?, ?)",
                        sorted(nicks.items()))


def set_brought_forward_from(db: Database, sid: str, earlier: str) -> None:
    db.conn.execute("UPDATE sessions SET brought_forward_from = ? WHERE id = ?",
                    (earlier, sid))


def club_session_rows(db: Database) -> list[dict]:
    """Every session's row (JSON read), oldest first."""
    # Each id is a session's, so each row is there.
    return cast(list[dict], [session_row(db, sid) for sid in session_ids(db)])


def accepted_between(db: Database, sid: str, first: int, last: int) -> dict[int, list[str]]:
    """Who has accepted each of hands ``first`` to ``last`` (their setups say,
    under the names the players have now), for the table page's list."""
    first, last = max(first, -(2**63)), min(last, 2**63 - 1)
    out = {}
    for n, setup in db.conn.execute(
            "SELECT n, setup FROM hands WHERE session_id = ? AND n BETWEEN ? AND ?",
            (sid, first, last)).fetchall():
        accepted = json.loads(setup).get("accepted")
        if accepted:
            out[n] = accepted
    return out
