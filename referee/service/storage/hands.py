"""A hand's derived row (its setup, seats, live count and stored result)
and the seats of each hand: inserted one at a time or a new session's all at
once, updated after each action, event or correction, read back (its JSON
columns read) one, a page or all at a time."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, overload

from .columns import fits, insert_rows, named, one_row, to_json
from .handle import Database
from .pg import is_pg


def row(db: Database, sid: str, n: int) -> dict | None:
    """Hand ``n``'s row, its JSON columns read."""
    if not fits(n):
        return None
    return _hand(one_row(db.conn.execute("SELECT * FROM hands WHERE session_id = ? AND n = ?",
                                      (sid, n))))


def all_rows(db: Database, sid: str) -> list[dict]:
    """Every hand's row, its JSON columns read."""
    cur = db.conn.execute("SELECT * FROM hands WHERE session_id = ? ORDER BY n", (sid,))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def rows_as_stored(db: Database, sid: str) -> list:
    """Every hand's row, its JSON columns as the text stored (verify compares
    most of them as text, and decodes only what differs), each read by column
    name (``named``)."""
    return named(db, "SELECT n, setup, actions_key, seats, dealer, status, seq, "
                       "last_event, result, running FROM hands WHERE session_id = ? ORDER BY n",
                       (sid,))


def in_play(db: Database, sid: str) -> int | None:
    """The number of the session's hand still in play (its newest, neither
    settled nor void), else None."""
    row = db.conn.execute("SELECT n, status FROM hands WHERE session_id = ? ORDER BY n DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row is not None and row[1] == "open" else None


def newest(db: Database, sid: str, count: int) -> list[dict]:
    """The session's ``count`` newest hands, newest first (seating and setup)."""
    cur = db.conn.execute("SELECT n, setup, seats, dealer, last_event FROM hands "
                          "WHERE session_id = ? ORDER BY n DESC LIMIT ?", (sid, count))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def _status(result: Mapping[str, Any] | None) -> str:
    if not result:
        return "open"
    return "void" if result.get("outcome") == "void" else "complete"


def insert(db: Database, sid: str, n: int, setup: dict, actions_key: bool,
           seats: list[str], dealer: str, seq: int, last_event: int,
           result: Mapping[str, Any] | None) -> None:
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


def encode(hands: list[tuple]) -> list[tuple]:
    """Many hands' rows (an import), encoded as ``insert_many`` writes them:
    each ``insert``'s arguments after ``sid``, with ``last_event``
    counted from the session's first event, and the hand's running row, as a
    tuple. Encoding needs no database: a long import's second process does
    it while this one writes the events."""
    return [(n, to_json(setup), int(actions_key), to_json(seats), dealer, _status(result), seq,
             last_event, to_json(result) if result else None,
             to_json(running) if running is not None else None, tuple(seats))
            for n, setup, actions_key, seats, dealer, seq, last_event, result, running in hands]


def insert_many(db: Database, sid: str, rows: list[tuple], first_event: int) -> None:
    """The ``encode`` rows of a new session whose first event has the id
    ``first_event``, its hands' seats, and its count of settled hands."""
    insert_rows(db, "hands", ("n", "setup", "actions_key", "seats", "dealer", "status", "seq",
                               "last_event", "result", "running"),
                 [(n, setup, actions_key, seats, dealer, status, seq, first_event + last_event,
                   result, running)
                  for n, setup, actions_key, seats, dealer, status, seq, last_event, result,
                  running, _ in rows],
                 shared={"session_id": sid})
    insert_rows(db, "seats", ("hand", "position", "name"),
                 [(row[0], i, name) for row in rows for i, name in enumerate(row[10])],
                 shared={"session_id": sid})
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (sum(row[9] is not None for row in rows), sid))


def update(db: Database, sid: str, n: int, seq: int, last_event: int,
           result_json: str | None) -> None:
    """A hand's derived row after an action or a correction (``result_json``:
    its result when complete)."""
    db.conn.execute(
        "UPDATE hands SET seq = ?, last_event = ?, status = ?, result = ? "
        "WHERE session_id = ? AND n = ?",
        (seq, last_event, "complete" if result_json else "open", result_json, sid, n))


def touch(db: Database, sid: str, n: int, last_event: int) -> None:
    """The hand's newest event moved on without changing it (a refusal)."""
    db.conn.execute("UPDATE hands SET last_event = ? WHERE session_id = ? AND n = ?",
                    (last_event, sid, n))


