"""A session's row: created with its first seats, read back (its JSON
columns read), its header, next stake and seats, quantum and everyone kept
after the table's events, a corrected name written through its derived
rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from . import attempts
from .columns import an_id, now, one_row, to_json
from .handle import Database


def ids(db: Database) -> list[str]:
    return [r[0] for r in db.conn.execute("SELECT id FROM sessions ORDER BY created, id")]


_SESSION_JSON = ("header", "rules_source", "rules_expanded", "players", "everyone")


def row(db: Database, sid: str) -> dict | None:
    """The session's row, its JSON columns read."""
    if not an_id(sid):
        return None
    row = one_row(db.conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,)))
    if row is not None:
        for key in _SESSION_JSON:
            row[key] = json.loads(row[key])
        row["next_seats"] = json.loads(row["next_seats"]) if row["next_seats"] else None
    return row


def all_rows(db: Database) -> list[dict]:
    """Every session's row (JSON read), oldest first."""
    # Each id is a session's, so each row is there.
    return cast(list[dict], [row(db, sid) for sid in ids(db)])


def named(db: Database, ids: list[str]) -> list[dict]:
    """The sessions named by ``ids`` that exist, as ``ids`` orders them (each
    found by its key: the cost is theirs, not the database's): ``players``
    as the table opened, ``everyone`` who has sat at it or sits down for the
    next hand (in order of arrival), ``closed`` and ``started`` when."""
    if not ids:
        return []
    found = {r[0]: {"id": r[0], "created": r[1], "table": r[2], "copy_of": r[7],
                    "players": json.loads(r[3]),
                    "everyone": list(dict.fromkeys([*json.loads(r[4]),
                                                    *json.loads(r[5] or "[]")])),
                    **{k: header.get(k) for k in ("closed", "started")}}
             for r in db.conn.execute(
                 "SELECT id, created, table_name, players, everyone, next_seats, header, copy_of "
                 f"FROM sessions WHERE id IN ({', '.join('?' * len(ids))})", ids)
             for header in (json.loads(r[6]),)}
    return [found[i] for i in ids if i in found]


def insert(db: Database, sid: str, log: dict, header: dict, rules_expanded: dict,
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
    attempts.anchor_group(db, sid)  # its wrong tries' anchor, none yet


def token_hashes(db: Database, sid: str) -> tuple[str, str] | None:
    if not an_id(sid):
        return None
    row = db.conn.execute("SELECT table_token_hash, audit_token_hash FROM sessions "
                          "WHERE id = ?", (sid,)).fetchone()
    return (row[0], row[1]) if row else None


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


def set_everyone(db: Database, sid: str, everyone: list[str]) -> None:
    db.conn.execute("UPDATE sessions SET everyone = ? WHERE id = ?",
                    (to_json(everyone), sid))


def set_brought_forward_from(db: Database, sid: str, earlier: str) -> None:
    db.conn.execute("UPDATE sessions SET brought_forward_from = ? WHERE id = ?",
                    (earlier, sid))


def set_copy_of(db: Database, sid: str, original: str) -> None:
    db.conn.execute("UPDATE sessions SET copy_of = ? WHERE id = ?", (original, sid))


def brought_forward_from(db: Database, sid: str) -> str | None:
    """The earlier table whose debts this one's ``brought_forward`` are (None:
    none, or typed in)."""
    row = db.conn.execute("SELECT brought_forward_from FROM sessions WHERE id = ?",
                          (sid,)).fetchone()
    return row[0] if row else None


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


def opened_at(db: Database, started: str | None) -> list[dict]:
    """The sessions opened at ``started`` (None: those with no time), oldest
    first: each's id, name, players as it opened, rules as given, stake and
    currency (what tells an import whether its night is stored already)."""
    where = "started = ?" if started is not None else "started IS NULL"
    return [{"id": r[0], "table": r[1], "players": json.loads(r[2]),
             "rules": json.loads(r[3]), "stake": r[4], "currency": r[5]}
            for r in db.conn.execute(
                "SELECT id, table_name, players, rules_source, stake, currency FROM sessions "
                f"WHERE {where} ORDER BY created, id", () if started is None else (started,))]