def set_setup(db: Database, sid: str, n: int, setup: dict, last_event: int,
              result: Mapping[str, Any] | None = None, *, void: bool = False) -> None:
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


def current_version(db: Database, sid: str) -> tuple[int, int]:
    """(newest hand, id of its newest event): what the live cache is checked against."""
    row = db.conn.execute("SELECT n, last_event FROM hands WHERE session_id = ? "
                          "ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return (row[0], row[1]) if row else (0, 0)


def setups(db: Database, sid: str) -> list[tuple[int, dict, bool]]:
    """Each hand's (number, setup as given, whether it had an ``actions`` key)."""
    return [(n, json.loads(setup), bool(actions_key)) for n, setup, actions_key in
            db.conn.execute("SELECT n, setup, actions_key FROM hands WHERE session_id = ? "
                            "ORDER BY n", (sid,))]


def seats(db: Database, sid: str) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = {}
    for hand, name in db.conn.execute("SELECT hand, name FROM seats WHERE session_id = ? "
                                      "ORDER BY hand, position", (sid,)):
        seats.setdefault(hand, []).append(name)
    return seats


def seats_out_of_place(db: Database, sid: str) -> list[int]:
    """The hands (0: the opening players) whose seat rows are not numbered
    0, 1, ... in order: (hand, position) is the key, so a hand's positions
    are those exactly when the least is 0 and the most one less than their
    count."""
    return [r[0] for r in db.conn.execute(
        "SELECT hand FROM seats WHERE session_id = ? GROUP BY hand "
        "HAVING min(position) <> 0 OR max(position) <> count(*) - 1 ORDER BY hand", (sid,))]


def results_from(db: Database, sid: str, n: int) -> list[tuple[int, dict | None]]:
    """Each hand's stored result from hand ``n`` on (None: not settled)."""
    return [(k, json.loads(r) if r else None) for k, r in db.conn.execute(
        "SELECT n, result FROM hands WHERE session_id = ? AND n >= ? ORDER BY n", (sid, n))]


def complete_results(db: Database, sid: str) -> list[dict]:
    """The stored results of the session's complete and void hands, in order."""
    return [json.loads(r[0]) for r in db.conn.execute(
        "SELECT result FROM hands WHERE session_id = ? AND status IN ('complete', 'void') "
        "ORDER BY n",
        (sid,))]


def void_count(db: Database, sid: str) -> int:
    """How many of the session's hands are void (settled, yet never played)."""
    return db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND status = 'void'",
                           (sid,)).fetchone()[0]


def disputed(db: Database, sid: str) -> list[tuple[int, list[dict]]]:
    """Each hand of the session that carries a dispute, with its disputes, in
    order of hands."""
    return [(n, json.loads(setup).get("disputes", [])) for n, setup in db.conn.execute(
        "SELECT n, setup FROM hands WHERE session_id = ? AND setup LIKE ? ORDER BY n",
        (sid, '%"disputes"%'))]


def disputes_between(db: Database, sid: str, first: int, last: int
                     ) -> dict[int, tuple[int, int]]:
    """How many disputes each hand numbered ``first`` to ``last`` carries,
    and how many of them its setup says are settled (an imported log's: the
    service's own are settled by events), the hands without one left out: a
    page of hands, read by its key's range."""
    first, last = max(first, -(2**63)), min(last, 2**63 - 1)
    out = {}
    for n, setup in db.conn.execute(
            "SELECT n, setup FROM hands WHERE session_id = ? AND n BETWEEN ? AND ? "
            "AND setup LIKE ?", (sid, first, last, '%"disputes"%')):
        listed = json.loads(setup).get("disputes", ())
        out[n] = (len(listed), sum("settled" in d for d in listed))
    return out


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


def sessions_with_hands(db: Database) -> set[str]:
    """The sessions that have a hand (started, told, or void)."""
    return {r[0] for r in db.conn.execute("SELECT DISTINCT session_id FROM hands").fetchall()}


def unaccepted(db: Database, sid: str) -> dict[int, list[str]]:
    """Each played hand (settled, not void) that someone dealt in has not
    accepted, with who, in seat order (under the names they have now)."""
    out = {}
    for n, setup, seats in db.conn.execute(
            "SELECT n, setup, seats FROM hands WHERE session_id = ? AND status = 'complete' "
            "ORDER BY n", (sid,)).fetchall():
        accepted = json.loads(setup).get("accepted") or ()
        waiting = [p for p in json.loads(seats) if p not in accepted]
        if waiting:
            out[n] = waiting
    return out


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
